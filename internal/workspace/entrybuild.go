package workspace

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/dates"
)

// This file turns the lines gathered for one entry into an Entry: its
// text, title, tags, dates, status, pointers and Rule/Why/How parts.

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
	e.Date, b.byRef = entryDate(whole, ref)
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
		// Rows are tidied whole, with their code hidden (see codespan.go).
		var k codeKeeper
		cells := make([]string, len(b.cells))
		e.Cells = make([]string, len(b.cells))
		for i, c := range b.cells {
			cells[i] = k.inlineText(c)
			e.Cells[i] = k.show(cells[i])
		}
		e.Columns = b.columns
		e.Text = k.show(tidyText(tableRowText(nil, cells)))
		e.headed = k.show(tidyText(tableRowText(e.Columns, cells)))
	default:
		var k codeKeeper
		plainTitle := ""
		if title != "" {
			plainTitle = tidyText(trimTitleDate(stripInline(k.hide(title))))
			e.Title = k.show(plainTitle)
		}
		plain := tidyText(stripInline(k.hide(body)))
		if rule, why, how, ok := splitRuleWhyHow(plain, b.shape == ShapeRuleWhy); ok {
			e.Rule, e.Why, e.How = k.show(rule), k.show(why), k.show(how)
			plain = joinRuleWhyHow(rule, why, how)
		}
		e.Text = k.show(joinTitle(plainTitle, plain))
	}
	if e.Text == "" {
		return nil
	}
	return e
}

// HeadedText is what the entry says read on its own. For a table row
// that is each cell after its column's header ("host: gw; ip: 10.0.0.1"),
// since a row's cells say nothing without their headers; Text keeps the
// cells alone ("gw — 10.0.0.1"), as a log states the same fact. For every
// other entry it is Text.
func (e *Entry) HeadedText() string {
	if e.Shape != ShapeTableRow || e.headed == "" {
		return e.Text
	}
	return e.headed
}

// tableRowText joins a row's cells, each after its column's header when
// the table has one ("Service: Fastmail; Used for: mail"), else by dashes.
// A type tag opening the first cell is left out (it is the entry's
// TypeTag).
func tableRowText(columns, cells []string) string {
	var parts []string
	headed := false
	for i, c := range cells {
		if c == "" {
			continue
		}
		if len(parts) == 0 {
			if t, rest := takeTypeTags(c); t != "" {
				c = strings.TrimSpace(rest)
			}
		}
		if i < len(columns) && columns[i] != "" {
			c = columns[i] + ": " + c
			headed = true
		}
		parts = append(parts, c)
	}
	if headed {
		return strings.Join(parts, "; ")
	}
	return strings.Join(parts, " — ")
}

// endsSentence reports text ending in punctuation that already separates
// what follows, also inside closing emphasis ("**Stack:**").
func endsSentence(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, " *_"))
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
