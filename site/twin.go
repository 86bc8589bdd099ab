package site

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/vault"
)

// twin returns the Markdown twin of a page: the note's Markdown with
// wikilinks and embeds turned into relative links to other twins, so an
// agent can follow them without an Obsidian resolver.
func (s *site) twin(n *vault.Note, page string, r *reads) []byte { return s.twinFrom(n, page, page, r) }

// twinFrom is twin with links relative to the file from instead of the
// page (llms-full.txt, at the root, holds every twin).
func (s *site) twinFrom(n *vault.Note, page, from string, r *reads) []byte {
	r.note(depContent, n)
	if ci := s.mem.byNote[n]; ci != nil {
		return s.claimTwin(n, ci, page, from, r)
	}
	ctx := pageContext{s: s, page: page, r: r}
	body := markdown.RewriteLinks(n.Doc, func(l *markdown.Link) (string, bool) {
		t := ctx.Resolve(n.Doc, l)
		text := l.Display
		if text == "" {
			text = l.Target
		}
		switch {
		case t.Broken || t.Plain:
			return text, true
		case t.Doc == nil && t.Path != "" && isPeer(s.v, l):
			// A note of another workspace: its twin, at the heading.
			u := rel(from, twinPath(t.Path))
			if t.Anchor != "" {
				u += "#" + t.Anchor
			}
			return fmt.Sprintf("[%s](%s)", text, u), true
		case t.Doc == nil: // an asset
			u := rel(from, t.Path)
			if l.Embed {
				return fmt.Sprintf("![%s](%s)", text, u), true
			}
			return fmt.Sprintf("[%s](%s)", text, u), true
		}
		target := s.url(s.v.NoteOf(t.Doc), r)
		u := ""
		if target != page || from != page {
			u = rel(from, twinPath(target))
		}
		if t.Anchor != "" {
			u += "#" + t.Anchor
		}
		return fmt.Sprintf("[%s](%s)", text, u), true
	})
	var b bytes.Buffer
	b.Grow(len(body) + 512) // the front matter is a few lines
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
	return b.Bytes()
}

// isPeer reports a link into another workspace of a team site.
func isPeer(v *vault.Vault, l *markdown.Link) bool {
	r, ok := v.Resolution(l)
	return ok && r.Peer != nil
}

// claimTwin is the Markdown twin of a claim page: what its card shows, in
// Markdown, made from the same privacy-checked values (the vault's claim
// note names evidence in unpublished notes, which the site must not), and
// the person's own notes from the vault note.
func (s *site) claimTwin(n *vault.Note, ci *claimInfo, page, from string, r *reads) []byte {
	v := s.claimView(n, page, r)
	link := func(target *vault.Note, anchor string) string {
		u := rel(from, twinPath(s.url(target, r)))
		if anchor != "" {
			u += "#" + anchor
		}
		return u
	}
	var b bytes.Buffer
	b.Grow(2048) // a claim's twin is about 1 KB
	b.WriteString("---\n")
	fmt.Fprintf(&b, "title: %q\n", n.Title)
	b.WriteString("type: claim\n")
	fmt.Fprintf(&b, "id: %s\n", ci.ID)
	for _, kv := range [][2]string{{"memory_type", ci.Type}, {"tier", ci.Tier}, {"status", ci.Status},
		{"created", ci.Created}, {"last_recalled", ci.LastRecalled}, {"expires", ci.ExpiresOn}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "%s: %s\n", kv[0], kv[1])
		}
	}
	fmt.Fprintf(&b, "decay: %.2f\nrecalls: %d\n", ci.Decay, ci.Recalls)
	if ci.Lapsed {
		b.WriteString("lapsed: true\n")
	}
	if from == page {
		fmt.Fprintf(&b, "html: %s\n", path.Base(page))
	} else {
		fmt.Fprintf(&b, "html: %s\n", page)
	}
	b.WriteString("---\n")
	fmt.Fprintf(&b, "# %s\n\n%s\n", n.Title, ci.Text)
	if ci.Lapsed {
		b.WriteString("\n**This permission has lapsed**")
		if ci.ExpiresOn != "" {
			fmt.Fprintf(&b, " (on %s)", ci.ExpiresOn)
		}
		b.WriteString(": ask again before acting on it.\n")
	}
	if src := s.sourceNote(ci.c.File, r); src != nil {
		anchor := ""
		if ci.c.Block != "" {
			r.anchor(src.Path, "^"+ci.c.Block)
			anchor, _ = src.Doc.Anchor("^" + ci.c.Block)
		}
		fmt.Fprintf(&b, "\nWritten in [%s](%s).\n", mdText(v.Written.Title), link(src, anchor))
	}
	b.WriteString("\n## Evidence\n\n")
	evidence := s.evidence(ci, r)
	if len(evidence) == 0 {
		b.WriteString("No evidence: no pointer, recall or log line in the workspace supports this claim.\n")
	}
	for _, e := range evidence {
		if e.Private {
			b.WriteString("- A private note (not published)\n")
			continue
		}
		label := e.Path
		if lr := lineRange(e.StartLine, e.EndLine); lr != "" {
			label += ", " + lr
		}
		fmt.Fprintf(&b, "- [%s](%s)", mdText(label), link(e.Note, e.Anchor))
		if e.How != "" {
			fmt.Fprintf(&b, " (%s)", e.How)
		}
		b.WriteByte('\n')
		if e.Excerpt != "" {
			// The excerpt quotes its line as written: a link in it is
			// relative to that line's file, not to this page.
			fmt.Fprintf(&b, "  > %s\n", mdText(e.Excerpt))
		}
	}
	if len(v.Chain) > 0 {
		b.WriteString("\n## History\n\n")
		for _, st := range v.Chain {
			line := st.Text
			if !st.This {
				line = fmt.Sprintf("[%s](%s)", mdText(st.Text), link(st.note, ""))
			} else {
				line += " (this claim)"
			}
			state := "superseded"
			if st.Current {
				state = "current"
			}
			fmt.Fprintf(&b, "- %s %s: %s\n", orUnknown(st.Date), state, line)
		}
	}
	fmt.Fprintf(&b, "\n## Scores\n\n- Decay %.2f (%s), tier %s\n- Recalled %d times\n", ci.Decay, v.DecayParts, orUnknown(ci.Tier), ci.Recalls)
	if notes := humanText(n); notes != "" {
		fmt.Fprintf(&b, "\n## Notes\n\n%s\n", notes)
	}
	return b.Bytes()
}

// humanText is what a person wrote between the human markers of a
// generated note (vault.HumanStart, vault.HumanEnd), trimmed.
func humanText(n *vault.Note) string {
	src := string(n.Doc.Source)
	i := strings.Index(src, vault.HumanStart)
	if i < 0 {
		return ""
	}
	rest := src[i+len(vault.HumanStart):]
	j := strings.Index(rest, vault.HumanEnd)
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(rest[:j])
}
