package dream

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// BenchmarkDream runs one dream over N days of generated logs (about 16
// facts a day: 365 days is some 5,000 entries), with the batch limit
// lifted so the one dream reads them all. Reading the workspace, planning
// and writing are all included. The sizes show how it scales: it must not
// be quadratic in entries.
func BenchmarkDream(b *testing.B) {
	for _, days := range []int{90, 180, 365} {
		b.Run(fmt.Sprintf("days=%d", days), func(b *testing.B) {
			src := b.TempDir()
			end := genWorkspace(src, 7, days, 16)
			now := end.Add(7 * time.Hour)
			ws, err := workspace.Load(src, workspace.Options{})
			if err != nil {
				b.Fatal(err)
			}
			entries := 0
			for _, d := range ws.Daily {
				entries += len(d.Items)
			}
			opts := Options{Now: func() time.Time { return now }, Force: true, Configure: func(c *workspace.Config) {
				c.Dream.MaxLogs, c.Dream.MaxBytes = 1<<20, 1<<30
			}}
			var cpu time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := filepath.Join(b.TempDir(), "ws")
				copyTree(b, src, dir)
				b.StartTimer()
				c0 := cpuTime()
				res, err := Run(context.Background(), dir, opts, false, nil)
				cpu += cpuTime() - c0
				if err != nil || !res.Applied {
					b.Fatalf("dream: %v", err)
				}
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(entries), "entries")
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/float64(entries), "cpu-µs/entry")
		})
	}
}

func copyTree(tb testing.TB, src, dst string) {
	tb.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
}
