package dream

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLock_AHolderInAnotherPIDNamespaceKeepsItsLock is finding 9 of issue
// #22: a dream running in another pid namespace (a container beside the
// host: same host name, same boot id) holds the lock. Its pid means
// nothing here (another process has it, or none does), yet a dream on the
// host is refused, breaks nothing, and the holder finishes its dream.
func TestLock_AHolderInAnotherPIDNamespaceKeepsItsLock(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare is not installed (util-linux)")
	}
	if out, err := exec.Command(unshare, "--pid", "--fork", "--mount-proc", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare --pid --fork --mount-proc is not permitted here (%v: %s); run as root to test a holder in another pid namespace", err, strings.TrimSpace(string(out)))
	}
	dir := demoCopy(t)
	pl := forcedPlan(t, dir, crashNow)
	before := snapshot(t, dir)

	// The holder, in a pid namespace of its own, under a shell so that it
	// is not the namespace's init: it waits after staging its writes.
	holding, goOn := filepath.Join(t.TempDir(), "holding"), filepath.Join(t.TempDir(), "go on")
	helper := helperCmd(dir, crashNow, "DREAM_FAULT_STOP_AT=stage", "DREAM_FAULT_STOPPED="+holding, "DREAM_FAULT_HOLD_UNTIL="+goOn)
	holder := exec.Command(unshare, append([]string{"--pid", "--fork", "--mount-proc", "sh", "-c", `"$@"; exit $?`, "sh"}, helper.Args...)...)
	holder.Env = helper.Env
	stderr := &strings.Builder{}
	holder.Stderr = stderr
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.WriteFile(goOn, nil, 0o644)
		holder.Process.Kill()
		holder.Wait()
	})
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(holding); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the holder never reached its writes: %s", stderr)
		}
	}
	held, _, err := readLock(filepath.Join(dir, LockPath))
	if err != nil || held.Boot == "" {
		t.Fatalf("the holder's lock: %+v %v", held, err)
	}
	if b, err := os.ReadFile("/proc/" + itoa(held.PID) + "/cmdline"); err == nil && strings.Contains(string(b), "TestFaultHelper") {
		t.Fatalf("pid %d is the holder here too: the holder is not in a namespace of its own", held.PID)
	}

	_, err = Run(context.Background(), dir, Options{Now: at(crashNow), Force: true, Choose: chooseAll(t, dir, crashNow)}, false, nil)
	var le *LockedError
	if !errors.As(err, &le) || le.Owner.Token != held.Token || le.State != "alive" ||
		!strings.Contains(err.Error(), "another dream holds the lock .dreamwiki/dream.lock: pid "+itoa(held.PID)) {
		t.Fatalf("a dream on the host while the holder runs in its namespace: %v", err)
	}
	if now, _, _ := readLock(filepath.Join(dir, LockPath)); now.Token != held.Token {
		t.Fatalf("the lock was broken: it is now %s", now)
	}
	if !mapsEqual(before, snapshot(t, dir)) {
		t.Fatal("the refused dream changed the workspace")
	}

	os.WriteFile(goOn, nil, 0o644)
	if err := holder.Wait(); err != nil {
		t.Fatalf("the holder's dream: %v: %s", err, stderr)
	}
	after := snapshot(t, dir)
	for _, f := range pl.Files {
		if after[f.Path] != string(f.Content()) {
			t.Errorf("%s does not hold the holder's dream", f.Path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, LockPath)); err == nil || Pending(dir) {
		t.Error("lock or journal left behind")
	}
}
