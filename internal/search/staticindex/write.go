package staticindex

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/search"
)

// Format is the version of the static index layout below; the
// browser client refuses a metadata file of another version.
const Format = 2

// Options configure Write.
type Options struct {
	// Params are the ranking knobs, written into the metadata for the
	// browser. The zero value means DefaultParams.
	Params *search.Params
	// AsOf (YYYY-MM-DD) is the date document ages are counted from. ""
	// means the newest document date, so the same notes always give the
	// same index, and a site viewed a year later ranks as it did.
	AsOf string
	// ShardBytes is the target size of a dictionary shard before
	// compression; 0 means 12 KiB.
	ShardBytes int
	// FragmentChars caps the text kept in a document's fragment for
	// snippets; 0 means 4000.
	FragmentChars int
}

// Stats describe a written static index.
type Stats struct {
	// ID names the folder the data files are in; it is a hash of their
	// contents, so a new index never mixes with a cached old one.
	ID            string
	Docs          int
	Terms         int
	Shards        int
	TrigramShards int
	// Files and Bytes count what was written, the file:// twins included.
	Files, Bytes int
	// MetaBytes is the size of meta.bin, fetched before every first query.
	MetaBytes int
}

// Write writes the static search index of docs into w, whose root is
// the site's search/ folder:
//
//	meta.bin, meta.js     the metadata: counts, average field lengths,
//	                      ranking knobs, the shard tables and the per-document
//	                      columns (kind, type, tier, flags, field lengths,
//	                      dates), supersession and near-duplicate pairs
//	ID/tN.bin, .js        dictionary shard N: a contiguous range of terms
//	                      whose postings carry per-field term frequencies
//	ID/gL.bin, .js        trigram shard for query terms of L characters: the
//	                      vocabulary of lengths L-1..L+1 and its trigrams
//	ID/fK.bin, .js        fragments of documents K*8 to K*8+7 (title, URL,
//	                      labels, text), each prefixed by its length
//
// Every .bin file is an envelope (a codec byte, then the payload, raw or
// DEFLATE-compressed). The .js files carry the same bytes in a script, for
// file:// where fetch() is refused. The output is deterministic.
func Write(ctx context.Context, docs []search.Doc, opts Options, w output.Writer) (Stats, error) {
	ix, err := buildStatic(ctx, docs, opts)
	if err != nil {
		return Stats{}, err
	}
	return ix.write(ctx, w)
}

// staticIndex is the index in memory, between analysis and encoding.
type staticIndex struct {
	opts   Options
	params search.Params
	docs   []search.Doc
	asOf   int // day number

	terms   []string    // sorted
	df      []int       // per term
	posts   [][]posting // per term, by doc
	lengths [][search.NumFields]byte
	avg     [search.NumFields]float64
	bodySet [][]uint32 // per doc, sorted term ids of the body, for near-duplicates

	files []staticFile
	id    string // contentID of files, the folder they are written in
}

type posting struct {
	doc uint32
	tf  [search.NumFields]uint16
}

type staticFile struct {
	name string
	data []byte // the envelope
}

// docTerms is one document's analysis.
type docTerms struct {
	terms  []string
	tf     [][search.NumFields]uint16
	length [search.NumFields]int
}

func buildStatic(ctx context.Context, docs []search.Doc, opts Options) (*staticIndex, error) {
	if opts.ShardBytes <= 0 {
		opts.ShardBytes = 12 << 10
	}
	if opts.FragmentChars <= 0 {
		opts.FragmentChars = 4000
	}
	p := search.DefaultParams()
	if opts.Params != nil {
		p = opts.Params.Sane()
	}
	ix := &staticIndex{opts: opts, params: p, docs: docs}
	ix.asOf = ix.evaluationDay()

	// Term ids in first-seen order, then renumbered in sorted order.
	ids := map[string]uint32{}
	var byID []string
	var posts [][]posting
	ix.lengths = make([][search.NumFields]byte, len(docs))
	ix.bodySet = make([][]uint32, len(docs))
	var sum [search.NumFields]float64
	// Documents are analysed a batch at a time, on every core, and merged
	// in document order: the analyses of all documents at once were a
	// large part of a build's peak memory.
	const batch = 256
	analysed := make([]docTerms, min(batch, len(docs)))
	for lo := 0; lo < len(docs); lo += batch {
		part := analysed[:min(batch, len(docs)-lo)]
		if err := parallel.Each(ctx, len(part), runtime.GOMAXPROCS(0), func(i int) error {
			part[i] = analyseDoc(&docs[lo+i])
			return nil
		}); err != nil {
			return nil, err
		}
		for i, a := range part {
			d := lo + i
			ix.bodySet[d] = make([]uint32, 0, len(a.terms))
			for i, t := range a.terms {
				id, ok := ids[t]
				if !ok {
					id = uint32(len(byID))
					ids[t] = id
					byID = append(byID, t)
					posts = append(posts, nil)
				}
				posts[id] = append(posts[id], posting{doc: uint32(d), tf: a.tf[i]})
				if a.tf[i][search.FieldBody] > 0 {
					ix.bodySet[d] = append(ix.bodySet[d], id)
				}
			}
			for f := 0; f < search.NumFields; f++ {
				q := quantizeLength(a.length[f])
				ix.lengths[d][f] = q
				sum[f] += float64(lengthTable[q])
			}
		}
	}
	if n := len(docs); n > 0 {
		for f := range sum {
			ix.avg[f] = sum[f] / float64(n)
		}
	}
	order := make([]uint32, len(byID))
	for i := range order {
		order[i] = uint32(i)
	}
	sort.Slice(order, func(i, j int) bool { return byID[order[i]] < byID[order[j]] })
	rank := make([]uint32, len(byID))
	ix.terms = make([]string, len(byID))
	ix.posts = make([][]posting, len(byID))
	ix.df = make([]int, len(byID))
	for r, id := range order {
		rank[id] = uint32(r)
		ix.terms[r] = byID[id]
		ix.posts[r] = posts[id]
		ix.df[r] = len(posts[id])
	}
	for _, set := range ix.bodySet {
		for i, id := range set {
			set[i] = rank[id]
		}
		sort.Slice(set, func(i, j int) bool { return set[i] < set[j] })
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := ix.encode(ctx); err != nil {
		return nil, err
	}
	return ix, nil
}

// evaluationDay is the day ages are counted from (see Options.AsOf).
func (ix *staticIndex) evaluationDay() int {
	if d, ok := search.DayNumber(ix.opts.AsOf); ok {
		return d
	}
	newest, found := 0, false
	for i := range ix.docs {
		if d, ok := search.DayNumber(ix.docs[i].Date); ok && (!found || d > newest) {
			newest, found = d, true
		}
	}
	return newest
}

// termScratch recycles analyseDoc's working space: a map and two slices
// per document were most of the garbage of indexing ten thousand notes.
type termScratch struct {
	at    map[string]int
	terms []string
	tf    [][search.NumFields]uint16
}

var termScratches = sync.Pool{New: func() any { return &termScratch{at: make(map[string]int, 256)} }}

// analyseDoc counts each term's frequency in each field of d, in the
// order terms first appear. Each term is a string of its own, so keeping
// one keeps nothing else alive.
func analyseDoc(d *search.Doc) docTerms {
	var a docTerms
	sc := termScratches.Get().(*termScratch)
	sc.terms, sc.tf = sc.terms[:0], sc.tf[:0]
	add := func(f int, text string) {
		analysis.EachTerm(text, func(term []byte) {
			a.length[f]++
			i, ok := sc.at[string(term)] // no allocation: a lookup
			if !ok {
				i = len(sc.terms)
				s := string(term)
				sc.at[s] = i
				sc.terms = append(sc.terms, s)
				sc.tf = append(sc.tf, [search.NumFields]uint16{})
			}
			if sc.tf[i][f] < 0xffff {
				sc.tf[i][f]++
			}
		})
	}
	add(search.FieldTitle, d.Title)
	for _, s := range d.Aliases {
		add(search.FieldAliases, s)
	}
	for _, s := range d.Headings {
		add(search.FieldHeadings, s)
	}
	add(search.FieldBody, d.Body)
	a.terms = append([]string(nil), sc.terms...)
	a.tf = append([][search.NumFields]uint16(nil), sc.tf...)
	clear(sc.at)
	clear(sc.terms) // drop the strings
	termScratches.Put(sc)
	return a
}

// encode turns the index into files.
func (ix *staticIndex) encode(ctx context.Context) error {
	shardStarts := ix.partition()
	for s := range shardStarts {
		end := len(ix.terms)
		if s+1 < len(shardStarts) {
			end = shardStarts[s+1]
		}
		ix.files = append(ix.files, staticFile{"t" + strconv.Itoa(s), envelope(ix.dictShard(shardStarts[s], end))})
	}
	triKeys, triShards := ix.trigramShards()
	for i, k := range triKeys {
		ix.files = append(ix.files, staticFile{"g" + strconv.Itoa(k), envelope(triShards[i])})
	}
	frags := make([]staticFile, (len(ix.docs)+fragmentGroup-1)/fragmentGroup)
	if err := parallel.Each(ctx, len(frags), runtime.GOMAXPROCS(0), func(g int) error {
		lo, hi := g*fragmentGroup, min((g+1)*fragmentGroup, len(ix.docs))
		fs, size := make([][]byte, 0, hi-lo), 0
		for d := lo; d < hi; d++ {
			f := ix.fragment(d)
			fs, size = append(fs, f), size+len(f)+binary.MaxVarintLen64
		}
		group := make([]byte, 0, size) // sized once: fragments are most of the index's bytes
		for _, f := range fs {
			group = appendUvarint(group, uint64(len(f)))
			group = append(group, f...)
		}
		frags[g] = staticFile{"f" + strconv.Itoa(g), envelope(group)}
		return nil
	}); err != nil {
		return err
	}
	ix.files = append(ix.files, frags...)
	ix.id = ix.contentID()

	starts := make([]string, len(shardStarts))
	for i, t := range shardStarts {
		starts[i] = ix.terms[t]
	}
	ix.files = append(ix.files, staticFile{"meta", envelope(ix.meta(starts, triKeys))})
	return nil
}

// termSize estimates the encoded size of a term's dictionary entry.
func (ix *staticIndex) termSize(t int) int {
	return len(ix.terms[t]) + 4 + 3*len(ix.posts[t])
}

// partition cuts the sorted terms into shards of about ShardBytes. Cuts
// fall only between prefix groups: the terms sharing a prefix are split by
// their next byte only when together they exceed the target. So the
// completions of any query prefix at least as long as the prefix its shard
// was split at lie in one shard, and exact lookups always do. Small
// neighbouring groups are merged back. It returns the first term of each
// shard.
func (ix *staticIndex) partition() []int {
	if len(ix.terms) == 0 {
		return nil
	}
	size := make([]int, len(ix.terms)+1) // prefix sums
	for i := range ix.terms {
		size[i+1] = size[i] + ix.termSize(i)
	}
	target := ix.opts.ShardBytes
	type group struct{ lo, size int }
	var groups []group
	var split func(lo, hi, depth int)
	split = func(lo, hi, depth int) {
		total := size[hi] - size[lo]
		if total <= target || hi-lo == 1 {
			groups = append(groups, group{lo, total})
			return
		}
		// Terms are sorted, so the one equal to the prefix (shorter than
		// depth+1 bytes) comes first and the rest group by their byte at
		// depth.
		i := lo
		if len(ix.terms[i]) <= depth {
			groups = append(groups, group{i, size[i+1] - size[i]})
			i++
		}
		for i < hi {
			c := ix.terms[i][depth]
			j := i + 1
			for j < hi && ix.terms[j][depth] == c {
				j++
			}
			split(i, j, depth+1)
			i = j
		}
	}
	split(0, len(ix.terms), 0)
	var starts []int
	cur := 0
	for i, g := range groups {
		if i > 0 && cur+g.size <= target {
			cur += g.size
			continue
		}
		starts = append(starts, g.lo)
		cur = g.size
	}
	return starts
}

// dictShard encodes terms [lo, hi): the term list (front-coded, each with
// its document frequency and postings size), then the postings.
func (ix *staticIndex) dictShard(lo, hi int) []byte {
	var head, body []byte
	head = appendUvarint(head, uint64(hi-lo))
	var fc frontCoder
	for t := lo; t < hi; t++ {
		start := len(body)
		prev := uint32(0)
		for i, p := range ix.posts[t] {
			delta := p.doc - prev
			if i == 0 {
				delta = p.doc
			}
			prev = p.doc
			body = appendUvarint(body, uint64(delta))
			body = appendPostingTF(body, p.tf)
		}
		head = fc.append(head, ix.terms[t])
		head = appendUvarint(head, uint64(ix.df[t]))
		head = appendUvarint(head, uint64(len(body)-start))
	}
	return append(head, body...)
}

// appendPostingTF writes a posting's field frequencies in one byte when
// they are small, as they nearly always are: bits 0-3 the body frequency
// (15 means 15 plus a varint), bits 4-5 the headings frequency (3 means 3
// plus a varint), bit 6 the title and bit 7 the aliases. Title and alias
// frequencies are kept as presence: a title rarely repeats a word, and
// BM25's saturation would flatten the repeat anyway.
func appendPostingTF(b []byte, tf [search.NumFields]uint16) []byte {
	body, head := int(tf[search.FieldBody]), int(tf[search.FieldHeadings])
	c := byte(min(body, 15)) | byte(min(head, 3))<<4
	if tf[search.FieldTitle] > 0 {
		c |= 1 << 6
	}
	if tf[search.FieldAliases] > 0 {
		c |= 1 << 7
	}
	b = append(b, c)
	if body >= 15 {
		b = appendUvarint(b, uint64(body-15))
	}
	if head >= 3 {
		b = appendUvarint(b, uint64(head-3))
	}
	return b
}

// Query terms longer than maxTypoKey characters share the last trigram
// shard.
const maxTypoKey = 20

// typoKey is the trigram shard a query term of n characters reads.
func typoKey(n int) int { return min(n, maxTypoKey) }

// trigrams returns the distinct trigrams of " "+t+" ", sorted.
func trigrams(t string) []string {
	rs := []rune(" " + t + " ")
	seen := map[string]bool{}
	var out []string
	for i := 0; i+3 <= len(rs); i++ {
		g := string(rs[i : i+3])
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	sort.Strings(out)
	return out
}

// trigramShards builds, for each query length key, the vocabulary a typo
// of that length may have meant (one character shorter or longer) and its
// trigram index.
func (ix *staticIndex) trigramShards() ([]int, [][]byte) {
	members := map[int][]int{} // key -> term indexes, sorted
	for t, term := range ix.terms {
		n, ok := search.TypoEligible(term)
		if !ok {
			continue
		}
		// A typo adds or drops at most a character (or swaps two), so a
		// query of k characters may mean a term of k-1 to k+1; the last
		// key stands for every query of maxTypoKey characters or more.
		for k := max(n-1, search.MinTypoLen); k <= min(n+1, maxTypoKey); k++ {
			members[k] = append(members[k], t)
		}
		if n-1 > maxTypoKey {
			members[maxTypoKey] = append(members[maxTypoKey], t)
		}
	}
	var keys []int
	for k := range members {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	shards := make([][]byte, len(keys))
	for i, k := range keys {
		shards[i] = ix.trigramShard(members[k])
	}
	return keys, shards
}

func (ix *staticIndex) trigramShard(terms []int) []byte {
	var b []byte
	b = appendUvarint(b, uint64(len(terms)))
	var fc frontCoder
	post := map[string][]int{}
	for i, t := range terms {
		b = fc.append(b, ix.terms[t])
		b = appendUvarint(b, uint64(ix.df[t]))
		for _, g := range trigrams(ix.terms[t]) {
			post[g] = append(post[g], i)
		}
	}
	grams := make([]string, 0, len(post))
	for g := range post {
		grams = append(grams, g)
	}
	sort.Strings(grams)
	b = appendUvarint(b, uint64(len(grams)))
	var gc frontCoder
	for _, g := range grams {
		b = gc.append(b, g)
		list := post[g]
		b = appendUvarint(b, uint64(len(list)))
		prev := 0
		for j, t := range list {
			if j == 0 {
				b = appendUvarint(b, uint64(t))
			} else {
				b = appendUvarint(b, uint64(t-prev))
			}
			prev = t
		}
	}
	return b
}

// fragmentJSON is what a shown result needs. Short keys: there is one per
// shown result, so bytes count.
type fragmentJSON struct {
	Title  string `json:"t"`
	URL    string `json:"u"`
	Kind   string `json:"k"`
	Date   string `json:"d,omitempty"`
	Type   string `json:"m,omitempty"`
	Tier   string `json:"r,omitempty"`
	Status string `json:"s,omitempty"`
	Lapsed bool   `json:"l,omitempty"`
	// Backing is how well a claim is backed (the evidence marker).
	Backing string   `json:"e,omitempty"`
	Source  string   `json:"p,omitempty"`
	Tags    []string `json:"g,omitempty"` // for the browser's tag: filter
	// Workspace is the team site's workspace, for the workspace: filter.
	Workspace string `json:"w,omitempty"`
	Text      string `json:"x"`
}

func (ix *staticIndex) fragment(d int) []byte {
	doc := &ix.docs[d]
	// The body opens with the title when the note has it as its H1; the
	// result shows the title already.
	text := strings.TrimLeft(strings.TrimPrefix(doc.Body, doc.Title), " \n")
	if text == "" {
		text = doc.Body
	}
	if limit := ix.opts.FragmentChars; len(text) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	data, _ := json.Marshal(fragmentJSON{
		Title: doc.Title, URL: doc.URL, Kind: doc.KindLabel, Date: doc.Date,
		Type: doc.MemoryType, Tier: doc.Tier, Status: doc.Status, Lapsed: doc.Lapsed, Backing: doc.Backing,
		Source: doc.Source, Tags: doc.Tags, Workspace: doc.Workspace, Text: text,
	})
	return data
}

// metaHeader is the JSON head of meta.bin.
type metaHeader struct {
	Format   int               `json:"format"`
	Analysis int               `json:"analysis"`
	ID       string            `json:"id"`
	Docs     int               `json:"docs"`
	AsOf     int               `json:"asOf"`
	Avg      []float64         `json:"avg"`
	Params   metaParams        `json:"params"`
	Shards   []string          `json:"shards"`
	Trigrams []int             `json:"trigrams"`
	Kinds    []string          `json:"kinds"`
	Labels   map[string]string `json:"labels"`
	Types    []string          `json:"types"`
	Tiers    []string          `json:"tiers"`
}

type metaParams struct {
	K1                float64   `json:"k1"`
	B                 float64   `json:"b"`
	Boosts            []float64 `json:"boosts"`
	FuzzyWeight       float64   `json:"w"`
	HalfLifeDays      float64   `json:"halfLife"`
	MMRLambda         float64   `json:"lambda"`
	MMRTop            int       `json:"mmrTop"`
	SupersededPenalty float64   `json:"superseded"`
}

// Flags of the per-document flags column.
const (
	flagDecays     = 1 << 0
	flagSuperseded = 1 << 1
	flagLapsed     = 1 << 2
)

// meta encodes the metadata: a varint-prefixed JSON header (see
// metaHeader), then binary columns of one byte per document (kind, memory
// type, tier, flags, then the four quantised field lengths), the dates of
// decaying documents as zig-zag deltas of day numbers, the supersession
// pairs and the near-duplicate pairs.
func (ix *staticIndex) meta(shardStarts []string, triKeys []int) []byte {
	n := len(ix.docs)
	kinds, kindIdx := vocabulary(ix.docs, func(d *search.Doc) string { return d.Kind })
	types, typeIdx := vocabulary(ix.docs, func(d *search.Doc) string { return d.MemoryType })
	tiers, tierIdx := vocabulary(ix.docs, func(d *search.Doc) string { return d.Tier })
	labels := map[string]string{}
	for i := range ix.docs {
		labels[ix.docs[i].Kind] = ix.docs[i].KindLabel
	}
	p := ix.params
	h := metaHeader{
		Format: Format, Analysis: analysis.Version, Docs: n, AsOf: ix.asOf,
		Avg: ix.avg[:],
		Params: metaParams{K1: p.K1, B: p.B, Boosts: p.Boosts[:], FuzzyWeight: p.FuzzyWeight,
			HalfLifeDays: p.HalfLifeDays, MMRLambda: p.MMRLambda, MMRTop: p.MMRTop, SupersededPenalty: p.SupersededPenalty},
		Shards: shardStarts, Trigrams: triKeys, Kinds: kinds, Labels: labels, Types: types, Tiers: tiers,
	}
	if h.Shards == nil {
		h.Shards = []string{}
	}
	if h.Trigrams == nil {
		h.Trigrams = []int{}
	}
	h.ID = ix.id
	head, _ := json.Marshal(h)

	b := appendUvarint(nil, uint64(len(head)))
	b = append(b, head...)
	col := func(f func(d int) byte) {
		for d := 0; d < n; d++ {
			b = append(b, f(d))
		}
	}
	col(func(d int) byte { return byte(kindIdx[ix.docs[d].Kind]) })
	col(func(d int) byte { return byte(typeIdx[ix.docs[d].MemoryType]) })
	col(func(d int) byte { return byte(tierIdx[ix.docs[d].Tier]) })
	succ := ix.successors()
	col(func(d int) byte {
		var f byte
		doc := &ix.docs[d]
		if !doc.Evergreen() {
			f |= flagDecays
		}
		if doc.Status == "superseded" || len(succ[d]) > 0 {
			f |= flagSuperseded
		}
		if doc.Lapsed {
			f |= flagLapsed
		}
		return f
	})
	for f := 0; f < search.NumFields; f++ {
		col(func(d int) byte { return ix.lengths[d][f] })
	}
	prev := 0
	for d := range ix.docs {
		if ix.docs[d].Evergreen() {
			continue
		}
		day, _ := search.DayNumber(ix.docs[d].Date)
		b = appendUvarint(b, zigzagDelta(day-prev))
		prev = day
	}
	// Supersession: (old, new) pairs, old ascending.
	var pairs [][2]int
	for d := 0; d < n; d++ {
		for _, s := range succ[d] {
			pairs = append(pairs, [2]int{d, s})
		}
	}
	b = appendUvarint(b, uint64(len(pairs)))
	prev = 0
	for _, pr := range pairs {
		b = appendUvarint(b, uint64(pr[0]-prev))
		b = appendUvarint(b, uint64(pr[1]))
		prev = pr[0]
	}
	sims := ix.nearDuplicates()
	b = appendUvarint(b, uint64(len(sims)))
	prev = 0
	for _, s := range sims {
		b = appendUvarint(b, uint64(s.a-prev))
		b = appendUvarint(b, uint64(s.b-s.a))
		b = append(b, s.sim)
		prev = s.a
	}
	return b
}

func zigzagDelta(v int) uint64 { return uint64((v << 1) ^ (v >> 63)) }

// vocabulary lists the distinct non-empty values of a document attribute,
// sorted, and maps each to its 1-based index (0 is "none"); the kind
// column uses the same numbering.
func vocabulary(docs []search.Doc, attr func(*search.Doc) string) ([]string, map[string]int) {
	seen := map[string]bool{}
	var out []string
	for i := range docs {
		if v := attr(&docs[i]); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	idx := map[string]int{}
	for i, v := range out {
		idx[v] = i + 1
	}
	if out == nil {
		out = []string{}
	}
	return out, idx
}

// successors maps each document to the documents that supersede it.
func (ix *staticIndex) successors() map[int][]int {
	byID := map[string]int{}
	for i := range ix.docs {
		byID[ix.docs[i].ID] = i
		if c := ix.docs[i].ClaimID; c != "" {
			byID[c] = i
		}
	}
	out := map[int][]int{}
	for i := range ix.docs {
		for _, old := range ix.docs[i].Supersedes {
			if o, ok := byID[old]; ok && o != i {
				out[o] = append(out[o], i)
			}
		}
	}
	for k, v := range out {
		sort.Ints(v)
		out[k] = v
	}
	return out
}

// contentID hashes every data file (not the metadata, which names it).
func (ix *staticIndex) contentID() string {
	h := sha256.New()
	for _, f := range ix.files {
		fmt.Fprintf(h, "%s %d\n", f.name, len(f.data))
		h.Write(f.data)
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

// fragmentGroup is how many documents' fragments share a file: a shown
// result costs its group (a few KB compressed) rather than its fragment
// alone, and the site holds a file per group rather than one per document,
// which at 10,000 notes is 20,000 files fewer to write and to deploy.
// assets/search/engine.ts uses the same number.
const fragmentGroup = 8

// write writes every file: each data file as .bin, and for file:// a
// .js twin of each.
func (ix *staticIndex) write(ctx context.Context, w output.Writer) (Stats, error) {
	st := Stats{ID: ix.id, Docs: len(ix.docs), Terms: len(ix.terms)}
	for _, f := range ix.files {
		switch f.name[0] {
		case 'm':
			st.MetaBytes = len(f.data)
		case 't':
			st.Shards++
		case 'g':
			st.TrigramShards++
		}
	}
	var mu sync.Mutex
	err := parallel.Each(ctx, len(ix.files), runtime.GOMAXPROCS(0), func(i int) error {
		j := ix.files[i]
		if j.name != "meta" { // the metadata names the folder the rest is in
			j.name = ix.id + "/" + j.name
		}
		js := jsWrapper(j.name, j.data)
		if err := w.WriteFile(j.name+".bin", j.data); err != nil {
			return err
		}
		if err := w.WriteFile(j.name+".js", js); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		st.Files += 2
		st.Bytes += len(j.data) + len(js)
		return nil
	})
	if err != nil {
		return Stats{}, fmt.Errorf("writing the search index: %w", err)
	}
	return st, nil
}
