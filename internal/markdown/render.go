package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	wikilink "github.com/abhinav/goldmark-wikilink"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// maxEmbedDepth caps how deeply notes embed notes (A embeds B embeds C…),
// beyond the cycle check: a page stays a page.
const maxEmbedDepth = 4

// RenderHTML renders doc's body as HTML, resolving links through ctx (a nil
// ctx renders every link as plain text). It is safe to call concurrently,
// also on docs that embed each other: goldmark renderers keep no per-call
// state, so ours lives in the writer handed to them (renderState).
func (e *Engine) RenderHTML(w io.Writer, doc *Doc, ctx RenderContext) error {
	return e.render(w, doc, e.body(doc), ctx)
}

// RenderTitle renders only the heading a note starts with, as RenderHTML
// would, when that heading is a level-1 ATX heading whose line reads the
// same alone as within the note: one without '[' or '^' (reference links,
// footnotes and block ids depend on the rest of the note). ok is false
// when it does not apply. It spares parsing a whole note whose page shows
// only its title: a claim's page shows the claim card instead of the
// generated note.
func (e *Engine) RenderTitle(w io.Writer, doc *Doc, ctx RenderContext) (ok bool, err error) {
	if doc == nil || !doc.hasBody() {
		return false, nil
	}
	line, _, _ := bytes.Cut(doc.Source, []byte{'\n'})
	if !bytes.HasPrefix(line, []byte("# ")) || bytes.ContainsAny(line, "[^") {
		return false, nil
	}
	pc := parser.NewContext()
	scratch := &Doc{Path: doc.Path, Source: line, BodyLine: doc.BodyLine, lineStarts: doc.lineStarts}
	syn := scratch.index(e.parser.Parse(text.NewReader(line), parser.WithContext(pc)), pc)
	return true, e.render(w, doc, syn, ctx)
}

// render writes syn, a parse of doc's Source (or of its start), as HTML.
func (e *Engine) render(w io.Writer, doc *Doc, syn *syntax, ctx RenderContext) (err error) {
	if syn == nil {
		return nil
	}
	st := e.states.Get().(*renderState)
	st.Writer.Reset(w)
	st.ctx, st.page, st.cur, st.syn = ctx, doc, doc, syn
	st.stack = append(st.stack[:0], embedKey(doc, ""))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("markdown: rendering %s: %v", doc.Path, r)
		}
		st.ctx, st.page, st.cur, st.syn = nil, nil, nil, nil
		st.stack, st.closers = st.stack[:0], st.closers[:0]
		st.Writer.Reset(io.Discard)
		e.states.Put(st)
	}()
	return e.renderer.Render(st, doc.Source, syn.root)
}

// renderState is the per-call state of one RenderHTML call. goldmark hands
// node renderers only the writer it was given, so the state is the writer:
// it embeds the buffered writer goldmark would have made itself.
type renderState struct {
	*bufio.Writer
	ctx  RenderContext
	page *Doc    // the page being written: Href and TagHref are relative to it
	cur  *Doc    // the doc whose AST is being walked (differs inside embeds)
	syn  *syntax // cur's parsed body
	// stack holds the embeds being rendered, outermost first, as
	// "path#anchor" keys; stack[0] is the page itself.
	stack []string
	// closers pairs the end tag of a link with its start tag.
	closers []string
}

func newRenderState() any {
	return &renderState{Writer: bufio.NewWriterSize(io.Discard, 8<<10)}
}

// stateOf returns the per-call state, or nil when our node renderers run
// under some other goldmark renderer call.
func stateOf(w util.BufWriter) *renderState {
	st, _ := w.(*renderState)
	return st
}

// inEmbed reports whether we are rendering a note embedded in the page;
// ids are then left out so the page never holds two of the same.
func inEmbed(w util.BufWriter) bool {
	st := stateOf(w)
	return st != nil && len(st.stack) > 1
}

func (st *renderState) resolve(l *Link) Target {
	if st.ctx == nil {
		return Target{Plain: true}
	}
	return st.ctx.Resolve(st.cur, l)
}

func (st *renderState) href(t Target) string {
	return safeHref(st.ctx.Href(st.page, t))
}

func (st *renderState) push(closer string) { st.closers = append(st.closers, closer) }

func (st *renderState) pop() string {
	if len(st.closers) == 0 {
		return ""
	}
	c := st.closers[len(st.closers)-1]
	st.closers = st.closers[:len(st.closers)-1]
	return c
}

func (st *renderState) link(n ast.Node) *Link {
	if st == nil || st.cur == nil {
		return nil
	}
	if i, ok := st.syn.linkAt[n]; ok {
		return st.cur.Links[i]
	}
	return nil
}

func isBroken(t Target) bool { return t.Broken || (t.Path == "" && t.Doc == nil) }

// nodeRenderer renders the Obsidian nodes and replaces goldmark's
// renderers where we resolve links or must escape raw HTML.
type nodeRenderer struct {
	engine *Engine
}

func (r *nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, r.renderHeading)
	reg.Register(ast.KindFencedCodeBlock, r.renderFencedCodeBlock)
	reg.Register(ast.KindParagraph, r.renderParagraph)
	reg.Register(ast.KindLink, r.renderLink)
	reg.Register(ast.KindImage, r.renderImage)
	reg.Register(ast.KindAutoLink, r.renderAutoLink)
	reg.Register(ast.KindRawHTML, r.renderRawHTML)
	reg.Register(ast.KindHTMLBlock, r.renderHTMLBlock)
	reg.Register(wikilink.Kind, r.renderWikilink)
	reg.Register(KindEmbed, r.renderEmbed)
	reg.Register(KindCallout, r.renderCallout)
	reg.Register(KindCalloutTitle, r.renderCalloutTitle)
	reg.Register(KindMark, r.renderMark)
	reg.Register(KindTag, r.renderTag)
	reg.Register(KindBlockAnchor, r.renderBlockAnchor)
}

func (r *nodeRenderer) renderHeading(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	if entering {
		_, _ = w.WriteString("<h")
		_ = w.WriteByte("0123456"[min(max(n.Level, 1), 6)])
		if n.Attributes() != nil && !inEmbed(w) {
			html.RenderAttributes(w, n, html.HeadingAttributeFilter)
		}
		_ = w.WriteByte('>')
	} else {
		_, _ = w.WriteString("</h")
		_ = w.WriteByte("0123456"[min(max(n.Level, 1), 6)])
		_, _ = w.WriteString(">\n")
	}
	return ast.WalkContinue, nil
}

// renderParagraph is goldmark's, except that a paragraph holding an
// embedded note loses its <p>: a <p> cannot contain the embed's <div>.
func (r *nodeRenderer) renderParagraph(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	open, end := "<p", "</p>\n"
	if hasNoteEmbed(node) {
		if node.Attributes() == nil || inEmbed(w) {
			return ast.WalkContinue, nil
		}
		open, end = "<div", "</div>\n"
	}
	if !entering {
		_, _ = w.WriteString(end)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(open)
	if node.Attributes() != nil && !inEmbed(w) {
		html.RenderAttributes(w, node, html.ParagraphAttributeFilter)
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

func hasNoteEmbed(p ast.Node) bool {
	for c := p.FirstChild(); c != nil; c = c.NextSibling() {
		if e, ok := c.(*Embed); ok && !e.File {
			return true
		}
	}
	return false
}

// writeEscaped writes s with &, <, > and " escaped: safe as element text
// and as a double-quoted attribute value.
func writeEscaped(w util.BufWriter, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&quot;"
		default:
			continue
		}
		_, _ = w.WriteString(s[last:i])
		_, _ = w.WriteString(esc)
		last = i + 1
	}
	_, _ = w.WriteString(s[last:])
}

// writeAttr writes an attribute value; the same escaping as text.
func writeAttr(w util.BufWriter, s string) { writeEscaped(w, s) }
