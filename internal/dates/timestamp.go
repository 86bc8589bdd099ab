package dates

import (
	"strconv"
	"strings"
	"time"
)

// Timestamp parses the timestamps found in state files and headings:
// RFC 3339 with or without zone, fraction or seconds, "2006-01-02
// 15:04:05 UTC", a bare date, or Unix seconds or milliseconds (nine digits
// or more).
func Timestamp(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if isDigit(s[0]) && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0 && len(s) >= 9 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err == nil {
			return Unix(float64(n)), true
		}
	}
	if len(s) == 10 && s[4] == '-' && s[7] == '-' {
		// A bare date, the commonest form, without trying every layout.
		t, _, ok := At(s, 0)
		return t, ok
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
}

// Unix reads a Unix timestamp in seconds or, when it is too large for
// seconds, milliseconds.
func Unix(v float64) time.Time {
	if v > 1e11 || v < -1e11 {
		return time.UnixMilli(int64(v)).UTC()
	}
	sec := int64(v)
	return time.Unix(sec, int64((v-float64(sec))*1e9)).UTC()
}
