package search

// MinTypoLen is the length in characters from which a query term is
// matched with typos: the static index, the browser and the CLI all
// tolerate them from the same length.
const MinTypoLen = 4

// TypoEligible reports whether a term takes part in typo matching, and its
// length in characters: letters only (identifiers, numbers, dates and CJK
// bigrams must match exactly), at least MinTypoLen-1 characters (an index
// term one shorter than a query term is one edit away).
func TypoEligible(t string) (int, bool) {
	n := 0
	for _, r := range t {
		if !isTypoLetter(r) {
			return 0, false
		}
		n++
	}
	return n, n >= MinTypoLen-1
}

// isTypoLetter accepts the letters of alphabetic scripts as analysis
// leaves them (lower-case, diacritics folded): a-z and the alphabets below
// U+2000 (Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic, Thai, ...)
// except Hangul jamo. The rule is on code points, not Unicode tables, so
// that assets/search/engine.ts applies it identically.
func isTypoLetter(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= 0xC0 && r < 0x2000 && !(r >= 0x1100 && r < 0x1200))
}
