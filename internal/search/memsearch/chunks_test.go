package memsearch

import (
	"slices"
	"testing"

	"github.com/dreamwiki/dreamwiki/vault"
)

// A code block opened by four backticks runs to a closing fence of four.
// Chunks used to end a code block at any line starting with a fence, so a
// line of three backticks inside cut the block and the code after it was
// cited as prose, and the text after the block was cited as code.
func TestChunkText_FencesCloseAsTheRendererCloses(t *testing.T) {
	text := "# Notes\n\n- before\n\n````md\n```\ncode\n````\n- after\n"
	var got [][2]int
	for _, c := range chunkText(&vault.Note{Source: "notes.md", Title: "Notes"}, text) {
		got = append(got, [2]int{c.StartLine, c.EndLine})
	}
	want := [][2]int{{3, 3}, {5, 8}, {9, 9}}
	if !slices.Equal(got, want) {
		t.Errorf("chunks %v, want %v", got, want)
	}
}
