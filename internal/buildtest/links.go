package buildtest

import (
	"encoding/json"
	"encoding/xml"
	"html"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	hrefRe = regexp.MustCompile(`\s(?:href|src)="([^"]*)"`)
	idRe   = regexp.MustCompile(`\sid="([^"]*)"`)
	// mdLinkRe finds Markdown link destinations: ](dest) and ](<dest>),
	// but not after an escaped \], which closes no link.
	mdLinkRe = regexp.MustCompile(`(?:^|[^\\])\]\((?:<([^>]*)>|([^)\s]*))\)`)
)

// linkChecker checks relative links in a built site: the file must exist
// and a #fragment must name an id of the HTML page it lands on (for a
// Markdown twin x.md, the ids of x.html, whose headings and blocks are the
// same).
type linkChecker struct {
	t    testing.TB
	root string
	ids  map[string]map[string]bool
}

func newLinkChecker(t testing.TB, root string) *linkChecker {
	return &linkChecker{t: t, root: root, ids: map[string]map[string]bool{}}
}

func (c *linkChecker) idsOf(file string) map[string]bool {
	if m, ok := c.ids[file]; ok {
		return m
	}
	m := map[string]bool{}
	if data, err := os.ReadFile(file); err == nil {
		for _, g := range idRe.FindAllStringSubmatch(string(data), -1) {
			m[html.UnescapeString(g[1])] = true
		}
	}
	c.ids[file] = m
	return m
}

// check reports raw (a link written in file `from`, relative to dir) when
// it points at nothing.
func (c *linkChecker) check(from, dir, raw string) {
	c.t.Helper()
	if raw == "" || raw == "#" || strings.Contains(raw, "://") || strings.HasPrefix(raw, "mailto:") || strings.HasPrefix(raw, "data:") || strings.HasPrefix(raw, "urn:") {
		return
	}
	u, err := url.Parse(raw)
	if err != nil {
		c.t.Errorf("%s: unparseable link %q", from, raw)
		return
	}
	target := filepath.Join(c.root, filepath.FromSlash(from))
	if u.Path != "" {
		target = filepath.Join(dir, filepath.FromSlash(u.Path))
	}
	if rel, err := filepath.Rel(c.root, target); err != nil || strings.HasPrefix(rel, "..") {
		c.t.Errorf("%s: link %q leaves the site", from, raw)
		return
	}
	if st, err := os.Stat(target); err != nil || st.IsDir() {
		c.t.Errorf("%s: link %q: no file %s", from, raw, target)
		return
	}
	if u.Fragment == "" {
		return
	}
	page := target
	if path.Ext(target) == ".md" {
		page = strings.TrimSuffix(target, ".md") + ".html"
	}
	if path.Ext(page) == ".html" && !c.idsOf(page)[u.Fragment] {
		c.t.Errorf("%s: link %q: no id %q in %s", from, raw, u.Fragment, filepath.Base(page))
	}
}

// AssertLinksResolve walks every HTML page and Markdown twin of the site
// and checks their relative links, then the links in llms.txt, the
// sitemap, the feed, the JSON API and the graph data; each that points at
// nothing fails the test. It returns the number of HTML pages (preview
// fragments not counted).
func (o *Output) AssertLinksResolve() (pages int) {
	t := o.t
	t.Helper()
	dir := o.Path("site")
	c := newLinkChecker(t, dir)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasSuffix(p, ".html"):
			if !strings.HasSuffix(p, ".preview.html") {
				pages++
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			base := filepath.Dir(p)
			if rel == "404.html" {
				// Served at any depth: its links are relative to the root
				// (or to its <base href>, which the root stands for here).
				base = dir
			}
			for _, g := range hrefRe.FindAllStringSubmatch(string(data), -1) {
				raw := html.UnescapeString(g[1])
				if rel == "404.html" && strings.HasPrefix(raw, "/") {
					continue // absolute under a base URL
				}
				c.check(rel, base, raw)
			}
		case strings.HasSuffix(p, ".md"), strings.HasSuffix(p, ".txt"):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, g := range mdLinkRe.FindAllStringSubmatch(string(data), -1) {
				raw := g[1] + g[2]
				if u, err := url.PathUnescape(raw); err == nil && g[1] != "" {
					raw = u
				}
				c.check(rel, filepath.Dir(p), raw)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkIndexes(t, c, dir)
	// A team site's workspaces are sites of their own in folders of the
	// root, their indexes' URLs relative to their folder.
	if subs, err := os.ReadDir(dir); err == nil {
		for _, e := range subs {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), "llms.txt")); e.IsDir() && err == nil {
				checkIndexes(t, c, filepath.Join(dir, e.Name()))
			}
		}
	}
	return pages
}

// checkIndexes checks the root-relative URLs of the machine-readable
// outputs, when the build wrote them.
func checkIndexes(t testing.TB, c *linkChecker, dir string) {
	t.Helper()
	if data, err := os.ReadFile(filepath.Join(dir, "api", "pages.json")); err == nil {
		var v struct {
			Pages []struct {
				URL, Markdown string
				Links         []string
			}
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Errorf("api/pages.json: %v", err)
		}
		for _, p := range v.Pages {
			c.check("api/pages.json", dir, escapeURL(p.URL))
			c.check("api/pages.json", dir, escapeURL(p.Markdown))
			for _, l := range p.Links {
				c.check("api/pages.json", dir, escapeURL(l))
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "api", "claims.json")); err == nil {
		var v struct {
			Claims []struct {
				URL, Markdown string
				Evidence      []struct{ URL string }
			}
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Errorf("api/claims.json: %v", err)
		}
		for _, cl := range v.Claims {
			c.check("api/claims.json", dir, escapeURL(cl.URL))
			c.check("api/claims.json", dir, escapeURL(cl.Markdown))
			for _, e := range cl.Evidence {
				if e.URL != "" {
					c.check("api/claims.json", dir, escapeURL(e.URL))
				}
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "assets", "graph-data.js")); err == nil {
		var g struct {
			Nodes [][3]any
			Links []int
		}
		if err := json.Unmarshal([]byte(GraphJSON(string(data))), &g); err != nil {
			t.Errorf("assets/graph-data.js: %v", err)
		}
		for _, n := range g.Nodes {
			u, _ := n[1].(string)
			c.check("assets/graph-data.js", dir, escapeURL(u))
		}
		for _, i := range g.Links {
			if i < 0 || i >= len(g.Nodes) {
				t.Errorf("assets/graph-data.js: link to node %d of %d", i, len(g.Nodes))
			}
		}
	}
	names := []string{"sitemap.xml", "feed.xml"}
	if parts, _ := filepath.Glob(filepath.Join(dir, "sitemap-*.xml")); len(parts) > 0 {
		for _, p := range parts {
			names = append(names, filepath.Base(p))
		}
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var v struct {
			Parts []string `xml:"sitemap>loc"`
			Locs  []string `xml:"url>loc"`
			Links []struct {
				Href string `xml:"href,attr"`
			} `xml:"entry>link"`
		}
		if err := xml.Unmarshal(data, &v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for _, l := range append(v.Locs, v.Parts...) {
			c.check(name, dir, l)
		}
		for _, l := range v.Links {
			c.check(name, dir, l.Href)
		}
	}
}

// escapeURL turns a root-relative path as JSON holds it into a URL.
func escapeURL(p string) string {
	p, frag, _ := strings.Cut(p, "#")
	u := (&url.URL{Path: p}).EscapedPath()
	if frag != "" {
		u += "#" + frag
	}
	return u
}

// GraphJSON is the JSON in assets/graph-data.js, a script that sets
// window.dreamwikiGraphData=JSON.parse("...") (or, before, the literal).
func GraphJSON(script string) string {
	js := strings.TrimSuffix(strings.TrimSpace(script), ";")
	_, v, _ := strings.Cut(js, "=")
	if inner, ok := strings.CutPrefix(v, "JSON.parse("); ok {
		var s string
		if json.Unmarshal([]byte(strings.TrimSuffix(inner, ")")), &s) == nil {
			return s
		}
	}
	return v
}
