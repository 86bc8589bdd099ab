package site

import (
	"fmt"
	"html/template"
	"strings"
)

// conversationsPage is the folder page of the conversation archives,
// which this view replaces with a digest of every channel and group.
const conversationsDir = "sources/conversations"

// renderConversations writes the conversations folder page as a digest:
// per channel and group, the digest and index notes and each topic with
// its message count.
func (s *site) renderConversations(r *reads) error {
	if len(s.opts.Conversations) == 0 {
		return nil
	}
	page := conversationsDir + "/index.html"
	d := pageData{Page: pageInfo{Kind: "conversations", KindLabel: "Folder", Title: "Conversations",
		Description: "Archived conversations by channel, group and topic, with message counts.",
		Breadcrumbs: s.breadcrumbs(page, "Conversations", r)}}
	var b strings.Builder
	channel := ""
	total := 0
	for _, c := range s.opts.Conversations {
		for _, t := range c.Topics {
			total += t.Messages
		}
	}
	fmt.Fprintf(&b, `<p class="muted">%s in %s.</p>`, esc(plural(total, "message")), esc(plural(len(s.opts.Conversations), "group")))
	for _, c := range s.opts.Conversations {
		if c.Channel != channel {
			channel = c.Channel
			fmt.Fprintf(&b, `<h2>%s</h2>`, esc(titleCase(channel)))
		}
		label := c.Label
		if label == "" {
			label = c.Group
		}
		fmt.Fprintf(&b, `<h3>%s</h3><p>`, esc(label))
		var links []string
		for _, x := range []struct{ title, path string }{{"Digest", c.Digest}, {"Index", c.Index}} {
			if u := s.notePageURL(page, x.path, r); u != "" {
				links = append(links, fmt.Sprintf(`<a class="internal" href="%s">%s</a>`, esc(u), x.title))
			}
		}
		b.WriteString(strings.Join(links, " · "))
		b.WriteString(`</p>`)
		if len(c.Topics) == 0 {
			continue
		}
		sum := 0
		fmt.Fprintf(&b, `<table class="conv-table"><caption class="visually-hidden">Topics of %s</caption><thead><tr><th scope="col">Topic</th><th scope="col" class="num">Messages</th></tr></thead><tbody>`, esc(label))
		for _, t := range c.Topics {
			sum += t.Messages
			name := esc(t.Name)
			if u := s.notePageURL(page, t.Path, r); u != "" {
				name = fmt.Sprintf(`<a class="internal" href="%s">%s</a>`, esc(u), name)
			}
			msgs := "unknown"
			if t.Messages > 0 {
				msgs = thousands(t.Messages)
			}
			fmt.Fprintf(&b, `<tr><td>%s</td><td class="num">%s</td></tr>`, name, msgs)
		}
		fmt.Fprintf(&b, `</tbody><tfoot><tr><th scope="row">All topics</th><td class="num">%s</td></tr></tfoot></table>`, thousands(sum))
	}
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	r.add(depFolder, conversationsDir)
	if f := s.folders[conversationsDir]; f != nil {
		g := listGroup{Title: "Folders"}
		for _, sub := range f.Folders {
			sf := s.folders[sub]
			g.Items = append(g.Items, link{Title: sf.Title, URL: rel(page, sub+"/index.html"), Meta: plural(sf.Count, "note")})
		}
		if len(g.Items) > 0 {
			d.List.Groups = append(d.List.Groups, g)
		}
	}
	return s.render(page, "list.html", d, r)
}

// notePageURL is the page of the note at a vault path, relative to page;
// "" when the note is missing or private.
func (s *site) notePageURL(page, vaultPath string, r *reads) string {
	if vaultPath == "" {
		return ""
	}
	r.add(depURL, vaultPath)
	n := s.v.Note(vaultPath)
	if n == nil {
		return ""
	}
	target, ok := s.pages[n]
	if !ok {
		return ""
	}
	return rel(page, target)
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
