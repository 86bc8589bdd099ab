package build_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/crashtest"
)

// faultAsOf is the day the fault test's builds judge decay at, so that
// every build of a workspace writes the same bytes.
var faultAsOf = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

const faultWorkspace = `
-- MEMORY.md --
# Memory

- The gateway runs on the [[mac-mini]]. Source: memory/2026-10-21.md
-- mac-mini.md --
# Mac mini

The home server.
-- memory/2026-10-21.md --
- Moved the gateway to the Mac mini.
`

// TestBuild_KilledAtEveryRenameLeavesASite is finding 7 of issue #22: a
// build over an earlier one, killed (SIGKILL) at each of its renames, and
// at the first removals and writes, leaves OUT/site and OUT/vault whole,
// each the earlier build's or the new one's; the next build writes the new
// output and leaves no temporary folder of the killed one behind.
func TestBuild_KilledAtEveryRenameLeavesASite(t *testing.T) {
	v1 := buildtest.Workspace(t, faultWorkspace)
	v2 := buildtest.Workspace(t, faultWorkspace+"-- notes/nas.md --\n# NAS\n\nBacked up to [[mac-mini]].\n")
	template := filepath.Join(t.TempDir(), "out")
	buildInto(t, v1, template)
	old := tree(t, template)
	want := filepath.Join(t.TempDir(), "out")
	copyTree(t, template, want)
	buildInto(t, v2, want)
	next := tree(t, want)
	if old["site/index.html"] == next["site/index.html"] {
		t.Fatal("the two builds' home pages are the same: the test cannot tell them apart")
	}

	start := func(t *testing.T, p crashtest.Point) (*exec.Cmd, func(bool)) {
		out := filepath.Join(t.TempDir(), "out")
		copyTree(t, template, out)
		cmd := exec.Command(os.Args[0], "-test.run=^TestBuildFaultHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), "BUILD_FAULT_WS="+v2, "BUILD_FAULT_OUT="+out)
		return cmd, func(killed bool) {
			got := tree(t, out)
			if _, ok := got["site/index.html"]; !ok {
				t.Fatalf("killed at %s, the output has no site/index.html", p)
			}
			for _, part := range []string{"site/", "vault/"} {
				if !sameUnder(got, old, part) && !sameUnder(got, next, part) {
					t.Errorf("killed at %s, %s is neither the earlier build's nor the new one's", p, part)
				}
			}
			buildInto(t, v2, out)
			got = tree(t, out)
			for _, part := range []string{"site/", "vault/"} {
				if !sameUnder(got, next, part) {
					t.Errorf("after the build that followed the kill at %s, %s is not the new build's", p, part)
				}
			}
			for name := range got {
				if first, _, _ := strings.Cut(name, "/"); strings.HasPrefix(first, ".build-") || strings.HasSuffix(first, ".old") {
					t.Errorf("after the build that followed the kill at %s, %s is left", p, first)
					break
				}
			}
		}
	}
	points := crashtest.EveryPoint(t, []string{"rename", "renameat", "renameat2"}, start)
	// A few kills while the new output is written and while the old one
	// is removed: every call of those would be hundreds of builds.
	strace := crashtest.Strace(t)
	for _, p := range []crashtest.Point{{Syscall: "write", N: 3}, {Syscall: "unlinkat", N: 1}, {Syscall: "unlinkat", N: 20}} {
		t.Run(p.String(), func(t *testing.T) {
			cmd, check := start(t, p)
			if !crashtest.KillAt(t, strace, cmd, p.Syscall, p.N) {
				t.Fatalf("the build was not killed at %s", p)
			}
			check(true)
			points[p.String()]++
		})
	}
	t.Logf("injection points: %v", points)
	if points["renameat"]+points["renameat2"]+points["rename"] < 2 {
		t.Errorf("the build was killed at fewer renames than it has parts: %v", points)
	}
}

// TestBuildFaultHelper is the build the fault test kills; it runs only
// when that test starts it.
func TestBuildFaultHelper(t *testing.T) {
	ws := os.Getenv("BUILD_FAULT_WS")
	if ws == "" {
		t.Skip("run by TestBuild_KilledAtEveryRenameLeavesASite")
	}
	// strace counts calls per thread: the build's own stay on one.
	runtime.LockOSThread()
	buildInto(t, ws, os.Getenv("BUILD_FAULT_OUT"))
}

func buildInto(t *testing.T, ws, out string) {
	t.Helper()
	if _, err := build.Build(context.Background(), build.Options{Workspace: ws, Out: out, AsOf: faultAsOf}); err != nil {
		t.Fatal(err)
	}
}

// tree is every file under dir, by slash path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameUnder reports whether a and b hold the same files under prefix.
func sameUnder(a, b map[string]string, prefix string) bool {
	n := 0
	for name, data := range a {
		if strings.HasPrefix(name, prefix) {
			if other, ok := b[name]; !ok || other != data {
				return false
			}
			n++
		}
	}
	for name := range b {
		if strings.HasPrefix(name, prefix) {
			n--
		}
	}
	return n == 0
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}
