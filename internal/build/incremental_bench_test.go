package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/output"
)

// BenchmarkSessionUpdate times one edit of an other note through a
// Session (workspace re-read, vault and site update; what serve mode does
// between the watcher's event and the reload message) on the workspace
// named by DREAMWIKI_BENCH_WS, for example one bench/gen wrote:
//
//	DREAMWIKI_BENCH_WS=/tmp/ws10k go test ./internal/build -run '^$' -bench SessionUpdate -cpuprofile cpu.out
func BenchmarkSessionUpdate(b *testing.B) {
	ws := os.Getenv("DREAMWIKI_BENCH_WS")
	if ws == "" {
		b.Skip("DREAMWIKI_BENCH_WS names no workspace")
	}
	ctx := context.Background()
	s, _, err := Open(ctx, Options{Workspace: ws}, output.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	// A note no claim cites, so that provenance does not run.
	target := ""
	cited := citedFiles(s.prov)
	for _, f := range s.ws.Files {
		if strings.HasPrefix(f.Path, "notes/") && strings.HasSuffix(f.Path, ".md") && !cited[f.Path] {
			target = f.Path
			break
		}
	}
	if target == "" {
		b.Skip("no note under notes/ that no claim cites")
	}
	full := filepath.Join(ws, filepath.FromSlash(target))
	orig, err := os.ReadFile(full)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(full, orig, 0o644)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(full, append(orig, fmt.Sprintf("\n- Benchmark edit %d.\n", i)...), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		ch, err := s.Update(ctx, []string{target}, output.NewMemory())
		if err != nil {
			b.Fatal(err)
		}
		if ch.Pending || ch.Site.Full {
			b.Fatalf("the edit was not incremental: %+v", ch.Site)
		}
	}
}

// BenchmarkSessionEdit times, side by side on one session, an edit of an
// L2 topic file ("topic": an entry appended, so provenance runs and a
// claim note is added) and of a daily log ("daily": a line appended; its
// pages render at once, provenance follows when edits pause), each
// through Session.Update: the pages that show the file are rendered, as
// serve mode does before its reload message. What follows an update and
// no open page waits for (provenance over the daily log, Finish's list
// pages and site-wide files) runs between the timed updates. The
// workspace is the one DREAMWIKI_BENCH_WS names, else the demo.
// cpu-ms/op is the process's CPU time per update (page rendering on
// other goroutines and the garbage collector included): on a shared
// machine it is the figure to compare, ns/op mostly measures the
// neighbours. prov-ms/op is provenance's share of the topic edit.
//
//	DREAMWIKI_BENCH_WS=/tmp/ws10k go test ./internal/build -run '^$' -bench SessionEdit -benchtime 20x -cpuprofile cpu.out
func BenchmarkSessionEdit(b *testing.B) {
	ws := os.Getenv("DREAMWIKI_BENCH_WS")
	if ws == "" {
		ws = b.TempDir()
		if err := os.CopyFS(ws, demo.FS()); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	s, _, err := Open(ctx, Options{Workspace: ws}, output.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	var topic, daily string
	for _, t := range s.ws.Topics {
		if !t.File.Private {
			topic = t.File.Path
			break
		}
	}
	for _, d := range s.ws.Daily {
		if !d.File.Private {
			daily = d.File.Path
			break
		}
	}
	for _, c := range []struct{ name, target, line string }{
		{"topic", topic, "\n- Benchmark entry %d about the gateway.\n"},
		{"daily", daily, "\n- Benchmark line %d about the gateway.\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.target == "" {
				b.Skip("no such file")
			}
			benchEdit(b, s, ws, c.target, c.line)
		})
	}
}

// benchEdit appends line (with the iteration's number) to the workspace
// file target and times s.Update; what follows it runs untimed.
func benchEdit(b *testing.B, s *Session, ws, target, line string) {
	ctx := context.Background()
	full := filepath.Join(ws, filepath.FromSlash(target))
	orig, err := os.ReadFile(full)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		// The session goes on with the file as it was.
		if err := os.WriteFile(full, orig, 0o644); err == nil {
			settle(ctx, b, s, []string{target})
		}
	}()
	var prov time.Duration
	var cpu float64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(full, append(orig, fmt.Sprintf(line, i)...), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c0 := cpuSeconds()
		var ch *Change
		// The label marks the update's samples in a CPU profile, those of
		// the goroutines it starts too (pprof -tagfocus edit=update).
		pprof.Do(ctx, pprof.Labels("edit", "update"), func(ctx context.Context) {
			ch, err = s.Update(ctx, []string{target}, output.NewMemory())
		})
		cpu += cpuSeconds() - c0
		if err != nil {
			b.Fatal(err)
		}
		prov += ch.ProvenanceTook
		b.StopTimer()
		settle(ctx, b, s, nil)
		b.StartTimer()
	}
	b.ReportMetric(cpu*1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(prov.Microseconds())/1000/float64(b.N), "prov-ms/op")
}

// settle updates s for paths (none: nothing), then does what serve mode
// does once edits pause: provenance over the edits, when pending, and
// Finish.
func settle(ctx context.Context, b *testing.B, s *Session, paths []string) {
	if len(paths) > 0 {
		if _, err := s.Update(ctx, paths, output.NewMemory()); err != nil {
			b.Fatal(err)
		}
	}
	if s.Pending() {
		if _, _, err := s.ApplyProvenance(ctx, s.ProvenanceJob()(), output.NewMemory()); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Finish(ctx, output.NewMemory()); err != nil {
		b.Fatal(err)
	}
	// The collection that work's garbage calls for runs now, not into the
	// next timed update: each update pays for the collections its own
	// garbage calls for.
	runtime.GC()
}
