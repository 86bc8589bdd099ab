package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite_ReplacesAndLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.md")
	for _, want := range []string{"one\n", "two\n"} {
		if err := Write(p, []byte(want)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != want {
			t.Errorf("file holds %q, want %q", got, want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("folder holds %d files, want only f.md", len(entries))
	}
}

func TestAbort_LeavesTheTargetAsItWas(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.md")
	if err := Write(p, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half a new fi")
	f.Abort()
	if got, _ := os.ReadFile(p); string(got) != "old\n" {
		t.Errorf("file holds %q after an aborted write", got)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("an aborted write left %d files", len(entries))
	}
}

func TestRemoveTemps_RemovesOnlyWhatCreateLeft(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "raw", "2026-01-02.md")
	if err := Write(p, []byte("kept\n")); err != nil {
		t.Fatal(err)
	}
	left, err := Create(p) // a writer killed before its rename
	if err != nil {
		t.Fatal(err)
	}
	left.Close()
	if !IsTemp(filepath.Base(left.Name())) {
		t.Fatalf("IsTemp(%q) = false", filepath.Base(left.Name()))
	}
	keep := []string{".notes.tmp", "a.1.tmp", ".a.tmp", ".a.12x.tmp", ".a..tmp", "b.md"}
	for _, name := range keep {
		if IsTemp(name) {
			t.Errorf("IsTemp(%q) = true", name)
		}
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	if err := RemoveTemps(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left.Name()); err == nil {
		t.Error("the temporary file is left")
	}
	for _, name := range append(keep, "raw/2026-01-02.md") {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed", name)
		}
	}
	if err := RemoveTemps(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("a missing folder: %v", err)
	}
}
