package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Raw HTML is never passed through: a note may hold anything an agent
// wrote or copied, and the site must not run it. Inline and block HTML
// render as escaped, visible text; HTML comments, invisible in Obsidian
// and used by agents for metadata, are dropped.

func (r *nodeRenderer) renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	var raw []byte
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		raw = append(raw, seg.Value(source)...)
	}
	html.DefaultWriter.RawWrite(w, stripHTMLComments(raw))
	return ast.WalkSkipChildren, nil
}

func (r *nodeRenderer) renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var raw []byte
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		raw = append(raw, seg.Value(source)...)
	}
	if n.HasClosure() {
		raw = append(raw, n.ClosureLine.Value(source)...)
	}
	raw = bytes.TrimSpace(stripHTMLComments(raw))
	if len(raw) == 0 {
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<pre class="raw-html"><code>`)
	html.DefaultWriter.RawWrite(w, raw)
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

// stripHTMLComments drops <!-- … --> comments (an unclosed one runs to
// the end): they are invisible in Obsidian, and agents keep metadata in
// them ("<!-- importance: 8 -->").
func stripHTMLComments(b []byte) []byte {
	open := bytes.Index(b, []byte("<!--"))
	if open < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for open >= 0 {
		out = append(out, b[:open]...)
		rest := b[open+4:]
		end := bytes.Index(rest, []byte("-->"))
		if end < 0 {
			return out
		}
		b = rest[end+3:]
		open = bytes.Index(b, []byte("<!--"))
	}
	return append(out, b...)
}
