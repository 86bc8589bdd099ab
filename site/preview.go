package site

import (
	"bytes"
	"strings"

	"github.com/dreamwiki/dreamwiki/vault"
)

// previewBytes is about how much of a note's HTML a hover preview shows:
// enough for a few paragraphs, small enough to load at once.
const previewBytes = 1800

// previewPath is the hover-preview fragment of a page: x.html -> x.preview.html.
// It sits in the page's folder, so the page's relative links work in it.
func previewPath(page string) string { return strings.TrimSuffix(page, ".html") + ".preview.html" }

// preview renders the fragment ui/preview.ts shows when a reader points at
// a link to this note: its kind, title, claim summary, and the first
// blocks of its content cut at a block boundary.
func (s *site) preview(n *vault.Note, d pageData) []byte {
	var b bytes.Buffer
	b.Grow(previewBytes + 512)
	b.WriteString(`<p class="preview-kind">`)
	b.WriteString(esc(n.Kind.Label()))
	if n.Date != "" {
		b.WriteString(" · ")
		b.WriteString(esc(n.Date))
	}
	b.WriteString("</p>\n")
	content := string(d.Page.Content)
	b.WriteString("<h1>")
	b.WriteString(esc(n.Title))
	b.WriteString("</h1>\n")
	if c := d.Claim; c != nil {
		b.WriteString(`<p class="claim-badges">`)
		for _, badge := range [][2]string{{"type-" + c.Type, c.Type}, {"tier-" + c.Tier, c.Tier}, {"plain status-" + c.Status, c.Status}} {
			if badge[1] != "" {
				b.WriteString(`<span class="badge ` + esc(badge[0]) + `">` + esc(badge[1]) + `</span> `)
			}
		}
		if c.Lapsed {
			b.WriteString(`<span class="badge lapsed">lapsed</span>`)
		}
		b.WriteString("</p>\n")
	}
	cut, more := cutHTML(content, previewBytes)
	b.WriteString(cut)
	if more {
		b.WriteString(`<p class="preview-more">…</p>`)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// voidElements have no end tag.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// cutHTML returns the top-level elements of h that start within the first
// limit bytes, so the cut never splits an element. h is HTML the site
// made, so every '<' opens a tag or comment and attribute values hold no
// '>'.
func cutHTML(h string, limit int) (string, bool) {
	if len(h) <= limit {
		return h, false
	}
	depth := 0
	i := 0
	for i < len(h) {
		lt := strings.IndexByte(h[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		gt := strings.IndexByte(h[i:], '>')
		if gt < 0 {
			break
		}
		tag := h[i+1 : i+gt]
		i += gt + 1
		switch {
		case strings.HasPrefix(tag, "/"):
			depth--
		case strings.HasPrefix(tag, "!"), strings.HasSuffix(tag, "/"):
		default:
			name := tag
			if sp := strings.IndexAny(name, " \t\n"); sp >= 0 {
				name = name[:sp]
			}
			if !voidElements[strings.ToLower(name)] {
				depth++
			}
		}
		if depth <= 0 && i >= limit {
			return h[:i], i < len(strings.TrimSpace(h))
		}
	}
	return h, false
}
