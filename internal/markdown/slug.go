package markdown

import (
	"strconv"
	"strings"
	"unicode"
)

// slugify makes a GitHub-style heading id: lower-case, letters, digits,
// '-' and '_' kept (in any script: "Café 日本" -> "café-日本"), spaces
// turned into '-', everything else dropped.
func slugify(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_':
			b.WriteRune(r)
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			b.WriteRune(r)
		case r < 0x80 && r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// headingIDs hands out unique ids within one note: the second "Notes"
// heading gets "notes-1", as on GitHub. next remembers the last suffix
// given for each base, so a note of many equal headings stays linear.
type headingIDs struct {
	used map[string]bool
	next map[string]int
}

func (ids *headingIDs) unique(base string) string {
	if base == "" {
		base = "section"
	}
	if ids.used == nil {
		ids.used, ids.next = map[string]bool{}, map[string]int{}
	}
	if !ids.used[base] {
		ids.used[base] = true
		return base
	}
	for i := ids.next[base] + 1; ; i++ {
		id := base + "-" + strconv.Itoa(i)
		if !ids.used[id] {
			ids.used[id] = true
			ids.next[base] = i
			return id
		}
	}
}
