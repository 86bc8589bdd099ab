package secrets

import "strings"

// Passwords given to a command on its command line, as notes keep them:
// "mysql -u root -pS3cret", "mysql -u root -p S3cret", "sshpass -p 'pw' ssh
// host", "redis-cli -a pw". A line scanner looking for "password" misses
// them, and "-p" alone means a port to ssh and "make the parents" to mkdir,
// so the flag counts only after the command it belongs to.

// passwordFlags maps a command (or the prefix of a family of commands) to
// its password flag.
var passwordFlags = map[string]string{
	"mysql":     "-p", // mysqldump, mysqladmin …
	"mariadb":   "-p", // mariadb-dump …
	"sshpass":   "-p",
	"redis-cli": "-a",
}

// commandTriggers registers the command-line password detector.
func commandTriggers() []trigger {
	var ts []trigger
	for cmd := range passwordFlags {
		ts = append(ts, trigger{cmd, commandPassword})
	}
	return ts
}

// commandPassword finds the password flag's value on the command line
// whose command starts at at.
func commandPassword(s *scanner, at, end int) bool {
	t := s.t
	if !wordStart(t, at) || at > 0 && (t[at-1] == '-' || t[at-1] == '.' || t[at-1] == '_') {
		return false // php-mysql, my.mysql: names, not the command
	}
	cmd := ""
	for c := range passwordFlags {
		if equalFold(t[at:end], c) {
			cmd = c
		}
	}
	flag := passwordFlags[cmd]
	if flag == "" {
		return false
	}
	// The command word may go on: mysqldump, mariadb-dump, mysql.exe.
	i := span(t, end, func(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '.' })
	// A command line longer than this, or a flag after its 24th word, is
	// not one people type; the bounds keep a long line of command names
	// linear to scan.
	le := min(commandEnd(t, i, 3), i+1024)
	afterFlag := false // the previous word was the flag alone
	for n := 0; n < 24; n++ {
		w, ok := nextShellWord(t, i, le)
		if !ok {
			return false
		}
		i = w.end
		arg := t[w.start:w.end]
		var vs, ve int
		switch {
		case afterFlag:
			afterFlag = false
			vs, ve = w.valueStart, w.valueEnd
			if arg[0] == '-' || flag == "-p" && cmdIsMySQL(cmd) && !w.quoted && plainName(t[vs:ve]) {
				continue // "-p mydb": mysql prompts and mydb is the database
			}
		case arg == flag:
			afterFlag = true
			continue
		case strings.HasPrefix(arg, flag) && !strings.HasPrefix(arg, "--"):
			vs, ve = w.valueStart+len(flag), w.valueEnd
			if t[vs] == '"' || t[vs] == '\'' {
				vs++
				ve = strings.IndexByte(t[vs:w.end], t[vs-1]) + vs
				if ve < vs {
					continue
				}
			}
		default:
			continue
		}
		if ve-vs >= 3 && !notAPassword(t[vs:ve], true) {
			return s.add(vs, ve, KindPassword, "cli-password")
		}
	}
	return false
}

// cmdIsMySQL reports whether the command is of the MySQL family, whose
// "-p" takes its value attached and prompts when it stands alone.
func cmdIsMySQL(cmd string) bool {
	c := strings.ToLower(cmd)
	return c == "mysql" || c == "mariadb"
}

// plainName reports a database-name-like word: lower-case letters, '_' and
// '-' only.
func plainName(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isLower(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// commandEnd returns the end of the command line starting at i: its line,
// and up to more lines when lines end with a backslash continuation.
func commandEnd(t string, i, more int) int {
	le := lineEnd(t, i, maxLine)
	for n := 0; n < more && le < len(t) && le > i && strings.HasSuffix(strings.TrimRight(t[i:le], " \t\r"), "\\"); n++ {
		le = lineEnd(t, le+1, maxLine)
	}
	return le
}

// shellWord is one word of a command line: [start, end) in the text and
// its value without surrounding quotes.
type shellWord struct {
	start, end           int
	valueStart, valueEnd int
	quoted               bool
}

// nextShellWord returns the word of the command line t[:le] that starts
// at or after i (after blanks and backslash continuations), keeping quoted
// parts together; ok is false at the line's end or at a shell operator (;,
// |, &, `, #), where the command ends.
func nextShellWord(t string, i, le int) (w shellWord, ok bool) {
	for i < le && (isSpace(t[i]) || t[i] == '\\' && i+1 < le && isSpace(t[i+1])) {
		i++
	}
	if i >= le || strings.IndexByte(";|&`#", t[i]) >= 0 {
		return w, false
	}
	w = shellWord{start: i, valueStart: i}
	if q := t[i]; q == '"' || q == '\'' {
		c := strings.IndexByte(t[i+1:le], q)
		if c < 0 {
			return w, false
		}
		w.valueStart, w.valueEnd, w.quoted = i+1, i+1+c, true
		w.end = i + 2 + c
		return w, true
	}
	for i < le && !isSpace(t[i]) && t[i] != '`' && t[i] != ';' && t[i] != '|' {
		if t[i] == '"' || t[i] == '\'' {
			if c := strings.IndexByte(t[i+1:le], t[i]); c >= 0 {
				i += c + 1
			}
		}
		i++
	}
	w.valueEnd, w.end = i, i
	return w, true
}
