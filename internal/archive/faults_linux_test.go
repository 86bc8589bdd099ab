package archive

import (
	"bufio"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/crashtest"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// faultSyscalls are the system calls an archive run is killed at: every
// write, fsync, rename and unlink it makes.
var faultSyscalls = []string{"write", "fsync", "rename", "renameat", "renameat2", "unlink", "unlinkat"}

// TestArchive_KilledAtEveryWriteGivesEachMessageOnce is finding 6 of
// issue #22: an archive run killed (SIGKILL) at its Nth write, fsync,
// rename or unlink, for every N, and run again, has archived each message
// exactly once, with the very files an uninterrupted run writes, and no
// temporary file left behind; a third run finds nothing new.
func TestArchive_KilledAtEveryWriteGivesEachMessageOnce(t *testing.T) {
	root := t.TempDir()
	sessions := filepath.Join(root, "agents")
	// 600 messages in 2 groups of 2 topics, over 2 or 3 days each: a
	// raw file per day.
	n := writeSessions(t, sessions, 2, 2, 150, 8, 19*time.Minute)
	want := filepath.Join(root, "uninterrupted")
	if rep, err := Run(context.Background(), Options{Workspace: want, Sessions: []string{sessions}}); err != nil || rep.Messages != n {
		t.Fatalf("the uninterrupted run: %v, %v", rep, err)
	}
	wantFiles := archived(t, want)

	var mu sync.Mutex
	var dup, lost int
	points := crashtest.EveryPoint(t, faultSyscalls, func(t *testing.T, p crashtest.Point) (*exec.Cmd, func(bool)) {
		ws := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestArchiveFaultHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), "ARCHIVE_FAULT_WS="+ws, "ARCHIVE_FAULT_SESSIONS="+sessions)
		return cmd, func(killed bool) {
			if _, err := Run(context.Background(), Options{Workspace: ws, Sessions: []string{sessions}}); err != nil {
				t.Fatalf("the run after the kill: %v", err)
			}
			d, l := countMessages(t, ws, n)
			mu.Lock()
			dup, lost = dup+d, lost+l
			mu.Unlock()
			got := archived(t, ws)
			for name, w := range wantFiles {
				if g, ok := got[name]; !ok {
					t.Errorf("%s is missing", name)
				} else if g != w {
					t.Errorf("%s differs from the uninterrupted run's:\n%s", name, g)
				}
			}
			for name := range got {
				if _, ok := wantFiles[name]; !ok {
					t.Errorf("%s is left", name)
				}
			}
			if rep, err := Run(context.Background(), Options{Workspace: ws, Sessions: []string{sessions}}); err != nil || rep.Messages != 0 {
				t.Errorf("a third run archived %v messages (%v)", rep, err)
			}
		}
	})
	total := 0
	for _, c := range points {
		total += c
	}
	t.Logf("injection points: %d %v; %d messages duplicated, %d lost", total, points, dup, lost)
	if points["write"] == 0 || points["renameat"]+points["rename"]+points["renameat2"] == 0 {
		t.Errorf("the runs were killed at too few points: %v", points)
	}
}

// TestArchiveFaultHelper is the archive run the fault test kills; it runs
// only when that test starts it.
func TestArchiveFaultHelper(t *testing.T) {
	ws := os.Getenv("ARCHIVE_FAULT_WS")
	if ws == "" {
		t.Skip("run by TestArchive_KilledAtEveryWriteGivesEachMessageOnce")
	}
	// strace counts calls per thread: the run stays on one.
	runtime.LockOSThread()
	if _, err := Run(context.Background(), Options{Workspace: ws, Sessions: []string{os.Getenv("ARCHIVE_FAULT_SESSIONS")}}); err != nil {
		t.Fatal(err)
	}
}

// archived is every file under ws/archives but the state file (it names
// the workspace's own paths), by workspace path.
func archived(t *testing.T, ws string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(filepath.Join(ws, "archives"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(ws, p)
		if rel = filepath.ToSlash(rel); rel == StateFile {
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// countMessages counts how often each message of every topic's raw files
// appears, and returns how many were there more than once and how many
// of the n archived were missing, reporting them.
func countMessages(t *testing.T, ws string, n int) (dup, lost int) {
	t.Helper()
	seen := map[string]map[string]int{} // by topic folder, by text
	raws, _ := filepath.Glob(filepath.Join(ws, "archives", "*", "*", "raw", "topic-*", "*.md"))
	for _, p := range raws {
		topic := filepath.Dir(p)
		if seen[topic] == nil {
			seen[topic] = map[string]int{}
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m, ok := workspace.ParseRawMessage(sc.Text()); ok {
				seen[topic][m.Text]++
			}
		}
		f.Close()
	}
	distinct := 0
	for topic, texts := range seen {
		distinct += len(texts)
		for text, c := range texts {
			if c > 1 {
				dup++
				t.Errorf("%s: %q appears %d times", topic, text, c)
			}
		}
	}
	if lost = n - distinct; lost != 0 {
		t.Errorf("%d of the %d messages are archived", distinct, n)
	}
	return dup, lost
}
