package mdline

import "strings"

// bytestring is a line as the callers hold it: workspace text as a
// string, the renderer's source as bytes.
type bytestring interface{ ~string | ~[]byte }

// Split splits normalised content ("\n" line endings) into lines without
// their "\n". A final newline does not start an extra empty line.
func Split(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// Indent returns the indentation width of s (a tab advances to the next
// multiple of 4 columns) and the byte offset of its first non-blank
// character.
func Indent(s string) (width, off int) {
	for off < len(s) {
		switch s[off] {
		case ' ':
			width++
		case '\t':
			width += 4 - width%4
		default:
			return width, off
		}
		off++
	}
	return width, off
}

// Heading returns the level and text of an ATX heading ("## Text ##"), or
// 0 when trimmed is no heading. "#tag" is a tag, not a heading.
func Heading(trimmed string) (level int, text string) {
	n := 0
	for n < len(trimmed) && trimmed[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0, ""
	}
	if n < len(trimmed) && trimmed[n] != ' ' && trimmed[n] != '\t' {
		return 0, ""
	}
	text = strings.TrimSpace(trimmed[n:])
	// A closing sequence of #s preceded by a space is not part of the text.
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		text = strings.TrimSpace(t)
	}
	return n, text
}

// ThematicBreak reports a line of three or more '-', '*' or '_' (blanks
// allowed between).
func ThematicBreak(trimmed string) bool {
	if len(trimmed) < 3 {
		return false
	}
	c := trimmed[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(trimmed); i++ {
		switch trimmed[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// Quote strips one level of blockquote marker, reporting whether the line
// was a quote.
func Quote(trimmed string) (string, bool) {
	if !strings.HasPrefix(trimmed, ">") {
		return "", false
	}
	s := trimmed[1:]
	if strings.HasPrefix(s, " ") {
		s = s[1:]
	}
	return s, true
}

func isBlank[T bytestring](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return false
		}
	}
	return true
}
