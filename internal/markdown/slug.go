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
// heading gets "notes-1", as on GitHub.
type headingIDs map[string]bool

func (ids headingIDs) unique(base string) string {
	if base == "" {
		base = "section"
	}
	id := base
	for i := 1; ids[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	ids[id] = true
	return id
}
