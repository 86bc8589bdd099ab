package build

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/ with the current output of the demo")

// goldenAsOf pins the day the demo is judged at: decay, tiers and lapses
// depend on it, and the snapshots must not change with the calendar.
var goldenAsOf = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// goldenSite is the slice of the demo's site kept as a snapshot: one page
// of each kind people read (with its Markdown twin) and the files agents
// read.
var goldenSite = []string{
	"index.html", "index.md",
	"claims/gateway-host-is-the-mac-mini-mac-mini-lan-10-0-0-12-since.html",
	"claims/gateway-host-is-the-mac-mini-mac-mini-lan-10-0-0-12-since.md",
	"topics/gateway.html", "topics/gateway.md",
	"sources/daily/2026-10-21.html", "sources/daily/2026-10-21.md",
	"sources/conversations/telegram/homelab-crew/raw/topic-7/index.html",
	"dashboard.html",
	"dreams/2026-10-30-0700.html", "history/2026-10-30-0700/memory.html", "changes.html", "history/index.json",
	"api/claims.json",
	"llms.txt",
}

// TestGolden_DemoOutputIsReviewedAsADiff keeps the demo's whole vault and
// a slice of its site as snapshots in testdata/golden/, so that every
// change to what dreamwiki publishes shows up in review as a diff. After
// an intended change: go test ./internal/build -run Golden -update.
func TestGolden_DemoOutputIsReviewedAsADiff(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dist")
	if _, err := Build(context.Background(), Options{Demo: true, Out: out, AsOf: goldenAsOf}); err != nil {
		t.Fatal(err)
	}
	vaultFiles := map[string][]byte{}
	root := filepath.Join(out, "vault")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		vaultFiles[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	siteFiles := map[string][]byte{}
	for _, p := range goldenSite {
		data, err := os.ReadFile(filepath.Join(out, "site", filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("the snapshot's page %s is no longer built (%v); update goldenSite", p, err)
		}
		siteFiles[p] = data
	}
	compareGolden(t, "demo-vault.txtar", "The demo's provenance vault, every file (TestGolden_DemoOutputIsReviewedAsADiff).", vaultFiles)
	compareGolden(t, "demo-site.txtar", "A slice of the demo's site (TestGolden_DemoOutputIsReviewedAsADiff).", siteFiles)
}

// compareGolden checks files against the txtar snapshot name, or rewrites
// it with -update.
func compareGolden(t *testing.T, name, comment string, files map[string][]byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if *update {
		a := &txtar.Archive{Comment: []byte(comment + "\n")}
		for _, n := range names {
			a.Files = append(a.Files, txtar.File{Name: n, Data: files[n]})
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	want := map[string][]byte{}
	for _, f := range a.Files {
		want[f.Name] = f.Data
	}
	var diffs []string
	for _, n := range names {
		w, ok := want[n]
		switch {
		case !ok:
			diffs = append(diffs, "new file "+n)
		case string(w) != string(withFinalNewline(files[n])):
			diffs = append(diffs, "changed "+n+firstDifference(withFinalNewline(files[n]), w))
		}
		delete(want, n)
	}
	for n := range want {
		diffs = append(diffs, "no longer written: "+n)
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		t.Errorf("%s differs from the output in %d files (review, then go test ./internal/build -run Golden -update):\n  %s",
			path, len(diffs), strings.Join(diffs, "\n  "))
	}
}

// withFinalNewline is what txtar keeps of a file: it ends every file with
// a newline.
func withFinalNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b[:len(b):len(b)], '\n')
	}
	return b
}
