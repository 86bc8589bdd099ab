package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	wikilink "github.com/abhinav/goldmark-wikilink"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// maxEmbedDepth caps how deeply notes embed notes (A embeds B embeds C…),
// beyond the cycle check: a page stays a page.
const maxEmbedDepth = 4

// RenderHTML renders doc's body as HTML, resolving links through ctx (a nil
// ctx renders every link as plain text). It is safe to call concurrently,
// also on docs that embed each other: goldmark renderers keep no per-call
// state, so ours lives in the writer handed to them (renderState).
func (e *Engine) RenderHTML(w io.Writer, doc *Doc, ctx RenderContext) (err error) {
	if doc == nil || doc.AST == nil {
		return nil
	}
	st := statePool.Get().(*renderState)
	st.Writer.Reset(w)
	st.ctx, st.page, st.cur = ctx, doc, doc
	st.stack = append(st.stack[:0], embedKey(doc, ""))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("markdown: rendering %s: %v", doc.Path, r)
		}
		st.ctx, st.page, st.cur = nil, nil, nil
		st.stack, st.closers = st.stack[:0], st.closers[:0]
		st.Writer.Reset(io.Discard)
		statePool.Put(st)
	}()
	return e.renderer.Render(st, doc.Source, doc.AST)
}

// renderState is the per-call state of one RenderHTML call. goldmark hands
// node renderers only the writer it was given, so the state is the writer:
// it embeds the buffered writer goldmark would have made itself.
type renderState struct {
	*bufio.Writer
	ctx  RenderContext
	page *Doc // the page being written: Href and TagHref are relative to it
	cur  *Doc // the doc whose AST is being walked (differs inside embeds)
	// stack holds the embeds being rendered, outermost first, as
	// "path#anchor" keys; stack[0] is the page itself.
	stack []string
	// closers pairs the end tag of a link with its start tag.
	closers []string
}

var statePool = sync.Pool{New: func() any {
	return &renderState{Writer: bufio.NewWriterSize(io.Discard, 8<<10)}
}}

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
	return st.cur.linkOf[n]
}

func isBroken(t Target) bool { return t.Broken || (t.Path == "" && t.Doc == nil) }

// nodeRenderer renders the Obsidian nodes and replaces goldmark's
// renderers where we resolve links or must escape raw HTML.
type nodeRenderer struct {
	engine *Engine
}

func (r *nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, r.renderHeading)
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
	tag := "p"
	if hasNoteEmbed(node) {
		if node.Attributes() == nil {
			return ast.WalkContinue, nil
		}
		tag = "div"
	}
	if entering {
		_, _ = w.WriteString("<" + tag)
		if node.Attributes() != nil && !inEmbed(w) {
			html.RenderAttributes(w, node, html.ParagraphAttributeFilter)
		}
		_ = w.WriteByte('>')
	} else {
		_, _ = w.WriteString("</" + tag + ">\n")
	}
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

func (r *nodeRenderer) renderLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	st := stateOf(w)
	if !entering {
		if st == nil {
			_, _ = w.WriteString("</a>")
		} else {
			_, _ = w.WriteString(st.pop())
		}
		return ast.WalkContinue, nil
	}
	if l := st.link(n); l != nil {
		t := st.resolve(l)
		switch {
		case t.Plain:
			st.push("")
		case isBroken(t):
			writeBroken(w, l, "")
			st.push("</span>")
		default:
			_, _ = w.WriteString(`<a class="internal" href="`)
			writeEscaped(w, st.href(t))
			_, _ = w.WriteString(`" data-path="`)
			writeEscaped(w, t.Path)
			_ = w.WriteByte('"')
			writeTitle(w, n.Title)
			_ = w.WriteByte('>')
			st.push("</a>")
		}
		return ast.WalkContinue, nil
	}
	dest := linkDestination(n.Destination)
	_, _ = w.WriteString("<a ")
	if hasScheme(string(dest)) && !isDangerousURL(string(dest)) {
		_, _ = w.WriteString(`class="external" `)
	}
	_, _ = w.WriteString(`href="`)
	writeURL(w, dest)
	_ = w.WriteByte('"')
	writeTitle(w, n.Title)
	_ = w.WriteByte('>')
	if st != nil {
		st.push("</a>")
	}
	return ast.WalkContinue, nil
}

// writeURL writes a destination (already unescaped, see linkDestination)
// as an attribute value: unsafe schemes become "#", the rest is
// percent-escaped as goldmark does and then HTML-escaped.
func writeURL(w util.BufWriter, dest []byte) {
	if isDangerousURL(string(dest)) {
		_ = w.WriteByte('#')
		return
	}
	html.DefaultWriter.RawWrite(w, util.URLEscape(dest, false))
}

func writeTitle(w util.BufWriter, title []byte) {
	if len(title) == 0 {
		return
	}
	_, _ = w.WriteString(` title="`)
	html.DefaultWriter.Write(w, title)
	_ = w.WriteByte('"')
}

// writeBroken opens the span a broken link renders as; text follows.
func writeBroken(w util.BufWriter, l *Link, what string) {
	_, _ = w.WriteString(`<span class="broken-link" title="`)
	switch {
	case what != "":
		writeEscaped(w, what)
	case l.Target == "":
		writeEscaped(w, "No heading “"+l.Fragment+"” in this note")
	case l.Embed && isAttachment(l.Target):
		writeEscaped(w, "No file named “"+l.Target+"”")
	default:
		writeEscaped(w, "No note named “"+l.Target+"”")
	}
	_, _ = w.WriteString(`">`)
}

func (r *nodeRenderer) renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	st := stateOf(w)
	alt := inlineText(n, source)
	var src string
	if l := st.link(n); l != nil {
		t := st.resolve(l)
		switch {
		case t.Plain:
			writeEscaped(w, alt)
			return ast.WalkSkipChildren, nil
		case isBroken(t):
			writeBroken(w, l, "No file named “"+l.Target+"”")
			writeEscaped(w, alt)
			_, _ = w.WriteString("</span>")
			return ast.WalkSkipChildren, nil
		}
		src = st.href(t)
	} else {
		dest := linkDestination(n.Destination)
		if isDangerousURL(string(dest)) {
			writeEscaped(w, alt)
			return ast.WalkSkipChildren, nil
		}
		src = string(util.URLEscape(dest, false))
	}
	_, _ = w.WriteString(`<img src="`)
	writeEscaped(w, src)
	_, _ = w.WriteString(`" alt="`)
	writeEscaped(w, alt)
	_ = w.WriteByte('"')
	writeTitle(w, n.Title)
	_, _ = w.WriteString(` loading="lazy">`)
	return ast.WalkSkipChildren, nil
}

func (r *nodeRenderer) renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url := n.URL(source)
	label := n.Label(source)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	if isDangerousURL(string(url)) {
		_, _ = w.WriteString(`<a href="#">`)
	} else {
		_, _ = w.WriteString(`<a class="external" href="`)
		writeURL(w, url)
		_, _ = w.WriteString(`">`)
	}
	html.DefaultWriter.RawWrite(w, label)
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
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

func (r *nodeRenderer) renderEmbed(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Embed)
	st := stateOf(w)
	l := st.link(n)
	if l == nil {
		writeEscaped(w, obsidianDisplay(n.Target, n.Fragment))
		return ast.WalkSkipChildren, nil
	}
	t := st.resolve(l)
	switch {
	case t.Plain:
		writeEscaped(w, l.Display)
		return ast.WalkSkipChildren, nil
	case isBroken(t):
		writeBroken(w, l, "")
		writeEscaped(w, l.Display)
		_, _ = w.WriteString("</span>")
		return ast.WalkSkipChildren, nil
	}
	kind := attachmentKind(t.Path)
	if kind == "" && t.Doc == nil {
		kind = attachmentKind(l.Target)
	}
	href := st.href(t)
	switch {
	case kind == "image":
		_, _ = w.WriteString(`<img src="`)
		writeEscaped(w, href)
		_, _ = w.WriteString(`" alt="`)
		writeEscaped(w, l.Display)
		_ = w.WriteByte('"')
		writeSize(w, n.Width, n.Height)
		_, _ = w.WriteString(` loading="lazy">`)
	case kind == "audio":
		_, _ = w.WriteString(`<audio controls preload="metadata" src="`)
		writeEscaped(w, href)
		_, _ = w.WriteString(`"></audio>`)
	case kind == "video":
		_, _ = w.WriteString(`<video controls preload="metadata" src="`)
		writeEscaped(w, href)
		_ = w.WriteByte('"')
		writeSize(w, n.Width, n.Height)
		_, _ = w.WriteString(`></video>`)
	case t.Doc == nil:
		// A PDF or any other file: link to it.
		writeInternal(w, href, t.Path, l.Display)
	default:
		if err := r.embedNote(st, l, t, href); err != nil {
			return ast.WalkStop, err
		}
	}
	return ast.WalkSkipChildren, nil
}

func writeSize(w util.BufWriter, width, height int) {
	if width > 0 {
		_, _ = w.WriteString(` width="` + strconv.Itoa(width) + `"`)
	}
	if height > 0 {
		_, _ = w.WriteString(` height="` + strconv.Itoa(height) + `"`)
	}
}

func embedKey(d *Doc, anchor string) string {
	return d.Path + "#" + strings.ToLower(anchor)
}

// embedNote transcludes the note (or the section or block) t names: the
// target's own AST rendered with its own Source, through the same
// renderer and state, so links inside resolve from the target and URLs
// stay relative to the page.
func (r *nodeRenderer) embedNote(st *renderState, l *Link, t Target, href string) error {
	target := t.Doc
	anchor := t.Anchor
	if anchor == "" && l.Fragment != "" {
		anchor, _ = target.Anchor(l.Fragment)
	}
	openBox := func(class string) {
		_, _ = st.WriteString(`<div class="` + class + `" data-path="`)
		writeEscaped(st, t.Path)
		_, _ = st.WriteString(`"><div class="embed-title">`)
		writeInternal(st, href, t.Path, target.Title)
		_, _ = st.WriteString(`</div>`)
	}
	key := embedKey(target, anchor)
	if slices.Contains(st.stack, key) {
		openBox("embed embed-cycle")
		_, _ = st.WriteString(`<div class="embed-content"><p>Embed cycle: this note is already being shown here.</p></div></div>` + "\n")
		return nil
	}
	if len(st.stack) > maxEmbedDepth {
		openBox("embed embed-too-deep")
		_, _ = st.WriteString(`<div class="embed-content"><p>Embeds are nested too deeply to show this one.</p></div></div>` + "\n")
		return nil
	}
	nodes := target.section(anchor)
	if l.Fragment != "" && nodes == nil {
		writeBroken(st, l, "No section “"+l.Fragment+"” in “"+target.Title+"”")
		writeEscaped(st, l.Display)
		_, _ = st.WriteString("</span>")
		return nil
	}
	openBox("embed")
	_, _ = st.WriteString(`<div class="embed-content">` + "\n")
	st.stack = append(st.stack, key)
	prev := st.cur
	st.cur = target
	var err error
	if nodes == nil {
		err = r.engine.renderer.Render(st, target.Source, target.AST)
	} else {
		for _, n := range nodes {
			if err = r.renderBlock(st, target.Source, n); err != nil {
				break
			}
		}
	}
	st.cur = prev
	st.stack = st.stack[:len(st.stack)-1]
	_, _ = st.WriteString("</div></div>\n")
	return err
}

// renderBlock renders one block of an embedded section; a list item alone
// gets its list element around it.
func (r *nodeRenderer) renderBlock(st *renderState, source []byte, n ast.Node) error {
	if li, ok := n.(*ast.ListItem); ok {
		tag := "ul"
		if list, ok := li.Parent().(*ast.List); ok && list.IsOrdered() {
			tag = "ol"
		}
		_, _ = st.WriteString("<" + tag + ">\n")
		if err := r.engine.renderer.Render(st, source, n); err != nil {
			return err
		}
		_, _ = st.WriteString("</" + tag + ">\n")
		return nil
	}
	return r.engine.renderer.Render(st, source, n)
}

// section returns the blocks an anchor names: a heading and everything up
// to the next heading of the same or a higher level, or the block carrying
// a block id. It returns nil for the whole note (anchor "") or when the
// anchor is not found.
func (d *Doc) section(anchor string) []ast.Node {
	if anchor == "" {
		return nil
	}
	if id, ok := strings.CutPrefix(anchor, "^"); ok {
		if b, ok := d.blockAt[strings.ToLower(id)]; ok && b.node != nil {
			return []ast.Node{b.node}
		}
		return nil
	}
	for i, h := range d.Headings {
		if h.ID != anchor || i >= len(d.headingAt) {
			continue
		}
		start := d.headingAt[i]
		nodes := []ast.Node{start}
		for n := start.NextSibling(); n != nil; n = n.NextSibling() {
			if hn, ok := n.(*ast.Heading); ok && hn.Level <= h.Level {
				break
			}
			nodes = append(nodes, n)
		}
		return nodes
	}
	return nil
}

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
