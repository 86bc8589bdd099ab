package markdown

import (
	"bytes"
	"strings"

	wikilink "github.com/abhinav/goldmark-wikilink"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// PlainText returns the note's readable text for search and snippets: no
// markup, comments and raw HTML gone, code kept as text, links as their
// display text, tags as "#tag". Blocks are separated by newlines.
func (d *Doc) PlainText() string {
	if d == nil {
		return ""
	}
	if d.syn == nil {
		return d.plain
	}
	p := plainWriter{src: d.Source, doc: d}
	p.b.Grow(len(d.Source))
	p.walk(d.syn.root)
	return strings.TrimSpace(p.b.String())
}

// inlineText is the plain text of n's inline content on one line: heading
// text, link display text.
func inlineText(n ast.Node, src []byte) string {
	p := plainWriter{src: src, oneLine: true}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		p.walk(c)
	}
	return strings.TrimSpace(p.b.String())
}

type plainWriter struct {
	b       strings.Builder
	src     []byte
	doc     *Doc
	oneLine bool // line breaks become spaces
}

func (p *plainWriter) newline() {
	if p.oneLine {
		p.b.WriteByte(' ')
		return
	}
	s := p.b.String()
	if len(s) > 0 && s[len(s)-1] != '\n' {
		p.b.WriteByte('\n')
	}
}

func (p *plainWriter) walk(root ast.Node) {
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			switch n.Kind() {
			case ast.KindParagraph, ast.KindHeading, ast.KindTextBlock, ast.KindListItem,
				ast.KindThematicBreak, KindCalloutTitle, extast.KindTableRow, extast.KindTableHeader:
				p.newline()
			case extast.KindTableCell:
				p.b.WriteByte(' ')
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			v := n.Segment.Value(p.src)
			if !n.IsRaw() {
				v = unescapeText(v)
			}
			p.b.Write(v)
			if n.SoftLineBreak() || n.HardLineBreak() {
				p.newline()
			}
		case *ast.String:
			p.b.Write(n.Value)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				p.b.Write(seg.Value(p.src))
			}
			p.newline()
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML, *ast.HTMLBlock, *Embed, *BlockAnchor,
			*extast.FootnoteLink, *extast.FootnoteBacklink, *extast.TaskCheckBox:
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			p.b.Write(n.Label(p.src))
			return ast.WalkSkipChildren, nil
		case *wikilink.Node:
			if p.doc != nil {
				if i, ok := p.doc.syn.linkAt[n]; ok {
					p.b.WriteString(p.doc.Links[i].Display)
					return ast.WalkSkipChildren, nil
				}
			}
			return ast.WalkContinue, nil
		case *Tag:
			p.b.WriteByte('#')
			p.b.WriteString(n.Name)
		}
		return ast.WalkContinue, nil
	})
}

// unescapeText resolves backslash escapes and entities the way the HTML
// renderer shows them.
func unescapeText(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return v
	}
	return util.UnescapePunctuations(util.ResolveNumericReferences(util.ResolveEntityNames(v)))
}
