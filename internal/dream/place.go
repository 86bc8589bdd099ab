package dream

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// Where a new entry goes in a file a person wrote. A person's numbered
// list (steps, files changed), table, code block, or a list whose heading
// states how many items it has ("无SOP（11个）", "Capabilities (5)") is
// closed: a line added there changes what they wrote, or makes the count
// wrong. A new entry goes at the end of an open bullet list of a section
// that is about it (named for its memory type, or sharing its words), else
// into a section the dream owns in the file, created once.

// lineKind is what a line of a Markdown file is, as placement sees it.
type lineKind uint8

const (
	kindText    lineKind = iota
	kindBlank            // an empty line
	kindHeading          // an ATX heading
	kindCode             // a fence line or a line inside a fenced block
	kindTable            // a table row
	kindOrdered          // an item of a numbered list, or a line continuing one
	kindItem             // an item of a bullet list at the margin
	kindNested           // a line continuing or nested under a bullet item
)

// reStatedCount is a count a heading states: a number in brackets ("(5)",
// "（11个）", "(7개)", "(4 steps)"), or a closing number that stands alone
// ("Top 10"; not "v2", not a date). A heading read as counted when it is
// not ("Phase 2") only keeps its list closed.
var reStatedCount = regexp.MustCompile(`[(（]\s*\d+\s*[^()（）\d]{0,12}[)）]\s*$|(?:^|\s)\d{1,3}\s*$`)

// lineKinds reads the structure of a file's lines.
func lineKinds(lines []string) []lineKind {
	out := make([]lineKind, len(lines))
	var fence mdline.Fence
	prev := kindBlank
	for i, l := range lines {
		t := strings.TrimSpace(l)
		level, _ := mdline.Heading(t)
		k := kindText
		switch {
		case fence.Code(t):
			k = kindCode
		case t == "":
			k = kindBlank
		case level > 0:
			k = kindHeading
		case mdline.TableRow(t):
			k = kindTable
		case orderedItem(t):
			k = kindOrdered // nested under a bullet too: still a numbered list
		case l[0] == t[0] && isListLine(t):
			k = kindItem // a bullet at the margin
		case prev == kindOrdered && (l != t || lines[i-1] != ""):
			k = kindOrdered
		case (prev == kindItem || prev == kindNested) && l != t:
			k = kindNested // indented: a continuation or a nested item
		}
		out[i] = k
		if k != kindBlank {
			prev = k
		}
	}
	return out
}

// orderedItem reports a line that opens an item of a numbered list ("1. ",
// "2) "), indented or not.
func orderedItem(s string) bool {
	t := strings.TrimSpace(s)
	_, ok := mdline.ListItem(t)
	return ok && t[0] >= '0' && t[0] <= '9'
}

// statesCount reports a heading that says how many items its section lists.
func statesCount(heading string) bool {
	return reStatedCount.MatchString(strings.TrimSpace(heading)) && !reISODate.MatchString(heading)
}

// kinds returns the structure of the document's lines, read once.
func (d *mdDoc) kinds() []lineKind {
	if d.lineKinds == nil {
		d.lineKinds = lineKinds(d.lines)
	}
	return d.lineKinds
}

// closedUnit reports an entry inside a structure no dream may change: a
// numbered list, a table, a code block, or a list whose heading states a
// count. Its lines are never rewritten (no marker, no evidence added).
func (d *mdDoc) closedUnit(u *unit) bool {
	if u == nil {
		return false
	}
	if u.sec != nil && statesCount(u.sec.heading) {
		return true
	}
	k := d.kinds()
	for i := u.start; i <= u.end && i <= len(k); i++ {
		switch k[i-1] {
		case kindCode, kindTable, kindOrdered:
			return true
		}
	}
	return false
}

// openListEnd returns the last entry of the section's own open bullet
// list (a new item goes right after it), or nil when the section has none:
// its lists are numbered, counted or followed directly by a table or code.
// A list under a label of its own ("2026-02-27：", "Done:") belongs to that
// label, so the section's list is the last one without one.
func (d *mdDoc) openListEnd(s *mdSection) *unit {
	if statesCount(s.heading) {
		return nil
	}
	k := d.kinds()
	for i := len(s.units) - 1; i >= 0; i-- {
		u := s.units[i]
		if u.gone || u.start < 1 || u.start > len(k) || k[u.start-1] != kindItem || d.closedUnit(u) {
			continue
		}
		if u.end < len(k) {
			switch k[u.end] {
			case kindBlank, kindHeading, kindItem:
			default:
				continue // something of the person's own follows right after it
			}
		}
		if d.labelledList(u.start) {
			continue
		}
		return u
	}
	return nil
}

// labelledList reports whether the list holding the item on line n opens
// under a label: a line of text ending in a colon, blank lines aside.
func (d *mdDoc) labelledList(n int) bool {
	k := d.kinds()
	i := n - 1
	for i > 0 && (k[i-1] == kindItem || k[i-1] == kindNested) {
		i--
	}
	for i > 0 && k[i-1] == kindBlank {
		i--
	}
	if i == 0 || k[i-1] != kindText {
		return false
	}
	t := strings.TrimRight(strings.TrimSpace(d.lines[i-1]), "*_")
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")
}

// dreamSections are the names of the section a dream owns in a file, by
// the language the file is written in (language); a dream finds its
// section again under any of them.
var dreamSections = map[string]string{"ko": "드림 정리", "ja": "ドリームで整理", "zh": "梦境整理", "en": "From dreams"}

// dreamSection returns the section the dream owns in a file: the one an
// earlier dream started, else a new one at the end, named in the file's
// language.
func (d *mdDoc) dreamSection() *mdSection {
	for _, lang := range []string{"ko", "ja", "zh", "en"} {
		if s := d.section(dreamSections[lang]); s != nil {
			return s
		}
	}
	return d.addSection(dreamSectionName(strings.Join(d.lines, "\n")), 2)
}

// dreamSectionName picks the name for a file's text: in its language, in
// English when its script tells none a dream writes.
func dreamSectionName(text string) string {
	if name, ok := dreamSections[language(text)]; ok {
		return name
	}
	return dreamSections["en"]
}

// scripts are the scripts that tell a language, in the order they are
// tried: kana before Han (Japanese writes both), Hangul first.
var scripts = []struct {
	table *unicode.RangeTable
	lang  string
}{
	{unicode.Hangul, "ko"},
	{unicode.Hiragana, "ja"},
	{unicode.Katakana, "ja"},
	{unicode.Han, "zh"},
}

// language is the language a text is written in as far as its script
// tells: "ko", "ja" or "zh" when that script holds a tenth of its letters
// at least, "en" for Latin text (or no letters), "" for a script a dream
// writes nothing in. It is the one rule for "which language is this file
// in?": the dream's own section and its dream-log entries use it.
func language(text string) string {
	letters, latin := 0, 0
	count := make([]int, len(scripts))
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if unicode.Is(unicode.Latin, r) {
			latin++
		}
		for i, sc := range scripts {
			if unicode.Is(sc.table, r) {
				count[i]++
			}
		}
	}
	for i, sc := range scripts {
		if letters > 0 && count[i]*10 >= letters {
			return sc.lang
		}
	}
	if letters == 0 || latin*2 >= letters {
		return "en"
	}
	return ""
}

// spot picks where a new entry goes in a document: after the last item of
// an open list in the section that suits it best (one named for its type
// comes first, then the one whose heading shares most of its words), else
// in the dream's own section. after is nil when the entry goes at the end
// of sec.
func (d *mdDoc) spot(typ string, words []string) (sec *mdSection, after *unit) {
	type choice struct {
		s     *mdSection
		score int
	}
	var choices []choice
	for _, s := range d.sections {
		if s.line == 0 || historySection(s.heading) {
			continue
		}
		score := 0
		if typeHeading(typ, s.heading) {
			score = 100
		}
		hw := contentWords(s.heading)
		for _, w := range words {
			if !genericWords[w] && slices.Contains(hw, w) {
				score++
			}
		}
		if score > 0 {
			choices = append(choices, choice{s, score})
		}
	}
	slices.SortStableFunc(choices, func(a, b choice) int { return b.score - a.score })
	for _, c := range choices {
		if u := d.openListEnd(c.s); u != nil {
			return c.s, u
		}
	}
	s := d.dreamSection()
	if !s.isNew {
		if u := d.openListEnd(s); u != nil {
			return s, u
		}
	}
	return s, nil
}
