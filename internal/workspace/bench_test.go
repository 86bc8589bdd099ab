package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genWorkspace writes a workspace of n files to dir: a MEMORY.md, daily
// logs, L2 topic files and plain notes in a few folders, each a few
// hundred bytes like real memory files.
func genWorkspace(tb testing.TB, dir string, n int) {
	tb.Helper()
	write := func(p, content string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	var mem strings.Builder
	mem.WriteString("# MEMORY\n\n> limit: 200 lines / 25KB | last dream: 2026-03-31\n\n## People\n")
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&mem, "- [user] Fact number %d about the gateway host. Source: memory/2026-03-%02d.md#L3-L4\n", i, i%28+1)
	}
	write("MEMORY.md", mem.String())
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i < n; i++ {
		switch {
		case i%3 == 0:
			d := day.AddDate(0, 0, i/3)
			write("memory/"+d.Format("2006-01-02")+".md", fmt.Sprintf(
				"# %s\n\n## Work\n- Deployed service %d to staging #deploy\n- Sam asked about the gateway (see memory/gateway.md)\n\n## Evening\nA short paragraph about the day, number %d.\n",
				d.Format("2006-01-02"), i, i))
		case i%10 == 1:
			write(fmt.Sprintf("memory/topic-%04d.md", i), fmt.Sprintf(
				"# Topic %d\n\n- Gateway host is the Mac mini. Source: memory/2026-04-%02d.md#L3-L6\n- **[feedback] Keep answers short (04-27)**\n> Sam reads on his phone.\n", i, i%28+1))
		default:
			write(fmt.Sprintf("notes/folder-%02d/note-%05d.md", i%50, i), fmt.Sprintf(
				"# Note %d\n\nSome text with a [[link-%d]] and a #tag.\n\n- item one\n- item two\n", i, i-1))
		}
	}
}

// BenchmarkLoad reads a generated 2,000-file workspace from disk.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	genWorkspace(b, dir, 2000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ws, err := Load(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(ws.Files) != 2000 {
			b.Fatalf("%d files", len(ws.Files))
		}
	}
}

// BenchmarkLoad10k reads 10,000 small notes from disk.
func BenchmarkLoad10k(b *testing.B) {
	dir := b.TempDir()
	genWorkspace(b, dir, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Load(dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseMemory parses the MEMORY.md of the mixed-shapes spec.
func BenchmarkParseMemory(b *testing.B) {
	f := &File{Path: "MEMORY.md", Content: strings.Repeat(strings.SplitN(mixedMemory, "--\n", 2)[1], 20)}
	b.SetBytes(int64(len(f.Content)))
	for i := 0; i < b.N; i++ {
		_, _ = parseMemory(f, time.Time{})
	}
}
