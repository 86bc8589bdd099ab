package dates

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Dates in memory files are written many ways: ISO in curated files,
// "October 21" or "21 Oct" in chatty logs, "10月21日" in Chinese and
// Japanese notes, and partial "10-21" that only the file's date completes.
// Find reads them all so that a claim and its evidence meet on the same
// day whichever way each was written.

const monthPattern = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

var (
	reMonthDay = regexp.MustCompile(`(?i)\b` + monthPattern + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`)
	reDayMonth = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthPattern + `\b\.?(?:,?\s+(\d{4})\b)?`)
	reCJKDate  = regexp.MustCompile(`(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]`)
)

// Find returns the calendar dates written in s, in no particular order,
// possibly repeated. Dates without a year are resolved against ref, the
// date of the file s is in, by ResolveYearless (and skipped when ref is
// zero).
func Find(s string, ref time.Time) []time.Time {
	var out []time.Time
	for _, w := range Scan(s) {
		if t, ok := w.Resolve(ref); ok {
			out = append(out, t)
		}
	}
	return out
}

// Written is a date as s writes it: Year is 0 when it has none.
type Written struct{ Year, Month, Day int }

// Resolve is the date w names, a year-less one placed by ResolveYearless
// against ref; ok is false when there is none.
func (w Written) Resolve(ref time.Time) (time.Time, bool) {
	if w.Year != 0 {
		return Make(w.Year, w.Month, w.Day)
	}
	return ResolveYearless(w.Month, w.Day, ref)
}

// Scan returns the dates written in s as written, in Find's order: what
// Find reads of s whatever the ref, for a caller that resolves the same
// text against many.
func Scan(s string) []Written {
	if !strings.ContainsAny(s, "0123456789") {
		return nil
	}
	var out []Written
	// add takes the year as written, 0 for none.
	add := func(y, m, d int) { out = append(out, Written{y, m, d}) }
	numericDates(s, add)
	lower := ""
	if hasLetters(s) {
		lower = strings.ToLower(s)
		if !hasMonth(lower) {
			lower = ""
		}
	}
	if lower != "" {
		for _, m := range reMonthDay.FindAllStringSubmatch(lower, -1) {
			add(atoi(m[3]), monthNumber(m[1]), atoi(m[2]))
		}
		for _, m := range reDayMonth.FindAllStringSubmatch(lower, -1) {
			add(atoi(m[3]), monthNumber(m[2]), atoi(m[1]))
		}
	}
	if strings.Contains(s, "月") {
		for _, m := range reCJKDate.FindAllStringSubmatch(s, -1) {
			add(atoi(m[1]), atoi(m[2]), atoi(m[3]))
		}
	}
	return out
}

// numericDates finds "2026-10-21" (or with '/' or '.') and year-less
// "10-21". A run of digits and separators longer than a date (a version,
// an IP address, a phone number) is no date.
func numericDates(s string, add func(y, m, d int)) {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && (isDigit(s[i-1]) || isNumSep(s[i-1]))) {
			continue
		}
		// Split the run of digits and separators starting at i.
		var parts []int
		var lens []int
		var seps []byte
		j := i
		for {
			k := j
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			parts = append(parts, atoi(s[j:k]))
			lens = append(lens, k-j)
			if k+1 < len(s) && isNumSep(s[k]) && isDigit(s[k+1]) {
				seps = append(seps, s[k])
				j = k + 1
				continue
			}
			j = k
			break
		}
		// A separator right after the run ("1.2.3.") still belongs to it.
		if j < len(s) && (isNumSep(s[j]) && j+1 < len(s) && isDigit(s[j+1])) {
			continue
		}
		switch {
		case len(parts) == 3 && lens[0] == 4 && lens[1] <= 2 && lens[2] <= 2 && seps[0] == seps[1] && seps[0] != ':':
			add(parts[0], parts[1], parts[2])
		case len(parts) == 2 && seps[0] == '-' && lens[0] <= 2 && lens[1] <= 2:
			add(0, parts[0], parts[1])
		}
		i = j
	}
}

func isNumSep(c byte) bool { return c == '-' || c == '/' || c == '.' || c == ':' }

// hasMonth reports whether lower-case s has a word that starts like a
// month, before the month patterns are run.
func hasMonth(s string) bool {
	for i := 0; i+3 <= len(s); i++ {
		if i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z' {
			continue
		}
		switch s[i : i+3] {
		case "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec":
			return true
		}
	}
	return false
}

func hasLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func monthNumber(s string) int {
	for i, p := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(s, p) {
			return i + 1
		}
	}
	return 0
}
