package memory

import (
	"net/netip"
	"strings"
	"time"
)

// The classifiers as they were before their regexps were guarded: each
// regexp runs on every text. The equivalence tests compare the guarded
// classifiers with these, and the benchmarks measure both.

func unguardedIsStructural(text string) bool {
	return unguardedHasIP(text) || unguardedHasURL(text) || reEmail.re.MatchString(text) ||
		unguardedHasHostname(text) || reHostLike.re.MatchString(text) || reSSHTarget.re.MatchString(text) ||
		unguardedHasPhone(text) || unguardedHasHandle(text) || unguardedIsPerson(text) || unguardedIsCredentialReference(text)
}

func unguardedHasIP(text string) bool {
	for _, m := range reIPv4.re.FindAllStringSubmatch(text, -1) {
		if a, err := netip.ParseAddr(m[1]); err == nil && a.Is4() {
			return true
		}
	}
	if strings.Count(text, ":") < 2 {
		return false
	}
	for _, m := range reIPv6.FindAllStringSubmatch(text, -1) {
		s := m[1]
		if !strings.ContainsAny(s, "0123456789abcdefABCDEF") {
			continue // "::" alone, or C++ scope operators
		}
		if a, err := netip.ParseAddr(s); err == nil && a.Is6() {
			return true
		}
	}
	return false
}

func unguardedHasURL(text string) bool { return reURL.re.MatchString(text) }

func unguardedHasHostname(text string) bool {
	for _, m := range reHostname.re.FindAllStringSubmatchIndex(text, -1) {
		labels, tld := text[m[2]:m[3]], text[m[4]:m[5]]
		if tld != strings.ToLower(tld) || fileExts[tld] {
			continue // "ASP.NET", "notes.md"
		}
		// "e.g." and "i.e." have one-letter labels; real hosts rarely do.
		if strings.Count(labels, ".") == 1 && len(labels) <= 2 {
			continue
		}
		if hostTLDs[tld] || strings.Count(labels, ".") >= 2 && len(tld) >= 2 && !isDigits(tld) {
			return true
		}
	}
	return false
}

func unguardedHasPhone(text string) bool {
	for _, m := range rePhone.re.FindAllStringSubmatch(text, -1) {
		if m[1] == "" {
			return true // (555) 010-2030 or 555-010-2030
		}
		n := 0
		for _, r := range m[1] {
			if r >= '0' && r <= '9' {
				n++
			}
		}
		if n >= 8 && n <= 15 {
			return true
		}
	}
	return false
}

func unguardedHasHandle(text string) bool {
	for _, m := range reHandle.re.FindAllStringSubmatchIndex(text, -1) {
		end := m[1]
		if end < len(text) && text[end] == '/' {
			continue // an npm scope such as @types/node
		}
		if strings.HasSuffix(text[m[2]:m[3]], ".") {
			continue
		}
		return true
	}
	return false
}

func unguardedIsPerson(text string) bool {
	if m := rePersonIs.re.FindStringSubmatch(strings.TrimSpace(text)); m != nil {
		first, _, _ := strings.Cut(m[1], " ")
		if !notNames[first] {
			return true
		}
	}
	return reMyRoleIs.re.MatchString(text)
}

func unguardedIsCredentialReference(text string) bool {
	return strings.Contains(text, "[REDACTED:") || reCredWord.re.MatchString(text) && reCredPlace.re.MatchString(text)
}

func unguardedLifecycle(text string) Status {
	body := reListMarker.ReplaceAllString(strings.TrimSpace(text), "")
	switch {
	case reCheckedBox.MatchString(body):
		return StatusClosed
	case strings.HasPrefix(body, "~~") && strings.Contains(body[2:], "~~"):
		return StatusClosed // the whole entry is struck through
	}
	lower := strings.ToLower(body)
	if reClosed.re.MatchString(lower) || strings.ContainsAny(body, "✅☑✔") || unguardedClosedCJK(body) {
		return StatusClosed
	}
	if strings.HasPrefix(body, "[ ]") || reOpen.re.MatchString(body) || reOpenLower.re.MatchString(lower) {
		return StatusOpen
	}
	return StatusNone
}

func unguardedClosedCJK(s string) bool {
	for _, m := range reCJKDone.re.FindAllStringIndex(s, -1) {
		if !strings.HasSuffix(s[:m[0]], "未") {
			return true
		}
	}
	return false
}

func unguardedPermission(text string, given time.Time) (isPermission bool, expires time.Time) {
	lower := strings.ToLower(text)
	if reRevoked.re.MatchString(lower) || !unguardedGrants(lower) {
		return false, time.Time{}
	}
	if d, ok := unguardedExpiryDate(lower, given); ok {
		return true, d
	}
	return true, endOfDay(given)
}

func unguardedGrants(lower string) bool {
	for _, g := range reGrants {
		for _, m := range g.re.FindAllStringSubmatchIndex(lower, -1) {
			if len(m) > 2 && m[2] >= 0 && mayNotPermission[lower[m[2]:m[3]]] {
				continue
			}
			// The clause runs back to the previous sentence or clause break.
			start := strings.LastIndexAny(lower[:m[0]], ".;!?\n") + 1
			if b := strings.LastIndex(lower[:m[0]], " but "); b+1 > start {
				start = b + 1
			}
			if reNegation.re.MatchString(lower[start:m[1]]) {
				continue
			}
			return true
		}
	}
	return false
}

func unguardedExpiryDate(lower string, given time.Time) (time.Time, bool) {
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

func unguardedSubjectValue(text string) (subject, value string, ok bool) {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line = reEntryNoise.re.ReplaceAllString(line, "")
	line = reEntryPrefix.ReplaceAllString(line, "")
	line = strings.TrimSpace(strings.ReplaceAll(line, "~~", ""))
	if line == "" || strings.HasSuffix(line, "?") {
		return "", "", false
	}
	start, end, found := unguardedSeparator(line)
	if !found {
		return "", "", false
	}
	subject = normaliseSubject(line[:start])
	value = line[end:]
	if ms := reArrow.re.FindAllStringIndex(value, -1); len(ms) > 0 {
		value = value[ms[len(ms)-1][1]:] // "X: A → B" has the value B
	}
	value = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(value), ".;,!"))
	value = strings.TrimSpace(strings.Trim(value, "*`\"'"))
	if subject == "" || value == "" || !validSubject(subject) {
		return "", "", false
	}
	if lv := strings.ToLower(value); lv == "not" || strings.HasPrefix(lv, "not ") || strings.HasPrefix(lv, "never ") {
		return "", "", false
	}
	return subject, value, true
}

func unguardedSeparator(line string) (start, end int, ok bool) {
	start = len(line) + 1
	if m := reVerbSep.re.FindStringIndex(line); m != nil {
		start, end = m[0], m[1]
	}
	for i := 0; i < len(line) && i < start; i++ {
		switch c := line[i]; {
		case c == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			start, end = i, i+1
		case c == '=' && (i+1 == len(line) || line[i+1] != '=' && line[i+1] != '>') &&
			(i == 0 || !strings.ContainsRune("=<>!", rune(line[i-1]))):
			start, end = i, i+1
		case strings.HasPrefix(line[i:], "："):
			start, end = i, i+len("：")
		default:
			continue
		}
		break
	}
	if start > len(line) {
		return 0, 0, false
	}
	// Trim the blanks around a punctuation separator into it.
	for start > 0 && line[start-1] == ' ' {
		start--
	}
	for end < len(line) && line[end] == ' ' {
		end++
	}
	return start, end, true
}
