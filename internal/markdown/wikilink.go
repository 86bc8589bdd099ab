package markdown

import (
	"bytes"

	wikilink "github.com/abhinav/goldmark-wikilink"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Wikilinks: [[note]], [[note|display]], [[note#Heading]],
// [[note#H1#H2]], [[note#^block]], [[#Heading]].
//
// Parsing is goldmark-wikilink's; this wrapper fixes two things. The
// library splits the fragment at the last '#', while Obsidian's nested
// heading paths ([[note#H1#H2]]) need the first. And in a table cell the
// pipe must be written "\|", which the library would leave in the target.
// Rendering is ours (renderWikilink in render.go): the library's renderer
// caches in a map without a lock and cannot resolve through a
// RenderContext.

type wikilinkParser struct{}

var _ parser.InlineParser = wikilinkParser{}

func (wikilinkParser) Trigger() []byte { return []byte{'['} }

func (wikilinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) < 2 || line[1] != '[' || closingBrackets(line, 2) < 0 {
		return nil
	}
	var lib wikilink.Parser
	n := lib.Parse(parent, block, pc)
	if n == nil {
		return nil
	}
	wl, ok := n.(*wikilink.Node)
	if !ok {
		return n
	}
	// The library stopped at the first "]]" on the line; re-read what it
	// read, from the same source, so Target and Fragment stay sub-slices
	// of it.
	src := block.Source()
	start := seg.Start
	stop := bytes.Index(src[start:], []byte("]]"))
	if stop < 0 {
		return n
	}
	inner := src[start+2 : start+stop]
	if i := bytes.IndexByte(inner, '|'); i >= 0 {
		inner = inner[:i]
	}
	inner = bytes.TrimSuffix(inner, []byte{'\\'}) // "[[a\|b]]" in a table
	if i := bytes.IndexByte(inner, '#'); i >= 0 {
		wl.Target, wl.Fragment = inner[:i], inner[i+1:]
	} else {
		wl.Target, wl.Fragment = inner, nil
	}
	if len(util.TrimLeftSpace(util.TrimRightSpace(wl.Target))) == 0 && len(util.TrimLeftSpace(util.TrimRightSpace(wl.Fragment))) == 0 {
		// "[[ ]]" or "[[#]]" name nothing; leave it as text.
		return nil
	}
	return wl
}

// closingBrackets returns the index of the "]]" closing a link that opens
// before from, or -1 when the line has none or another "[[" comes first
// ("[[a [[b]]": only the inner one can be a link). Stopping at "[[" keeps
// a line of many "[[" linear.
func closingBrackets(line []byte, from int) int {
	for i := from; i+1 < len(line); i++ {
		if line[i] == line[i+1] && (line[i] == ']' || line[i] == '[') {
			if line[i] == ']' {
				return i
			}
			return -1
		}
	}
	return -1
}

// wikilinkEnd returns the end offset of the wikilink starting at start.
func wikilinkEnd(src []byte, start int) int {
	if stop := bytes.Index(src[start:], []byte("]]")); stop >= 0 {
		return start + stop + 2
	}
	return start
}

// wikilinkHasLabel reports whether a wikilink spelled its display text
// with '|'.
func wikilinkHasLabel(src []byte, start, end int) bool {
	return end-2 > start+2 && bytes.IndexByte(src[start+2:end-2], '|') >= 0
}

func (r *nodeRenderer) renderWikilink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	st := stateOf(w)
	l := st.link(node)
	if l == nil {
		return ast.WalkContinue, nil // the label text renders as text
	}
	if !entering {
		return ast.WalkContinue, nil
	}
	t := st.resolve(l)
	switch {
	case t.Plain:
		writeEscaped(w, l.Display)
	case isBroken(t):
		writeBroken(w, l, "")
		writeEscaped(w, l.Display)
		_, _ = w.WriteString("</span>")
	default:
		writeInternal(w, st.href(t), t.Path, l.Display)
	}
	return ast.WalkSkipChildren, nil
}

func writeInternal(w util.BufWriter, href, path, text string) {
	_, _ = w.WriteString(`<a class="internal" href="`)
	writeEscaped(w, href)
	_, _ = w.WriteString(`" data-path="`)
	writeEscaped(w, path)
	_, _ = w.WriteString(`">`)
	writeEscaped(w, text)
	_, _ = w.WriteString("</a>")
}
