package provenance

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// Identity: an entry is matched to its earlier self (a memory-meta.json
// entry, or a claim of the previous build) by, in order, a shared key (the
// meta id), the exact text, the normalised text, a normalised prefix (an
// entry that grew or was cut keeps its start), and finally word overlap.
// A hash of the first 20 characters, as the seed's bootstrap script uses,
// is never enough: editing the start of an entry would lose its history.

// IdentityThreshold is the Jaccard word overlap at or above which an
// edited entry is taken for its earlier self. 0.56 separates the labelled
// pairs of identity_test.go: the 20 edits of one fact (a detail added or
// cut, a word changed, a correction) score 0.58 or more, while the 20
// pairs of different facts about one subject ("Part 1 published …" /
// "Part 2 published …", "Priya is Sam's manager until …" / "Tomás is
// Sam's manager since …") score 0.54 or less.
const IdentityThreshold = 0.56

// minPrefixWords is the fewest words a normalised prefix match needs, so
// that "Gateway" alone never claims "Gateway host is the Mac mini".
const minPrefixWords = 3

// identity is one side of a match: a text in its forms.
type identity struct {
	key   string   // meta id or "", matched first
	raw   []string // texts as written (Text, Title, Rule...), compared exactly
	norms []string // normalised forms of raw
	words map[string]bool
}

func newIdentity(key string, texts ...string) identity {
	id := identity{key: key}
	seen := map[string]bool{}
	for _, t := range texts {
		t = strings.TrimSpace(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		id.raw = append(id.raw, t)
		if n := analysis.Normalize(t); n != "" {
			id.norms = append(id.norms, n)
		}
	}
	if len(id.raw) > 0 {
		id.words = analysis.WordSet(id.raw[0])
	}
	return id
}

// matchIdentities pairs each of cur with at most one of the identities
// ix indexes (prev), and each of prev with at most one of cur, stage by
// stage. The result maps an index of cur to an index of prev. It is
// deterministic: earlier items of cur win ties, then earlier items of
// prev.
func matchIdentities(cur []identity, ix *identityIndex, threshold float64) map[int]int {
	return matchIdentitiesWithin(cur, ix, threshold, max(64, len(ix.prev)/20))
}

// identityIndex is what matching looks the earlier identities up in:
// maps from each form to the items of prev that have it. It is made once
// for a list that many matches read (a build's claims, which every point
// of the memory's history is matched against) and only read after.
type identityIndex struct {
	prev                         []identity
	byKey, byRaw, byNorm, byHead map[string][]int
	// words are the items of prev by each of their words.
	words map[string][]int
}

func newIdentityIndex(prev []identity) *identityIndex {
	ix := &identityIndex{prev: prev, byKey: map[string][]int{}, byRaw: map[string][]int{}, byNorm: map[string][]int{},
		byHead: map[string][]int{}, words: map[string][]int{}}
	for j, p := range prev {
		if p.key != "" {
			ix.byKey[p.key] = append(ix.byKey[p.key], j)
		}
		for _, r := range p.raw {
			ix.byRaw[r] = append(ix.byRaw[r], j)
		}
		for _, n := range p.norms {
			ix.byNorm[n] = append(ix.byNorm[n], j)
			if h, ok := head(n); ok {
				ix.byHead[h] = append(ix.byHead[h], j)
			}
		}
		for w := range p.words {
			ix.words[w] = append(ix.words[w], j)
		}
	}
	return ix
}

// matchIdentitiesWithin is matchIdentities, with limit the most items of
// prev not yet matched that a word may name and still find candidates by
// overlap.
func matchIdentitiesWithin(cur []identity, ix *identityIndex, threshold float64, limit int) map[int]int {
	prev := ix.prev
	byKey, byRaw, byNorm, byHead := ix.byKey, ix.byRaw, ix.byNorm, ix.byHead
	out := map[int]int{}
	taken := make([]bool, len(prev))
	assign := func(i, j int) {
		out[i] = j
		taken[j] = true
	}
	first := func(js []int, ok func(j int) bool) (int, bool) {
		for _, j := range js {
			if !taken[j] && (ok == nil || ok(j)) {
				return j, true
			}
		}
		return 0, false
	}
	stage := func(find func(c identity) (int, bool)) {
		for i, c := range cur {
			if _, done := out[i]; done {
				continue
			}
			if j, ok := find(c); ok {
				assign(i, j)
			}
		}
	}
	stage(func(c identity) (int, bool) {
		if c.key == "" {
			return 0, false
		}
		return first(byKey[c.key], nil)
	})
	stage(func(c identity) (int, bool) {
		for _, r := range c.raw {
			if j, ok := first(byRaw[r], nil); ok {
				return j, true
			}
		}
		return 0, false
	})
	stage(func(c identity) (int, bool) {
		for _, n := range c.norms {
			if j, ok := first(byNorm[n], nil); ok {
				return j, true
			}
		}
		return 0, false
	})
	stage(func(c identity) (int, bool) {
		for _, n := range c.norms {
			h, ok := head(n)
			if !ok {
				continue
			}
			if j, ok := first(byHead[h], func(j int) bool { return prefixRelated(n, prev[j].norms) }); ok {
				return j, true
			}
		}
		return 0, false
	})
	// Stage 4: word overlap, best pairs first. Candidates come from an
	// inverted index of words, so the cost follows the shared words, not
	// len(cur) x len(prev); the items matched by now are not candidates.
	type pair struct {
		i, j int
		s    float64
	}
	var pairs []pair
	for i, c := range cur {
		if _, done := out[i]; done || len(c.words) == 0 {
			continue
		}
		counts := map[int]int{}
		for w := range c.words {
			ps, open := ix.words[w], 0
			for _, j := range ps {
				if !taken[j] {
					open++
				}
			}
			if open > limit {
				continue // a word in most entries finds no one in particular
			}
			for _, j := range ps {
				if !taken[j] {
					counts[j]++
				}
			}
		}
		for j := range counts {
			if s := analysis.Jaccard(c.words, prev[j].words); s >= threshold {
				pairs = append(pairs, pair{i, j, s})
			}
		}
	}
	sort.Slice(pairs, func(a, b int) bool {
		if pairs[a].s != pairs[b].s {
			return pairs[a].s > pairs[b].s
		}
		if pairs[a].i != pairs[b].i {
			return pairs[a].i < pairs[b].i
		}
		return pairs[a].j < pairs[b].j
	})
	for _, p := range pairs {
		if _, done := out[p.i]; done || taken[p.j] {
			continue
		}
		assign(p.i, p.j)
	}
	return out
}

// head is the first minPrefixWords words of a normalised text.
func head(n string) (string, bool) {
	k := 0
	for i := 0; i < len(n); i++ {
		if n[i] == ' ' {
			k++
			if k == minPrefixWords {
				return n[:i], true
			}
		}
	}
	if n != "" && k == minPrefixWords-1 {
		return n, true // exactly minPrefixWords words
	}
	return "", false
}

// prefixRelated reports whether n and one of others start the same way,
// word for word, for the whole of the shorter one.
func prefixRelated(n string, others []string) bool {
	for _, o := range others {
		a, b := n, o
		if len(a) > len(b) {
			a, b = b, a
		}
		if strings.HasPrefix(b, a) && (len(b) == len(a) || b[len(a)] == ' ') {
			return true
		}
	}
	return false
}

// maxSlugBytes keeps claim file names short enough for every file system
// and readable in Obsidian's file list.
const maxSlugBytes = 60

// slugify makes a file-name slug: lower-case letters and digits of any
// script (diacritics removed), other runs as '-', cut at a word boundary.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(foldLetter(r)))
		default:
			dash = true
		}
	}
	out := norm.NFC.String(b.String())
	if len(out) > maxSlugBytes {
		cut := maxSlugBytes
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		if i := strings.LastIndexByte(out[:cut], '-'); i > maxSlugBytes/2 {
			cut = i
		}
		out = strings.TrimRight(out[:cut], "-")
	}
	if out == "" {
		sum := sha256.Sum256([]byte(s))
		out = "claim-" + hex.EncodeToString(sum[:4])
	}
	return out
}

// foldLetter maps letters that do not decompose to what a reader types.
func foldLetter(r rune) rune {
	switch r {
	case 'ł', 'Ł':
		return 'l'
	case 'ø', 'Ø':
		return 'o'
	case 'đ', 'Đ', 'ð':
		return 'd'
	case 'ı':
		return 'i'
	}
	return r
}
