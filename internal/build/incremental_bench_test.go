package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
