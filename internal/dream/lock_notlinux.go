//go:build !linux

package dream

// processIdentity cannot read start times on this platform: ok is false
// and the lock falls back to processAlive and its heartbeat.
func processIdentity(pid int) (boot string, start uint64, ok bool) { return "", 0, false }
