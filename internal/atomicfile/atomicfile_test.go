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
