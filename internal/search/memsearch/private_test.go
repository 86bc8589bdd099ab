package memsearch_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

// A note made private after it was indexed leaves no byte in the persisted
// index: deleting its documents would leave them on disk until bleve
// merges its segments.
func TestIndex_ANoteMadePrivateLeavesNoByteOnDisk(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	write := func(p, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(ws, ".dreamwiki", "index")
	update := func() {
		t.Helper()
		m, err := build.Load(ctx, build.Options{Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		ix, err := memsearch.OpenIndex(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if _, err := ix.Update(ctx, m.Workspace, m.Vault); err != nil {
			t.Fatal(err)
		}
	}
	onDisk := func(word string) bool {
		found := false
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				found = found || bytes.Contains(b, []byte(word))
			}
			return nil
		})
		return found
	}
	write("MEMORY.md", "# Memory\n\n- The kiln runs on Thursdays.\n")
	write("notes/ward.md", "# Ward\n\nThe zebrafinchword clinic, Tuesdays.\n")
	update()
	if !onDisk("zebrafinchword") {
		t.Fatal("the note's words are not on disk before it is made private; the test proves nothing")
	}
	write("notes/ward.md", "---\nprivate: true\n---\n# Ward\n\nThe zebrafinchword clinic, Tuesdays.\n")
	update()
	if onDisk("zebrafinchword") {
		t.Error("the private note's words are still on disk in the index")
	}
	if !onDisk("kiln") {
		t.Error("the index lost the public notes")
	}
}
