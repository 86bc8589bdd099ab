package site

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/dreamwiki/dreamwiki/assets"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/templates"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Options configure a site build.
type Options struct {
	// Title is the site's name, shown in the header and page titles.
	Title string
	// BaseURL is the absolute URL the site is published at
	// ("https://example.org/memory/"). It is used only where a URL must be
	// absolute (canonical links, sitemap, feed); every link between pages
	// is relative, so the site works under any sub-path and from file://.
	BaseURL string
	// AsOf is the date the memory was evaluated at (YYYY-MM-DD), shown in
	// the footer.
	AsOf string
	// Lang is the html lang attribute; "en" when empty.
	Lang string
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
	tags     map[string][]*vault.Note // tag -> notes carrying it or a sub-tag
	folders  map[string]*folder
	navByDir map[string]template.HTML
	w        output.Writer
	mu       sync.Mutex
	stats    Stats
}

// Build renders v into w.
func Build(ctx context.Context, eng *markdown.Engine, v *vault.Vault, opts Options, w output.Writer) (Stats, error) {
	if opts.Lang == "" {
		opts.Lang = "en"
	}
	if opts.Title == "" {
		opts.Title = "Agent memory"
	}
	if opts.BaseURL != "" && !strings.HasSuffix(opts.BaseURL, "/") {
		opts.BaseURL += "/"
	}
	b, err := assets.Build()
	if err != nil {
		return Stats{}, err
	}
	s := &site{eng: eng, v: v, opts: opts, bundle: b, w: w}
	if s.layouts, err = parseTemplates(); err != nil {
		return Stats{}, err
	}
	for _, n := range v.Notes {
		if !n.Private {
			s.notes = append(s.notes, n)
		}
	}
	s.pages = urlsFor(s.notes)
	s.collectTags()
	s.collectFolders()
	s.renderNav()

	for _, f := range b.Files {
		if err := s.write("assets/"+f.Name, f.Data); err != nil {
			return Stats{}, err
		}
	}
	if err := s.renderNotes(ctx); err != nil {
		return Stats{}, err
	}
	for _, step := range []func() error{s.renderHome, s.renderFolders, s.renderTags, s.render404, s.writeAssets, s.writeSitemap, s.writeRobots} {
		if err := ctx.Err(); err != nil {
			return Stats{}, err
		}
		if err := step(); err != nil {
			return Stats{}, err
		}
	}
	return s.stats, nil
}

func parseTemplates() (map[string]*template.Template, error) {
	base, err := template.New("layout.html").ParseFS(templates.FS, "layout.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	names, err := fs.Glob(templates.FS, "*.html")
	if err != nil {
		return nil, err
	}
	out := map[string]*template.Template{}
	for _, name := range names {
		if name == "layout.html" {
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
}

type siteData struct {
	Title     string
	Lang      string
	Root      string // relative path to the site root, "" or "../.."
	CSS, JS   string
	FeedURL   string
	NoteCount int
	AsOf      string
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
	// ContentHasTitle is set when the note opens with its own H1, so the
	// layout does not print the title twice.
	ContentHasTitle bool
	TOC             template.HTML
	Backlinks       []link
}

type link struct {
	Title string
	URL   string
	Name  string
	Meta  string
}

type listData struct {
	Groups []listGroup
	Empty  string
}

type listGroup struct {
	Title string
	Items []link
}

func (s *site) siteData(page string) siteData {
	return siteData{
		Title:     s.opts.Title,
		Lang:      s.opts.Lang,
		Root:      rootPrefix(page),
		CSS:       "assets/" + s.bundle.Names["style.css"],
		JS:        "assets/" + s.bundle.Names["main.ts"],
		NoteCount: len(s.notes),
		AsOf:      s.opts.AsOf,
	}
}

// render executes a page template into the output.
func (s *site) render(page, layout string, d pageData) error {
	d.Site = s.siteData(page)
	d.Nav = s.navByDir[folderOf(page)]
	if s.opts.BaseURL != "" {
		d.Page.Canonical = s.opts.BaseURL + escapePath(page)
	}
	var buf bytes.Buffer
	buf.Grow(16 << 10)
	if err := s.layouts[layout].ExecuteTemplate(&buf, "layout.html", d); err != nil {
		return fmt.Errorf("rendering %s: %w", page, err)
	}
	return s.write(page, buf.Bytes())
}

// renderNotes renders every published note on every core.
func (s *site) renderNotes(ctx context.Context) error {
	work := make(chan *vault.Note)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range work {
				if err := s.renderNote(n); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	var err error
feed:
	for _, n := range s.notes {
		if n.Kind == vault.KindIndex && s.pages[n] == "index.html" {
			continue // the home page renders it
		}
		select {
		case work <- n:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err != nil {
		return err
	}
	select {
	case err = <-errs:
	default:
	}
	return err
}

func folderOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// sortedTags returns the tag names sorted.
func (s *site) sortedTags() []string {
	out := make([]string, 0, len(s.tags))
	for t := range s.tags {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
