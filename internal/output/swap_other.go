//go:build !linux && !darwin

package output

import "errors"

// exchange cannot swap two trees in one step on this platform: Swap moves
// the old one aside first.
func exchange(a, b string) error { return errors.ErrUnsupported }
