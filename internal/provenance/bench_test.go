package provenance

import (
	"fmt"
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
