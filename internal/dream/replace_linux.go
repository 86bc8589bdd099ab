package dream

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the files at a and b in one step. done is false when
// nothing was swapped.
func exchange(a, b string) (done bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if err != nil {
		return false, &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return true, nil
}

// renameNoReplace renames a to b unless b exists (os.ErrExist).
func renameNoReplace(a, b string) (done bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EEXIST):
		return false, os.ErrExist
	}
	return false, &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
}
