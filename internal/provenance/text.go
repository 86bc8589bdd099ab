package provenance

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/go-porterstemmer"
	"golang.org/x/text/unicode/norm"
)

// Text is compared in two ways. Identity (is this edited entry the same
// claim as before?) uses plain word sets and Jaccard overlap. Evidence (do
// these log lines say what the claim says?) uses terms (case and
// diacritics folded, CJK as bigrams, identifiers kept whole and cut at
// their joiners, English words stemmed) plus every date in the text
// written as YYYY-MM-DD, minus stop words, so "on October 21" in a log
// meets "2026-10-21" in a claim.
//
// The terms follow the rules of the search analysis (internal/search) in
// small: the search package builds its corpus from the vault, which
// depends on this package, so it cannot be imported here.

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
	var tm termer
	return tm.terms(text, ref)
}

// termer computes evidence terms, remembering stems: one per goroutine,
// since the corpus stems the same few thousand words again and again.
type termer struct {
	stems map[string]string
}

func (tm *termer) terms(text string, ref time.Time) []string {
	terms := analyze(text, true)
	for _, d := range findDates(text, ref) {
		terms = append(terms, analyze(d.Format("2006-01-02"), true)...)
	}
	out := terms[:0]
	for _, t := range terms {
		if stopWords[t] || (len(t) == 1 && t[0] < utf8.RuneSelf) {
			continue
		}
		out = append(out, tm.stem(t))
	}
	slices.Sort(out)
	return dedupeSorted(out)
}

func (tm *termer) stem(t string) string {
	if len(t) < 4 {
		return t
	}
	if s, ok := tm.stems[t]; ok {
		return s
	}
	s := stem(t)
	if tm.stems == nil {
		tm.stems = map[string]string{}
	}
	if len(tm.stems) < 1<<16 {
		tm.stems[t] = s
	}
	return s
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

// normalise folds text for exact and substring comparison: its words
// (case and diacritics folded, punctuation dropped, identifiers cut at
// their joiners) joined by single spaces, so "mac-mini" and "Mac mini"
// agree.
func normalise(text string) string {
	return strings.Join(analyze(text, false), " ")
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
	inter := commonWords(a, b)
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// commonWords is |a∩b|, the overlap that jaccard and dice both measure.
// It walks the smaller set.
func commonWords(a, b map[string]bool) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
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

// analyze cuts text into terms. Letters and digits form words; words
// joined by / \ @ : . _ or - form a compound ("10.0.0.12",
// "e_auth_4031", "2026-10-21"), emitted whole when joined is set and then
// as its words; a run of Han, kana or Hangul is emitted as overlapping
// bigrams, as CJK has no spaces. Case and diacritics are folded.
func analyze(text string, joined bool) []string {
	if isASCII(text) {
		return analyzeASCII(strings.ToLower(text), joined)
	}
	return analyzeRunes(text, joined)
}

// analyzeRunes is analyze for any text.
func analyzeRunes(text string, joined bool) []string {
	var out []string
	folded := fold(text)
	rs := []rune(folded)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case isCJK(r):
			j := i
			for j < len(rs) && isCJK(rs[j]) {
				j++
			}
			if j-i == 1 {
				out = append(out, string(rs[i]))
			}
			for k := i; k+1 < j; k++ {
				out = append(out, string(rs[k:k+2]))
			}
			i = j
		case isWordRune(r):
			// W+ (J+ W+)*
			j := i
			var leaves []string
			start := i
			for {
				for j < len(rs) && isWordRune(rs[j]) && !isCJK(rs[j]) {
					j++
				}
				leaves = append(leaves, string(rs[start:j]))
				k := j
				for k < len(rs) && isJoiner(rs[k]) {
					k++
				}
				if k > j && k < len(rs) && isWordRune(rs[k]) && !isCJK(rs[k]) {
					start, j = k, k
					continue
				}
				break
			}
			if joined && len(leaves) > 1 {
				out = append(out, string(rs[i:j]))
			}
			out = append(out, leaves...)
			i = j
		default:
			i++
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isJoiner(r rune) bool {
	switch r {
	case '/', '\\', '@', ':', '.', '_', '-':
		return true
	}
	return false
}

func isCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) || r == 'ー')
}

// fold lower-cases s and strips diacritics (é→e, ō→o), keeping CJK as is.
func fold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	slow := false
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
		case r < rune(len(latinFold)) && latinFold[r] != "":
			b.WriteString(latinFold[r])
		default:
			b.WriteRune(r)
			slow = true
		}
	}
	if !slow {
		return b.String()
	}
	// Other scripts, compatibility forms (full width) and decomposed text.
	var out strings.Builder
	out.Grow(b.Len())
	for _, r := range norm.NFKD.String(b.String()) {
		if unicode.Is(unicode.Mn, r) && r != 0x3099 && r != 0x309A { // kana voicing marks stay
			continue
		}
		switch r {
		case 'ß':
			out.WriteString("ss")
			continue
		}
		out.WriteRune(foldLetter(unicode.ToLower(r)))
	}
	return norm.NFC.String(out.String())
}

// latinFold maps the Latin letters up to U+024F to their folded form, so
// that the common accented letters fold without normalising the text. It
// is computed once and only read.
var latinFold = func() []string {
	t := make([]string, 0x250)
	for r := rune(0xC0); r < 0x250; r++ {
		if !unicode.IsLetter(r) {
			continue
		}
		var b strings.Builder
		for _, d := range norm.NFKD.String(string(r)) {
			if !unicode.Is(unicode.Mn, d) {
				b.WriteRune(foldLetter(unicode.ToLower(d)))
			}
		}
		if r == 'ß' {
			b.Reset()
			b.WriteString("ss")
		}
		if s := b.String(); isASCII(s) && s != "" {
			t[r] = s
		}
	}
	return t
}()

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// analyzeASCII is analyze for lower-case ASCII text, without decoding
// runes: most log lines are plain ASCII, and the corpus analyses every one.
func analyzeASCII(s string, joined bool) []string {
	out := make([]string, 0, len(s)/5)
	word := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	join := func(c byte) bool {
		return c == '/' || c == '\\' || c == '@' || c == ':' || c == '.' || c == '_' || c == '-'
	}
	for i := 0; i < len(s); {
		if !word(s[i]) {
			i++
			continue
		}
		start, j := i, i
		n := 0
		for {
			ls := j
			for j < len(s) && word(s[j]) {
				j++
			}
			out = append(out, s[ls:j])
			n++
			k := j
			for k < len(s) && join(s[k]) {
				k++
			}
			if k > j && k < len(s) && word(s[k]) {
				j = k
				continue
			}
			break
		}
		if joined && n > 1 {
			// The compound goes before its leaves, as analyze emits it.
			out = append(out, "")
			copy(out[len(out)-n:], out[len(out)-n-1:len(out)-1])
			out[len(out)-n-1] = s[start:j]
		}
		i = j
	}
	return out
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
