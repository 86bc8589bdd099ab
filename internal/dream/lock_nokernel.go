//go:build (!unix && !windows) || aix

package dream

import (
	"os"
)

// removeWhileOpen: a held lock file is removed before it is closed.
const removeWhileOpen = true

// lockFile: this platform gives no advisory lock dreamwiki uses, so the
// file's record alone says who holds it (its holder's heartbeat), and two
// dreams starting at the same instant are not kept apart.
func lockFile(f *os.File) (bool, error) { return true, nil }

// processAlive cannot tell on this platform: the lock's heartbeat decides.
func processAlive(pid int) (alive, known bool) { return false, false }
