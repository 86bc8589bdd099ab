package provenance

import (
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/go-porterstemmer"

	"github.com/dreamwiki/dreamwiki/internal/search"
)

// Text is compared in two ways. Identity (is this edited entry the same
// claim as before?) uses plain word sets and Jaccard overlap. Evidence (do
// these log lines say what the claim says?) uses the search analysis (case
// and diacritic folding, CJK bigrams, identifiers cut at their joiners)
// plus every date in the text written as YYYY-MM-DD, minus stop words, so
// "on October 21" in a log meets "2026-10-21" in a claim.

// stopWords are English function words that say nothing about what a line
// is about. The search analysis keeps them (phrase queries need them);
// matching a claim to its evidence must not.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but nor so yet of to in on at by for with from into onto
		over under about after before since until till than then as is are was were be been being am
		it its it's this that these those there here he him his she her hers they them their theirs we us
		our ours you your yours i me my mine not no yes do does did done doing have has had having will
		would shall should can could may might must just only also very too more most less least some any
		all each every both either neither other such own same few many much what which who whom whose
		when where why how if else while again once out up down off per via etc s t re ve ll d m`) {
		m[w] = true
	}
	return m
}()

// isJoinedTerm reports whether a search term is a joined form (it keeps a
// joiner such as '-' or '.'), as opposed to a leaf word.
func isJoinedTerm(t string) bool { return strings.ContainsAny(t, `/\@:._-`) }

// evidenceTerms returns the distinct matching terms of text, sorted:
// analysed terms minus stop words and single ASCII letters, plus dates
// written in any supported form as YYYY-MM-DD (partial dates resolved
// against ref; zero ref leaves them alone).
func evidenceTerms(text string, ref time.Time) []string {
	terms := search.Analyze(text)
	for _, d := range findDates(text, ref) {
		terms = append(terms, search.Analyze(d.Format("2006-01-02"))...)
	}
	out := terms[:0]
	for _, t := range terms {
		if stopWords[t] || (len(t) == 1 && t[0] < utf8.RuneSelf) {
			continue
		}
		out = append(out, stem(t))
	}
	sort.Strings(out)
	return dedupeSorted(out)
}

// stem reduces an English word to its Porter stem ("points" and "point",
// "retrained" and "retrain" meet), so that a claim reworded from its log
// line still shares its words. Only plain ASCII words of four letters or
// more are stemmed: identifiers, numbers and other scripts stay as they
// are.
func stem(t string) string {
	if len(t) < 4 {
		return t
	}
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return t
		}
	}
	return porterstemmer.StemString(t)
}

func dedupeSorted(s []string) []string {
	if len(s) < 2 {
		return s
	}
	j := 1
	for i := 1; i < len(s); i++ {
		if s[i] != s[j-1] {
			s[j] = s[i]
			j++
		}
	}
	return s[:j]
}

// normalise folds text for exact and substring comparison: the search
// analysis's terms (case and diacritics folded, punctuation dropped)
// joined by single spaces, leaves only so "mac-mini" and "mac mini" agree.
func normalise(text string) string {
	toks := search.AnalyzeTokens(text)
	var b strings.Builder
	b.Grow(len(text))
	for _, t := range toks {
		if isJoinedTerm(t.Term) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Term)
	}
	return b.String()
}

// wordSet is the set of normalised leaf words of text, stop words kept:
// the unit of Jaccard overlap for claim identity.
func wordSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(normalise(text)) {
		set[w] = true
	}
	return set
}

// jaccard is |a∩b| / |a∪b|; two empty sets are unrelated (0).
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// firstSentence cuts s after its first sentence, or at n runes.
func firstSentence(s string, n int) string {
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?' || r == '。') && i > 12 {
			rest := s[i+utf8.RuneLen(r):]
			if rest == "" || rest[0] == ' ' {
				s = s[:i+utf8.RuneLen(r)]
				break
			}
		}
	}
	return clip(s, n)
}

// clip cuts s to at most n runes at a word boundary, adding "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if n == 0 {
			cut = i
			break
		}
		n--
	}
	if sp := strings.LastIndexFunc(s[:cut], unicode.IsSpace); sp > cut/2 {
		cut = sp
	}
	return strings.TrimRightFunc(s[:cut], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + "…"
}
