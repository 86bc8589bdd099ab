package site

import (
	"context"
	"encoding/xml"
	"fmt"
	"html/template"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/safesvg"
	"github.com/dreamwiki/dreamwiki/vault"
)

// folder is one folder of the site, with what it directly holds.
type folder struct {
	Path    string // page-space path, e.g. "sources/daily"
	Title   string
	Notes   []*vault.Note
	Folders []string // child folder paths
	Count   int      // notes in this folder and below
	// from is the vault path of the note the title was read from (the
	// first, by path, in the folder or below), "" for a fixed title.
	from string
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
		if _, ok := s.folders[dir]; !ok {
			s.ensureFolder(dir, n.Path)
		}
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

// ensureFolder creates dir and its parents for the note at vault path p,
// whose own (unslugged) folder names give their titles.
func (s *site) ensureFolder(dir, p string) {
	if _, ok := s.folders[dir]; ok || dir == "" {
		return
	}
	parent := folderOf(dir)
	s.ensureFolder(parent, p)
	orig := strings.Split(vault.Folder(p), "/")
	depth := strings.Count(dir, "/")
	title := dir[strings.LastIndex(dir, "/")+1:]
	if depth < len(orig) && orig[depth] != "" {
		title = orig[depth]
	}
	from := p
	if t, ok := folderTitles[dir]; ok {
		title, from = t, ""
	} else if t := s.convTitle(dir); t != "" {
		title, from = t, ""
	}
	s.folders[dir] = &folder{Path: dir, Title: title, from: from}
	s.folders[parent].Folders = append(s.folders[parent].Folders, dir)
}

// sortNotes puts dated notes newest first, then the rest by title (see
// lessNote).
func sortNotes(ns []*vault.Note) {
	sort.SliceStable(ns, func(i, j int) bool { return lessNote(ns[i], ns[j]) })
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// homeNote is the note whose page is the home page (the memory index),
// nil when there is none.
func (s *site) homeNote(r *reads) *vault.Note {
	r.add(depNotes, "")
	r.add(depURL, "index.md")
	if n := s.v.Note("index.md"); n != nil && s.pages[n] == "index.html" {
		return n
	}
	for _, n := range s.notes {
		if s.pages[n] == "index.html" {
			return n
		}
	}
	return nil
}

// renderHome renders index.html: cards to browse the memory, then the
// memory index note (MEMORY.md) when there is one.
func (s *site) renderHome(r *reads) error {
	const page = "index.html"
	d := pageData{Page: pageInfo{Kind: "home", Title: s.opts.Title}}
	if n := s.homeNote(r); n != nil {
		content, err := s.contentHTML(n, page, r)
		if err != nil {
			return err
		}
		d.Page = s.pageInfo(n, page, r)
		d.Page.Kind = "home"
		d.Page.Title = s.opts.Title
		d.Page.Description = describe(string(content))
		var title template.HTML
		title, d.Page.Content = splitTitle(content)
		d.Page.Legend = legendFor(d.Page.Content)
		if title != "" {
			d.Page.Subtitle = n.Title
		}
		d.Slider = s.slider(page, "index")
		if err := s.writeTwin(n, page, r); err != nil {
			return err
		}
	}
	r.add(depFolder, "")
	root := s.folders[""]
	for _, sub := range homeFolders(s.folders) {
		f := s.folders[sub]
		d.List.Cards = append(d.List.Cards, link{Title: f.Title, URL: sub + "/index.html", Meta: plural(f.Count, "note")})
	}
	if len(root.Folders) > navTopLimit {
		d.List.Cards = append(d.List.Cards, link{Title: "All folders", URL: foldersPage, Meta: plural(len(root.Folders), "folder")})
	}
	r.add(depTags, "")
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
		if u := s.url(n, r); u != page {
			r.note(depTitle, n)
			other.Items = append(other.Items, link{Title: n.Title, URL: u, Note: true})
		}
	}
	if len(other.Items) > 0 {
		d.List.Groups = append(d.List.Groups, other)
	}
	d.List.Empty = "This workspace has no notes yet. Add MEMORY.md or daily logs under memory/ and build again."
	return s.render(page, "list.html", d, r)
}

// foldersPage lists every top-level folder when the home page and the
// explorer show only some (a workspace may have hundreds).
const foldersPage = "folders.html"

// homeFolders are the top-level folders the home page shows as cards:
// every one, or past navTopLimit the largest, in the explorer's order.
// The explorer lists the same ones (topFolders).
func homeFolders(folders map[string]*folder) []string {
	all := folders[""].Folders
	if len(all) <= navTopLimit {
		return all
	}
	big := slices.Clone(all)
	sort.SliceStable(big, func(i, j int) bool { return folders[big[i]].Count > folders[big[j]].Count })
	big = big[:navTopLimit]
	sort.Strings(big)
	return big
}

// renderFolderIndex writes foldersPage, when the home page shows only
// some of the top-level folders.
func (s *site) renderFolderIndex(r *reads) error {
	r.add(depFolder, "")
	root := s.folders[""]
	if len(root.Folders) <= navTopLimit {
		return nil
	}
	d := pageData{Page: pageInfo{Kind: "folder", KindLabel: "Folders", Title: "All folders",
		Breadcrumbs: []link{{Title: "Home", URL: "index.html"}, {Title: "All folders"}}}}
	d.List.Groups = s.folderGroups(foldersPage, root, true, r)
	return s.render(foldersPage, "list.html", d, r)
}

// renderFolders writes one listing page per folder, unless a note already
// lives at the folder's index page. It stops between pages when ctx is
// done.
func (s *site) renderFolders(ctx context.Context) error {
	taken := s.takenPages()
	dirs := make([]string, 0, len(s.folders))
	for d := range s.folders {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return parallel.Each(ctx, len(dirs), workers(), func(i int) error { return s.renderFolder(dirs[i], taken, nil) })
}

// takenPages are the pages of notes.
func (s *site) takenPages() map[string]bool {
	taken := make(map[string]bool, len(s.pages))
	for _, p := range s.pages {
		taken[p] = true
	}
	return taken
}

// hasFolderPage reports whether a folder has a listing page of its own:
// not when a note, or the conversations digest, lives at its index page.
func (s *site) hasFolderPage(dir string, taken map[string]bool) bool {
	return !taken[dir+"/index.html"] && (dir != conversationsDir || len(s.opts.Conversations) == 0)
}

// renderFolder writes the listing page of one folder; taken holds the
// pages of notes.
func (s *site) renderFolder(dir string, taken map[string]bool, r *reads) error {
	page := dir + "/index.html"
	if !s.hasFolderPage(dir, taken) {
		return nil
	}
	if cp, ok := s.convPages()[dir]; ok {
		return s.renderConvPage(dir, cp, r)
	}
	r.add(depFolder, dir)
	f := s.folders[dir]
	d := pageData{Page: pageInfo{Kind: "folder", KindLabel: "Folder", Title: f.Title, Breadcrumbs: s.breadcrumbs(page, f.Title, r)}}
	d.List.Groups = s.folderGroups(page, f, false, r)
	d.List.Empty = "This folder is empty."
	return s.render(page, "list.html", d, r)
}

// folderGroups lists a folder's sub-folders and, unless foldersOnly, its
// notes, for its page.
func (s *site) folderGroups(page string, f *folder, foldersOnly bool, r *reads) []listGroup {
	var out []listGroup
	if len(f.Folders) > 0 {
		g := listGroup{Title: "Folders"}
		for _, sub := range f.Folders {
			sf := s.folders[sub]
			g.Items = append(g.Items, link{Title: sf.Title, URL: rel(page, sub+"/index.html"), Meta: plural(sf.Count, "note")})
		}
		out = append(out, g)
	}
	if len(f.Notes) > 0 && !foldersOnly {
		g := listGroup{Title: "Notes"}
		for _, n := range f.Notes {
			r.note(depListing, n)
			g.Items = append(g.Items, link{Title: n.Title, URL: rel(page, s.url(n, r)), Meta: n.Date, Note: true, Backing: s.backingOf(n, r)})
		}
		out = append(out, g)
	}
	return out
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
	if err := parallel.Each(ctx, len(names), workers(), func(i int) error { return s.renderTag(names[i], names, nil) }); err != nil {
		return err
	}
	return s.renderTagIndex(names, nil)
}

// renderTag writes the page of tag t; names are all tags, sorted.
func (s *site) renderTag(t string, names []string, r *reads) error {
	page := tagPage(t)
	r.add(depTags, "")
	r.add(depTag, t)
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
		r.note(depListing, n)
		g.Items = append(g.Items, link{Title: n.Title, URL: rel(page, s.url(n, r)), Meta: n.Kind.Label(), Note: true, Backing: s.backingOf(n, r)})
	}
	d.List.Groups = append(d.List.Groups, g)
	return s.render(page, "list.html", d, r)
}

// renderTagIndex writes tags/index.html, the tag tree.
func (s *site) renderTagIndex(names []string, r *reads) error {
	const page = "tags/index.html"
	r.add(depTags, "")
	d := pageData{Page: pageInfo{Kind: "tags", Title: "Tags", Breadcrumbs: []link{{Title: "Home", URL: "../index.html"}, {Title: "Tags"}}}}
	d.List.Tree = s.tagTree(page, names)
	d.List.Empty = "No note has tags yet."
	return s.render(page, "list.html", d, r)
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
func (s *site) render404(r *reads) error {
	d := pageData{Page: pageInfo{Kind: "404", Title: "Not found", NoIndex: true}}
	d.Page.Content = template.HTML(`<p>There is no page at this address. It may have been renamed when the memory was consolidated.</p>`)
	d.List.Groups = []listGroup{{Items: []link{{Title: "Go to the start page", URL: "index.html"}, {Title: "Browse the tags", URL: "tags/index.html"}}}}
	d.Site = s.siteData("404.html")
	return s.renderWith("404.html", "list.html", d, s.basePath(), r)
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
		if err := s.writeAsset(a); err != nil {
			return err
		}
	}
	return nil
}

// writeAsset copies a file notes embed or link. An SVG is published as
// safesvg cleans it: opened on its own it is a document of the site, and
// most hosts send no header that would keep its scripts from running as
// the site (one it cannot read is replaced by safesvg.Placeholder).
func (s *site) writeAsset(a *vault.Asset) error {
	data, err := a.Read()
	if err != nil {
		return fmt.Errorf("copying %s: %w", a.Source, err)
	}
	if strings.EqualFold(path.Ext(a.Path), ".svg") {
		if data, err = safesvg.Clean(data); err != nil {
			data = safesvg.Placeholder
		}
	}
	return s.write(a.Path, data)
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
	all := set.URLs
	var parts []string
	for i := 0; i*sitemapLimit < len(all); i++ {
		name := fmt.Sprintf("sitemap-%d.xml", i+1)
		set.URLs = all[i*sitemapLimit : min((i+1)*sitemapLimit, len(all))]
		if err := s.writeXML(name, set); err != nil {
			return err
		}
		parts = append(parts, s.opts.BaseURL+name)
	}
	return s.writeSitemapIndex(parts)
}

// writeSitemapIndex writes sitemap.xml as the index of the sitemaps at
// the absolute URLs parts.
func (s *site) writeSitemapIndex(parts []string) error {
	type part struct {
		Loc string `xml:"loc"`
	}
	type index struct {
		XMLName  xml.Name `xml:"sitemapindex"`
		NS       string   `xml:"xmlns,attr"`
		Sitemaps []part   `xml:"sitemap"`
	}
	idx := index{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	for _, p := range parts {
		idx.Sitemaps = append(idx.Sitemaps, part{Loc: p})
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
