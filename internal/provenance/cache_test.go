package provenance

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// TestAnalyze_CacheGivesTheSameResult edits the demo workspace file by
// file (topic files, MEMORY.md, daily logs, the recall store, a note
// pointers name, made private and public again; files added and removed)
// and checks after each edit that
// a run with a Cache kept across the edits gives what a run without one
// gives.
func TestAnalyze_CacheGivesTheSameResult(t *testing.T) {
	t.Run("demo", func(t *testing.T) { testCacheGivesTheSameResult(t, true, true) })
	// Without memory-meta.json, claims keep their ids the fast way
	// (matchFromLast).
	t.Run("demo without meta", func(t *testing.T) { testCacheGivesTheSameResult(t, false, true) })
	// Without conversations, the daily logs are the corpus's last files,
	// and a new one extends the last corpus (corpus.extend).
	t.Run("demo without conversations", func(t *testing.T) { testCacheGivesTheSameResult(t, true, false) })
}

func testCacheGivesTheSameResult(t *testing.T, meta, conversations bool) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, demo.FS()); err != nil {
		t.Fatal(err)
	}
	if !meta {
		if err := os.Remove(filepath.Join(dir, "memory", "memory-meta.json")); err != nil {
			t.Fatal(err)
		}
	}
	if !conversations {
		if err := os.RemoveAll(filepath.Join(dir, "archives")); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Load(dir, workspace.Options{OmitPrivate: true, Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	asOf := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	cache := &Cache{}
	var prior []PriorClaim
	run := func(name string) {
		t.Helper()
		opts := Options{AsOf: asOf, Previous: prior}
		fresh := Analyze(ws, opts)
		opts.Cache = cache
		cached := Analyze(ws, opts)
		if !reflect.DeepEqual(fresh, cached) {
			t.Fatalf("%s: the cached run differs:\n%s", name, resultDiff(fresh, cached))
		}
		prior = fresh.Prior()
	}
	run("first run")
	run("second run, nothing changed")
	file := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	edits := []struct {
		name  string
		path  string
		edit  func(string) string
		gone  bool
		added string
	}{
		{name: "append an entry to a topic file", path: "memory/gateway.md", edit: func(s string) string {
			return s + "\n- The gateway's UPS was replaced on 2026-11-19. Source: memory/2026-11-10.md#L3-L3\n"
		}},
		{name: "insert a line at the top of a topic file", path: "memory/gateway.md", edit: func(s string) string {
			return strings.Replace(s, "\n", "\n\nA note before everything.\n", 1)
		}},
		{name: "reword an entry of MEMORY.md", path: "MEMORY.md", edit: func(s string) string {
			return strings.Replace(s, "Short answers by default", "Very short answers by default", 1)
		}},
		{name: "repeat an entry of another file", path: "memory/gateway.md", edit: func(s string) string {
			return s + "\n- [user] Very short answers by default; ask before anything irreversible. (source: 2026-09-15)\n"
		}},
		{name: "remove the repeat", path: "memory/gateway.md", edit: func(s string) string {
			return strings.Replace(s, "\n- [user] Very short answers by default; ask before anything irreversible. (source: 2026-09-15)\n", "", 1)
		}},
		{name: "an entry under a Feedback heading", path: "memory/gateway.md", edit: func(s string) string {
			return s + "\n## Feedback\n\n- Keep gateway changes small and reversible, one at a time.\n"
		}},
		{name: "the same entry under a People heading (its type follows)", path: "memory/gateway.md", edit: func(s string) string {
			return strings.Replace(s, "\n## Feedback\n", "\n## People\n", 1)
		}},
		{name: "edit a daily log", path: "memory/2026-10-21.md", edit: func(s string) string {
			return strings.Replace(s, "\n- ", "\n- Sam confirmed the move on a call.\n- ", 1)
		}},
		{name: "a topic file points to a note", path: "memory/blog.md", edit: func(s string) string {
			return s + "\n- The reading list is kept in a note. Source: notes/reading-list.md\n"
		}},
		{name: "edit the note it points to", path: "notes/reading-list.md", edit: func(s string) string {
			return "A first line that moves every block.\n\n" + s
		}},
		{name: "make the note private", path: "notes/reading-list.md", edit: func(s string) string {
			return "---\nprivate: true\n---\n" + s
		}},
		{name: "make it public again", path: "notes/reading-list.md", edit: func(s string) string {
			return strings.TrimPrefix(s, "---\nprivate: true\n---\n")
		}},
		{name: "add a daily log", path: "memory/2026-11-21.md", added: "# 2026-11-21\n\n- The gateway's UPS was replaced.\n"},
		{name: "add another, with new words", path: "memory/2026-11-22.md", added: "# 2026-11-22\n\n- Quokka firmware flashed on the gateway; the UPS beeps hourly.\n"},
		{name: "remove it", path: "memory/2026-11-22.md", gone: true},
		{name: "remove a daily log", path: "memory/2026-11-21.md", gone: true},
		{name: "edit the recall store", path: "memory/.dreams/short-term-recall.json", edit: func(s string) string {
			return strings.Replace(s, `"recallCount": `, `"recallCount": 1`, 1)
		}},
	}
	for _, e := range edits {
		full := filepath.Join(dir, filepath.FromSlash(e.path))
		switch {
		case e.gone:
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
		case e.added != "":
			if err := os.WriteFile(full, []byte(e.added), 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(full, []byte(e.edit(file(e.path))), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if ws, err = ws.Reread([]string{e.path}); err != nil {
			t.Fatal(err)
		}
		run(e.name)
	}
}

// resultDiff names the first claims, findings or fields two results
// disagree on.
func resultDiff(a, b *Result) string {
	var out []string
	if len(a.Claims) != len(b.Claims) {
		out = append(out, fmt.Sprintf("%d claims, %d cached", len(a.Claims), len(b.Claims)))
	}
	for i := 0; i < min(len(a.Claims), len(b.Claims)) && len(out) < 5; i++ {
		if !reflect.DeepEqual(a.Claims[i], b.Claims[i]) {
			out = append(out, fmt.Sprintf("claim %d:\n  %+v\n  %+v", i, *a.Claims[i], *b.Claims[i]))
		}
	}
	if !reflect.DeepEqual(a.Findings, b.Findings) {
		out = append(out, fmt.Sprintf("findings:\n  %v\n  %v", a.Findings, b.Findings))
	}
	for _, f := range []struct {
		name string
		x, y any
	}{{"chains", a.Chains, b.Chains}, {"contests", a.Contests, b.Contests}, {"dreams", a.Dreams, b.Dreams},
		{"budget", a.Budget, b.Budget}, {"anchors", a.anchors, b.anchors}} {
		if !reflect.DeepEqual(f.x, f.y) {
			out = append(out, fmt.Sprintf("%s:\n  %v\n  %v", f.name, f.x, f.y))
		}
	}
	return strings.Join(out, "\n")
}

// TestAnalyze_UnlinkedLeavesOutOnlyWhatTheVaultReads checks that an
// unlinked run (a point of the memory's history) gives the claims a full
// run gives, less their evidence's notes, their block ids and the
// anchors, and still hides
// what a private note says from public claims.
func TestAnalyze_UnlinkedLeavesOutOnlyWhatTheVaultReads(t *testing.T) {
	fsys := fstest.MapFS{
		"MEMORY.md":            {Data: []byte("# Memory\n\n## Home\n\n- The spare key is with Marta. Source: notes/keys.md\n- The gateway host is the NUC. Source: memory/2026-11-19.md#L3-L3\n")},
		"notes/keys.md":        {Data: []byte("---\nprivate: true\n---\n# Keys\n\nThe spare key is with Marta, flat 4.\n")},
		"memory/2026-11-19.md": {Data: []byte("# 2026-11-19\n\n- The gateway host is the NUC in the hall.\n- Marta has the spare key.\n")},
	}
	ws, err := workspace.LoadFS(fsys, workspace.Options{Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	asOf := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	full := Analyze(ws, Options{AsOf: asOf, Locate: func(p string) string { return "sources/" + p }})
	unlinked := Analyze(ws, Options{AsOf: asOf, Locate: func(p string) string { return "sources/" + p }, Unlinked: true})
	if len(full.AnchoredFiles()) == 0 {
		t.Fatal("the full run lists no anchors: the test shows nothing")
	}
	if len(unlinked.AnchoredFiles()) != 0 {
		t.Errorf("an unlinked run lists anchors for %v", unlinked.AnchoredFiles())
	}
	hidden := 0
	for _, c := range full.Claims {
		c.Block = ""
		for i := range c.Evidence {
			ev := &c.Evidence[i]
			ev.Note = ""
			if ev.Private && !c.Private {
				hidden++
			}
		}
	}
	for _, d := range full.Dreams {
		for i := range d.Items {
			for j := range d.Items[i].Evidence {
				d.Items[i].Evidence[j].Note = ""
			}
		}
	}
	full.anchors = unlinked.anchors
	if !reflect.DeepEqual(full, unlinked) {
		t.Fatalf("the unlinked run differs in more than notes and anchors:\n%s", resultDiff(full, unlinked))
	}
	if hidden == 0 {
		t.Fatal("no public claim has private evidence: the test shows nothing")
	}
	for _, c := range unlinked.Claims {
		for _, ev := range c.Evidence {
			if ev.Private && !c.Private && ev.Excerpt != "" {
				t.Errorf("claim %s shows what private %s says: %q", c.ID, ev.Path, ev.Excerpt)
			}
		}
	}
}
