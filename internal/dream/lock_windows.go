package dream

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// removeWhileOpen: Windows removes no file another handle has open, so a
// held lock file is closed first.
const removeWhileOpen = false

// lockFile takes the system's lock on f without waiting; false when
// another handle holds it. Windows locks byte ranges and refuses reads of
// a locked one, so the lock is on a byte far past the record, which any
// process can still read. It goes when the handle is closed or its
// process ends.
func lockFile(f *os.File) (bool, error) {
	ol := windows.Overlapped{OffsetHigh: 1 << 30}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return false, nil
	}
	return false, err
}

// processAlive cannot tell on this platform: the lock's heartbeat decides
// (only for holders without the system's lock).
func processAlive(pid int) (alive, known bool) { return false, false }
