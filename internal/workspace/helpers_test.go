package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dreamwiki/dreamwiki/internal/diag"
)

// mapFS turns a txtar archive into an in-memory workspace.
func mapFS(archive string) fstest.MapFS {
	a := txtar.Parse([]byte(archive))
	fsys := fstest.MapFS{}
	for _, f := range a.Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o644}
	}
	return fsys
}

// loadTxtar loads a workspace written as a txtar archive through LoadFS.
func loadTxtar(t testing.TB, archive string) *Workspace {
	t.Helper()
	ws, err := LoadFS(mapFS(archive), Options{})
	if err != nil {
		t.Fatalf("LoadFS: %v", err)
	}
	return ws
}

// writeTree writes a txtar archive to a temporary directory and returns it.
func writeTree(t testing.TB, archive string) string {
	t.Helper()
	dir := t.TempDir()
	a := txtar.Parse([]byte(archive))
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustLoad(t testing.TB, dir string, opts Options) *Workspace {
	t.Helper()
	ws, err := Load(dir, opts)
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	return ws
}

func date(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// entryByText finds the entry whose Text starts with prefix.
func entryByText(t testing.TB, entries []*Entry, prefix string) *Entry {
	t.Helper()
	for _, e := range entries {
		if strings.HasPrefix(e.Text, prefix) {
			return e
		}
	}
	var texts []string
	for _, e := range entries {
		texts = append(texts, "  "+e.Text)
	}
	t.Fatalf("no entry starting with %q among:\n%s", prefix, strings.Join(texts, "\n"))
	return nil
}

// diagsWith returns the diagnostics with the given code.
func diagsWith(l diag.List, code string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range l {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

func paths(files []*File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func noDiagnostics(t testing.TB, ws *Workspace) {
	t.Helper()
	for _, d := range ws.Diagnostics {
		t.Errorf("unexpected diagnostic: %s (%s)", d.Error(), d.Code)
	}
}
