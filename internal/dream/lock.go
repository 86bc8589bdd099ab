package dream

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// LockPath is the dream lock, in the cache folder nothing reads.
const LockPath = cacheDir + "/dream.lock"

// heartbeatEvery is how often a holder touches its lock file. The
// file's modification time is the heartbeat: it tells a lock whose holder
// cannot be seen (another host, a platform without process start times)
// from an abandoned one, and a lock file being written from a corrupt one.
const heartbeatEvery = 10 * time.Second

// LockInfo is what the lock file holds: who holds it and since when.
type LockInfo struct {
	PID  int    `json:"pid"`
	Host string `json:"host"`
	// Boot and Start tell the holder from a later process that was given
	// the same pid: the kernel's boot id and the process's start time in
	// clock ticks since boot (from /proc on Linux; empty elsewhere).
	Boot  string `json:"boot,omitempty"`
	Start uint64 `json:"start,omitempty"`
	// Started is the wall-clock time the lock was taken (never --now).
	Started time.Time `json:"started"`
	Command string    `json:"command,omitempty"`
	// Token is random: it tells this holder's lock from any later one, so
	// a holder notices when its lock was taken over.
	Token string `json:"token,omitempty"`
}

func (l LockInfo) String() string {
	s := fmt.Sprintf("pid %d", l.PID)
	if l.Host != "" {
		s += " on " + l.Host
	}
	if !l.Started.IsZero() {
		s += ", started " + l.Started.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	if l.Command != "" {
		s += " (" + l.Command + ")"
	}
	return s
}

// LockedError says another dream (or recall, supersede, decay) holds the
// workspace.
type LockedError struct {
	Path  string
	Owner LockInfo // zero when the lock file cannot be read
	// State is why the holder counts as present: "alive", "starting" (it
	// holds the kernel's lock and is writing its record), "last refreshed
	// 12s ago", or what is wrong with an unreadable lock.
	State string
}

// stateStarting is the State of a kernel-held lock whose record is not
// written yet.
const stateStarting = "starting"

func (e *LockedError) Error() string {
	if e.State == stateStarting {
		return fmt.Sprintf("another dream holds the lock %s and is starting; try again in a moment", e.Path)
	}
	if e.Owner.PID == 0 {
		return fmt.Sprintf("the lock %s %s, so a dream may be starting; try again in a minute or, if no dream is running, delete the file", e.Path, e.State)
	}
	if e.State == "alive" {
		return fmt.Sprintf("another dream holds the lock %s: %s, alive; wait for it to finish", e.Path, e.Owner)
	}
	return fmt.Sprintf("another dream holds the lock %s: %s, %s; wait for it to finish or, if you are sure no dream is running, delete the file", e.Path, e.Owner, e.State)
}

// LockLostError says that a dream's lock was taken over (or deleted) while
// it was writing. The dream stops where it is and undoes nothing: whoever
// holds the lock now owns the workspace, and the journal the dream leaves
// tells the next one what to put back.
type LockLostError struct {
	Path string
	// Owner is the new holder; nil when the lock file is gone or unreadable.
	Owner *LockInfo
}

func (e *LockLostError) Error() string {
	what := "was deleted"
	if e.Owner != nil {
		what = "was taken over by " + e.Owner.String()
	}
	return fmt.Sprintf("the lock %s %s while this dream was writing; it stopped and left every file as it is (the next dream puts back what it had started)", e.Path, what)
}

// ReplacedLock is a lock a dream replaced because no process held it.
type ReplacedLock struct {
	// Owner is the dead holder; nil when the lock file was not valid JSON.
	Owner *LockInfo `json:"owner,omitempty"`
	// Reason is a sentence for the user, naming the lock file.
	Reason string `json:"reason"`
}

// lock is a held workspace lock.
type lock struct {
	path string
	// file is the open lock file: the operating system's lock on it is
	// what holds the workspace, and goes when the process does.
	file *os.File
	info LockInfo
	// Stale is the lock this one replaced, when there was one.
	Stale *ReplacedLock

	stop chan struct{}
	done sync.WaitGroup
}

// acquireLock takes the workspace lock. The lock is the operating
// system's: an advisory lock (flock) on the lock file, held for as long as
// the file stays open, which the kernel drops when its holder exits or
// dies. A held kernel lock is never broken, however old it is: its holder
// is running, even in another pid namespace (a container beside the host)
// where its pid means nothing here, or stopped by a debugger or a sleeping
// laptop. The file's record (pid, host, start time) only says who holds it.
//
// A lock file whose kernel lock is free is replaced (and reported through
// lock.Stale) when its record names no one who may hold it without the
// kernel's lock: a holder on another host (whose file system may not pass
// kernel locks on) until it has not refreshed the file for the timeout,
// a dreamwiki without kernel locks on this host while it runs, and an
// unreadable record for 3 heartbeats. Every age is measured on the wall
// clock, never on --now. A held lock is a *LockedError.
//
// While held, the lock's modification time is refreshed every
// heartbeatEvery, for holders on other hosts to see.
func acquireLock(root string, timeout time.Duration, command string) (*lock, error) {
	p := filepath.Join(root, filepath.FromSlash(LockPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("the lock %s cannot be created (%v)", LockPath, err)
	}
	me := selfInfo(command)
	for attempt := 0; attempt < 5; attempt++ {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("the lock %s cannot be created (%v)", LockPath, err)
		}
		l, err := takeLock(f, p, me, timeout)
		if err != nil {
			f.Close()
			return nil, err
		}
		if l != nil {
			l.done.Add(1)
			go l.beat()
			return l, nil
		}
		f.Close() // released and removed meanwhile: open the new one
	}
	return nil, fmt.Errorf("the lock %s keeps changing; another dream is starting", LockPath)
}

// takeLock takes the kernel's lock on f, the lock file opened at p, and
// writes this process's record into it. It returns nil, nil when f is no
// longer the file at p (its holder removed it on release).
func takeLock(f *os.File, p string, me LockInfo, timeout time.Duration) (*lock, error) {
	free, err := lockFile(f)
	if err != nil {
		return nil, fmt.Errorf("the lock %s cannot be taken (%v)", LockPath, err)
	}
	if !free {
		held, _, rerr := readLock(p)
		if rerr != nil || held.PID <= 0 {
			return nil, &LockedError{Path: LockPath, State: stateStarting}
		}
		return nil, &LockedError{Path: LockPath, Owner: held, State: "alive"}
	}
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if at, err := os.Stat(p); err != nil || !os.SameFile(fi, at) {
		return nil, nil
	}
	raw, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("the lock %s cannot be read (%v)", LockPath, err)
	}
	// The record of whoever held the file last. An empty file is new, or
	// its holder died before writing its record (holders that take no
	// kernel lock write whole files).
	var stale *ReplacedLock
	if len(raw) > 0 {
		held, rerr := parseLock(raw)
		if stale, err = judgeLock(p, held, rerr, timeout, me); err != nil {
			return nil, err
		}
	}
	data, _ := json.MarshalIndent(me, "", "  ")
	data = append(data, '\n')
	if err := f.Truncate(0); err != nil {
		return nil, fmt.Errorf("the lock %s cannot be written (%v)", LockPath, err)
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return nil, fmt.Errorf("the lock %s cannot be written (%v)", LockPath, err)
	}
	f.Sync()
	return &lock{path: p, file: f, info: me, Stale: stale, stop: make(chan struct{})}, nil
}

// selfInfo is the lock this process writes.
func selfInfo(command string) LockInfo {
	host, _ := os.Hostname()
	me := LockInfo{PID: os.Getpid(), Host: host, Started: time.Now().UTC().Truncate(time.Second), Command: command}
	me.Boot, me.Start, _ = processIdentity(me.PID)
	var tok [8]byte
	rand.Read(tok[:])
	me.Token = hex.EncodeToString(tok[:])
	return me
}

// judgeLock decides about the record in a lock file whose kernel lock is
// free: a *LockedError while a holder without one may still be there,
// else what replacing it means.
func judgeLock(p string, held LockInfo, readErr error, timeout time.Duration, me LockInfo) (*ReplacedLock, error) {
	age := time.Duration(0)
	if fi, err := os.Stat(p); err == nil {
		age = time.Since(fi.ModTime())
	}
	if readErr != nil || held.PID <= 0 {
		// Not what a holder of this version leaves once its kernel lock is
		// gone (a whole record, or nothing); an older version without the
		// kernel's lock, or a holder on another host, may still be writing
		// it.
		what := "is not valid JSON"
		if readErr == nil {
			what = "names no process"
		}
		if age < 3*heartbeatEvery {
			return nil, &LockedError{Path: LockPath, State: fmt.Sprintf("%s and was written %s ago", what, age.Round(time.Second))}
		}
		return &ReplacedLock{Reason: fmt.Sprintf("the lock %s %s; no process holds it, so it was replaced", LockPath, what)}, nil
	}
	switch holderState(held, me) {
	case holderAlive:
		return nil, &LockedError{Path: LockPath, Owner: held, State: "alive"}
	case holderGone:
		return &ReplacedLock{Owner: &held, Reason: fmt.Sprintf("the lock %s was held by %s, which is no longer running; it was replaced", LockPath, held)}, nil
	}
	// Nothing to ask about the holder: its heartbeat decides.
	if age <= timeout {
		return nil, &LockedError{Path: LockPath, Owner: held, State: fmt.Sprintf("last refreshed %s ago", age.Round(time.Second))}
	}
	return &ReplacedLock{Owner: &held, Reason: fmt.Sprintf("the lock %s held by %s was last refreshed %s ago (timeout %s); it was replaced", LockPath, held, age.Round(time.Minute), timeout)}, nil
}

type holder int

const (
	holderUnknown holder = iota // another host, or a platform that cannot tell
	holderAlive
	holderGone
)

// holderState asks the operating system about a lock's holder.
func holderState(held, me LockInfo) holder {
	if held.Host != me.Host {
		return holderUnknown
	}
	if held.Boot != "" && me.Boot != "" {
		if held.Boot != me.Boot {
			return holderGone // the machine restarted since
		}
		_, start, ok := processIdentity(held.PID)
		switch {
		case !ok:
			return holderGone
		case held.Start != 0 && start != held.Start:
			return holderGone // the pid now belongs to another process
		}
		return holderAlive
	}
	alive, known := processAlive(held.PID)
	switch {
	case !known:
		return holderUnknown
	case alive:
		return holderAlive
	}
	return holderGone
}

func readLock(p string) (LockInfo, []byte, error) {
	raw, err := os.ReadFile(p)
	if err != nil {
		return LockInfo{}, nil, err
	}
	li, err := parseLock(raw)
	return li, raw, err
}

func parseLock(raw []byte) (LockInfo, error) {
	var li LockInfo
	if err := json.Unmarshal(raw, &li); err != nil {
		return LockInfo{}, err
	}
	return li, nil
}

// check returns a *LockLostError when the lock file is no longer this
// holder's. A nil lock (a transaction run without one, in tests) is
// always held.
func (l *lock) check() error {
	if l == nil {
		return nil
	}
	held, _, err := readLock(l.path)
	if err == nil && held.Token == l.info.Token && held.PID == l.info.PID {
		return nil
	}
	lost := &LockLostError{Path: LockPath}
	if err == nil {
		lost.Owner = &held
	}
	return lost
}

// beat refreshes the lock's heartbeat until release, and only while the
// lock is still this holder's.
func (l *lock) beat() {
	defer l.done.Done()
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			if l.check() == nil {
				now := time.Now()
				os.Chtimes(l.path, now, now)
			}
		}
	}
}

// release stops the heartbeat and removes the lock if it is still ours.
func (l *lock) release() {
	if l == nil {
		return
	}
	close(l.stop)
	l.done.Wait()
	// Removed while still locked, so no one takes a lock on a file about to
	// go (one that opened it before still finds it gone, and tries again);
	// where open files cannot be removed, right after closing.
	ours := l.check() == nil
	if ours && removeWhileOpen {
		os.Remove(l.path)
	}
	l.file.Close()
	if ours && !removeWhileOpen {
		os.Remove(l.path)
	}
}
