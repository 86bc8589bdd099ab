//go:build !linux

package dream

import "errors"

// exchange cannot swap two files in one step on this platform.
func exchange(a, b string) (done bool, err error) { return false, errors.ErrUnsupported }

// renameNoReplace is not offered on this platform.
func renameNoReplace(a, b string) (done bool, err error) { return false, errors.ErrUnsupported }
