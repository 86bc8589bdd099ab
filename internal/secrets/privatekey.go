package secrets

import "strings"

// privateKeyTriggers registers the key block detector. It does the job of
// gitleaks' private-key rule, and also finds blocks a line scanner misses.
func privateKeyTriggers() []trigger {
	return []trigger{{"-----BEGIN ", func(s *scanner, at, _ int) bool {
		start, end := privateKey(s.t, at)
		return end > 0 && s.add(start, end, KindPrivateKey, "private-key")
	}}}
}

// privateKey matches a private key block starting at i ("-----BEGIN ").
// The block runs to its END line; when the END line is missing (a truncated
// paste) it runs to the end of the base64 body. Lines may carry Markdown
// container markup (indentation, "> " quotes, "- " or "1. " list markers,
// in any nesting) or a comment prefix ("# ", "// "). A key written on one
// line, with literal "\n" escapes (as in a JSON service-account file) or
// with its line breaks turned into spaces (as chat pastes do), is handled
// too. A header with no body (a mention in prose) is not a secret.
func privateKey(t string, i int) (start, end int) {
	if !strings.HasPrefix(t[i:], "-----BEGIN ") {
		return 0, 0
	}
	const begin = "-----BEGIN "
	hdr := t[i+len(begin) : min(len(t), i+len(begin)+64)]
	closeAt := strings.Index(hdr, "-----")
	if closeAt < 0 || !strings.Contains(hdr[:closeAt], "PRIVATE KEY") || strings.IndexByte(hdr[:closeAt], '\n') >= 0 {
		return 0, 0
	}
	bodyStart := i + len(begin) + closeAt + len("-----")
	const minBody = 32 // base64 characters; real keys have hundreds
	he := skipBlanks(t, bodyStart)
	if he < len(t) && t[he] == '\r' {
		he++
	}
	if he < len(t) && t[he] != '\n' {
		if e := spacedKeyEnd(t, bodyStart); e > 0 {
			return i, e
		}
		if e := brKeyEnd(t, he); e > 0 {
			return i, e
		}
		// One-line form: the body runs on ("\nMIIE…\n-----END …-----").
		e := span(t, bodyStart, func(c byte) bool { return isBase64(c) || c == '\\' })
		if base64Count(t[bodyStart:e]) < minBody {
			return 0, 0
		}
		if tail := t[e:min(len(t), e+64)]; strings.HasPrefix(tail, "-----END ") {
			rest := tail[len("-----END "):]
			if c := strings.Index(rest, "-----"); c >= 0 && strings.Contains(rest[:c], "PRIVATE KEY") {
				return i, e + len("-----END ") + c + len("-----")
			}
		}
		return i, e
	}
	// PEM bodies are lines of equal length with a shorter last line; once a
	// short line is seen only the END line may follow, which keeps a
	// truncated key from swallowing the next line of prose.
	body, lastBody, blanks, width, closed := 0, he, 0, 0, false
	for pos := he + 1; pos < len(t); {
		le := strings.IndexByte(t[pos:], '\n')
		if le < 0 {
			le = len(t)
		} else {
			le += pos
		}
		line := t[pos:le]
		lead := keyLinePrefix(line)
		trimmed := strings.TrimRight(line[lead:], " \t\r")
		switch {
		case strings.HasPrefix(trimmed, "-----END "):
			tail := trimmed[len("-----END "):]
			c := strings.Index(tail, "-----")
			if c < 0 || !strings.Contains(tail[:c], "PRIVATE KEY") || body < minBody {
				return 0, 0
			}
			return i, pos + lead + len("-----END ") + c + len("-----")
		case trimmed == "":
			if blanks++; blanks > 1 {
				pos = len(t)
				continue
			}
		case !closed && allBase64(trimmed) && (width == 0 || len(trimmed) <= width):
			if width == 0 {
				width = len(trimmed)
			} else if len(trimmed) < width {
				closed = true
			}
			body += len(trimmed)
			lastBody, blanks = le, 0
		case body > 0 && len(trimmed) == 5 && trimmed[0] == '=' && allBase64(trimmed[1:]):
			lastBody, blanks = le, 0 // a PGP armor checksum ("=Qx7A")
		case body == 0 && isArmorHeader(trimmed):
			lastBody, blanks = le, 0
		default:
			pos = len(t)
			continue
		}
		pos = le + 1
	}
	if body < minBody {
		return 0, 0
	}
	return i, lastBody
}

// keyLinePrefix returns the length of what precedes a key line's content:
// Markdown container markup and comment markers ("# ", "// "). A '/' is
// a comment marker only when a blank follows: base64 lines can start with
// "/".
func keyLinePrefix(line string) int {
	i := 0
	for {
		j := i + containerPrefix(line[i:])
		switch {
		case strings.HasPrefix(line[j:], "#"):
			j = skipBlanks(line, j+len(line[j:])-len(strings.TrimLeft(line[j:], "#")))
		case strings.HasPrefix(line[j:], "//") && (j+2 == len(line) || isBlank(line[j+2])):
			j = skipBlanks(line, j+2)
		}
		if j == i {
			return i
		}
		i = j
	}
}

// spacedKeyEnd returns the end of a one-line key block whose body lines
// are separated by spaces, when its END marker is on the same line; 0
// otherwise. Without the END marker the words after a body cannot be told
// from prose, so the caller falls back to the unspaced form.
func spacedKeyEnd(t string, bodyStart int) int {
	if b := skipBlanks(t, bodyStart); b == len(t) || !isBase64(t[b]) {
		return 0
	}
	le := lineEnd(t, bodyStart, 8<<10)
	line := t[bodyStart:le]
	endAt := strings.Index(line, "-----END ")
	if endAt < 0 {
		return 0
	}
	body := line[:endAt]
	if !strings.ContainsAny(strings.TrimSpace(body), " \t") || base64Count(body) < 32 {
		return 0
	}
	for i := 0; i < len(body); i++ {
		if c := body[i]; !isBase64(c) && !isBlank(c) {
			return 0
		}
	}
	rest := line[endAt+len("-----END "):]
	c := strings.Index(rest, "-----")
	if c < 0 || !strings.Contains(rest[:c], "PRIVATE KEY") {
		return 0
	}
	return bodyStart + endAt + len("-----END ") + c + len("-----")
}

// brKeyEnd returns the end of a key block whose lines are joined by HTML
// line breaks ("<br>", "<br/>", "<br />"), as a key pasted into a Markdown
// table cell is, from the first break at i: the END marker's end, or the
// end of the body when the marker is missing; 0 when no such body follows.
func brKeyEnd(t string, i int) int {
	le := lineEnd(t, i, 64<<10)
	body, last := 0, 0
	for {
		n := brLen(t[i:le])
		if n == 0 {
			break
		}
		i = skipBlanks(t[:le], i+n)
		if rest, ok := strings.CutPrefix(t[i:le], "-----END "); ok {
			c := strings.Index(rest, "-----")
			if c < 0 || !strings.Contains(rest[:c], "PRIVATE KEY") || body < 32 {
				return 0
			}
			return i + len("-----END ") + c + len("-----")
		}
		e := span(t[:le], i, isBase64)
		if e == i {
			break
		}
		body += e - i
		i, last = e, e
		i = skipBlanks(t[:le], i)
	}
	if body < 32 {
		return 0
	}
	return last
}

// brLen returns the length of the HTML line break s starts with, or 0.
func brLen(s string) int {
	if !hasPrefixFold(s, "<br") {
		return 0
	}
	j := skipBlanks(s, 3)
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j < len(s) && s[j] == '>' {
		return j + 1
	}
	return 0
}

func allBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isBase64(s[i]) {
			return false
		}
	}
	return true
}

func base64Count(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isBase64(s[i]) {
			n++
		}
	}
	return n
}

// isArmorHeader matches PEM and PGP armor headers ("Proc-Type: 4,ENCRYPTED",
// "DEK-Info: …", "Version: GnuPG v2", "Comment: …").
func isArmorHeader(s string) bool {
	c := strings.Index(s, ": ")
	if c <= 0 {
		return false
	}
	for i := 0; i < c; i++ {
		if !isAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}
