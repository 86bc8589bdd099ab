package dream

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const crashNow = "2026-11-21T08:00:00Z"

func TestDream_TwoDreamsAtOnce_OneRunsTheOtherReportsTheLock(t *testing.T) {
	dir := demoCopy(t)
	before := snapshot(t, dir)
	inA, release := make(chan struct{}), make(chan struct{})
	var resA *Result
	var errA error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// A holds the lock in the middle of writing until B has tried.
		opts := Options{Now: at(crashNow), Force: true, hook: func(step string) {
			if step == "stage" {
				close(inA)
				<-release
			}
		}}
		resA, errA = Run(context.Background(), dir, opts, false, nil)
	}()
	<-inA
	resB, errB := Run(context.Background(), dir, Options{Now: at(crashNow), Force: true}, false, nil)
	close(release)
	wg.Wait()
	var le *LockedError
	if !errors.As(errB, &le) || le.Owner.PID != os.Getpid() || !strings.Contains(errB.Error(), "another dream holds the lock .dreamwiki/dream.lock") {
		t.Fatalf("second dream: %v %+v", errB, resB)
	}
	if errA != nil || !resA.Applied {
		t.Fatalf("first dream: %v", errA)
	}
	if after := snapshot(t, dir); mapsEqual(before, after) {
		t.Error("the first dream wrote nothing")
	}

	// Many at once, no hooks: every one either runs or reports the lock,
	// and the lock is gone at the end.
	dir = demoCopy(t)
	var mu sync.Mutex
	ran, locked := 0, 0
	var all sync.WaitGroup
	for i := 0; i < 6; i++ {
		all.Add(1)
		go func() {
			defer all.Done()
			res, err := Run(context.Background(), dir, Options{Now: at(crashNow), Force: true}, false, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && res.Applied:
				ran++
			case errors.As(err, &le):
				locked++
			default:
				t.Errorf("dream: %v", err)
			}
		}()
	}
	all.Wait()
	if ran < 1 || ran+locked != 6 {
		t.Errorf("ran %d, locked out %d", ran, locked)
	}
	if _, err := os.Stat(filepath.Join(dir, LockPath)); err == nil {
		t.Error("lock left behind")
	}
}

// TestCrashHelper is run in a child process by the crash test: it dreams
// and dies (os.Exit, so no deferred cleanup runs, as in a real crash) at
// the step named by DREAM_CRASH_AT.
func TestCrashHelper(t *testing.T) {
	dir, step := os.Getenv("DREAM_CRASH_DIR"), os.Getenv("DREAM_CRASH_AT")
	if dir == "" {
		t.Skip("run by TestDream_CrashMidRunLeavesTheWorkspaceAsBeforePlusBackups")
	}
	opts := Options{Now: at(crashNow), Force: true, Choose: chooseAll(t, dir, crashNow), hook: func(s string) {
		if s == step {
			os.Exit(3)
		}
	}}
	if _, err := Run(context.Background(), dir, opts, false, nil); err != nil {
		t.Fatal(err)
	}
	os.Exit(4) // the step never came
}

func TestDream_CrashMidRunLeavesTheWorkspaceAsBeforePlusBackups(t *testing.T) {
	probe := demoCopy(t)
	pl := forcedPlan(t, probe, crashNow)
	n := len(pl.Files)
	if n < 3 {
		t.Fatalf("plan writes %d files", n)
	}
	steps := []string{"backup", "stage", "journal", "rename:" + pl.Files[0].Path, "rename:" + pl.Files[n/2].Path, "rename:" + pl.Files[n-2].Path}
	for _, step := range steps {
		t.Run(step, func(t *testing.T) {
			dir := demoCopy(t)
			before := snapshot(t, dir)
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), "DREAM_CRASH_DIR="+dir, "DREAM_CRASH_AT="+step)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Fatalf("child did not crash at %s: %v\n%s", step, err, out)
			}
			if _, err := os.Stat(filepath.Join(dir, LockPath)); err != nil {
				t.Fatal("the crashed dream left no lock (a real crash would)")
			}
			// Before the first rename the workspace is untouched (staging and
			// the journal live in .dreamwiki/); from the journal on, the journal
			// says what to put back.
			renamed := strings.HasPrefix(step, "rename:")
			if Pending(dir) != (renamed || step == "journal") {
				t.Fatalf("journal pending = %v after a crash at %s", Pending(dir), step)
			}
			if !renamed && !mapsEqual(before, snapshot(t, dir)) {
				t.Fatalf("a crash at %s changed the workspace", step)
			}
			// Backups are complete before anything else is written.
			for _, f := range pl.Files {
				if f.Change != "modify" {
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, ".backup/memory-dreams/20261121-0800", f.Path+".bak"))
				if err != nil || string(b) != before[f.Path] {
					t.Errorf("no faithful backup of %s after a crash at %s: %v", f.Path, step, err)
				}
			}
			// Recovery puts the workspace back exactly.
			rec, err := Recover(dir)
			if err != nil {
				t.Fatal(err)
			}
			if renamed && (rec == nil || len(rec.Restored) == 0) {
				t.Errorf("recovery restored nothing: %+v", rec)
			}
			if after := snapshot(t, dir); !mapsEqual(before, after) {
				for p := range before {
					if after[p] != before[p] {
						t.Errorf("%s differs after recovery", p)
					}
				}
				for p := range after {
					if _, ok := before[p]; !ok {
						t.Errorf("%s left behind after recovery", p)
					}
				}
			}
			// The next dream replaces the dead process's lock and runs.
			res, err := Run(context.Background(), dir, Options{Now: at(crashNow), Force: true}, false, nil)
			if err != nil || !res.Applied || res.StaleLock == nil || res.StaleLock.Owner == nil || res.StaleLock.Owner.PID == os.Getpid() {
				t.Fatalf("dream after the crash: %v %+v", err, res)
			}
		})
	}

	// A crash during the renames is also recovered by the next dream itself.
	dir := demoCopy(t)
	before := snapshot(t, dir)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "DREAM_CRASH_DIR="+dir, "DREAM_CRASH_AT="+"rename:"+pl.Files[1].Path)
	cmd.Run()
	if _, err := NewPlan(context.Background(), dir, Options{Now: at(crashNow), Force: true}); !errors.Is(err, ErrRecoveryNeeded) {
		t.Errorf("a dry run over an interrupted dream: %v", err)
	}
	res, err := Run(context.Background(), dir, Options{Now: at(crashNow), Force: true}, false, nil)
	if err != nil || res.Recovered == nil || len(res.Recovered.Restored) == 0 || !res.Applied {
		t.Fatalf("dream over an interrupted one: %v %+v", err, res)
	}
	for _, d := range load(t, dir).Daily {
		if snapshot(t, dir)[d.File.Path] != before[d.File.Path] {
			t.Errorf("%s changed", d.File.Path)
		}
	}
}
