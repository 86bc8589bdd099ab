package site

import (
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/vault"
)

func TestFinishHTML_AddsHeadingAnchorsAndTaskLabels(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<h2 id="now">Now</h2>`, `<h2 id="now">Now<a class="heading-anchor" href="#now" aria-label="Link to this section">#</a></h2>`},
		{`<h1 id="t">T</h1>`, `<h1 id="t">T</h1>`}, // the title keeps no anchor
		{`<h3>No id</h3>`, `<h3>No id</h3>`},       // embedded headings carry no id
		{`<li><input disabled="" type="checkbox"> open</li>`, `<li><input disabled="" type="checkbox" aria-label="Not done"> open</li>`},
		{`<li><input checked="" disabled="" type="checkbox"> done</li>`, `<li><input checked="" disabled="" type="checkbox" aria-label="Done"> done</li>`},
		{`<p>a &lt;h2 id="x"&gt; b</p>`, `<p>a &lt;h2 id="x"&gt; b</p>`},
		{`<h4 id="a&amp;b">A&amp;B</h4>`, `<h4 id="a&amp;b">A&amp;B<a class="heading-anchor" href="#a&amp;b" aria-label="Link to this section">#</a></h4>`},
	} {
		if got := finishHTML([]byte(c.in)); got != c.want {
			t.Errorf("finishHTML(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestDescribe_ReadsTheStartOfThePage(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<p>Hello <strong>world</strong>.</p><p>Next.</p>`, "Hello world. Next."},
		{`<h2 id="a">Current<a class="heading-anchor" href="#a" aria-label="Link to this section">#</a></h2><ul><li>One</li><li>Two</li></ul>`, "Current One Two"},
		{`<p>Tom &amp; Jerry &lt;3</p>`, "Tom & Jerry <3"},
		{``, ""},
	} {
		if got := describe(c.in); got != c.want {
			t.Errorf("describe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := "<p>" + strings.Repeat("word ", 100) + "</p>"
	if got := describe(long); len([]rune(got)) > 160 || !strings.HasSuffix(got, "…") {
		t.Errorf("long description not clipped to 160 runes with an ellipsis: %q", got)
	}
}

func TestClip_CutsAtAWord(t *testing.T) {
	if got := clip("short", 10); got != "short" {
		t.Errorf("clip kept %q", got)
	}
	if got := clip("one two three four five six", 14); got != "one two three…" {
		t.Errorf("clip = %q", got)
	}
	if got := clip("日本語のノートです", 5); got != "日本語の…" {
		t.Errorf("clip of CJK = %q", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1200: "-1,200"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTagTree_NestsChildrenUnderParents(t *testing.T) {
	s := &site{tags: map[string][]*vault.Note{"a": nil, "a/b": nil, "a/b/c": nil, "a/d": nil, "b": nil}}
	got := string(s.tagTree("tags/index.html", s.sortedTags()))
	want := `<ul class="tag-tree">` +
		`<li><a class="tag" href="../tags/a.html">#a</a><span class="meta">0 notes</span>` +
		`<ul><li><a class="tag" href="../tags/a/b.html">#b</a><span class="meta">0 notes</span>` +
		`<ul><li><a class="tag" href="../tags/a/b/c.html">#c</a><span class="meta">0 notes</span></li></ul></li>` +
		`<li><a class="tag" href="../tags/a/d.html">#d</a><span class="meta">0 notes</span></li></ul></li>` +
		`<li><a class="tag" href="../tags/b.html">#b</a><span class="meta">0 notes</span></li></ul>`
	if got != want {
		t.Errorf("tag tree\n got %s\nwant %s", got, want)
	}
}

// The dashboard's charts are well-formed XML (SVG inside HTML), carry a
// title for screen readers and their numbers as a table.
func TestCharts_AreWellFormedAndLabelled(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	charts := map[string]string{
		"bars":      string(barChart("b", "Claims by tier", []bar{{Label: "hot", Value: 3, Class: "fill-hot"}, {Label: "cold & old", Value: 0}})),
		"histogram": string(histogram("h", "Decay", []string{"0.0", "0.5"}, []int{4, 9}, "")),
		"gauge":     string(gauge("g", "MEMORY.md", 17000, 16000, 20000, "characters")),
		"over":      string(gauge("o", "MEMORY.md", 25000, 16000, 20000, "characters")),
		"calendar": string(calendar("c", "Daily logs", map[string]calendarDay{"2026-03-02": {Value: 5, URL: "x.html", Label: "5 words"}},
			day("2026-03-01"), day("2026-04-10"))),
	}
	for name, h := range charts {
		dec := xml.NewDecoder(strings.NewReader("<root>" + h + "</root>"))
		dec.Strict = true
		for {
			if _, err := dec.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s: not well-formed: %v\n%s", name, err, h)
				}
				break
			}
		}
		for _, want := range []string{"<title id=", "<table>"} {
			if !strings.Contains(h, want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
	}
	if !strings.Contains(charts["over"], "fill-danger") || !strings.Contains(charts["gauge"], "fill-warm") {
		t.Errorf("the gauge does not colour a size over target amber and over budget red")
	}
	if !strings.Contains(charts["calendar"], `<a href="x.html" aria-label="2026-03-02: 5 words">`) {
		t.Errorf("a calendar day with a log does not link it")
	}
}

// A sitemap over the protocol's 50,000 URLs is split into parts listed by
// a sitemap index.
func TestWriteSitemap_SplitsOverTheLimit(t *testing.T) {
	mem := output.NewMemory()
	s := &site{w: mem, pages: map[*vault.Note]string{}}
	for i := 0; i < sitemapLimit+10; i++ {
		n := &vault.Note{Path: fmt.Sprintf("n/%d.md", i)}
		s.notes = append(s.notes, n)
		s.pages[n] = fmt.Sprintf("n/%d.html", i)
	}
	if err := s.writeSitemap(); err != nil {
		t.Fatal(err)
	}
	idx, _ := mem.Get("sitemap.xml")
	if !strings.Contains(string(idx), "<sitemapindex") || !strings.Contains(string(idx), "<loc>sitemap-2.xml</loc>") {
		t.Errorf("sitemap.xml is not an index of two parts:\n%.300s", idx)
	}
	two, _ := mem.Get("sitemap-2.xml")
	if got := strings.Count(string(two), "<url>"); got != 11 {
		t.Errorf("sitemap-2.xml has %d URLs, want 11", got)
	}
}

func TestNoHumanNotes_OnlyAnEmptyHumanBlockCounts(t *testing.T) {
	eng := markdown.New()
	const body = "# A claim\n\n## Evidence\n\n- a line\n"
	for _, c := range []struct {
		src  string
		want bool
	}{
		{body + "\n## Notes\n\n" + vault.HumanStart + "\n" + vault.HumanEnd + "\n", true},
		{body + "\n## Notes\n\n" + vault.HumanStart + "\nChecked with Sam.\n" + vault.HumanEnd + "\n", false},
		{body + "\n## Notes\n\nNo markers, but words.\n", false},
		{body, false},
		{"# A claim\n\n### Notes\n\nolder\n\n## Notes\n\n" + vault.HumanStart + "\n" + vault.HumanEnd + "\n", false},
		{body + "\n## Notes\n\n" + vault.HumanStart + "\n" + vault.HumanEnd + "\n\n## Later\n", false},
	} {
		if got := noHumanNotes(eng.Parse("claims/a.md", []byte(c.src))); got != c.want {
			t.Errorf("noHumanNotes(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
