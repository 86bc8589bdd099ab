package provenance

import (
	"slices"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

func FuzzFileBlocks(f *testing.F) {
	for _, s := range []string{"- a\n  b\n\n| x |\n|---|\n\n> q\n> r ^id\n", "---\na: b\n---\npara\n```\ncode\n", "<!-- x\ny -->\n# h\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines := mdline.Split(s)
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

// A code block opened by four backticks runs to a closing fence of four:
// a line of three inside is code. Evidence blocks used to end the block
// there, so the rest of the code became evidence and the text after the
// block was lost as code; the workspace reader and the renderer never did.
func TestFileBlocks_FencesCloseAsTheRendererCloses(t *testing.T) {
	lines := mdline.Split("- before\n\n````md\n```\n- not evidence\n````\n- after\n")
	var got []string
	for _, b := range fileBlocks(lines, nil) {
		got = append(got, b.Text)
	}
	if want := []string{"before", "after"}; !slices.Equal(got, want) {
		t.Errorf("blocks %q, want %q", got, want)
	}
}
