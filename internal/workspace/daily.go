package workspace

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// IsDailyLog is the one rule for "is this a daily log?" (#23 rule 4): the
// reader that gives files their kind calls it, and through the kind every
// surface (the dream's batch, claims, check, the site). A file is a daily
// log when its name says so (DailyLogPath) and, if its name goes on past
// the date with words ("2026-04-07-gateway-move.md"), its content is shaped
// as a log, not as a topic file (topicShaped): a dated topic file is judged
// by its headings, not by its name alone. A time after the date
// ("2026-04-07-0810.md") is a log's name whatever it holds.
func IsDailyLog(p, content string) (date time.Time, suffix string, ok bool) {
	date, suffix, ok = DailyLogPath(p)
	if !ok || suffix == "" || reTimeSuffix.MatchString(suffix) {
		return date, suffix, ok
	}
	if topicShaped(content) {
		return time.Time{}, "", false
	}
	return date, suffix, true
}

// reTimeSuffix is a time of day after a log's date: "0810", "08-10",
// "08h10", "am", "1".
var reTimeSuffix = regexp.MustCompile(`^(?i:\d{1,4}|\d{1,2}[-_:h.]\d{2}(?:[-_:.]\d{2})?|am|pm|morning|evening|night)$`)

// reClock is a time of day in a heading ("## 08:10", "## 21:30 standup").
var reClock = regexp.MustCompile(`\b\d{1,2}:\d{2}\b`)

// topicShaped reports content shaped as a topic file: it opens with a
// title (an H1 that names no date, time or session) and has sections (an
// H2 at least), and no heading of it names a date or a time of day, or is
// a session header or a sleep phase: the headings of a log.
func topicShaped(content string) bool {
	lines := mdline.Split(content)
	title, sections := false, 0
	first := true
	var code mdline.Fence
	for _, l := range lines[mdline.FrontMatterEnd(lines):] {
		t := strings.TrimSpace(l)
		if code.Code(t) {
			continue
		}
		level, text := mdline.Heading(t)
		if level == 0 {
			continue
		}
		if _, _, dated := headingDateTime(text); dated || reClock.MatchString(text) || hasPrefixFold(text, "session:") || sleepName(text) != "" {
			return false
		}
		if first {
			title, first = level == 1, false
			continue
		}
		if level >= 2 {
			sections++
		}
	}
	return title && sections > 0
}

// maxItemParagraph is the longest paragraph (in characters) taken as a
// daily-log item: longer prose is narrative, not a candidate fact.
const maxItemParagraph = 500

// parseDaily reads a daily log: session header, Light/REM Sleep blocks and
// the candidate items outside them.
func parseDaily(f *File, date time.Time, suffix string) *DailyLog {
	d := &DailyLog{File: f, Date: date, Suffix: suffix}
	lines := mdline.Split(f.Content)
	start := mdline.FrontMatterEnd(lines)
	skip := map[int]bool{}
	d.Session = sessionHeader(lines, start, skip)
	d.Sleep = sleepBlocks(lines, start, skip)

	for _, sec := range parseEntryLines(f.Path, lines[start:], start+1, date, skip) {
		for _, e := range sec.Entries {
			if (e.Shape == ShapeParagraph || e.Shape == ShapeBoldTitle) && utf8.RuneCountInString(e.Text) > maxItemParagraph {
				continue
			}
			d.Items = append(d.Items, LogItem{
				Line:    e.Line,
				EndLine: e.EndLine,
				Section: e.Section,
				Text:    e.Text,
				Raw:     e.Raw,
				Tags:    e.Tags,
			})
		}
	}
	return d
}

// sessionHeader reads "# Session: 2026-04-07 08:10:37 UTC" and the
// "- **Session Key**: ..." lines under it, marking them in skip.
func sessionHeader(lines []string, start int, skip map[int]bool) *SessionHeader {
	i := start
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) {
		return nil
	}
	level, text := mdline.Heading(strings.TrimSpace(lines[i]))
	if level == 0 || !hasPrefixFold(text, "session:") {
		return nil
	}
	h := &SessionHeader{EndLine: i + 1}
	stamp := strings.TrimSpace(text[len("session:"):])
	if t, ok := dates.Timestamp(stamp); ok {
		h.Started = t
	} else if t, _, ok := headingDateTime(stamp); ok {
		h.Started = t
	}
	skip[i+1] = true
	for j := i + 1; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" {
			continue
		}
		name, value, ok := boldField(t)
		if !ok {
			break
		}
		if strings.EqualFold(name, "session key") {
			h.Key = value
		} else {
			if h.Fields == nil {
				h.Fields = map[string]string{}
			}
			h.Fields[name] = value
		}
		h.EndLine = j + 1
	}
	for j := i + 1; j < h.EndLine; j++ {
		skip[j+1] = true
	}
	return h
}

// boldField reads "- **Name**: value" (also "**Name:** value", without the
// list marker).
func boldField(t string) (name, value string, ok bool) {
	if li, isList := mdline.ListItem(t); isList {
		t = li.Text
	}
	if !strings.HasPrefix(t, "**") {
		return "", "", false
	}
	e := strings.Index(t[2:], "**")
	if e <= 0 {
		return "", "", false
	}
	name = t[2 : 2+e]
	rest := t[2+e+2:]
	switch {
	case strings.HasSuffix(name, ":"):
		name = strings.TrimSuffix(name, ":")
	case strings.HasPrefix(rest, ":"):
		rest = rest[1:]
	default:
		return "", "", false
	}
	return strings.TrimSpace(name), strings.TrimSpace(rest), true
}

// sleepBlocks finds "## Light Sleep" / "## REM Sleep" / "## Deep Sleep"
// blocks, each running to the next heading of the same or a higher level,
// and marks their lines in skip.
func sleepBlocks(lines []string, start int, skip map[int]bool) []Block {
	var out []Block
	var code mdline.Fence
	for i := start; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if code.Code(t) {
			continue
		}
		level, text := mdline.Heading(t)
		name := sleepName(text)
		if level == 0 || name == "" {
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if l, _ := mdline.Heading(strings.TrimSpace(lines[j])); l > 0 && l <= level {
				end = j
				break
			}
		}
		// Trailing blank lines belong to no block.
		last := end
		for last > i+1 && strings.TrimSpace(lines[last-1]) == "" {
			last--
		}
		out = append(out, Block{Name: name, StartLine: i + 1, EndLine: last, Content: strings.Join(lines[i+1:last], "\n")})
		for j := i; j < end; j++ {
			skip[j+1] = true
		}
		i = end - 1
	}
	return out
}

// sleepName maps a heading to a sleep phase: "Light Sleep" -> "light".
func sleepName(text string) string {
	t := strings.ToLower(strings.TrimLeft(stripInline(text), " 🌙💤😴🌒🌓🌔🌕🛌"))
	t = strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(t, "light sleep"):
		return "light"
	case strings.HasPrefix(t, "rem sleep"):
		return "rem"
	case strings.HasPrefix(t, "deep sleep"):
		return "deep"
	}
	return ""
}
