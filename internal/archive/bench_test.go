package archive

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// writeSessions writes an OpenClaw sessions folder of groups × topics
// sessions with perTopic messages each, step apart, pad bytes of text per
// message, and returns the message count.
func writeSessions(tb testing.TB, dir string, groups, topics, perTopic, pad int, step time.Duration) int {
	tb.Helper()
	sd := filepath.Join(dir, "main", "sessions")
	if err := os.MkdirAll(sd, 0o755); err != nil {
		tb.Fatal(err)
	}
	store, _ := os.Create(filepath.Join(sd, "sessions.json"))
	defer store.Close()
	fmt.Fprint(store, "{")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	filler := make([]byte, pad)
	for i := range filler {
		filler[i] = "abcdefgh ijklmnop "[i%18]
	}
	for g := range groups {
		for tp := range topics {
			id := fmt.Sprintf("g%dt%d", g, tp)
			if g+tp > 0 {
				fmt.Fprint(store, ",")
			}
			fmt.Fprintf(store, "%q:{\"sessionId\":%q}", fmt.Sprintf("agent:main:telegram:group:-100%d:topic:%d", g, tp), id)
			f, err := os.Create(filepath.Join(sd, id+".jsonl"))
			if err != nil {
				tb.Fatal(err)
			}
			w := bufio.NewWriterSize(f, 1<<20)
			fmt.Fprintf(w, `{"type":"session","version":3,"id":%q,"timestamp":"2026-01-01T00:00:00Z","cwd":"/a"}`+"\n", id)
			for m := range perTopic {
				at := start.Add(time.Duration(m) * step).Format(time.RFC3339)
				if m%2 == 0 {
					fmt.Fprintf(w, `{"type":"message","id":"m%d","timestamp":%q,"message":{"role":"user","content":"[Telegram G id:-100%d] Person %d (1): message %d we'll decide on %s"}}`+"\n", m, at, g, m%5, m, filler)
				} else {
					fmt.Fprintf(w, `{"type":"message","id":"m%d","timestamp":%q,"message":{"role":"assistant","content":[{"type":"thinking","thinking":"short"},{"type":"text","text":"answer %d %s"}]}}`+"\n", m, at, m, filler)
				}
			}
			if err := w.Flush(); err != nil {
				tb.Fatal(err)
			}
			f.Close()
		}
	}
	fmt.Fprint(store, "}")
	return groups * topics * perTopic
}

func benchRun(b *testing.B, groups, topics, perTopic, pad int) {
	dir := b.TempDir()
	n := writeSessions(b, dir, groups, topics, perTopic, pad, 37*time.Second)
	b.ResetTimer()
	// The machine is shared: CPU time, not wall time, is the figure that
	// compares between runs.
	var took time.Duration
	for i := range b.N {
		ws := filepath.Join(dir, fmt.Sprintf("ws%d", i))
		start := cpuTime()
		rep, err := Run(context.Background(), Options{Workspace: ws, Sessions: []string{dir}})
		took += cpuTime() - start
		if err != nil || rep.Messages != n {
			b.Fatalf("archived %v messages of %d: %v", rep, n, err)
		}
		b.StopTimer()
		os.RemoveAll(ws)
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/took.Seconds(), "msgs/cpu-s")
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
	}
}

// BenchmarkRun_1MMessages: 1,000,000 messages in 20 groups × 5 topics.
func BenchmarkRun_1MMessages(b *testing.B) { benchRun(b, 20, 5, 10_000, 80) }

// BenchmarkRun_200MBTranscript: one transcript of about 200 MB. Run it
// alone (-bench 200MB): peak-RSS-MB is the process's, so it shows the
// memory the archive needs only when nothing ran before it.
// BenchmarkRun_20k is a quick profile target.
func BenchmarkRun_20k(b *testing.B) { benchRun(b, 1, 1, 20_000, 380) }

func BenchmarkRun_200MBTranscript(b *testing.B) { benchRun(b, 1, 1, 400_000, 380) }

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
