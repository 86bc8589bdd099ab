package dates

import (
	"strings"
	"time"
)

// Make returns the date y-m-d, UTC midnight; ok is false for a day that
// does not exist (2026-02-30) or a year outside 1900 to 2999, which in a
// memory file is a number, not a date.
func Make(y, m, d int) (time.Time, bool) {
	if y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{}, false
	}
	return t, true
}

// Day truncates t to its UTC calendar day; the zero time stays zero.
func Day(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ResolveYearless places a month-day written without a year ("12-28",
// "Dec 28", "12月28日") in the year that puts it nearest ref, the date of
// the file it is written in: "12-28" in a log dated 2027-01-02 is
// 2026-12-28, last week, and "01-05" in a log dated 2026-12-30 is
// 2027-01-05, next week; within a year, a log both looks back and plans
// ahead. Half a year either way ties to the year before. ok is false when ref is zero or the day exists in none of the
// three years.
func ResolveYearless(month, day int, ref time.Time) (time.Time, bool) {
	if ref.IsZero() {
		return time.Time{}, false
	}
	var best time.Time
	for _, y := range []int{ref.Year() - 1, ref.Year(), ref.Year() + 1} {
		t, ok := Make(y, month, day)
		if ok && (best.IsZero() || absDays(t.Sub(ref)) < absDays(best.Sub(ref))) {
			best = t
		}
	}
	return best, !best.IsZero()
}

func absDays(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// At parses an ISO date "YYYY-MM-DD" (or with '/' or '.' throughout) at
// s[i:], returning the date and its length in bytes. A digit right after
// it makes it no date.
func At(s string, i int) (time.Time, int, bool) {
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
	t, ok := Make(y, m, d)
	return t, 10, ok
}

// Parse parses a whole string, blanks around it aside, as an ISO date
// ("2026-04-27").
func Parse(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	t, n, ok := At(s, 0)
	if !ok || n != len(s) {
		return time.Time{}, false
	}
	return t, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digitsAt reads exactly n digits at s[i:].
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
