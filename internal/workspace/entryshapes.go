package workspace

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// The line handlers of the entry parser, in the order of lineHandlers
// (entries.go), and the readings of a line they share.

// codeLine takes the lines of an open fenced block, up to its closing
// fence; inside a list item they are part of the entry.
func (p *entryParser) codeLine(l *entryLine) bool {
	if !p.fence.Open() {
		return false
	}
	p.fence.Code(l.body) // closes the block at its closing fence
	if p.fenceInEntry && p.b != nil {
		p.b.raw = append(p.b.raw, l.raw)
		p.b.end = l.n
	}
	return true
}

// commentLine takes the lines of an open multi-line comment; the whole
// comment becomes one pending line for the entry below it.
func (p *entryParser) commentLine(l *entryLine) bool {
	if !p.inComment {
		return false
	}
	p.comment = append(p.comment, srcLine{n: l.n, text: l.raw})
	if strings.Contains(l.raw, "-->") {
		p.inComment = false
		var sb strings.Builder
		for _, c := range p.comment {
			sb.WriteString(c.text)
			sb.WriteByte(' ')
		}
		p.pending = append(p.pending, srcLine{n: p.comment[0].n, text: sb.String()})
		p.comment = nil
	}
	return true
}

func (p *entryParser) blank(l *entryLine) bool {
	if l.trim != "" {
		return false
	}
	p.blankLine()
	return true
}

// afterBlank closes the open entry when a blank line ended it: only a list
// item (an indented line), a bold title (its first quote) and a Rule/Why/How
// block (its next label) go on after a blank. It never takes the line.
func (p *entryParser) afterBlank(l *entryLine) bool {
	b := p.b
	if b == nil || !b.blank {
		return false
	}
	resumes := false
	switch b.shape {
	case ShapeList:
		resumes = l.width >= b.listIndent
	case ShapeBoldTitle:
		_, q := mdline.Quote(l.trim)
		resumes = q && b.details == 0
	case ShapeRuleWhy:
		k, _, ok := ruleLabel(l.trim)
		resumes = ok && k != 'r'
	}
	if !resumes {
		p.close()
	}
	return false
}

// fenceOpen opens a fenced block: part of a list item it is indented
// under, else the end of any open entry.
func (p *entryParser) fenceOpen(l *entryLine) bool {
	c, k := mdline.FenceOpen(l.trim)
	if c == 0 || !(l.width < 4 || p.inList(l.width)) {
		return false
	}
	p.fence.OpenBlock(c, k)
	if p.inList(l.width) {
		p.fenceInEntry = true
		p.b.raw = append(p.b.raw, l.raw)
		p.b.end = l.n
		p.b.blank = false
	} else {
		p.close()
		p.fenceInEntry = false
	}
	return true
}

// commentStart takes a line that is an HTML comment: a trailing
// annotation of the entry above ("<!-- importance: 8 -->"), metadata for
// the entry below (a promotion comment), or the start of a multi-line
// comment. A comment with text after it is left to the other handlers.
func (p *entryParser) commentStart(l *entryLine) bool {
	trim := l.trim
	if !strings.HasPrefix(trim, "<!--") {
		return false
	}
	end := strings.Index(trim[4:], "-->")
	if end < 0 {
		p.inComment = true
		p.comment = []srcLine{{n: l.n, text: l.raw}}
		return true
	}
	end += 4
	if end+3 != len(trim) {
		return false
	}
	if inner := trim[4:end]; p.b != nil && !p.b.blank && isTrailingMeta(inner) {
		p.b.add(l.n, l.raw, trim)
	} else {
		p.close()
		p.pending = append(p.pending, srcLine{n: l.n, text: trim})
	}
	return true
}

func (p *entryParser) atxHeading(l *entryLine) bool {
	if l.width >= 4 {
		return false
	}
	level, text := mdline.Heading(l.trim)
	if level == 0 {
		return false
	}
	p.close()
	p.heading(level, text, l.n)
	return true
}

// setextUnderline turns the one-line paragraph above "===" or "---" into a
// heading.
func (p *entryParser) setextUnderline(l *entryLine) bool {
	b := p.b
	if l.width >= 4 || b == nil || b.shape != ShapeParagraph || b.quote || len(b.content) != 1 || b.blank {
		return false
	}
	trim := l.trim
	if strings.Trim(trim, "=") != "" && strings.Trim(trim, "-") != "" {
		return false
	}
	level := 1
	if trim[0] == '-' {
		level = 2
	}
	p.drop()
	p.heading(level, b.content[0].text, b.start)
	return true
}

func (p *entryParser) thematicBreak(l *entryLine) bool {
	if l.width >= 4 || !mdline.ThematicBreak(l.trim) {
		return false
	}
	p.close()
	return true
}

// tableRow takes a table row: each body row is an entry that keeps the
// table's column headers; the header row and the separator are not
// entries. A row indented under a list item is part of it. Any other line
// ends the table.
func (p *entryParser) tableRow(l *entryLine) bool {
	trim := l.trim
	if !mdline.TableRow(trim) {
		p.inTable = false
		return false
	}
	if p.inList(l.width) {
		p.b.add(l.n, l.raw, strings.Join(mdline.TableCells(trim), " "))
		return true
	}
	if b := p.b; b != nil && b.shape == ShapeBoldTitle && !b.titled && b.details == 0 && !b.blank {
		p.drop() // a bold label above a table
	}
	p.close()
	if mdline.TableSeparator(trim) {
		p.inTable = true
		return true
	}
	if !p.inTable {
		p.inTable = true
		p.tableCols = nil
		if nt := strings.TrimSpace(l.next); mdline.TableSeparator(nt) {
			p.tableCols = cleanCells(mdline.TableCells(trim))
			l.skipNext = true
			return true
		}
	}
	cells := mdline.TableCells(trim)
	b := p.open(ShapeTableRow, l.n, l.raw)
	b.content = append(b.content, srcLine{n: l.n, text: strings.Join(cells, " ")})
	b.cells = cells
	b.columns = p.tableCols
	p.close()
	return true
}

// listItem takes a list item: a nested item joins the item it is nested
// in, an item under a dated or tagged bold title is one of its details,
// any other opens an entry (a bare bold line above it was a label).
func (p *entryParser) listItem(l *entryLine) bool {
	li, ok := mdline.ListItem(l.trim)
	if !ok {
		return false
	}
	switch b := p.b; {
	case p.inList(l.width):
		b.addItem(l.n, l.raw, li.Text)
		return true
	case b != nil && b.shape == ShapeBoldTitle && !b.blank:
		if b.titled {
			b.details++
			b.addItem(l.n, l.raw, li.Text)
			return true
		}
		if b.details == 0 {
			p.drop() // "**People**" over a list is a label, not an entry
		}
	}
	p.close()
	b := p.open(ShapeList, l.n, l.raw)
	b.listIndent = l.width + li.MarkerLen
	b.task = li.Task
	b.content = append(b.content, srcLine{n: l.n, text: li.Text})
	return true
}

// listContinuation takes anything indented under a list item.
func (p *entryParser) listContinuation(l *entryLine) bool {
	b := p.b
	if b == nil || b.shape != ShapeList || l.width == 0 || l.width < b.listIndent {
		return false
	}
	trim := l.trim
	if q, ok := mdline.Quote(trim); ok {
		trim = stripCalloutMarker(q)
	}
	b.add(l.n, l.raw, trim)
	return true
}

// quote takes a blockquote line: a detail of a bold title or Rule/Why/How
// block, the continuation of a list item or quote, or a quoted paragraph
// of its own.
func (p *entryParser) quote(l *entryLine) bool {
	q, ok := mdline.Quote(l.trim)
	if !ok {
		return false
	}
	q = stripCalloutMarker(q)
	switch b := p.b; {
	case b != nil && b.shape == ShapeList && !b.blank:
		b.add(l.n, l.raw, q)
		return true
	case b != nil && (b.shape == ShapeBoldTitle || b.shape == ShapeRuleWhy):
		b.details++
		b.add(l.n, l.raw, q)
		return true
	case b != nil && b.quote && !b.blank:
		b.add(l.n, l.raw, q)
		return true
	}
	p.close()
	b := p.open(ShapeParagraph, l.n, l.raw)
	b.quote = true
	b.content = append(b.content, srcLine{n: l.n, text: q})
	return true
}

// ruleLine takes a Rule/Why/How label line. A rule under a bare bold
// title makes it a Rule/Why/How block; a Why or How continues the entry
// above (a Rule/Why/How block just closed included).
func (p *entryParser) ruleLine(l *entryLine) bool {
	kind, _, ok := ruleLabel(l.trim)
	if !ok {
		return false
	}
	n, s, trim := l.n, l.raw, l.trim
	b := p.b
	switch {
	case kind == 'r' && b != nil && b.shape == ShapeBoldTitle && !b.blank && b.details == 0:
		b.shape = ShapeRuleWhy
		b.add(n, s, trim)
		return true
	case kind != 'r' && b != nil && !b.blank && b.shape != ShapeTableRow && b.shape != ShapeKeyValue:
		if b.shape == ShapeBoldTitle {
			b.shape = ShapeRuleWhy
		}
		b.add(n, s, trim)
		return true
	case kind != 'r' && b == nil && p.last != nil && p.last.end == n-1 && p.last.shape == ShapeRuleWhy:
		p.b = p.last
		p.b.add(n, s, trim)
		return true
	}
	p.close()
	b = p.open(ShapeRuleWhy, n, s)
	b.content = append(b.content, srcLine{n: n, text: trim})
	return true
}

// readKV sets l.kv and l.annotation once for the text handlers below.
func (p *entryParser) readKV(l *entryLine) {
	if l.kvRead {
		return
	}
	l.kvRead = true
	key, isKV := keyValue(l.trim)
	l.kv = isKV
	l.annotation = isKV && annotationKeys[strings.ToLower(key)]
	if l.annotation && !footerKeys[strings.ToLower(key)] {
		// "Status: pending" under "Dev server: ..." is a sibling line, not
		// an annotation of it.
		if prev := p.b; prev != nil && prev.shape == ShapeKeyValue || prev == nil && p.last != nil && p.last.shape == ShapeKeyValue {
			l.annotation = false
		}
	}
}

// continuation lets the open entry take a line of text: a list item its
// wrapped lines and annotations, a bold title or Rule/Why/How block its
// details, a paragraph or key-value line its wrapped value.
func (p *entryParser) continuation(l *entryLine) bool {
	b := p.b
	if b == nil || b.blank {
		return false
	}
	p.readKV(l)
	switch b.shape {
	case ShapeList:
		if l.width > 0 || l.annotation || !l.kv && !isBoldTitle(l.trim) {
			b.add(l.n, l.raw, l.trim)
			return true
		}
	case ShapeBoldTitle, ShapeRuleWhy:
		b.details++
		b.add(l.n, l.raw, l.trim)
		return true
	case ShapeParagraph, ShapeKeyValue:
		// A wrapped value continues its key-value line.
		if l.annotation || !l.kv && !isBoldTitle(l.trim) {
			b.add(l.n, l.raw, l.trim)
			return true
		}
	}
	return false
}

// annotationOfLast adds an annotation ("Source: …") right under an entry
// that has just closed to it.
func (p *entryParser) annotationOfLast(l *entryLine) bool {
	p.readKV(l)
	if !l.annotation || p.b != nil || p.last == nil || p.last.end != l.n-1 {
		return false
	}
	p.last.add(l.n, l.raw, l.trim)
	return true
}

func (p *entryParser) boldTitle(l *entryLine) bool {
	if !isBoldTitle(l.trim) {
		return false
	}
	p.close()
	b := p.open(ShapeBoldTitle, l.n, l.raw)
	b.title = boldTitleText(l.trim)
	b.titled = titleHeadsDetails(b.title)
	return true
}

func (p *entryParser) keyValueLine(l *entryLine) bool {
	p.readKV(l)
	if !l.kv {
		return false
	}
	p.close()
	b := p.open(ShapeKeyValue, l.n, l.raw)
	b.content = append(b.content, srcLine{n: l.n, text: l.trim})
	return true
}

// paragraph takes any line no other handler took.
func (p *entryParser) paragraph(l *entryLine) bool {
	p.close()
	b := p.open(ShapeParagraph, l.n, l.raw)
	b.content = append(b.content, srcLine{n: l.n, text: l.trim})
	return true
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
		var k codeKeeper
		out[i] = k.show(k.inlineText(c))
	}
	return out
}
