package workspace

import (
	"strconv"
	"strings"
	"time"
)

// Dates are UTC midnight unless a time was written: a date in a memory file
// names a calendar day, not an instant in some machine's zone.

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitsAt(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v := 0
	for j := i; j < i+n; j++ {
		if !isDigit(s[j]) {
			return 0, false
		}
		v = v*10 + int(s[j]-'0')
	}
	return v, true
}

func mkDate(y, m, d int) (time.Time, bool) {
	if y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d { // 2026-02-30
		return time.Time{}, false
	}
	return t, true
}

// dateAt parses "YYYY-MM-DD" (or with '/' or '.') at s[i:], returning the
// date and its length.
func dateAt(s string, i int) (time.Time, int, bool) {
	y, ok := digitsAt(s, i, 4)
	if !ok || i+10 > len(s) {
		return time.Time{}, 0, false
	}
	sep := s[i+4]
	if sep != '-' && sep != '/' && sep != '.' || s[i+7] != sep {
		return time.Time{}, 0, false
	}
	m, ok1 := digitsAt(s, i+5, 2)
	d, ok2 := digitsAt(s, i+8, 2)
	if !ok1 || !ok2 {
		return time.Time{}, 0, false
	}
	if i+10 < len(s) && isDigit(s[i+10]) {
		return time.Time{}, 0, false
	}
	t, ok := mkDate(y, m, d)
	return t, 10, ok
}

// parseDate parses a whole string as a date ("2026-04-27").
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	t, n, ok := dateAt(s, 0)
	if !ok || n != len(s) {
		return time.Time{}, false
	}
	return t, true
}

// firstDate finds the first full date in s that is not part of a path
// ("memory/2026-04-17.md" is a file, not a date of the entry).
func firstDate(s string) (time.Time, int, int) {
	for i := 0; i+10 <= len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && (isDigit(s[i-1]) || s[i-1] == '/' || s[i-1] == '-')) {
			continue
		}
		if t, n, ok := dateAt(s, i); ok {
			if strings.HasPrefix(s[i+n:], ".md") || strings.HasPrefix(s[i+n:], "-") && i+n+1 < len(s) && !isDigit(s[i+n+1]) && s[i+n+1] != ' ' {
				continue
			}
			return t, i, n
		}
		// 2026年4月27日
		if y, ok := digitsAt(s, i, 4); ok && strings.HasPrefix(s[i+4:], "年") {
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
	t, ok := mkDate(year, m, d)
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
				if _, ok := mkDate(2000, m, d); ok {
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

// resolvePartial places month-day in the year of ref; a result more than a
// month after ref is taken to be from the year before ("12-20" written in
// a file dated 2026-01-05 is 2025-12-20).
func resolvePartial(month, day int, ref time.Time) time.Time {
	if ref.IsZero() {
		return time.Time{}
	}
	t, ok := mkDate(ref.Year(), month, day)
	if !ok {
		return time.Time{}
	}
	if t.Sub(ref) > 31*24*time.Hour {
		if t2, ok := mkDate(ref.Year()-1, month, day); ok {
			t = t2
		}
	}
	return t
}

// entryDate is the date written in an entry: the first full date, else a
// partial date resolved against ref.
func entryDate(s string, ref time.Time) time.Time {
	if t, i, _ := firstDate(s); i >= 0 {
		return t
	}
	if m, d, ok := partialDate(s); ok {
		return resolvePartial(m, d, ref)
	}
	return time.Time{}
}

// parseTimeAny parses the timestamps found in state files and headings:
// RFC 3339 with or without zone or seconds, "2006-01-02 15:04:05 UTC",
// a bare date, or Unix seconds / milliseconds.
func parseTimeAny(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if isDigit(s[0]) && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0 && len(s) >= 9 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err == nil {
			return unixAny(float64(n)), true
		}
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

var timeLayouts = []string{
	time.RFC3339Nano,
	time.RFC3339,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 MST",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04 MST",
	"2006-01-02 15:04",
	"2006-01-02",
}

// unixAny reads a Unix timestamp in seconds or, when it is too large for
// seconds, milliseconds.
func unixAny(v float64) time.Time {
	if v > 1e11 || v < -1e11 {
		return time.UnixMilli(int64(v)).UTC()
	}
	sec := int64(v)
	return time.Unix(sec, int64((v-float64(sec))*1e9)).UTC()
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
	d, n, ok := dateAt(base, 0)
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
