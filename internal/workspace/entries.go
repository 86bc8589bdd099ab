package workspace

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/dates"
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
}

// parseEntries parses a whole file into sections. ref is the date that
// partial dates ("04-27") are resolved against; skip lists lines that are
// not entries (a size header).
func parseEntries(file, content string, ref time.Time, skip map[int]bool) []*Section {
	lines := mdline.Split(content)
	start := mdline.FrontMatterEnd(lines)
	return parseEntryLines(file, lines[start:], start+1, ref, skip)
}

// parseEntryLines parses lines, the first of which is line first of file.
func parseEntryLines(file string, lines []string, first int, ref time.Time, skip map[int]bool) []*Section {
	p := &entryParser{file: file, ref: ref, skip: skip}
	p.cur = &Section{}
	p.sections = []*Section{p.cur}
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
		if p.line(n, lines[i], next) {
			i++ // the line after was consumed (a table header separator)
		}
	}
	p.close()
	return p.finish()
}

// line handles one line; it reports whether it consumed the next line too.
func (p *entryParser) line(n int, s, next string) bool {
	if p.fence.Open() {
		_, off := mdline.Indent(s)
		p.fence.Code(s[off:]) // closes the block at its closing fence
		if p.fenceInEntry && p.b != nil {
			p.b.raw = append(p.b.raw, s)
			p.b.end = n
		}
		return false
	}
	if p.inComment {
		p.comment = append(p.comment, srcLine{n: n, text: s})
		if strings.Contains(s, "-->") {
			p.inComment = false
			var sb strings.Builder
			for _, c := range p.comment {
				sb.WriteString(c.text)
				sb.WriteByte(' ')
			}
			p.pending = append(p.pending, srcLine{n: p.comment[0].n, text: sb.String()})
			p.comment = nil
		}
		return false
	}
	width, off := mdline.Indent(s)
	body := s[off:]
	trim := strings.TrimRight(body, " \t")
	if trim == "" {
		p.blankLine()
		return false
	}

	// A line after a blank inside an open entry either continues it or
	// closes it.
	if b := p.b; b != nil && b.blank {
		switch b.shape {
		case ShapeList:
			if width < b.listIndent {
				p.close()
			}
		case ShapeBoldTitle:
			if _, q := mdline.Quote(trim); !(q && b.details == 0) {
				p.close()
			}
		case ShapeRuleWhy:
			if k, _, ok := ruleLabel(trim); !(ok && k != 'r') {
				p.close()
			}
		default:
			p.close()
		}
	}

	if c, k := mdline.FenceOpen(trim); c != 0 && (width < 4 || p.inList(width)) {
		p.fence.OpenBlock(c, k)
		if p.inList(width) {
			p.fenceInEntry = true
			p.b.raw = append(p.b.raw, s)
			p.b.end = n
			p.b.blank = false
		} else {
			p.close()
			p.fenceInEntry = false
		}
		return false
	}

	if strings.HasPrefix(trim, "<!--") {
		end := strings.Index(trim[4:], "-->")
		if end >= 0 {
			end += 4
		}
		if end < 0 {
			p.inComment = true
			p.comment = []srcLine{{n: n, text: s}}
			return false
		}
		if end+3 == len(trim) {
			inner := trim[4:end]
			if p.b != nil && !p.b.blank && isTrailingMeta(inner) {
				p.b.add(n, s, trim)
			} else {
				p.close()
				p.pending = append(p.pending, srcLine{n: n, text: trim})
			}
			return false
		}
	}

	if width < 4 {
		if level, text := mdline.Heading(trim); level > 0 {
			p.close()
			p.heading(level, text, n)
			return false
		}
		if b := p.b; b != nil && b.shape == ShapeParagraph && !b.quote && len(b.content) == 1 && !b.blank {
			if strings.Trim(trim, "=") == "" || strings.Trim(trim, "-") == "" {
				level := 1
				if trim[0] == '-' {
					level = 2
				}
				p.drop()
				p.heading(level, b.content[0].text, b.start)
				return false
			}
		}
		if mdline.ThematicBreak(trim) {
			p.close()
			return false
		}
	}

	if mdline.TableRow(trim) {
		if p.inList(width) {
			p.b.add(n, s, strings.Join(mdline.TableCells(trim), " "))
			return false
		}
		if b := p.b; b != nil && b.shape == ShapeBoldTitle && !b.titled && b.details == 0 && !b.blank {
			p.drop() // a bold label above a table
		}
		p.close()
		if mdline.TableSeparator(trim) {
			p.inTable = true
			return false
		}
		consumed := false
		if !p.inTable {
			p.inTable = true
			p.tableCols = nil
			if nt := strings.TrimSpace(next); mdline.TableSeparator(nt) {
				p.tableCols = cleanCells(mdline.TableCells(trim))
				return true
			}
		}
		cells := mdline.TableCells(trim)
		b := p.open(ShapeTableRow, n, s)
		b.content = append(b.content, srcLine{n: n, text: strings.Join(cells, " ")})
		b.cells = cells
		b.columns = p.tableCols
		p.close()
		return consumed
	}
	p.inTable = false

	if li, ok := mdline.ListItem(trim); ok {
		switch b := p.b; {
		case p.inList(width):
			b.addItem(n, s, li.Text)
			return false
		case b != nil && b.shape == ShapeBoldTitle && !b.blank:
			if b.titled {
				b.details++
				b.addItem(n, s, li.Text)
				return false
			}
			if b.details == 0 {
				p.drop() // "**People**" over a list is a label, not an entry
			}
		}
		p.close()
		b := p.open(ShapeList, n, s)
		b.listIndent = width + li.MarkerLen
		b.task = li.Task
		b.content = append(b.content, srcLine{n: n, text: li.Text})
		return false
	}

	// Anything indented under a list item continues it.
	if b := p.b; b != nil && b.shape == ShapeList && width > 0 && width >= b.listIndent {
		if q, ok := mdline.Quote(trim); ok {
			trim = stripCalloutMarker(q)
		}
		b.add(n, s, trim)
		return false
	}

	if q, ok := mdline.Quote(trim); ok {
		q = stripCalloutMarker(q)
		switch b := p.b; {
		case b != nil && b.shape == ShapeList && !b.blank:
			b.add(n, s, q)
			return false
		case b != nil && (b.shape == ShapeBoldTitle || b.shape == ShapeRuleWhy):
			b.details++
			b.add(n, s, q)
			return false
		case b != nil && b.quote && !b.blank:
			b.add(n, s, q)
			return false
		}
		p.close()
		b := p.open(ShapeParagraph, n, s)
		b.quote = true
		b.content = append(b.content, srcLine{n: n, text: q})
		return false
	}

	// Rule/Why/How labels.
	if kind, _, ok := ruleLabel(trim); ok {
		b := p.b
		switch {
		case kind == 'r' && b != nil && b.shape == ShapeBoldTitle && !b.blank && b.details == 0:
			b.shape = ShapeRuleWhy
			b.add(n, s, trim)
			return false
		case kind != 'r' && b != nil && !b.blank && b.shape != ShapeTableRow && b.shape != ShapeKeyValue:
			if b.shape == ShapeBoldTitle {
				b.shape = ShapeRuleWhy
			}
			b.add(n, s, trim)
			return false
		case kind != 'r' && b == nil && p.last != nil && p.last.end == n-1 && p.last.shape == ShapeRuleWhy:
			p.b = p.last
			p.b.add(n, s, trim)
			return false
		}
		p.close()
		b = p.open(ShapeRuleWhy, n, s)
		b.content = append(b.content, srcLine{n: n, text: trim})
		return false
	}

	key, isKV := keyValue(trim)
	annotation := isKV && annotationKeys[strings.ToLower(key)]
	if annotation && !footerKeys[strings.ToLower(key)] {
		// "Status: pending" under "Dev server: ..." is a sibling line, not
		// an annotation of it.
		if prev := p.b; prev != nil && prev.shape == ShapeKeyValue || prev == nil && p.last != nil && p.last.shape == ShapeKeyValue {
			annotation = false
		}
	}
	if b := p.b; b != nil && !b.blank {
		switch b.shape {
		case ShapeList:
			if width > 0 || annotation || !isKV && !isBoldTitle(trim) {
				b.add(n, s, trim)
				return false
			}
		case ShapeBoldTitle, ShapeRuleWhy:
			b.details++
			b.add(n, s, trim)
			return false
		case ShapeParagraph, ShapeKeyValue:
			// A wrapped value continues its key-value line.
			if annotation || !isKV && !isBoldTitle(trim) {
				b.add(n, s, trim)
				return false
			}
		}
	}
	if annotation && p.b == nil && p.last != nil && p.last.end == n-1 {
		p.last.add(n, s, trim)
		return false
	}
	p.close()
	switch {
	case isBoldTitle(trim):
		b := p.open(ShapeBoldTitle, n, s)
		b.title = boldTitleText(trim)
		b.titled = titleHeadsDetails(b.title)
	case isKV:
		b := p.open(ShapeKeyValue, n, s)
		b.content = append(b.content, srcLine{n: n, text: trim})
	default:
		b := p.open(ShapeParagraph, n, s)
		b.content = append(b.content, srcLine{n: n, text: trim})
	}
	return false
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

// annotationKeys are "key: value" lines that annotate the entry above them
// instead of being entries of their own.
var annotationKeys = map[string]bool{
	"source": true, "sources": true, "type": true, "status": true, "evidence": true,
	"tags": true, "importance": true, "来源": true,
}

// footerKeys annotate even a key-value line above them.
var footerKeys = map[string]bool{"source": true, "sources": true, "evidence": true, "来源": true}

// isTrailingMeta reports a standalone comment that annotates the entry
// above it ("<!-- importance: 8 -->"); promotion comments annotate the
// entry below.
func isTrailingMeta(inner string) bool {
	inner = strings.TrimSpace(inner)
	if strings.HasPrefix(inner, "openclaw-memory-promotion:") {
		return false
	}
	k, _, ok := splitKV(inner)
	if !ok {
		return false
	}
	switch strings.ToLower(k) {
	case "importance", "status", "type", "source", "sources":
		return true
	}
	return false
}

// keyValue recognises a "Key: value" line: a short key (at most four
// words, no sentence punctuation), then a colon and a value. URLs, times
// and prose with a colon mid-sentence are not key-value lines.
func keyValue(s string) (string, bool) {
	t := strings.TrimPrefix(s, "**")
	t = strings.TrimPrefix(t, "__")
	k, width := keySeparator(t, ":")
	if k <= 0 || k > 48 {
		return "", false
	}
	key := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(t[:k], "**"), "__"))
	rest := t[k+width:]
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "**"), "__")
	if width == 1 && rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false // "https://", "10:30"
	}
	if strings.TrimSpace(rest) == "" || key == "" {
		return "", false
	}
	words := 0
	inWord := false
	for _, r := range key {
		switch {
		case r == ' ':
			inWord = false
		case r == '(' || r == ')' || r == '[' || r == ']' || r == '`' || r == '.' && !strings.HasSuffix(key, ".md") || r == ',' || r == '!' || r == '?' || r == '*' || r == '<' || r == '>' || r == '|':
			return "", false
		default:
			if !inWord {
				words++
				inWord = true
			}
		}
	}
	if words > 4 {
		return "", false
	}
	return key, true
}

// isBoldTitle reports a line that is a bold title: "**[feedback] Title
// (04-27)**", optionally followed by a date, tag or comment, but not a
// bold phrase opening a sentence, nor a Rule/Why/How or key label.
func isBoldTitle(s string) bool {
	if !strings.HasPrefix(s, "**") || len(s) < 5 {
		return false
	}
	e := strings.Index(s[2:], "**")
	if e <= 0 {
		return false
	}
	inner := s[2 : 2+e]
	rest := strings.TrimSpace(s[2+e+2:])
	if rest != "" && !strings.HasPrefix(rest, "(") && !strings.HasPrefix(rest, "[") && !strings.HasPrefix(rest, "<!--") && !strings.HasPrefix(rest, "#") && !strings.HasPrefix(rest, "（") {
		return false
	}
	if strings.HasSuffix(inner, ":") || strings.HasSuffix(inner, "：") {
		return rest == "" // "**Hosts:**" alone is a label, treated like a title
	}
	return true
}

// boldTitleText returns the title line without its bold markers.
func boldTitleText(s string) string {
	e := strings.Index(s[2:], "**")
	return s[2:2+e] + s[2+e+2:]
}

// titleHeadsDetails reports a bold title that carries a type tag or a
// date: it is an entry whose list items are its details. A bare bold line
// over a list ("**People**") is a label instead.
func titleHeadsDetails(title string) bool {
	if t, _ := takeTypeTags(title); t != "" {
		return true
	}
	if _, i, _ := firstDate(title); i >= 0 {
		return true
	}
	_, _, ok := partialDate(title)
	return ok
}

// ruleLabel recognises the labels of Rule/Why/How blocks, bold or not:
// "**Rule:**", "**Fact:**", "**Rule/Fact:**", "**Why:**", "**How to
// apply:**", "How:" and their Chinese forms. kind is 'r', 'w' or 'h'.
func ruleLabel(s string) (kind byte, rest string, ok bool) {
	t := strings.TrimPrefix(s, "**")
	k, width := keySeparator(t, ":")
	if k <= 0 || k > 24 {
		return 0, "", false
	}
	label := strings.ToLower(strings.TrimSpace(strings.TrimSuffix(t[:k], "**")))
	rest = strings.TrimPrefix(t[k+width:], "**")
	switch label {
	case "rule", "fact", "rule/fact", "规则", "事实":
		return 'r', strings.TrimSpace(rest), true
	case "why", "原因", "为什么":
		return 'w', strings.TrimSpace(rest), true
	case "how", "how to apply", "应用", "如何应用":
		return 'h', strings.TrimSpace(rest), true
	}
	return 0, "", false
}

// stripCalloutMarker removes an Obsidian callout marker ("[!note]+").
func stripCalloutMarker(q string) string {
	if !strings.HasPrefix(q, "[!") {
		return q
	}
	e := strings.IndexByte(q, ']')
	if e < 0 {
		return q
	}
	return strings.TrimLeft(q[e+1:], "+- ")
}

func cleanCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = collapseSpace(stripInline(c))
	}
	return out
}

// buildEntry turns the gathered lines into an Entry, or nil when nothing
// of substance is left.
func buildEntry(file string, b *entryBuilder, ref time.Time) *Entry {
	e := &Entry{
		File:    file,
		Line:    b.start,
		EndLine: b.end,
		Section: b.path,
		Shape:   b.shape,
		Raw:     strings.Join(b.raw, "\n"),
	}
	var acc metaAcc
	for _, c := range b.pending {
		acc.add(extractMeta(c.text, c.n))
	}
	title := ""
	if b.title != "" {
		m := extractMeta(b.title, b.start)
		acc.add(m)
		title = m.text
	}
	var sb strings.Builder
	for i, c := range b.content {
		m := extractMeta(c.text, c.n)
		acc.add(m)
		t := strings.TrimSpace(m.text)
		if t == "" {
			continue
		}
		if i > 0 && sb.Len() > 0 {
			if c.item && !endsSentence(sb.String()) && !(b.shape == ShapeBoldTitle && i == 0) {
				sb.WriteString("; ")
			} else {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(t)
	}
	body := sb.String()

	// Type tags.
	e.TypeTag = acc.typeTag
	if t, rest := takeTypeTags(title); t != "" {
		title = rest
		if e.TypeTag == "" {
			e.TypeTag = t
		}
	}
	if t, rest := takeTypeTags(body); t != "" {
		body = rest
		if e.TypeTag == "" {
			e.TypeTag = t
		}
	}

	// Lifecycle.
	status := acc.status
	if st, rest := takeStatusField(body); st != "" {
		if strings.TrimSpace(rest) != "" {
			body = rest // "Status: pending" alone stays the entry's text
		}
		if status == "" {
			status = st
		}
	}
	whole := strings.TrimSpace(title + " " + body)
	switch {
	case status != "":
	case isStruckThrough(whole) || isStruckThrough(body) && body != "":
		status = "closed"
	case b.task == 'x':
		status = "done"
	case b.task == ' ':
		status = "open"
	default:
		status = lifecycleWord(whole)
	}
	e.Status = status

	e.Tags = findTags(whole)
	e.Date = entryDate(whole, ref)
	if e.Date.IsZero() {
		for _, p := range acc.ptrs {
			if !p.Date.IsZero() {
				e.Date = p.Date
				break
			}
		}
	}
	e.Importance = acc.importance
	e.Promotion = acc.promo
	e.Promoted = acc.promoted || acc.footerPath && acc.importance > 0
	e.Sources = dedupePointers(acc.ptrs)

	// Text.
	switch b.shape {
	case ShapeTableRow:
		e.Columns = b.columns
		e.Cells = cleanCells(b.cells)
		var nonEmpty []string
		for _, c := range e.Cells {
			if c != "" {
				nonEmpty = append(nonEmpty, c)
			}
		}
		if t, rest := takeTypeTags(strings.Join(nonEmpty, " — ")); t != "" {
			e.Text = tidyText(rest)
		} else {
			e.Text = tidyText(strings.Join(nonEmpty, " — "))
		}
	default:
		plainTitle := ""
		if title != "" {
			plainTitle = tidyText(trimTitleDate(stripInline(title)))
			e.Title = plainTitle
		}
		plain := tidyText(stripInline(body))
		if rule, why, how, ok := splitRuleWhyHow(plain, b.shape == ShapeRuleWhy); ok {
			e.Rule, e.Why, e.How = rule, why, how
			plain = joinRuleWhyHow(rule, why, how)
		}
		e.Text = joinTitle(plainTitle, plain)
	}
	if e.Text == "" {
		return nil
	}
	return e
}

// endsSentence reports text ending in punctuation that already separates
// what follows.
func endsSentence(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, " "))
	return strings.ContainsRune(".;:!?。；：！？", r)
}

// metaAcc accumulates the line metadata of one entry.
type metaAcc struct {
	ptrs       []SourcePointer
	importance int
	typeTag    string
	status     string
	promo      *Promotion
	promoted   bool
	footerPath bool
}

func (a *metaAcc) add(m lineMeta) {
	a.ptrs = append(a.ptrs, m.ptrs...)
	if m.importance != 0 && a.importance == 0 {
		a.importance = m.importance
	}
	if m.typeTag != "" && a.typeTag == "" {
		a.typeTag = m.typeTag
	}
	if m.status != "" && a.status == "" {
		a.status = m.status
	}
	if m.promo != nil && a.promo == nil {
		a.promo = m.promo
	}
	a.promoted = a.promoted || m.promoted
	a.footerPath = a.footerPath || m.footerPath
}

func dedupePointers(ps []SourcePointer) []SourcePointer {
	if len(ps) < 2 {
		return ps
	}
	type key struct {
		kind             PointerKind
		path             string
		start, end, line int
	}
	seen := make(map[key]bool, len(ps))
	out := ps[:0:0]
	for _, p := range ps {
		k := key{p.Kind, p.Path, p.StartLine, p.EndLine, p.Line}
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// trimTitleDate removes a trailing date note from a bold title:
// "Title (04-27)" -> "Title". The date is kept in Entry.Date.
func trimTitleDate(t string) string {
	t = strings.TrimSpace(t)
	for _, pair := range [][2]string{{"(", ")"}, {"（", "）"}, {"[", "]"}} {
		if !strings.HasSuffix(t, pair[1]) {
			continue
		}
		k := strings.LastIndex(t, pair[0])
		if k < 0 {
			continue
		}
		inner := t[k+len(pair[0]) : len(t)-len(pair[1])]
		if _, _, ok := partialDate("(" + inner + ")"); ok {
			return strings.TrimSpace(t[:k])
		}
		if _, ok := dates.Parse(inner); ok {
			return strings.TrimSpace(t[:k])
		}
	}
	return t
}

// joinTitle joins a bold title and its details as "Title: details".
func joinTitle(title, body string) string {
	switch {
	case title == "":
		return body
	case body == "":
		return strings.TrimRight(title, ":：")
	}
	r, _ := utf8.DecodeLastRuneInString(title)
	if strings.ContainsRune(".:!?。：！？", r) {
		return title + " " + body
	}
	return title + ": " + body
}

// splitRuleWhyHow splits "Rule: x Why: y How to apply: z" (labels
// optional for the rule, inline or one per line) into its parts. block is
// true for Rule/Why/How blocks, whose labels started lines; inline, a
// "Why:" counts only after a "Rule:" label, with a "How:" part, or opening
// a sentence ("... docs. Why: ...").
func splitRuleWhyHow(s string, block bool) (rule, why, how string, ok bool) {
	w, wl := labelAt(s, []string{"Why:", "why:", "WHY:", "原因：", "原因:", "为什么：", "为什么:"})
	h, hl := labelAt(s, []string{"How to apply:", "how to apply:", "How:", "HOW:", "如何应用：", "如何应用:", "应用：", "应用:"})
	r := 0
	for _, lbl := range []string{"Rule/Fact:", "Rule:", "Fact:", "rule:", "fact:", "规则：", "规则:", "事实：", "事实:"} {
		if strings.HasPrefix(s, lbl) {
			r = len(lbl)
			break
		}
	}
	if w < 0 && h < 0 {
		if r > 0 {
			return strings.TrimSpace(s[r:]), "", "", true
		}
		return "", "", "", false
	}
	end := len(s)
	if w >= 0 {
		end = w
	}
	if h >= 0 && h < end {
		end = h
	}
	rule = trimPart(s[r:end])
	switch {
	case w >= 0 && h > w:
		why, how = trimPart(s[w+wl:h]), trimPart(s[h+hl:])
	case w >= 0 && h >= 0: // How written before Why
		how, why = trimPart(s[h+hl:w]), trimPart(s[w+wl:])
	case w >= 0:
		why = trimPart(s[w+wl:])
	default:
		how = trimPart(s[h+hl:])
	}
	if !block && r == 0 && !(w >= 0 && h >= 0) && !(w >= 0 && opensSentence(s, w)) {
		return "", "", "", false // "ask why: ..." is prose
	}
	return rule, why, how, true
}

// opensSentence reports whether s[i] starts a sentence.
func opensSentence(s string, i int) bool {
	t := strings.TrimRight(s[:i], " ")
	if t == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(".;!?。；！？", r)
}

// labelAt finds the first of the labels in s that starts a word.
func labelAt(s string, labels []string) (int, int) {
	best, bl := -1, 0
	for _, l := range labels {
		for from := 0; ; {
			k := strings.Index(s[from:], l)
			if k < 0 {
				break
			}
			k += from
			if wordBoundaryBefore(s, k) {
				if best < 0 || k < best {
					best, bl = k, len(l)
				}
				break
			}
			from = k + 1
		}
	}
	return best, bl
}

func trimPart(s string) string {
	return strings.TrimRight(strings.TrimSpace(s), " .;。；")
}

// joinRuleWhyHow writes the parts as "Rule. Why: ... How: ...".
func joinRuleWhyHow(rule, why, how string) string {
	var parts []string
	if rule != "" {
		parts = append(parts, rule)
	}
	if why != "" {
		parts = append(parts, "Why: "+why)
	}
	if how != "" {
		parts = append(parts, "How: "+how)
	}
	return strings.Join(parts, ". ")
}
