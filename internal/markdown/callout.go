package markdown

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Callouts: a blockquote whose first line is "[!type]", optionally
// followed by '+' or '-' (foldable, open or closed) and a title.
//
//	> [!warning]- Careful
//	> Body text.
//
// A block parser rather than a blockquote transformer: the first line is
// then the title from the start (inline-parsed on its own), and nesting
// ("> > [!tip]") needs nothing special.
//
// Foldable callouts render as <details>/<summary>, so folding works with
// JavaScript off.

// KindCallout is the node kind of Callout.
var KindCallout = ast.NewNodeKind("Callout")

// KindCalloutTitle is the node kind of CalloutTitle.
var KindCalloutTitle = ast.NewNodeKind("CalloutTitle")

// Callout is an Obsidian callout. Its first child is always a
// CalloutTitle; the rest is its content.
type Callout struct {
	ast.BaseBlock
	// Canonical is the canonical type ("tip" for "hint"); unknown types
	// are "note". Written is the type as written, lower-cased.
	Canonical, Written string
	// Foldable is set by '+' or '-'; Open by '+'.
	Foldable, Open bool
}

// Kind implements ast.Node.
func (n *Callout) Kind() ast.NodeKind { return KindCallout }

// Dump implements ast.Node.
func (n *Callout) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Canonical": n.Canonical, "Written": n.Written}, nil)
}

// CalloutTitle holds a callout's title inlines; with none, the title is
// the capitalised type.
type CalloutTitle struct {
	ast.BaseBlock
}

// Kind implements ast.Node.
func (n *CalloutTitle) Kind() ast.NodeKind { return KindCalloutTitle }

// Dump implements ast.Node.
func (n *CalloutTitle) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// DefaultTitle is the title shown when none is written: the type as
// written, capitalised ("[!faq]" reads "Faq", as in Obsidian).
func (n *Callout) DefaultTitle() string {
	r, size := utf8.DecodeRuneInString(n.Written)
	if r == utf8.RuneError {
		return "Note"
	}
	return string(unicode.ToUpper(r)) + n.Written[size:]
}

// calloutTypes maps every type and alias Obsidian knows to its canonical
// type.
var calloutTypes = map[string]string{
	"note":     "note",
	"abstract": "abstract", "summary": "abstract", "tldr": "abstract",
	"info": "info",
	"todo": "todo",
	"tip":  "tip", "hint": "tip", "important": "tip",
	"success": "success", "check": "success", "done": "success",
	"question": "question", "help": "question", "faq": "question",
	"warning": "warning", "caution": "warning", "attention": "warning",
	"failure": "failure", "fail": "failure", "missing": "failure",
	"danger": "danger", "error": "danger",
	"bug":     "bug",
	"example": "example",
	"quote":   "quote", "cite": "quote",
}

// CalloutType returns the canonical callout type for a type or alias as
// written, and "note" for types Obsidian does not know.
func CalloutType(written string) string {
	if t, ok := calloutTypes[strings.ToLower(written)]; ok {
		return t
	}
	return "note"
}

type calloutParser struct{}

var _ parser.BlockParser = calloutParser{}

func (calloutParser) Trigger() []byte { return []byte{'>'} }

func (calloutParser) Open(_ ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 || pos >= len(line) || line[pos] != '>' {
		return nil, parser.NoChildren
	}
	i := pos + 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if !bytes.HasPrefix(line[i:], []byte("[!")) {
		return nil, parser.NoChildren
	}
	j := i + 2
	k := j
	for k < len(line) && isCalloutTypeByte(line[k]) {
		k++
	}
	if k == j || k >= len(line) || line[k] != ']' {
		return nil, parser.NoChildren
	}
	c := &Callout{Written: strings.ToLower(string(line[j:k]))}
	c.Canonical = CalloutType(c.Written)
	k++
	if k < len(line) && (line[k] == '+' || line[k] == '-') {
		c.Foldable, c.Open = true, line[k] == '+'
		k++
	}
	end := len(line)
	if end > 0 && line[end-1] == '\n' {
		end--
	}
	for k < end && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	for end > k && (line[end-1] == ' ' || line[end-1] == '\t') {
		end--
	}
	title := &CalloutTitle{}
	if k < end {
		// line may start with padding spaces that are not in the source.
		base := seg.Start - seg.Padding
		title.Lines().Append(text.NewSegment(base+k, base+end))
	}
	c.AppendChild(c, title)
	// The whole first line is the callout's; what follows it is children.
	rest := len(line)
	if rest > 0 && line[rest-1] == '\n' {
		rest--
	}
	reader.Advance(rest)
	return c, parser.HasChildren
}

func isCalloutTypeByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_'
}

// Continue takes lines that start with '>', exactly as goldmark's
// blockquote parser does.
func (calloutParser) Continue(_ ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, _ := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 || pos >= len(line) || line[pos] != '>' {
		return parser.Close
	}
	pos++
	if pos >= len(line) || line[pos] == '\n' {
		reader.Advance(pos)
		return parser.Continue | parser.HasChildren
	}
	reader.Advance(pos)
	if line[pos] == ' ' || line[pos] == '\t' {
		padding := 0
		if line[pos] == '\t' {
			padding = util.TabWidth(reader.LineOffset()) - 1
		}
		reader.AdvanceAndSetPadding(1, padding)
	}
	return parser.Continue | parser.HasChildren
}

func (calloutParser) Close(ast.Node, text.Reader, parser.Context) {}

func (calloutParser) CanInterruptParagraph() bool { return true }

func (calloutParser) CanAcceptIndentedLine() bool { return false }

func (r *nodeRenderer) renderCallout(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*Callout)
	tag := "div"
	if n.Foldable {
		tag = "details"
	}
	if !entering {
		if n.ChildCount() > 1 {
			_, _ = w.WriteString("</div>\n")
		}
		_, _ = w.WriteString("</" + tag + ">\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<" + tag + ` class="callout" data-callout="`)
	_, _ = w.WriteString(n.Canonical)
	_ = w.WriteByte('"')
	if n.Foldable && n.Open {
		_, _ = w.WriteString(" open")
	}
	if n.Attributes() != nil && !inEmbed(w) {
		html.RenderAttributes(w, n, html.GlobalAttributeFilter)
	}
	_, _ = w.WriteString(">\n")
	return ast.WalkContinue, nil
}

func (r *nodeRenderer) renderCalloutTitle(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	c, _ := node.Parent().(*Callout)
	tag := "div"
	if c != nil && c.Foldable {
		tag = "summary"
	}
	if entering {
		_, _ = w.WriteString("<" + tag + ` class="callout-title">`)
		if !node.HasChildren() && c != nil {
			writeEscaped(w, c.DefaultTitle())
		}
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("</" + tag + ">\n")
	if node.NextSibling() != nil {
		_, _ = w.WriteString(`<div class="callout-content">` + "\n")
	}
	return ast.WalkContinue, nil
}
