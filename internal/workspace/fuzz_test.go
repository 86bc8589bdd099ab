package workspace

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// FuzzParseEntries checks that the MEMORY.md parser never panics and
// keeps its invariants on any input: entry lines inside the file, in
// order, Raw made of the file's own lines.
func FuzzParseEntries(f *testing.F) {
	seeds := []string{
		mixedMemory,
		"> 📏 限制：≤ 200 行 / 25KB | 上次整理：2026-03-31\n## 用户\n- [user] 喜欢简短回答 详见 daily notes 2026-03-31\n",
		"<!-- openclaw-memory-promotion:memory:memory/2026-04-17.md:7:7 -->\n- x [score=0.835 recalls=0 avg=0.620 source=memory/2026-04-17.md:7-7]\n",
		"- Gateway. Source: memory/2026-04-29.md#L3-L6 <!-- importance: 8 -->\n",
		"**[feedback] T (04-27)**\n> a\n\n> b\n**Why:** c\n",
		"| a | b |\n|---|---|\n| c | d |\n|\n",
		"```\n- x\n", "<!--\n- x\n", "- [x]\n- [ ] \n* * *\n===\n",
		"Key: value\nSource: memory/x.md:1-\n(source: 2026-02-30)\n[[\n[a](\n",
		"**Rule:**\n**Why:**\n**How to apply:**\n",
		"- \t\t- \t\n    - deep\n\t> q\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := mdline.Split(src)
		ref := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
		for _, sec := range parseEntries("MEMORY.md", src, ref, nil) {
			prev := 0
			for _, e := range sec.Entries {
				if e.Line < 1 || e.EndLine < e.Line || e.EndLine > len(lines) {
					t.Fatalf("entry lines %d-%d outside a %d-line file", e.Line, e.EndLine, len(lines))
				}
				if e.Line < prev {
					t.Fatalf("entries out of order: %d after %d", e.Line, prev)
				}
				prev = e.Line
				if e.Text == "" {
					t.Fatalf("empty entry kept: %+v", e)
				}
				if !strings.HasPrefix(strings.Join(lines[e.Line-1:], "\n"), strings.SplitN(e.Raw, "\n", 2)[0]) {
					t.Fatalf("Raw %q does not start at line %d", e.Raw, e.Line)
				}
			}
		}
		// The whole pipeline on the same bytes, as every file kind.
		fsys := fstest.MapFS{}
		for _, p := range []string{"MEMORY.md", "DREAMS.md", "USER.md", "memory/2026-04-01.md", "memory/dream-log.md",
			"memory/topic.md", "memory/archive/2026-03.md", "memory/memory-meta.json", "memory/.dreams/events.jsonl",
			"memory/.dreams/short-term-recall.json", "archives/t/g/INDEX.md", "archives/t/g/summaries/topic-1.md"} {
			fsys[p] = &fstest.MapFile{Data: []byte(src)}
		}
		ws, err := LoadFS(fsys, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Diagnostics {
			if d.Code == "internal" {
				t.Fatalf("parser panicked: %s", d.Message)
			}
		}
	})
}
