package provenance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/synth"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// BenchmarkAnalyze_Shapes analyses the bench/gen workspace of 2,000 notes
// in each shape: the keys one (1,200 topic lines under "Decision:", 1,200
// under "Next:") must cost about what the uniform one does. Comparing the
// lines of a key pairwise made it cost 9x, with 1,200 contested claims
// (issue #15).
//
//	go test ./internal/provenance -run '^$' -bench Shapes -count 6
func BenchmarkAnalyze_Shapes(b *testing.B) {
	for _, sh := range synth.Shapes {
		b.Run(fmt.Sprintf("shape=%s/notes=2000", sh), func(b *testing.B) {
			dir := b.TempDir()
			if err := synth.Write(dir, synth.Options{Notes: 2000, Seed: 1, Shape: sh}); err != nil {
				b.Fatal(err)
			}
			ws, err := workspace.Load(dir, workspace.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var r *Result
			for b.Loop() {
				r = Analyze(ws, Options{})
			}
			b.ReportMetric(float64(len(r.Contests)), "contests")
			b.ReportMetric(float64(len(r.Claims)), "claims")
		})
	}
}

// BenchmarkAnalyze_TopicEdit times what serve mode's provenance run does
// for an edit of one topic file: an entry appended, the workspace read
// again (Reread, untimed) and analysed with the Cache and the claims of
// the last run, on a copy of the workspace DREAMWIKI_BENCH_WS names (one
// bench/gen wrote), else of 2,000 synthetic notes.
//
//	DREAMWIKI_BENCH_WS=/tmp/ws10k go test ./internal/provenance -run '^$' -bench TopicEdit -cpuprofile cpu.out
func BenchmarkAnalyze_TopicEdit(b *testing.B) {
	dir := b.TempDir()
	if src := os.Getenv("DREAMWIKI_BENCH_WS"); src != "" {
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			b.Fatal(err)
		}
	} else if err := synth.Write(dir, synth.Options{Notes: 2000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	ws, err := workspace.Load(dir, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(ws.Topics) == 0 {
		b.Skip("no topic file")
	}
	topic := ws.Topics[0].File.Path
	orig, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(topic)))
	if err != nil {
		b.Fatal(err)
	}
	cache := &Cache{}
	res := Analyze(ws, Options{Cache: cache})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		edited := fmt.Appendf(append([]byte(nil), orig...), "\n- Benchmark entry %d about the gateway.\n", i)
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(topic)), edited, 0o644); err != nil {
			b.Fatal(err)
		}
		if ws, err = ws.Reread([]string{topic}); err != nil {
			b.Fatal(err)
		}
		prior := res.Prior()
		runtime.GC()
		b.StartTimer()
		// The label marks the edit's samples in a CPU profile (pprof
		// -tagfocus edit=topic), apart from the first run's.
		pprof.Do(context.Background(), pprof.Labels("edit", "topic"), func(context.Context) {
			res = Analyze(ws, Options{Previous: prior, Cache: cache})
		})
	}
	b.ReportMetric(float64(len(res.Claims)), "claims")
}
