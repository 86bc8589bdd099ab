package build

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
