package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestDir_WritesFilesInFoldersItMakes(t *testing.T) {
	root := t.TempDir()
	d := NewDir(root)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			if err := d.WriteFile(fmt.Sprintf("claims/c%d.html", i), []byte(fmt.Sprint("claim ", i))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for _, i := range []int{0, 63} {
		got, err := os.ReadFile(filepath.Join(root, "claims", fmt.Sprintf("c%d.html", i)))
		if err != nil || string(got) != fmt.Sprint("claim ", i) {
			t.Errorf("claims/c%d.html = %q, %v", i, got, err)
		}
	}
	// Writing again replaces the whole file, shorter or not.
	if err := d.WriteFile("claims/c0.html", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "claims", "c0.html")); string(got) != "x" {
		t.Errorf("rewritten file holds %q, want %q", got, "x")
	}
	if fi, err := os.Stat(filepath.Join(root, "claims", "c1.html")); err != nil || fi.Mode().Perm()&0o644 != 0o644 {
		t.Errorf("a written file is not readable by all: %v %v", fi.Mode(), err)
	}
}

func TestDir_RefusesNamesOutsideItsRoot(t *testing.T) {
	root := t.TempDir()
	d := NewDir(filepath.Join(root, "site"))
	for _, name := range []string{"../escape.html", "/abs.html", "a/../../b.html", ""} {
		if err := d.WriteFile(name, []byte("x")); err == nil {
			t.Errorf("WriteFile(%q) wrote outside the root", name)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "escape.html")); err == nil {
		t.Error("escape.html was written beside the root")
	}
}

func TestDir_ReportsWhatItCannotCreate(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "taken"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d := NewDir(root)
	if err := d.WriteFile("taken/x.html", []byte("x")); err == nil {
		t.Error("writing under a file succeeded")
	}
	if err := os.Mkdir(filepath.Join(root, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("folder", []byte("x")); err == nil {
		t.Error("writing over a folder succeeded")
	}
}

func TestCheckOwned_RefusesFoldersOfOtherFiles(t *testing.T) {
	const manifest = ".manifest.json"
	cases := []struct {
		name  string
		files []string // slash paths to create; "x/" makes a folder
		ok    bool
	}{
		{"missing", nil, true},
		{"empty", []string{""}, true},
		{"marked", []string{MarkerFile, "notes.txt"}, true},
		{"earlier build", []string{"site/index.html", "vault/" + manifest, "vault-backup/", ".build-123/"}, true},
		{"a user's file", []string{"notes.txt"}, false},
		{"a site without a vault", []string{"site/index.html"}, false},
		{"a vault without a manifest", []string{"site/index.html", "vault/a.md"}, false},
		{"a foreign folder beside an earlier build", []string{"site/x.html", "vault/" + manifest, "photos/"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			for _, f := range c.files {
				p := filepath.Join(dir, filepath.FromSlash(f))
				if f == "" || strings.HasSuffix(f, "/") {
					os.MkdirAll(p, 0o755)
					continue
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte("x"), 0o644)
			}
			err := CheckOwned(dir, manifest)
			var foreign *NotOursError
			if c.ok && err != nil || !c.ok && !errors.As(err, &foreign) {
				t.Fatalf("CheckOwned = %v, want ok=%v", err, c.ok)
			}
		})
	}
}
