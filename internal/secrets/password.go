package secrets

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Passwords are the hardest kind to find without flagging prose, so the rules
// are spelled out here. A password finding needs three things:
//
//  1. A key that ends in a password label: password, passwd, passphrase,
//     passcode, pass or pwd, in any case, alone or at the end of an
//     identifier (DB_PASSWORD, db.password, mysqlPassword, --password).
//     The label must end the key: password_hash, passwords, passport and
//     pass-through are other words. The short labels pass and pwd also need
//     to start a line (after list, quote or "export" markup) or follow
//     {, ,, ;, &, ?, ( or a quote, since "tests pass: 3" is prose.
//  2. A separator: ':', '=', ':=', '=>', the full-width '：', "is" ("the
//     wifi password is hunter2"), or for --flags plain whitespace.
//  3. A value that is not a placeholder or a pointer to where the password
//     lives: not <…>, […], {…}, (…), $VAR, ${VAR}, ****, xxx, an UPPER_SNAKE
//     variable name, a path, a URL, a function call, a YAML tag or comment,
//     a word such as "none", "required", "redacted" or "1Password", and not
//     a single plain word followed by more prose ("password: see the vault").
//     The value must hold an ASCII letter or digit.
//
// The value is the quoted string when quoted ("…", '…' or `…`), otherwise
// the text up to the next blank, '&' or quote, without trailing punctuation.

// passwordLabel returns the length of the password label at the start of s,
// and whether it is one of the short, ambiguous labels.
func passwordLabel(s string) (n int, weak bool) {
	if len(s) < 3 || s[0] != 'p' && s[0] != 'P' {
		return 0, false
	}
	if c := s[1] | 0x20; c != 'a' && c != 'w' { // most p-words stop here
		return 0, false
	}
	// Longest first, so "password" is not read as "pass".
	for _, l := range [...]string{"passphrase", "password", "passwort", "passcode", "passwd", "passord"} {
		if hasPrefixFold(s, l) {
			return len(l), false
		}
	}
	if hasPrefixFold(s, "pass") {
		return 4, true
	}
	if hasPrefixFold(s, "pwd") {
		return 3, true
	}
	return 0, false
}

// password matches a "password: value" line whose label starts at i.
func password(t string, i int) (start, end int) {
	n, weak := passwordLabel(t[i:])
	if n == 0 {
		return 0, 0
	}
	j := i + n
	if j < len(t) {
		c := t[j]
		if isAlnum(c) || c == '_' || (c == '-' || c == '.') && j+1 < len(t) && isAlnum(t[j+1]) {
			return 0, 0 // passwords, password_hash, password-manager, password.txt
		}
	}
	ks := i
	for ks > 0 && (isAlnum(t[ks-1]) || strings.IndexByte("_.-", t[ks-1]) >= 0) {
		ks--
	}
	prefix := t[ks:i]
	flag := strings.HasPrefix(prefix, "--")
	ident := strings.TrimLeft(prefix, "-") != ""
	if weak && !ident && !flag && !keyContext(t, ks) {
		return 0, 0
	}

	k := j
	if k < len(t) && (t[k] == '"' || t[k] == '\'') {
		k++
	}
	k = skipByte(t, k, '*') // "**Password**: x"
	sp := skipBlanks(t, k)
	spaced := sp > k
	k = sp
	prose := false
	switch {
	case strings.HasPrefix(t[k:], ":="), strings.HasPrefix(t[k:], "=>"):
		k += 2
	case strings.HasPrefix(t[k:], "://"):
		return 0, 0
	case k < len(t) && (t[k] == ':' || t[k] == '='):
		k++
	case strings.HasPrefix(t[k:], "："):
		k += len("：")
	case spaced && hasPrefixFold(t[k:], "is ") || spaced && hasPrefixFold(t[k:], "is\t"):
		k += 2
		prose = true
	case spaced && flag:
	case k < len(t) && t[k] == '|' && !weak && tableRow(t, k):
		k++ // "| password | hunter2 |": the cell boundary
		prose = true
	case spaced && n == len("password") && netrcLine(t, ks):
		prose = true
	default:
		return 0, 0
	}
	query := ks > 0 && (t[ks-1] == '?' || t[ks-1] == '&')
	return passwordValue(t, k, weak, prose, query)
}

// cjkPasswordLabels are the password labels of Chinese (simplified and
// traditional), Japanese and Korean notes.
var cjkPasswordLabels = []string{"密码", "密碼", "口令", "パスワード", "비밀번호"}

// foreignPasswordLabels are the password labels of other languages that
// passwordLabel does not read (it reads German Passwort and Norwegian
// passord): those of the ten most common languages of notes that have
// their own word. A weak label is also an everyday word (Italian parola
// "word", Polish hasło "slogan"): it must be in key position, and a plain
// word after it is not a password. Each non-ASCII byte widens the keyword
// automaton's table, which every byte of every note pays for, so the list
// is kept to what people write.
var foreignPasswordLabels = []struct {
	label string
	weak  bool
}{
	{"mot de passe", false}, {"contraseña", false}, {"contrasena", false}, {"senha", false},
	{"пароль", false}, {"wachtwoord", false}, {"kennwort", false}, {"lösenord", false},
	{"hasło", true}, {"haslo", true}, {"parola", true},
}

// caseVariants returns s and s with its first letter upper-case: the
// keyword automaton folds ASCII letters only, so "Пароль" is a keyword of
// its own. (Upper case throughout is left out: each non-ASCII byte widens
// the automaton's table, which every byte of every note pays for.)
func caseVariants(s string) []string {
	r := []rune(s)
	title := string(unicode.ToUpper(r[0])) + string(r[1:])
	if title == s || r[0] < utf8.RuneSelf {
		return []string{s}
	}
	return []string{s, title}
}

// passwordTriggers registers the password detectors.
func passwordTriggers() []trigger {
	ts := []trigger{{"pass", latinPassword}, {"pwd", latinPassword}}
	for _, l := range cjkPasswordLabels {
		ts = append(ts, trigger{l, func(s *scanner, at, end int) bool {
			start, e := labelledPassword(s.t, end, false)
			return e > 0 && s.add(start, e, KindPassword, "password")
		}})
	}
	for _, l := range foreignPasswordLabels {
		weak := l.weak
		detect := func(s *scanner, at, end int) bool {
			t := s.t
			if r, _ := utf8.DecodeLastRuneInString(t[:at]); at > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
			if r, _ := utf8.DecodeRuneInString(t[end:]); end < len(t) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
			if weak && !keyContext(t, at) {
				return false
			}
			start, e := labelledPassword(t, end, weak)
			return e > 0 && s.add(start, e, KindPassword, "password")
		}
		for _, k := range caseVariants(l.label) {
			ts = append(ts, trigger{k, detect})
		}
	}
	return ts
}

// latinPassword finds a password after a label starting at at. The label
// must start a word, or be the capitalised part of a camelCase key
// ("dbPassword").
func latinPassword(s *scanner, at, _ int) bool {
	t := s.t
	if !wordStart(t, at) && (t[at] != 'P' || !isLower(t[at-1])) && !upperKey(t, at) {
		return false
	}
	start, end := password(t, at)
	return end > 0 && s.add(start, end, KindPassword, "password")
}

// upperKey reports whether the password label at at ends an upper-case
// environment variable's name that is assigned a value: PGPASSWORD=…,
// MYSQLPWD=….
func upperKey(t string, at int) bool {
	if at == 0 || !isUpper(t[at-1]) || t[at] != 'P' {
		return false
	}
	n, _ := passwordLabel(t[at:])
	return n > 0 && at+n < len(t) && t[at+n] == '=' && span(t, at, isUpper) == at+n
}

// netrcLine reports whether the "password" label at ks is a .netrc token:
// after "machine HOST" or "login USER" on its line, or first on a line
// that follows a netrc "machine" or "login" line.
func netrcLine(t string, ks int) bool {
	ls, ok := lineStart(t, ks, 512)
	if !ok {
		return false
	}
	pre := strings.TrimSpace(t[ls+containerPrefix(t[ls:ks]) : ks])
	if pre != "" {
		f := strings.Fields(pre)
		return len(f) >= 2 && (f[0] == "machine" || f[0] == "default" || f[len(f)-2] == "login")
	}
	if ls == 0 {
		return false
	}
	ps, _ := lineStart(t, ls-1, 512)
	prev := strings.TrimSpace(t[ps : ls-1])
	prev = strings.TrimSpace(prev[containerPrefix(prev):])
	return strings.HasPrefix(prev, "login ") || strings.HasPrefix(prev, "machine ")
}

// labelledPassword matches the value after a CJK or foreign password
// label ending at j, with ':', '：', '=', a table cell boundary or a
// copula (是, 为, 為, は, 는, 은) as the separator. After a weak label a plain
// word is not a password.
func labelledPassword(t string, j int, weak bool) (start, end int) {
	j = skipCJKBlanks(t, j)
	prose := weak
	switch {
	case j < len(t) && (t[j] == ':' || t[j] == '='):
		j++
	case strings.HasPrefix(t[j:], "："):
		j += len("：")
	case hasAnyPrefix(t[j:], "是", "为", "為", "は", "는", "은"):
		_, size := utf8.DecodeRuneInString(t[j:])
		j += size
		prose = true
	case j < len(t) && t[j] == '|' && tableRow(t, j):
		j++
		prose = true
	default:
		return 0, 0
	}
	return passwordValue(t, skipCJKBlanks(t, j), false, prose, false)
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// passwordValue reads and vets the value starting at (or after blanks and
// emphasis at) k. In a URL query string ('?' or '&' before the key) the
// value also ends at '&'.
func passwordValue(t string, k int, weak, prose, query bool) (start, end int) {
	k0 := k
	k = skipByte(t, k, '*')
	k = skipBlanks(t, k)
	k = skipByte(t, k, '*')
	tight := k == k0 // KEY=value, an assignment rather than a sentence
	if k < len(t) && !prose && (t[k] == '\n' || t[k] == '\r') {
		// "password:" ends its line and the value is alone on the next
		// (a soft line break in a paragraph or list item).
		if k = nextLineValue(t, k); k < 0 {
			return 0, 0
		}
	}
	if k >= len(t) {
		return 0, 0
	}
	le := lineEnd(t, k, maxLine)
	vs, ve, quoted := k, k, false
	if q := t[k]; q == '"' || q == '\'' || q == '`' {
		if c := strings.IndexByte(t[k+1:le], q); c >= 0 {
			vs, ve, quoted = k+1, k+1+c, true
		} else {
			vs = k + 1
		}
	}
	if !quoted {
		ve = vs
	scan:
		for ve < le {
			c := t[ve]
			if c < utf8.RuneSelf {
				if c == ' ' || c == '\t' || c == '\r' || c == '"' || c == '\'' || c == '`' || c == '&' && query {
					break
				}
				ve++
				continue
			}
			r, size := utf8.DecodeRuneInString(t[ve:])
			switch {
			case unicode.IsSpace(r), r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFF65:
				break scan // CJK punctuation and full-width forms end a value
			}
			ve += size
		}
		for ve > vs && strings.IndexByte(".,;:)]}*", t[ve-1]) >= 0 {
			ve--
		}
	}
	v := t[vs:ve]
	minLen := 3
	if weak {
		minLen = 4
	}
	if utf8.RuneCountInString(v) < minLen || !hasASCIIAlnum(v) || notAPassword(v, quoted) {
		return 0, 0
	}
	if !quoted && !tight && (allLetters(v) || allDigits(v)) {
		// One plain word after "password: " is a password only when it ends
		// the line, and never after "is" ("password is weak", "password:
		// see the vault"). KEY=word is an assignment and always counts.
		if prose || hasLetter(t[ve:le]) {
			return 0, 0
		}
	}
	return vs, ve
}

// nextLineValue returns where the value starts when the line break at nl
// is followed by a line holding one word and nothing else (after its list,
// quote and indentation markup), or -1. A word that is a key of its own
// ("user:", "a=b") or a code fence is no value.
func nextLineValue(t string, nl int) int {
	if t[nl] == '\r' {
		nl++
	}
	if nl >= len(t) || t[nl] != '\n' {
		return -1
	}
	ns := nl + 1
	ne := lineEnd(t, ns, maxLine)
	vs := ns + containerPrefix(t[ns:ne])
	v := strings.TrimRight(t[vs:ne], " \t\r")
	if v == "" || strings.ContainsAny(v, " \t:=`#|") {
		return -1
	}
	return vs
}

// notAPassword reports values that are placeholders, references or markup
// rather than a password.
func notAPassword(v string, quoted bool) bool {
	// A value holding a placeholder was redacted already; flagging what is
	// left ("$[REDACTED:aws-key]") would make redaction never settle.
	if redacted(v) {
		return true
	}
	switch v[0] {
	case '<', '[', '{', '(', '|', '>', '*':
		return true
	case '#':
		return !quoted // a YAML comment
	case '!':
		return allLetters(v[1:]) // a YAML tag such as !vault
	case '%':
		return v == "%s" || strings.HasPrefix(v, "%(")
	case '$':
		if len(v) > 1 && (v[1] == '{' || v[1] == '(') {
			return true
		}
		return isIdentifier(v[1:])
	}
	if maskOnly(v) || strings.Contains(v, "://") {
		return true
	}
	if strings.HasPrefix(v, "/") && strings.Count(v, "/") >= 2 ||
		strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") {
		return true // a path to where the password is kept
	}
	if p := strings.IndexByte(v, '('); p > 0 && isIdentifier(strings.ReplaceAll(v[:p], ".", "_")) {
		return true // getpass(), os.getenv("X")
	}
	lower := strings.ToLower(v)
	for _, ref := range [...]string{"process.env.", "os.environ", "env.", "secrets.", "vars.", "vault:"} {
		if strings.HasPrefix(lower, ref) {
			return true
		}
	}
	// UPPER_SNAKE names a variable that holds the password.
	if strings.IndexByte(v, '_') >= 0 && strings.IndexFunc(v, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) < 0 {
		return true
	}
	switch strings.TrimRight(lower, "!?") {
	case "none", "null", "nil", "n/a", "na", "empty", "unset", "blank", "required",
		"optional", "tbd", "todo", "unknown", "same", "yes", "no", "true", "false",
		"redacted", "hidden", "masked", "omitted", "removed", "changed", "reset",
		"rotated", "expired", "set", "see", "ask", "default", "env", "prompt",
		"prompted", "sso", "oauth", "saml", "2fa", "mfa", "password", "passwd",
		"pass", "pwd", "your_password", "yourpassword", "your-password",
		"1password", "bitwarden", "lastpass", "keepass", "keepassxc", "keychain",
		"vault", "dashlane", "***", "…":
		return true
	}
	return false
}

// keyContext reports whether the key starting at ks is in key position: at
// the start of a line after list, quote, heading, table or "export"/"set"
// markup, or right after a delimiter of a key=value list or object.
func keyContext(t string, ks int) bool {
	if ks > 0 && strings.IndexByte("{,;&?(\"'", t[ks-1]) >= 0 {
		return true
	}
	ls, ok := lineStart(t, ks, 256)
	if !ok {
		return false
	}
	pre := strings.TrimRight(t[ls:ks], " \t")
	for _, w := range [...]string{"export", "set", "ENV"} {
		if strings.HasSuffix(pre, w) {
			pre = strings.TrimRight(strings.TrimSuffix(pre, w), " \t")
			break
		}
	}
	return strings.Trim(pre, " \t>*+-#|`\"'[]x.)0123456789") == ""
}

func skipByte(t string, k int, b byte) int {
	for k < len(t) && t[k] == b {
		k++
	}
	return k
}

// skipCJKBlanks skips ASCII blanks and the ideographic space U+3000.
func skipCJKBlanks(t string, j int) int {
	for {
		j = skipBlanks(t, j)
		if !strings.HasPrefix(t[j:], "\u3000") {
			return j
		}
		j += len("\u3000")
	}
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '_' {
			return false
		}
	}
	return !isDigit(s[0])
}

func hasASCIIAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if isAlnum(s[i]) {
			return true
		}
	}
	return false
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

func allLetters(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

func allDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}
