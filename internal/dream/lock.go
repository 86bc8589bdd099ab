package dream

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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
	// State is why the holder counts as present: "alive", "last refreshed
	// 12s ago", or what is wrong with an unreadable lock.
	State string
}

func (e *LockedError) Error() string {
	if e.Owner.PID == 0 {
		return fmt.Sprintf("the lock %s %s, so a dream may be starting; try again in a minute or, if no dream is running, delete the file", e.Path, e.State)
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
	info LockInfo
	// Stale is the lock this one replaced, when there was one.
	Stale *ReplacedLock

	stop chan struct{}
	done sync.WaitGroup
}

// acquireLock takes the workspace lock. A lock whose holder is alive is
// never broken, however old it is: a dream paused by a debugger or a
// sleeping laptop still holds it. A lock is replaced (and reported through
// lock.Stale) only when no process holds it: its holder on this host is no
// longer running (pid and start time), its holder elsewhere has not
// refreshed it for the timeout, or it is not valid JSON and nobody has
// written it for a while. Every age is measured on the wall clock, never
// on --now. A held lock is a *LockedError.
//
// The lock file is created whole or not at all (written to a temporary file
// and hard-linked into place, which fails when the lock exists), so another
// process never reads a half-written lock. While held, the lock's
// modification time is refreshed every heartbeatEvery.
func acquireLock(root string, timeout time.Duration, command string) (*lock, error) {
	p := filepath.Join(root, filepath.FromSlash(LockPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("the lock %s cannot be created (%v)", LockPath, err)
	}
	me := selfInfo(command)
	data, _ := json.MarshalIndent(me, "", "  ")
	data = append(data, '\n')

	var stale *ReplacedLock
	for attempt := 0; attempt < 5; attempt++ {
		err := createExclusive(p, data)
		if err == nil {
			l := &lock{path: p, info: me, Stale: stale, stop: make(chan struct{})}
			l.done.Add(1)
			go l.beat()
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("the lock %s cannot be created (%v)", LockPath, err)
		}
		held, raw, rerr := readLock(p)
		if errors.Is(rerr, fs.ErrNotExist) {
			continue // released meanwhile
		}
		replaced, lerr := judgeLock(p, held, rerr, timeout, me)
		if lerr != nil {
			return nil, lerr
		}
		// Move the stale lock aside, then check it is the one judged stale:
		// two processes breaking the same stale lock must not break each
		// other's fresh one.
		aside := fmt.Sprintf("%s.stale.%d", p, os.Getpid())
		if err := os.Rename(p, aside); err != nil {
			continue
		}
		moved, _ := os.ReadFile(aside)
		if string(moved) != string(raw) {
			os.Link(aside, p) // a fresh lock: put it back (fails if replaced again)
			os.Remove(aside)
			continue
		}
		os.Remove(aside)
		stale = replaced
	}
	return nil, fmt.Errorf("the lock %s keeps changing; another dream is starting", LockPath)
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

// judgeLock decides about a lock held by someone else: a *LockedError
// while a process may hold it, else what replacing it means.
func judgeLock(p string, held LockInfo, readErr error, timeout time.Duration, me LockInfo) (*ReplacedLock, error) {
	age := time.Duration(0)
	if fi, err := os.Stat(p); err == nil {
		age = time.Since(fi.ModTime())
	}
	if readErr != nil || held.PID <= 0 {
		// Never written by a holder of this version (they link whole files);
		// an older version, or a file system without hard links, may still
		// be writing it.
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
	var li LockInfo
	if err := json.Unmarshal(raw, &li); err != nil {
		return LockInfo{}, raw, err
	}
	return li, raw, nil
}

// createExclusive creates p holding data, failing with fs.ErrExist when p
// exists.
func createExclusive(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), ".lock.*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp, p); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fs.ErrExist
		}
		// File systems without hard links: fall back to O_EXCL.
		g, err2 := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err2 != nil {
			return err2
		}
		_, err2 = g.Write(data)
		if cerr := g.Close(); err2 == nil {
			err2 = cerr
		}
		return err2
	}
	return nil
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
	if l.check() == nil {
		os.Remove(l.path)
	}
}
