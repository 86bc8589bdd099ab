package staticindex

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/search"
)

// Reader answers queries from the files Write wrote, the way the
// browser does (assets/search/engine.ts follows this file step by step).
// It is the reference the TypeScript engine is tested against, and what
// the quality tests measure.
type Reader struct {
	load func(name string) ([]byte, error)
	h    metaHeader
	p    search.Params

	kind, typ, tier, flags []byte
	lengths                [][search.NumFields]int
	date                   []int // day number of decaying documents
	succ                   map[int][]int
	sims                   map[[2]int]float64

	shards map[int]*dictShard
	tris   map[int]*triShard
	// Loaded lists the files read, in order, without the ".bin".
	Loaded []string
}

type dictShard struct {
	terms []string
	df    []int
	off   []int // postings offset of each term, and the end
	post  []byte
}

type triShard struct {
	terms []string
	df    []int
	grams []string
	lists [][]int
}

// Open reads the metadata through load, which returns the bytes of a
// file of the search folder ("meta.bin", "ID/t3.bin").
func Open(load func(name string) ([]byte, error)) (*Reader, error) {
	s := &Reader{load: load, shards: map[int]*dictShard{}, tris: map[int]*triShard{}}
	b, err := s.file("meta")
	if err != nil {
		return nil, err
	}
	r := &reader{b: b}
	head := r.bytes(r.int(len(b)))
	if r.err != nil {
		return nil, r.err
	}
	if err := json.Unmarshal(head, &s.h); err != nil {
		return nil, fmt.Errorf("search index: metadata header: %w", err)
	}
	if s.h.Format != Format || s.h.Analysis != analysis.Version {
		return nil, fmt.Errorf("search index: format %d analysis %d, this reader knows %d and %d",
			s.h.Format, s.h.Analysis, Format, analysis.Version)
	}
	mp := s.h.Params
	s.p = search.Params{K1: mp.K1, B: mp.B, FuzzyWeight: mp.FuzzyWeight, HalfLifeDays: mp.HalfLifeDays,
		MMRLambda: mp.MMRLambda, MMRTop: mp.MMRTop, SupersededPenalty: mp.SupersededPenalty}
	copy(s.p.Boosts[:], mp.Boosts)
	n := s.h.Docs
	s.kind, s.typ, s.tier, s.flags = r.bytes(n), r.bytes(n), r.bytes(n), r.bytes(n)
	var lens [search.NumFields][]byte
	for f := range lens {
		lens[f] = r.bytes(n)
	}
	if r.err != nil {
		return nil, r.err
	}
	s.lengths = make([][search.NumFields]int, n)
	for d := 0; d < n; d++ {
		for f := range lens {
			s.lengths[d][f] = lengthTable[lens[f][d]]
		}
	}
	s.date = make([]int, n)
	prev := 0
	for d := 0; d < n; d++ {
		if s.flags[d]&flagDecays != 0 {
			v := r.uvarint()
			prev += int(int64(v>>1) ^ -int64(v&1))
			s.date[d] = prev
		}
	}
	s.succ = map[int][]int{}
	prev = 0
	for i, c := 0, r.int(n*n); i < c && r.err == nil; i++ {
		old := prev + r.int(n)
		nw := r.int(n - 1)
		prev = old
		s.succ[old] = append(s.succ[old], nw)
	}
	s.sims = map[[2]int]float64{}
	prev = 0
	for i, c := 0, r.int(n*n); i < c && r.err == nil; i++ {
		a := prev + r.int(n)
		b := a + r.int(n)
		v := decodeSim(r.byte())
		prev = a
		s.sims[[2]int{a, b}] = v
	}
	if r.err != nil {
		return nil, r.err
	}
	return s, nil
}

func (s *Reader) file(name string) ([]byte, error) {
	full := name
	if name != "meta" {
		full = s.h.ID + "/" + name
	}
	s.Loaded = append(s.Loaded, full)
	data, err := s.load(full + ".bin")
	if err != nil {
		return nil, err
	}
	return openEnvelope(data)
}

// Docs is the number of documents in the index.
func (s *Reader) Docs() int { return s.h.Docs }

// Params are the ranking knobs the index was written with.
func (s *Reader) Params() search.Params { return s.p }

// Query is a query of the browser's search box.
type Query struct {
	Text string
	// Kinds, Types and Tiers filter by source kind, memory type and tier;
	// values the index does not know are ignored.
	Kinds, Types, Tiers []string
	// Limit caps the results; 0 means 10.
	Limit int
}

// Fragment is what the browser shows of a result.
type Fragment struct {
	Title  string `json:"t"`
	URL    string `json:"u"`
	Kind   string `json:"k"`
	Date   string `json:"d"`
	Type   string `json:"m"`
	Tier   string `json:"r"`
	Status string `json:"s"`
	Lapsed bool   `json:"l"`
	Source string `json:"p"`
	// Workspace is a team site's workspace (the workspace: facet).
	Workspace string `json:"w"`
	Text      string `json:"x"`
}

// Fragment reads the fragment of a document.
func (s *Reader) Fragment(doc int) (Fragment, error) {
	var f Fragment
	if doc < 0 || doc >= s.h.Docs {
		return f, fmt.Errorf("search index: no document %d", doc)
	}
	b, err := s.file("f" + strconv.Itoa(doc/fragmentGroup))
	if err != nil {
		return f, err
	}
	// Skip to the document's place in its group.
	r := &reader{b: b}
	for i := 0; i < doc%fragmentGroup && r.err == nil; i++ {
		r.bytes(r.int(len(b)))
	}
	one := r.bytes(r.int(len(b)))
	if r.err != nil {
		return f, fmt.Errorf("search index: fragment %d: %w", doc, r.err)
	}
	err = json.Unmarshal(one, &f)
	return f, err
}

// Query limits: a pasted 10 KB query is analysed, but only its first
// maxQueryUnits distinct terms are looked up, and prefixes expand to at
// most maxCompletions terms over at most maxPrefixShards shards.
const (
	maxQueryUnits   = 32
	maxCompletions  = 16
	maxPrefixShards = 4
	maxCorrections  = 3
	minDice         = 0.3
)

// queryUnit is one distinct term of a query.
type queryUnit struct {
	term string
	// weight is 1 for a word as typed, 0.5 for a part of a compound.
	weight float64
	// prefix is set for the word being typed (it ends the query) and for
	// single CJK characters, which the bigram index holds only as prefixes.
	prefix bool
	// containers are the units of the compounds this unit is a part of;
	// nil for a unit that stands on its own somewhere in the query. A part
	// is looked up only when none of its compounds matched anything: the
	// whole E_AUTH_4031 says more than e, auth and 4031, and costs one
	// shard instead of four.
	containers []int
}

// queryUnits analyses a query into units (see queryUnit), in order. A
// compound comes before its parts (AnalyzeTokens orders by start, longer
// first), so containers always point backwards.
func queryUnits(text string) []queryUnit {
	toks := analysis.AnalyzeTokens(text)
	top := make([]bool, len(toks))
	for i, t := range toks {
		top[i] = true
		for j, o := range toks {
			if j != i && o.Start <= t.Start && o.End >= t.End && o.End-o.Start > t.End-t.Start {
				top[i] = false
				break
			}
		}
	}
	var units []queryUnit
	at := map[string]int{}
	unitOf := make([]int, len(toks))
	for i, t := range toks {
		unitOf[i] = -1
		var containers []int
		if !top[i] {
			containers = []int{}
			for j, o := range toks {
				if top[j] && o.Start <= t.Start && o.End >= t.End && unitOf[j] >= 0 && j < i {
					containers = append(containers, unitOf[j])
				}
			}
		}
		u := queryUnit{term: t.Term, weight: 1, prefix: t.End == len(text) || analysis.CJKUnigram(t.Term), containers: containers}
		if !top[i] {
			u.weight = 0.5
		}
		if k, ok := at[u.term]; ok {
			unitOf[i] = k
			prev := &units[k]
			prev.weight = max(prev.weight, u.weight)
			prev.prefix = prev.prefix || u.prefix
			if top[i] || prev.containers == nil {
				prev.containers = nil
			} else {
				prev.containers = append(prev.containers, containers...)
			}
			continue
		}
		if len(units) == maxQueryUnits {
			continue
		}
		unitOf[i] = len(units)
		at[u.term] = len(units)
		units = append(units, u)
	}
	return units
}

// shardOf returns the dictionary shard whose range holds term: the last
// whose first term is not after it.
func (s *Reader) shardOf(term string) int {
	i := sort.Search(len(s.h.Shards), func(i int) bool { return s.h.Shards[i] > term })
	return max(i-1, 0)
}

func (s *Reader) dict(i int) (*dictShard, error) {
	if sh, ok := s.shards[i]; ok {
		return sh, nil
	}
	b, err := s.file("t" + strconv.Itoa(i))
	if err != nil {
		return nil, err
	}
	r := &reader{b: b}
	n := r.int(len(b))
	sh := &dictShard{terms: make([]string, n), df: make([]int, n), off: make([]int, n+1)}
	var fd frontDecoder
	for t := 0; t < n; t++ {
		sh.terms[t] = fd.next(r)
		sh.df[t] = r.int(s.h.Docs)
		sh.off[t+1] = sh.off[t] + r.int(len(b))
	}
	if r.err != nil {
		return nil, fmt.Errorf("search index: shard %d: %w", i, r.err)
	}
	sh.post = b[r.off:]
	if sh.off[n] > len(sh.post) {
		return nil, fmt.Errorf("search index: shard %d: %w", i, errCorrupt)
	}
	s.shards[i] = sh
	return sh, nil
}

// variant is a dictionary term a query unit matches, with its weight.
type variant struct {
	shard, index int
	weight       float64
}

// lookup finds the unit's exact term and, for prefix units, its most
// frequent completions.
func (s *Reader) lookup(u queryUnit) ([]variant, error) {
	if len(s.h.Shards) == 0 {
		return nil, nil
	}
	first := s.shardOf(u.term)
	sh, err := s.dict(first)
	if err != nil {
		return nil, err
	}
	var out []variant
	i := sort.SearchStrings(sh.terms, u.term)
	if i < len(sh.terms) && sh.terms[i] == u.term {
		out = append(out, variant{first, i, 1})
		i++
	}
	if !u.prefix {
		return out, nil
	}
	type completion struct {
		variant
		term string
		df   int
	}
	var comps []completion
	qn := utf8.RuneCountInString(u.term)
	for k := first; k < len(s.h.Shards) && k < first+maxPrefixShards; k++ {
		if k > first {
			if !hasPrefix(s.h.Shards[k], u.term) {
				break
			}
			if sh, err = s.dict(k); err != nil {
				return nil, err
			}
			i = 0
		}
		for ; i < len(sh.terms) && hasPrefix(sh.terms[i], u.term); i++ {
			w := float64(qn) / float64(utf8.RuneCountInString(sh.terms[i]))
			comps = append(comps, completion{variant{k, i, w}, sh.terms[i], sh.df[i]})
		}
		if i < len(sh.terms) {
			break
		}
	}
	sort.SliceStable(comps, func(a, b int) bool {
		if comps[a].df != comps[b].df {
			return comps[a].df > comps[b].df
		}
		return comps[a].term < comps[b].term
	})
	for j := 0; j < len(comps) && j < maxCompletions; j++ {
		out = append(out, comps[j].variant)
	}
	return out, nil
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

func (s *Reader) tri(key int) (*triShard, error) {
	if t, ok := s.tris[key]; ok {
		return t, nil
	}
	found := false
	for _, k := range s.h.Trigrams {
		found = found || k == key
	}
	if !found {
		s.tris[key] = nil
		return nil, nil
	}
	b, err := s.file("g" + strconv.Itoa(key))
	if err != nil {
		return nil, err
	}
	r := &reader{b: b}
	n := r.int(len(b))
	t := &triShard{terms: make([]string, n), df: make([]int, n)}
	var fd frontDecoder
	for i := 0; i < n; i++ {
		t.terms[i] = fd.next(r)
		t.df[i] = r.int(s.h.Docs)
	}
	g := r.int(len(b))
	var gd frontDecoder
	for i := 0; i < g && r.err == nil; i++ {
		t.grams = append(t.grams, gd.next(r))
		c := r.int(n)
		list := make([]int, c)
		prev := 0
		for j := range list {
			v := r.int(n)
			if j > 0 {
				v += prev
			}
			if v >= n {
				r.fail()
				break
			}
			list[j], prev = v, v
		}
		t.lists = append(t.lists, list)
	}
	if r.err != nil {
		return nil, fmt.Errorf("search index: trigram shard %d: %w", key, r.err)
	}
	s.tris[key] = t
	return t, nil
}

// correction is a vocabulary term a typo may have meant.
type correction struct {
	term string
	dice float64
	dist int
	df   int
}

// corrections returns up to maxCorrections terms within maxEdits
// (Damerau) of term and with a trigram Dice coefficient of at least
// minDice: fewest edits first, then most similar, then most frequent.
func (s *Reader) corrections(term string) ([]correction, error) {
	n, ok := search.TypoEligible(term)
	if !ok || n < search.MinTypoLen {
		return nil, nil
	}
	t, err := s.tri(typoKey(n))
	if err != nil || t == nil {
		return nil, err
	}
	qg := trigrams(term)
	count := map[int]int{}
	for _, g := range qg {
		i := sort.SearchStrings(t.grams, g)
		if i < len(t.grams) && t.grams[i] == g {
			for _, ti := range t.lists[i] {
				count[ti]++
			}
		}
	}
	limit := maxEdits(n)
	var out []correction
	for ti, c := range count {
		cand := t.terms[ti]
		if cand == term {
			continue
		}
		dice := 2 * float64(c) / float64(len(qg)+len(trigrams(cand)))
		if dice < minDice {
			continue
		}
		if d := osaDistance(term, cand, limit); d <= limit {
			out = append(out, correction{cand, dice, d, t.df[ti]})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.dist != b.dist:
			return a.dist < b.dist
		case a.dice != b.dice:
			return a.dice > b.dice
		case a.df != b.df:
			return a.df > b.df
		}
		return a.term < b.term
	})
	if len(out) > maxCorrections {
		out = out[:maxCorrections]
	}
	return out, nil
}

// maxEdits is how many typos a query term of n characters may hold.
func maxEdits(n int) int {
	if n <= 5 {
		return 1
	}
	return 2
}

// osaDistance is the optimal string alignment distance (Levenshtein plus
// transpositions of neighbours) between a and b in characters; it returns
// limit+1 as soon as the distance must exceed limit.
func osaDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// postings calls fn for every document of a variant with its field term
// frequencies.
func (s *Reader) postings(v variant, fn func(doc int, tf *[search.NumFields]int)) error {
	sh := s.shards[v.shard]
	r := &reader{b: sh.post[sh.off[v.index]:sh.off[v.index+1]]}
	doc := 0
	var tf [search.NumFields]int
	for i := 0; i < sh.df[v.index]; i++ {
		delta := r.int(s.h.Docs)
		if i == 0 {
			doc = delta
		} else {
			doc += delta
		}
		c := r.byte()
		tf[search.FieldBody] = int(c & 15)
		tf[search.FieldHeadings] = int(c >> 4 & 3)
		tf[search.FieldTitle] = int(c >> 6 & 1)
		tf[search.FieldAliases] = int(c >> 7)
		if tf[search.FieldBody] == 15 {
			tf[search.FieldBody] += r.int(1 << 30)
		}
		if tf[search.FieldHeadings] == 3 {
			tf[search.FieldHeadings] += r.int(1 << 30)
		}
		if r.err != nil || doc >= s.h.Docs {
			return fmt.Errorf("search index: shard %d: %w", v.shard, errCorrupt)
		}
		fn(doc, &tf)
	}
	return nil
}

// scoreVariants returns, per document, weight times the best of the
// variants' weighted BM25F scores.
func (s *Reader) scoreVariants(vs []variant, weight float64) (map[int]float64, error) {
	best := map[int]float64{}
	var avg [search.NumFields]float64
	copy(avg[:], s.h.Avg)
	for _, v := range vs {
		idf := search.IDF(s.h.Docs, s.shards[v.shard].df[v.index])
		err := s.postings(v, func(doc int, tf *[search.NumFields]int) {
			sc := v.weight * search.BM25F(s.p, idf, tf, &s.lengths[doc], &avg)
			if sc > best[doc] {
				best[doc] = sc
			}
		})
		if err != nil {
			return nil, err
		}
	}
	for doc, sc := range best {
		best[doc] = weight * sc
	}
	return best, nil
}

// Hit is one result of Reader.Search.
type Hit struct {
	Doc   int
	Score float64
}

// Search runs a query: each unit's exact term and completions feed the
// BM25 leg; units that match nothing feed the typo leg through their
// corrections; filters drop documents; Rank merges, decays and
// diversifies.
func (s *Reader) Search(q Query) ([]Hit, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	// The keyword leg scores the units as written (and completed). The
	// typo leg scores the whole query again with corrections standing in
	// for the units that matched nothing, so a document matching both a
	// corrected word and the rest of the query wins it; without typos the
	// two legs are the same.
	var exact, typo []map[int]float64
	units := queryUnits(q.Text)
	found := make([]bool, len(units))
	for k, u := range units {
		if u.containers != nil && anyFound(found, u.containers) {
			continue // a compound it is part of matched
		}
		vs, err := s.lookup(u)
		if err != nil {
			return nil, err
		}
		found[k] = len(vs) > 0
		if len(vs) > 0 {
			m, err := s.scoreVariants(vs, u.weight)
			if err != nil {
				return nil, err
			}
			exact = append(exact, m)
			continue
		}
		corr, err := s.corrections(u.term)
		if err != nil {
			return nil, err
		}
		var cvs []variant
		for _, c := range corr {
			k := s.shardOf(c.term)
			sh, err := s.dict(k)
			if err != nil {
				return nil, err
			}
			i := sort.SearchStrings(sh.terms, c.term)
			if i < len(sh.terms) && sh.terms[i] == c.term {
				cvs = append(cvs, variant{k, i, c.dice})
			}
		}
		m, err := s.scoreVariants(cvs, u.weight)
		if err != nil {
			return nil, err
		}
		typo = append(typo, m)
	}
	bm := sumScores(exact)
	fz := bm
	if len(typo) > 0 {
		fz = sumScores(append(exact, typo...))
	}
	keep := s.filter(q)
	var cands []search.Candidate
	add := func(doc int) {
		if !keep(doc) {
			return
		}
		c := search.Candidate{Doc: doc, BM25: bm[doc], Fuzzy: fz[doc], Age: -1,
			Superseded: s.flags[doc]&flagSuperseded != 0, Successors: s.succ[doc]}
		if s.flags[doc]&flagDecays != 0 {
			c.Age = s.h.AsOf - s.date[doc]
		}
		cands = append(cands, c)
	}
	for doc := range fz {
		add(doc)
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].Doc < cands[j].Doc })
	ranked := search.Rank(cands, s.p, s.sim)
	if len(ranked) > limit {
		ranked = ranked[:limit]
	}
	out := make([]Hit, len(ranked))
	for i, r := range ranked {
		out[i] = Hit{r.Doc, r.Score}
	}
	return out, nil
}

func anyFound(found []bool, units []int) bool {
	for _, k := range units {
		if found[k] {
			return true
		}
	}
	return false
}

// sumScores adds per-document scores, in the order given (so the browser,
// adding in the same order, gets the same floating-point sums).
func sumScores(ms []map[int]float64) map[int]float64 {
	out := map[int]float64{}
	for _, m := range ms {
		for doc, sc := range m {
			out[doc] += sc
		}
	}
	return out
}

func (s *Reader) sim(a, b int) float64 {
	if a > b {
		a, b = b, a
	}
	return s.sims[[2]int{a, b}]
}

// filter returns the predicate of q's filters. A filter whose values are
// all unknown to the index is no filter: a stale deep link must not empty
// the results.
func (s *Reader) filter(q Query) func(doc int) bool {
	set := func(values []string, vocab []string) map[byte]bool {
		m := map[byte]bool{}
		for _, v := range values {
			for i, w := range vocab {
				if v == w {
					m[byte(i+1)] = true
				}
			}
		}
		if len(m) == 0 {
			return nil
		}
		return m
	}
	kinds, types, tiers := set(q.Kinds, s.h.Kinds), set(q.Types, s.h.Types), set(q.Tiers, s.h.Tiers)
	return func(doc int) bool {
		return (kinds == nil || kinds[s.kind[doc]]) &&
			(types == nil || types[s.typ[doc]]) &&
			(tiers == nil || tiers[s.tier[doc]])
	}
}
