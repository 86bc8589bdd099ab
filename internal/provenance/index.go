package provenance

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// source is one workspace file evidence can point into, split into blocks.
type source struct {
	path    string
	kind    SourceKind
	date    time.Time
	lines   []string
	blocks  []block
	pieces  []piece
	private bool
	// units are the corpus units of the pieces, -1 for a piece that is
	// not indexed (nil when the file is not in the corpus).
	units []int32
	// terms are the evidence terms of the pieces, filled when the corpus
	// is built or on first use (see pieceTerms): many pointers name the
	// same daily log, and stemming its pieces again for each was most of
	// the cost of resolving them.
	terms [][]string
	// norms are the texts of the pieces normalised (analysis.Normalize),
	// which classify compares claims with; filled for a corpus's sources
	// when they are made.
	norms []string
}

// pieceTerms returns the evidence terms of piece i, computing them with tm
// once. Not safe for concurrent use on one source.
func (s *source) pieceTerms(i int, tm *termer) []string {
	if s.terms == nil {
		s.terms = make([][]string, len(s.pieces))
	}
	if s.terms[i] == nil {
		s.terms[i] = tm.terms(s.pieces[i].Text, s.date)
		if s.terms[i] == nil {
			s.terms[i] = []string{}
		}
	}
	return s.terms[i]
}

// blockAt returns the index of the block holding line ln, -1 when none.
func (s *source) blockAt(ln int) int {
	i := sort.Search(len(s.blocks), func(i int) bool { return s.blocks[i].End >= ln })
	if i < len(s.blocks) && s.blocks[i].Start <= ln {
		return i
	}
	return -1
}

// unit is one indexed piece.
type unit struct {
	src    *source
	piece  int
	terms  []int32 // sorted term ids
	weight float64 // sum of the terms' idf
	// recall is set when the recall store or an event points at the block:
	// MethodRecall or MethodEvent.
	recall Method
}

// maxWalk bounds the postings walked for one term of a claim.
const maxWalk = 4096

// corpus is the inverted index of every block of the daily logs and the
// conversation summaries: term -> blocks. Matching a claim walks the
// postings of the claim's rarer terms only, so its cost follows how often
// those terms occur, never notes x claims.
type corpus struct {
	ids      map[string]int32
	postings [][]int32
	idf      []float64
	units    []unit
	// unknownIDF weighs claim terms found in no block: as rare as can be.
	unknownIDF float64
	// commonDF is the document frequency above which a term's postings are
	// not walked (its weight still counts when a block is scored).
	commonDF int
}

// termAll works out the terms of every piece (see pieceTerms).
func (s *source) termAll(tm *termer) {
	for i := range s.pieces {
		s.pieceTerms(i, tm)
	}
}

// normAll normalises the text of every piece.
func (s *source) normAll() {
	s.norms = make([]string, len(s.pieces))
	for i, p := range s.pieces {
		s.norms[i] = analysis.Normalize(p.Text)
	}
}

// newCorpus indexes the blocks of srcs, whose terms are worked out
// (termAll); it numbers their units. distinct is about how many distinct
// terms they have, 0 when that is not known.
func newCorpus(srcs []*source, distinct int) *corpus {
	all := 0
	for _, s := range srcs {
		for i := range s.pieces {
			all += len(s.terms[i])
		}
	}
	// Sized for the distinct terms, far fewer than all of them: making a
	// map larger than it needs was most of indexing a corpus again.
	size := min(all, 1<<14)
	if distinct > 0 {
		size = distinct + distinct/8
	}
	return (&corpus{ids: make(map[string]int32, size)}).extend(srcs)
}

// extend returns the corpus of c's blocks followed by those of srcs
// (their terms worked out), numbered as newCorpus numbers them all: c's
// terms and units keep their ids, the new ones come after, and each
// posting list stays in unit order. A daily log added to the corpus is
// indexed alone, not the corpus again, and gives exactly what indexing
// it all would. c is not changed (its ids are copied before new ones are
// added, c's own when c has no units yet).
func (c *corpus) extend(srcs []*source) *corpus {
	n := &corpus{ids: c.ids, units: slices.Grow(slices.Clone(c.units), len(srcs)*4)}
	if len(c.units) > 0 {
		n.ids = maps.Clone(c.ids)
	}
	// Two passes: ids and document frequencies, then postings allocated
	// at their final size.
	df := make([]int32, len(c.postings))
	for id, p := range c.postings {
		df[id] = int32(len(p))
	}
	old := len(n.units)
	for _, s := range srcs {
		s.units = make([]int32, len(s.pieces))
		for i := range s.pieces {
			terms := s.terms[i]
			s.units[i] = -1
			if len(terms) == 0 {
				continue
			}
			u := unit{src: s, piece: i, terms: make([]int32, len(terms))}
			for k, t := range terms {
				id, ok := n.ids[t]
				if !ok {
					id = int32(len(df))
					n.ids[t] = id
					df = append(df, 0)
				}
				df[id]++
				u.terms[k] = id
			}
			slices.Sort(u.terms)
			s.units[i] = int32(len(n.units))
			n.units = append(n.units, u)
		}
	}
	n.postings = make([][]int32, len(df))
	copy(n.postings, c.postings)
	for id, d := range df {
		if id >= len(c.postings) || int(d) > len(c.postings[id]) {
			n.postings[id] = append(make([]int32, 0, d), n.postings[id]...)
		}
	}
	for ui := old; ui < len(n.units); ui++ {
		for _, id := range n.units[ui].terms {
			n.postings[id] = append(n.postings[id], int32(ui))
		}
	}
	units := float64(len(n.units))
	n.idf = make([]float64, len(df))
	for id, d := range df {
		n.idf[id] = math.Log(1 + units/float64(d))
	}
	n.unknownIDF = math.Log(1 + max(units, 1))
	for i := range n.units {
		u := &n.units[i]
		u.weight = 0
		for _, t := range u.terms {
			u.weight += n.idf[t]
		}
	}
	// A term in more than a fiftieth of the blocks, or in more than
	// maxWalk blocks however large the corpus, is common: its postings are
	// not walked. The cap keeps the work per claim bounded, so matching
	// grows with claims + blocks, never with claims x blocks.
	n.commonDF = min(max(64, len(n.units)/50), maxWalk)
	return n
}

// query is a claim's terms as corpus ids and weights.
type query struct {
	ids     []int32   // known terms, sorted
	weights []float64 // parallel to ids
	leaf    []bool    // parallel to ids: a word rather than a joined form
	total   float64   // weight of every term, unknown ones included
	rare    []int     // indexes into ids of terms whose postings are walked
	common  float64   // weight of the known terms that are not walked
	// leaves counts the claim's words (known or not), unknown the words
	// no block has.
	leaves, unknown int
	// dates are the weights of the claim's dates (YYYY-MM-DD): a line of
	// that day's log is written on that date even when it says "today".
	dates map[string]float64
}

func (c *corpus) query(terms []string) query {
	var q query
	type known struct {
		id   int32
		leaf bool
	}
	ks := make([]known, 0, len(terms))
	for _, t := range terms {
		leaf := isLeafTerm(t)
		if leaf {
			q.leaves++
		}
		id, ok := c.ids[t]
		if isISODate(t) {
			if q.dates == nil {
				q.dates = map[string]float64{}
			}
			w := c.unknownIDF
			if ok {
				w = c.idf[id]
			}
			q.dates[t] = w
		}
		if !ok {
			q.total += c.unknownIDF
			if leaf {
				q.unknown++
			}
			continue
		}
		ks = append(ks, known{id, leaf})
	}
	// One id is one term, so equal ids are equal entries.
	slices.SortFunc(ks, func(a, b known) int { return cmp.Compare(a.id, b.id) })
	q.ids = make([]int32, len(ks))
	q.weights = make([]float64, len(ks))
	q.leaf = make([]bool, len(ks))
	walk := make([]bool, len(ks))
	for i, k := range ks {
		w := c.idf[k.id]
		q.ids[i], q.weights[i], q.leaf[i] = k.id, w, k.leaf
		q.total += w
		walk[i] = len(c.postings[k.id]) <= c.commonDF
	}
	// A claim made only of common words still needs candidates: walk its
	// two rarest terms, unless even those are in a tenth of all blocks —
	// such a claim says too little to be told apart from its neighbours by
	// words, and walking half the corpus for each one would make matching
	// notes x claims after all.
	if !slices.Contains(walk, true) && len(q.ids) > 0 {
		order := make([]int, len(q.ids))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			return len(c.postings[q.ids[order[a]]]) < len(c.postings[q.ids[order[b]]])
		})
		for _, i := range order[:min(2, len(order))] {
			if len(c.postings[q.ids[i]]) <= min(max(c.commonDF, len(c.units)/10), 4*maxWalk) {
				walk[i] = true
			}
		}
	}
	for i, w := range walk {
		if w {
			q.rare = append(q.rare, i)
		} else {
			q.common += q.weights[i]
		}
	}
	return q
}

// isLeafTerm reports whether a term counts as a word of its own: a leaf
// word (not a joined form or a one- or two-digit number), or a value such
// as a date, a decimal or an address, whose parts alone say nothing.
func isLeafTerm(t string) bool {
	if !isJoinedTerm(t) {
		return !isShortNumber(t)
	}
	return strings.Trim(t, "0123456789.,:-/") == ""
}

// isShortNumber reports numbers of one or two digits: parts of times and
// dates that, alone, say nothing.
func isShortNumber(t string) bool {
	return len(t) <= 2 && strings.Trim(t, "0123456789") == ""
}

// score is how well block u supports a query.
type score struct {
	unit int32
	// contain is the share of the claim's weight found in the block,
	// cover the share of the block's weight that is the claim's.
	contain, cover float64
	// leaves counts shared words (not joined forms or short numbers).
	leaves int
}

// scoreUnit scores one block against q exactly.
func (c *corpus) scoreUnit(q *query, ui int32) score {
	u := &c.units[ui]
	s := score{unit: ui}
	matched := 0.0
	a, b := 0, 0
	for a < len(q.ids) && b < len(u.terms) {
		switch {
		case q.ids[a] < u.terms[b]:
			a++
		case q.ids[a] > u.terms[b]:
			b++
		default:
			matched += q.weights[a]
			if q.leaf[a] {
				s.leaves++
			}
			a++
			b++
		}
	}
	weight := u.weight
	if len(q.dates) > 0 && u.src.kind == SourceDaily && !u.src.date.IsZero() {
		d := u.src.date.Format("2006-01-02")
		if w, ok := q.dates[d]; ok && !c.unitHas(u, d) {
			matched += w
			weight += w
			s.leaves++
		}
	}
	if q.total > 0 {
		s.contain = matched / q.total
	}
	if weight > 0 {
		s.cover = matched / weight
	}
	return s
}

// unitHas reports whether u has the term t.
func (c *corpus) unitHas(u *unit, t string) bool {
	id, ok := c.ids[t]
	if !ok {
		return false
	}
	i := sort.Search(len(u.terms), func(i int) bool { return u.terms[i] >= id })
	return i < len(u.terms) && u.terms[i] == id
}

// isISODate reports "YYYY-MM-DD".
func isISODate(t string) bool {
	if len(t) != 10 || t[4] != '-' || t[7] != '-' {
		return false
	}
	for i := 0; i < 10; i++ {
		if i != 4 && i != 7 && (t[i] < '0' || t[i] > '9') {
			return false
		}
	}
	return true
}

// scratch is per-goroutine state for candidate search.
type scratch struct {
	acc     []float64
	touched []int32
	// found holds what candidates returns, until it is called again;
	// matches what matchText collects.
	found   []score
	matches []textMatch
}

// candidates returns the blocks whose containment can reach minContain,
// scored exactly, in sc: the list is good until the next call with sc.
func (c *corpus) candidates(q *query, minContain float64, sc *scratch) []score {
	if len(q.ids) == 0 || q.total == 0 {
		return nil
	}
	if len(sc.acc) < len(c.units) {
		sc.acc = make([]float64, len(c.units))
	}
	sc.touched = sc.touched[:0]
	for _, i := range q.rare {
		w := q.weights[i]
		for _, ui := range c.postings[q.ids[i]] {
			if sc.acc[ui] == 0 {
				sc.touched = append(sc.touched, ui)
			}
			sc.acc[ui] += w
		}
	}
	out := sc.found[:0]
	for _, ui := range sc.touched {
		// The common terms can add at most q.common.
		if (sc.acc[ui]+q.common)/q.total >= minContain {
			if s := c.scoreUnit(q, ui); s.contain >= minContain {
				out = append(out, s)
			}
		}
		sc.acc[ui] = 0
	}
	slices.SortFunc(out, func(a, b score) int { return cmp.Compare(a.unit, b.unit) })
	sc.found = out
	return out
}
