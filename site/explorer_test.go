package site_test

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
)

// treeNode mirrors the explorer's tree script (site/explorer.go).
type treeNode struct {
	Title   string      `json:"t"`
	Path    string      `json:"p"`
	Count   int         `json:"c"`
	Folders []*treeNode `json:"f"`
	Notes   [][2]string `json:"n"`
}

// readTree finds the explorer's tree script that page names in data-tree
// and decodes it.
func readTree(t *testing.T, out *buildtest.Output, page string) *treeNode {
	t.Helper()
	m := regexp.MustCompile(`data-tree="([^"]+)"`).FindStringSubmatch(out.Read("site/" + page))
	if m == nil {
		t.Fatalf("%s names no tree script", page)
	}
	src := out.Read("site/" + m[1])
	const prefix = "window.dreamwikiTree="
	if !strings.HasPrefix(src, prefix) {
		t.Fatalf("%s does not start with %q", m[1], prefix)
	}
	var root treeNode
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(src, prefix), ";\n")), &root); err != nil {
		t.Fatalf("%s: %v", m[1], err)
	}
	return &root
}

// leftSidebar is the explorer's part of a page.
func leftSidebar(t *testing.T, out *buildtest.Output, page string) string {
	t.Helper()
	html := out.Read("site/" + page)
	i := strings.Index(html, `<aside class="sidebar left"`)
	j := strings.Index(html[i:], "</aside>")
	if i < 0 || j < 0 {
		t.Fatalf("%s has no explorer", page)
	}
	return html[i : i+j]
}

// A page's explorer holds the branch that leads to it: the top-level
// folders, its own folders open with what they hold, and the page itself
// (marked) even when its folder holds more notes than the explorer lists;
// other folders are closed links, their notes left to the tree script.
func TestExplorer_PageHoldsItsBranchNotOtherFolders(t *testing.T) {
	var ws strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&ws, "-- logs/deep/note-%02d.md --\n# Log note %02d\n\nText.\n", i, i)
	}
	ws.WriteString("-- logs/top.md --\n# Top of logs\n")
	ws.WriteString("-- other/inner/far.md --\n# Far away note\n")
	ws.WriteString("-- other/near.md --\n# Near note\n")
	out := buildtest.Build(t, ws.String())

	// Notes are listed by title, so note-30 is past the 20 listed.
	page := "logs/deep/note-30.html"
	nav := leftSidebar(t, out, page)
	for _, want := range []string{
		`<summary>logs<span class="count">31</span></summary>`,
		`<summary>deep<span class="count">30</span></summary>`,
		`<a href="note-30.html" aria-current="page">Log note 30</a>`,
		`<a href="note-01.html">Log note 01</a>`,
		`<a href="../top.html">Top of logs</a>`,
		`<a class="folder" href="../../other/index.html">other<span class="count">2</span></a>`,
		`<a class="more" data-more="notes" href="index.html">All 30 notes…</a>`,
	} {
		if !strings.Contains(nav, want) {
			t.Errorf("%s's explorer lacks %s", page, want)
		}
	}
	for _, unwanted := range []string{"Near note", "Far away note", "inner", "note-25.html"} {
		if strings.Contains(nav, unwanted) {
			t.Errorf("%s's explorer holds %q, which is off its branch", page, unwanted)
		}
	}
	// A page of another folder has its own branch.
	out.AssertContains("site/other/near.html", `<a href="near.html" aria-current="page">Near note</a>`, `<a class="folder" href="inner/index.html">inner<span class="count">1</span></a>`)
	if nav := leftSidebar(t, out, "other/near.html"); strings.Contains(nav, "Log note") {
		t.Errorf("other/near.html's explorer lists the logs' notes")
	}

	// The tree script holds every folder and note, relative to its folder.
	root := readTree(t, out, page)
	got := map[string]string{}
	var walk func(n *treeNode)
	walk = func(n *treeNode) {
		for _, note := range n.Notes {
			got[path.Join(n.Path, note[1])] = note[0]
		}
		for _, f := range n.Folders {
			walk(f)
		}
	}
	walk(root)
	for p, title := range map[string]string{"logs/deep/note-30.html": "Log note 30", "logs/top.html": "Top of logs", "other/inner/far.html": "Far away note"} {
		if got[p] != title {
			t.Errorf("tree: %s is %q, want %q", p, got[p], title)
		}
	}
	if root.Count != 33 {
		t.Errorf("tree counts %d notes, want 33", root.Count)
	}
}

// The tree script lists every published page of the demo, and none of its
// private notes (the demo's privacy test checks every file for their
// words); a rebuild writes it byte for byte.
func TestExplorer_TreeHoldsEveryPublishedPage(t *testing.T) {
	out := buildtest.BuildWith(t, build.Options{Demo: true})
	root := readTree(t, out, "index.html")
	inTree := map[string]bool{}
	var walk func(n *treeNode)
	walk = func(n *treeNode) {
		for _, note := range n.Notes {
			inTree[path.Join(n.Path, note[1])] = true
		}
		for _, f := range n.Folders {
			walk(f)
		}
	}
	walk(root)
	var api struct {
		Pages []struct {
			URL string `json:"url"`
		} `json:"pages"`
	}
	if err := json.Unmarshal([]byte(out.Read("site/api/pages.json")), &api); err != nil {
		t.Fatal(err)
	}
	if len(api.Pages) < 50 || len(inTree) != len(api.Pages) {
		t.Errorf("tree holds %d notes, api/pages.json %d", len(inTree), len(api.Pages))
	}
	for _, p := range api.Pages {
		if !inTree[p.URL] {
			t.Errorf("tree lacks %s", p.URL)
		}
	}
	m := regexp.MustCompile(`data-tree="([^"]+)"`).FindStringSubmatch(out.Read("site/index.html"))
	before := out.Read("site/" + m[1])
	out.Rebuild()
	if after := out.Read("site/" + m[1]); after != before {
		t.Errorf("a rebuild wrote a different %s", m[1])
	}
}

// Past a dozen top-level folders the home page and the explorer show the
// largest twelve and link a page of them all.
func TestExplorer_ManyTopLevelFoldersHaveAPageOfTheirOwn(t *testing.T) {
	var ws strings.Builder
	for i := 1; i <= 15; i++ {
		for j := 0; j < i; j++ { // folder f01 holds 1 note, f15 holds 15
			fmt.Fprintf(&ws, "-- f%02d/n%02d.md --\n# Note %02d of %02d\n", i, j, j, i)
		}
	}
	out := buildtest.Build(t, ws.String())
	out.AssertContains("site/index.html", `<a href="f15/index.html"><strong>f15</strong>`, `<a href="f04/index.html"><strong>f04</strong>`,
		`<a href="folders.html"><strong>All folders</strong><span>15 folders</span></a>`)
	out.AssertNotContains("site/index.html", `href="f03/index.html"`, `href="f01/index.html"`)
	out.AssertContains("site/folders.html", `href="f01/index.html"`, `href="f03/index.html"`, `href="f15/index.html"`)
	nav := leftSidebar(t, out, "f02/n00.html")
	for _, want := range []string{`<a class="more" data-more="folders" href="../folders.html">All 15 folders…</a>`, `<details open data-folder="f02">`} {
		if !strings.Contains(nav, want) {
			t.Errorf("f02/n00.html's explorer lacks %s", want)
		}
	}
	out.AssertLinksResolve()
}
