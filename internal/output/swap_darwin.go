package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the trees at a and b in one rename (RENAME_SWAP).
// A file system that cannot gives errors.ErrUnsupported.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errors.ErrUnsupported
	}
	return err
}
