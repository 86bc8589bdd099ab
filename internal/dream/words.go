package dream

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// contentWords are the words that say what a line is about: the words of
// analysis.Words (CJK text as its character pairs) without memory's stop
// words, numbers, and words of one character, each once, in order.
func contentWords(text string) []string {
	ws := analysis.Words(text)
	out := ws[:0]
	seen := make(map[string]bool, len(ws))
	for _, w := range ws {
		if seen[w] || memory.StopWord(w) || memory.Numberish(w) || utf8.RuneCountInString(w) < 2 {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// wordSet is a word list as a set, for analysis' set similarities.
func wordSet(ws []string) map[string]bool {
	set := make(map[string]bool, len(ws))
	for _, w := range ws {
		set[w] = true
	}
	return set
}

// jaccard is the Jaccard index of two word lists.
func jaccard(a, b []string) float64 { return analysis.Jaccard(wordSet(a), wordSet(b)) }

// containment is how much of the shorter word list the longer one holds.
func containment(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return float64(analysis.Overlap(wordSet(a), wordSet(b))) / float64(min(len(a), len(b)))
}

// nearDuplicate decides whether a fact (a) says nothing an entry (b) does
// not already say: most of their words are shared (Jaccard >= 0.7), or a
// fact of four words or more is almost wholly inside the entry (>= 0.9 of
// its words). A fact that adds to an entry is no duplicate of it. Numbers
// are compared too: "4/14 migrated" and "3/14 migrated" are different
// facts.
// an and bn are the facts' numbers (see numbers), worked out once per fact
// by the caller.
func nearDuplicate(a, b, an, bn []string) bool {
	sa, sb := wordSet(a), wordSet(b)
	if analysis.Jaccard(sa, sb) >= 0.7 {
		return slices.Equal(an, bn)
	}
	if len(a) < 4 || len(a) > len(b) {
		return false
	}
	if float64(analysis.Overlap(sa, sb))/float64(len(a)) < 0.9 {
		return false
	}
	for _, n := range an {
		if !slices.Contains(bn, n) {
			return false
		}
	}
	return true
}

// numbers are the digit runs of a text, sorted, each once. ISO dates are
// left out: a dream anchors facts with the date of their log, and the same
// fact seen on two days is still the same fact.
func numbers(s string) []string {
	s = reISODate.ReplaceAllString(s, " ")
	var out []string
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// wordIndex finds the facts that share rare words with a query, so near
// duplicate detection compares a fact with a handful of others instead of
// all of them (the dream stays linear in the number of entries).
type wordIndex struct {
	post map[string][]int // word -> ids
	df   map[string]int
}

func newWordIndex() *wordIndex {
	return &wordIndex{post: map[string][]int{}, df: map[string]int{}}
}

func (x *wordIndex) add(id int, words []string) {
	for _, w := range words {
		x.post[w] = append(x.post[w], id)
		x.df[w]++
	}
}

// candidates returns the ids sharing one of the query's three rarest words
// (rarest first), each once. Words found in more than maxPost facts are too
// common to narrow anything down and are skipped.
func (x *wordIndex) candidates(words []string, maxPost int) []int {
	ws := slices.Clone(words)
	slices.SortStableFunc(ws, func(a, b string) int { return x.df[a] - x.df[b] })
	var out []int
	seen := map[int]bool{}
	used := 0
	for _, w := range ws {
		p := x.post[w]
		if len(p) == 0 {
			continue
		}
		if len(p) > maxPost {
			break
		}
		for _, id := range p {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		if used++; used == 3 {
			break
		}
	}
	slices.Sort(out)
	return out
}

// slug turns a word or title into a file name: lower-case letters, digits
// and single hyphens.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f && r != '　':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	return b.String()
}

var reISODate = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
