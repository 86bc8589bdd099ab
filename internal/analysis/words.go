package analysis

import "strings"

// Words returns the words of text, in order: what is written between
// separators and joiners, case and diacritics folded as Analyze folds
// them, with camelCase kept whole ("mac-mini" gives mac mini, "OpenClaw"
// openclaw, "10.0.0.12" 10 0 0 12), and CJK as Analyze's bigrams. A word
// is the unit of word overlap (WordSet) and of Normalize: one per piece of
// text, where Analyze also gives each compound's joined forms.
func Words(text string) []string {
	return wordTerms(text, false)
}

// WordsAndCompounds is Words with each compound of several words given
// whole before its words ("10.0.0.12:18789 10 0 0 12 18789"): the terms
// that evidence matching compares, so an identifier matches whole as well
// as by its words.
func WordsAndCompounds(text string) []string {
	return wordTerms(text, true)
}

func wordTerms(text string, compounds bool) []string {
	s := getSegmenter()
	defer s.release()
	s.words, s.compounds = true, compounds
	s.run(text)
	return s.terms()
}

// Normalize is the form two texts are compared in for "the same text" and
// "one text inside the other": their words joined by single spaces, so
// case, diacritics, punctuation and the way an identifier is joined do not
// count ("Mac-mini." and "mac mini" agree).
func Normalize(text string) string {
	return strings.Join(Words(text), " ")
}

// WordSet is the set of words of text: the unit of word overlap (Jaccard,
// Dice) where every word counts, as in "is this edited entry the same
// claim?".
func WordSet(text string) map[string]bool {
	ws := Words(text)
	set := make(map[string]bool, len(ws))
	for _, w := range ws {
		set[w] = true
	}
	return set
}

// ContentWordSet is WordSet without stop words: the unit of overlap where
// only what a text is about counts, as in "does this log line say what the
// claim says?".
func ContentWordSet(text string) map[string]bool {
	ws := Words(text)
	set := make(map[string]bool, len(ws))
	for _, w := range ws {
		if !StopWord(w) {
			set[w] = true
		}
	}
	return set
}
