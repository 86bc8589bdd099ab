package secrets

import "strings"

// Web clippers and HTML-to-Markdown converters escape Markdown punctuation
// inside words: a GitHub token becomes "ghp\_…" and a Stripe key
// "sk\_live\_…". Rendered, the backslashes vanish and the exact token is on
// the page, but the detectors, which read the bytes, see no token. So a
// text holding such escapes is scanned a second time with them removed,
// and every secret found there is reported over the escaped span of the
// text as written.

// isEscapable are the punctuation bytes whose Markdown escapes are removed
// before the second scan: those converters escape inside words, and those
// tokens hold.
func isEscapable(c byte) bool { return strings.IndexByte("_*-.+=~#!|", c) >= 0 }

// runUnescaped scans each line that holds an escape again with its
// escapes removed, and adds what it finds, mapped back onto the text. A
// line at a time keeps the cost to the lines that need it (a long note
// with one escaped word is not scanned twice); a secret escaped over
// several lines is left to the first scan.
func (s *scanner) runUnescaped() {
	t := s.t
	for i := 0; i < len(t); {
		b := strings.IndexByte(t[i:], '\\')
		if b < 0 {
			return
		}
		i += b
		if i+1 >= len(t) || !isEscapable(t[i+1]) {
			i++
			continue
		}
		ls, _ := lineStart(t, i, maxLine)
		le := lineEnd(t, i, maxLine)
		if s.unescapeLine(ls, le) {
			return
		}
		i = le + 1
	}
}

// unescapeLine scans t[ls:le] without its escapes, and reports whether
// the scan should stop.
func (s *scanner) unescapeLine(ls, le int) bool {
	t := s.t
	var b strings.Builder
	b.Grow(le - ls)
	// at[i] is the offset in t of byte i of the unescaped line.
	at := make([]int32, 0, le-ls+1)
	for i := ls; i < le; i++ {
		if t[i] == '\\' && i+1 < le && isEscapable(t[i+1]) {
			i++
		}
		b.WriteByte(t[i])
		at = append(at, int32(i))
	}
	at = append(at, int32(le))
	sub := scanner{t: b.String(), first: s.first, joined: true, unescaped: true}
	sub.run()
	for _, c := range sub.found {
		start, end := int(at[c.start]), int(at[c.end-1])+1
		// A secret starting right after an escape starts at its backslash,
		// so the span redacted is the span written.
		if start > 0 && t[start-1] == '\\' && isEscapable(t[start]) {
			start--
		}
		if s.add(start, end, c.kind, c.rule) {
			return true
		}
	}
	return false
}
