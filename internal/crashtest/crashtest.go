// Package crashtest kills a command at a chosen system call, for tests of
// what a crash leaves behind: the command runs under strace, which sends
// it SIGKILL on entry to its Nth call of one kind (write, rename, ...).
// Only tests import it, and only on Linux, where strace runs.
//
// strace counts calls per thread. A helper process whose work runs in
// one goroutine should call runtime.LockOSThread first, so that "the Nth
// rename" is the Nth rename of that work and not of whichever thread the
// goroutine last ran on.
package crashtest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Strace is the path of strace; the test is skipped when it is missing.
func Strace(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (scripts/test.sh installs it)")
	}
	return p
}

var reTraceLine = regexp.MustCompile(`^(\d+) +([a-z0-9_]+)\(`)

// Trace runs cmd under strace once, untouched, and counts its calls of
// each of syscalls, by thread id.
func Trace(t testing.TB, strace string, cmd *exec.Cmd, syscalls []string) map[string]map[string]int {
	t.Helper()
	trace := t.TempDir() + "/trace"
	args := append([]string{"-f", "-qq", "-o", trace, "-e", "trace=" + strings.Join(syscalls, ",")}, cmd.Args...)
	probe := exec.Command(strace, args...)
	probe.Env, probe.Dir = cmd.Env, cmd.Dir
	if out, err := probe.CombinedOutput(); err != nil {
		t.Fatalf("the probe run: %v\n%s", err, out)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	byThread := map[string]map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := reTraceLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if byThread[m[1]] == nil {
			byThread[m[1]] = map[string]int{}
		}
		byThread[m[1]][m[2]]++
	}
	return byThread
}

// KillAt runs cmd under strace, killed at its nth call of sc (counted
// per thread), and reports whether it was killed. A run that ends on its
// own is not killed; one that fails otherwise fails the test.
func KillAt(t testing.TB, strace string, cmd *exec.Cmd, sc string, n int) (killed bool) {
	t.Helper()
	args := append([]string{"-f", "-qq", "-o", "/dev/null", "-e", "trace=" + sc,
		"-e", fmt.Sprintf("inject=%s:signal=SIGKILL:when=%d", sc, n)}, cmd.Args...)
	run := exec.Command(strace, args...)
	run.Env, run.Dir = cmd.Env, cmd.Dir
	out, err := run.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return false
	case errors.As(err, &ee) && (ee.ExitCode() == 128+9 || ee.ExitCode() == -1):
		return true
	}
	t.Fatalf("the run to be killed at its %s #%d failed on its own: %v\n%s", sc, n, err, out)
	return false
}

// Point is where a run is killed: its Nth call of Syscall.
type Point struct {
	Syscall string
	N       int
}

func (p Point) String() string { return fmt.Sprintf("%s#%d", p.Syscall, p.N) }

// EveryPoint kills a run at every call of each of syscalls, one point per
// run: for each system call (in parallel) and n = 1, 2, ..., start
// prepares a fresh run and returns its command and a check of what it
// left, which is told whether the run was killed. A system call's points
// end at the first n the run completes without being killed (a point
// whose check fails does not end them). EveryPoint
// returns how many points each system call had.
func EveryPoint(t *testing.T, syscalls []string, start func(t *testing.T, p Point) (*exec.Cmd, func(killed bool))) map[string]int {
	t.Helper()
	strace := Strace(t)
	var mu sync.Mutex
	points := map[string]int{}
	t.Run("kill", func(t *testing.T) {
		for _, sc := range syscalls {
			t.Run(sc, func(t *testing.T) {
				t.Parallel()
				for n := 1; ; n++ {
					p := Point{sc, n}
					killed := false
					t.Run(p.String(), func(t *testing.T) {
						cmd, check := start(t, p)
						killed = KillAt(t, strace, cmd, sc, n)
						check(killed)
					})
					if !killed {
						return
					}
					mu.Lock()
					points[sc]++
					mu.Unlock()
				}
			})
		}
	})
	return points
}
