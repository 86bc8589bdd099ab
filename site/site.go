package site

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dreamwiki/dreamwiki/assets"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/templates"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Options configure a site build.
type Options struct {
	// Title is the site's name, shown in the header and page titles.
	Title string
	// BaseURL is the absolute URL the site is published at
	// ("https://example.org/memory/"). It is used only where a URL must be
	// absolute (canonical links, Open Graph, sitemap, feed, the 404 page);
	// every link between pages is relative, so the site works under any
	// sub-path and from file://.
	BaseURL string
	// AsOf is the date the memory was evaluated at (YYYY-MM-DD), shown in
	// the footer.
	AsOf string
	// Snapshot says where a snapshot of an earlier day was read from
	// (history.Snapshot.Describe), shown with AsOf; "" for memory as it is.
	Snapshot string
	// Lang is the html lang attribute; "en" when empty.
	Lang string
	// Conversations are the archived conversations with their message
	// counts, for the conversations page.
	Conversations []Conversation
	// Search holds the ranking knobs the static index carries to the
	// browser (dreamwiki.toml's [search]); nil means the defaults.
	Search *search.Params
	// History is the memory at earlier points (dream pages' diffs, the
	// changes page, claim histories, snapshot pages and the time slider);
	// nil when there is none.
	History *History
	// Team places the site in a team site of several workspaces
	// (internal/team); nil for a site of its own.
	Team *Team
	// TwinsOnly writes only what agents read (dreamwiki mcp): each note
	// page's Markdown twin and api/pages.json and api/claims.json, made
	// by the same code as in a whole site. No HTML page, asset, search
	// index, sitemap, feed or llms.txt is written, and History is not
	// read. Supported by Incremental; Build writes the whole site.
	TwinsOnly bool
}

// Team is what a site knows of the team site it is part of.
type Team struct {
	// Title is the team site's title.
	Title string
	// Workspace is the name of the workspace this site shows: it is
	// written at /<Workspace>/ of the team site, and its search is the
	// team's. "" for the team site's own pages (BuildTeam).
	Workspace string
	// Workspaces are the names of every workspace of the team site.
	Workspaces []string
	// Peers are the pages of the other workspaces' published notes, by
	// workspace and vault path (PageURLs), for links between workspaces.
	Peers map[string]map[string]string
}

// Stats says what a build wrote.
type Stats struct {
	Pages int // HTML pages
	Files int // every file, pages included
}

// site is the state of one build: what every page needs to know about the
// others, computed once before pages render in parallel.
type site struct {
	eng      *markdown.Engine
	v        *vault.Vault
	opts     Options
	bundle   assets.Bundle
	layouts  map[string]*template.Template
	notes    []*vault.Note // published notes, by path
	pages    map[*vault.Note]string
	taken    map[string]bool          // the pages of notes
	collided bool                     // some note's URL has a suffix (see urlsFor)
	tags     map[string][]*vault.Note // tag -> notes carrying it or a sub-tag
	folders  map[string]*folder
	// patchedFolders are the folders whose listing a serve-mode update
	// may have changed (see patchFolders); nil: any.
	patchedFolders map[string]bool
	navByDir       map[string]template.HTML
	// treeName and tree are the whole explorer tree's script (see
	// treeData), written once and loaded by every page.
	treeName string
	tree     []byte
	// topFolders are the top-level folders every page's explorer lists.
	topFolders map[string]bool
	// chromeByDir holds, per folder, the parts of the layout every page
	// of that folder shares (see templates/layout.html).
	chromeByDir map[string]chrome
	chromeErr   error
	mem         *memory // claims, dreams and charts, when the vault has provenance
	// hist indexes opts.History, made on first use (see history).
	histOnce sync.Once
	hist     *timeline
	assetMap map[string]string
	listed   map[string]bool // list pages rendered, for the sitemap
	// twins and docs cache each note's twin as llms-full.txt holds it and
	// its search document, by vault path, between incremental updates;
	// nil in a plain build.
	twins map[string][]byte
	docs  map[string]search.Doc
	// sectionDocs are the search documents of a team site's section,
	// which the team's index holds (BuildSection).
	sectionDocs []search.Doc
	w           output.Writer
	mu          sync.Mutex
	stats       Stats

	// convDirs are the folders the conversation pages take over (see
	// convPages), made on first use from opts.
	convOnce sync.Once
	convDirs map[string]convPage
}

// Build renders v into w. Every note of v is published: v must come from
// a workspace read without its private files (build.Load), and a vault
// with a private note is refused (see public).
func Build(ctx context.Context, eng *markdown.Engine, v *vault.Vault, opts Options, w output.Writer) (Stats, error) {
	if err := public(v); err != nil {
		return Stats{}, err
	}
	opts.TwinsOnly = false
	s, err := newSite(eng, v, opts, w)
	if err != nil {
		return Stats{}, err
	}
	s.collect(nil, nil)
	if err := s.renderAll(ctx, true); err != nil {
		return Stats{}, err
	}
	return s.stats, nil
}

// public refuses a vault that holds a private note. The site does not
// judge privacy (the workspace reader does, and leaves private files out
// before anything is made from them); this only makes sure it is never
// handed a vault assembled with them ([vault] include_private's).
func public(v *vault.Vault) error {
	for _, n := range v.Notes {
		if n.Private {
			return fmt.Errorf("site: %s is a private note; a site is built from a workspace read without its private files", n.Path)
		}
	}
	return nil
}

// normalised fills in the defaults of options.
func (opts Options) normalised(v *vault.Vault) Options {
	if opts.Lang == "" {
		opts.Lang = "en"
	}
	if opts.Title == "" {
		opts.Title = "Agent memory"
	}
	if opts.BaseURL != "" && !strings.HasSuffix(opts.BaseURL, "/") {
		opts.BaseURL += "/"
	}
	if opts.AsOf == "" && v.Provenance != nil && !v.Provenance.AsOf.IsZero() {
		opts.AsOf = v.Provenance.AsOf.Format("2006-01-02")
	}
	return opts
}

// newSite prepares a build: the assets bundled and the templates parsed.
// What every page needs to know about the others is for collect.
func newSite(eng *markdown.Engine, v *vault.Vault, opts Options, w output.Writer) (*site, error) {
	s := &site{eng: eng, v: v, opts: opts.normalised(v), w: w}
	if s.opts.TwinsOnly {
		return s, nil // no page, so no asset and no template
	}
	b, err := assets.Build()
	if err != nil {
		return nil, err
	}
	s.bundle = b
	s.assetMap = s.assetPaths()
	if s.layouts, err = parseTemplates(); err != nil {
		return nil, err
	}
	return s, nil
}

// collect computes what pages show about other notes: the published
// notes and their URLs, tags, folders, the explorer and the memory views'
// data. Incremental updates patch these instead when they can; bases and
// memo are their caches (see urlsFor and collectMemory), nil in a plain
// build.
func (s *site) collect(bases map[string]string, memo claimMemo) {
	s.notes = s.v.Notes
	s.pages, s.collided = urlsFor(s.notes, bases)
	s.taken = s.takenPages()
	s.collectTags()
	s.collectFolders()
	if !s.opts.TwinsOnly {
		s.renderNav() // the explorer, which only HTML pages carry
	}
	s.mem = s.collectMemory(memo)
}

// renderAll writes every file of the site; without deferred, it leaves
// out the files an incremental update writes afterwards (see deferred).
func (s *site) renderAll(ctx context.Context, deferred bool) error {
	b := s.bundle
	for _, f := range b.Files {
		if err := s.write("assets/"+f.Name, f.Data); err != nil {
			return err
		}
	}
	if s.treeName != "" {
		if err := s.write(s.treeName, s.tree); err != nil {
			return err
		}
	}
	if err := s.renderNotes(ctx); err != nil {
		return err
	}
	if deferred {
		if err := s.writeSearch(ctx); err != nil {
			return err
		}
	}
	steps := []func() error{
		func() error { return s.renderHome(nil) }, func() error { return s.renderFolderIndex(nil) },
		func() error { return s.renderFolders(ctx) },
		func() error { return s.renderTags(ctx) },
		func() error { return s.renderGraph(nil) }, func() error { return s.renderDashboard(nil) },
		func() error { return s.renderDreamJournal(nil) }, func() error { return s.renderConversations(nil) },
		func() error { return s.render404(nil) }, s.renderHistory,
		s.writeAssets, s.writeRobots, s.writeFavicon,
	}
	if deferred {
		steps = append(steps, func() error { return s.writeDeferred(ctx) })
	}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// writeDeferred writes the site-wide files made from every note, which no
// page a reader is looking at depends on: the sitemap, the feed and the
// outputs for agents. (The search index is the other such output.) Each is
// written on one goroutine, so they are written side by side; they only
// read the site. It stops between files when ctx is done.
func (s *site) writeDeferred(ctx context.Context) error {
	steps := []func() error{s.writeLLMs, s.writeAPI, s.writeSitemap, s.writeFeed}
	if s.opts.TwinsOnly {
		steps = []func() error{s.writeAPI}
	}
	return parallel.Each(ctx, len(steps), runtime.GOMAXPROCS(0), func(i int) error { return steps[i]() })
}

// parseTemplates parses layout.html with every partial (files starting
// with "_", which define named blocks such as "search"), then each page
// template on a copy of that base.
func parseTemplates() (map[string]*template.Template, error) {
	base, err := template.New("layout.html").Funcs(templateFuncs).ParseFS(templates.FS, "layout.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	names, err := fs.Glob(templates.FS, "*.html")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if strings.HasPrefix(name, "_") {
			if base, err = base.ParseFS(templates.FS, name); err != nil {
				return nil, fmt.Errorf("templates: %w", err)
			}
		}
	}
	out := map[string]*template.Template{}
	for _, name := range names {
		if name == "layout.html" || strings.HasPrefix(name, "_") {
			continue
		}
		t, err := template.Must(base.Clone()).ParseFS(templates.FS, name)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		out[name] = t
	}
	return out, nil
}

func (s *site) write(name string, data []byte) error {
	if err := s.w.WriteFile(name, data); err != nil {
		return err
	}
	s.mu.Lock()
	s.stats.Files++
	if strings.HasSuffix(name, ".html") {
		s.stats.Pages++
	}
	s.mu.Unlock()
	return nil
}

// pageData is what templates see.
type pageData struct {
	Site siteData
	Page pageInfo
	Nav  template.HTML
	List listData
	// Body is page-specific HTML made in Go (dashboard panels, journal).
	Body template.HTML
	// Slider is the time slider of the home page and the dashboard.
	Slider template.HTML
	// Claim is the claim card of a claim note, nil otherwise.
	Claim *claimView
	// Conv is a conversation page's counts, timeline and participants.
	Conv *convView
	// Chrome is the page's folder's share of the layout.
	Chrome chrome
}

// chrome is what every page of a folder shares, rendered once per folder
// from the "chrome-*" templates of layout.html.
type chrome struct {
	Head, Header, Left, Footer template.HTML
	BodyAttrs                  template.HTMLAttr
	// leftPre and leftPost are Left around its explorer, where each page
	// puts its own branch (pageLeft).
	leftPre, leftPost string
}

// chromeFor returns the explorer and chrome of pages in dir. Folders of
// notes have theirs from renderNav; other folders (tags/, tags/a/) get
// theirs on first use: an explorer with nothing open, its links relative
// to that depth.
func (s *site) chromeFor(dir string, r *reads) (template.HTML, chrome) {
	r.add(depChrome, dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.chromeByDir[dir]; ok {
		return s.navByDir[dir], c
	}
	nav := s.navHTML(dir, "")
	c, err := s.renderChrome(dir, nav)
	if err != nil && s.chromeErr == nil {
		s.chromeErr = err
	}
	s.navByDir[dir] = nav
	s.chromeByDir[dir] = c
	return nav, c
}

// renderChrome renders the shared parts of the layout for pages in dir,
// whose explorer is nav.
func (s *site) renderChrome(dir string, nav template.HTML) (chrome, error) {
	page := "x.html"
	if dir != "" {
		page = dir + "/x.html"
	}
	d := pageData{Site: s.siteData(page), Nav: navSentinel}
	t := s.layouts["note.html"]
	var c chrome
	var b strings.Builder
	for _, part := range []struct {
		name string
		out  *template.HTML
	}{{"chrome-head", &c.Head}, {"chrome-header", &c.Header}, {"chrome-left", &c.Left}, {"chrome-footer", &c.Footer}} {
		b.Reset()
		if err := t.ExecuteTemplate(&b, part.name, d); err != nil {
			return chrome{}, fmt.Errorf("rendering %s: %w", part.name, err)
		}
		*part.out = template.HTML(b.String()) //nolint:gosec // rendered by html/template
	}
	if pre, post, ok := strings.Cut(string(c.Left), navSentinel); ok {
		c.leftPre, c.leftPost = pre, post
		c.Left = template.HTML(pre + string(nav) + post) //nolint:gosec // rendered by html/template
	}
	b.Reset()
	if err := t.ExecuteTemplate(&b, "chrome-body-attrs", d); err != nil {
		return chrome{}, fmt.Errorf("rendering chrome-body-attrs: %w", err)
	}
	c.BodyAttrs = template.HTMLAttr(b.String()) //nolint:gosec // rendered by html/template
	return c, nil
}

type siteData struct {
	Title string
	Lang  string
	Root  string // relative path to the site root, "" or "../.."
	// Page is the page's own path from the root ("topics/gateway.html").
	Page    string
	CSS, JS string
	// Assets maps every bundled entry point ("main.ts", "graph.ts",
	// "style.css") to its root-relative path, for partials that load
	// their own bundle.
	Assets    map[string]string
	GraphJS   string
	GraphData string
	// Tree is the explorer's whole tree (a script, see treeData).
	Tree      string
	FeedURL   string
	NoteCount int
	AsOf      string
	Snapshot  string
	// Base is the base URL's path ("/memory/"), set on the 404 page only,
	// which hosts serve at any depth.
	Base string
	// HasClaims and HasDreams switch header links on.
	HasDashboard bool
	// SearchRoot is the relative path to the site whose search.html and
	// index the search field uses: Root, or a team site's root from one
	// of its workspaces' pages.
	SearchRoot string
	// Team is set in a team site.
	Team *teamData
}

// teamData is what the layout shows of a team site.
type teamData struct {
	Title string
	// Home is the team home from a workspace's page; "" on the team
	// site's own pages.
	Home       string
	Workspaces []string
}

type pageInfo struct {
	Kind         string
	KindLabel    string
	Title        string
	Description  string
	Canonical    string
	MarkdownTwin string
	Updated      string
	Source       string
	Tags         []link
	Breadcrumbs  []link
	Content      template.HTML
	// Legend explains the evidence markers when Content has any.
	Legend []evidenceState
	// TitleHTML is the note's own leading H1 (with its id), taken off the
	// content; the layout prints Title when it is empty.
	TitleHTML template.HTML
	// Subtitle is a line under the title (the home page's index title).
	Subtitle  string
	TOC       template.HTML
	Backlinks []link
	// MoreBacklinks counts backlinks beyond those listed.
	MoreBacklinks int
	// LocalGraph offers the local graph (note pages with a graph node).
	LocalGraph bool
	// NoIndex keeps search engines away (the 404 page).
	NoIndex bool
}

type link struct {
	Title string
	URL   string
	Name  string
	Meta  string
	// Note marks links to note pages: they get class "internal" and so a
	// hover preview.
	Note bool
	// Summary is a line shown under the title in lists.
	Summary string
	// Backing is a claim's evidence marker in lists, nil for other notes.
	Backing *evidenceState
}

type listData struct {
	Groups []listGroup
	Empty  string
	// Cards are shown as a grid above the groups (the home page).
	Cards []link
	// Tree is a pre-rendered nested list (the tag index).
	Tree template.HTML
}

type listGroup struct {
	Title string
	Items []link
}

func (s *site) siteData(page string) siteData {
	root := rootPrefix(page)
	d := siteData{
		Title:        s.opts.Title,
		Lang:         s.opts.Lang,
		Root:         root,
		Page:         page,
		CSS:          "assets/" + s.bundle.Names["style.css"],
		JS:           "assets/" + s.bundle.Names["main.ts"],
		Assets:       s.assetMap,
		GraphJS:      "assets/" + s.bundle.Names["graph.ts"],
		GraphData:    graphDataPath,
		Tree:         s.treeName,
		FeedURL:      root + feedPath,
		NoteCount:    len(s.notes),
		AsOf:         s.opts.AsOf,
		Snapshot:     s.opts.Snapshot,
		HasDashboard: true,
		SearchRoot:   root,
	}
	if t := s.opts.Team; t != nil {
		d.Team = &teamData{Title: t.Title, Workspaces: t.Workspaces}
		if t.Workspace != "" {
			d.Team.Home = root + "../index.html"
			d.SearchRoot = root + "../"
		} else {
			d.FeedURL = ""
		}
	}
	return d
}

// assetPaths maps each bundled entry point to its root-relative path.
func (s *site) assetPaths() map[string]string {
	m := make(map[string]string, len(s.bundle.Names))
	for entry, name := range s.bundle.Names {
		m[entry] = "assets/" + name
	}
	return m
}

// render executes a page template into the output; r records what the
// page read.
func (s *site) render(page, layout string, d pageData, r *reads) error {
	d.Site = s.siteData(page)
	return s.renderWith(page, layout, d, "", r)
}

// renderWith renders with d.Site already filled; base, when set, is the
// page's <base href> (the 404 page's).
func (s *site) renderWith(page, layout string, d pageData, base string, r *reads) error {
	d.Site.Base = base
	dir := folderOf(page)
	if base != "" {
		dir = "" // the 404 page resolves its links against <base href>
	}
	d.Nav, d.Chrome = s.chromeFor(dir, r)
	if s.chromeErr != nil {
		return s.chromeErr
	}
	d.Chrome.Left = s.pageLeft(d.Chrome, dir, page)
	if s.opts.BaseURL != "" && !d.Page.NoIndex {
		d.Page.Canonical = s.opts.BaseURL + escapePath(page)
	}
	buf := getBuffer()
	defer putBuffer(buf)
	if err := s.layouts[layout].ExecuteTemplate(buf, "layout.html", d); err != nil {
		return fmt.Errorf("rendering %s: %w", page, err)
	}
	r.file(page)
	if layout != "note.html" && page != "index.html" && !d.Page.NoIndex {
		s.mu.Lock()
		if s.listed == nil {
			s.listed = map[string]bool{}
		}
		s.listed[page] = true
		s.mu.Unlock()
	}
	return s.write(page, buf.Bytes())
}

// Page buffers are reused across pages: rendering allocates less and the
// garbage collector runs less. Writers copy what they keep (output.Writer).
var buffers = sync.Pool{New: func() any { b := new(bytes.Buffer); b.Grow(32 << 10); return b }}

func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 1<<20 {
		return // a huge page; let it go rather than keep it alive
	}
	b.Reset()
	buffers.Put(b)
}

// listPages returns the pages that are not notes (folders, tags, views),
// sorted, for the sitemap.
func (s *site) listPages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.listed))
	for p := range s.listed {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// templateFuncs are the helpers templates may call.
var templateFuncs = template.FuncMap{}

// renderNotes renders every published note on every core.
func (s *site) renderNotes(ctx context.Context) error {
	var notes []*vault.Note
	for _, n := range s.notes {
		if n.Kind == vault.KindIndex && s.pages[n] == "index.html" {
			continue // the home page renders it
		}
		notes = append(notes, n)
	}
	return parallel.Each(ctx, len(notes), workers(), func(i int) error { return s.renderNote(notes[i], nil) })
}

// workers is how many pages render at once: more than the cores, because
// a page's time is largely spent creating its files, and while one worker
// waits on the file system another can use the CPU.
func workers() int { return 4 * runtime.GOMAXPROCS(0) }

func folderOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// sortedTags returns the tag names sorted.
func (s *site) sortedTags() []string { return slices.Sorted(maps.Keys(s.tags)) }
