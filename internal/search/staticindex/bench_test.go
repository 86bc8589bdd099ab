package staticindex_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/staticindex"
	"github.com/dreamwiki/dreamwiki/vault"
)

// BenchmarkWriteStatic writes the static index of the workspace named by
// DREAMWIKI_BENCH_WS (bench/gen writes one), the cost the index adds to a
// build; bench/search.sh sets it beside the whole build's time:
//
//	DREAMWIKI_BENCH_WS=/tmp/ws go test ./internal/search/staticindex -run '^$' -bench Write -benchtime 3x
func BenchmarkWriteStatic(b *testing.B) {
	ws := os.Getenv("DREAMWIKI_BENCH_WS")
	if ws == "" {
		b.Skip("DREAMWIKI_BENCH_WS names no workspace")
	}
	m, err := build.Load(context.Background(), build.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	notes := m.Vault.Notes
	dir := b.TempDir()
	b.ResetTimer()
	var st staticindex.Stats
	for i := 0; i < b.N; i++ {
		// Pages are named as the site names them; the exact URL does not
		// change the work.
		docs := search.DocsFromVault(notes, func(n *vault.Note) string { return n.Path })
		out := filepath.Join(dir, strconv.Itoa(i)) // a fresh folder: removing the last is not the index's cost
		st, err = staticindex.Write(context.Background(), docs, staticindex.Options{}, output.NewDir(out))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Docs), "docs")
	b.ReportMetric(float64(st.Files), "files")
	b.ReportMetric(float64(st.Bytes)/(1<<20), "MB")
	b.ReportMetric(float64(st.MetaBytes)/1024, "metaKB")
	b.ReportMetric(float64(st.Shards), "shards")
}
