package output

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// mkfile writes data to dir/name, making its folders.
func mkfile(t *testing.T, dir, name, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSwap_ReplacesEachPartAndLeavesNoTemporaryFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, v := range []string{"one", "two"} {
		err := Swap(out, []string{"vault", "site"}, func(tmp string) error {
			mkfile(t, tmp, "vault/index.md", v)
			mkfile(t, tmp, "site/index.html", v)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, out, "site/index.html"); got != v {
			t.Errorf("site/index.html = %q, want %q", got, v)
		}
	}
	// A failed build replaces nothing.
	fail := errors.New("render failed")
	if err := Swap(out, []string{"vault", "site"}, func(tmp string) error {
		mkfile(t, tmp, "site/index.html", "three")
		return fail
	}); !errors.Is(err, fail) {
		t.Fatalf("Swap = %v, want the write's error", err)
	}
	if got := readFile(t, out, "site/index.html"); got != "two" {
		t.Errorf("after a failed build site/index.html = %q", got)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 3 { // the marker, site, vault
		t.Errorf("out holds %v", names)
	}
}

func TestSwap_ReplaceWithoutExchangeKeepsThePartOnFailure(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, dir, "site/index.html", "old")
	// The new tree is missing: the move in fails, and the old one is put back.
	if err := replace(filepath.Join(dir, "tmp", "site"), filepath.Join(dir, "site")); err == nil {
		t.Fatal("replace of a missing tree succeeded")
	}
	if got := readFile(t, dir, "site/index.html"); got != "old" {
		t.Errorf("site/index.html = %q after a failed replace", got)
	}
}

func TestSwap_RemovesWhatStoppedBuildsLeftAndRestoresAMovedPart(t *testing.T) {
	out := t.TempDir()
	// A build killed between its two renames where the file system cannot
	// exchange: site/ moved aside into its folder, the new one not in.
	mkfile(t, out, ".build-1/site.old/index.html", "old")
	mkfile(t, out, ".build-1/site/index.html", "new")
	mkfile(t, out, "vault/index.md", "v")
	// A build of an earlier version killed the same way, for vault/ of
	// another folder, and one that left a site.old beside site/.
	legacy := t.TempDir()
	mkfile(t, legacy, "vault.old/index.md", "old")
	mkfile(t, legacy, "site.old/index.html", "older")
	mkfile(t, legacy, "site/index.html", "old")

	if err := removeDead(out, []string{"vault", "site"}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out, "site/index.html"); got != "old" {
		t.Errorf("site/index.html = %q, want the old site back", got)
	}
	if _, err := os.Stat(filepath.Join(out, ".build-1")); err == nil {
		t.Error(".build-1 is left")
	}
	if err := removeDead(legacy, []string{"vault", "site"}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, legacy, "vault/index.md"); got != "old" {
		t.Errorf("vault/index.md = %q, want vault.old back", got)
	}
	if got := readFile(t, legacy, "site/index.html"); got != "old" {
		t.Errorf("site/index.html = %q, want it kept", got)
	}
	for _, name := range []string{"site.old", "vault.old"} {
		if _, err := os.Stat(filepath.Join(legacy, name)); err == nil {
			t.Errorf("%s is left", name)
		}
	}
}

func TestSwap_KeepsTheTemporaryFolderOfARunningBuild(t *testing.T) {
	out := t.TempDir()
	tmp, unlock, err := tempFolder(out)
	if err != nil {
		t.Fatal(err)
	}
	mkfile(t, tmp, "site/index.html", "being written")
	if err := removeDead(out, []string{"site"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "site", "index.html")); err != nil {
		t.Fatalf("the running build's folder was removed: %v", err)
	}
	unlock()
	if runtime.GOOS != "linux" {
		return // where no lock tells, a folder is dead when a day old
	}
	if err := removeDead(out, []string{"site"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Error("the folder of a build that ended is left")
	}
}
