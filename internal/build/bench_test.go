package build

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkBuild builds the workspace named by DREAMWIKI_BENCH_WS (for
// example one written by bench/gen), for profiling:
//
//	DREAMWIKI_BENCH_WS=/tmp/ws go test ./internal/build -run '^$' -bench Build -benchtime 1x -cpuprofile cpu.out
func BenchmarkBuild(b *testing.B) {
	ws := os.Getenv("DREAMWIKI_BENCH_WS")
	if ws == "" {
		b.Skip("DREAMWIKI_BENCH_WS names no workspace")
	}
	out := filepath.Join(b.TempDir(), "dist")
	for i := 0; i < b.N; i++ {
		if _, err := Build(context.Background(), Options{Workspace: ws, Out: out}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistory reads the history of the workspace named by
// DREAMWIKI_BENCH_WS (for example one written by bench/history) after
// one Load: the site's history alone, for profiling.
//
//	DREAMWIKI_BENCH_WS=/tmp/hist go test ./internal/build -run '^$' -bench History -benchtime 3x -cpuprofile cpu.out
func BenchmarkHistory(b *testing.B) {
	ws := os.Getenv("DREAMWIKI_BENCH_WS")
	if ws == "" {
		b.Skip("DREAMWIKI_BENCH_WS names no workspace")
	}
	opts := Options{Workspace: ws, Out: filepath.Join(b.TempDir(), "dist")}
	m, err := Load(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	// CPU time, every thread's (the analysis's and the collector's), is
	// what the machine's other load does not change.
	var start syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &start)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := History(context.Background(), opts, m); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var end syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &end)
	cpu := time.Duration(end.Utime.Nano() + end.Stime.Nano() - start.Utime.Nano() - start.Stime.Nano())
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}
