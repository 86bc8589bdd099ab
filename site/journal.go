package site

import (
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/vault"
)

// dreamCountKeys are the dream-log fields a run's counts come from, in
// the order shown.
var dreamCountKeys = []string{"promoted", "merged", "superseded", "pruned", "archived"}

// sizeChange reads "1,204 → 3,318 chars (22 → 58 lines)".
var sizeChange = regexp.MustCompile(`([\d,.]+)\s*(?:→|->)\s*([\d,.]+)\s*(?:chars|characters)`)

// dreamCount is one thing a dream did, and how many times.
type dreamCount struct {
	What string
	N    int
	// Noun is set when What names things rather than what was done to
	// them ("item"), so that one is said in the singular.
	Noun string
}

// runCounts reads what a run did: the counts its log entry states, else
// the claims provenance matched to it.
func runCounts(d *provenance.Dream) []dreamCount {
	var out []dreamCount
	for _, k := range dreamCountKeys {
		v, ok := d.Fields[k]
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.Atoi(strings.Trim(f[0], ",.;"))
		if err != nil {
			continue
		}
		out = append(out, dreamCount{What: strings.ToUpper(k[:1]) + k[1:], N: n})
	}
	if len(out) > 0 {
		return out
	}
	for _, x := range []struct {
		what string
		ids  []string
	}{{"Promoted", d.Promoted}, {"Superseded", d.Superseded}, {"Archived", d.Archived}} {
		if len(x.ids) > 0 {
			out = append(out, dreamCount{What: x.what, N: len(x.ids)})
		}
	}
	if d.Kind == "diary" && len(d.Items) > 0 {
		out = append(out, dreamCount{What: "Items", N: len(d.Items), Noun: "item"})
	}
	return out
}

// memorySize reads MEMORY.md's size before and after a run, 0 when the
// entry does not say.
func memorySize(d *provenance.Dream) (before, after int) {
	m := sizeChange.FindStringSubmatch(d.Fields["memory.md"])
	if m == nil {
		return 0, 0
	}
	return atoiLoose(m[1]), atoiLoose(m[2])
}

// atoiLoose reads "1,204" or "1.204" as 1204.
func atoiLoose(s string) int {
	n, _ := strconv.Atoi(digitSeparators.Replace(s))
	return n
}

var digitSeparators = strings.NewReplacer(",", "", ".", "")

// runID is the anchor of a run in the journal.
func runID(n *vault.Note) string { return "dream-" + n.Dream.Slug }

// renderDreamJournal writes dreams/journal.html: one entry per dream run,
// newest first, with what it promoted, merged, superseded, pruned and
// archived (each claim linked), how MEMORY.md's size changed and which
// logs it read.
func (s *site) renderDreamJournal(r *reads) error {
	const page = "dreams/journal.html"
	d := pageData{Page: pageInfo{Kind: "journal", Title: "Dream journal",
		Description: "Every consolidation run: what was promoted, merged, superseded, pruned and archived.",
		Breadcrumbs: []link{{Title: "Home", URL: "../index.html"}, {Title: "Dreams", URL: folderLink(s, page, "dreams", r)}, {Title: "Dream journal"}}}}
	r.add(depRuns, "")
	runs := s.mem.runs
	var b strings.Builder
	if len(runs) == 0 {
		b.WriteString(`<p class="muted">No dream has run yet. Each consolidation run appends an entry to memory/dream-log.md (or the DREAMS.md diary), and it shows up here.</p>`)
	} else {
		fmt.Fprintf(&b, `<p class="muted">%s, newest first.</p><ol class="dream-journal" reversed>`, esc(plural(len(runs), "dream")))
	}
	var toc strings.Builder
	toc.WriteString("<ol>")
	for i := len(runs) - 1; i >= 0; i-- {
		n := runs[i]
		r.note(depRun, n)
		dr := n.Dream
		id := runID(n)
		fmt.Fprintf(&toc, `<li><a href="#%s">%s</a></li>`, esc(id), esc(strings.TrimPrefix(n.Title, "Dream ")))
		fmt.Fprintf(&b, `<li class="dream-entry" id="%s"><h2><a class="internal" href="%s">%s</a></h2>`, esc(id), esc(rel(page, s.url(n, r))), esc(n.Title))
		if cs := runCounts(dr); len(cs) > 0 {
			b.WriteString(`<ul class="dream-counts">`)
			for _, c := range cs {
				fmt.Fprintf(&b, `<li>%s <strong>%d</strong></li>`, esc(c.What), c.N)
			}
			b.WriteString(`</ul>`)
		}
		if before, after := memorySize(dr); before > 0 || after > 0 {
			delta, sign := after-before, "+"
			if delta < 0 {
				sign, delta = "−", -delta
			}
			fmt.Fprintf(&b, `<p class="dream-size">MEMORY.md %s → %s characters (%s%s)</p>`, thousands(before), thousands(after), sign, thousands(delta))
		}
		var facts []string
		if !dr.ConsolidatedThrough.IsZero() {
			facts = append(facts, "consolidated through "+dr.ConsolidatedThrough.Format("2006-01-02"))
		}
		if len(dr.Logs) > 0 {
			facts = append(facts, "read "+plural(len(dr.Logs), "daily log"))
		}
		if len(facts) > 0 {
			fmt.Fprintf(&b, `<p class="dream-size">%s</p>`, esc(strings.Join(facts, "; ")))
		}
		for _, x := range []struct {
			what string
			ids  []string
		}{{"Promoted", dr.Promoted}, {"Superseded", dr.Superseded}, {"Archived", dr.Archived}} {
			s.claimList(&b, page, x.what, x.ids, r)
		}
		if len(dr.Items) > 0 {
			b.WriteString(`<ul class="dream-items">`)
			for i, it := range dr.Items {
				if i == 6 {
					fmt.Fprintf(&b, `<li class="muted">and %d more</li>`, len(dr.Items)-i)
					break
				}
				text := esc(it.Text)
				if c := s.claimByID(it.Claim, r); c != nil {
					text = fmt.Sprintf(`<a class="internal" href="%s">%s</a>`, esc(rel(page, s.url(c.note, r))), text)
				}
				fmt.Fprintf(&b, `<li>%s`, text)
				if it.Status != "" {
					fmt.Fprintf(&b, ` <span class="badge plain">%s</span>`, esc(it.Status))
				}
				b.WriteString(`</li>`)
			}
			b.WriteString(`</ul>`)
		}
		b.WriteString(`</li>`)
	}
	toc.WriteString("</ol>")
	if len(runs) > 0 {
		b.WriteString(`</ol>`)
	}
	if len(runs) > 1 {
		d.Page.TOC = template.HTML(toc.String()) //nolint:gosec // escaped above
	}
	// The dream notes that are not runs: the dream log itself, the
	// DREAMS.md diary and phase reports.
	var other listGroup
	other.Title = "Dream notes"
	for _, n := range s.mem.dreams {
		r.note(depListing, n)
		other.Items = append(other.Items, link{Title: n.Title, URL: rel(page, s.url(n, r)), Meta: n.Date, Note: true})
	}
	if len(other.Items) > 0 {
		d.List.Groups = []listGroup{other}
	}
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	return s.render(page, "list.html", d, r)
}

// claimList writes "what: claim, claim, …" with each published claim
// linked, at most 8 then a count.
func (s *site) claimList(b *strings.Builder, page, what string, ids []string, r *reads) {
	var links []string
	more := 0
	for _, id := range ids {
		c := s.claimByID(id, r)
		if c == nil {
			continue
		}
		if len(links) == 8 {
			more++
			continue
		}
		r.note(depTitle, c.note)
		label := c.note.Title
		if c.Lapsed {
			label += " (lapsed)"
		}
		links = append(links, fmt.Sprintf(`<a class="internal" href="%s">%s</a>`, esc(rel(page, s.url(c.note, r))), esc(label)))
	}
	if len(links) == 0 {
		return
	}
	if more > 0 {
		links = append(links, fmt.Sprintf("and %d more", more))
	}
	fmt.Fprintf(b, `<p class="dream-claims"><strong>%s:</strong> %s</p>`, esc(what), strings.Join(links, "; "))
}

func countsLine(cs []dreamCount) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.N > 0 && c.Noun != "":
			parts = append(parts, plural(c.N, c.Noun))
		case c.N > 0:
			parts = append(parts, fmt.Sprintf("%d %s", c.N, strings.ToLower(c.What)))
		}
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

// folderLink is a folder page's URL from page, "" when there is none.
func folderLink(s *site, page, dir string, r *reads) string {
	if u := folderURL(s, dir, r); u != "" {
		return rel(page, u)
	}
	return ""
}
