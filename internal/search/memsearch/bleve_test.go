package memsearch

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func testChunks() []Chunk {
	return []Chunk{
		{Path: "MEMORY.md", StartLine: 5, EndLine: 5, Kind: "index", Text: "- Gateway host is the Mac mini.", Types: []string{"reference"}, Tiers: []string{"warm"}},
		{Path: "MEMORY.md", StartLine: 6, EndLine: 6, Kind: "index", Text: "- [feedback] Lead with the answer. <!-- importance: 8 -->", Types: []string{"feedback"}, Tiers: []string{"hot"}},
		{Path: "memory/2026-10-21.md", StartLine: 3, EndLine: 4, Kind: "daily", Date: "2026-10-21",
			Text: "- Moved the gateway to the Mac mini.\n- nuc-01 keeps Home Assistant."},
		{Path: "memory/2026-09-15.md", StartLine: 3, EndLine: 3, Kind: "daily", Date: "2026-09-15", Text: "- Gateway runs on nuc-01.", Status: "superseded"},
		{Path: "memory/knee.md", StartLine: 1, EndLine: 1, Kind: "note", Text: "knee physio"},
	}
}

func TestIndex_UpdateReindexesOnlyChangedFiles(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := OpenIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ix.UpdateChunks(ctx, testChunks())
	if err != nil || st.Changed != 4 || st.Chunks != 5 {
		t.Fatalf("first update: %+v %v", st, err)
	}
	if st, _ = ix.UpdateChunks(ctx, testChunks()); st.Changed != 0 || st.Removed != 0 {
		t.Errorf("nothing changed, yet %+v", st)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopened: one file edited, one gone.
	ix, err = OpenIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	cs := testChunks()[:4]
	cs[2].Text = "- Moved the gateway to the Mac mini. The fans are silent."
	st, err = ix.UpdateChunks(ctx, cs)
	if err != nil || st.Changed != 1 || st.Removed != 1 || st.Chunks != 1 {
		t.Fatalf("after one edit and one removal: %+v %v", st, err)
	}
	res, err := ix.Search(ctx, Query{Text: "silent"})
	if err != nil || len(res) != 1 || res[0].Citation != "memory/2026-10-21.md#L3-L3" {
		t.Errorf("the edit is not searchable: %+v %v", res, err)
	}
	if res, _ := ix.Search(ctx, Query{Text: "knee"}); len(res) != 0 {
		t.Errorf("a removed file is still found: %+v", res)
	}
}

func TestIndex_SearchSyntax(t *testing.T) {
	ctx := context.Background()
	ix, err := OpenIndex("")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.UpdateChunks(ctx, testChunks()); err != nil {
		t.Fatal(err)
	}
	cites := func(q Query) string {
		t.Helper()
		res, err := ix.Search(ctx, q)
		if err != nil {
			t.Fatalf("%q: %v", q.Text, err)
		}
		var out []string
		for _, r := range res {
			out = append(out, r.Citation)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		q    Query
		want string
	}{
		{Query{Text: "type:feedback"}, "MEMORY.md#L6-L6"},
		{Query{Text: "gateway", Types: []string{"reference"}}, "MEMORY.md#L5-L5"},
		{Query{Text: "gateway tier:warm"}, "MEMORY.md#L5-L5"},
		{Query{Text: `"mac mini" -moved`}, "MEMORY.md#L5-L5"},
		{Query{Text: "gateway kind:daily -assistant"}, "memory/2026-09-15.md#L3-L3"},
		{Query{Text: "gateway host"}, "MEMORY.md#L5-L5"},
		{Query{Text: "type:daily mac mini"}, "memory/2026-10-21.md#L3-L3"}, // a note's type is its kind
		{Query{Text: "gateway path:memory/2026-09"}, "memory/2026-09-15.md#L3-L3"},
		{Query{Text: "nuc-01 keeps"}, "memory/2026-10-21.md#L4-L4"}, // narrowed to the matching line
		{Query{Text: "gatway", Limit: 1}, "MEMORY.md#L5-L5"},
		{Query{Text: "knee"}, "memory/knee.md#L1-L1"},
		{Query{Text: ""}, ""},
		{Query{Text: "?!… -gateway"}, ""},
		{Query{Text: "type:nonsense gateway"}, ""},
		{Query{Text: `"unclosed phrase`}, ""},
		{Query{Text: "10.0.0.12:8080 http://x a.*b[(|"}, ""},
	} {
		if got := cites(c.q); got != c.want && !(c.want != "" && strings.HasPrefix(got, c.want)) {
			t.Errorf("%q %v: got %q, want %q first", c.q.Text, c.q.Types, got, c.want)
		}
	}
	if res, _ := ix.Search(ctx, Query{Text: "type:feedback"}); len(res) != 1 || res[0].Snippet != "- [feedback] Lead with the answer." {
		t.Errorf("the snippet keeps a tool's HTML comment: %+v", res)
	}
	res, _ := ix.Search(ctx, Query{Text: "gateway nuc-01"})
	for _, r := range res {
		if r.Path == "memory/2026-09-15.md" && !r.Superseded {
			t.Errorf("the superseded line is not labelled: %+v", r)
		}
	}
}

func TestParseCitation(t *testing.T) {
	for _, c := range []struct {
		in         string
		path       string
		start, end int
		bad        bool
	}{
		{"memory/x.md#L4-L7", "memory/x.md", 4, 7, false},
		{"memory/x.md#L4", "memory/x.md", 4, 4, false},
		{"MEMORY.md", "MEMORY.md", 0, 0, false},
		{"a.md#L7-L4", "", 0, 0, true},
		{"a.md#Lx", "", 0, 0, true},
		{"a.md#L0", "", 0, 0, true},
	} {
		p, s, e, err := ParseCitation(c.in)
		if (err != nil) != c.bad || (!c.bad && (p != c.path || s != c.start || e != c.end)) {
			t.Errorf("ParseCitation(%q) = %q %d %d %v", c.in, p, s, e, err)
		}
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"gateway host", `"a b" -c +d type:x`, "tag:", `-"`, "10.0.0.12:8080", "京都 -東京", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pq := parseQuery(s)
		if len(pq.words)+len(pq.filters) > maxQueryClauses {
			t.Fatalf("%d clauses", len(pq.words)+len(pq.filters))
		}
	})
}

// TestIndex_SearchWhileUpdating is what serve mode does (run with -race).
func TestIndex_SearchWhileUpdating(t *testing.T) {
	ctx := context.Background()
	ix, err := OpenIndex(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 20; i++ {
			cs := testChunks()
			cs[2].Text += strings.Repeat(" again", i)
			if _, err := ix.UpdateChunks(ctx, cs); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := 0; i < 20; i++ {
		if _, err := ix.Search(ctx, Query{Text: "gateway"}); err != nil {
			t.Fatal(err)
		}
	}
	<-done
}

// TestIndex_FiltersAloneListTheFreshestFirst: a query of filters alone
// scores nothing, so it lists what it selects newest first, undated notes
// last, as the site's search does.
func TestIndex_FiltersAloneListTheFreshestFirst(t *testing.T) {
	ctx := context.Background()
	ix, err := OpenIndex("")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.UpdateChunks(ctx, testChunks()); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"path:memory/":              "memory/2026-10-21.md#L3-L4 memory/2026-09-15.md#L3-L3 memory/knee.md#L1-L1",
		"path:memory/ -kind:note":   "memory/2026-10-21.md#L3-L4 memory/2026-09-15.md#L3-L3",
		"kind:index":                "MEMORY.md#L5-L5 MEMORY.md#L6-L6",
		"-kind:index":               "",
		"path:memory/ -status:none": "memory/2026-10-21.md#L3-L4 memory/2026-09-15.md#L3-L3 memory/knee.md#L1-L1",
	} {
		res, err := ix.Search(ctx, Query{Text: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var got []string
		for _, r := range res {
			got = append(got, r.Citation)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%q: got %q, want %q", q, g, want)
		}
	}
}
