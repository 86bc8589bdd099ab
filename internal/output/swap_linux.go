package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the trees at a and b in one rename (RENAME_EXCHANGE).
// A file system that cannot gives errors.ErrUnsupported.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errors.ErrUnsupported
	}
	return err
}
