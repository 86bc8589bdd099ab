package site

import (
	"context"
	"encoding/xml"
	"fmt"
	"html/template"
	"net/url"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/vault"
)

// folder is one folder of the site, with what it directly holds.
type folder struct {
	Path    string // page-space path, e.g. "sources/daily"
	Title   string
	Notes   []*vault.Note
	Folders []string // child folder paths
	Count   int      // notes in this folder and below
}

// folderTitles names the folders of the vault layout.
var folderTitles = map[string]string{
	"claims":                "Claims",
	"topics":                "Topics",
	"sources":               "Sources",
	"sources/daily":         "Daily logs",
	"sources/conversations": "Conversations",
	"dreams":                "Dreams",
	"reports":               "Reports",
	"profile":               "Profile",
	"archive":               "Archive",
	"tags":                  "Tags",
}

func (s *site) collectFolders() {
	s.folders = map[string]*folder{"": {Path: "", Title: "Home"}}
	for _, n := range s.notes {
		page := s.pages[n]
		dir := folderOf(page)
		origDirs := strings.Split(vault.Folder(n.Path), "/")
		s.ensureFolder(dir, origDirs)
		s.folders[dir].Notes = append(s.folders[dir].Notes, n)
		for d := dir; ; d = folderOf(d) {
			s.folders[d].Count++
			if d == "" {
				break
			}
		}
	}
	for _, f := range s.folders {
		sortNotes(f.Notes)
		sort.Strings(f.Folders)
	}
}

// ensureFolder creates dir and its parents; orig holds the vault's own
// (unslugged) folder names for titles.
func (s *site) ensureFolder(dir string, orig []string) {
	if _, ok := s.folders[dir]; ok || dir == "" {
		return
	}
	parent := folderOf(dir)
	s.ensureFolder(parent, orig)
	depth := strings.Count(dir, "/")
	title := dir[strings.LastIndex(dir, "/")+1:]
	if depth < len(orig) && orig[depth] != "" {
		title = orig[depth]
	}
	if t, ok := folderTitles[dir]; ok {
		title = t
	}
	s.folders[dir] = &folder{Path: dir, Title: title}
	s.folders[parent].Folders = append(s.folders[parent].Folders, dir)
}

// sortNotes puts dated notes newest first, then the rest by title.
func sortNotes(ns []*vault.Note) {
	sort.SliceStable(ns, func(i, j int) bool {
		a, b := ns[i], ns[j]
		if (a.Date != "") != (b.Date != "") {
			return a.Date == ""
		}
		if a.Date != b.Date {
			return a.Date > b.Date
		}
		if ta, tb := strings.ToLower(a.Title), strings.ToLower(b.Title); ta != tb {
			return ta < tb
		}
		return a.Path < b.Path
	})
}

// navLimit caps how many notes (and sub-folders) of one folder the
// explorer lists; the rest are a click away on the folder page. It keeps
// every page's explorer small at 100,000 notes.
const navLimit = 20

// renderNav renders the explorer once per folder: the top level, with the
// page's own folder and its ancestors opened. Closed folders are plain
// links to their pages: the explorer is repeated on every page, so it
// holds only what a reader can act on.
//
// It also renders each folder's chrome (the layout parts its pages share),
// which includes the explorer.
func (s *site) renderNav() {
	s.navByDir = make(map[string]template.HTML, len(s.folders))
	s.chromeByDir = make(map[string]chrome, len(s.folders))
	s.chromeErr = nil
	for dir := range s.folders {
		nav := s.navHTML(dir)
		s.navByDir[dir] = nav
		c, err := s.renderChrome(dir, nav)
		if err != nil {
			s.chromeErr = err // reported by the first page rendered
		}
		s.chromeByDir[dir] = c
	}
}

// navHTML renders the explorer of pages in dir.
func (s *site) navHTML(dir string) template.HTML {
	page := dir + "/x.html"
	if dir == "" {
		page = "x.html"
	}
	var b strings.Builder
	b.WriteString("<ul>")
	s.navFolder(&b, s.folders[""], page, dir, true)
	b.WriteString("</ul>")
	return template.HTML(b.String()) //nolint:gosec // escaped while built
}

func (s *site) navFolder(b *strings.Builder, f *folder, page, open string, root bool) {
	for i, sub := range f.Folders {
		if !root && i == navLimit {
			fmt.Fprintf(b, `<li><a class="more" href="%s">All %d folders…</a></li>`, esc(rel(page, f.Path+"/index.html")), len(f.Folders))
			break
		}
		sf := s.folders[sub]
		if open == sub || strings.HasPrefix(open, sub+"/") {
			fmt.Fprintf(b, `<li><details open><summary>%s<span class="count">%d</span></summary><ul>`, esc(sf.Title), sf.Count)
			s.navFolder(b, sf, page, open, false)
			b.WriteString("</ul></details></li>")
			continue
		}
		fmt.Fprintf(b, `<li><a class="folder" href="%s">%s<span class="count">%d</span></a></li>`, esc(rel(page, sub+"/index.html")), esc(sf.Title), sf.Count)
	}
	if root {
		return // the home page lists root notes; the explorer stays short
	}
	for i, n := range f.Notes {
		if i == navLimit {
			fmt.Fprintf(b, `<li><a class="more" href="%s">All %d notes…</a></li>`, esc(rel(page, f.Path+"/index.html")), len(f.Notes))
			break
		}
		fmt.Fprintf(b, `<li><a href="%s">%s</a></li>`, esc(rel(page, s.pages[n])), esc(n.Title))
	}
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// renderHome renders index.html: cards to browse the memory, then the
// memory index note (MEMORY.md) when there is one.
func (s *site) renderHome() error {
	const page = "index.html"
	d := pageData{Page: pageInfo{Kind: "home", Title: s.opts.Title}}
	for _, n := range s.notes {
		if s.pages[n] != page {
			continue
		}
		content, err := s.contentHTML(n, page)
		if err != nil {
			return err
		}
		d.Page = s.pageInfo(n, page)
		d.Page.Kind = "home"
		d.Page.Title = s.opts.Title
		d.Page.Description = describe(string(content))
		var title template.HTML
		title, d.Page.Content = splitTitle(content)
		d.Page.Legend = legendFor(d.Page.Content)
		if title != "" {
			d.Page.Subtitle = n.Title
		}
		if err := s.write(twinPath(page), s.twin(n, page)); err != nil {
			return err
		}
	}
	root := s.folders[""]
	for _, sub := range root.Folders {
		f := s.folders[sub]
		d.List.Cards = append(d.List.Cards, link{Title: f.Title, URL: sub + "/index.html", Meta: plural(f.Count, "note")})
	}
	if len(s.tags) > 0 {
		d.List.Cards = append(d.List.Cards, link{Title: "Tags", URL: "tags/index.html", Meta: plural(len(s.tags), "tag")})
	}
	if len(s.notes) > 0 {
		d.List.Cards = append(d.List.Cards,
			link{Title: "Dashboard", URL: "dashboard.html", Meta: "Tiers, decay, activity, budget"},
			link{Title: "Graph", URL: "graph.html", Meta: "How the notes link"})
	}
	var other listGroup
	other.Title = "Notes"
	for _, n := range root.Notes {
		if s.pages[n] != page {
			other.Items = append(other.Items, link{Title: n.Title, URL: s.pages[n], Note: true})
		}
	}
	if len(other.Items) > 0 {
		d.List.Groups = append(d.List.Groups, other)
	}
	d.List.Empty = "This workspace has no notes yet. Add MEMORY.md or daily logs under memory/ and build again."
	return s.render(page, "list.html", d)
}

// renderFolders writes one listing page per folder, unless a note already
// lives at the folder's index page. It stops between pages when ctx is
// done.
func (s *site) renderFolders(ctx context.Context) error {
	taken := map[string]bool{}
	for _, p := range s.pages {
		taken[p] = true
	}
	dirs := make([]string, 0, len(s.folders))
	for d := range s.folders {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return parallel.Each(ctx, len(dirs), workers(), func(i int) error { return s.renderFolder(dirs[i], taken) })
}

// renderFolder writes the listing page of one folder; taken holds the
// pages of notes.
func (s *site) renderFolder(dir string, taken map[string]bool) error {
	page := dir + "/index.html"
	if taken[page] || (dir == conversationsDir && len(s.opts.Conversations) > 0) {
		return nil // a note, or the conversations digest, lives there
	}
	f := s.folders[dir]
	d := pageData{Page: pageInfo{Kind: "folder", KindLabel: "Folder", Title: f.Title, Breadcrumbs: s.breadcrumbs(page, f.Title)}}
	if len(f.Folders) > 0 {
		g := listGroup{Title: "Folders"}
		for _, sub := range f.Folders {
			sf := s.folders[sub]
			g.Items = append(g.Items, link{Title: sf.Title, URL: rel(page, sub+"/index.html"), Meta: plural(sf.Count, "note")})
		}
		d.List.Groups = append(d.List.Groups, g)
	}
	if len(f.Notes) > 0 {
		g := listGroup{Title: "Notes"}
		for _, n := range f.Notes {
			g.Items = append(g.Items, link{Title: n.Title, URL: rel(page, s.pages[n]), Meta: n.Date, Note: true, Backing: s.backingOf(n)})
		}
		d.List.Groups = append(d.List.Groups, g)
	}
	d.List.Empty = "This folder is empty."
	return s.render(page, "list.html", d)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// collectTags gathers every published note under its tags and, for nested
// tags, under each parent (#a/b is listed on the pages of a and a/b).
func (s *site) collectTags() {
	s.tags = map[string][]*vault.Note{}
	for _, n := range s.notes {
		seen := map[string]bool{}
		for _, t := range n.Doc.Tags {
			parts := strings.Split(t, "/")
			for i := range parts {
				name := strings.Join(parts[:i+1], "/")
				if !seen[name] {
					seen[name] = true
					s.tags[name] = append(s.tags[name], n)
				}
			}
		}
	}
}

// renderTags writes a page per tag and the tag index. It stops between
// pages when ctx is done.
func (s *site) renderTags(ctx context.Context) error {
	names := s.sortedTags()
	if err := parallel.Each(ctx, len(names), workers(), func(i int) error { return s.renderTag(names[i], names) }); err != nil {
		return err
	}
	return s.renderTagIndex(names)
}

// renderTag writes the page of tag t; names are all tags, sorted.
func (s *site) renderTag(t string, names []string) error {
	page := tagPage(t)
	d := pageData{Page: pageInfo{Kind: "tag", KindLabel: "Tag", Title: "#" + t, Breadcrumbs: s.tagCrumbs(page, t)}}
	var sub listGroup
	sub.Title = "Nested tags"
	// names is sorted, so the children of t follow it directly.
	i := sort.SearchStrings(names, t+"/")
	for ; i < len(names) && strings.HasPrefix(names[i], t+"/"); i++ {
		if o := names[i]; !strings.Contains(o[len(t)+1:], "/") {
			sub.Items = append(sub.Items, link{Title: "#" + o, URL: rel(page, tagPage(o)), Meta: plural(len(s.tags[o]), "note")})
		}
	}
	if len(sub.Items) > 0 {
		d.List.Groups = append(d.List.Groups, sub)
	}
	g := listGroup{Title: "Notes"}
	notes := append([]*vault.Note(nil), s.tags[t]...)
	sortNotes(notes)
	for _, n := range notes {
		g.Items = append(g.Items, link{Title: n.Title, URL: rel(page, s.pages[n]), Meta: n.Kind.Label(), Note: true, Backing: s.backingOf(n)})
	}
	d.List.Groups = append(d.List.Groups, g)
	return s.render(page, "list.html", d)
}

// renderTagIndex writes tags/index.html, the tag tree.
func (s *site) renderTagIndex(names []string) error {
	const page = "tags/index.html"
	d := pageData{Page: pageInfo{Kind: "tags", Title: "Tags", Breadcrumbs: []link{{Title: "Home", URL: "../index.html"}, {Title: "Tags"}}}}
	d.List.Tree = s.tagTree(page, names)
	d.List.Empty = "No note has tags yet."
	return s.render(page, "list.html", d)
}

// tagTree renders the tag index as nested lists: #a/b under #a. names is
// sorted, so children follow their parent.
func (s *site) tagTree(page string, names []string) template.HTML {
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<ul class="tag-tree">`)
	depth := 0
	for i, t := range names {
		d := strings.Count(t, "/")
		switch {
		case i == 0:
		case d > depth:
			// A child whose parent is missing cannot happen (parents are
			// collected with children), so this opens one level.
			b.WriteString(`<ul>`)
		default:
			b.WriteString(`</li>`)
			for ; depth > d; depth-- {
				b.WriteString(`</ul></li>`)
			}
		}
		depth = d
		leaf := t[strings.LastIndex(t, "/")+1:]
		fmt.Fprintf(&b, `<li><a class="tag" href="%s">#%s</a><span class="meta">%s</span>`, esc(rel(page, tagPage(t))), esc(leaf), esc(plural(len(s.tags[t]), "note")))
	}
	b.WriteString(`</li>`)
	for ; depth > 0; depth-- {
		b.WriteString(`</ul></li>`)
	}
	b.WriteString(`</ul>`)
	return template.HTML(b.String()) //nolint:gosec // every piece is escaped above
}

func (s *site) tagCrumbs(page, tag string) []link {
	crumbs := []link{{Title: "Home", URL: rel(page, "index.html")}, {Title: "Tags", URL: rel(page, "tags/index.html")}}
	parts := strings.Split(tag, "/")
	for i := 0; i < len(parts)-1; i++ {
		name := strings.Join(parts[:i+1], "/")
		crumbs = append(crumbs, link{Title: "#" + name, URL: rel(page, tagPage(name))})
	}
	return append(crumbs, link{Title: "#" + tag})
}

// render404 writes the page static hosts show for unknown URLs, at any
// depth. With a base URL its links resolve against it (<base href>);
// without one they are relative to the site root, which is where most
// hosts serve it from.
func (s *site) render404() error {
	d := pageData{Page: pageInfo{Kind: "404", Title: "Not found", NoIndex: true}}
	d.Page.Content = template.HTML(`<p>There is no page at this address. It may have been renamed when the memory was consolidated.</p>`)
	d.List.Groups = []listGroup{{Items: []link{{Title: "Go to the start page", URL: "index.html"}, {Title: "Browse the tags", URL: "tags/index.html"}}}}
	d.Site = s.siteData("404.html")
	return s.renderWith("404.html", "list.html", d, s.basePath())
}

// basePath is the path of the base URL ("/memory/"), "" without one.
func (s *site) basePath() string {
	if s.opts.BaseURL == "" {
		return ""
	}
	u, err := url.Parse(s.opts.BaseURL)
	if err != nil || u.Path == "" {
		return "/"
	}
	return u.Path
}

// writeAssets copies the files notes embed or link (images, PDFs).
func (s *site) writeAssets() error {
	for _, a := range s.v.Assets {
		data, err := a.Read()
		if err != nil {
			return fmt.Errorf("copying %s: %w", a.Source, err)
		}
		if err := s.write(a.Path, data); err != nil {
			return err
		}
	}
	return nil
}

// writeSitemap lists every published page. Sitemaps need absolute URLs,
// so locations are prefixed with the base URL when one is set.
func (s *site) writeSitemap() error {
	type loc struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod,omitempty"`
	}
	type urlset struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []loc    `xml:"url"`
	}
	set := urlset{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	set.URLs = append(set.URLs, loc{Loc: s.opts.BaseURL + "index.html"})
	for _, n := range s.notes {
		p := s.pages[n]
		if p == "index.html" {
			continue
		}
		set.URLs = append(set.URLs, loc{Loc: s.opts.BaseURL + escapePath(p), LastMod: n.Date})
	}
	for _, p := range s.listPages() {
		set.URLs = append(set.URLs, loc{Loc: s.opts.BaseURL + escapePath(p)})
	}
	if len(set.URLs) <= sitemapLimit {
		return s.writeXML("sitemap.xml", set)
	}
	// Over the protocol's limit: parts of sitemapLimit URLs each, and
	// sitemap.xml as their index.
	type part struct {
		Loc string `xml:"loc"`
	}
	type index struct {
		XMLName  xml.Name `xml:"sitemapindex"`
		NS       string   `xml:"xmlns,attr"`
		Sitemaps []part   `xml:"sitemap"`
	}
	idx := index{NS: set.NS}
	all := set.URLs
	for i := 0; i*sitemapLimit < len(all); i++ {
		name := fmt.Sprintf("sitemap-%d.xml", i+1)
		set.URLs = all[i*sitemapLimit : min((i+1)*sitemapLimit, len(all))]
		if err := s.writeXML(name, set); err != nil {
			return err
		}
		idx.Sitemaps = append(idx.Sitemaps, part{Loc: s.opts.BaseURL + name})
	}
	return s.writeXML("sitemap.xml", idx)
}

// sitemapLimit is the most URLs one sitemap file may hold
// (sitemaps.org protocol).
const sitemapLimit = 50000

func (s *site) writeXML(name string, v any) error {
	out, err := xml.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return s.write(name, append([]byte(xml.Header), append(out, '\n')...))
}

// writeRobots allows everything and names the sitemap.
func (s *site) writeRobots() error {
	body := "User-agent: *\nAllow: /\n"
	if s.opts.BaseURL != "" {
		body += "Sitemap: " + s.opts.BaseURL + "sitemap.xml\n"
	}
	return s.write("robots.txt", []byte(body))
}

// favicon is the site's icon: the header's moon on the accent colour.
// Every page names it, so browsers do not ask for a missing favicon.ico.
const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="#5443c0"/><path d="M12 5a5 5 0 0 0 7 7 7 7 0 1 1-7-7Z" fill="#fff"/></svg>
`

func (s *site) writeFavicon() error { return s.write("favicon.svg", []byte(favicon)) }
