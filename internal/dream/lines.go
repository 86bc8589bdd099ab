package dream

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// Line-level writing: how a new fact is written, and how an existing entry
// gets a marker or more evidence without touching the rest of its text.

// addEvidence merges evidence into the candidate, each range once, oldest
// first.
func (c *candidate) addEvidence(evs ...evidence) {
	for _, e := range evs {
		if !slices.ContainsFunc(c.evidence, func(x evidence) bool { return x.Path == e.Path && x.Line == e.Line && x.EndLine == e.EndLine }) {
			c.evidence = append(c.evidence, e)
		}
	}
	slices.SortStableFunc(c.evidence, func(a, b evidence) int {
		if d := a.Date.Compare(b.Date); d != 0 {
			return d
		}
		if a.Path != b.Path {
			return strings.Compare(a.Path, b.Path)
		}
		return a.Line - b.Line
	})
}

var reExpiryWords = regexp.MustCompile(`(?i)\b(?:expires?|expired|expiry|until|till|through|valid)\b`)

// annotatePermission gives a permission its expiry (DESIGN 5.5) when the
// line does not state one, and says when it has already lapsed.
func (c *candidate) annotatePermission(now time.Time) {
	if !c.perm || c.expires.IsZero() {
		return
	}
	day := c.expires.Format(time.DateOnly)
	switch {
	case memory.Lapsed(c.expires, now):
		c.permNote = "(permission lapsed " + day + ")"
	case !reExpiryWords.MatchString(c.fact):
		c.permNote = "(expires " + day + ")"
	}
}

// lines writes a new fact as one list item ("- [type] fact" where the
// file tags its entries, "- fact" elsewhere); a fact that gave its reason
// gets its Why (and How) on that line, as Rule/Why/How for feedback
// (DESIGN 5.3), which the workspace reads back as one Rule/Why entry. Then come its Source
// pointers. No line is longer than MaxLine: the fact is shortened, or the
// sources go on their own lines, indented under the item.
func (c *candidate) lines(tag bool) []string {
	notes := c.notesText()
	srcs := evidenceStrings(c.evidence)
	prefix := "- "
	if tag {
		prefix = "- [" + c.typ + "] "
	}
	fact, rest := c.fact, ""
	if c.why != "" {
		if c.typ == TypeFeedback {
			prefix += "**Rule:** "
		}
		fact = strings.TrimSuffix(fact, ".")
		rest = ". **Why:** " + c.why + "."
		if c.how != "" {
			rest += " **How to apply:** " + c.how + "."
		}
	}
	suffix := ""
	if len(notes) > 0 {
		suffix = " " + strings.Join(notes, " ")
	}
	room := MaxLine - utf8.RuneCountInString(prefix+rest+suffix)
	first := prefix + shorten(fact, max(room, 40)) + suffix + rest
	if utf8.RuneCountInString(first) > MaxLine {
		first = prefix + shorten(fact, max(room, 40)) + suffix
		first += shorten(rest, max(MaxLine-utf8.RuneCountInString(first), 20))
	}
	if len(srcs) == 0 {
		return []string{first}
	}
	one := first + " Source: " + strings.Join(srcs, ", ")
	if utf8.RuneCountInString(one) <= MaxLine {
		return []string{one}
	}
	return append([]string{first}, sourceLines("  ", srcs)...)
}

// notesText are the markers a new line carries after its fact.
func (c *candidate) notesText() []string {
	var notes []string
	for _, n := range []string{c.permNote, c.closedNote(), c.supersedeNote} {
		if n != "" {
			notes = append(notes, n)
		}
	}
	return notes
}

// entryText is the text the workspace will read back from the line.
func (c *candidate) entryText() string {
	return strings.Join(append([]string{c.fact}, c.notesText()...), " ")
}

func (c *candidate) closedNote() string {
	if c.closedOn.IsZero() {
		return ""
	}
	return "(done " + c.closedOn.Format(time.DateOnly) + ")"
}

// sourceLines writes "Source: a, b, c" over as many lines as MaxLine needs.
func sourceLines(indent string, srcs []string) []string {
	var out []string
	cur := indent + "Source: "
	n := 0
	for _, s := range srcs {
		add := s
		if n > 0 {
			add = ", " + s
		}
		if n > 0 && utf8.RuneCountInString(cur+add) > MaxLine {
			out = append(out, cur+",")
			cur = indent + "Source: " + s
			n = 1
			continue
		}
		cur += add
		n++
	}
	return append(out, cur)
}

// reFooter finds where a line's metadata starts: a Source footer, an HTML
// comment, an OpenClaw score bracket.
var reFooter = regexp.MustCompile(`(?i)\s+(?:\(?source:|来源[:：]|<!--|\[score=)`)

// textLine is the index of the line of an entry that carries its text (not
// a comment or a table header).
func textLine(lines []string) int {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->") {
			continue
		}
		return i
	}
	return 0
}

// insertMarker puts a marker ("(superseded …)", "(done …)") after an
// entry's text, before its Source footer or comments. When the line would
// grow past MaxLine, the marker goes on a line of its own right after it
// (indented under a list item), which still belongs to the entry.
func insertMarker(lines []string, marker string) []string {
	out := slices.Clone(lines)
	if len(out) == 0 {
		return out
	}
	i := textLine(out)
	l := out[i]
	var next string
	if loc := reFooter.FindStringIndex(l); loc != nil && loc[0] > 0 {
		next = l[:loc[0]] + " " + marker + l[loc[0]:]
	} else {
		next = strings.TrimRight(l, " ") + " " + marker
	}
	if utf8.RuneCountInString(next) <= MaxLine {
		out[i] = next
		return out
	}
	return slices.Insert(out, i+1, continuationIndent(l)+marker)
}

// continuationIndent is the indentation that keeps a new line inside the
// entry whose line is l.
func continuationIndent(l string) string {
	t := strings.TrimLeft(l, " ")
	if it, ok := mdline.ListItem(t); ok {
		return strings.Repeat(" ", len(l)-len(t)+it.MarkerLen)
	}
	return ""
}

var reSourceFooter = regexp.MustCompile(`(?i)\bsource:\s*(?:memory/|MEMORY\.md)`)

// addEvidence adds evidence pointers to an entry's lines: to its Source
// footer when it has one, else as a new footer; pointers already there are
// not repeated. Lines stay within MaxLine.
func addEvidence(lines []string, evs []evidence) []string {
	out := slices.Clone(lines)
	all := strings.Join(out, "\n")
	var add []string
	for _, e := range evs {
		if strings.Contains(all, e.String()) || strings.Contains(all, e.Path+":"+strconv.Itoa(e.Line)+"-") ||
			strings.Contains(all, e.Path+"#L"+strconv.Itoa(e.Line)) {
			continue
		}
		add = append(add, e.String())
	}
	if len(add) == 0 || len(out) == 0 {
		return out
	}
	for i := len(out) - 1; i >= 0; i-- {
		if loc := reSourceFooter.FindStringIndex(out[i]); loc != nil {
			l := out[i]
			end := len(l)
			if k := strings.Index(l[loc[0]:], "<!--"); k >= 0 {
				end = loc[0] + k
			}
			head := strings.TrimRight(l[:end], " ")
			next := head + ", " + strings.Join(add, ", ")
			if end < len(l) {
				next += " " + strings.TrimLeft(l[end:], " ")
			}
			if utf8.RuneCountInString(next) <= MaxLine {
				out[i] = next
				return out
			}
			return slices.Insert(out, i+1, sourceLines(continuationIndent(out[textLine(out)]), add)...)
		}
	}
	last := len(out) - 1
	next := strings.TrimRight(out[last], " ") + " Source: " + strings.Join(add, ", ")
	if utf8.RuneCountInString(next) <= MaxLine && !mdline.TableRow(strings.TrimSpace(out[last])) {
		out[last] = next
		return out
	}
	return append(out, sourceLines(continuationIndent(out[textLine(out)]), add)...)
}

// withDate anchors a fact to its day: "X." becomes "X (2026-11-20).",
// "X。" becomes "X (2026-11-20)。" and "X" becomes "X (2026-11-20)".
func withDate(fact string, day time.Time) string {
	d := " (" + day.Format(time.DateOnly) + ")"
	t := strings.TrimRight(fact, " ")
	for _, stop := range []string{".", "。"} {
		if strings.HasSuffix(t, stop) && !strings.HasSuffix(t, "..") {
			return strings.TrimSuffix(t, stop) + d + stop
		}
	}
	return t + d
}

var reDateSuffix = regexp.MustCompile(` \(\d{4}-\d{2}-\d{2}\)(\.?|。?)$`)

// stripDateSuffix drops the " (2026-11-20)" withDate added, for quoting a
// fact inside a marker.
func stripDateSuffix(s string) string {
	return reDateSuffix.ReplaceAllString(s, "$1")
}
