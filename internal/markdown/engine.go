package markdown

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"sync"
	"unsafe"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/dreamwiki/dreamwiki/internal/diag"
)

// Engine parses and renders notes. It keeps no per-note state, so one
// Engine serves a whole build from many goroutines at once.
type Engine struct {
	parser   parser.Parser
	renderer renderer.Renderer
	// states recycles the per-call render state (and its buffer).
	states sync.Pool
	// code highlights code blocks; it keeps no per-call state (its style
	// cache is locked), so all renders share it.
	code *chromahtml.Formatter
}

// New returns an Engine with GFM (tables, strikethrough, task lists,
// linkify), footnotes, code highlighting and the Obsidian dialect. It is
// safe for concurrent use.
func New() *Engine {
	e := &Engine{
		states: sync.Pool{New: newRenderState},
		code:   chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true)),
	}
	// Our own parser list rather than goldmark's default: the link parser
	// is wrapped so Markdown links remember where they end in the source
	// (RewriteLinks needs whole spans), and goldmark's heading-id
	// generation is left off because ids are made from the rendered
	// heading text after inline parsing (see collect.go).
	p := parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(
			util.Prioritized(parser.NewCodeSpanParser(), 100),
			util.Prioritized(&linkSpanParser{inner: parser.NewLinkParser()}, 200),
			util.Prioritized(parser.NewAutoLinkParser(), 300),
			util.Prioritized(parser.NewRawHTMLParser(), 400),
			util.Prioritized(parser.NewEmphasisParser(), 500),
		),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
	r := renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(html.NewRenderer(), 1000)))
	md := goldmark.New(
		goldmark.WithParser(p),
		goldmark.WithRenderer(r),
		goldmark.WithExtensions(
			extension.Table,
			extension.Strikethrough,
			extension.TaskList,
			extension.Linkify,
			extension.Footnote,
			&obsidian{engine: e},
		),
		// Obsidian shows a single newline as a line break (its default
		// "strict line breaks: off"), and memory notes rely on it:
		// "Rule: …\nWhy: …\nHow: …" must not run together.
		goldmark.WithRendererOptions(html.WithHardWraps()),
	)
	e.parser = md.Parser()
	e.renderer = md.Renderer()
	return e
}

// obsidian installs the Obsidian dialect: each construct lives in its own
// file with its parser, node, renderer and transformer.
type obsidian struct{ engine *Engine }

func (o *obsidian) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			// Before the blockquote parser (800): "> [!type]" opens a callout.
			util.Prioritized(calloutParser{}, 799),
		),
		parser.WithInlineParsers(
			// Before goldmark's link parser (200), which also wants '[' and '!'.
			util.Prioritized(wikilinkParser{}, 199),
			util.Prioritized(embedParser{}, 199),
			util.Prioritized(markParser{}, 500),
			util.Prioritized(tagParser{}, 600),
		),
		parser.WithASTTransformers(
			util.Prioritized(blockIDTransformer{}, 100),
		),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(
		// Lower numbers win: these replace goldmark's renderers for links,
		// images, raw HTML, headings and paragraphs.
		util.Prioritized(&nodeRenderer{engine: o.engine}, 100),
	))
}

// Parse parses one note. path is its vault path (forward slashes, with
// extension); src is the whole file, which the Doc keeps and Parse may
// change: the caller must not use it afterwards (a note's text is most of
// a build's memory, so it is not copied). Parse never fails: problems
// become diagnostics on the Doc.
func (e *Engine) Parse(path string, src []byte) *Doc { return e.parse(path, src, false) }

// ParseText is Parse for a note held in a string. The Doc's Source shares
// the string's bytes: notes' texts are a large part of a build's live
// memory, and a vault keeps its inputs' texts anyway (a copy costs a
// 10,000-note build about 55 MB of peak heap, 14%). The rewrites Parse
// makes in place copy shared bytes before their first write, and
// FuzzParse checks that parsing and rendering leave the string as it was.
func (e *Engine) ParseText(path, src string) *Doc {
	return e.parse(path, unsafe.Slice(unsafe.StringData(src), len(src)), true)
}

// parse parses src; shared says the bytes are not Parse's to change (they
// are a string's), so the rewrites copy them before writing.
func (e *Engine) parse(path string, src []byte, shared bool) (d *Doc) {
	d = &Doc{Path: path, BodyLine: 1}
	defer func() {
		// goldmark and yaml are fuzzed upstream and our code is fuzzed
		// here; this is the last line of defence so that one odd note can
		// never take a whole build down.
		if r := recover(); r != nil {
			d.syn, d.keep = &syntax{root: ast.NewDocument()}, true
			d.Diagnostics.Add(diag.Diagnostic{Severity: diag.Error, Code: "internal", File: path, Line: 1,
				Message: fmt.Sprintf("the Markdown engine failed on this note (%v)", r),
				Hint:    "please report this note as a bug; it was rendered empty"})
		}
	}()

	buf, shared := normalizeNewlines(src, shared)
	fm := splitFrontMatter(buf)
	body := buf
	switch fm.state {
	case frontMatterClosed:
		d.Meta = parseFrontMatter(fm.yaml, path, &d.Diagnostics)
		d.BodyLine = fm.bodyLine
		body = buf[fm.bodyStart:]
	case frontMatterUnclosed:
		d.Diagnostics.Add(diag.Diagnostic{Severity: diag.Warning, Code: "frontmatter", File: path, Line: 1,
			Message: "front matter is not closed (no line with --- after the opening ---)",
			Hint:    "the note was rendered as if it had none"})
	}
	d.Source = stripComments(body, shared)
	d.lineStarts = lineStarts(d.Source)

	pc := parser.NewContext()
	d.syn = d.index(e.parser.Parse(text.NewReader(d.Source), parser.WithContext(pc)), pc)
	d.Title = d.title()
	return d
}

// Release drops the note's parsed body and keeps the rest: title,
// headings, links, tags, block ids and plain text. A build parses every
// note before it renders any (links resolve across notes), and the ASTs of
// 10,000 notes were most of its memory. Rendering a released Doc parses
// its Source again: at 10,000 notes that costs a few percent more CPU and
// saves about 600 MB of peak memory. Call it before the Doc is shared
// between goroutines.
func (d *Doc) Release() {
	if d == nil || d.syn == nil || d.keep {
		return
	}
	d.plain = d.PlainText()
	d.syn, d.released = nil, true
}

// body returns the syntax to render d with, parsing Source again when
// Release dropped it; nil for a Doc that was never parsed. A syntax parsed
// again belongs to the caller alone, so concurrent renders share nothing.
func (e *Engine) body(d *Doc) *syntax {
	if d == nil {
		return nil
	}
	if !d.released {
		return d.syn
	}
	pc := parser.NewContext()
	root := e.parser.Parse(text.NewReader(d.Source), parser.WithContext(pc))
	if syn := d.reindex(root, pc); syn != nil {
		return syn
	}
	// A scratch Doc indexes the new tree. Parsing is deterministic, so its
	// links come out in d.Links's order and the syntax's link indexes
	// point at d's own Links, the ones the vault resolved.
	scratch := &Doc{Path: d.Path, Source: d.Source, BodyLine: d.BodyLine, lineStarts: d.lineStarts}
	return scratch.index(root, pc)
}

// hasBody reports whether d was parsed (and so can be rendered).
func (d *Doc) hasBody() bool { return d.syn != nil || d.released }

// title picks the front matter title, else the first H1, else the file name.
func (d *Doc) title() string {
	if t := strings.TrimSpace(d.Meta.Title); t != "" {
		return t
	}
	for _, h := range d.Headings {
		if h.Level == 1 && h.Text != "" {
			return h.Text
		}
	}
	base := path.Base(d.Path)
	if ext := path.Ext(base); strings.EqualFold(ext, ".md") {
		base = base[:len(base)-len(ext)]
	}
	if base == "." || base == "/" {
		return ""
	}
	return base
}

// line returns the original-file line of a byte offset in Source.
func (d *Doc) line(off int) int {
	// Binary search: the largest i with lineStarts[i] <= off.
	lo, hi := 0, len(d.lineStarts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.lineStarts[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		lo = 1
	}
	return d.BodyLine + lo - 1
}

func lineStarts(src []byte) []int {
	n := 1
	for _, c := range src {
		if c == '\n' {
			n++
		}
	}
	starts := make([]int, 0, n)
	starts = append(starts, 0)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// normalizeNewlines turns "\r\n" and lone "\r" in src into "\n", in
// place (in a copy when src is shared, which it then no longer is), and
// drops a leading UTF-8 byte order mark. Every line ending stays one line
// ending, so line numbers are unchanged.
func normalizeNewlines(src []byte, shared bool) ([]byte, bool) {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		src = src[3:]
	}
	if bytes.IndexByte(src, '\r') < 0 {
		return src, shared
	}
	if shared {
		src = bytes.Clone(src)
	}
	out := src[:0] // writes never overtake reads
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\r' {
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		out = append(out, c)
	}
	return out, false
}
