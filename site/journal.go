package site

import (
	"fmt"
	"html/template"
	"strings"
)

// renderDreamJournal writes dreams/journal.html: one entry per dream,
// newest first, with what it promoted, merged, superseded, pruned and
// archived and how MEMORY.md's size changed, each linking the log entry
// it comes from.
func (s *site) renderDreamJournal() error {
	const page = "dreams/journal.html"
	d := pageData{Page: pageInfo{Kind: "journal", Title: "Dream journal",
		Description: "Every consolidation run: what was promoted, merged, superseded, pruned and archived.",
		Breadcrumbs: []link{{Title: "Home", URL: "../index.html"}, {Title: "Dreams", URL: folderLink(s, page, "dreams")}, {Title: "Dream journal"}}}}
	runs := s.opts.Dreams
	var b strings.Builder
	if len(runs) == 0 {
		b.WriteString(`<p class="muted">No dream has run yet. Each consolidation run appends an entry to memory/dream-log.md, and it shows up here.</p>`)
	} else {
		fmt.Fprintf(&b, `<p class="muted">%s, newest first.</p><ol class="dream-journal" reversed>`, esc(plural(len(runs), "dream")))
	}
	var toc []link
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		id := dreamID(r)
		title := r.Date
		if r.Time != "" {
			title += " " + r.Time
		}
		toc = append(toc, link{Title: title, URL: "#" + id})
		fmt.Fprintf(&b, `<li class="dream-entry" id="%s"><h2>%s</h2>`, esc(id), esc(title))
		if len(r.Counts) > 0 {
			b.WriteString(`<ul class="dream-counts">`)
			for _, c := range r.Counts {
				fmt.Fprintf(&b, `<li>%s <strong>%d</strong></li>`, esc(c.What), c.N)
			}
			b.WriteString(`</ul>`)
		}
		if r.MemoryBefore > 0 || r.MemoryAfter > 0 {
			delta := r.MemoryAfter - r.MemoryBefore
			sign := "+"
			if delta < 0 {
				sign = "−"
				delta = -delta
			}
			fmt.Fprintf(&b, `<p class="dream-size">MEMORY.md %s → %s characters (%s%s)</p>`, thousands(r.MemoryBefore), thousands(r.MemoryAfter), sign, thousands(delta))
		}
		var facts []string
		if r.Through != "" {
			facts = append(facts, "consolidated through "+r.Through)
		}
		if r.Logs != "" {
			facts = append(facts, "read "+r.Logs)
		}
		if len(facts) > 0 {
			fmt.Fprintf(&b, `<p class="dream-size">%s</p>`, esc(strings.Join(facts, "; ")))
		}
		if len(r.Notes) > 0 {
			b.WriteString(`<ul>`)
			for _, n := range r.Notes {
				fmt.Fprintf(&b, `<li>%s</li>`, esc(plainWikilinks(n)))
			}
			b.WriteString(`</ul>`)
		}
		if u := s.dreamSource(page, r); u != "" {
			fmt.Fprintf(&b, `<p><a class="internal" href="%s">Read the log entry</a></p>`, esc(u))
		}
		b.WriteString(`</li>`)
	}
	if len(runs) > 0 {
		b.WriteString(`</ol>`)
	}
	// Dream notes other than the log itself (phase reports, DREAMS.md).
	var other listGroup
	other.Title = "Dream notes"
	for _, n := range s.mem.dreams {
		other.Items = append(other.Items, link{Title: n.Title, URL: rel(page, s.pages[n]), Meta: n.Date, Note: true})
	}
	if len(other.Items) > 0 {
		d.List.Groups = []listGroup{other}
	}
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	if len(toc) > 1 {
		var t strings.Builder
		t.WriteString("<ol>")
		for _, l := range toc {
			fmt.Fprintf(&t, `<li><a href="%s">%s</a></li>`, esc(l.URL), esc(l.Title))
		}
		t.WriteString("</ol>")
		d.Page.TOC = template.HTML(t.String()) //nolint:gosec // escaped above
	}
	return s.render(page, "list.html", d)
}

// dreamID is the anchor of a run in the journal.
func dreamID(r DreamRun) string {
	id := "dream-" + r.Date
	if r.Time != "" {
		id += "-" + strings.ReplaceAll(r.Time, ":", "")
	}
	return id
}

// dreamSource links the heading of the run's entry in its note.
func (s *site) dreamSource(page string, r DreamRun) string {
	n := s.v.Note(r.Note)
	if n == nil {
		return ""
	}
	target, ok := s.pages[n]
	if !ok {
		return ""
	}
	u := rel(page, target)
	for _, h := range n.Doc.Headings {
		if h.Line == r.Line {
			return u + "#" + h.ID
		}
	}
	return u
}

func countsLine(cs []DreamCount) string {
	var parts []string
	for _, c := range cs {
		if c.N > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.N, strings.ToLower(c.What)))
		}
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

// folderLink is a folder page's URL from page, "" when there is none.
func folderLink(s *site, page, dir string) string {
	if u := folderURL(s, dir); u != "" {
		return rel(page, u)
	}
	return ""
}
