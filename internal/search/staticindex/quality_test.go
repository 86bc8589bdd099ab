package staticindex_test

// Search quality on the demo workspace, measured with the labelled
// queries of testdata/queries.json (exact tokens, error codes, keyword
// queries, typos, CJK, people, dates, filters): each query lists the
// workspace files that answer it.
//
//	recall@5  share of queries with an expected file among the first five
//	          distinct files of the results (the "top-k accuracy" of
//	          retrieval papers); the target is 0.9
//	MRR       mean of 1/rank of the first expected file (0 when none in 10)
//	coverage  mean share of a query's expected files (at most five) found
//	          in the first five, a stricter view printed alongside
//
// The browser ranking is measured twice, in Go (Reader) and in
// TypeScript (assets/search/engine.ts under node, on the same built
// files), and the two must return the same documents in the same order.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/search/staticindex"
)

type labelled struct {
	Q      string   `json:"q"`
	Kind   string   `json:"kind"`
	Kinds  []string `json:"kinds,omitempty"`
	Types  []string `json:"types,omitempty"`
	Tiers  []string `json:"tiers,omitempty"`
	Expect []string `json:"expect"`
}

const queriesFile = "../../../testdata/queries.json"

func loadQueries(t *testing.T) []labelled {
	t.Helper()
	data, err := os.ReadFile(queriesFile)
	if err != nil {
		t.Fatal(err)
	}
	var qs []labelled
	if err := json.Unmarshal(data, &qs); err != nil {
		t.Fatalf("%s: %v", queriesFile, err)
	}
	if len(qs) < 50 {
		t.Fatalf("%s has %d queries; the set must keep at least 50", queriesFile, len(qs))
	}
	return qs
}

var (
	demoOnce sync.Once
	demoDir  string
	demoErr  error
)

// demoSite builds the demo once per test binary and returns its site
// folder.
func demoSite(t *testing.T) string {
	t.Helper()
	demoOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dreamwiki-search-quality-")
		if err != nil {
			demoErr = err
			return
		}
		_, demoErr = build.Build(context.Background(), build.Options{Demo: true, Out: dir})
		demoDir = filepath.Join(dir, "site")
	})
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	return demoDir
}

func openDemoStatic(t *testing.T) *staticindex.Reader {
	t.Helper()
	dir := filepath.Join(demoSite(t), "search")
	s, err := staticindex.Open(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) })
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// metrics accumulates recall@5, MRR and coverage over queries.
type metrics struct {
	n, hits      int
	rr, coverage float64
	misses       []string
	byKind       map[string][2]int
}

func (m *metrics) add(q labelled, files []string) {
	if m.byKind == nil {
		m.byKind = map[string][2]int{}
	}
	m.n++
	want := map[string]bool{}
	for _, e := range q.Expect {
		want[e] = true
	}
	first := 0
	found := 0
	for i, f := range files {
		if !want[f] {
			continue
		}
		if first == 0 {
			first = i + 1
		}
		if i < 5 {
			found++
		}
	}
	k := m.byKind[q.Kind]
	k[1]++
	if first > 0 && first <= 5 {
		m.hits++
		k[0]++
	} else {
		m.misses = append(m.misses, fmt.Sprintf("%q (%s): got %v", q.Q, q.Kind, head(files, 5)))
	}
	m.byKind[q.Kind] = k
	if first > 0 {
		m.rr += 1 / float64(first)
	}
	m.coverage += float64(found) / float64(min(len(q.Expect), 5))
}

func (m *metrics) report(t *testing.T, name string) float64 {
	t.Helper()
	recall := float64(m.hits) / float64(m.n)
	t.Logf("%s: %d queries  recall@5 %.3f  MRR %.3f  coverage@5 %.3f", name, m.n, recall, m.rr/float64(m.n), m.coverage/float64(m.n))
	var kinds []string
	for k, v := range m.byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d/%d", k, v[0], v[1]))
	}
	t.Logf("  by kind: %s", strings.Join(sortStrings(kinds), ", "))
	for _, miss := range m.misses {
		t.Logf("  miss: %s", miss)
	}
	return recall
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// distinct keeps the first occurrence of each file.
func distinct(files []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

const targetRecall = 0.9

func staticFiles(t *testing.T, s *staticindex.Reader, hits []staticindex.Hit) []string {
	t.Helper()
	var files []string
	for _, h := range hits {
		f, err := s.Fragment(h.Doc)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f.Source)
	}
	return distinct(files)
}

func TestQuality_BrowserRanking(t *testing.T) {
	s := openDemoStatic(t)
	var m metrics
	for _, q := range loadQueries(t) {
		hits, err := s.Search(staticindex.Query{Text: q.Q, Kinds: q.Kinds, Types: q.Types, Tiers: q.Tiers, Limit: 10})
		if err != nil {
			t.Fatalf("%q: %v", q.Q, err)
		}
		m.add(q, staticFiles(t, s, hits))
	}
	if r := m.report(t, "browser ranking (static index)"); r < targetRecall {
		t.Errorf("recall@5 %.3f is below the target %.2f", r, targetRecall)
	}
}

func TestQuality_CLIRanking(t *testing.T) {
	ctx := context.Background()
	model, err := build.Load(ctx, build.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := memsearch.OpenIndex("")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, model.Workspace, model.Vault); err != nil {
		t.Fatal(err)
	}
	var m metrics
	for _, q := range loadQueries(t) {
		text := q.Q
		for _, k := range q.Kinds {
			text += " kind:" + k
		}
		res, err := ix.Search(ctx, memsearch.Query{Text: text, Types: q.Types, Tiers: q.Tiers, Limit: 30})
		if err != nil {
			t.Fatalf("%q: %v", q.Q, err)
		}
		var files []string
		for _, r := range res {
			files = append(files, r.Path)
		}
		m.add(q, distinct(files))
	}
	if r := m.report(t, "CLI ranking (bleve)"); r < targetRecall {
		t.Errorf("recall@5 %.3f is below the target %.2f", r, targetRecall)
	}
}

// tsRunner answers every query of a JSON file with the TypeScript engine
// reading the built index from disk.
const tsRunner = `
import * as fs from "fs";
import * as path from "path";
import { Engine } from "./engine";

const [dir, file] = process.argv.slice(2);
const load = async (name: string): Promise<Uint8Array> => new Uint8Array(fs.readFileSync(path.join(dir, name + ".bin")));
const engine = await Engine.open(load);
const qs = JSON.parse(fs.readFileSync(file, "utf8"));
const out: unknown[] = [];
for (const q of qs) {
  try {
    const r = await engine.search({ text: q.q, kinds: q.kinds, types: q.types, tiers: q.tiers, limit: 10 });
    out.push(r.hits);
  } catch (e) {
    out.push(String(e));
  }
}
process.stdout.write(JSON.stringify(out));
`

// runTS bundles tsRunner with assets/search and runs it under node; it
// skips when node is missing.
func runTS(t *testing.T, siteSearch string, queries []labelled) [][]staticindex.Hit {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH, so the TypeScript engine is not checked here; CI installs node")
	}
	dir, err := filepath.Abs("../../../assets/search")
	if err != nil {
		t.Fatal(err)
	}
	res := api.Build(api.BuildOptions{
		Stdin:    &api.StdinOptions{Contents: tsRunner, ResolveDir: dir, Sourcefile: "engine_runner.ts", Loader: api.LoaderTS},
		Bundle:   true,
		Format:   api.FormatESModule,
		Platform: api.PlatformNode,
		Target:   api.ES2022,
		Write:    false,
		LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		t.Fatalf("esbuild could not bundle the engine:\n%s", strings.Join(msgs, "\n"))
	}
	tmp := t.TempDir()
	script := filepath.Join(tmp, "engine_runner.mjs")
	if err := os.WriteFile(script, res.OutputFiles[0].Contents, 0o644); err != nil {
		t.Fatal(err)
	}
	qfile := filepath.Join(tmp, "queries.json")
	data, _ := json.Marshal(queries)
	if err := os.WriteFile(qfile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, siteSearch, qfile)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatalf("reading node's answer: %v\n%s", err, out)
	}
	hits := make([][]staticindex.Hit, len(raw))
	for i, r := range raw {
		var hs []struct {
			Doc   int     `json:"doc"`
			Score float64 `json:"score"`
		}
		if err := json.Unmarshal(r, &hs); err != nil {
			t.Fatalf("query %q: the TypeScript engine failed: %s", queries[i].Q, r)
		}
		for _, h := range hs {
			hits[i] = append(hits[i], staticindex.Hit{Doc: h.Doc, Score: h.Score})
		}
	}
	return hits
}

// oddQueries are inputs beyond the labelled set on which the two engines
// must agree too: prefixes being typed, single CJK characters, compounds
// cut short, noise, and filters the index does not know.
var oddQueries = []labelled{
	{Q: ""}, {Q: "   "}, {Q: "?!…—"}, {Q: "a.*b[(|"}, {Q: "gate"}, {Q: "gatew"}, {Q: "京"}, {Q: "愛"},
	{Q: "e_auth"}, {Q: "auth_4031"}, {Q: "Mac mini "}, {Q: "TOMÁS"}, {Q: "tomas ferreira gatway nuc"},
	{Q: "gateway", Kinds: []string{"bogus"}}, {Q: "gateway", Kinds: []string{"topic", "bogus"}},
	{Q: "backup", Types: []string{"feedback"}}, {Q: "deploy", Tiers: []string{"hot"}},
	{Q: strings.Repeat("gateway host nuc-01 E_AUTH_4031 京都 ", 300)},
	// Hundreds of candidates: the browser ranks only the best of them.
	{Q: "the"}, {Q: "sam"}, {Q: "2026"}, {Q: "the gateway"}, {Q: "sam gatway"}, {Q: "claim", Kinds: []string{"claim"}},
}

func TestStatic_TypeScriptEngineMatchesGo(t *testing.T) {
	s := openDemoStatic(t)
	queries := append(loadQueries(t), oddQueries...)
	ts := runTS(t, filepath.Join(demoSite(t), "search"), queries)
	var m metrics
	for i, q := range queries {
		goHits, err := s.Search(staticindex.Query{Text: q.Q, Kinds: q.Kinds, Types: q.Types, Tiers: q.Tiers, Limit: 10})
		if err != nil {
			t.Fatalf("%q: %v", q.Q, err)
		}
		if !sameRanking(goHits, ts[i]) {
			t.Errorf("query %q ranks differently:\n  go %v\n  ts %v", clip(q.Q), goHits, ts[i])
		}
		if i < len(queries)-len(oddQueries) {
			m.add(q, staticFiles(t, s, ts[i]))
		}
	}
	m.report(t, "browser ranking (TypeScript engine)")
}

// sameRanking compares two result lists: the same documents in the same
// order, with scores equal up to floating-point noise (Math.pow and
// math.Pow may differ in the last bit). Two documents whose scores are
// that close may trade places.
func sameRanking(a, b []staticindex.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	close := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) }
	for i := range a {
		if !close(a[i].Score, b[i].Score) {
			return false
		}
		if a[i].Doc == b[i].Doc {
			continue
		}
		if i+1 < len(a) && a[i].Doc == b[i+1].Doc && a[i+1].Doc == b[i].Doc && close(a[i].Score, a[i+1].Score) {
			continue
		}
		if i > 0 && a[i].Doc == b[i-1].Doc && a[i-1].Doc == b[i].Doc && close(a[i].Score, a[i-1].Score) {
			continue
		}
		return false
	}
	return true
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// TestStatic_TypeScriptMatchesGoOnAGeneratedCorpus compares the engines
// where the browser's shortcuts matter: thousands of candidates per query
// (it ranks only the best of them), many superseded claims whose
// successors rank anywhere, near-duplicates, dates of every age.
func TestStatic_TypeScriptMatchesGoOnAGeneratedCorpus(t *testing.T) {
	words := strings.Fields("gateway host mac mini nuc deploy token backup restore kyoto lisbon cutover helm chart ingress alert budget review incident runbook")
	rng := newRand(42)
	var docs []search.Doc
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for w := 0; w < 5+rng.intn(40); w++ {
			b.WriteString(words[rng.intn(len(words))])
			b.WriteByte(' ')
		}
		d := search.Doc{ID: fmt.Sprintf("n%d.md", i), URL: fmt.Sprintf("n%d.html", i), Title: words[rng.intn(len(words))], Body: b.String(), Kind: "daily", KindLabel: "Daily log"}
		switch i % 3 {
		case 0:
			d.Kind, d.ClaimID = "claim", fmt.Sprintf("c%d", i)
			if i > 30 && rng.intn(3) == 0 {
				d.Supersedes = []string{fmt.Sprintf("c%d", i-3*(1+rng.intn(10)))}
			}
		case 1:
			d.Date = fmt.Sprintf("2026-%02d-%02d", 1+rng.intn(12), 1+rng.intn(28))
		}
		if i%50 == 7 && i > 0 {
			d.Body = docs[i-1].Body // a near-duplicate
		}
		docs = append(docs, d)
	}
	// Superseded claims that match a query far better than the claims that
	// replaced them: they must still rank below their successors, however
	// far down those are.
	for i := range docs {
		for _, s := range docs[i].Supersedes {
			var old int
			fmt.Sscanf(s, "c%d", &old)
			docs[old].Status = "superseded"
			docs[old].Body = "quorum quorum quorum ledger " + docs[old].Body
			docs[i].Body = "ledger " + docs[i].Body + strings.Repeat(" filler", 60)
		}
	}
	dir := t.TempDir()
	if _, err := staticindex.Write(context.Background(), docs, staticindex.Options{}, output.NewDir(dir)); err != nil {
		t.Fatal(err)
	}
	s, err := staticindex.Open(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) })
	if err != nil {
		t.Fatal(err)
	}
	var queries []labelled
	for _, q := range []string{"gateway", "gateway host", "mac mini", "kyoto lisbon cutover", "gatway", "helm chrat", "token", "b", "runbook incident alert",
		"quorum", "quorum ledger", "ledger", "quorm ledger"} {
		queries = append(queries, labelled{Q: q}, labelled{Q: q, Kinds: []string{"claim"}})
	}
	ts := runTS(t, dir, queries)
	for i, q := range queries {
		goHits, err := s.Search(staticindex.Query{Text: q.Q, Kinds: q.Kinds, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if !sameRanking(goHits, ts[i]) {
			t.Errorf("query %q %v ranks differently:\n  go %v\n  ts %v", q.Q, q.Kinds, goHits, ts[i])
		}
	}
}

// tinyRand is a deterministic generator for the corpus above.
type tinyRand struct{ s uint64 }

func newRand(seed uint64) *tinyRand { return &tinyRand{seed} }

func (r *tinyRand) intn(n int) int {
	r.s = r.s*6364136223846793005 + 1442695040888963407
	return int((r.s >> 33) % uint64(n))
}
