package site

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/vault"
)

// A team site (internal/team) is the sites of several workspaces, each
// in a folder of its own, /<name>/ (BuildSection), under a few pages of
// the team's (BuildTeam): a home that lists the workspaces, one search
// over all of them with a workspace facet, one graph coloured by
// workspace, the disagreements between workspaces, and llms.txt and
// api/workspaces.json for agents. A workspace's site is the site it has
// on its own, but for its search, which is the team's.

// Section is what a team site's own pages take from one workspace's site.
type Section struct {
	Stats
	// docs are the site's search documents, URLs from its root.
	docs []search.Doc
	// graph is its graph, URLs from its root.
	graph graphData
	// claims are the pages of its published claims, by claim id.
	claims map[string]string
}

// BuildSection renders v as the site of the workspace opts.Team names in
// a team site, into w (the team site's folder of that name). It writes
// no search index: the team's holds its documents (BuildTeam).
func BuildSection(ctx context.Context, eng *markdown.Engine, v *vault.Vault, opts Options, w output.Writer) (*Section, error) {
	if opts.Team == nil || opts.Team.Workspace == "" {
		return nil, errors.New("site: a team site's section needs its workspace's name")
	}
	if err := public(v); err != nil {
		return nil, err
	}
	s, err := newSite(eng, v, opts, w)
	if err != nil {
		return nil, err
	}
	s.collect(nil, nil)
	if err := s.renderAll(ctx, true); err != nil {
		return nil, err
	}
	sec := &Section{Stats: s.stats, docs: s.sectionDocs, graph: s.buildGraph(nil), claims: make(map[string]string, len(s.mem.byID))}
	for id, c := range s.mem.byID {
		sec.claims[id] = s.pages[c.note]
	}
	return sec, nil
}

// inSection reports a site that is one workspace's section of a team site.
func (s *site) inSection() bool { return s.opts.Team != nil && s.opts.Team.Workspace != "" }

// TeamWorkspace is one workspace of a team site as its home lists it.
type TeamWorkspace struct {
	// Name is the workspace's name and folder; Title its site's title.
	Name, Title string
	Notes       int
	Claims      int
	// LastDream is the date of its newest dream (YYYY-MM-DD), "" for none.
	LastDream string
	// Health is its memory health score, 0-100.
	Health  int
	Section *Section
}

// BuildTeam writes a team site's own pages into w, the root of the site
// whose folders BuildSection wrote: opts.Team lists the workspaces (with
// Workspace ""), workspaces are in that order, and disagreements come
// from provenance.Disagreements over their results in that order.
func BuildTeam(ctx context.Context, opts Options, workspaces []TeamWorkspace, disagreements []provenance.Disagreement, w output.Writer) (Stats, error) {
	if opts.Team == nil || opts.Team.Workspace != "" {
		return Stats{}, errors.New("site: a team site's pages need the team without a workspace")
	}
	eng := markdown.New()
	s, err := newSite(eng, vault.Build(eng, nil, nil, nil), opts, w)
	if err != nil {
		return Stats{}, err
	}
	s.collect(nil, nil)
	t := &teamSite{site: s, workspaces: workspaces, disagreements: disagreements}
	for _, f := range s.bundle.Files {
		if err := s.write("assets/"+f.Name, f.Data); err != nil {
			return Stats{}, err
		}
	}
	steps := []func() error{
		func() error { return t.writeSearch(ctx) },
		t.renderHome, t.renderGraph, t.renderDisagreements, t.render404,
		t.writeLLMs, t.writeAPI, t.writeSitemap, s.writeRobots, s.writeFavicon,
	}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return Stats{}, err
		}
		if err := step(); err != nil {
			return Stats{}, err
		}
	}
	return s.stats, nil
}

// teamSite renders a team site's own pages with the site's layout.
type teamSite struct {
	*site
	workspaces    []TeamWorkspace
	disagreements []provenance.Disagreement
}

// writeSearch writes the one index of every workspace's documents, each
// marked with its workspace (the workspace: facet), and the search page.
func (t *teamSite) writeSearch(ctx context.Context) error {
	var docs []search.Doc
	for _, ws := range t.workspaces {
		for _, d := range ws.Section.docs {
			d.Workspace = ws.Name
			d.URL = ws.Name + "/" + d.URL
			// Ids are a workspace's own: claim.x may be in two.
			d.ID = ws.Name + "/" + d.ID
			if d.ClaimID != "" {
				d.ClaimID = ws.Name + "/" + d.ClaimID
			}
			if len(d.Supersedes) > 0 {
				sup := make([]string, len(d.Supersedes))
				for i, id := range d.Supersedes {
					sup[i] = ws.Name + "/" + id
				}
				d.Supersedes = sup
			}
			docs = append(docs, d)
		}
	}
	return t.writeSearchOf(ctx, docs)
}

// renderHome lists the workspaces with what a reader first asks of each.
func (t *teamSite) renderHome() error {
	const page = "index.html"
	d := pageData{Page: pageInfo{Kind: "home", Title: t.opts.Title,
		Description: fmt.Sprintf("%s of agent memory in one site.", plural(len(t.workspaces), "workspace"))}}
	notes := 0
	for _, ws := range t.workspaces {
		notes += ws.Notes
		meta := []string{plural(ws.Notes, "note"), plural(ws.Claims, "claim")}
		if ws.LastDream != "" {
			meta = append(meta, "last dream "+ws.LastDream)
		} else {
			meta = append(meta, "no dream yet")
		}
		meta = append(meta, fmt.Sprintf("health %d/100", ws.Health))
		title := ws.Name
		if ws.Title != "" && ws.Title != ws.Name {
			title += ": " + ws.Title
		}
		d.List.Cards = append(d.List.Cards, link{Title: title, URL: ws.Name + "/index.html", Meta: strings.Join(meta, " · ")})
	}
	d.Page.Subtitle = fmt.Sprintf("%s, %s. Search covers them all; workspace:NAME keeps one.",
		plural(len(t.workspaces), "workspace"), plural(notes, "note"))
	d.List.Groups = []listGroup{{Title: "Across workspaces", Items: []link{
		{Title: "Search every workspace", URL: "search.html"},
		{Title: "Graph", URL: "graph.html", Meta: "every note, coloured by workspace"},
		{Title: "Disagreements", URL: "disagreements.html", Meta: plural(len(t.disagreements), "subject") + " two workspaces see differently"},
	}}}
	d.List.Empty = "This team site has no workspaces."
	return t.render(page, "list.html", d, nil)
}

// teamGroups is how many workspaces get colours of their own in the graph
// (assets/css/graph.css, --g-w0 to --g-w7); more share them in turn.
const teamGroups = 8

// renderGraph writes one graph of every workspace's notes, coloured by
// workspace, with the links inside each.
func (t *teamSite) renderGraph() error {
	var g graphData
	g.Links = []int{}
	g.Groups = []string{}
	for i, ws := range t.workspaces {
		if i < teamGroups {
			g.Groups = append(g.Groups, fmt.Sprintf("w%d", i))
		}
		base := len(g.Nodes)
		for _, n := range ws.Section.graph.Nodes {
			g.Nodes = append(g.Nodes, [3]any{n[0], ws.Name + "/" + n[1].(string), i % teamGroups})
		}
		for _, j := range ws.Section.graph.Links {
			g.Links = append(g.Links, base+j)
		}
	}
	if g.Nodes == nil {
		g.Nodes = [][3]any{}
	}
	if err := writeGraphData(g, t.write); err != nil {
		return err
	}
	d := pageData{Page: pageInfo{Kind: "graph", Title: "Graph",
		Description: "Every published note of every workspace and the links between them.",
		Breadcrumbs: []link{{Title: "Home", URL: "index.html"}, {Title: "Graph"}}}}
	var b strings.Builder
	fmt.Fprintf(&b, `<p class="muted graph-help">%s and %s. Drag to pan, scroll or use + and − to zoom, find a note by name, click one to open it.</p>`,
		esc(plural(len(g.Nodes), "note")), esc(plural(len(g.Links)/2, "link")))
	b.WriteString(`<ul class="graph-legend" aria-label="Colours: the workspace of each note">`)
	for i, ws := range t.workspaces {
		fmt.Fprintf(&b, `<li><i class="g-w%d"></i>%s <span class="muted">%d</span></li>`, i%teamGroups, esc(ws.Name), len(ws.Section.graph.Nodes))
	}
	b.WriteString(`</ul>`)
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	return t.render("graph.html", "graph.html", d, nil)
}

// disagreementView is one disagreement with the pages of its claims.
type disagreementView struct {
	Subject string
	A, B    claimRef
}

type claimRef struct {
	Workspace string `json:"workspace"`
	ID        string `json:"id"`
	Text      string `json:"text"`
	URL       string `json:"url,omitempty"`
}

// views are the disagreements with their claims' pages from the root.
func (t *teamSite) views() []disagreementView {
	ref := func(c provenance.WorkspaceClaim) claimRef {
		ws := t.workspaces[c.Workspace]
		r := claimRef{Workspace: ws.Name, ID: c.Claim.ID, Text: c.Claim.Text}
		if u, ok := ws.Section.claims[c.Claim.ID]; ok {
			r.URL = ws.Name + "/" + u
		}
		return r
	}
	out := make([]disagreementView, 0, len(t.disagreements))
	for _, d := range t.disagreements {
		out = append(out, disagreementView{Subject: d.Subject, A: ref(d.A), B: ref(d.B)})
	}
	return out
}

// renderDisagreements lists the subjects two workspaces give different
// values, each with both claims.
func (t *teamSite) renderDisagreements() error {
	d := pageData{Page: pageInfo{Kind: "report", Title: "Disagreements",
		Description: "Subjects to which two workspaces give different values.",
		Breadcrumbs: []link{{Title: "Home", URL: "index.html"}, {Title: "Disagreements"}}}}
	var b strings.Builder
	b.WriteString(`<p class="muted">Two workspaces hold claims about the same subject with different values: two agents who believe different things. They are found as a workspace's own contested claims are (a single-valued attribute such as a port, a model or a birthday); neither is marked wrong.</p>`)
	views := t.views()
	if len(views) == 0 {
		b.WriteString(`<p class="muted">The workspaces agree on every subject they share.</p>`)
	} else {
		b.WriteString(`<ul class="disagreements">`)
		for _, v := range views {
			fmt.Fprintf(&b, `<li><strong>%s</strong><ul>`, esc(v.Subject))
			for _, c := range []claimRef{v.A, v.B} {
				if c.URL != "" {
					fmt.Fprintf(&b, `<li><span class="kind">%s</span> <a class="internal" href="%s">%s</a></li>`, esc(c.Workspace), esc(escapePath(c.URL)), esc(c.Text))
				} else {
					fmt.Fprintf(&b, `<li><span class="kind">%s</span> %s</li>`, esc(c.Workspace), esc(c.Text))
				}
			}
			b.WriteString(`</ul></li>`)
		}
		b.WriteString(`</ul>`)
	}
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	return t.render("disagreements.html", "list.html", d, nil)
}

func (t *teamSite) render404() error {
	d := pageData{Page: pageInfo{Kind: "404", Title: "Not found", NoIndex: true}}
	d.Page.Content = template.HTML(`<p>There is no page at this address. It may have been renamed when the memory was consolidated.</p>`)
	d.List.Groups = []listGroup{{Items: []link{{Title: "Go to the start page", URL: "index.html"}}}}
	d.Site = t.siteData("404.html")
	return t.renderWith("404.html", "list.html", d, t.basePath(), nil)
}

// writeLLMs writes the team's llms.txt: a section per workspace, pointing
// at that workspace's own llms.txt and API.
func (t *teamSite) writeLLMs() error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", t.opts.Title)
	fmt.Fprintf(&b, "> A team's agent memory, published by dreamwiki: %s in one site.\n\n", plural(len(t.workspaces), "workspace"))
	b.WriteString("Each workspace is a site of its own in a folder named after it, with its own llms.txt, llms-full.txt and api/. ")
	b.WriteString("Links between workspaces are written [[name:note]]. [api/workspaces.json](api/workspaces.json) lists the workspaces, ")
	b.WriteString("[api/disagreements.json](api/disagreements.json) the subjects two of them give different values.\n")
	for _, ws := range t.workspaces {
		fmt.Fprintf(&b, "\n## Workspace %s\n\n", ws.Name)
		fmt.Fprintf(&b, "- [%s](%s): %s, %s, health %d/100", mdText(ws.Title), escapePath(ws.Name+"/llms.txt"), plural(ws.Notes, "note"), plural(ws.Claims, "claim"), ws.Health)
		if ws.LastDream != "" {
			fmt.Fprintf(&b, ", last dream %s", ws.LastDream)
		}
		b.WriteByte('\n')
		fmt.Fprintf(&b, "- [pages](%s), [claims](%s)\n", escapePath(ws.Name+"/api/pages.json"), escapePath(ws.Name+"/api/claims.json"))
	}
	if len(t.disagreements) > 0 {
		b.WriteString("\n## Disagreements\n\n")
		for i, v := range t.views() {
			if i == llmsSectionLimit {
				fmt.Fprintf(&b, "- …and %d more in [api/disagreements.json](api/disagreements.json)\n", len(t.disagreements)-i)
				break
			}
			fmt.Fprintf(&b, "- %s: %s says %q, %s says %q\n", mdText(v.Subject), v.A.Workspace, v.A.Text, v.B.Workspace, v.B.Text)
		}
	}
	return t.write("llms.txt", []byte(b.String()))
}

// workspaceJSON is one entry of api/workspaces.json.
type workspaceJSON struct {
	Workspace string `json:"workspace"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Notes     int    `json:"notes"`
	Claims    int    `json:"claims"`
	LastDream string `json:"last_dream,omitempty"`
	Health    int    `json:"health"`
}

// disagreementJSON is one entry of api/disagreements.json.
type disagreementJSON struct {
	Subject string     `json:"subject"`
	Claims  []claimRef `json:"claims"`
}

// writeAPI writes api/workspaces.json and api/disagreements.json; URLs
// are from the team site's root.
func (t *teamSite) writeAPI() error {
	wss := make([]workspaceJSON, 0, len(t.workspaces))
	for _, ws := range t.workspaces {
		wss = append(wss, workspaceJSON{Workspace: ws.Name, Title: ws.Title, URL: ws.Name + "/index.html",
			Notes: ws.Notes, Claims: ws.Claims, LastDream: ws.LastDream, Health: ws.Health})
	}
	if err := writeJSONList(t.site, "api/workspaces.json", "workspaces", wss); err != nil {
		return err
	}
	ds := make([]disagreementJSON, 0, len(t.disagreements))
	for _, v := range t.views() {
		ds = append(ds, disagreementJSON{Subject: v.Subject, Claims: []claimRef{v.A, v.B}})
	}
	return writeJSONList(t.site, "api/disagreements.json", "disagreements", ds)
}

// writeSitemap writes, with a base URL, a sitemap index of the
// workspaces' sitemaps.
func (t *teamSite) writeSitemap() error {
	if t.opts.BaseURL == "" {
		return nil
	}
	names := make([]string, 0, len(t.workspaces))
	for _, ws := range t.workspaces {
		names = append(names, ws.Name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = t.opts.BaseURL + escapePath(n) + "/sitemap.xml"
	}
	return t.writeSitemapIndex(parts)
}
