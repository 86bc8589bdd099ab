//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package output

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// lockFolder locks dir for as long as this process holds it: the kernel
// drops the lock when the process ends, however it ends. It waits for a
// build removing dir (lockDead), and gives fs.ErrNotExist when dir was
// removed before the lock was taken.
func lockFolder(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	held, err1 := f.Stat()
	now, err2 := os.Lstat(dir)
	if err := errors.Join(err1, err2); err != nil || !os.SameFile(held, now) {
		f.Close()
		return nil, fs.ErrNotExist
	}
	return func() { f.Close() }, nil
}

// lockDead takes dir's lock if no live build holds it; dead is then true,
// and dir may be removed before unlock.
func lockDead(dir string) (unlock func(), dead bool) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}
