package dream

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeLock puts a lock file in place, last written age ago (the
// heartbeat is the file's modification time).
func writeLock(t *testing.T, dir, content string, age time.Duration) {
	t.Helper()
	p := filepath.Join(dir, LockPath)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-age)
	if err := os.Chtimes(p, then, then); err != nil {
		t.Fatal(err)
	}
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.Pid()
}

func TestLock_ALiveHolderIsNeverBrokenHoweverOld(t *testing.T) {
	dir := t.TempDir()
	// Held (the kernel's lock is taken), its record says "48 hours ago"
	// and its heartbeat is as old: alive is alive.
	held, err := acquireLock(dir, time.Minute, "dreamwiki dream")
	if err != nil {
		t.Fatal(err)
	}
	old := held.info
	old.Started = time.Now().Add(-48 * time.Hour)
	writeLock(t, dir, mustJSON(old), 48*time.Hour)
	_, err = acquireLock(dir, time.Minute, "test")
	var le *LockedError
	if !errors.As(err, &le) || le.Owner.PID != os.Getpid() || le.State != "alive" {
		t.Fatalf("a live holder's lock: %v", err)
	}
	want := "another dream holds the lock .dreamwiki/dream.lock: pid "
	if !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), ", alive; wait for it to finish") {
		t.Errorf("message: %s", err)
	}

	// A dreamwiki that takes no kernel lock, alive on this host, holds it
	// by its record alone.
	held.release()
	writeLock(t, dir, mustJSON(old), 48*time.Hour)
	if _, err = acquireLock(dir, time.Minute, "test"); !errors.As(err, &le) || le.State != "alive" {
		t.Fatalf("a live holder's lock without the kernel's: %v", err)
	}
}

func TestLock_ADeadOrReplacedHolderIsReplacedAndReported(t *testing.T) {
	host, _ := os.Hostname()
	me := selfInfo("test")
	cases := map[string]struct {
		lock string
		why  string
	}{
		"pid gone": {
			lock: `{"pid": ` + itoa(deadPID(t)) + `, "host": "` + host + `", "started": "2026-04-05T06:59:00Z"}`,
			why:  "which is no longer running; it was replaced",
		},
		"pid given to another process since": {
			lock: mustJSON(LockInfo{PID: os.Getpid(), Host: host, Boot: me.Boot, Start: me.Start + 1, Started: time.Now()}),
			why:  "which is no longer running; it was replaced",
		},
		"another host, not refreshed for longer than the timeout": {
			lock: `{"pid": 1, "host": "elsewhere", "started": "2026-04-05T05:00:00Z"}`,
			why:  "held by pid 1 on elsewhere, started 2026-04-05 05:00:00 UTC was last refreshed 2h0m0s ago (timeout 30m0s); it was replaced",
		},
		"not JSON, not written for a while": {
			lock: "garbage",
			why:  "the lock .dreamwiki/dream.lock is not valid JSON; no process holds it, so it was replaced",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if name == "pid given to another process since" && me.Boot == "" {
				t.Skip("no process start times on this platform")
			}
			dir := t.TempDir()
			writeLock(t, dir, c.lock, 2*time.Hour)
			l, err := acquireLock(dir, 30*time.Minute, "test")
			if err != nil || l.Stale == nil || !strings.Contains(l.Stale.Reason, c.why) {
				t.Fatalf("got %v %+v, want a replaced lock: %s", err, l, c.why)
			}
			l.release()
			if _, err := os.Stat(filepath.Join(dir, LockPath)); err == nil {
				t.Error("release left the lock")
			}
		})
	}
}

func TestLock_HeldWhileSomeoneMayHoldIt(t *testing.T) {
	cases := map[string]struct {
		lock string
		want string
	}{
		"another host, refreshed recently": {
			lock: `{"pid": 1, "host": "elsewhere", "started": "2026-04-05T05:00:00Z"}`,
			want: "another dream holds the lock .dreamwiki/dream.lock: pid 1 on elsewhere, started 2026-04-05 05:00:00 UTC, last refreshed",
		},
		"not JSON, just written": {
			lock: `{"pid": 12`,
			want: "the lock .dreamwiki/dream.lock is not valid JSON and was written 0s ago, so a dream may be starting; try again in a minute or, if no dream is running, delete the file",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeLock(t, dir, c.lock, 0)
			_, err := acquireLock(dir, 30*time.Minute, "test")
			var le *LockedError
			if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got %v, want %s", err, c.want)
			}
		})
	}
}

func TestLock_AHolderNoticesATakeover(t *testing.T) {
	dir := t.TempDir()
	l, err := acquireLock(dir, time.Minute, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.check(); err != nil {
		t.Fatalf("own lock: %v", err)
	}
	other := selfInfo("dreamwiki dream")
	writeLock(t, dir, mustJSON(other), 0)
	var lost *LockLostError
	if err := l.check(); !errors.As(err, &lost) || lost.Owner == nil || lost.Owner.Token != other.Token {
		t.Fatalf("taken over: %v", err)
	}
	l.release()
	if _, err := os.Stat(filepath.Join(dir, LockPath)); err != nil {
		t.Error("release removed a lock that was no longer its own")
	}
	os.Remove(filepath.Join(dir, LockPath))
	if err := l.check(); !errors.As(err, &lost) || lost.Owner != nil || !strings.Contains(err.Error(), "was deleted while this dream was writing") {
		t.Fatalf("deleted: %v", err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestLock_TheKernelsLockDecides: a lock file held by the kernel's lock
// is held even before its record is written; once nothing holds it, an
// empty file (its holder died before writing a record) is simply taken.
func TestLock_TheKernelsLockDecides(t *testing.T) {
	dir := t.TempDir()
	writeLock(t, dir, "", 0)
	f, err := os.OpenFile(filepath.Join(dir, LockPath), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := lockFile(f); !ok || err != nil {
		t.Fatalf("lockFile: %v %v", ok, err)
	}
	g, _ := os.Open(filepath.Join(dir, LockPath))
	if ok, _ := lockFile(g); ok {
		t.Skip("this platform gives dreamwiki no kernel lock")
	}
	g.Close()
	_, err = acquireLock(dir, time.Minute, "test")
	var le *LockedError
	if !errors.As(err, &le) || err.Error() != "another dream holds the lock .dreamwiki/dream.lock and is starting; try again in a moment" {
		t.Fatalf("a kernel-held lock without a record: %v", err)
	}
	f.Close() // the holder dies
	l, err := acquireLock(dir, time.Minute, "test")
	if err != nil || l.Stale != nil {
		t.Fatalf("an empty lock nothing holds: %v %+v", err, l)
	}
	l.release()
}
