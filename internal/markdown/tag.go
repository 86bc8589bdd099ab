package markdown

import (
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Tags: #tag, #nested/tag, #tag-with_dash, #日本語, #café.
//
// As in Obsidian, a tag starts after whitespace or at the start of a line,
// is made of letters, digits, '_', '-' and '/', and needs at least one
// letter ("#1984" and "#2024-04" are not tags). Code, URLs and headings
// never produce tags: code spans and autolinks are parsed before '#' is
// seen, linkify consumes bare URLs whole, and "# Heading" is a block.

// KindTag is the node kind of Tag.
var KindTag = ast.NewNodeKind("Tag")

// Tag is an inline #tag.
type Tag struct {
	ast.BaseInline
	// Name is the tag without '#'.
	Name string
}

// Kind implements ast.Node.
func (n *Tag) Kind() ast.NodeKind { return KindTag }

// Dump implements ast.Node.
func (n *Tag) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name}, nil)
}

type tagParser struct{}

var _ parser.InlineParser = tagParser{}

func (tagParser) Trigger() []byte { return []byte{'#'} }

func (tagParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	if before := block.PrecendingCharacter(); before != '\n' && !unicode.IsSpace(before) {
		return nil
	}
	line, _ := block.PeekLine()
	n := tagLength(line[1:])
	if n == 0 {
		return nil
	}
	name := string(line[1 : 1+n])
	block.Advance(1 + n)
	return &Tag{Name: name}
}

// tagLength returns how many bytes of b form a tag name, or 0 when b does
// not start with one.
func tagLength(b []byte) int {
	n, letters := 0, false
	for n < len(b) {
		r, size := utf8.DecodeRune(b[n:])
		switch {
		case r == '_' || r == '-' || r == '/':
		case unicode.IsLetter(r) || unicode.IsMark(r):
			letters = true
		case unicode.IsDigit(r) || unicode.IsNumber(r):
		default:
			goto done
		}
		n += size
	}
done:
	for n > 0 && b[n-1] == '/' { // "#a/" is the tag "a"
		n--
	}
	if !letters {
		return 0
	}
	return n
}

func (r *nodeRenderer) renderTag(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Tag)
	st := stateOf(w)
	// A tag inside a link's text cannot be a link itself.
	if st == nil || st.ctx == nil || insideLink(n) {
		_, _ = w.WriteString(`<span class="tag">#`)
		writeEscaped(w, n.Name)
		_, _ = w.WriteString("</span>")
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<a class="tag" href="`)
	writeAttr(w, safeHref(st.ctx.TagHref(st.page, n.Name)))
	_, _ = w.WriteString(`">#`)
	writeEscaped(w, n.Name)
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}

func insideLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case ast.KindLink, ast.KindAutoLink:
			return true
		}
	}
	return false
}
