package markdown

import (
	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// Block ids: "^id" at the end of a paragraph, list item or line, or alone
// in its own paragraph right after a block (a table, list, quote or
// callout):
//
//	- item ^item-id
//
//	| a | b |
//	|---|---|
//
//	^table-id
//
// The marker is removed from the output and the block carrying it gets
// id="^id", so links to note#^id land on it. A block that cannot carry an
// attribute (a code block, a heading, whose id is its slug) gets an empty
// anchor element just before it instead; so does a second id in the same
// paragraph.

// KindBlockAnchor is the node kind of BlockAnchor.
var KindBlockAnchor = ast.NewNodeKind("BlockAnchor")

// BlockAnchor is an empty element carrying a block id, for blocks that
// cannot carry the id themselves.
type BlockAnchor struct {
	ast.BaseInline
	ID string // without '^'
}

// Kind implements ast.Node.
func (n *BlockAnchor) Kind() ast.NodeKind { return KindBlockAnchor }

// Dump implements ast.Node.
func (n *BlockAnchor) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"ID": n.ID}, nil)
}

// foundBlockID is a block id found by the transformer, for Doc.BlockIDs
// and for embeds of note#^id.
type foundBlockID struct {
	id    string
	off   int      // offset of '^' in Source
	block ast.Node // the block the id names
}

var blockIDsKey = parser.NewContextKey()

type blockIDTransformer struct{}

func (blockIDTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var paras []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock:
			paras = append(paras, n)
			return ast.WalkSkipChildren, nil
		case ast.KindHeading, KindCalloutTitle:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	var found []foundBlockID
	for _, p := range paras {
		found = blockIDsIn(p, src, found)
	}
	if found != nil {
		pc.Set(blockIDsKey, found)
	}
}

func blockIDsIn(p ast.Node, src []byte, found []foundBlockID) []foundBlockID {
	// A paragraph that is only "^id" names the block before it.
	if t, ok := p.FirstChild().(*ast.Text); ok && t.NextSibling() == nil {
		v := t.Segment.Value(src)
		if id, k := mdline.BlockID(v); k == 0 && t.Segment.Padding == 0 {
			parent := p.Parent()
			target := p.PreviousSibling()
			if target == nil && parent != nil && parent.Kind() != ast.KindDocument {
				target = parent
			}
			if target != nil && parent != nil {
				parent.RemoveChild(parent, p)
				return append(found, foundBlockID{id: id, off: t.Segment.Start, block: attachBlockID(target, id)})
			}
		}
	}
	carried := false
	for c := p.FirstChild(); c != nil; {
		next := c.NextSibling()
		t, ok := c.(*ast.Text)
		if !ok || t.Segment.Padding != 0 || !(t.SoftLineBreak() || t.HardLineBreak() || next == nil) {
			c = next
			continue
		}
		v := t.Segment.Value(src)
		id, k := mdline.BlockID(v)
		caret := t.Segment.Start + k
		if k < 0 || (k == 0 && caret > 0 && !isSpaceByte(src[caret-1])) {
			c = next
			continue
		}
		var block ast.Node
		if !carried {
			block = attachBlockID(blockCarrier(p), id)
			carried = true
		} else {
			block = p
			p.InsertAfter(p, t, &BlockAnchor{ID: id})
		}
		found = append(found, foundBlockID{id: id, off: caret, block: block})
		stop := caret
		for stop > t.Segment.Start && isSpaceByte(src[stop-1]) {
			stop--
		}
		t.Segment = t.Segment.WithStop(stop)
		if stop == t.Segment.Start && next == nil {
			// The text was only the marker and ended the paragraph: drop
			// it, and the line break before it. (An emptied text in the
			// middle stays: it carries its line's break.)
			if prev, ok := t.PreviousSibling().(*ast.Text); ok {
				prev.SetSoftLineBreak(false)
				prev.SetHardLineBreak(false)
			}
			p.RemoveChild(p, t)
		}
		c = next
	}
	return found
}

// blockCarrier is the element that should carry an id found in p: the
// list item for the text of a list item (tight lists have no <p>).
func blockCarrier(p ast.Node) ast.Node {
	if li := p.Parent(); li != nil && li.Kind() == ast.KindListItem && li.FirstChild() == p {
		return li
	}
	return p
}

// attachBlockID gives n the id, or puts an anchor before it when n cannot
// carry one, and returns the block the id names.
func attachBlockID(n ast.Node, id string) ast.Node {
	switch n.Kind() {
	case ast.KindParagraph, ast.KindListItem, ast.KindList, ast.KindBlockquote, extast.KindTable, KindCallout:
		if _, has := n.AttributeString("id"); !has {
			n.SetAttributeString("id", []byte("^"+id))
			return n
		}
	}
	if parent := n.Parent(); parent != nil {
		parent.InsertBefore(parent, n, &BlockAnchor{ID: id})
	}
	return n
}

func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }

func (r *nodeRenderer) renderBlockAnchor(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering && !inEmbed(w) {
		_, _ = w.WriteString(`<span class="block-anchor" id="^`)
		writeAttr(w, node.(*BlockAnchor).ID)
		_, _ = w.WriteString(`"></span>`)
	}
	return ast.WalkContinue, nil
}
