//go:build unix

package dream

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the pid exists on this host.
func processAlive(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM), true
}
