package dream

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/crashtest"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// faultSyscalls are the system calls a dream is killed at: every write,
// fsync, rename, link and unlink it makes, whichever form the platform's
// Go uses.
var faultSyscalls = []string{"write", "pwrite64", "fsync", "fdatasync", "rename", "renameat", "renameat2", "link", "linkat", "unlink", "unlinkat"}

// TestDream_KilledAtEverySyscallLosesNoEdit is the first defect of issue #13
// and its fix, at every point a dream can die: a dream over a generated
// workspace runs under strace, killed (SIGKILL) at its Nth write, fsync,
// rename, link or unlink, for every N. After each kill no file is partial
// (each holds its old bytes or the dream's new ones, no stray temporary
// file, every backup whole); then a line is appended to a curated file the
// dream had already replaced and to one it had not reached, and the next
// dream must recover and run: both edits survive, daily logs are byte for
// byte as they were, and nothing is left pending.
func TestDream_KilledAtEverySyscallLosesNoEdit(t *testing.T) {
	strace := crashtest.Strace(t)
	template, now := generated(t)
	pl := forcedPlan(t, template, now)
	before := snapshot(t, template)
	planned := map[string]string{}
	for _, f := range pl.Files {
		planned[f.Path] = string(f.Content())
	}

	counts := probeSyscalls(t, strace, template, now)
	total := 0
	for _, sc := range faultSyscalls {
		total += counts[sc]
	}
	if counts["write"] == 0 || counts["fsync"] == 0 || counts["renameat"]+counts["renameat2"]+counts["rename"] < len(pl.Files) {
		t.Fatalf("the probe saw too few system calls: %v", counts)
	}
	t.Logf("injection points: %d (%v)", total, counts)

	for _, sc := range faultSyscalls {
		for n := 1; n <= counts[sc]; n++ {
			name := fmt.Sprintf("%s#%d", sc, n)
			t.Run(name, func(t *testing.T) {
				t.Parallel() // each point has a workspace of its own
				dir := t.TempDir()
				copyTree(t, template, dir)
				killAt(t, dir, now, strace, sc, n)
				checkWhole(t, dir, before, planned)
				pending := Pending(dir)
				edits := editAfterCrash(t, dir, before, planned, name)
				checkRecovers(t, dir, now, before, planned, edits, pending)
			})
		}
	}
}

// probeSyscalls runs the dream under strace once, untouched, and counts
// its system calls of each kind. They must all come from one thread: strace
// counts per thread, and "the Nth write" must be the dream's Nth.
func probeSyscalls(t *testing.T, strace, template, now string) map[string]int {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, template, dir)
	byThread := crashtest.Trace(t, strace, helperCmd(dir, now), faultSyscalls)
	// The dream's thread is the one that renames; any other may only wake
	// the runtime's poller (an 8-byte write to an eventfd, once or twice),
	// which at worst moves the kill of write #1 a little earlier.
	dream := ""
	for tid, c := range byThread {
		if c["renameat"]+c["renameat2"]+c["rename"] > 0 {
			if dream != "" {
				t.Fatalf("two threads rename: %v", byThread)
			}
			dream = tid
		}
	}
	for tid, c := range byThread {
		if tid != dream && (len(c) > 1 || c["write"] > 2) {
			t.Fatalf("the dream's system calls came from several threads: %v", byThread)
		}
	}
	return byThread[dream]
}

// killAt runs the dream under strace, killed at its nth call of sc, and
// makes sure it died there.
func killAt(t *testing.T, dir, now, strace, sc string, n int) {
	t.Helper()
	if !crashtest.KillAt(t, strace, helperCmd(dir, now), sc, n) {
		t.Fatalf("the dream was not killed at its %s #%d", sc, n)
	}
}

// checkWhole: after the kill, every file holds its old bytes or the
// dream's new ones, no other file appeared outside .dreamwiki/, and every
// backup is a whole copy of the old bytes.
func checkWhole(t *testing.T, dir string, before, planned map[string]string) {
	t.Helper()
	for path, got := range snapshot(t, dir) {
		old, existed := before[path]
		new, isPlanned := planned[path]
		switch {
		case !existed && !isPlanned:
			t.Errorf("%s appeared", path)
		case existed && got == old, isPlanned && got == new:
		default:
			t.Errorf("%s is partial (%d bytes; old %d, new %d)", path, len(got), len(old), len(new))
		}
	}
	filepath.WalkDir(filepath.Join(dir, BackupRoot), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		parts := strings.SplitN(filepath.ToSlash(rel), "/", 4) // .backup/memory-dreams/<run>/<path>.bak
		b, _ := os.ReadFile(p)
		if len(parts) < 4 || !strings.HasSuffix(parts[3], ".bak") || before[strings.TrimSuffix(parts[3], ".bak")] != string(b) {
			t.Errorf("%s is not a whole backup", rel)
		}
		return nil
	})
}

// edit is a line appended to a curated file after a crash.
type edit struct {
	path, line string
	replaced   bool // the file held the dream's bytes
}

// editAfterCrash appends a line to a curated file the dream had replaced
// (when it got that far) and to one it had not reached.
func editAfterCrash(t *testing.T, dir string, before, planned map[string]string, name string) []edit {
	t.Helper()
	now := snapshot(t, dir)
	var replaced, untouched string
	var paths []string
	for p := range now {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if p != "MEMORY.md" && !writableTopic(p) {
			continue
		}
		if _, ok := planned[p]; ok && now[p] == planned[p] && now[p] != before[p] && replaced == "" {
			replaced = p
		}
		if now[p] == before[p] && untouched == "" {
			untouched = p
		}
	}
	var edits []edit
	for _, p := range []string{replaced, untouched} {
		if p == "" {
			continue
		}
		e := edit{p, fmt.Sprintf("- Hand edit after the crash at %s, in %s.", name, p), p == replaced}
		if err := appendFile(filepath.Join(dir, p), e.line+"\n"); err != nil {
			t.Fatal(err)
		}
		edits = append(edits, e)
	}
	return edits
}

// checkRecovers runs the next dreams: they recover and run, the edits
// survive, the daily logs are untouched. An edited file the crashed dream
// had written is reported, with the dream's version kept.
func checkRecovers(t *testing.T, dir, now string, before, planned map[string]string, edits []edit, pending bool) {
	t.Helper()
	res, err := Run(context.Background(), dir, Options{Now: at(now), Force: true, Choose: chooseAll(t, dir, now)}, false, nil)
	if err != nil || !res.Applied {
		t.Fatalf("the dream after the crash: %v", err)
	}
	if pending != (res.Recovered != nil) {
		t.Errorf("journal pending %v, recovery %+v", pending, res.Recovered)
	}
	kept := map[string]Conflict{}
	if res.Recovered != nil {
		for _, k := range res.Recovered.Kept {
			kept[k.Path] = k
			if b, err := os.ReadFile(filepath.Join(dir, k.Dream)); err != nil || string(b) != planned[k.Path] {
				t.Errorf("%s: the dream's version is not kept whole (%v)", k, err)
			}
		}
	}
	for _, e := range edits {
		if _, ok := kept[e.path]; pending && e.replaced && !ok {
			t.Errorf("the edited %s is not reported as kept: %+v", e.path, res.Recovered)
		}
	}
	after := snapshot(t, dir)
	var curated strings.Builder
	for p, c := range after {
		if _, _, daily := workspace.DailyLogPath(p); daily {
			if c != before[p] {
				t.Errorf("%s changed", p)
			}
			continue
		}
		curated.WriteString(c)
	}
	for _, e := range edits {
		if !strings.Contains(curated.String(), e.line) {
			t.Errorf("the edit to %s was lost", e.path)
		}
	}
	if Pending(dir) {
		t.Error("a journal is left")
	}
	for _, p := range []string{LockPath, stagingDir} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s is left", p)
		}
	}
}
