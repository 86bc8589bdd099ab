package secrets

import "strings"

// A secret split over two lines: a long token wrapped in a list item, or
// pasted as two items because it did not fit ("- token: ghp_Ohb…\n
// - GMbJm…"). A line scanner sees two harmless halves. At each line break
// where the line ends with a token-like run and the next line holds
// nothing but another one (after its list, quote or indentation markup),
// the two lines are joined and scanned again; a secret found across the
// join is reported over both lines.

// splitTriggers registers the split-secret detector on every line break.
func splitTriggers() []trigger { return []trigger{{"\n", splitSecret}} }

// isTokenByte is a byte that can continue a token across a line break.
// '.' is left out: at a line's end it ends a sentence far more often.
func isTokenByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '+' || c == '/' || c == '='
}

// splitSecret looks at the line break at nl.
func splitSecret(s *scanner, nl, _ int) bool {
	if s.joined {
		return false
	}
	t := s.t
	te := nl
	if te > 0 && t[te-1] == '\r' {
		te--
	}
	ts := te
	for ts > 0 && te-ts < 512 && isTokenByte(t[ts-1]) {
		ts--
	}
	if te-ts < 8 || !tokenFragment(t[ts:te]) {
		return false
	}
	ns := nl + 1
	ne := lineEnd(t, ns, maxLine)
	hs := ns + containerPrefix(t[ns:ne])
	he := min(span(t, hs, isTokenByte), ne)
	if he-hs < 4 || strings.TrimRight(t[he:ne], " \t\r") != "" || !tokenFragment(t[hs:he]) {
		return false
	}
	// A line that holds a whole secret of its own is not the rest of the
	// line before ("Bearer …" followed by a GitHub token on its own line).
	alone := scanner{t: t[hs:he], joined: true, first: true}
	if alone.run(); len(alone.found) > 0 {
		return false
	}
	ls, _ := lineStart(t, ts, 256)
	cut := te - ls
	sub := scanner{t: t[ls:te] + t[hs:he], joined: true}
	sub.run()
	for _, c := range sub.found {
		if c.start < cut && c.end > cut && s.add(ls+c.start, hs+(c.end-cut), c.kind, c.rule) {
			return true
		}
	}
	return false
}

// tokenFragment reports whether v could be part of a generated token
// rather than a word: it mixes letters and digits, or has a capital after
// its first character and a lower-case letter ("GMbJmTPS", not "Done",
// "2026" or "README").
func tokenFragment(v string) bool {
	var letter, digit, lower, innerUpper bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z':
			letter, lower = true, true
		case c >= 'A' && c <= 'Z':
			letter = true
			innerUpper = innerUpper || i > 0
		case c >= '0' && c <= '9':
			digit = true
		}
		if letter && digit || innerUpper && lower {
			return true
		}
	}
	return false
}
