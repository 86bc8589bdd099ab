package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// BenchmarkSessionTopicEdit times one edit of an L2 topic file through a
// Session: an entry appended, so provenance runs and a claim note is
// added, and the pages that show the file and the claim are rendered
// (Update; Finish's list pages are not timed). The workspace is the one
// DREAMWIKI_BENCH_WS names, else the demo; prov-ms/op is provenance's
// share.
//
//	DREAMWIKI_BENCH_WS=/tmp/ws10k go test ./internal/build -run '^$' -bench SessionTopicEdit -cpuprofile cpu.out
func BenchmarkSessionTopicEdit(b *testing.B) {
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
	var target string
	for _, t := range s.ws.Topics {
		if !t.File.Private {
			target = t.File.Path
			break
		}
	}
	if target == "" {
		b.Skip("no topic file")
	}
	full := filepath.Join(ws, filepath.FromSlash(target))
	orig, err := os.ReadFile(full)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(full, orig, 0o644)
	var prov time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(full, append(orig, fmt.Sprintf("\n- Benchmark entry %d about the gateway.\n", i)...), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		ch, err := s.Update(ctx, []string{target}, output.NewMemory())
		if err != nil {
			b.Fatal(err)
		}
		prov += ch.ProvenanceTook
		b.StopTimer()
		if err := s.Finish(ctx, output.NewMemory()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(prov.Microseconds())/1000/float64(b.N), "prov-ms/op")
}
