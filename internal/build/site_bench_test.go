package build

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/site"
)

// BenchmarkSite renders the site of the workspace named by
// DREAMWIKI_BENCH_WS, loaded once, so a profile shows the site alone:
//
//	go run ./bench/gen -n 3000 -out /tmp/ws
//	DREAMWIKI_BENCH_WS=/tmp/ws go test ./internal/build -run '^$' -bench Site -cpuprofile cpu.out
func BenchmarkSite(b *testing.B) {
	ws := os.Getenv("DREAMWIKI_BENCH_WS")
	if ws == "" {
		b.Skip("DREAMWIKI_BENCH_WS names no workspace")
	}
	opts := Options{Workspace: ws}
	m, err := Load(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	so := m.SiteOptions(opts)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(b.TempDir(), "site")
		if _, err := site.Build(context.Background(), m.Engine, m.Vault, so, output.NewDir(dir)); err != nil {
			b.Fatal(err)
		}
	}
}
