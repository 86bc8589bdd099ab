package provenance

import (
	"testing"
)

func FuzzFileBlocks(f *testing.F) {
	for _, s := range []string{"- a\n  b\n\n| x |\n|---|\n\n> q\n> r ^id\n", "---\na: b\n---\npara\n```\ncode\n", "<!-- x\ny -->\n# h\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines := splitLines(s)
		blocks := fileBlocks(lines, nil)
		last := 0
		for _, b := range blocks {
			if b.Start <= last || b.End < b.Start || b.End > len(lines) {
				t.Fatalf("bad block %+v after line %d of %d", b, last, len(lines))
			}
			last = b.End
		}
		for _, p := range piecesOf(blocks) {
			if p.Start < blocks[p.blk].Start || p.End > blocks[p.blk].End {
				t.Fatalf("piece %+v outside its block", p)
			}
		}
	})
}
