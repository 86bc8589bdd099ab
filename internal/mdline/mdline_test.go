package mdline

import (
	"reflect"
	"strings"
	"testing"
)

func TestFence_CommonMarkOpenAndClose(t *testing.T) {
	// Each case is a file; want marks the lines that are code.
	for _, tc := range []struct {
		name, text, want string
	}{
		{"backticks", "a\n```go\nx\n```\nb", ".###."},
		{"tildes", "~~~\n# not a heading\n~~~\nb", "###."},
		{"a longer fence needs a closer as long", "````\n```\nstill code\n````\nb", "####."},
		{"the other character does not close", "```\n~~~\n```\nb", "###."},
		{"a closer has no info string", "```\n```go\n```\nb", "###."},
		{"inline code is no fence", "```x```\nb", ".."},
		{"an unclosed block runs to the end", "```\nx\ny", "###"},
		{"indentation is the caller's", "  ```\n  x\n  ```\nb", "###."},
	} {
		var f Fence
		var got strings.Builder
		for _, l := range Split(tc.text) {
			_, off := Indent(l)
			if f.Code(l[off:]) {
				got.WriteByte('#')
			} else {
				got.WriteByte('.')
			}
		}
		if got.String() != tc.want {
			t.Errorf("%s: code lines %s, want %s", tc.name, got.String(), tc.want)
		}
	}
}

func TestFenceOpen_BytesAndStringsAgree(t *testing.T) {
	for _, s := range []string{"```", "```go", "~~~~ x", "``", "```a`", "~~~a~", "---"} {
		c1, n1 := FenceOpen(s)
		c2, n2 := FenceOpen([]byte(s))
		if c1 != c2 || n1 != n2 {
			t.Errorf("FenceOpen(%q): string %q %d, bytes %q %d", s, c1, n1, c2, n2)
		}
	}
}

func TestHeading(t *testing.T) {
	for _, tc := range []struct {
		in    string
		level int
		text  string
	}{
		{"# Title", 1, "Title"},
		{"## Hosts ##", 2, "Hosts"},
		{"### C# notes", 3, "C# notes"},
		{"## #hashtag", 2, "#hashtag"},
		{"#tag", 0, ""},
		{"####### seven", 0, ""},
		{"#", 1, ""},
	} {
		level, text := Heading(tc.in)
		if level != tc.level || text != tc.text {
			t.Errorf("Heading(%q) = %d %q, want %d %q", tc.in, level, text, tc.level, tc.text)
		}
	}
}

func TestListItem(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want Item
	}{
		{"- a", true, Item{MarkerLen: 2, Text: "a"}},
		{"12) b", true, Item{MarkerLen: 4, Text: "b"}},
		{"- [x] done", true, Item{MarkerLen: 2, Task: 'x', Text: "done"}},
		{"* [ ]", true, Item{MarkerLen: 2, Task: ' ', Text: ""}},
		{"- [x]done", true, Item{MarkerLen: 2, Text: "[x]done"}},
		{"-", true, Item{MarkerLen: 1}},
		{"-x", false, Item{}},
		{"1.5 million", false, Item{}},
		{"  - indented", false, Item{}},
	} {
		got, ok := ListItem(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ListItem(%q) = %+v %v, want %+v %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestThematicBreak(t *testing.T) {
	for in, want := range map[string]bool{"---": true, "* * *": true, "___ _": true, "- -": false, "--x": false, "-*-": false} {
		if ThematicBreak(in) != want {
			t.Errorf("ThematicBreak(%q) = %v", in, !want)
		}
	}
}

func TestTables(t *testing.T) {
	if !TableRow("| a | b |") || TableRow("|") || TableRow("a | b") {
		t.Error("TableRow")
	}
	if !TableSeparator("|---|:--:|") || TableSeparator("| a |") {
		t.Error("TableSeparator")
	}
	if got := TableCells(`| a | b \| c |  |`); !reflect.DeepEqual(got, []string{"a", "b | c", ""}) {
		t.Errorf("TableCells = %q", got)
	}
}

func TestFrontMatterEnd(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"---\ntitle: x\n---\nbody", 3},
		{"---  \na: b\n...\nbody", 3},
		{" ---\na: b\n---\n", 0}, // indented: no front matter, as for the renderer
		{"----\na: b\n----\n", 0},
		{"---\na: b\n", 0}, // never closed
		{"body\n---\n", 0},
	} {
		if got := FrontMatterEnd(Split(tc.text)); got != tc.want {
			t.Errorf("FrontMatterEnd(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

func TestBlockID(t *testing.T) {
	for _, tc := range []struct {
		in, id string
		at     int
	}{
		{"- item ^e3", "e3", 7},
		{"text ^my-id  ", "my-id", 5},
		{"^alone", "alone", 0},
		{"x^glued", "", -1},
		{"no id", "", -1},
		{"trailing ^", "", -1},
	} {
		id, at := BlockID(tc.in)
		if id != tc.id || at != tc.at {
			t.Errorf("BlockID(%q) = %q %d, want %q %d", tc.in, id, at, tc.id, tc.at)
		}
	}
}
