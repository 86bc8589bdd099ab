//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package output

import (
	"os"
	"time"
)

// deadAfter is how old a build's temporary folder must be to be taken as
// left by a stopped build, where no lock can tell.
const deadAfter = 24 * time.Hour

// lockFolder cannot lock a folder on this platform: lockDead goes by age.
func lockFolder(dir string) (unlock func(), err error) { return func() {}, nil }

// lockDead reports a folder last changed over deadAfter ago as dead.
func lockDead(dir string) (unlock func(), dead bool) {
	fi, err := os.Stat(dir)
	if err != nil || time.Since(fi.ModTime()) < deadAfter {
		return nil, false
	}
	return func() {}, true
}
