package vault

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
)

// Write writes the vault: every note as Markdown with normalised front
// matter, every asset, Obsidian's settings in .obsidian/ and the manifest
// of what was written. It is WriteWith without a previous vault.
func (v *Vault) Write(ctx context.Context, w output.Writer) error {
	_, err := v.WriteWith(ctx, w, WriteOptions{})
	return err
}

// Markdown returns the note as written into the vault: its properties
// with the aliases every reader can use (see publish.go), and its links
// in the form every reader resolves alike.
func (v *Vault) Markdown(n *Note) []byte {
	pub := v.publishing()
	body := markdown.RewriteLinks(n.Doc, func(l *markdown.Link) (string, bool) {
		return v.vaultLink(pub, n, l)
	})
	props := n.Props
	if props.Get("aliases") != nil {
		props = append(Props(nil), props...)
		props.Set("aliases", append([]string{}, pub.aliases[n]...))
	}
	fm := props.Marshal()
	out := make([]byte, 0, len(fm)+len(body)+1)
	out = append(out, fm...)
	out = append(out, body...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// publishing is the vault's naming for writing, worked out on first use.
func (v *Vault) publishing() *publishing {
	v.pubOnce.Do(func() { v.pub = newPublishing(v.Notes, v.Assets) })
	return v.pub
}

// vaultLink writes a link so that every reader resolves it to the note
// the builder resolved it to (see publish.go): a target named otherwise
// (a workspace path, a moved file, a relative path, an ambiguous bare
// name, another case) is named again, a wikilink whose text a publisher
// would show otherwise gets that text written out, and one whose text
// Quartz cannot read as a wikilink ("#", a URL) becomes a Markdown link.
// Links already in that form, and broken links, are left as written; a
// link to a private note left out becomes its text.
func (v *Vault) vaultLink(pub *publishing, n *Note, l *markdown.Link) (string, bool) {
	r, ok := v.links[l]
	if ok && r.Private {
		text := l.Display
		if text == "" {
			text = l.Target
		}
		return escapeText(text), true
	}
	if !ok || r.Broken || l.Target == "" || r.Workspace != "" {
		// A link into another workspace stays as written: each workspace
		// is a vault of its own.
		return "", false
	}
	p, note := "", false
	switch {
	case r.Note != nil:
		p, note = r.Note.Path, true
	case r.Asset != nil:
		p = r.Asset.Path
	}
	rooted := p
	if note {
		rooted = strings.TrimSuffix(p, ".md")
	}
	target := pub.target(p, note)
	src := n.Doc.Source[l.Start:l.End]
	if !l.Wiki {
		if l.Target == p {
			return "", false
		}
		return markdownLink(l.Embed, l.Display, p+markdownFragment(l.Fragment)), true
	}
	named := l.Target == target || l.Target == rooted || l.Target == p
	labelled := bytes.IndexByte(src, '|') >= 0
	frag := ""
	if l.Fragment != "" {
		frag = "#" + l.Fragment
	}
	if l.Embed {
		if named {
			return "", false
		}
		var b strings.Builder
		b.WriteString("![[" + target + frag)
		switch {
		case l.Width > 0:
			fmt.Fprintf(&b, "|%d", l.Width)
			if l.Height > 0 {
				fmt.Fprintf(&b, "x%d", l.Height)
			}
		case labelled:
			b.WriteString("|" + l.Display)
		}
		b.WriteString("]]")
		return b.String(), true
	}
	display := l.Display
	if !labelled {
		// Obsidian shows an unlabelled link as its target; Quartz shows
		// the last part of the path, or only the heading of [[x#H]].
		// Written out, the text is the same in both.
		if named && l.Fragment == "" && !strings.Contains(l.Target, "/") {
			return "", false
		}
		// l.Display is Obsidian's "target > heading": keep its file name.
		display = fileName(l.Target, note) + strings.TrimPrefix(display, l.Target)
	}
	if !wikiText(display) {
		return markdownLink(false, display, p+markdownFragment(l.Fragment)), true
	}
	if named && labelled {
		return "", false
	}
	if display == target && frag == "" {
		return "[[" + target + "]]", true
	}
	bar := "|"
	if inTableRow(n.Doc.Source, l.Start) {
		bar = `\|`
	}
	return "[[" + target + frag + bar + display + "]]", true
}

// wikiText reports whether a wikilink's text is read as one by every
// reader. Quartz finds wikilinks in the text Markdown leaves, and stops at
// a "#" in the text; a URL or an e-mail address in it is made a link of
// its own first, and the wikilink stays literal text.
func wikiText(s string) bool {
	return !strings.ContainsAny(s, "#@") && !strings.Contains(s, "://") && !strings.Contains(strings.ToLower(s), "www.")
}

// markdownLink writes [text](<dest>), the form whose text may hold
// anything: Markdown makes no link inside a link's text.
func markdownLink(embed bool, text, dest string) string {
	bang := ""
	if embed {
		bang = "!"
	}
	return bang + "[" + linkTextEscaper.Replace(text) + "](<" + dest + ">)"
}

// linkTextEscaper keeps a Markdown link's text from ending the link.
var linkTextEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "\n", " ")

// markdownFragment is a fragment for a Markdown link's destination.
func markdownFragment(f string) string {
	if f == "" {
		return ""
	}
	return "#" + url.PathEscape(f)
}

// inTableRow reports whether the line holding offset i of src is a table
// row, where a wikilink's bar must be written \| to stay in its cell.
func inTableRow(src []byte, i int) bool {
	start := bytes.LastIndexByte(src[:i], '\n') + 1
	return bytes.HasPrefix(bytes.TrimLeft(src[start:i], " \t>"), []byte("|"))
}
