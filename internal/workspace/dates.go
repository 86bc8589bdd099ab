package workspace

import (
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dates"
)

// Dates are UTC midnight unless a time was written: a date in a memory file
// names a calendar day, not an instant in some machine's zone. The rules
// every package shares (what an ISO date is, how a year-less date
// resolves) are the dates package's; what follows are the workspace's
// readings of entries, headings and file names built on them.

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// firstDate finds the first full date in s that is not part of a path
// ("memory/2026-04-17.md" is a file, not a date of the entry).
func firstDate(s string) (time.Time, int, int) {
	for i := 0; i+10 <= len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && (isDigit(s[i-1]) || s[i-1] == '/' || s[i-1] == '-')) {
			continue
		}
		if t, n, ok := dates.At(s, i); ok {
			if strings.HasPrefix(s[i+n:], ".md") || strings.HasPrefix(s[i+n:], "-") && i+n+1 < len(s) && !isDigit(s[i+n+1]) && s[i+n+1] != ' ' {
				continue
			}
			return t, i, n
		}
		// 2026年4月27日
		if y, n := leadingInt(s[i:], 4); n == 4 && strings.HasPrefix(s[i+4:], "年") {
			if t, n, ok := cjkMonthDay(s, i+4+len("年"), y); ok {
				return t, i, 4 + len("年") + n
			}
		}
	}
	return time.Time{}, -1, 0
}

// cjkMonthDay parses "4月27日" at s[i:].
func cjkMonthDay(s string, i, year int) (time.Time, int, bool) {
	j := i
	m := 0
	for j < len(s) && isDigit(s[j]) && j-i < 2 {
		m = m*10 + int(s[j]-'0')
		j++
	}
	if j == i || !strings.HasPrefix(s[j:], "月") {
		return time.Time{}, 0, false
	}
	j += len("月")
	k := j
	d := 0
	for k < len(s) && isDigit(s[k]) && k-j < 2 {
		d = d*10 + int(s[k]-'0')
		k++
	}
	if k == j {
		return time.Time{}, 0, false
	}
	if strings.HasPrefix(s[k:], "日") {
		k += len("日")
	} else if strings.HasPrefix(s[k:], "号") {
		k += len("号")
	}
	if year == 0 {
		year = 2000 // placeholder; callers resolve partial dates
	}
	t, ok := dates.Make(year, m, d)
	return t, k - i, ok
}

// partialDate finds a month-day written without a year: "(04-27)",
// "(4/27)", "[04-27]", "（04-27）" or "4月27日".
func partialDate(s string) (month, day int, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		open := 0
		switch {
		case c == '(' || c == '[':
			open = 1
		case strings.HasPrefix(s[i:], "（"):
			open = len("（")
		}
		if open > 0 {
			j := i + open
			m, n1 := leadingInt(s[j:], 2)
			if n1 == 0 || j+n1 >= len(s) || (s[j+n1] != '-' && s[j+n1] != '/') {
				continue
			}
			d, n2 := leadingInt(s[j+n1+1:], 2)
			if n2 == 0 {
				continue
			}
			k := j + n1 + 1 + n2
			if k < len(s) && (s[k] == ')' || s[k] == ']' || strings.HasPrefix(s[k:], "）")) {
				if _, ok := dates.Make(2000, m, d); ok {
					return m, d, true
				}
			}
			continue
		}
		if isDigit(c) && (i == 0 || !isDigit(s[i-1])) {
			if t, _, ok := cjkMonthDay(s, i, 2000); ok {
				return int(t.Month()), t.Day(), true
			}
		}
	}
	return 0, 0, false
}

func leadingInt(s string, max int) (int, int) {
	v, n := 0, 0
	for n < len(s) && n < max && isDigit(s[n]) {
		v = v*10 + int(s[n]-'0')
		n++
	}
	return v, n
}

// entryDate is the date written in an entry: the first full date, else a
// partial date resolved against ref (byRef is then set: another ref could
// give another date).
func entryDate(s string, ref time.Time) (t time.Time, byRef bool) {
	if t, i, _ := firstDate(s); i >= 0 {
		return t, false
	}
	if m, d, ok := partialDate(s); ok {
		t, _ := dates.ResolveYearless(m, d, ref)
		return t, true
	}
	return time.Time{}, false
}

// headingDateTime finds a date and optional time in a heading such as
// "2026-04-02 07:00 — nightly dream" or "Dream 2026-04-02T07:00:00Z".
func headingDateTime(s string) (t time.Time, hasTime, ok bool) {
	d, i, n := firstDate(s)
	if i < 0 {
		return time.Time{}, false, false
	}
	rest := s[i+n:]
	if strings.HasPrefix(rest, "T") || strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "_") {
		r := strings.TrimLeft(rest[1:], " ")
		h, n1 := leadingInt(r, 2)
		if n1 > 0 && n1 < len(r) && (r[n1] == ':' || r[n1] == 'h') {
			m, n2 := leadingInt(r[n1+1:], 2)
			if n2 == 2 && h < 24 && m < 60 {
				sec := 0
				if k := n1 + 1 + n2; k < len(r) && r[k] == ':' {
					sec, _ = leadingInt(r[k+1:], 2)
				}
				return time.Date(d.Year(), d.Month(), d.Day(), h, m, sec, 0, time.UTC), true, true
			}
		}
		// "2026-04-02 0700"
		if hm, n1 := leadingInt(r, 4); n1 == 4 && (len(r) == 4 || !isDigit(r[4])) && hm/100 < 24 && hm%100 < 60 {
			return time.Date(d.Year(), d.Month(), d.Day(), hm/100, hm%100, 0, 0, time.UTC), true, true
		}
	}
	return d, false, true
}

// parseDiaryDate parses the date line of a DREAMS.md diary entry:
// "April 24, 2026 at 3:00 AM GMT+2", "April 24, 2026", "Apr 24, 2026,
// 3:00 AM", or an ISO date with optional time.
func parseDiaryDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*_"))
	if s == "" {
		return time.Time{}, false
	}
	if isDigit(s[0]) {
		if t, _, ok := headingDateTime(s); ok {
			return t, true
		}
		return time.Time{}, false
	}
	// Split off a zone written as "GMT+2", "UTC-05:30" or "UTC".
	loc := time.UTC
	fields := strings.Fields(s)
	if n := len(fields); n > 0 {
		if z, ok := parseZone(fields[n-1]); ok {
			loc = z
			fields = fields[:n-1]
		}
	}
	s = strings.Join(fields, " ")
	s = strings.Replace(s, " at ", " ", 1)
	s = strings.Replace(s, ", ", " ", 2)
	s = strings.ReplaceAll(s, ",", " ")
	s = collapseSpace(s)
	for _, layout := range []string{
		"January 2 2006 3:04 PM", "January 2 2006 3:04PM", "January 2 2006 15:04", "January 2 2006",
		"Jan 2 2006 3:04 PM", "Jan 2 2006 3:04PM", "Jan 2 2006 15:04", "Jan 2 2006",
		"Monday January 2 2006 3:04 PM", "Monday January 2 2006",
		"2 January 2006 15:04", "2 January 2006",
	} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseZone reads "UTC", "GMT", "GMT+2", "UTC-05:30", "+0200".
func parseZone(s string) (*time.Location, bool) {
	name := s
	switch {
	case s == "UTC" || s == "GMT" || s == "Z":
		return time.UTC, true
	case strings.HasPrefix(s, "UTC") || strings.HasPrefix(s, "GMT"):
		s = s[3:]
	}
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return nil, false
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	body := s[1:]
	h, m := 0, 0
	switch {
	case strings.Contains(body, ":"):
		parts := strings.SplitN(body, ":", 2)
		var err1, err2 error
		h, err1 = strconv.Atoi(parts[0])
		m, err2 = strconv.Atoi(parts[1])
		if err1 != nil || err2 != nil {
			return nil, false
		}
	case len(body) == 4:
		v, err := strconv.Atoi(body)
		if err != nil {
			return nil, false
		}
		h, m = v/100, v%100
	default:
		v, err := strconv.Atoi(body)
		if err != nil {
			return nil, false
		}
		h = v
	}
	if h > 14 || m > 59 {
		return nil, false
	}
	return time.FixedZone(name, sign*(h*3600+m*60)), true
}

// dailyName parses a daily log file name: "2026-04-07.md",
// "2026-04-07-0810.md", "2026-04-07-gateway-move.md".
func dailyName(name string) (date time.Time, suffix string, ok bool) {
	lower := strings.ToLower(name)
	var base string
	switch {
	case strings.HasSuffix(lower, ".md"):
		base = name[:len(name)-len(".md")]
	case strings.HasSuffix(lower, ".markdown"):
		base = name[:len(name)-len(".markdown")]
	default:
		return time.Time{}, "", false
	}
	if len(base) < 10 || base[4] != '-' || base[7] != '-' {
		return time.Time{}, "", false
	}
	d, n, ok := dates.At(base, 0)
	if !ok {
		return time.Time{}, "", false
	}
	rest := base[n:]
	switch {
	case rest == "":
		return d, "", true
	case rest[0] == '-' || rest[0] == '_' || rest[0] == ' ':
		return d, strings.TrimSpace(rest[1:]), true
	}
	return time.Time{}, "", false
}
