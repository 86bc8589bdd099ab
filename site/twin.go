package site

import (
	"fmt"
	"path"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/vault"
)

// twin returns the Markdown twin of a page: the note's Markdown with
// wikilinks and embeds turned into relative links to other twins, so an
// agent can follow them without an Obsidian resolver.
func (s *site) twin(n *vault.Note, page string) []byte { return s.twinFrom(n, page, page) }

// twinFrom is twin with links relative to the file from instead of the
// page (llms-full.txt, at the root, holds every twin).
func (s *site) twinFrom(n *vault.Note, page, from string) []byte {
	ctx := pageContext{s: s, page: page}
	body := markdown.RewriteLinks(n.Doc, func(l *markdown.Link) (string, bool) {
		t := ctx.Resolve(n.Doc, l)
		text := l.Display
		if text == "" {
			text = l.Target
		}
		switch {
		case t.Broken || t.Plain:
			return text, true
		case t.Doc == nil: // an asset
			u := rel(from, t.Path)
			if l.Embed {
				return fmt.Sprintf("![%s](%s)", text, u), true
			}
			return fmt.Sprintf("[%s](%s)", text, u), true
		}
		target := s.pages[s.v.NoteOf(t.Doc)]
		u := ""
		if target != page || from != page {
			u = rel(from, twinPath(target))
		}
		if t.Anchor != "" {
			u += "#" + t.Anchor
		}
		return fmt.Sprintf("[%s](%s)", text, u), true
	})
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "title: %q\n", n.Title)
	fmt.Fprintf(&b, "type: %s\n", n.Kind)
	if n.Source != "" {
		fmt.Fprintf(&b, "source: %q\n", n.Source)
	}
	if n.Date != "" {
		fmt.Fprintf(&b, "date: %s\n", n.Date)
	}
	if len(n.Doc.Tags) > 0 {
		b.WriteString("tags: [")
		for i, t := range n.Doc.Tags {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", t)
		}
		b.WriteString("]\n")
	}
	if from == page {
		fmt.Fprintf(&b, "html: %s\n", path.Base(page))
	} else {
		fmt.Fprintf(&b, "html: %s\n", page)
	}
	b.WriteString("---\n")
	b.Write(body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
