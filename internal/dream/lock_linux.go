package dream

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// processIdentity reads a process's start time (clock ticks since boot,
// field 22 of /proc/PID/stat) and the kernel's boot id. ok is false when
// no such process runs (a zombie has finished running).
func processIdentity(pid int) (boot string, start uint64, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses itself: the fields that follow start after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return "", 0, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 20 || fields[0] == "Z" || fields[0] == "X" {
		return "", 0, false
	}
	start, err = strconv.ParseUint(fields[19], 10, 64)
	if err != nil {
		return "", 0, false
	}
	if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
		boot = strings.TrimSpace(string(b))
	}
	return boot, start, true
}
