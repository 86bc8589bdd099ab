package workspace

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

const dreamingMarker = "openclaw:dreaming:"

// parseDreams reads DREAMS.md: the <!-- openclaw:dreaming:NAME:start -->
// ... :end --> blocks, the diary entries of the diary block and the list
// items of every block.
func parseDreams(f *File, diags *diag.List) *DreamsDiary {
	d := &DreamsDiary{File: f}
	lines := mdline.Split(f.Content)
	open := ""
	openLine := 0
	for i, l := range lines {
		name, edge, ok := dreamingEdge(l)
		if !ok {
			continue
		}
		switch {
		case edge == "start" && open != "":
			diags.Warnf("dreams", f.Path, openLine, "dreaming block %q is not closed before the %q block starts on line %d; it was closed there", open, name, i+1)
			d.addBlock(open, openLine, i+1, false, lines)
			open, openLine = name, i+1
		case edge == "start":
			open, openLine = name, i+1
		case edge == "end" && name == open:
			d.addBlock(open, openLine, i+1, true, lines)
			open = ""
		case edge == "end":
			diags.Warnf("dreams", f.Path, i+1, "end marker of dreaming block %q has no matching start marker; it was ignored", name)
		}
	}
	if open != "" {
		diags.Warnf("dreams", f.Path, openLine, "dreaming block %q has no end marker; it was read to the end of the file", open)
		d.addBlock(open, openLine, len(lines)+1, false, lines)
	}
	return d
}

// dreamingEdge recognises "<!-- openclaw:dreaming:diary:start -->".
func dreamingEdge(l string) (name, edge string, ok bool) {
	t := strings.TrimSpace(l)
	if len(t) < 7 || !strings.HasPrefix(t, "<!--") || !strings.HasSuffix(t, "-->") {
		return "", "", false
	}
	inner := strings.TrimSpace(t[4 : len(t)-3])
	if !strings.HasPrefix(inner, dreamingMarker) {
		return "", "", false
	}
	rest := inner[len(dreamingMarker):]
	k := strings.LastIndexByte(rest, ':')
	if k <= 0 {
		return "", "", false
	}
	name, edge = strings.ToLower(strings.TrimSpace(rest[:k])), strings.ToLower(strings.TrimSpace(rest[k+1:]))
	if edge != "start" && edge != "end" {
		return "", "", false
	}
	return name, edge, true
}

// addBlock records the block whose start marker is on line start and
// whose content stops before line end: its end marker when closed, else
// the next block's start marker or the end of the file.
func (d *DreamsDiary) addBlock(name string, start, end int, closed bool, lines []string) {
	endLine := end
	if !closed {
		endLine = end - 1
	}
	inner := lines[start : end-1]
	d.Blocks = append(d.Blocks, Block{Name: name, StartLine: start, EndLine: endLine, Content: strings.Join(inner, "\n")})
	if name == "diary" {
		entries := diaryEntries(inner, start+1)
		d.Diary = append(d.Diary, entries...)
		for _, e := range entries {
			d.Items = append(d.Items, e.Items...)
		}
		return
	}
	d.Items = append(d.Items, dreamItems(name, inner, start+1)...)
}

// diaryEntries splits the diary block at "---" lines.
func diaryEntries(lines []string, first int) []*DiaryEntry {
	var out []*DiaryEntry
	from := 0
	flush := func(to int) {
		chunk := lines[from:to]
		a, b := 0, len(chunk)
		// A block title ("## Dream Diary") opens the first entry; it is not
		// part of it.
		for a < b {
			t := strings.TrimSpace(chunk[a])
			if level, _ := mdline.Heading(t); t != "" && level == 0 {
				break
			}
			a++
		}
		for b > a && strings.TrimSpace(chunk[b-1]) == "" {
			b--
		}
		if a == b {
			return
		}
		e := &DiaryEntry{Line: first + from + a, EndLine: first + from + b - 1}
		var text []string
		dated := false
		for k := a; k < b; k++ {
			l := strings.TrimSpace(chunk[k])
			if !dated && l != "" {
				if t, ok := parseDiaryDate(l); ok && looksLikeDateLine(l) {
					e.Date, e.DateText, dated = t, strings.Trim(l, "*_ "), true
					continue
				}
			}
			text = append(text, chunk[k])
		}
		e.Text = strings.TrimSpace(strings.Join(text, "\n"))
		for strings.Contains(e.Text, "\n\n\n") {
			e.Text = strings.ReplaceAll(e.Text, "\n\n\n", "\n\n")
		}
		e.Items = dreamItems("diary", chunk, first+from)
		out = append(out, e)
	}
	for i, l := range lines {
		if mdline.ThematicBreak(strings.TrimSpace(l)) {
			flush(i)
			from = i + 1
		}
	}
	flush(len(lines))
	return out
}

// looksLikeDateLine keeps prose that merely starts with a month name
// ("May we ...") from being taken as a date line.
func looksLikeDateLine(l string) bool {
	t := strings.Trim(l, "*_ ")
	return len(t) < 64
}

// dreamItems parses the list items of a block into DreamItems.
func dreamItems(block string, lines []string, first int) []*DreamItem {
	var out []*DreamItem
	for _, sec := range parseEntryLines("", lines, first, time.Time{}, nil) {
		for _, e := range sec.Entries {
			if e.Shape != ShapeList {
				continue
			}
			out = append(out, parseDreamItem(block, e.Line, itemContent(e.Raw)))
		}
	}
	return out
}

// itemContent joins the lines of a list item without markers.
func itemContent(raw string) string {
	var parts []string
	for _, l := range strings.Split(raw, "\n") {
		t := strings.TrimSpace(l)
		if li, ok := mdline.ListItem(t); ok {
			t = li.Text
		}
		if q, ok := mdline.Quote(t); ok {
			t = q
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " ")
}

var dreamKeys = []string{"confidence", "evidence", "recalls", "status"}

// parseDreamItem splits an item into its text and its annotations:
// "Text — confidence: 0.82 · evidence: memory/x.md:5-7 · recalls: 3 ·
// status: staged", in any order and with any separators.
func parseDreamItem(block string, line int, s string) *DreamItem {
	it := &DreamItem{Block: block, Line: line}
	type at struct{ key, end, start int }
	var found []at
	for ki, key := range dreamKeys {
		for from := 0; ; {
			k := indexFold(s[from:], key)
			if k < 0 {
				break
			}
			k += from
			from = k + len(key)
			if !wordBoundaryBefore(s, k) {
				continue
			}
			j := k + len(key)
			if j < len(s) && (s[j] == '_' || s[j] == '*') {
				j++
				if j < len(s) && s[j] == '*' {
					j++
				}
			}
			for j < len(s) && s[j] == ' ' {
				j++
			}
			switch {
			case j < len(s) && (s[j] == ':' || s[j] == '='):
				j++
			case strings.HasPrefix(s[j:], "："):
				j += len("：")
			case key != "evidence" && key != "status" && j > k+len(key) && j < len(s) && isDigit(s[j]):
				// "confidence 0.5", "recalls 3"
			default:
				continue
			}
			found = append(found, at{ki, j, k})
		}
	}
	if len(found) == 0 {
		it.Text = plainText(s)
		return it
	}
	sort.Slice(found, func(i, j int) bool { return found[i].start < found[j].start })
	text := s[:found[0].start]
	text = strings.TrimRight(text, " —–-|·,;([*_")
	it.Text = plainText(text)
	for i, f := range found {
		end := len(s)
		if i+1 < len(found) {
			end = found[i+1].start
		}
		v := strings.Trim(strings.TrimSpace(s[f.end:end]), " —–|·,;)]*_")
		switch dreamKeys[f.key] {
		case "confidence":
			it.Confidence = parseConfidence(v)
		case "recalls":
			it.Recalls, _ = strconv.Atoi(firstField(v))
		case "status":
			it.Status = strings.ToLower(firstField(v))
		case "evidence":
			for _, p := range refList(v) {
				p.Kind, p.Line, p.Text = PointerEvidence, line, fmt.Sprintf("evidence: %s", v)
				it.Evidence = append(it.Evidence, p)
			}
		}
	}
	return it
}

func firstField(v string) string {
	f := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == ')' || r == ']' })
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(f[0], "*_")
}

// parseConfidence reads "0.82", "82%" or "high"/"medium"/"low".
func parseConfidence(v string) float64 {
	f := firstField(v)
	if strings.HasSuffix(f, "%") {
		if x, err := strconv.ParseFloat(strings.TrimSuffix(f, "%"), 64); err == nil {
			return x / 100
		}
	}
	if x, err := strconv.ParseFloat(f, 64); err == nil {
		return x
	}
	switch strings.ToLower(f) {
	case "high":
		return 0.9
	case "medium":
		return 0.6
	case "low":
		return 0.3
	}
	return 0
}

// parsePhase reads memory/dreaming/<phase>/DATE.md.
func parsePhase(f *File, phase string) *PhaseReport {
	p := &PhaseReport{File: f, Phase: phase}
	name := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
	if d, _, ok := dailyName(name); ok {
		p.Date = d
	}
	return p
}
