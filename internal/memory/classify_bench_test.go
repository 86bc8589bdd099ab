package memory

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkClassify runs the four per-claim classifiers (IsStructural,
// Lifecycle, Permission, SubjectValue) over claim lines, with and without
// their guards; one op is one claim. The lines are the
// bullets of a workspace's MEMORY.md and memory/*.md when
// DREAMWIKI_BENCH_WORKSPACE names one (go run ./bench/gen -n 1000 -out
// /tmp/ws1k-mem), else the package's test texts and synthetic claims.
func BenchmarkClassify(b *testing.B) {
	lines := benchLines(b)
	given := time.Date(2026, 4, 14, 9, 30, 0, 0, time.UTC)
	for _, off := range []bool{false, true} {
		b.Run(map[bool]string{false: "guarded", true: "unguarded"}[off], func(b *testing.B) {
			guardsOff = off
			defer func() { guardsOff = false }()
			for i := 0; b.Loop(); i++ {
				t := lines[i%len(lines)]
				IsStructural(t)
				Lifecycle(t)
				Permission(t, given)
				SubjectValue(t)
			}
		})
	}
}

func benchLines(b *testing.B) []string {
	var lines []string
	if dir := os.Getenv("DREAMWIKI_BENCH_WORKSPACE"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "memory", "*.md"))
		for _, f := range append(files, filepath.Join(dir, "MEMORY.md")) {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				if t, ok := strings.CutPrefix(l, "- "); ok {
					lines = append(lines, t)
				}
			}
		}
		if len(lines) == 0 {
			b.Fatalf("no bullet lines in %s", dir)
		}
		return lines
	}
	// Test texts, diluted with synthetic claims shaped like bench/gen's
	// nine in ten, as in a real workspace most claims have no markers.
	tests := testTexts(b)
	words := strings.Fields(`gateway host cluster deploy migration service latency budget review
incident runbook alert metric token rotation backup restore schedule meeting decision
preference feedback project reference person team release branch commit pipeline cache
database index query search memory dream claim evidence topic archive summary digest
kubernetes helm chart ingress certificate dns proxy router firewall vpn storage volume
travel flight hotel kyoto lisbon birthday dinner book reading writing draft blog post`)
	r := rand.New(rand.NewSource(1))
	for _, s := range tests {
		lines = append(lines, s)
		for range 9 {
			n := 6 + r.Intn(10)
			ws := make([]string, n)
			for i := range ws {
				ws[i] = words[r.Intn(len(words))]
			}
			ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
			lines = append(lines, strings.Join(ws, " ")+[]string{".", " [[note-42]].", " #infra/k8s"}[r.Intn(3)])
		}
	}
	return lines
}
