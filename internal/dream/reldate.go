package dream

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/dates"
)

// Relative dates are turned into absolute ones against the date of the log
// a candidate came from, never against the day the dream runs: "tomorrow"
// written on 2026-11-19 is 2026-11-20 whenever the log is read.
//
// Conventions (the seeds ask for absolute dates, not for a theory of
// deixis, so each reading is the common one and is written down here):
//   - weeks run Monday to Sunday; "last/this/next week" become "the week of
//     <Monday>";
//   - "next Friday" is the Friday of next week, "this Friday" the Friday of
//     this week, "last Friday" the most recent Friday before the log's date,
//     "coming Friday" the first Friday after it;
//   - "in 3 days", "3 days ago", "in two weeks" count whole days;
//   - Chinese and Japanese words (今天, 昨天, 明天, 前天, 后天, 上周, 下周一,
//     上个月, 去年, 先週, 来週, 昨日, 明日...) follow the same rules;
//   - nothing inside `code` or a URL is touched.

var (
	rePrep = `(?:\b(on|by|until|till|since|from|for|before|after|through|as of|starting|due)\s+)?`

	reDayWords = regexp.MustCompile(`(?i)` + rePrep +
		`\b(the day before yesterday|the day after tomorrow|yesterday|today|tomorrow|tonight|last night|this (?:morning|afternoon|evening))\b`)
	rePeriod  = regexp.MustCompile(`(?i)` + rePrep + `\b(last|next|this|coming)\s+(week|month|year)\b`)
	reWeekday = regexp.MustCompile(`(?i)` + rePrep + `\b(last|next|this|coming)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)
	reInDays  = regexp.MustCompile(`(?i)\bin\s+(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(days?|weeks?)\b`)
	reAgo     = regexp.MustCompile(`(?i)` + rePrep + `\b(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(days?|weeks?)\s+ago\b`)

	reCJKDay     = regexp.MustCompile(`大前天|大后天|前天|昨天|今天|明天|后天|後天|昨日|今日|明日|一昨日|明後日`)
	reCJKWeekday = regexp.MustCompile(`(上|下|这|這|本)(?:个|個)?(?:周|週|星期|礼拜|禮拜)([一二三四五六日天])|(先週|来週|今週)の?([月火水木金土日])曜日?`)
	reCJKWeek    = regexp.MustCompile(`(上|下|这|這|本)(?:个|個)?(?:周|週|星期|礼拜|禮拜)|先週|来週|今週`)
	reCJKMonth   = regexp.MustCompile(`上个月|上個月|上月|下个月|下個月|下月|这个月|這個月|本月|先月|来月|今月`)
	reCJKYear    = regexp.MustCompile(`去年|今年|明年|昨年|来年`)
)

var numberWords = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

var weekdays = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

// absoluteDates rewrites the relative dates in text as absolute dates seen
// from day (the log's date). It returns the new text and whether anything
// changed.
func absoluteDates(text string, day time.Time) (string, bool) {
	if day.IsZero() {
		return text, false
	}
	day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	changed := false
	out := mapOutsideCode(text, func(s string) string {
		n := absoluteDatesPlain(s, day)
		if n != s {
			changed = true
		}
		return n
	})
	return out, changed
}

func absoluteDatesPlain(s string, day time.Time) string {
	iso := func(t time.Time) string { return t.Format(time.DateOnly) }
	s = resolveMonthDays(s, day)
	monday := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))

	lower := strings.ToLower(s)
	has := func(ws ...string) bool {
		for _, w := range ws {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	// Cheap checks first: most lines have no relative date at all.
	if has("yesterday", "today", "tomorrow", "tonight", "last night", "this morning", "this afternoon", "this evening") {
		s = replaceAll(reDayWords, s, func(m []string) string {
			prep, w := m[1], strings.ToLower(m[2])
			var base string
			switch w {
			case "the day before yesterday":
				base = iso(day.AddDate(0, 0, -2))
			case "the day after tomorrow":
				base = iso(day.AddDate(0, 0, 2))
			case "yesterday":
				base = iso(day.AddDate(0, 0, -1))
			case "today":
				base = iso(day)
			case "tomorrow":
				base = iso(day.AddDate(0, 0, 1))
			case "tonight", "this evening":
				base = "the evening of " + iso(day)
			case "last night":
				base = "the evening of " + iso(day.AddDate(0, 0, -1))
			default: // this morning / this afternoon
				base = "the " + strings.Fields(w)[1] + " of " + iso(day)
			}
			return withPrep(prep, "on", base, m[0])
		})
	}
	if !has("last ", "next ", "this ", "coming ", " ago", "in ") && !hasNonASCII(s) {
		return s
	}
	s = replaceAll(rePeriod, s, func(m []string) string {
		prep, rel, unit := m[1], strings.ToLower(m[2]), strings.ToLower(m[3])
		off := map[string]int{"last": -1, "this": 0, "next": 1, "coming": 1}[rel]
		var base string
		switch unit {
		case "week":
			base = "the week of " + iso(monday.AddDate(0, 0, 7*off))
		case "month":
			base = time.Date(day.Year(), day.Month()+time.Month(off), 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
		default:
			base = strconv.Itoa(day.Year() + off)
		}
		return withPrep(prep, "in", base, m[0])
	})
	s = replaceAll(reWeekday, s, func(m []string) string {
		prep, rel, wd := m[1], strings.ToLower(m[2]), weekdays[strings.ToLower(m[3])]
		return withPrep(prep, "on", iso(weekdayDate(day, monday, rel, wd)), m[0])
	})
	s = replaceAll(reInDays, s, func(m []string) string {
		return withPrep("", "on", iso(day.AddDate(0, 0, count(m[1], m[2]))), m[0])
	})
	s = replaceAll(reAgo, s, func(m []string) string {
		return withPrep(m[1], "on", iso(day.AddDate(0, 0, -count(m[2], m[3]))), m[0])
	})

	if !hasNonASCII(s) {
		return s
	}
	// Chinese and Japanese: the date replaces the word itself.
	s = reCJKDay.ReplaceAllStringFunc(s, func(w string) string {
		off := map[string]int{"大前天": -3, "前天": -2, "一昨日": -2, "昨天": -1, "昨日": -1, "今天": 0, "今日": 0,
			"明天": 1, "明日": 1, "后天": 2, "後天": 2, "明後日": 2, "大后天": 3}[w]
		return iso(day.AddDate(0, 0, off))
	})
	s = reCJKWeekday.ReplaceAllStringFunc(s, func(w string) string {
		m := reCJKWeekday.FindStringSubmatch(w)
		rel, d := m[1], m[2]
		if rel == "" {
			rel, d = map[string]string{"先週": "上", "来週": "下", "今週": "本"}[m[3]], m[4]
		}
		off := map[string]int{"上": -1, "下": 1, "这": 0, "這": 0, "本": 0}[rel]
		idx := strings.Index("一二三四五六日", d) / len("一")
		if d == "天" {
			idx = 6
		}
		if jp := strings.Index("月火水木金土日", d); m[3] != "" && jp >= 0 {
			idx = jp / len("月")
		}
		return iso(monday.AddDate(0, 0, 7*off+idx))
	})
	s = reCJKWeek.ReplaceAllStringFunc(s, func(w string) string {
		off := cjkOffset(w, "先週", "来週")
		if strings.HasSuffix(w, "週") && (w == "先週" || w == "来週" || w == "今週") {
			return iso(monday.AddDate(0, 0, 7*off)) + " の週"
		}
		return iso(monday.AddDate(0, 0, 7*off)) + " 当周"
	})
	s = reCJKMonth.ReplaceAllStringFunc(s, func(w string) string {
		off := cjkOffset(w, "先月", "来月")
		return time.Date(day.Year(), day.Month()+time.Month(off), 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
	})
	s = reCJKYear.ReplaceAllStringFunc(s, func(w string) string {
		off := map[string]int{"去年": -1, "昨年": -1, "今年": 0, "明年": 1, "来年": 1}[w]
		return strconv.Itoa(day.Year()+off) + "年"
	})
	return s
}

// cjkOffset is how many weeks or months a Chinese "上"/"下" prefix ("上周",
// "下个月") or the Japanese word for the previous or next one (prev, next:
// "先週", "来週") moves from the current one: -1, 1, or 0 for "this".
func cjkOffset(w, prev, next string) int {
	switch {
	case strings.HasPrefix(w, "上"), w == prev:
		return -1
	case strings.HasPrefix(w, "下"), w == next:
		return 1
	}
	return 0
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

var reMonthDay = regexp.MustCompile(`\d{2}-\d{2}`)

// resolveMonthDays completes month-days written without a year ("11-07",
// the habit of these logs) with the year dates.ResolveYearless gives them
// from the log's date. Only two-digit pairs standing alone count: "2026-11-07",
// "PM-2026-031", "10:30" and "4/14" are left as they are.
func resolveMonthDays(s string, day time.Time) string {
	if !strings.Contains(s, "-") {
		return s
	}
	idx := reMonthDay.FindAllStringIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range idx {
		i, j := loc[0], loc[1]
		if i > 0 && !monthDayBoundary(s[i-1]) || j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '-' || s[j] == '/' ||
			s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
			continue
		}
		m, _ := strconv.Atoi(s[i : i+2])
		d, _ := strconv.Atoi(s[i+3 : i+5])
		best, ok := dates.ResolveYearless(m, d, day)
		if !ok {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(best.Format(time.DateOnly))
		last = j
	}
	b.WriteString(s[last:])
	return b.String()
}

func monthDayBoundary(c byte) bool {
	return !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '/' || c == '.' || c == ':' || c == '_')
}

// weekdayDate resolves "last/this/next/coming <weekday>".
func weekdayDate(day, monday time.Time, rel string, wd time.Weekday) time.Time {
	idx := (int(wd) + 6) % 7 // Monday 0 … Sunday 6
	switch rel {
	case "next":
		return monday.AddDate(0, 0, 7+idx)
	case "this":
		return monday.AddDate(0, 0, idx)
	case "coming":
		d := (int(wd) - int(day.Weekday()) + 7) % 7
		if d == 0 {
			d = 7
		}
		return day.AddDate(0, 0, d)
	}
	d := (int(day.Weekday()) - int(wd) + 7) % 7
	if d == 0 {
		d = 7
	}
	return day.AddDate(0, 0, -d)
}

func count(n, unit string) int {
	v, err := strconv.Atoi(n)
	if err != nil {
		v = numberWords[strings.ToLower(n)]
	}
	if strings.HasPrefix(strings.ToLower(unit), "week") {
		v *= 7
	}
	return v
}

// withPrep keeps a preposition the text had ("until tomorrow" -> "until
// 2026-11-20"), else puts def in front ("tomorrow" -> "on 2026-11-20"), and
// capitalises the result when the original phrase was capitalised.
func withPrep(prep, def, base, orig string) string {
	s := def + " " + base
	if prep != "" {
		s = prep + " " + base
	}
	if r, _ := utf8.DecodeRuneInString(orig); unicode.IsUpper(r) {
		first, n := utf8.DecodeRuneInString(s)
		s = string(unicode.ToUpper(first)) + s[n:]
	}
	return s
}

// replaceAll is regexp.ReplaceAllStringFunc with the submatches, and whether
// the match opens the text or a sentence.
func replaceAll(re *regexp.Regexp, s string, fn func(m []string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range idx {
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = s[loc[2*i]:loc[2*i+1]]
			}
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(fn(m))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// mapOutsideCode applies fn to the parts of s outside `code spans` and
// URLs, which must stay exactly as written.
func mapOutsideCode(s string, fn func(string) string) string {
	if !strings.ContainsAny(s, "`:") {
		return fn(s)
	}
	var b strings.Builder
	for len(s) > 0 {
		k := strings.IndexByte(s, '`')
		u := reURL.FindStringIndex(s)
		switch {
		case k < 0 && u == nil:
			b.WriteString(fn(s))
			return b.String()
		case u != nil && (k < 0 || u[0] < k):
			b.WriteString(fn(s[:u[0]]))
			b.WriteString(s[u[0]:u[1]])
			s = s[u[1]:]
		default:
			e := strings.IndexByte(s[k+1:], '`')
			if e < 0 {
				b.WriteString(fn(s))
				return b.String()
			}
			b.WriteString(fn(s[:k]))
			b.WriteString(s[k : k+1+e+1])
			s = s[k+1+e+1:]
		}
	}
	return b.String()
}

var reURL = regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+`)
