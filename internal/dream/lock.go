package dream

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// LockPath is the dream lock, in the cache folder nothing reads.
const LockPath = cacheDir + "/dream.lock"

// LockInfo is what the lock file holds: who holds it and since when.
type LockInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
	Command string    `json:"command,omitempty"`
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
	Owner LockInfo
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("another dream holds the lock %s (%s); try again when it has finished", e.Path, e.Owner)
}

// lock is a held workspace lock.
type lock struct {
	path string
	info LockInfo
	// Stale is the lock this one replaced, when there was one.
	Stale *LockInfo
}

// acquireLock takes the workspace lock. A lock older than timeout, or held
// by a process of this host that no longer exists, is stale: it is
// replaced, and reported through lock.Stale. Otherwise a held lock is a
// *LockedError.
//
// The lock file is created whole or not at all (written to a temporary file
// and hard-linked into place, which fails when the lock exists), so another
// process never reads a half-written lock.
func acquireLock(root string, now time.Time, timeout time.Duration, command string) (*lock, error) {
	p := filepath.Join(root, filepath.FromSlash(LockPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("the lock %s cannot be created (%v)", LockPath, err)
	}
	host, _ := os.Hostname()
	me := LockInfo{PID: os.Getpid(), Host: host, Started: now.UTC(), Command: command}
	data, _ := json.MarshalIndent(me, "", "  ")
	data = append(data, '\n')

	var stale *LockInfo
	for attempt := 0; attempt < 5; attempt++ {
		err := createExclusive(p, data)
		if err == nil {
			return &lock{path: p, info: me, Stale: stale}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("the lock %s cannot be created (%v)", LockPath, err)
		}
		held, raw, rerr := readLock(p)
		if errors.Is(rerr, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if !isStale(held, rerr, p, now, timeout, host) {
			return nil, &LockedError{Path: LockPath, Owner: held}
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
		h := held
		stale = &h
	}
	return nil, fmt.Errorf("the lock %s keeps changing; another dream is starting", LockPath)
}

// isStale decides whether a lock may be broken.
func isStale(held LockInfo, readErr error, p string, now time.Time, timeout time.Duration, host string) bool {
	if readErr != nil || held.Started.IsZero() {
		// Unreadable: judge by the file's age, in case it is being written
		// by an older version that does not link.
		fi, err := os.Stat(p)
		return err == nil && now.Sub(fi.ModTime()) > timeout
	}
	if now.Sub(held.Started) > timeout {
		return true
	}
	return held.Host == host && held.PID > 0 && held.PID != os.Getpid() && !processAlive(held.PID)
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

// release removes the lock if it is still ours.
func (l *lock) release() {
	if l == nil {
		return
	}
	held, _, err := readLock(l.path)
	if err == nil && held.PID == l.info.PID && held.Started.Equal(l.info.Started) && held.Host == l.info.Host {
		os.Remove(l.path)
	}
}
