package dream

import (
	"slices"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// mdDoc is a Markdown file (MEMORY.md, an L2 topic file, an archive file,
// the dream log) being edited. Edits are recorded against the lines as read
// (entries are removed, replaced, or get blocks after them; sections get
// blocks at their end; new sections go at the end of the file), and render
// applies them in one pass. Everything not edited comes out exactly as it
// went in, so a diff shows only what the dream did.
type mdDoc struct {
	path     string
	content  string // as read (LF line endings)
	exists   bool
	crlf     bool // the file used CRLF line endings; they are kept
	bare     bool // no final newline
	lines    []string
	sections []*mdSection
	units    []*unit
	unitAt   map[int]*unit // first line -> unit
	lineRepl map[int]string
	added    []*mdSection // sections the dream adds, in order
	tail     []*block     // blocks appended at the very end
	// lineKinds is the structure of lines (see place.go), read on first use.
	lineKinds []lineKind
}

// block is lines the dream adds. A block can be dropped again (a new
// MEMORY.md line that did not fit the budget) without redoing the rest.
type block struct {
	lines   []string
	dropped bool
}

func newBlock(lines ...string) *block { return &block{lines: lines} }

// live returns the lines of the blocks not dropped.
func live(bs []*block) [][]string {
	var out [][]string
	for _, b := range bs {
		if !b.dropped && len(b.lines) > 0 {
			out = append(out, b.lines)
		}
	}
	return out
}

// mdSection is a heading and the lines up to the next heading.
type mdSection struct {
	heading string
	level   int
	line    int // heading line; 0 for the lines before the first heading
	end     int // last line before the next heading
	units   []*unit
	inserts []*block
	isNew   bool
}

// unit is an entry (or a whole table) with the comment lines written just
// above it, the smallest thing a dream moves, replaces or removes.
type unit struct {
	doc     *mdDoc
	sec     *mdSection
	start   int
	end     int
	entries []*workspace.Entry
	orig    []string // the lines as read
	lines   []string // the lines now (a copy of orig until changed)
	changed bool
	gone    bool
	// pinned is set for a unit whose lines hold a secret: a dream never
	// rewrites, moves or removes such a line (redacting it would lose the
	// value; moving it would copy it), it only reports it.
	pinned bool
	// values are the secrets in the unit's lines, found in its file's
	// context (a table row's value named by the header above it): its
	// entries' texts are recorded and shown with them redacted.
	values []secretValue
	after  []*block
	cur    *curated // the dream's view of the entry
}

// newDoc builds an editable document from a file's content and the
// sections the workspace parsed from it.
func newDoc(path, content string, raw []byte, sections []*workspace.Section) *mdDoc {
	d := &mdDoc{path: path, content: content, exists: true, unitAt: map[int]*unit{}, lineRepl: map[int]string{}}
	d.crlf = strings.Count(string(raw), "\r\n") > 0 && strings.Count(string(raw), "\r\n")*2 >= strings.Count(string(raw), "\n")
	d.bare = content != "" && !strings.HasSuffix(content, "\n")
	d.lines = mdline.Split(content)

	secs := slices.Clone(sections)
	slices.SortStableFunc(secs, func(a, b *workspace.Section) int { return a.Line - b.Line })
	d.sections = []*mdSection{{line: 0}}
	for _, s := range secs {
		if s.Line <= 0 {
			continue
		}
		d.sections = append(d.sections, &mdSection{heading: s.Heading, level: s.Level, line: s.Line})
	}
	for i, s := range d.sections {
		if i+1 < len(d.sections) {
			s.end = d.sections[i+1].line - 1
		} else {
			s.end = len(d.lines)
		}
	}
	var entries []*workspace.Entry
	for _, s := range sections {
		entries = append(entries, s.Entries...)
	}
	slices.SortStableFunc(entries, func(a, b *workspace.Entry) int { return a.Line - b.Line })
	var prev *unit
	for _, e := range entries {
		if e.Line < 1 || e.EndLine > len(d.lines) || e.EndLine < e.Line {
			continue
		}
		if prev != nil && e.Line <= prev.end {
			continue // overlapping parse: keep the first
		}
		if prev != nil && e.Shape == workspace.ShapeTableRow && prev.entries[0].Shape == workspace.ShapeTableRow &&
			e.Line == prev.end+1 {
			prev.entries = append(prev.entries, e)
			prev.end = e.EndLine
			continue
		}
		u := &unit{doc: d, start: e.Line, end: e.EndLine, entries: []*workspace.Entry{e}}
		low := 1
		if prev != nil {
			low = prev.end + 1
		}
		sec := d.sectionOf(e.Line)
		if sec.line >= low {
			low = sec.line + 1
		}
		// A table's header and separator, and comments written just above,
		// belong to the unit.
		for u.start > low {
			t := strings.TrimSpace(d.lines[u.start-2])
			if e.Shape == workspace.ShapeTableRow && mdline.TableRow(t) ||
				strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->") {
				u.start--
				continue
			}
			break
		}
		u.sec = sec
		sec.units = append(sec.units, u)
		d.units = append(d.units, u)
		d.unitAt[u.start] = u
		prev = u
	}
	for _, u := range d.units {
		u.orig = d.lines[u.start-1 : u.end]
		u.lines = slices.Clone(u.orig)
	}
	return d
}

// newPlainDoc builds a document whose sections are found by scanning its
// ATX headings (archive files, the dream log: files the dream only appends
// to).
func newPlainDoc(path, content string, raw []byte) *mdDoc {
	d := newDoc(path, content, raw, nil)
	d.sections = []*mdSection{{line: 0}}
	var fence mdline.Fence
	for i, l := range d.lines {
		t := strings.TrimSpace(l)
		if fence.Code(t) {
			continue
		}
		if level, text := mdline.Heading(t); level > 0 {
			d.sections = append(d.sections, &mdSection{heading: text, level: level, line: i + 1})
		}
	}
	for i, s := range d.sections {
		if i+1 < len(d.sections) {
			s.end = d.sections[i+1].line - 1
		} else {
			s.end = len(d.lines)
		}
	}
	return d
}

// newEmptyDoc is a file the dream creates.
func newEmptyDoc(path string) *mdDoc {
	return &mdDoc{path: path, unitAt: map[int]*unit{}, lineRepl: map[int]string{}, sections: []*mdSection{{line: 0}}}
}

func (d *mdDoc) sectionOf(line int) *mdSection {
	cur := d.sections[0]
	for _, s := range d.sections {
		if s.line <= line && s.line > 0 {
			cur = s
		}
	}
	return cur
}

// section finds a section by heading (case-insensitive), new ones included.
func (d *mdDoc) section(heading string) *mdSection {
	for _, s := range append(slices.Clone(d.sections), d.added...) {
		if s.line != 0 || s.isNew {
			if strings.EqualFold(strings.TrimSpace(s.heading), strings.TrimSpace(heading)) {
				return s
			}
		}
	}
	return nil
}

// addSection adds "## heading" at the end of the file.
func (d *mdDoc) addSection(heading string, level int) *mdSection {
	if s := d.section(heading); s != nil {
		return s
	}
	s := &mdSection{heading: heading, level: level, isNew: true}
	d.added = append(d.added, s)
	return s
}

// replace sets a unit's lines.
func (u *unit) replace(lines []string) {
	u.lines = lines
	u.changed = !slices.Equal(lines, u.orig)
}

// remove drops a unit from its file.
func (u *unit) remove() { u.gone = true }

// changed reports whether rendering would differ from the file as read.
func (d *mdDoc) changed() bool {
	if !d.exists {
		return true
	}
	if len(d.lineRepl) > 0 || len(live(d.tail)) > 0 {
		return true
	}
	for _, s := range append(slices.Clone(d.sections), d.added...) {
		if len(live(s.inserts)) > 0 {
			return true
		}
	}
	for _, u := range d.units {
		if u.gone || u.changed || len(live(u.after)) > 0 {
			return true
		}
	}
	return false
}

// render applies the edits and returns the file's new bytes.
func (d *mdDoc) render() []byte {
	if d.exists && !d.changed() {
		if d.crlf {
			return []byte(strings.ReplaceAll(d.content, "\n", "\r\n"))
		}
		return []byte(d.content)
	}
	var out []string
	anchors := map[int][]*mdSection{}
	for _, s := range d.sections {
		a := s.end
		for a > s.line && strings.TrimSpace(d.lines[a-1]) == "" {
			a--
		}
		if s.line == 0 && a == 0 {
			a = 0
		}
		anchors[a] = append(anchors[a], s)
	}
	blank := func(l string) bool { return strings.TrimSpace(l) == "" }
	removals := map[int]bool{} // output positions next to an edit: entries taken out, blocks put in
	emitBlocks := func(blocks [][]string, next int) {
		if len(blocks) > 0 {
			removals[len(out)] = true
			defer func() { removals[len(out)] = true }()
		}
		emitted := false
		for _, b := range blocks {
			if len(b) == 0 {
				continue
			}
			if len(out) > 0 && !blank(out[len(out)-1]) && !(isListLine(b[0]) && listContext(out)) {
				out = append(out, "")
			}
			out = append(out, b...)
			emitted = true
		}
		// Keep the block apart from what follows, unless both are items of
		// one list.
		if emitted && next >= 1 && next <= len(d.lines) && !blank(d.lines[next-1]) &&
			!(isListLine(d.lines[next-1]) && listContext(out)) {
			out = append(out, "")
		}
	}
	flush := func(line int) {
		for _, s := range anchors[line] {
			emitBlocks(live(s.inserts), line+1)
		}
	}
	flush(0)
	for i := 1; i <= len(d.lines); i++ {
		if u := d.unitAt[i]; u != nil {
			if !u.gone {
				out = append(out, u.lines...)
				emitBlocks(live(u.after), u.end+1)
			} else {
				removals[len(out)] = true
				// What replaces a removed entry takes its place as it is.
				for _, b := range live(u.after) {
					out = append(out, b...)
				}
			}
			i = u.end
			flush(i)
			// A removed entry takes one of the blank lines around it along.
			if u.gone && (len(out) == 0 || blank(out[len(out)-1])) && i < len(d.lines) && blank(d.lines[i]) {
				i++
				flush(i)
			}
			continue
		}
		if r, ok := d.lineRepl[i]; ok {
			out = append(out, r)
		} else {
			out = append(out, d.lines[i-1])
		}
		flush(i)
	}
	for _, s := range d.added {
		blocks := live(s.inserts)
		if len(blocks) == 0 {
			continue
		}
		if len(out) > 0 && strings.TrimSpace(out[len(out)-1]) != "" {
			out = append(out, "")
		}
		out = append(out, strings.Repeat("#", max(s.level, 1))+" "+s.heading)
		for k, b := range blocks {
			if k == 0 && !isListLine(b[0]) || k > 0 && !(isListLine(b[0]) && listContext(out)) {
				out = append(out, "")
			}
			out = append(out, b...)
		}
	}
	for _, b := range live(d.tail) {
		if len(out) > 0 && strings.TrimSpace(out[len(out)-1]) != "" {
			out = append(out, "")
		}
		out = append(out, b...)
	}
	out = tidyBlanks(out, removals)
	// Removing the last entries of a file can leave blank lines at its end.
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	s := strings.Join(out, "\n")
	if !d.bare || !d.exists {
		s += "\n"
	}
	if d.crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return []byte(s)
}

// tidyBlanks cleans the blank lines next to the dream's edits (entries
// taken out, blocks put in): a run of them shrinks to one, and to none
// between two items of a list (a block removed from between list items must
// not split the list). Blank lines away from edits stay as the file had
// them.
func tidyBlanks(out []string, removals map[int]bool) []string {
	if len(removals) == 0 {
		return out
	}
	blank := func(l string) bool { return strings.TrimSpace(l) == "" }
	var res []string
	for i := 0; i < len(out); {
		if !blank(out[i]) {
			res = append(res, out[i])
			i++
			continue
		}
		j := i
		for j < len(out) && blank(out[j]) {
			j++
		}
		touched := false
		for k := i; k <= j; k++ {
			touched = touched || removals[k]
		}
		switch {
		case !touched:
			res = append(res, out[i:j]...)
		case len(res) > 0 && j < len(out) && isListLine(out[j]) && listContext(res):
			// between two items: no blank
		default:
			res = append(res, "")
		}
		i = j
	}
	return res
}

// isListLine reports a list item line ("- x", "* x", "1. x"), indented by
// blanks or not.
func isListLine(s string) bool {
	_, ok := mdline.ListItem(strings.TrimLeft(s, " "))
	return ok
}

// listContext reports whether the lines so far end inside a list, so a new
// item can follow without a blank line.
func listContext(out []string) bool {
	for i := len(out) - 1; i >= 0; i-- {
		l := out[i]
		switch {
		case strings.TrimSpace(l) == "":
			return false
		case isListLine(l) && !strings.HasPrefix(l, " "):
			return true
		case strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t"):
			continue // a continuation line of an item
		default:
			return false
		}
	}
	return false
}
