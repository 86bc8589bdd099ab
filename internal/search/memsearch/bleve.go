package memsearch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	banalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/vault"
)

// The bleve index backs `dreamwiki search` and serve mode's search API.
// Its documents are Chunks (lines of workspace files), scored by bleve's
// BM25 over three fields (title, heading path, body), then re-ranked by
// search.Rank, the same code the static index's ranking is checked against.
//
// Analysis: text fields use our own analysis (analysis.Analyze, registered below
// as the bleve tokenizer "dreamwiki"), not bleve's cjk analyzer, so that
// the CLI, the browser and the static index agree on every term: CJK
// comes out as the same character bigrams bleve's cjk analyzer makes,
// and compounds such as E_AUTH_4031 or 10.0.0.12 are searchable whole and
// by their parts. Positions are analysis.Token.Pos+1, so phrase queries line
// up.

// indexVersion changes whenever the mapping, the chunking or the fields
// change; an index of another version is rebuilt from scratch. Version 2
// indexes workspaces read for publishing only: an index of version 1 may
// hold private notes and secrets, and rebuilding it from scratch removes
// their bytes from disk, which deleting their documents would not.
const indexVersion = 2

const (
	analyzerName = "dreamwiki"
	stateName    = "dreamwiki-index.json"
	bleveDir     = "bleve"
)

func init() {
	// bleve resolves tokenizers by name from a process-wide registry, and
	// a persisted index names its analyzer; registering at init is the way
	// bleve's own analyzers do it.
	if err := registry.RegisterTokenizer(analyzerName, func(map[string]interface{}, *registry.Cache) (banalysis.Tokenizer, error) {
		return tokenizer{}, nil
	}); err != nil {
		panic(err)
	}
}

// tokenizer adapts AnalyzeTokens to bleve.
type tokenizer struct{}

func (tokenizer) Tokenize(input []byte) banalysis.TokenStream {
	toks := analysis.AnalyzeTokens(string(input))
	out := make(banalysis.TokenStream, len(toks))
	for i, t := range toks {
		typ := banalysis.AlphaNumeric
		if r, _ := utf8.DecodeRuneInString(t.Term); r >= 0x2E80 {
			typ = banalysis.Ideographic
		}
		out[i] = &banalysis.Token{Start: t.Start, End: t.End, Term: []byte(t.Term), Position: t.Pos + 1, Type: typ}
	}
	return out
}

func newMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	if err := im.AddCustomAnalyzer(analyzerName, map[string]interface{}{"type": custom.Name, "tokenizer": analyzerName}); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = analyzerName
	im.DefaultField = "body"
	dm := bleve.NewDocumentStaticMapping()
	text := func(store bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzerName
		f.Store = store
		f.IncludeTermVectors = true // locations: citations narrow to the matching lines
		f.IncludeInAll = false
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = true
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		return f
	}
	dm.AddFieldMappingsAt("title", text(false))
	dm.AddFieldMappingsAt("heading", text(false))
	dm.AddFieldMappingsAt("body", text(true))
	for _, k := range []string{"path", "kind", "type", "tier", "tag", "status", "date", "lapsed", "lines"} {
		dm.AddFieldMappingsAt(k, kw())
	}
	im.DefaultMapping = dm
	return im, nil
}

// Index is a persisted bleve index of a workspace's chunks, kept beside a
// map of each file's content hash so that Update re-indexes only changed
// files.
//
// An Index is safe for concurrent use: serve mode searches while its
// watcher updates.
type Index struct {
	dir string
	// bi is replaced only when Update makes a persisted index again
	// (see Update); biMu guards the swap against searches in flight.
	bi    bleve.Index
	biMu  sync.RWMutex
	mu    sync.RWMutex // guards state; Update holds it for writing
	state indexState
}

type indexState struct {
	Version  int                  `json:"version"`
	Analysis int                  `json:"analysis"`
	Files    map[string]fileState `json:"files"`
}

type fileState struct {
	Hash   string   `json:"hash"`
	Chunks []string `json:"chunks"`
	Date   string   `json:"date,omitempty"`
}

// ErrInUse is OpenIndex's error when another process holds the index.
var ErrInUse = errors.New("in use by another process")

// WorkspaceDir is the folder the persisted index of the workspace at root
// lives in: dreamwiki search and dreamwiki mcp keep it there, and update
// only what changed since.
func WorkspaceDir(root string) string { return filepath.Join(root, ".dreamwiki", "index") }

// OpenIndex opens the index in dir, creating it (and dir) when needed; an
// index written by another version of the mapping or analysis is rebuilt.
// dir "" keeps the index in memory (the demo, tests).
func OpenIndex(dir string) (*Index, error) {
	ix := &Index{dir: dir, state: indexState{Version: indexVersion, Analysis: analysis.Version, Files: map[string]fileState{}}}
	m, err := newMapping()
	if err != nil {
		return nil, err
	}
	if dir == "" {
		ix.bi, err = bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
		if err != nil {
			return nil, fmt.Errorf("search index: %w", err)
		}
		return ix, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	var st indexState
	data, err := os.ReadFile(filepath.Join(dir, stateName))
	fresh := err != nil || json.Unmarshal(data, &st) != nil || st.Version != indexVersion || st.Analysis != analysis.Version || st.Files == nil
	if !fresh {
		ix.bi, err = bleve.OpenUsing(filepath.Join(dir, bleveDir), boltConfig())
		if err == nil {
			ix.state = st
			return ix, nil
		}
		if strings.Contains(err.Error(), "timeout") {
			return nil, fmt.Errorf("search index %s is %w: %w", dir, ErrInUse, err)
		}
		// A damaged index is a cache: rebuild it.
	}
	if ix.bi, err = ix.create(m); err != nil {
		return nil, err
	}
	return ix, ix.saveState()
}

// boltConfig makes a dreamwiki that finds the index held by another wait
// a little, then fail with a clear error, rather than hang.
func boltConfig() map[string]interface{} { return map[string]interface{}{"bolt_timeout": "5s"} }

// create makes an empty persisted bleve index in place of whatever the
// folder held.
func (ix *Index) create(m mapping.IndexMapping) (bleve.Index, error) {
	path := filepath.Join(ix.dir, bleveDir)
	if err := os.RemoveAll(path); err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	bi, err := bleve.NewUsing(path, m, scorch.Name, scorch.Name, boltConfig())
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	return bi, nil
}

// Close releases the index.
func (ix *Index) Close() error {
	ix.biMu.Lock()
	defer ix.biMu.Unlock()
	return ix.bi.Close()
}

func (ix *Index) saveState() error {
	if ix.dir == "" {
		return nil
	}
	data, err := json.Marshal(ix.state)
	if err != nil {
		return err
	}
	tmp := filepath.Join(ix.dir, stateName+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(ix.dir, stateName))
}

// maxBatch is the number of operations sent to bleve at once.
const maxBatch = 2000

// UpdateStats say what Update did.
type UpdateStats struct {
	Files, Changed, Removed, Chunks int
}

// Update brings the index in line with the workspace (see Chunks): files
// whose chunks changed are re-indexed, files that are gone are removed,
// the rest is left alone. A persisted index that holds a file the
// workspace now withholds as private is made again from scratch instead:
// bleve keeps a deleted document's bytes on disk until its segments are
// merged, and a private note must not be in .dreamwiki/ at all.
func (ix *Index) Update(ctx context.Context, ws *workspace.Workspace, v *vault.Vault) (UpdateStats, error) {
	if err := ix.forgetWithheld(ws); err != nil {
		return UpdateStats{}, err
	}
	return ix.UpdateChunks(ctx, Chunks(ws, v))
}

// forgetWithheld empties a persisted index that holds a file ws
// withholds (see Update).
func (ix *Index) forgetWithheld(ws *workspace.Workspace) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.dir == "" || !ix.holdsAny(ws.Withholds) {
		return nil
	}
	m, err := newMapping()
	if err != nil {
		return err
	}
	ix.biMu.Lock()
	defer ix.biMu.Unlock()
	if err := ix.bi.Close(); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	if ix.bi, err = ix.create(m); err != nil {
		return err
	}
	ix.state.Files = map[string]fileState{}
	return ix.saveState()
}

// holdsAny reports whether the index holds a file for which f is true.
func (ix *Index) holdsAny(f func(string) bool) bool {
	for p := range ix.state.Files {
		if f(p) {
			return true
		}
	}
	return false
}

// UpdateChunks is Update for chunks made elsewhere.
func (ix *Index) UpdateChunks(ctx context.Context, chunks []Chunk) (UpdateStats, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	byFile := map[string][]Chunk{}
	var files []string
	for _, c := range chunks {
		if _, ok := byFile[c.Path]; !ok {
			files = append(files, c.Path)
		}
		byFile[c.Path] = append(byFile[c.Path], c)
	}
	sort.Strings(files)
	st := UpdateStats{Files: len(files)}
	b := ix.bi.NewBatch()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		cs := byFile[f]
		h := chunksHash(cs)
		old, ok := ix.state.Files[f]
		if ok && old.Hash == h {
			continue
		}
		st.Changed++
		for _, id := range old.Chunks {
			b.Delete(id)
		}
		fs := fileState{Hash: h}
		for i := range cs {
			c := &cs[i]
			if err := b.Index(c.ID(), chunkDoc(c)); err != nil {
				return st, fmt.Errorf("search index: %s: %w", c.ID(), err)
			}
			fs.Chunks = append(fs.Chunks, c.ID())
			fs.Date = c.Date
			st.Chunks++
		}
		ix.state.Files[f] = fs
		// A first index of a large workspace is sent in pieces: one batch
		// of a hundred thousand chunks takes gigabytes. Re-indexing is
		// idempotent, so an interrupted update is finished by the next.
		if b.Size() >= maxBatch {
			if err := ix.bi.Batch(b); err != nil {
				return st, fmt.Errorf("search index: %w", err)
			}
			b = ix.bi.NewBatch()
		}
	}
	for f, old := range ix.state.Files {
		if _, ok := byFile[f]; !ok {
			for _, id := range old.Chunks {
				b.Delete(id)
			}
			delete(ix.state.Files, f)
			st.Removed++
		}
	}
	if b.Size() > 0 {
		if err := ix.bi.Batch(b); err != nil {
			return st, fmt.Errorf("search index: %w", err)
		}
	}
	if st.Changed > 0 || st.Removed > 0 {
		if err := ix.saveState(); err != nil {
			return st, fmt.Errorf("search index: %w", err)
		}
	}
	return st, nil
}

func chunksHash(cs []Chunk) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for i := range cs {
		_ = enc.Encode(&cs[i])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func chunkDoc(c *Chunk) map[string]interface{} {
	lower := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = strings.ToLower(s)
		}
		return out
	}
	return map[string]interface{}{
		"title": c.Title, "heading": c.Heading, "body": c.Text,
		"path": c.Path, "kind": c.Kind, "date": c.Date,
		"type": lower(c.Types), "tier": lower(c.Tiers), "tag": lower(c.Tags),
		"status": strings.ToLower(c.Status), "lapsed": strconv.FormatBool(c.Lapsed),
		"lines": strconv.Itoa(c.TitleLine) + " " + strconv.Itoa(c.HeadingLine),
	}
}

// Query is a `dreamwiki search` query.
type Query struct {
	// Text is the query: words, "phrases", -excluded, +required, and
	// field:value filters (type, tier, tag, kind or source, path, status,
	// date; path and date match as prefixes).
	Text string
	// Limit is the number of results (-n); 0 means 10.
	Limit int
	// Types and Tiers add type: and tier: filters (--type, --tier).
	Types, Tiers []string
	// Params are the ranking knobs; nil means DefaultParams (the CLI
	// passes ParamsFromConfig of the workspace's dreamwiki.toml).
	Params *search.Params
	// AsOf is the day the ages of dated notes count from; zero means
	// today.
	AsOf time.Time
}

// Result is one hit in OpenClaw's memory_search shape.
type Result struct {
	Path      string  `json:"path"`
	StartLine int     `json:"startLine"`
	EndLine   int     `json:"endLine"`
	Score     float64 `json:"score"`
	Snippet   string  `json:"snippet"`
	// Source is the kind of file: "index" (MEMORY.md), "topic", "daily",
	// "conversation", "dream", "claim", ...
	Source string `json:"source"`
	// Citation is "path#Lx-Ly".
	Citation string `json:"citation"`
	// Lapsed marks an expired permission; Superseded an entry replaced by
	// a newer one. Both are for reading, not acting on.
	Lapsed     bool `json:"lapsed,omitempty"`
	Superseded bool `json:"superseded,omitempty"`
}

// maxSnippet caps a result's snippet, as memory_search does.
const maxSnippet = 700

// Search runs q: bleve scores the keyword leg (and, for words that match
// nothing, a fuzzy leg), then Rank merges, decays and diversifies the
// best candidates.
func (ix *Index) Search(ctx context.Context, q Query) ([]Result, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	pq := parseQuery(q.Text)
	for _, t := range q.Types {
		pq.filters = append(pq.filters, fieldClause{field: "type", value: t})
	}
	for _, t := range q.Tiers {
		pq.filters = append(pq.filters, fieldClause{field: "tier", value: t})
	}
	positive := false
	for _, f := range pq.filters {
		positive = positive || !f.not
	}
	for _, w := range pq.words {
		positive = positive || !w.not
	}
	if !positive {
		return nil, nil // nothing to look for: empty, punctuation, only exclusions
	}
	base := func() (must, mustNot []query.Query) {
		for _, f := range pq.filters {
			// Filters select; they must not score, or every match of a
			// filter-only query would tie and real matches would shrink
			// against them.
			fq := fieldQuery(f)
			fq.(query.BoostableQuery).SetBoost(0)
			if f.not {
				mustNot = append(mustNot, fq)
			} else {
				must = append(must, fq)
			}
		}
		for _, w := range pq.words {
			switch {
			case w.not:
				mustNot = append(mustNot, textQuery(w.text, 0))
			case w.must || w.phrase:
				must = append(must, textQuery(w.text, 0))
			}
		}
		return must, mustNot
	}
	var should, fuzzy []query.Query
	anyTypo := false
	for _, w := range pq.words {
		if w.not {
			continue
		}
		if w.must || w.phrase {
			continue
		}
		tq := textQuery(w.text, 0)
		should = append(should, tq)
		// The typo leg is the whole query again, with edits allowed in the
		// words that match nothing (as in the browser).
		fq := tq
		if ts := analysis.Analyze(w.text); len(ts) == 1 {
			if n, ok := search.TypoEligible(ts[0]); ok && n >= search.MinTypoLen {
				if cnt, err := ix.count(ctx, tq); err == nil && cnt == 0 {
					fq = textQuery(w.text, 2) // bleve counts a transposition as two edits
					anyTypo = true
				}
			}
		}
		fuzzy = append(fuzzy, fq)
	}
	// The plain words as a phrase, as an extra reason to match: a line
	// that says "gateway host" outranks one that says "gateway" and,
	// elsewhere, "host" (the browser puts such matches first too).
	var plain []string
	for _, w := range pq.words {
		if !w.not && !w.must && !w.phrase {
			plain = append(plain, w.text)
		}
	}
	if len(plain) > 1 {
		phrase := textQuery(strings.Join(plain, " "), 0)
		phrase.(query.BoostableQuery).SetBoost(phraseBoost)
		should = append(should, phrase)
		fuzzy = append(fuzzy, phrase)
	}
	k := max(limit*5, 50)
	// Filters alone score nothing: they list what they select, freshest
	// first, as the site's search does.
	filterOnly := !slices.ContainsFunc(pq.words, func(w queryWord) bool { return !w.not })
	run := func(should []query.Query) (*bleve.SearchResult, error) {
		must, mustNot := base()
		if len(must) == 0 && len(should) == 0 {
			must = append(must, bleve.NewMatchAllQuery())
		}
		bq := bleve.NewBooleanQuery()
		bq.AddMust(must...)
		bq.AddShould(should...)
		bq.AddMustNot(mustNot...)
		if len(should) > 0 {
			bq.SetMinShould(1)
		}
		req := bleve.NewSearchRequestOptions(bq, k, 0, false)
		req.Fields = []string{"body", "path", "kind", "date", "status", "lapsed", "lines"}
		req.IncludeLocations = true
		if filterOnly {
			req.SortBy([]string{"-date", "path", "_id"})
		}
		return ix.search(ctx, req)
	}
	exact, err := run(should)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if filterOnly {
		return freshest(exact.Hits, limit), nil
	}
	hits := map[string]*bsearch.DocumentMatch{}
	var order []string
	scores := map[string]*search.Candidate{}
	add := func(h *bsearch.DocumentMatch, bm, fz float64) {
		c, ok := scores[h.ID]
		if !ok {
			c = &search.Candidate{Doc: len(order), Age: -1}
			order = append(order, h.ID)
			hits[h.ID] = h
			scores[h.ID] = c
		}
		c.BM25 += bm
		c.Fuzzy += fz
	}
	for _, h := range exact.Hits {
		if anyTypo {
			add(h, h.Score, 0)
		} else {
			add(h, h.Score, h.Score)
		}
	}
	if anyTypo {
		fz, err := run(fuzzy)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		for _, h := range fz.Hits {
			add(h, 0, h.Score)
		}
	}
	asOf := q.AsOf
	if asOf.IsZero() {
		asOf = time.Now()
	}
	today, _ := search.DayNumber(asOf.UTC().Format(time.DateOnly))
	cands := make([]search.Candidate, len(order))
	sets := make([][]uint32, len(order))
	for i, id := range order {
		h := hits[id]
		c := *scores[id]
		kind, date := fieldString(h, "kind"), fieldString(h, "date")
		if d, ok := search.DayNumber(date); ok && !(&search.Doc{Kind: kind, Date: date}).Evergreen() {
			c.Age = max(today-d, 0) // a note dated in the future is new, not newer
		}
		c.Superseded = fieldString(h, "status") == "superseded"
		cands[i] = c
		sets[i] = termSet(fieldString(h, "body"))
	}
	p := search.DefaultParams()
	if q.Params != nil {
		p = *q.Params
	}
	ranked := search.Rank(cands, p, func(a, b int) float64 { return analysis.JaccardSorted(sets[a], sets[b]) })
	if len(ranked) > limit {
		ranked = ranked[:limit]
	}
	out := make([]Result, 0, len(ranked))
	for _, r := range ranked {
		h := hits[order[r.Doc]]
		out = append(out, resultOf(h, r.Score))
	}
	return out, nil
}

// freshest are the first limit hits, newest first (undated notes last),
// then by path and line.
func freshest(hits bsearch.DocumentMatchCollection, limit int) []Result {
	out := make([]Result, 0, len(hits))
	dates := map[string]string{}
	for _, h := range hits {
		r := resultOf(h, 0)
		dates[r.Citation] = fieldString(h, "date")
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Result) int {
		da, db := dates[a.Citation], dates[b.Citation]
		switch {
		case da == db:
		case da == "":
			return 1
		case db == "":
			return -1
		default:
			return cmp.Compare(db, da)
		}
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.StartLine, b.StartLine))
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// search runs one bleve request.
func (ix *Index) search(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error) {
	ix.biMu.RLock()
	defer ix.biMu.RUnlock()
	return ix.bi.SearchInContext(ctx, req)
}

func (ix *Index) count(ctx context.Context, q query.Query) (uint64, error) {
	res, err := ix.search(ctx, bleve.NewSearchRequestOptions(q, 0, 0, false))
	if err != nil {
		return 0, err
	}
	return res.Total, nil
}

func fieldString(h *bsearch.DocumentMatch, f string) string {
	switch v := h.Fields[f].(type) {
	case string:
		return v
	case []interface{}:
		if len(v) > 0 {
			s, _ := v[0].(string)
			return s
		}
	}
	return ""
}

// termSet is the sorted set of hashed terms of a text, for Jaccard.
func termSet(text string) []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for _, t := range analysis.Analyze(text) {
		h := fnv.New32a()
		h.Write([]byte(t))
		v := h.Sum32()
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// phraseBoost weighs a match of a query's words as a phrase against the
// words' own matches.
const phraseBoost = 3

// htmlComment matches the HTML comments entries carry for tools
// ("<!-- importance: 8 -->"), which a snippet leaves out.
var htmlComment = regexp.MustCompile(`(?s)\s*<!--.*?-->`)

// resultOf narrows a chunk hit to the lines its matches are on.
func resultOf(h *bsearch.DocumentMatch, score float64) Result {
	path, start, end, _ := ParseCitation(h.ID)
	body := fieldString(h, "body")
	lines := strings.Split(body, "\n")
	lineStarts := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		lineStarts[i] = off
		off += len(l) + 1
	}
	lineOf := func(b uint64) int {
		return sort.Search(len(lineStarts), func(i int) bool { return uint64(lineStarts[i]) > b }) - 1
	}
	first, last := -1, -1
	for _, locs := range h.Locations["body"] {
		for _, l := range locs {
			i := lineOf(l.Start)
			if i < 0 {
				continue
			}
			if first < 0 || i < first {
				first = i
			}
			if i > last {
				last = i
			}
		}
	}
	startLine := start
	if first < 0 {
		first, last = 0, len(lines)-1
		// The match is in the title or a heading: cite from that line.
		var titleLine, headLine int
		fmt.Sscan(fieldString(h, "lines"), &titleLine, &headLine)
		switch {
		case len(h.Locations["title"]) > 0 && titleLine > 0:
			startLine = titleLine
		case len(h.Locations["heading"]) > 0 && headLine > 0:
			startLine = headLine
		}
	}
	snip := strings.TrimSpace(htmlComment.ReplaceAllString(strings.Join(lines[first:last+1], "\n"), ""))
	if len(snip) > maxSnippet {
		cut := maxSnippet
		for cut > 0 && !utf8.RuneStart(snip[cut]) {
			cut--
		}
		snip = snip[:cut] + "…"
	}
	r := Result{
		Path: path, StartLine: min(startLine+first, start+first), EndLine: min(start+last, end),
		Score: math.Round(score*1e4) / 1e4, Snippet: snip, Source: fieldString(h, "kind"),
		Lapsed: fieldString(h, "lapsed") == "true", Superseded: fieldString(h, "status") == "superseded",
	}
	r.Citation = Citation(r.Path, r.StartLine, r.EndLine)
	return r
}

// Citation is the citation of lines start to end of a workspace file,
// "path#Lx-Ly", as search results give it and ParseCitation reads it.
func Citation(path string, start, end int) string {
	return fmt.Sprintf("%s#L%d-L%d", path, start, end)
}

// ParseCitation reads "path#Lx-Ly" (or "path#Lx", or a bare path, which
// gives 0, 0).
func ParseCitation(s string) (path string, start, end int, err error) {
	path, frag, ok := strings.Cut(s, "#")
	if !ok || frag == "" {
		return path, 0, 0, nil
	}
	a, b, two := strings.Cut(frag, "-")
	parse := func(x string) (int, error) {
		x = strings.TrimPrefix(strings.TrimPrefix(x, "L"), "l")
		n, err := strconv.Atoi(x)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("%q is not a line number", x)
		}
		return n, nil
	}
	if start, err = parse(a); err != nil {
		return path, 0, 0, fmt.Errorf("citation %q: %w (want PATH#Lx-Ly)", s, err)
	}
	end = start
	if two {
		if end, err = parse(b); err != nil {
			return path, 0, 0, fmt.Errorf("citation %q: %w (want PATH#Lx-Ly)", s, err)
		}
	}
	if end < start {
		return path, 0, 0, errors.New("citation " + strconv.Quote(s) + ": the range ends before it starts")
	}
	return path, start, end, nil
}

// textFields are searched for words, with their boosts. The note's title
// is not boosted here as it is for pages (DESIGN 4.3): a chunk carries it
// only as context (on the file's first chunk), and bleve's per-field IDF
// already makes that sparse field weigh a lot.
var textFields = []struct {
	name  string
	boost float64
}{{"title", 1}, {"heading", 1.5}, {"body", 1}}

// textQuery matches s (a word, compound or phrase) in every text field:
// as a phrase of its terms, so compounds and CJK runs match in order; a
// lone CJK character as a prefix of bigrams. fuzziness > 0 allows that
// many edits per term.
func textQuery(s string, fuzziness int) query.Query {
	terms := analysis.Analyze(s)
	var alts []query.Query
	for _, f := range textFields {
		var q query.Query
		if len(terms) == 1 && analysis.CJKUnigram(terms[0]) {
			pq := bleve.NewPrefixQuery(terms[0])
			pq.SetField(f.name)
			pq.SetBoost(f.boost)
			q = pq
		} else {
			mq := bleve.NewMatchPhraseQuery(s)
			mq.SetField(f.name)
			mq.SetBoost(f.boost)
			if fuzziness > 0 {
				mq.SetFuzziness(fuzziness)
			}
			q = mq
		}
		alts = append(alts, q)
	}
	return bleve.NewDisjunctionQuery(alts...)
}

func termIn(field, value string) query.Query {
	tq := bleve.NewTermQuery(value)
	tq.SetField(field)
	return tq
}

func fieldQuery(f fieldClause) query.Query {
	v := strings.ToLower(f.value)
	switch f.field {
	case "path", "date":
		pq := bleve.NewPrefixQuery(f.value)
		pq.SetField(f.field)
		return pq
	case "kind", "source":
		if k, ok := vault.KindNamed(v); ok {
			return termIn("kind", string(k))
		}
		return termIn("kind", v)
	case "type":
		// A claim note's front matter says "type: claim", so type:claim
		// means kind:claim (no memory type is named like a kind). The
		// browser's parser reads it the same way (assets/search/query.ts).
		if k, ok := vault.KindNamed(v); ok {
			return termIn("kind", string(k))
		}
	}
	return termIn(f.field, v)
}
