//go:build unix && !aix

package dream

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// removeWhileOpen: a held lock file is removed before it is closed.
const removeWhileOpen = true

// lockFile takes the kernel's advisory lock on f without waiting; false
// when another open file holds it. The lock goes with the last descriptor
// of the open file: on release, or when the holder exits or dies.
func lockFile(f *os.File) (bool, error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EWOULDBLOCK):
			return false, nil
		case !errors.Is(err, unix.EINTR):
			return false, err
		}
	}
}

// processAlive reports whether a process with the pid exists on this host.
func processAlive(pid int) (alive, known bool) {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM), true
}
