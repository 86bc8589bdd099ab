package site_test

import (
	"encoding/json"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
)

// A nested tag lists the notes of its children and links each child's
// page; a note links the pages of its own tags.
func TestSite_NestedTagsHaveAPageEach(t *testing.T) {
	out := buildtest.Build(t, `
-- notes/a.md --
# A
#infra/home #infra/net
-- notes/b.md --
# B
#infra
`)
	out.AssertContains("site/tags/infra.html",
		`<a href="../tags/infra/home.html">#infra/home</a><span class="meta">1 note</span>`,
		`<a href="../tags/infra/net.html">#infra/net</a><span class="meta">1 note</span>`,
		`href="../notes/a.html">A</a>`, `href="../notes/b.html">B</a>`)
	out.AssertContains("site/tags/infra/home.html", `href="../../notes/a.html">A</a>`)
	out.AssertNotContains("site/tags/infra/home.html", `notes/b.html`)
	out.AssertContains("site/notes/a.html", `<a class="tag" href="../tags/infra/home.html">#infra/home</a>`)
	out.AssertContains("site/tags/index.html", `<a class="tag" href="../tags/infra.html">#infra</a><span class="meta">2 notes</span>`)
	out.AssertLinksResolve()
}

// Every HTML page of the demo has the whole frame: stylesheet and script,
// header, explorer, one main landmark and exactly one h1, whichever folder
// it is in (tag pages live in folders that hold no notes).
func TestSite_EveryPageHasTheWholeFrame(t *testing.T) {
	out := buildtest.BuildWith(t, build.Options{Demo: true})
	h1 := regexp.MustCompile(`<h1[ >]`)
	pages := 0
	for _, p := range out.Files("site") {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		pages++
		out.AssertContains(p, `<html lang="`, `rel="stylesheet" href="`, `<script defer src="`, `<header class="site-header">`,
			`<nav class="explorer"`, `<main id="content">`, `<footer class="site-footer">`, `name="viewport"`)
		if n := len(h1.FindAllString(out.Read(p), -1)); n != 1 {
			t.Errorf("%s has %d h1 elements, want 1", p, n)
		}
	}
	if pages < 300 {
		t.Errorf("only %d pages", pages)
	}
}

// With --base-url the absolute URLs (canonical, Open Graph, sitemap, feed)
// use it and the 404 page resolves its links against it; every link
// between pages stays relative, so the same files work under a sub-path
// and from file://.
func TestSite_BaseURLServesASubPath(t *testing.T) {
	out := buildtest.BuildWith(t, build.Options{Demo: true, BaseURL: "https://example.org/memory"})
	out.AssertContains("site/topics/gateway.html",
		`<link rel="canonical" href="https://example.org/memory/topics/gateway.html">`,
		`<meta property="og:url" content="https://example.org/memory/topics/gateway.html">`)
	// A root-absolute URL would break under a sub-path and from file://.
	out.AssertNotContains("site/topics/gateway.html", `href="/`)
	out.AssertContains("site/sitemap.xml", "<loc>https://example.org/memory/topics/gateway.html</loc>")
	out.AssertContains("site/feed.xml", `href="https://example.org/memory/feed.xml"`)
	out.AssertContains("site/404.html", `<base href="/memory/">`)
	out.AssertContains("site/robots.txt", "Sitemap: https://example.org/memory/sitemap.xml")
	out.AssertLinksResolve()
}

// The outputs for agents exist and agree with each other: llms.txt links
// twins that exist, api/pages.json lists every page, api/claims.json
// carries evidence with citations, the feed is valid Atom with dreams and
// claims, and the graph data has a node per published note.
func TestSite_AgentOutputsDescribeTheSite(t *testing.T) {
	out := buildtest.BuildWith(t, build.Options{Demo: true})
	out.AssertContains("site/llms.txt", "# ", "## Claims", "## Daily logs", "api/claims.json", "llms-full.txt")
	out.AssertContains("site/llms-full.txt", "<!-- page: index.md -->")
	var pages struct{ Pages []struct{ URL, Kind string } }
	mustJSON(t, out.Read("site/api/pages.json"), &pages)
	if len(pages.Pages) != out.Report.Published {
		t.Errorf("api/pages.json lists %d pages for %d published notes", len(pages.Pages), out.Report.Published)
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
	mustJSON(t, out.Read("site/api/claims.json"), &claims)
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
	var atom struct {
		Entries []struct {
			Category struct {
				Term string `xml:"term,attr"`
			} `xml:"category"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal([]byte(out.Read("site/feed.xml")), &atom); err != nil {
		t.Fatalf("feed.xml: %v", err)
	}
	kinds := map[string]int{}
	for _, e := range atom.Entries {
		kinds[e.Category.Term]++
	}
	if kinds["dream"] == 0 || kinds["claim"] == 0 {
		t.Errorf("feed entries by kind: %v; want dreams and claims", kinds)
	}
	out.AssertExists("site/sitemap.xml", "site/robots.txt", "site/404.html", "site/graph.html", "site/dashboard.html",
		"site/dreams/journal.html", "site/tags/index.html")
}

func mustJSON(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatal(err)
	}
}
