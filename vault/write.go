package vault

import (
	"context"
	"fmt"
	"net/url"
	"path"
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

// Markdown returns the note as written into the vault.
func (v *Vault) Markdown(n *Note) []byte {
	body := markdown.RewriteLinks(n.Doc, func(l *markdown.Link) (string, bool) {
		return v.vaultLink(n, l)
	})
	fm := n.Props.Marshal()
	out := make([]byte, 0, len(fm)+len(body)+1)
	out = append(out, fm...)
	out = append(out, body...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// vaultLink rewrites a link whose target moved (a path into memory/ that
// now lives under topics/, say) so it resolves in the vault. Links that
// already resolve to the same note, and broken links, are left as written;
// a link to a private note left out becomes its text.
func (v *Vault) vaultLink(n *Note, l *markdown.Link) (string, bool) {
	r, ok := v.links[l]
	if ok && r.Private {
		text := l.Display
		if text == "" {
			text = l.Target
		}
		return escapeText(text), true
	}
	if !ok || r.Broken || l.Target == "" {
		return "", false
	}
	targetPath := ""
	switch {
	case r.Note != nil:
		targetPath = r.Note.Path
	case r.Asset != nil:
		targetPath = r.Asset.Path
	}
	if p, ok := v.inVault.Lookup(n.Path, l.Target); ok && p == targetPath && l.Wiki {
		return "", false
	}
	target := v.shortestTarget(targetPath)
	frag := ""
	if l.Fragment != "" {
		frag = "#" + l.Fragment
	}
	if !l.Wiki {
		rel := relPath(path.Dir(n.Path), targetPath)
		if frag != "" {
			frag = "#" + url.PathEscape(l.Fragment)
		}
		bang := ""
		if l.Embed {
			bang = "!"
		}
		return fmt.Sprintf("%s[%s](<%s%s>)", bang, l.Display, rel, frag), true
	}
	var b strings.Builder
	if l.Embed {
		b.WriteByte('!')
	}
	b.WriteString("[[")
	b.WriteString(target)
	b.WriteString(frag)
	if l.Width > 0 {
		fmt.Fprintf(&b, "|%d", l.Width)
		if l.Height > 0 {
			fmt.Fprintf(&b, "x%d", l.Height)
		}
	} else if l.Display != "" && l.Display != l.Target+frag && l.Display != l.Target {
		b.WriteString("|" + l.Display)
	}
	b.WriteString("]]")
	return b.String(), true
}

// shortestTarget is how Obsidian writes a link with "shortest path when
// possible": the bare name when it is unique in the vault, else the path.
func (v *Vault) shortestTarget(p string) string {
	name := strings.TrimSuffix(path.Base(p), ".md")
	if q, ok := v.inVault.Lookup("", name); ok && q == p {
		return name
	}
	return strings.TrimSuffix(p, ".md")
}

// relPath returns the path of target relative to the folder dir.
func relPath(dir, target string) string {
	if dir == "." {
		dir = ""
	}
	from := strings.Split(dir, "/")
	if dir == "" {
		from = nil
	}
	to := strings.Split(target, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	var parts []string
	for range from[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, to[i:]...)
	return strings.Join(parts, "/")
}
