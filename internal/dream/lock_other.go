//go:build !unix

package dream

// processAlive cannot tell on this platform: the lock's heartbeat decides.
func processAlive(pid int) (alive, known bool) { return false, false }
