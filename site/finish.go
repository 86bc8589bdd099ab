package site

import (
	"bytes"
	"strings"
)

// finishHTML adds what the site wants on top of the Markdown engine's
// HTML, in one pass over it: a "#" link after each heading that has an id
// (h2 to h6: the h1 is the page title) and an accessible name on task-list
// checkboxes, which the engine writes without a label. The engine escapes
// raw HTML, so every tag matched here is one it wrote.
func finishHTML(h []byte) string {
	var b strings.Builder
	b.Grow(len(h) + len(h)/16)
	for {
		i := bytes.IndexByte(h, '<')
		if i < 0 {
			b.Write(h)
			break
		}
		b.Write(h[:i])
		h = h[i:]
		switch {
		case len(h) > 9 && h[1] == 'h' && h[2] >= '2' && h[2] <= '6' && bytes.HasPrefix(h[3:], []byte(` id="`)):
			// <hN id="x">…</hN>: keep everything up to </hN>, then the anchor.
			end := bytes.Index(h, []byte{'<', '/', 'h', h[2], '>'})
			q := bytes.IndexByte(h[8:], '"')
			if end < 0 || q < 0 {
				b.WriteByte('<')
				h = h[1:]
				continue
			}
			id := h[8 : 8+q]
			b.Write(h[:end])
			b.WriteString(`<a class="heading-anchor" href="#`)
			b.Write(id)
			b.WriteString(`" aria-label="Link to this section">#</a>`)
			h = h[end:]
		case bytes.HasPrefix(h, []byte(`<input checked="" disabled="" type="checkbox">`)):
			b.WriteString(`<input checked="" disabled="" type="checkbox" aria-label="Done">`)
			h = h[len(`<input checked="" disabled="" type="checkbox">`):]
		case bytes.HasPrefix(h, []byte(`<input disabled="" type="checkbox">`)):
			b.WriteString(`<input disabled="" type="checkbox" aria-label="Not done">`)
			h = h[len(`<input disabled="" type="checkbox">`):]
		default:
			b.WriteByte('<')
			h = h[1:]
		}
	}
	return b.String()
}
