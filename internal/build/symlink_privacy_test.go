package build_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

// symlinkWorkspace keeps a note private three ways, each behind a
// symbolic link from a public place added by the test: a file in a
// private folder, a whole private folder, a file a private glob names.
const symlinkWorkspace = `
-- dreamwiki.toml --
private = ["vaulted/**"]
-- MEMORY.md --
# Memory

- The kiln runs on Thursdays.
-- memory/private/health.md --
# Health

- The physio is on Tuesdays, marrowleaf exercises.
-- memory/private/clinic.md --
# Clinic

- The clinic is at thornquill street.
-- vaulted/plans.md --
# Plans

- The surprise is in gorsemantle week.
-- notes/public.md --
# Public

The kiln is in the shed.
`

// TestBuild_SymlinkToPrivateNoteIsPrivate holds a file to one identity:
// read through a symbolic link from a public place, a private note is as
// absent as it is at its own path, from the site page and its Markdown
// twin, the vault, llms-full.txt, the search data, get and search; and
// neither its text nor its private path shows.
func TestBuild_SymlinkToPrivateNoteIsPrivate(t *testing.T) {
	dir := buildtest.Workspace(t, symlinkWorkspace)
	links := map[string]string{
		"notes/health-view.md": "../memory/private/health.md", // a file in a private folder
		"notes/clinic-folder":  "../memory/private",           // the private folder
		"notes/plans-view.md":  "../vaulted/plans.md",         // a file a private glob names
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("symbolic links are not available: %v", err)
		}
	}
	words := []string{"marrowleaf", "thornquill", "gorsemantle", "health-view", "clinic-folder", "plans-view", "memory/private", "vaulted/"}

	out := buildtest.BuildWith(t, build.Options{Workspace: dir})
	out.AssertContains("site/notes/public.html", "The kiln is in the shed")
	out.AssertExists("site/llms-full.txt")
	out.AssertNoFileHolds("", words...)
	out.AssertDiagnostic("symlink", "notes/health-view.md")

	ws, err := build.ReadWorkspace(build.Options{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"notes/health-view.md", "notes/clinic-folder/health.md", "notes/clinic-folder/clinic.md", "notes/plans-view.md"} {
		if !ws.Withholds(p) || ws.FileByPath(p) != nil {
			t.Errorf("%s is published (withheld %v)", p, ws.Withholds(p))
		}
		if _, err := memsearch.Get(ws, p, 0, 0); !errors.Is(err, memsearch.ErrNotPublished) {
			t.Errorf("get %s: %v, want %v", p, err, memsearch.ErrNotPublished)
		}
	}

	ctx := context.Background()
	m, err := build.Load(ctx, build.Options{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := memsearch.OpenIndex(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, m.Workspace, m.Vault); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"kiln", "marrowleaf", "thornquill", "gorsemantle"} {
		res, err := ix.Search(ctx, memsearch.Query{Text: w})
		if err != nil {
			t.Fatal(err)
		}
		if w == "kiln" && len(res) == 0 {
			t.Errorf("search finds no public note")
		}
		if w != "kiln" && len(res) != 0 {
			t.Errorf("search %q finds %v", w, res)
		}
	}
}
