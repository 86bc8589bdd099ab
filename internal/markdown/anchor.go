package markdown

import "strings"

// Anchor resolves a link fragment to the HTML id it lands on:
//
//   - "" is the top of the note: ("", true);
//   - "^id" is a block id (case-insensitive);
//   - "Heading" is a heading, matched by its text or its slug, ignoring
//     case ("my heading", "My-Heading" and "my-heading-1" for the second
//     of two all work);
//   - "H1#H2" is a heading path: H2 inside the section of H1, as Obsidian
//     writes links to nested headings.
//
// Text matches win over slug matches, and earlier headings over later ones.
func (d *Doc) Anchor(fragment string) (id string, ok bool) {
	fragment = strings.TrimSpace(fragment)
	if fragment == "" {
		return "", true
	}
	if b, isBlock := strings.CutPrefix(fragment, "^"); isBlock {
		if id, found := d.blockIDs[strings.ToLower(strings.TrimSpace(b))]; found {
			return "^" + id, true
		}
		return "", false
	}
	// A heading whose text has a '#' in it ("C# tips") is matched whole
	// before the fragment is read as a path.
	if strings.IndexByte(fragment, '#') >= 0 {
		if i := d.findHeading(fragment, 0, len(d.Headings), 0); i >= 0 {
			return d.Headings[i].ID, true
		}
	}
	// Walk the path: each part must be found after the previous one and
	// inside its section (before the next heading at its level or above).
	from, end, level := 0, len(d.Headings), 0
	found := -1
	for part := range strings.SplitSeq(fragment, "#") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i := d.findHeading(part, from, end, level)
		if i < 0 {
			return "", false
		}
		found, level = i, d.Headings[i].Level
		from, end = i+1, len(d.Headings)
		for j := i + 1; j < len(d.Headings); j++ {
			if d.Headings[j].Level <= level {
				end = j
				break
			}
		}
	}
	if found < 0 {
		return "", false
	}
	return d.Headings[found].ID, true
}

// findHeading returns the index in [from, end) of the heading deeper than
// level that part names, or -1.
func (d *Doc) findHeading(part string, from, end, level int) int {
	for i := from; i < end; i++ {
		if h := d.Headings[i]; h.Level > level && strings.EqualFold(h.Text, part) {
			return i
		}
	}
	slug := slugify(part)
	lower := strings.ToLower(part)
	for i := from; i < end; i++ {
		h := d.Headings[i]
		if h.Level > level && (h.ID == lower || h.ID == slug || slugify(h.Text) == slug) {
			return i
		}
	}
	return -1
}
