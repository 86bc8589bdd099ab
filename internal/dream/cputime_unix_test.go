//go:build unix

package dream

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) the process has used: benchmark
// figures in CPU time hold up on a shared machine, where wall time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
