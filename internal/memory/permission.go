package memory

import (
	"strconv"
	"strings"
	"time"
)

// Permission reports whether an entry grants the agent permission to act
// ("you may deploy…", "approved to…", "allowed to…", "go ahead and…",
// "permission to…", "can merge without asking", "feel free to…", "ok to…")
// and when that permission expires (DESIGN 5.5).
//
// A recorded permission is never a standing green light: it lasts until the
// date the text names ("until 2026-10-01", "expires 2026-10-01", "through
// Oct 1", "until Friday", "until tomorrow", "until end of month", "before
// 2026-04-20") and otherwise until the end of the day it was given. All
// days end at 23:59:59.999999999 in given's location; "before D" ends the
// day before D. Dates without a year take given's year, or the next year if
// that day has already passed. When several dates are named, the earliest
// expiry-style one ("until", "through", "expires", "before", "valid until")
// wins over "on"/"for" dates, so the reading errs towards lapsing early.
//
// Negated or revoked grants ("not allowed to", "you may not", "never go
// ahead", "permission … revoked") are not permissions. A zero given time
// yields an expiry in year 1: a permission of unknown date has lapsed.
func Permission(text string, given time.Time) (isPermission bool, expires time.Time) {
	lower := strings.ToLower(text)
	if reRevoked.match(lower, "") || !grants(lower) {
		return false, time.Time{}
	}
	if d, ok := expiryDate(lower, given); ok {
		return true, d
	}
	return true, endOfDay(given)
}

// Lapsed reports whether a permission that expires at expires has lapsed at
// now. A zero expiry (not a permission) never lapses.
func Lapsed(expires, now time.Time) bool {
	return !expires.IsZero() && now.After(expires)
}

// The patterns below read the lower-cased text. Each guard's literals are
// read off its pattern (see guarded).
var (
	reGrants = []guarded{
		guard(`\byou(?:'re| are)?\s+(?:now\s+|also\s+)?may\s+([a-z']+)`,
			[][]string{{"may"}, {"you"}}),
		guard(`\bcan\s+(?:[\w-]+\s+){0,6}?without\s+(?:asking|checking|approval|confirmation|(?:a\s+)?review|permission|waiting)`,
			[][]string{{"without"}, {"can"}}),
		guard(`\b(?:allowed|permitted|authori[sz]ed|cleared|approved)\s+(?:to|for)\b`,
			[][]string{{"allowed", "permitted", "authori", "cleared", "approved"}}),
		guard(`\bpre-?approved\b|\bapproval\s+(?:to|for)\b|\bfeel\s+free\s+to\b`,
			[][]string{{"approved", "approval", "free"}}),
		guard(`^\s*(?:[-*+]\s+)?(?:\*\*)?approved\b`,
			[][]string{{"approved"}}),
		guard(`\bgo\s+ahead\s+(?:and|with)\b|\bgo-ahead\b|\bgreen[- ]?light(?:ed)?\b|\bgreenlit\b`,
			[][]string{{"ahead", "green"}}),
		guard(`\bpermission\s+to\b|\b(?:have|has|given|granted|gave|grant)\s+(?:\w+\s+)?permission\b`,
			[][]string{{"permission"}}),
		guard(`\bok(?:ay)?\s+to\s+[a-z]`,
			[][]string{joined([]string{"ok", "okay"}, blanks...), joined(joined(blanks, "to"), blanks...)}),
	}
	// mayNotPermission are the words after "you may" that make it a
	// possibility or a suggestion rather than a grant.
	mayNotPermission = map[string]bool{
		"want": true, "need": true, "have": true, "be": true, "find": true,
		"see": true, "notice": true, "wish": true, "like": true, "not": true,
		"get": true, "experience": true, "encounter": true, "run": true,
		"also": true, "already": true, "recall": true, "remember": true,
		"know": true, "prefer": true, "consider": true, "think": true,
	}
	reNegation = guard(`\b(?:not|never|no|don't|dont|do not|doesn't|does not|didn't|isn't|aren't|wasn't|weren't|won't|cannot|can't|mustn't|shouldn't|nobody|no one)\b`,
		// "no" is in not, cannot, nobody; "n't" in every contraction.
		[][]string{{"no", "n't", "never", "dont"}})
	reRevoked = guard(`\b(?:revoked|rescinded|withdrawn|withdrew|retracted|denied)\b`,
		[][]string{{"revoked", "rescinded", "withdr", "retracted", "denied"}})
)

// grants reports a grant phrase that no negation in its clause cancels.
func grants(lower string) bool {
	for i := range reGrants {
		g := &reGrants[i]
		if !g.may(lower, "") {
			continue
		}
		for _, m := range g.re.FindAllStringSubmatchIndex(lower, -1) {
			if len(m) > 2 && m[2] >= 0 && mayNotPermission[lower[m[2]:m[3]]] {
				continue
			}
			// The clause runs back to the previous sentence or clause break.
			start := strings.LastIndexAny(lower[:m[0]], ".;!?\n") + 1
			if b := strings.LastIndex(lower[:m[0]], " but "); b+1 > start {
				start = b + 1
			}
			if reNegation.match(lower[start:m[1]], "") {
				continue
			}
			return true
		}
	}
	return false
}

const monthNames = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`

// reExpiry finds a cue and the date after it. Group 1 is the cue; the
// date alternatives are, in order: ISO (2-4), slashes (5-7), month-name day
// (8-10), day month-name (11-13), MM-DD (14-15), and a word (16).
var reExpiry = guard(`\b(until|till|til|through|thru|expires?|expired|expiring|expiry|valid\s+(?:until|till|through|to)|good\s+(?:until|till|through|for)|ends?|ending|before|on|for)\b(?:\s+on|\s+at|:)?\s+(?:the\s+)?`+
	`(?:(\d{4})-(\d{1,2})-(\d{1,2})`+
	`|(\d{4})/(\d{1,2})/(\d{1,2})`+
	`|(`+monthNames+`)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?`+
	`|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(`+monthNames+`)\.?(?:,?\s+(\d{4}))?`+
	`|(\d{1,2})-(\d{1,2})`+
	`|(today|tonight|eod|end\s+of\s+(?:the\s+)?(?:day|week|month|year)|this\s+(?:week|month|year)|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun))\b`,
	// A cue ("before" holds "for"), then a digit, a month or a day word.
	[][]string{
		{"til", "thr", "expir", "valid", "good", "end", "for", "on"},
		append([]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
			"today", "tonight", "eod", "end", "this", "tomorrow", "mon", "tue", "wed", "thu", "fri", "sat", "sun"},
			digits...),
	})

// expiryDate finds the expiry the text names, if any.
func expiryDate(lower string, given time.Time) (time.Time, bool) {
	if !reExpiry.may(lower, "") {
		return time.Time{}, false
	}
	var best time.Time
	bestStrong := false
	for _, m := range reExpiry.re.FindAllStringSubmatch(lower, -1) {
		d, ok := resolveDate(m, given)
		if !ok {
			continue
		}
		cue := m[1]
		if cue == "before" {
			d = d.AddDate(0, 0, -1)
		}
		d = endOfDay(d)
		strong := cue != "on" && cue != "for"
		switch {
		case best.IsZero(), strong && !bestStrong, strong == bestStrong && d.Before(best):
			best, bestStrong = d, strong
		}
	}
	return best, !best.IsZero()
}

// resolveDate turns a reExpiry match into a calendar day in given's
// location (the time of day is irrelevant; callers take the day's end).
func resolveDate(m []string, given time.Time) (time.Time, bool) {
	loc := given.Location()
	gy, gm, gd := given.Date()
	today := time.Date(gy, gm, gd, 0, 0, 0, 0, loc)
	day := func(y, mo, d int, yearKnown bool) (time.Time, bool) {
		if mo < 1 || mo > 12 || d < 1 || d > daysIn(time.Month(mo), y) {
			return time.Time{}, false
		}
		t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, loc)
		if !yearKnown && t.Before(today) {
			// "until Jan 5" said in April means next January.
			if d > daysIn(time.Month(mo), y+1) {
				return time.Time{}, false
			}
			t = time.Date(y+1, time.Month(mo), d, 0, 0, 0, 0, loc)
		}
		return t, true
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch {
	case m[2] != "":
		return day(atoi(m[2]), atoi(m[3]), atoi(m[4]), true)
	case m[5] != "":
		return day(atoi(m[5]), atoi(m[6]), atoi(m[7]), true)
	case m[8] != "":
		y, known := gy, m[10] != ""
		if known {
			y = atoi(m[10])
		}
		return day(y, month(m[8]), atoi(m[9]), known)
	case m[11] != "":
		y, known := gy, m[13] != ""
		if known {
			y = atoi(m[13])
		}
		return day(y, month(m[12]), atoi(m[11]), known)
	case m[14] != "":
		return day(gy, atoi(m[14]), atoi(m[15]), false)
	}
	w := strings.Join(strings.Fields(m[16]), " ")
	switch w {
	case "today", "tonight", "eod", "end of day", "end of the day":
		return today, true
	case "tomorrow":
		return today.AddDate(0, 0, 1), true
	case "end of week", "end of the week", "this week":
		return today.AddDate(0, 0, (7-int(today.Weekday()))%7), true // Sunday
	case "end of month", "end of the month", "this month":
		return time.Date(gy, gm, daysIn(gm, gy), 0, 0, 0, 0, loc), true
	case "end of year", "end of the year", "this year":
		return time.Date(gy, time.December, 31, 0, 0, 0, 0, loc), true
	}
	if wd, ok := weekday(w); ok {
		// The next such day on or after today: the shorter reading, so a
		// permission errs towards lapsing early.
		return today.AddDate(0, 0, (int(wd)-int(today.Weekday())+7)%7), true
	}
	return time.Time{}, false
}

func month(s string) int {
	for i, p := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(s, p) {
			return i + 1
		}
	}
	return 0
}

func weekday(s string) (time.Weekday, bool) {
	for i, p := range []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"} {
		if strings.HasPrefix(s, p) {
			return time.Weekday(i), true
		}
	}
	return 0, false
}

func daysIn(m time.Month, y int) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// endOfDay is the last instant of t's day in t's location.
func endOfDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 23, 59, 59, 999999999, t.Location())
}
