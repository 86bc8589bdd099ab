package build_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/output"
)

// TestBuild_OutInsideWorkspaceIsRefused is finding 8 of issue #22: an
// output folder that is the workspace, directly, through a symbolic link
// or not made yet, is refused before anything is written, the error
// naming both; so is one whose site/ or vault/ holds the workspace.
func TestBuild_OutInsideWorkspaceIsRefused(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "a")
	if err := os.Mkdir(ws, 0o755); err != nil { // empty: CheckOwned accepts it
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(root, "out", "site")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(site, "MEMORY.md"), []byte("# Memory\n"), 0o644)
	cases := []struct{ name, ws, out, says string }{
		{"the workspace itself", ws, ws, "is the workspace"},
		{"the workspace by a relative path", ws, filepath.Join(root, "a", "..", "a"), "is the workspace"},
		{"a symbolic link to the workspace", ws, link, "is the workspace"},
		{"a workspace read through a link, out the folder", link, ws, "is the workspace"},
		{"a folder whose site/ is the workspace", site, filepath.Join(root, "out"), "which a build into"},
		{"a folder not made yet, whose site/ would hold the workspace", filepath.Join(root, "new", "site", "ws"), filepath.Join(root, "new"), "which a build into"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.MkdirAll(c.ws, 0o755)
			_, err := build.Build(context.Background(), build.Options{Workspace: c.ws, Out: c.out, Force: true})
			if err == nil {
				t.Fatal("the build was not refused")
			}
			if msg := err.Error(); !strings.Contains(msg, c.says) || !strings.Contains(msg, c.ws) || !strings.Contains(msg, c.out) || !strings.Contains(msg, "nothing was written") {
				t.Errorf("the error does not name both folders and what happened: %s", msg)
			}
			for _, p := range []string{filepath.Join(c.out, "vault"), filepath.Join(ws, "site"), filepath.Join(ws, output.MarkerFile)} {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("%s was written", p)
				}
			}
		})
	}
}

// TestBuild_OutInsideWorkspaceThroughALinkIsNotRead: an output folder
// inside the workspace is left out of reading it, also when --out names
// it through a symbolic link from outside, or names a folder not made yet
// under such a link: builds after builds find the same notes.
func TestBuild_OutInsideWorkspaceThroughALinkIsNotRead(t *testing.T) {
	ws := buildtest.Workspace(t, faultWorkspace)
	root := t.TempDir()
	link := filepath.Join(root, "ws")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(ws, "dist"), filepath.Join(link, "public"), filepath.Join(link, "new", "out")} {
		t.Run(filepath.Base(out), func(t *testing.T) {
			notes := 0
			for i := range 3 {
				r, err := build.Build(context.Background(), build.Options{Workspace: ws, Out: out, AsOf: faultAsOf})
				if err != nil {
					t.Fatal(err)
				}
				if i > 0 && r.Notes != notes {
					t.Fatalf("build %d found %d notes, the one before %d: it read its own output", i+1, r.Notes, notes)
				}
				notes = r.Notes
			}
		})
	}
}
