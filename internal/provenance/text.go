package provenance

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/dates"
)

// Text is compared in two ways, both by the one analysis every package
// shares (internal/analysis). Identity (is this edited entry the same
// claim as before?) uses word sets and Jaccard overlap. Evidence (do these
// log lines say what the claim says?) uses the words and compounds of the
// text (analysis.WordsAndCompounds), English words stemmed, plus every date in the text written as YYYY-MM-DD, minus
// stop words, so "on October 21" in a log meets "2026-10-21" in a claim.

// isJoinedTerm reports whether an evidence term is a compound (it keeps a
// joiner such as '-' or '.'), as opposed to a word.
func isJoinedTerm(t string) bool { return strings.ContainsAny(t, `/\@:._-`) }

// evidenceTerms returns the distinct matching terms of text, sorted:
// words and compounds minus stop words and single ASCII letters, plus dates
// written in any supported form as YYYY-MM-DD (partial dates resolved
// against ref; zero ref leaves them alone).
func evidenceTerms(text string, ref time.Time) []string {
	var tm termer
	return tm.terms(text, ref)
}

// termer computes evidence terms, remembering stems: one per goroutine,
// since the corpus stems the same few thousand words again and again.
type termer struct {
	stems map[string]string
}

func (tm *termer) terms(text string, ref time.Time) []string {
	return tm.split(text).at(ref, tm)
}

// textTerms are a text's evidence terms before a ref is known: the terms
// of its words, and the dates it writes, which at completes. A text read
// at many refs (a claim at each point of its history) is split once.
type textTerms struct {
	words   []string // sorted, distinct; shared, never written to
	written []dates.Written
}

func (tm *termer) split(text string) *textTerms {
	return &textTerms{words: tm.keep(analysis.WordsAndCompounds(text)), written: dates.Scan(text)}
}

// at is the text's terms with its dates resolved against ref: the words'
// terms themselves (shared) when it writes no date.
func (t *textTerms) at(ref time.Time, tm *termer) []string {
	if len(t.written) == 0 {
		return t.words
	}
	var raw []string
	for _, w := range t.written {
		if d, ok := w.Resolve(ref); ok {
			raw = append(raw, analysis.WordsAndCompounds(d.Format("2006-01-02"))...)
		}
	}
	if len(raw) == 0 {
		return t.words
	}
	// The words are kept already: stemming a stem again may change it.
	out := append(append([]string(nil), t.words...), tm.keep(raw)...)
	slices.Sort(out)
	return slices.Compact(out)
}

// keep stems terms, drops stop words and single ASCII letters, and sorts
// what is left without repeats, in place.
func (tm *termer) keep(terms []string) []string {
	out := terms[:0]
	for _, t := range terms {
		if analysis.StopWord(t) || (len(t) == 1 && t[0] < utf8.RuneSelf) {
			continue
		}
		out = append(out, tm.stem(t))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (tm *termer) stem(t string) string {
	if len(t) < 4 {
		return t
	}
	if s, ok := tm.stems[t]; ok {
		return s
	}
	s := analysis.Stem(t)
	if tm.stems == nil {
		tm.stems = map[string]string{}
	}
	if len(tm.stems) < 1<<16 {
		tm.stems[t] = s
	}
	return s
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
