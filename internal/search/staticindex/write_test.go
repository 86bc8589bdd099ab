package staticindex

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/search"
)

// testDocs is a small corpus with the shapes the index must handle: a
// curated topic, dated logs of different ages, a claim chain, CJK, an
// error code, a lapsed permission.
func testDocs() []search.Doc {
	return []search.Doc{
		{ID: "topics/gateway.md", URL: "topics/gateway.html", Source: "memory/gateway.md", Title: "Gateway", Kind: "topic", KindLabel: "Topic",
			Headings: []string{"Current", "History"}, Body: "Gateway\nThe gateway host is the Mac mini (10.0.0.12) since 2026-10-21."},
		{ID: "sources/daily/2026-10-21.md", URL: "sources/daily/2026-10-21.html", Source: "memory/2026-10-21.md", Title: "2026-10-21", Kind: "daily", KindLabel: "Daily log",
			Date: "2026-10-21", Body: "Moved the gateway from nuc-01 to the Mac mini. New gateway host: mac-mini.lan."},
		{ID: "sources/daily/2026-09-15.md", URL: "sources/daily/2026-09-15.html", Source: "memory/2026-09-15.md", Title: "2026-09-15", Kind: "daily", KindLabel: "Daily log",
			Date: "2026-09-15", Body: "Gateway runs on nuc-01 (10.0.0.11). The gateway host is nuc-01."},
		{ID: "claims/gateway-nuc.md", URL: "claims/gateway-nuc.html", Source: "MEMORY.md", Title: "Gateway host is nuc-01", Kind: "claim", KindLabel: "Claim",
			ClaimID: "claim.gateway-nuc", MemoryType: "reference", Tier: "cold", Status: "superseded", Body: "Gateway host is nuc-01."},
		{ID: "claims/gateway-mac.md", URL: "claims/gateway-mac.html", Source: "MEMORY.md", Title: "Gateway host is the Mac mini", Kind: "claim", KindLabel: "Claim",
			ClaimID: "claim.gateway-mac", MemoryType: "reference", Tier: "warm", Status: "current", Supersedes: []string{"claim.gateway-nuc"},
			Body: "Gateway host is the Mac mini."},
		{ID: "claims/deploy.md", URL: "claims/deploy.html", Source: "MEMORY.md", Title: "You may deploy the blog", Kind: "claim", KindLabel: "Claim",
			ClaimID: "claim.deploy", MemoryType: "feedback", Tier: "cold", Status: "current", Lapsed: true, Body: "You may deploy the blog to production without asking."},
		{ID: "sources/daily/2026-10-08.md", URL: "sources/daily/2026-10-08.html", Source: "memory/2026-10-08.md", Title: "2026-10-08", Kind: "daily", KindLabel: "Daily log",
			Date: "2026-10-08", Body: "deployctl failed: E_AUTH_4031: token expired for scope deploy:staging."},
		{ID: "index.md", URL: "index.html", Source: "MEMORY.md", Title: "MEMORY.md", Kind: "index", KindLabel: "Memory index",
			Body: "[project] 京都旅行 Kyoto trip with Aiko (田中愛子). Gateway host is the Mac mini."},
	}
}

func writeTest(t *testing.T, docs []search.Doc, opts Options) (*output.Memory, *Reader) {
	t.Helper()
	mem := output.NewMemory()
	if _, err := Write(context.Background(), docs, opts, mem); err != nil {
		t.Fatal(err)
	}
	s, err := Open(memLoader(mem))
	if err != nil {
		t.Fatal(err)
	}
	return mem, s
}

func memLoader(mem *output.Memory) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		b, ok := mem.Get(name)
		if !ok {
			return nil, fmt.Errorf("%s: not found", name)
		}
		return b, nil
	}
}

func urls(t *testing.T, s *Reader, hits []Hit) []string {
	t.Helper()
	var out []string
	for _, h := range hits {
		f, err := s.Fragment(h.Doc)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f.URL)
	}
	return out
}

func find(t *testing.T, s *Reader, q Query) []string {
	t.Helper()
	hits, err := s.Search(q)
	if err != nil {
		t.Fatalf("%q: %v", q.Text, err)
	}
	return urls(t, s, hits)
}

func TestWrite_IsDeterministic(t *testing.T) {
	a, _ := writeTest(t, testDocs(), Options{})
	b, _ := writeTest(t, testDocs(), Options{})
	if fmt.Sprint(a.Names()) != fmt.Sprint(b.Names()) {
		t.Fatalf("different files:\n%v\n%v", a.Names(), b.Names())
	}
	for _, n := range a.Names() {
		x, _ := a.Get(n)
		y, _ := b.Get(n)
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two writes", n)
		}
	}
}

func TestWrite_EveryTermIsInTheShardTheTableNames(t *testing.T) {
	var docs []search.Doc
	for i := 0; i < 300; i++ {
		docs = append(docs, search.Doc{ID: fmt.Sprint(i), URL: fmt.Sprint(i), Kind: "note",
			Body: fmt.Sprintf("note-%d word%d gateway host %d 東京%d", i, i%37, i*7919, i%5)})
	}
	mem, s := writeTest(t, docs, Options{ShardBytes: 512})
	if len(s.h.Shards) < 10 {
		t.Fatalf("%d shards; the test wants many", len(s.h.Shards))
	}
	for _, d := range docs {
		for _, term := range analysis.Analyze(d.Body) {
			k := s.shardOf(term)
			sh, err := s.dict(k)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, x := range sh.terms {
				found = found || x == term
			}
			if !found {
				t.Fatalf("term %q is not in shard %d, which the table names", term, k)
			}
		}
	}
	// A one-word query reads the metadata and one shard.
	s, err := Open(memLoader(mem))
	if err != nil {
		t.Fatal(err)
	}
	s.Loaded = nil
	if _, err := s.Search(Query{Text: "gateway "}); err != nil {
		t.Fatal(err)
	}
	if len(s.Loaded) != 1 || !strings.Contains(s.Loaded[0], "/t") {
		t.Errorf("one word loaded %v, want one dictionary shard", s.Loaded)
	}
}

func TestStaticSearch_FindsExactTokensTyposAndCJK(t *testing.T) {
	_, s := writeTest(t, testDocs(), Options{})
	for _, c := range []struct{ q, want string }{
		{"E_AUTH_4031", "sources/daily/2026-10-08.html"},
		{"e_auth", "sources/daily/2026-10-08.html"}, // a compound's start, being typed
		{"10.0.0.11", "sources/daily/2026-09-15.html"},
		{"deployctl", "sources/daily/2026-10-08.html"},
		{"京都", "index.html"},
		{"京", "index.html"}, // one CJK character: a prefix of bigrams
		{"愛子", "index.html"},
		{"gatway", "topics/gateway.html"}, // typo
		{"deplyctl", "sources/daily/2026-10-08.html"},
		{"mac-mini.lan", "sources/daily/2026-10-21.html"},
	} {
		got := find(t, s, Query{Text: c.q})
		if len(got) == 0 || !contains(got[:min(3, len(got))], c.want) {
			t.Errorf("%q: got %v, want %s in the first three", c.q, got, c.want)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestStaticSearch_TypoReadsOneTrigramShard(t *testing.T) {
	_, s := writeTest(t, testDocs(), Options{})
	s.Loaded = nil
	if _, err := s.Search(Query{Text: "gatway"}); err != nil {
		t.Fatal(err)
	}
	var tri, dict int
	for _, f := range s.Loaded {
		switch {
		case strings.Contains(f, "/g"):
			tri++
		case strings.Contains(f, "/t"):
			dict++
		}
	}
	if tri != 1 || dict != 1 {
		t.Errorf("a typo loaded %v: want one trigram shard and one dictionary shard", s.Loaded)
	}
}

func TestStaticSearch_SupersededClaimRanksBelowItsSuccessor(t *testing.T) {
	_, s := writeTest(t, testDocs(), Options{})
	// "nuc-01" matches the old claim better than the new one.
	got := find(t, s, Query{Text: "gateway host nuc-01", Kinds: []string{"claim"}})
	if fmt.Sprint(got) != "[claims/gateway-mac.html claims/gateway-nuc.html]" {
		t.Errorf("got %v, want the successor first", got)
	}
	f, _ := s.Fragment(3)
	if f.Status != "superseded" {
		t.Errorf("fragment of the old claim says status %q", f.Status)
	}
}

func TestStaticSearch_DatedNotesDecay(t *testing.T) {
	_, s := writeTest(t, testDocs(), Options{})
	// Both logs say "gateway host" once; the older one has decayed.
	got := find(t, s, Query{Text: "gateway host", Kinds: []string{"daily"}})
	if fmt.Sprint(got) != "[sources/daily/2026-10-21.html sources/daily/2026-09-15.html]" {
		t.Errorf("got %v, want the newer log first", got)
	}
}

func TestStaticSearch_FiltersAndLabels(t *testing.T) {
	_, s := writeTest(t, testDocs(), Options{})
	if got := find(t, s, Query{Text: "deploy", Types: []string{"feedback"}}); fmt.Sprint(got) != "[claims/deploy.html]" {
		t.Errorf("type filter: got %v", got)
	}
	if got := find(t, s, Query{Text: "gateway", Tiers: []string{"warm"}}); fmt.Sprint(got) != "[claims/gateway-mac.html]" {
		t.Errorf("tier filter: got %v", got)
	}
	// Unknown values are no filter at all.
	all := find(t, s, Query{Text: "gateway"})
	if got := find(t, s, Query{Text: "gateway", Kinds: []string{"nonsense"}}); fmt.Sprint(got) != fmt.Sprint(all) {
		t.Errorf("unknown kind filtered: %v vs %v", got, all)
	}
	f, err := s.Fragment(5)
	if err != nil || !f.Lapsed {
		t.Errorf("the lapsed permission's fragment is not labelled: %+v %v", f, err)
	}
}

func TestStaticSearch_BadInputIsHarmless(t *testing.T) {
	_, s := writeTest(t, testDocs(), Options{})
	for _, q := range []string{"", "   ", "?!…—()", "a.*b[(|", "\x00\xff\xfe", strings.Repeat("gateway 京都 E_AUTH_4031 ", 500), strings.Repeat("x", 10000)} {
		if _, err := s.Search(Query{Text: q}); err != nil {
			t.Errorf("%.40q: %v", q, err)
		}
	}
	if got := find(t, s, Query{Text: "?!…"}); len(got) != 0 {
		t.Errorf("punctuation found %v", got)
	}
	if _, err := s.Fragment(-1); err == nil {
		t.Error("fragment -1 did not fail")
	}
}

func TestStatic_CorruptedOrMissingFilesAreErrorsNotPanics(t *testing.T) {
	mem, s := writeTest(t, testDocs(), Options{})
	if _, err := Open(func(string) ([]byte, error) { return []byte{1, 2, 3}, nil }); err == nil {
		t.Error("a corrupted meta opened")
	}
	if _, err := Open(func(string) ([]byte, error) { return nil, fmt.Errorf("gone") }); err == nil {
		t.Error("a missing meta opened")
	}
	meta, _ := mem.Get("meta.bin")
	for cut := 0; cut < len(meta); cut += max(1, len(meta)/50) {
		_, _ = Open(func(string) ([]byte, error) { return meta[:cut], nil }) // must not panic
	}
	shard := s.h.ID + "/t0.bin"
	good, _ := mem.Get(shard)
	for _, bad := range [][]byte{nil, {9}, {0, 0xff, 0xff, 0xff}, good[:len(good)/2], append([]byte{0}, bytes.Repeat([]byte{0x80}, 40)...)} {
		broken := output.NewMemory()
		for _, n := range mem.Names() {
			b, _ := mem.Get(n)
			if n == shard {
				b = bad
			}
			_ = broken.WriteFile(n, b)
		}
		bs, err := Open(memLoader(broken))
		if err != nil {
			t.Fatal(err)
		}
		var anyErr error
		for _, term := range []string{"10", "aiko", "gateway", "京都", "zzz"} {
			if _, err := bs.Search(Query{Text: term}); err != nil {
				anyErr = err
			}
		}
		if anyErr == nil && len(bad) < len(good) {
			t.Errorf("a shard of %d bytes went unnoticed", len(bad))
		}
	}
}

func TestRank_DecayHalvesAtTheHalfLife(t *testing.T) {
	if d := search.Decay(30, 30); math.Abs(d-0.5) > 1e-12 {
		t.Errorf("Decay(30) = %v", d)
	}
	if search.Decay(0, 30) != 1 || search.Decay(-5, 30) != 1 {
		t.Error("today and the future do not decay")
	}
	got := search.Rank([]search.Candidate{{Doc: 0, BM25: 1, Age: 60}, {Doc: 1, BM25: 0.3, Age: -1}}, search.DefaultParams(), nil)
	if got[0].Doc != 1 || math.Abs(got[1].Score-0.7*0.25) > 1e-12 {
		t.Errorf("an evergreen note at 0.3 should beat a 60-day-old one at 1: %+v", got)
	}
}

func TestRank_MMRSeparatesNearDuplicates(t *testing.T) {
	cands := []search.Candidate{{Doc: 0, BM25: 1, Age: -1}, {Doc: 1, BM25: 0.99, Age: -1}, {Doc: 2, BM25: 0.8, Age: -1}}
	dup := func(a, b int) float64 {
		if a+b == 1 {
			return 1 // 0 and 1 are the same text
		}
		return 0
	}
	got := search.Rank(cands, search.DefaultParams(), dup)
	if got[0].Doc != 0 || got[1].Doc != 2 || got[2].Doc != 1 {
		t.Errorf("got %+v, want the duplicate last", got)
	}
	if plain := search.Rank(cands, search.DefaultParams(), nil); plain[1].Doc != 1 {
		t.Errorf("without similarity the order is relevance: %+v", plain)
	}
}

func TestRank_FuzzyMergeAndSupersession(t *testing.T) {
	p := search.DefaultParams()
	got := search.Rank([]search.Candidate{
		{Doc: 0, BM25: 1, Fuzzy: 0, Age: -1, Superseded: true, Successors: []int{2}},
		{Doc: 1, BM25: 0, Fuzzy: 1, Age: -1},
		{Doc: 2, BM25: 0.1, Fuzzy: 0.1, Age: -1},
	}, p, nil)
	// 0: 0.7*0.5 = 0.35 but superseded by 2, which scores 0.07+0.03.
	want := []int{1, 2, 0}
	for i, r := range got {
		if r.Doc != want[i] {
			t.Fatalf("got %+v, want order %v", got, want)
		}
	}
	if math.Abs(got[0].Score-p.FuzzyWeight) > 1e-12 {
		t.Errorf("a typo-only match scores w: %v", got[0].Score)
	}
}

func TestParams_SaneReplacesNonsense(t *testing.T) {
	p := search.Params{K1: -1, B: 7, Boosts: [search.NumFields]float64{-1, 3, math.Inf(1), 1}, FuzzyWeight: math.NaN(), HalfLifeDays: 0, MMRLambda: 2, SupersededPenalty: -3}.Sane()
	if p != search.DefaultParams() {
		t.Errorf("got %+v", p)
	}
}

// FuzzStaticFiles feeds the reader damaged metadata and shards: it may
// refuse them, never panic.
func FuzzStaticFiles(f *testing.F) {
	mem := output.NewMemory()
	if _, err := Write(context.Background(), testDocs(), Options{}, mem); err != nil {
		f.Fatal(err)
	}
	meta, _ := mem.Get("meta.bin")
	var shard, tri []byte
	for _, n := range mem.Names() {
		switch {
		case strings.HasSuffix(n, "/t0.bin"):
			shard, _ = mem.Get(n)
		case strings.HasSuffix(n, "/g7.bin"):
			tri, _ = mem.Get(n)
		}
	}
	f.Add(meta, shard, tri)
	f.Fuzz(func(t *testing.T, meta, shard, tri []byte) {
		s, err := Open(func(name string) ([]byte, error) {
			switch {
			case name == "meta.bin":
				return meta, nil
			case strings.Contains(name, "/g"):
				return tri, nil
			case strings.Contains(name, "/t"):
				return shard, nil
			}
			b, _ := mem.Get(name)
			return b, nil
		})
		if err != nil {
			return
		}
		for _, q := range []string{"gateway", "gatway", "京", "e_auth", "10"} {
			if hits, err := s.Search(Query{Text: q}); err == nil {
				for _, h := range hits {
					_, _ = s.Fragment(h.Doc)
				}
			}
		}
	})
}

func FuzzQueryUnits(f *testing.F) {
	for _, s := range []string{"gateway host", `"a b" -c +d type:x`, "10.0.0.12:8080", "京都 -東京", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if us := queryUnits(s); len(us) > maxQueryUnits {
			t.Fatalf("%d query units", len(us))
		}
	})
}
