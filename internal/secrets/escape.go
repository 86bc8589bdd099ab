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

// hasEscape reports whether t holds a backslash before an escapable byte.
func hasEscape(t string) bool {
	for i := 0; ; {
		b := strings.IndexByte(t[i:], '\\')
		if b < 0 {
			return false
		}
		i += b + 1
		if i < len(t) && isEscapable(t[i]) {
			return true
		}
	}
}

// runUnescaped scans the text with its Markdown escapes removed, and adds
// what it finds, mapped back onto the text.
func (s *scanner) runUnescaped() {
	t := s.t
	if !hasEscape(t) {
		return
	}
	var b strings.Builder
	b.Grow(len(t))
	// at[i] is the offset in t of byte i of the unescaped text.
	at := make([]int32, 0, len(t)+1)
	for i := 0; i < len(t); i++ {
		if t[i] == '\\' && i+1 < len(t) && isEscapable(t[i+1]) {
			i++
		}
		b.WriteByte(t[i])
		at = append(at, int32(i))
	}
	at = append(at, int32(len(t)))
	sub := scanner{t: b.String(), first: s.first, joined: s.joined, unescaped: true}
	sub.run()
	for _, c := range sub.found {
		start, end := int(at[c.start]), int(at[c.end-1])+1
		// A secret starting right after an escape starts at its backslash
		// ("\_" opens nothing, but keeps the span whole when redacted).
		if start > 0 && t[start-1] == '\\' && isEscapable(t[start]) {
			start--
		}
		if s.add(start, end, c.kind, c.rule) {
			return
		}
	}
}
