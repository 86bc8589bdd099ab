package site

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/dreamwiki/dreamwiki/internal/changes"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/vault"
)

// The pages made of the memory's history (Options.History): the changes
// page, a snapshot page per point (MEMORY.md and the charts as they stood
// then, which the time slider swaps in), the slider's data, and the parts
// of the dream and claim pages that say what changed.
const (
	changesPage  = "changes.html"
	timelineData = "history/index.json"
)

// snapshotPage is the page of MEMORY.md and the charts at the point id.
func snapshotPage(id string) string { return "history/" + id + "/memory.html" }

// timeline indexes the history for the pages that show part of it.
type timeline struct {
	points []HistoryPoint
	// byDream maps a dream's slug to its point.
	byDream map[string]int
	// byClaim lists, per claim id, what happened to it, oldest first.
	byClaim map[string][]claimEvent
}

// claimEvent is one change to a claim, at the point it is first seen.
type claimEvent struct {
	point  int
	change *changes.Change
	// byDream is set when the dream of the point made the change (it is
	// in the dream's own diff), not edits before it.
	byDream bool
}

// history returns the history's index, made on first use; nil when the
// site has no history.
func (s *site) history() *timeline {
	s.histOnce.Do(func() {
		h := s.opts.History
		if h == nil || len(h.Points) == 0 {
			return
		}
		t := &timeline{points: h.Points, byDream: map[string]int{}, byClaim: map[string][]claimEvent{}}
		for i := range h.Points {
			p := &h.Points[i]
			if p.Dream != "" {
				t.byDream[p.Dream] = i
			}
			own := map[string]bool{}
			for _, c := range p.Changes {
				own[string(c.Kind)+" "+c.Claim] = true
			}
			for j := range p.Since {
				c := &p.Since[j]
				t.byClaim[c.Claim] = append(t.byClaim[c.Claim], claimEvent{point: i, change: c, byDream: own[string(c.Kind)+" "+c.Claim]})
			}
		}
		s.hist = t
	})
	return s.hist
}

// historyKeys are the pages of the history, for serve mode's page set.
func (s *site) historyKeys() []pageKey {
	t := s.history()
	if t == nil {
		return nil
	}
	keys := []pageKey{"changes"}
	for _, p := range t.points {
		keys = append(keys, pageKey("history:"+p.ID))
	}
	return keys
}

// renderHistory writes the changes page, every snapshot page and the
// slider's data.
func (s *site) renderHistory() error {
	t := s.history()
	if t == nil {
		return nil
	}
	if err := s.renderChanges(nil); err != nil {
		return err
	}
	for _, p := range t.points {
		if err := s.renderSnapshot(p.ID, nil); err != nil {
			return err
		}
	}
	return s.writeTimelineData()
}

// sliderPoint is one point in the slider's data: what the slider says
// while on it, and the page it shows.
type sliderPoint struct {
	Label  string `json:"label"`
	Date   string `json:"date"`
	Page   string `json:"page"`
	Claims int    `json:"claims"`
	Health int    `json:"health"`
}

// writeTimelineData writes history/index.json, which the time slider
// fetches the first time it is touched: a few words per point, the pages
// themselves fetched as the slider reaches them.
func (s *site) writeTimelineData() error {
	t := s.history()
	if t == nil {
		return nil
	}
	pts := make([]sliderPoint, len(t.points))
	for i, p := range t.points {
		pts[i] = sliderPoint{Label: p.Label, Date: p.Date, Page: snapshotPage(p.ID), Claims: p.Claims, Health: p.Health.Score}
	}
	data, err := json.Marshal(struct {
		Points []sliderPoint `json:"points"`
	}{pts})
	if err != nil {
		return err
	}
	return s.write(timelineData, append(data, '\n'))
}

// slider is the time slider of a page at the site's root (the home page,
// the dashboard): a range input that JavaScript reveals and drives
// (ui/slider.ts), and the snapshot pages as plain links, which is all
// there is with JavaScript off. swap names what the slider replaces on
// the page: "index" (MEMORY.md) or "charts".
func (s *site) slider(page, swap string) template.HTML {
	t := s.history()
	if t == nil {
		return ""
	}
	n := len(t.points)
	var b strings.Builder
	fmt.Fprintf(&b, `<section class="time-slider" aria-labelledby="ts-title" data-timeline="%s" data-swap="%s">`, esc(rel(page, timelineData)), esc(swap))
	b.WriteString(`<h2 id="ts-title">Memory over time</h2>`)
	fmt.Fprintf(&b, `<div class="ts-control" hidden><label for="ts-range">Show memory as of</label>`+
		`<input type="range" id="ts-range" min="0" max="%d" step="1" value="%d" aria-valuetext="Now" aria-describedby="ts-status">`+
		`<output id="ts-status" for="ts-range" aria-live="polite">Now</output></div>`, n, n)
	fmt.Fprintf(&b, `<details class="ts-links"><summary>%s, oldest first</summary><ol>`, esc(plural(n, "earlier version")))
	for _, p := range t.points {
		fmt.Fprintf(&b, `<li><a href="%s">%s</a><span class="meta">%s · health %d</span></li>`,
			esc(rel(page, snapshotPage(p.ID))), esc(p.Label), esc(plural(p.Claims, "claim")), p.Health.Score)
	}
	fmt.Fprintf(&b, `</ol><p><a href="%s">What changed, dream by dream</a></p></details></section>`, esc(rel(page, changesPage)))
	return template.HTML(b.String()) //nolint:gosec // escaped above
}

// renderSnapshot writes the snapshot page of the point id: MEMORY.md and
// the claims' charts as they stood then, with the way to the points
// around it.
func (s *site) renderSnapshot(id string, r *reads) error {
	t := s.history()
	i := -1
	for j, p := range t.points {
		if p.ID == id {
			i = j
		}
	}
	if i < 0 {
		return nil
	}
	p := t.points[i]
	page := snapshotPage(id)
	d := pageData{Page: pageInfo{Kind: "snapshot", Title: "MEMORY.md as of " + p.Label, Subtitle: "Read " + p.Source + ".",
		Description: "The memory index and its claims as they stood at " + p.Label + ".",
		Breadcrumbs: []link{{Title: "Home", URL: rel(page, "index.html")}, {Title: "Changes", URL: rel(page, changesPage)}, {Title: p.Label}}}}
	var b strings.Builder
	b.WriteString(`<nav class="ts-steps" aria-label="Other points in time"><ul>`)
	if i > 0 {
		fmt.Fprintf(&b, `<li><a rel="prev" href="%s">← %s</a></li>`, esc(rel(page, snapshotPage(t.points[i-1].ID))), esc(t.points[i-1].Label))
	}
	if i+1 < len(t.points) {
		fmt.Fprintf(&b, `<li><a rel="next" href="%s">%s →</a></li>`, esc(rel(page, snapshotPage(t.points[i+1].ID))), esc(t.points[i+1].Label))
	}
	fmt.Fprintf(&b, `<li><a href="%s">Now</a></li>`, esc(rel(page, "index.html")))
	if n := s.dreamNote(p.Dream, r); n != nil {
		fmt.Fprintf(&b, `<li><a class="internal" href="%s">What this dream changed</a></li>`, esc(rel(page, s.url(n, r))))
	}
	b.WriteString(`</ul></nav>`)

	b.WriteString(`<div id="as-of-charts" class="dashboard">`)
	fmt.Fprintf(&b, `<section class="panel wide" aria-labelledby="s-overview"><h2 id="s-overview">Then</h2><div class="stat-row">`+
		`<div><span>Claims</span><span class="big">%s</span></div><div><span>Health</span><span class="big">%d</span></div>`+
		`<div><span>Changes since the point before</span><span class="big">%s</span></div></div></section>`,
		thousands(p.Claims), p.Health.Score, thousands(len(p.Since)))
	if p.Claims > 0 {
		b.WriteString(`<section class="panel" aria-labelledby="s-tier"><h2 id="s-tier">Claims by tier</h2>`)
		b.WriteString(string(barChart("s-c-tier", "Claims by tier then", ordered(p.Tiers, tierOrder, "fill-"))))
		b.WriteString(`</section><section class="panel" aria-labelledby="s-type"><h2 id="s-type">Claims by type</h2>`)
		b.WriteString(string(barChart("s-c-type", "Claims by memory type then", ordered(p.Types, typeOrder, "fill-"))))
		b.WriteString(`</section>`)
	}
	b.WriteString(`</div>`)

	b.WriteString(`<h2 id="as-of-memory">MEMORY.md</h2><div id="as-of-index" class="content">`)
	if p.Memory == "" {
		b.WriteString(`<p class="muted">There was no MEMORY.md then.</p>`)
	} else {
		h, err := s.markdownHTML("MEMORY.md", p.Memory, page, r)
		if err != nil {
			return err
		}
		// The index's own title is the page's, as on the home page.
		_, h = splitTitle(h)
		b.WriteString(string(h))
	}
	b.WriteString(`</div>`)
	if len(p.Since) > 0 {
		fmt.Fprintf(&b, `<h2 id="changes">Changes since the point before</h2><p class="muted">%s</p>`, esc(kindCounts(p.Since)))
		s.changeList(&b, page, p.Since, 0, "", r)
	}
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	return s.render(page, "list.html", d, r)
}

// markdownHTML renders Markdown that is no note of the vault (MEMORY.md
// as it once was) as page shows it: its links go to the notes of today.
func (s *site) markdownHTML(name, src, page string, r *reads) (template.HTML, error) {
	doc := s.eng.ParseText(name, src)
	buf := getBuffer()
	defer putBuffer(buf)
	if err := s.eng.RenderHTML(buf, doc, pageContext{s: s, page: page, r: r}); err != nil {
		return "", fmt.Errorf("rendering %s of %s: %w", name, page, err)
	}
	return template.HTML(finishHTML(buf.Bytes())), nil //nolint:gosec // produced by our escaping renderer
}

// dreamNote is the run note of the dream slug, nil when it has none.
func (s *site) dreamNote(slug string, r *reads) *vault.Note {
	if slug == "" {
		return nil
	}
	p := vault.DreamsFolder + "/" + slug + ".md"
	r.add(depURL, p)
	n := s.v.Note(p)
	if n == nil || s.pages[n] == "" {
		return nil
	}
	return n
}

// renderChanges writes changes.html: what changed in memory, point by
// point, newest first.
func (s *site) renderChanges(r *reads) error {
	t := s.history()
	page := changesPage
	d := pageData{Page: pageInfo{Kind: "changes", Title: "Changes",
		Description: "What changed in memory, dream by dream, newest first.",
		Breadcrumbs: []link{{Title: "Home", URL: "index.html"}, {Title: "Changes"}}}}
	var b strings.Builder
	fmt.Fprintf(&b, `<p class="muted">Claims added, changed, superseded, archived, contested, resolved and removed between %s, newest first. Each point links to MEMORY.md as it stood then.</p>`,
		esc(map[bool]string{true: "one dream and the next", false: "one week and the next"}[t.points[0].Dream != ""]))
	for i := len(t.points) - 1; i >= 0; i-- {
		p := t.points[i]
		fmt.Fprintf(&b, `<section class="change-point" aria-labelledby="cp-%s"><h2 id="cp-%s">`, esc(p.ID), esc(p.ID))
		if n := s.dreamNote(p.Dream, r); n != nil {
			fmt.Fprintf(&b, `<a class="internal" href="%s">%s</a>`, esc(rel(page, s.url(n, r))), esc(p.Label))
		} else {
			b.WriteString(esc(p.Label))
		}
		fmt.Fprintf(&b, `</h2><p class="meta">%s · <a href="%s">MEMORY.md then</a> · health %d</p>`,
			esc(kindCounts(p.Since)), esc(rel(page, snapshotPage(p.ID))), p.Health.Score)
		s.changeList(&b, page, p.Since, 12, rel(page, snapshotPage(p.ID))+"#changes", r)
		b.WriteString(`</section>`)
	}
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	return s.render(page, "list.html", d, r)
}

// kindCounts says how many changes of each kind cs holds.
func kindCounts(cs []changes.Change) string {
	var parts []string
	for _, k := range changes.Count(cs) {
		parts = append(parts, fmt.Sprintf("%d %s", k.N, k.Kind))
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

// changeList writes cs as a list, edits before additions (an edit to a
// claim is the news; a long list of additions would bury it), at most
// limit (0: all) then a link to all of them at more: each change's kind,
// its claim (linked when published), what it was before, the claims it
// relates to and its evidence.
func (s *site) changeList(b *strings.Builder, page string, cs []changes.Change, limit int, more string, r *reads) {
	if len(cs) == 0 {
		return
	}
	cs = slices.Clone(cs)
	added := func(c changes.Change) int {
		if c.Kind == changes.Added {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(cs, func(a, b changes.Change) int { return cmp.Compare(added(a), added(b)) })
	b.WriteString(`<ul class="changes">`)
	for i, c := range cs {
		if limit > 0 && i == limit {
			fmt.Fprintf(b, `<li><a href="%s">and %d more</a></li>`, esc(more), len(cs)-i)
			break
		}
		fmt.Fprintf(b, `<li class="change-%s"><span class="badge plain">%s</span> `, esc(string(c.Kind)), esc(string(c.Kind)))
		b.WriteString(s.claimLink(page, c.Claim, c.Text, r))
		fmt.Fprintf(b, ` <span class="muted">%s:%d</span>`, esc(c.File), c.Line)
		if c.Before != "" {
			fmt.Fprintf(b, `<br><span class="muted">was:</span> <del>%s</del>`, esc(c.Before))
		}
		if len(c.Related) > 0 {
			var links []string
			for _, id := range c.Related {
				links = append(links, s.claimLink(page, id, "", r))
			}
			fmt.Fprintf(b, `<br><span class="muted">%s</span> %s`, esc(c.Kind.Relation()), strings.Join(links, "; "))
		}
		if len(c.Evidence) > 0 {
			var links []string
			for _, ev := range c.Evidence {
				links = append(links, s.citationLink(page, ev, r))
			}
			fmt.Fprintf(b, `<br><span class="muted">evidence:</span> %s`, strings.Join(links, ", "))
		}
		b.WriteString(`</li>`)
	}
	b.WriteString(`</ul>`)
}

// claimLink is a claim's text linked to its page when it is published
// (its title now when text is ""), plain text otherwise.
func (s *site) claimLink(page, id, text string, r *reads) string {
	c := s.claimByID(id, r)
	if c == nil {
		if text == "" {
			text = strings.TrimPrefix(id, "claim.")
		}
		return esc(text)
	}
	if text == "" {
		r.note(depTitle, c.note)
		text = c.note.Title
	}
	return fmt.Sprintf(`<a class="internal" href="%s">%s</a>`, esc(rel(page, s.url(c.note, r))), esc(text))
}

// citationLink is an evidence citation ("memory/2026-03-05.md#L7-L7")
// as people read it ("5 Mar 2026 log, line 7"), linked to the cited lines
// (the block anchor a claim page's evidence uses) when the source is
// published, plain text otherwise.
func (s *site) citationLink(page, citation string, r *reads) string {
	file, lines, _ := strings.Cut(citation, "#")
	start, end := citedLines(lines)
	text := citationWords(file, start, end)
	n := s.sourceNote(file, r)
	if n == nil {
		return esc(text)
	}
	href := rel(page, s.url(n, r))
	if start > 0 {
		block := "^e" + strconv.Itoa(start)
		r.anchor(n.Path, block)
		if id, ok := n.Doc.Anchor(block); ok {
			href += "#" + id
		}
	}
	return fmt.Sprintf(`<a class="internal" href="%s" title="%s">%s</a>`, esc(href), esc(citation), esc(text))
}

// citedLines reads a citation's line range ("L7-L9", "L7"); 0, 0 when
// it has none.
func citedLines(frag string) (start, end int) {
	a, b, found := strings.Cut(frag, "-")
	start, err := strconv.Atoi(strings.TrimPrefix(a, "L"))
	if err != nil || start < 1 {
		return 0, 0
	}
	end = start
	if found {
		if e, err := strconv.Atoi(strings.TrimPrefix(b, "L")); err == nil && e > start {
			end = e
		}
	}
	return start, end
}

// citationWords says a citation in words: a daily log by its day, other
// files by their path, then the lines.
func citationWords(file string, start, end int) string {
	name := file
	if day, _, ok := workspace.DailyLogPath(file); ok {
		name = day.Format("2 Jan 2006") + " log"
	}
	switch {
	case start == 0:
		return name
	case end > start:
		return fmt.Sprintf("%s, lines %d–%d", name, start, end)
	}
	return fmt.Sprintf("%s, line %d", name, start)
}

// dreamChanges is what a dream's page shows of the dream's point: the
// changes it made, and MEMORY.md before and after it as a line diff.
func (s *site) dreamChanges(n *vault.Note, page string, r *reads) template.HTML {
	t := s.history()
	if t == nil || n.Dream == nil {
		return ""
	}
	i, ok := t.byDream[n.Dream.Slug]
	if !ok {
		return ""
	}
	p := t.points[i]
	var b strings.Builder
	b.WriteString(`<section class="dream-diff" aria-labelledby="what-changed"><h2 id="what-changed">What this dream changed</h2>`)
	if p.BeforeSource == p.Source {
		fmt.Fprintf(&b, `<p class="muted">Memory just before the dream against the end of its day, both %s.</p>`, esc(p.Source))
	} else {
		fmt.Fprintf(&b, `<p class="muted">Memory just before the dream (%s) against the end of its day (%s).</p>`, esc(p.BeforeSource), esc(p.Source))
	}
	if len(p.Changes) == 0 {
		b.WriteString(`<p>No claim was added, changed, superseded, archived, contested or resolved.</p>`)
	} else {
		fmt.Fprintf(&b, `<p><strong>%s</strong></p>`, esc(kindCounts(p.Changes)))
		s.changeList(&b, page, p.Changes, 0, "", r)
	}
	b.WriteString(`<h2 id="memory-diff">MEMORY.md before and after</h2>`)
	fmt.Fprintf(&b, `<p><a href="%s">MEMORY.md after this dream</a>`, esc(rel(page, snapshotPage(p.ID))))
	if i > 0 {
		fmt.Fprintf(&b, ` · <a href="%s">after the dream before</a>`, esc(rel(page, snapshotPage(t.points[i-1].ID))))
	}
	b.WriteString(`</p>`)
	b.WriteString(lineDiff(p.Before, p.Memory))
	b.WriteString(`</section>`)
	return template.HTML(b.String()) //nolint:gosec // escaped above
}

// lineDiff shows the change from before to after line by line, with a
// few lines of context around each change, as a unified diff reads.
func lineDiff(before, after string) string {
	if before == after {
		return `<p class="muted">MEMORY.md did not change.</p>`
	}
	u := string(diff.Diff("before", []byte(before), "after", []byte(after)))
	var b strings.Builder
	b.WriteString(`<div class="line-diff" role="region" aria-label="MEMORY.md, lines removed and added" tabindex="0"><pre>`)
	for _, line := range strings.Split(strings.TrimSuffix(u, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "diff "), strings.HasPrefix(line, "---"), strings.HasPrefix(line, "+++"):
		case strings.HasPrefix(line, "@@"):
			b.WriteString(`<span class="hunk">…</span>` + "\n")
		case strings.HasPrefix(line, "+"):
			// ins and del are blocks: each is its own line.
			fmt.Fprintf(&b, `<ins><span class="visually-hidden">added: </span>%s</ins>`, esc(line))
		case strings.HasPrefix(line, "-"):
			fmt.Fprintf(&b, `<del><span class="visually-hidden">removed: </span>%s</del>`, esc(line))
		case line != `\ No newline at end of file`:
			b.WriteString(esc(line) + "\n")
		}
	}
	b.WriteString(`</pre></div>`)
	return b.String()
}

// claimHistory is what happened to a claim, point by point, as its page
// lists it.
func (s *site) claimHistory(id, page string, r *reads) []link {
	t := s.history()
	if t == nil {
		return nil
	}
	var out []link
	for _, e := range t.byClaim[id] {
		p := t.points[e.point]
		what := map[changes.Kind]string{
			changes.Added: "In memory", changes.Changed: "Changed", changes.Superseded: "Superseded",
			changes.Archived: "Archived", changes.Contested: "Contested", changes.Resolved: "No longer contested",
			changes.Removed: "Removed",
		}[e.change.Kind]
		when := "by " + p.Label
		if e.byDream {
			when = "by the dream"
		}
		l := link{Title: what + " " + when, Meta: p.Date, URL: rel(page, snapshotPage(p.ID))}
		if n := s.dreamNote(p.Dream, r); n != nil && e.byDream {
			l.Title, l.URL, l.Note = what+" by "+p.Label, rel(page, s.url(n, r)), true
		}
		if e.change.Before != "" {
			l.Summary = "was: " + e.change.Before
		}
		out = append(out, l)
	}
	return out
}

// historyCounts is the feed's line of what a dream changed, "" when the
// site has no history of it.
func (s *site) historyCounts(slug string) string {
	t := s.history()
	if t == nil {
		return ""
	}
	if i, ok := t.byDream[slug]; ok {
		return "Changes: " + kindCounts(t.points[i].Changes) + "."
	}
	return ""
}
