package build

import (
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/search"
)

// Every HTML page of the demo has the whole frame: stylesheet and script,
// header, explorer, one main landmark and exactly one h1, whichever folder
// it is in (tag pages live in folders that hold no notes).
func TestBuild_EveryPageHasTheWholeFrame(t *testing.T) {
	_, out := buildInto(t, Options{Demo: true})
	site := filepath.Join(out, "site")
	h1 := regexp.MustCompile(`<h1[ >]`)
	pages := 0
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		page := string(data)
		rel, _ := filepath.Rel(site, p)
		for _, want := range []string{`<html lang="`, `rel="stylesheet" href="`, `<script defer src="`, `<header class="site-header">`,
			`<nav class="explorer"`, `<main id="content">`, `<footer class="site-footer">`, `name="viewport"`} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %s", rel, want)
			}
		}
		if n := len(h1.FindAllString(page, -1)); n != 1 {
			t.Errorf("%s has %d h1 elements, want 1", rel, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 300 {
		t.Errorf("only %d pages", pages)
	}
}

// Private notes leave no trace in any file of the site or the vault: not
// their text, not their title, not their path, not a link to them, in
// pages, twins, JSON, the feed, the graph data, the sitemap, the llms
// files or the lint reports. (The reports were a known gap when the site
// judged privacy note by note; the model now has no private notes.)
func TestBuild_PrivateNotesLeaveNoTraceInAnySiteFile(t *testing.T) {
	ws := writeTxtar(t, `
-- dreamwiki.toml --
private = ["memory/private/**"]
-- MEMORY.md --
# Memory
- Health notes live in [[health-zebra]]; gift ideas in [[gifts-quokka]]; public in [[public-note]].
-- memory/private/health-zebra.md --
# Health zebra
Zebra-secret-phrase: the private health note.
-- memory/journal-okapi.md --
---
private: true
---
# Journal okapi
- Okapi-secret-phrase: an entry of a private topic file, with no evidence.
-- notes/gifts-quokka.md --
---
publish: false
title: Gifts quokka
---
Quokka-secret-phrase: gift ideas.
-- notes/public-note.md --
# Public note
Links back to [[health-zebra]] and [[gifts-quokka]].
-- memory/2026-03-01.md --
- Talked about [[health-zebra]] today.
`)
	r, out := buildInto(t, Options{Workspace: ws})
	for p := range treeHash(t, out) {
		data := read(t, filepath.Join(out, p))
		for _, leak := range []string{"Zebra-secret-phrase", "Quokka-secret-phrase", "Okapi-secret-phrase", "health-zebra.html",
			"gifts-quokka.html", "health-zebra.md", "gifts-quokka.md", "journal-okapi", "Gifts quokka", "memory/private"} {
			if strings.Contains(p, leak) || strings.Contains(data, leak) {
				t.Errorf("%s contains %q", p, leak)
			}
		}
	}
	if r.Private != 3 {
		t.Errorf("the report counts %d private files, want 3", r.Private)
	}
	// The public note still says what it links to, as plain text.
	if page := read(t, filepath.Join(out, "site", "notes", "public-note.html")); !strings.Contains(page, "health-zebra") {
		t.Errorf("the link text to a private note should stay as plain text")
	}
}

// With --base-url the absolute URLs (canonical, Open Graph, sitemap, feed)
// use it and the 404 page resolves its links against it; every link
// between pages stays relative, so the same files work under a sub-path
// and from file://.
func TestBuild_BaseURLServesASubPath(t *testing.T) {
	_, out := buildInto(t, Options{Demo: true, BaseURL: "https://example.org/memory"})
	site := filepath.Join(out, "site")
	gateway := read(t, filepath.Join(site, "topics", "gateway.html"))
	for _, want := range []string{`<link rel="canonical" href="https://example.org/memory/topics/gateway.html">`,
		`<meta property="og:url" content="https://example.org/memory/topics/gateway.html">`} {
		if !strings.Contains(gateway, want) {
			t.Errorf("gateway page lacks %s", want)
		}
	}
	if regexp.MustCompile(`href="/`).MatchString(gateway) {
		t.Errorf("a page links with a root-absolute URL, which breaks under a sub-path and from file://")
	}
	if !strings.Contains(read(t, filepath.Join(site, "sitemap.xml")), "<loc>https://example.org/memory/topics/gateway.html</loc>") {
		t.Errorf("sitemap locations are not absolute under the base URL")
	}
	if !strings.Contains(read(t, filepath.Join(site, "feed.xml")), `href="https://example.org/memory/feed.xml"`) {
		t.Errorf("feed self link is not absolute")
	}
	if !strings.Contains(read(t, filepath.Join(site, "404.html")), `<base href="/memory/">`) {
		t.Errorf("404 page has no <base href> for the sub-path")
	}
	if !strings.Contains(read(t, filepath.Join(site, "robots.txt")), "Sitemap: https://example.org/memory/sitemap.xml") {
		t.Errorf("robots.txt does not name the sitemap")
	}
	checkLinks(t, site)
}

// The outputs for agents exist and agree with each other: llms.txt links
// twins that exist, api/pages.json lists every page, api/claims.json
// carries evidence with citations, the feed is valid Atom with dreams and
// claims, and the graph data has a node per published note.
func TestBuild_AgentOutputsDescribeTheSite(t *testing.T) {
	r, out := buildInto(t, Options{Demo: true})
	site := filepath.Join(out, "site")
	llms := read(t, filepath.Join(site, "llms.txt"))
	for _, want := range []string{"# ", "## Claims", "## Daily logs", "api/claims.json", "llms-full.txt"} {
		if !strings.Contains(llms, want) {
			t.Errorf("llms.txt lacks %q", want)
		}
	}
	if full := read(t, filepath.Join(site, "llms-full.txt")); !strings.Contains(full, "<!-- page: index.md -->") {
		t.Errorf("llms-full.txt does not start with the memory index")
	}
	var pages struct{ Pages []struct{ URL, Kind string } }
	mustJSON(t, read(t, filepath.Join(site, "api", "pages.json")), &pages)
	if len(pages.Pages) != r.Published {
		t.Errorf("api/pages.json lists %d pages for %d published notes", len(pages.Pages), r.Published)
	}
	var claims struct {
		Claims []struct {
			ID, Text, Tier, Status string
			Evidence               []struct {
				Path, Citation, URL string
				Private             bool
			}
		}
	}
	mustJSON(t, read(t, filepath.Join(site, "api", "claims.json")), &claims)
	withEvidence := 0
	for _, c := range claims.Claims {
		if c.ID == "" || c.Text == "" || c.Tier == "" || c.Status == "" {
			t.Errorf("claim %+v lacks id, text, tier or status", c)
		}
		for _, e := range c.Evidence {
			if !e.Private && (e.Path == "" || e.Citation == "") {
				t.Errorf("claim %s: evidence without path or citation: %+v", c.ID, e)
			}
		}
		if len(c.Evidence) > 0 {
			withEvidence++
		}
	}
	if len(claims.Claims) < 100 || withEvidence < len(claims.Claims)/2 {
		t.Errorf("api/claims.json: %d claims, %d with evidence", len(claims.Claims), withEvidence)
	}
	feed := read(t, filepath.Join(site, "feed.xml"))
	var atom struct {
		Entries []struct {
			Category struct {
				Term string `xml:"term,attr"`
			} `xml:"category"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal([]byte(feed), &atom); err != nil {
		t.Fatalf("feed.xml: %v", err)
	}
	kinds := map[string]int{}
	for _, e := range atom.Entries {
		kinds[e.Category.Term]++
	}
	if kinds["dream"] == 0 || kinds["claim"] == 0 {
		t.Errorf("feed entries by kind: %v; want dreams and claims", kinds)
	}
	for _, f := range []string{"sitemap.xml", "robots.txt", "404.html", "graph.html", "dashboard.html", "dreams/journal.html", "tags/index.html"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
}

func mustJSON(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatal(err)
	}
}

// The [search] knobs of dreamwiki.toml reach the browser: the static index
// carries them, so the site ranks as `dreamwiki search` and the server do.
func TestBuild_SearchKnobsReachTheStaticIndex(t *testing.T) {
	ws := writeTxtar(t, `
-- dreamwiki.toml --
[search]
half_life_days = 7
mmr_lambda = 0.5
-- notes/a.md --
# A

The gateway runs on the mac mini.
`)
	_, out := buildInto(t, Options{Workspace: ws})
	dir := filepath.Join(out, "site", "search")
	ix, err := search.OpenStatic(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))) })
	if err != nil {
		t.Fatal(err)
	}
	p := ix.Params()
	if p.HalfLifeDays != 7 || p.MMRLambda != 0.5 {
		t.Errorf("static index ranks with half-life %v, lambda %v; want 7 and 0.5 from dreamwiki.toml", p.HalfLifeDays, p.MMRLambda)
	}
	if d := search.DefaultParams(); p.FuzzyWeight != d.FuzzyWeight {
		t.Errorf("fuzzy weight %v, want the default %v", p.FuzzyWeight, d.FuzzyWeight)
	}
}
