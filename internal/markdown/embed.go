package markdown

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Embeds: ![[note]], ![[note#Heading]], ![[note#^block]],
// ![[image.png]], ![[image.png|300]], ![[image.png|300x200]],
// ![[image.png|alt text|300]].
//
// A note embed is transcluded at render time (renderEmbed in render.go):
// the target Doc's own AST, rendered with its own Source, inside the
// page. An embed of a file with a known attachment extension (images,
// audio, video, PDF) renders as that file.

// KindEmbed is the node kind of Embed.
var KindEmbed = ast.NewNodeKind("Embed")

// Embed is an Obsidian embed, ![[target#fragment|display]].
type Embed struct {
	ast.BaseInline
	// Target and Fragment as for Link; Display is the non-size part after
	// '|' ("" when absent).
	Target, Fragment, Display string
	Width, Height             int
	// File is true for attachments (by extension) rather than notes.
	File bool
	// Segment spans the whole "![[…]]" in Source.
	Segment text.Segment
}

// Kind implements ast.Node.
func (n *Embed) Kind() ast.NodeKind { return KindEmbed }

// Dump implements ast.Node.
func (n *Embed) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{
		"Target": n.Target, "Fragment": n.Fragment, "Display": n.Display,
		"Width": strconv.Itoa(n.Width), "Height": strconv.Itoa(n.Height),
	}, nil)
}

type embedParser struct{}

var _ parser.InlineParser = embedParser{}

func (embedParser) Trigger() []byte { return []byte{'!'} }

func (embedParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) < 5 || line[1] != '[' || line[2] != '[' {
		return nil
	}
	stop := closingBrackets(line, 3) - 3
	if stop < 0 {
		return nil // must close on the same line, as wikilinks do
	}
	inner := string(line[3 : 3+stop])
	target, rest, hasRest := strings.Cut(inner, "|")
	target = strings.TrimSuffix(target, `\`) // "\|" in a table cell
	n := &Embed{}
	n.Target, n.Fragment, _ = strings.Cut(target, "#")
	n.Target = strings.TrimSpace(n.Target)
	n.Fragment = strings.TrimSpace(n.Fragment)
	if n.Target == "" && n.Fragment == "" {
		return nil
	}
	if hasRest {
		for part := range strings.SplitSeq(rest, "|") {
			part = strings.TrimSpace(part)
			if w, h, ok := parseSize(part); ok && n.Width == 0 {
				n.Width, n.Height = w, h
			} else if n.Display == "" {
				n.Display = part
			}
		}
	}
	n.File = isAttachment(n.Target)
	n.Segment = text.NewSegment(seg.Start, seg.Start+3+stop+2)
	block.Advance(3 + stop + 2)
	return n
}

// parseSize reads "300" or "300x200".
func parseSize(s string) (w, h int, ok bool) {
	ws, hs, two := strings.Cut(s, "x")
	w, err := strconv.Atoi(ws)
	if err != nil || w <= 0 || ws[0] == '+' {
		return 0, 0, false
	}
	if two {
		h, err = strconv.Atoi(hs)
		if err != nil || h <= 0 || hs[0] == '+' {
			return 0, 0, false
		}
	}
	return w, h, true
}

// AttachmentKind classifies a file by its extension the way embeds do:
// "image", "audio", "video", "pdf", or "" for notes and anything else.
func AttachmentKind(name string) string {
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".avif", ".ico", ".tif", ".tiff":
		return "image"
	case ".mp3", ".wav", ".m4a", ".ogg", ".flac", ".opus":
		return "audio"
	case ".mp4", ".webm", ".ogv", ".mov", ".mkv":
		return "video"
	case ".pdf":
		return "pdf"
	}
	return ""
}

func isAttachment(name string) bool { return AttachmentKind(name) != "" }

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
	kind := AttachmentKind(t.Path)
	if kind == "" && t.Doc == nil {
		kind = AttachmentKind(l.Target)
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
	case t.Doc == nil || !t.Doc.hasBody():
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
	syn := r.engine.body(target)
	nodes := syn.section(target, anchor)
	if l.Fragment != "" && nodes == nil {
		writeBroken(st, l, "No section “"+l.Fragment+"” in “"+target.Title+"”")
		writeEscaped(st, l.Display)
		_, _ = st.WriteString("</span>")
		return nil
	}
	openBox("embed")
	_, _ = st.WriteString(`<div class="embed-content">` + "\n")
	st.stack = append(st.stack, key)
	prev, prevSyn := st.cur, st.syn
	st.cur, st.syn = target, syn
	var err error
	if nodes == nil {
		err = r.engine.renderer.Render(st, target.Source, syn.root)
	} else {
		for _, n := range nodes {
			if err = r.renderBlock(st, target.Source, n); err != nil {
				break
			}
		}
	}
	st.cur, st.syn = prev, prevSyn
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
func (s *syntax) section(d *Doc, anchor string) []ast.Node {
	if anchor == "" {
		return nil
	}
	if id, ok := strings.CutPrefix(anchor, "^"); ok {
		if b := s.blockAt[strings.ToLower(id)]; b != nil {
			return []ast.Node{b}
		}
		return nil
	}
	for i, h := range d.Headings {
		if h.ID != anchor || i >= len(s.headingAt) {
			continue
		}
		start := s.headingAt[i]
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
