package workspace

import (
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// This file parses the entries of MEMORY.md, L2 topic files and archive
// files: every shape DESIGN 3 lists, often mixed in one file.

// srcLine is one line of a file with its 1-based number.
type srcLine struct {
	n    int
	text string
	item bool // a nested list item: joined to the text before with "; "
}

// entryBuilder gathers the lines of one entry while the file is scanned.
type entryBuilder struct {
	shape      EntryShape
	section    *Section
	path       string // section path
	start, end int
	raw        []string
	content    []srcLine // lines with block markers removed
	pending    []srcLine // comment lines written just above the entry
	listIndent int       // content column of a list item
	blank      bool      // a blank line follows the last line so far
	task       byte      // ' ' or 'x' for task items
	title      string    // the bold title line, inner text
	titled     bool      // the title carries a type tag or a date: it heads its details
	byRef      bool      // its date is a partial date resolved against the parse's ref
	details    int       // detail lines under a bold title
	quote      bool      // a blockquote paragraph
	cells      []string
	columns    []string
}

func (b *entryBuilder) add(n int, raw, content string) {
	b.raw = append(b.raw, raw)
	b.end = n
	b.blank = false
	b.content = append(b.content, srcLine{n: n, text: content})
}

// addItem adds a nested list item.
func (b *entryBuilder) addItem(n int, raw, content string) {
	b.add(n, raw, content)
	b.content[len(b.content)-1].item = true
}

// entryParser scans lines into sections of entries.
type entryParser struct {
	file  string
	ref   time.Time // date partial dates are resolved against
	byRef bool      // an entry's date was resolved against ref
	skip  map[int]bool
	stack sectionStack

	sections []*Section
	cur      *Section
	builders []*entryBuilder
	b        *entryBuilder // the open entry
	last     *entryBuilder // the entry closed last
	pending  []srcLine

	fence        mdline.Fence
	fenceInEntry bool
	inComment    bool
	comment      []srcLine
	inTable      bool
	tableCols    []string

	line entryLine // the line being handled, kept here to spare an allocation per file
}

// parseEntries parses a whole file into sections. ref is the date that
// partial dates ("04-27") are resolved against; skip lists lines that are
// not entries (a size header).
func parseEntries(file, content string, ref time.Time, skip map[int]bool) []*Section {
	s, _ := parseEntriesRef(file, content, ref, skip)
	return s
}

// parseEntriesRef is parseEntries, also reporting whether an entry's date
// was resolved against ref: a parse against another ref gives the same
// entries when none was.
func parseEntriesRef(file, content string, ref time.Time, skip map[int]bool) ([]*Section, bool) {
	lines := mdline.Split(content)
	start := mdline.FrontMatterEnd(lines)
	return parseEntryLinesRef(file, lines[start:], start+1, ref, skip)
}

// parseEntryLines parses lines, the first of which is line first of file.
func parseEntryLines(file string, lines []string, first int, ref time.Time, skip map[int]bool) []*Section {
	s, _ := parseEntryLinesRef(file, lines, first, ref, skip)
	return s
}

// parseEntryLinesRef is parseEntryLines, also reporting whether an
// entry's date was resolved against ref.
func parseEntryLinesRef(file string, lines []string, first int, ref time.Time, skip map[int]bool) ([]*Section, bool) {
	p := &entryParser{file: file, ref: ref, skip: skip}
	p.cur = &Section{}
	p.sections = []*Section{p.cur}
	l := &p.line
	for i := 0; i < len(lines); i++ {
		n := first + i
		if p.skip[n] {
			p.close()
			continue
		}
		var next string
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		*l = entryLine{n: n, raw: lines[i], next: next}
		var off int
		l.width, off = mdline.Indent(l.raw)
		l.body = l.raw[off:]
		l.trim = strings.TrimRight(l.body, " \t")
		for _, h := range lineHandlers {
			if h.take(p, l) {
				break
			}
		}
		if l.skipNext {
			i++ // the line after was consumed (a table header separator)
		}
	}
	p.close()
	s := p.finish()
	return s, p.byRef
}

// entryLine is one line as the handlers see it.
type entryLine struct {
	n     int    // 1-based line number in the file
	raw   string // the line as written
	next  string // the line after it ("" after the last)
	width int    // the width of its indentation
	body  string // raw without its indentation
	trim  string // body without trailing blanks
	// skipNext is set by a handler that took the next line too.
	skipNext bool

	kvRead     bool // kv and annotation below are set
	kv         bool // a "Key: value" line
	annotation bool // a key-value line that annotates the entry above
}

// lineHandler takes one kind of line: it reports whether it took the line,
// or leaves it to the handlers after it (having possibly closed the open
// entry).
type lineHandler struct {
	name string // the kind of line, as DESIGN 3 calls it
	take func(p *entryParser, l *entryLine) bool
}

// lineHandlers are tried in order on every line until one takes it, like
// goldmark's block parsers by priority. Lines inside a block that spans
// lines (fenced code, a comment) belong to it whatever they look like;
// block structure (fences, headings, rules, tables) comes before the entry
// shapes; among these, the more marked a line is the earlier its handler
// (a list marker before a quote before a Rule/Why/How label before a bold
// title or "key:"), and plain text, which every shape can continue, is
// last. Each handler of a shape first lets the open entry continue, then
// opens an entry of its own.
var lineHandlers = []lineHandler{
	{"line inside fenced code", (*entryParser).codeLine},
	{"line inside a comment", (*entryParser).commentLine},
	{"blank line", (*entryParser).blank},
	{"line after a blank", (*entryParser).afterBlank},
	{"code fence", (*entryParser).fenceOpen},
	{"comment", (*entryParser).commentStart},
	{"heading", (*entryParser).atxHeading},
	{"setext underline", (*entryParser).setextUnderline},
	{"thematic break", (*entryParser).thematicBreak},
	{"table row", (*entryParser).tableRow},
	{"list item", (*entryParser).listItem},
	{"indented continuation", (*entryParser).listContinuation},
	{"blockquote", (*entryParser).quote},
	{"rule/why/how label", (*entryParser).ruleLine},
	{"continuation line", (*entryParser).continuation},
	{"annotation", (*entryParser).annotationOfLast},
	{"bold title", (*entryParser).boldTitle},
	{"key-value", (*entryParser).keyValueLine},
	{"paragraph", (*entryParser).paragraph},
}

// inList reports whether a line indented by width continues the open list
// item.
func (p *entryParser) inList(width int) bool {
	return p.b != nil && p.b.shape == ShapeList && width >= p.b.listIndent && (width > 0 || !p.b.blank)
}

func (p *entryParser) blankLine() {
	p.inTable = false
	b := p.b
	if b == nil {
		return
	}
	switch {
	case b.shape == ShapeList, b.shape == ShapeRuleWhy,
		b.shape == ShapeBoldTitle && b.details == 0:
		b.blank = true
	default:
		p.close()
	}
}

func (p *entryParser) heading(level int, text string, n int) {
	text = headingText(text)
	p.stack.push(level, text)
	p.cur = &Section{Heading: text, Level: level, Line: n}
	p.sections = append(p.sections, p.cur)
	p.inTable = false
}

func (p *entryParser) open(shape EntryShape, n int, raw string) *entryBuilder {
	b := &entryBuilder{shape: shape, section: p.cur, path: p.stack.path(), start: n, end: n, raw: []string{raw}, pending: p.pending}
	p.pending = nil
	p.b = b
	p.builders = append(p.builders, b)
	return b
}

func (p *entryParser) close() {
	if p.b != nil {
		p.last = p.b
		p.b = nil
	}
}

// drop discards the open entry (a label line that turned out to be no
// entry), handing its pending comments to the next one.
func (p *entryParser) drop() {
	b := p.b
	if b == nil {
		return
	}
	p.b = nil
	if k := len(p.builders); k > 0 && p.builders[k-1] == b {
		p.builders = p.builders[:k-1]
	}
	p.pending = append(b.pending, p.pending...)
}

func (p *entryParser) finish() []*Section {
	for _, b := range p.builders {
		if e := buildEntry(p.file, b, p.ref); e != nil {
			b.section.Entries = append(b.section.Entries, e)
		}
		p.byRef = p.byRef || b.byRef
	}
	out := p.sections
	if len(out) > 0 && out[0].Heading == "" && out[0].Level == 0 && len(out[0].Entries) == 0 {
		out = out[1:]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
