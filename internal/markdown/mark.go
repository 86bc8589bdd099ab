package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Highlights: ==text== renders as <mark>. Delimiter-based like goldmark's
// strikethrough, so "a == b" (not flanking) stays text and code spans,
// being parsed first, keep their '=='.

// KindMark is the node kind of Mark.
var KindMark = ast.NewNodeKind("Mark")

// Mark is ==highlighted== text.
type Mark struct {
	ast.BaseInline
}

// Kind implements ast.Node.
func (n *Mark) Kind() ast.NodeKind { return KindMark }

// Dump implements ast.Node.
func (n *Mark) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type markDelimiter struct{}

func (markDelimiter) IsDelimiter(b byte) bool { return b == '=' }

func (markDelimiter) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (markDelimiter) OnMatch(int) ast.Node { return &Mark{} }

type markParser struct{}

var _ parser.InlineParser = markParser{}

func (markParser) Trigger() []byte { return []byte{'='} }

func (markParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	node := parser.ScanDelimiter(line, before, 2, markDelimiter{})
	if node == nil || node.OriginalLength != 2 || before == '=' {
		return nil
	}
	node.Segment = segment.WithStop(segment.Start + node.OriginalLength)
	block.Advance(node.OriginalLength)
	pc.PushDelimiter(node)
	return node
}

func (r *nodeRenderer) renderMark(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<mark>")
	} else {
		_, _ = w.WriteString("</mark>")
	}
	return ast.WalkContinue, nil
}
