package markdown

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// The Markdown dialect as data: testdata/cases.txt holds cases in
// goldmark's _test/extra.txt style, each a name line, the input and the
// expected HTML:
//
//	### group/name                   (or "### group/name @ folder/note.md")
//	//- - - - - - - - -//
//	input Markdown
//	//- - - - - - - - -//
//	expected HTML
//	//= = = = = = = = = = = = = = = = = = = = = = = =//
//
// Expected output ends with "@key: value" lines for what a case shows
// beyond its HTML: diagnostics, tags, block ids, front matter fields.
// Inputs are rendered through fakeSite, a small vault of fixture notes,
// so links, embeds and broken links resolve. `go test -run TestCases
// -update` rewrites the expectations: review the diff like code.

var update = flag.Bool("update", false, "rewrite testdata/cases.txt with the current output")

const (
	caseSep  = "//- - - - - - - - -//"
	caseEnd  = "//= = = = = = = = = = = = = = = = = = = = = = = =//"
	casesTxt = "testdata/cases.txt"
)

type mdCase struct {
	name, page, input, want string
}

func readCases(t testing.TB) []mdCase {
	t.Helper()
	raw, err := os.ReadFile(casesTxt)
	if err != nil {
		t.Fatal(err)
	}
	var cases []mdCase
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		head, ok := strings.CutPrefix(lines[i], "### ")
		if !ok {
			continue
		}
		c := mdCase{name: strings.TrimSpace(head), page: "page.md"}
		if n, p, ok := strings.Cut(c.name, " @ "); ok {
			c.name, c.page = strings.TrimSpace(n), strings.TrimSpace(p)
		}
		if i+1 >= len(lines) || lines[i+1] != caseSep {
			t.Fatalf("%s:%d: case %q: want %q on the next line", casesTxt, i+1, c.name, caseSep)
		}
		var in, out []string
		j := i + 2
		for ; j < len(lines) && lines[j] != caseSep; j++ {
			in = append(in, lines[j])
		}
		for j++; j < len(lines) && lines[j] != caseEnd; j++ {
			out = append(out, lines[j])
		}
		if j >= len(lines) {
			t.Fatalf("%s:%d: case %q is not closed by %q", casesTxt, i+1, c.name, caseEnd)
		}
		// "→" stands for a tab and "␍" for a carriage return, which would
		// otherwise be invisible in the file.
		c.input = strings.NewReplacer("→", "\t", "␍", "\r").Replace(strings.Join(in, "\n"))
		c.want = strings.Join(out, "\n")
		cases = append(cases, c)
		i = j
	}
	return cases
}

func writeCases(t testing.TB, cases []mdCase) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# dreamwiki's Markdown dialect, as data. See cases_test.go for the format.\n")
	for _, c := range cases {
		name := c.name
		if c.page != "page.md" {
			name += " @ " + c.page
		}
		in := strings.NewReplacer("\t", "→", "\r", "␍").Replace(c.input)
		fmt.Fprintf(&b, "\n### %s\n%s\n%s\n%s\n%s\n%s\n", name, caseSep, in, caseSep, c.want, caseEnd)
	}
	if err := os.WriteFile(casesTxt, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCases(t *testing.T) {
	cases := readCases(t)
	if len(cases) < 90 {
		t.Errorf("only %d cases; the dialect needs at least 90", len(cases))
	}
	seen := map[string]bool{}
	for i := range cases {
		c := &cases[i]
		if seen[c.name] {
			t.Errorf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		got := renderCase(t, c.page, c.input)
		if *update {
			c.want = got
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			if got != c.want {
				t.Errorf("input:\n%s\n\ngot:\n%s\n\nwant:\n%s", c.input, got, c.want)
			}
		})
	}
	if *update {
		writeCases(t, cases)
	}
}

// A build releases every Doc's AST once indexed (Doc.Release) and renders
// from Source parsed again; every case must come out the same that way,
// embeds of released notes included.
func TestCases_ReleasedDocsRenderTheSame(t *testing.T) {
	for _, c := range readCases(t) {
		site := newFakeSite(c.page, c.input)
		doc := site.docs[c.page]
		var kept, released bytes.Buffer
		if err := testEngine().RenderHTML(&kept, doc, site); err != nil {
			t.Fatal(err)
		}
		plain := doc.PlainText()
		for _, d := range site.docs {
			d.Release()
		}
		if err := testEngine().RenderHTML(&released, doc, site); err != nil {
			t.Fatal(err)
		}
		if kept.String() != released.String() {
			t.Errorf("%s: released doc renders differently:\nkept:\n%s\nreleased:\n%s", c.name, kept.String(), released.String())
		}
		if got := doc.PlainText(); got != plain {
			t.Errorf("%s: released doc's plain text is %q, want %q", c.name, got, plain)
		}
	}
}

// A released Doc parsed again takes its heading ids and link indexes from
// the first parse (reindex) instead of extracting them again; a case that
// did not line up would fall back to a full index: correct, but slower.
func TestCases_ReparsedDocsReuseTheFirstIndex(t *testing.T) {
	e := testEngine()
	for _, c := range readCases(t) {
		doc := newFakeSite(c.page, c.input).docs[c.page]
		pc := parser.NewContext()
		root := e.parser.Parse(text.NewReader(doc.Source), parser.WithContext(pc))
		if doc.reindex(root, pc) == nil {
			t.Errorf("%s: the second parse does not line up with the first (%d headings, %d links)", c.name, len(doc.Headings), len(doc.Links))
		}
	}
}

// ParseText shares its string's bytes with the Doc (the fake site parses
// every case with it): parsing, rendering, plain text and parsing again
// after Release must leave those bytes as they were.
func TestCases_ParseTextLeavesItsStringAlone(t *testing.T) {
	for _, c := range readCases(t) {
		src := strings.Clone(c.input) // a string of its own, on the heap
		site := newFakeSite(c.page, src)
		doc := site.docs[c.page]
		for _, release := range []bool{false, true} {
			if release {
				doc.Release()
			}
			if err := testEngine().RenderHTML(io.Discard, doc, site); err != nil {
				t.Fatal(err)
			}
			_ = doc.PlainText()
		}
		if src != c.input {
			t.Errorf("%s: the parsed string changed:\n%q\nwas\n%q", c.name, src, c.input)
		}
	}
}

// RenderTitle must write exactly the start of what RenderHTML writes.
func TestCases_RenderTitleIsTheStartOfTheFullRender(t *testing.T) {
	applied := 0
	for _, c := range readCases(t) {
		for _, input := range []string{c.input, "# Title of " + c.name + "\n\n" + c.input} {
			site := newFakeSite(c.page, input)
			doc := site.docs[c.page]
			var full, title bytes.Buffer
			if err := testEngine().RenderHTML(&full, doc, site); err != nil {
				t.Fatal(err)
			}
			ok, err := testEngine().RenderTitle(&title, doc, site)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			applied++
			if !strings.HasPrefix(full.String(), title.String()) || !strings.HasSuffix(title.String(), "</h1>\n") {
				t.Errorf("%s: RenderTitle wrote %q; the full render starts %q", c.name, title.String(), full.String()[:min(len(full.String()), len(title.String())+40)])
			}
		}
	}
	if applied < 100 {
		t.Errorf("RenderTitle applied to only %d inputs", applied)
	}
}

// renderCase parses input as the note at page inside the fixture vault
// and returns its HTML plus the "@" trailer lines.
func renderCase(t *testing.T, page, input string) string {
	t.Helper()
	site := newFakeSite(page, input)
	doc := site.docs[page]
	var buf bytes.Buffer
	if err := testEngine().RenderHTML(&buf, doc, site); err != nil {
		t.Fatalf("RenderHTML: %v", err)
	}
	out := strings.TrimRight(buf.String(), "\n")
	var trailer []string
	for _, d := range doc.Diagnostics {
		trailer = append(trailer, fmt.Sprintf("@%s: %s:%d: %s; %s", d.Severity, d.Code, d.Line, d.Message, d.Hint))
	}
	m := doc.Meta
	if m.Present {
		trailer = append(trailer, fmt.Sprintf("@meta: title=%q aliases=%q tags=%q date=%q created=%q updated=%q private=%v publish=%s keys=%q",
			m.Title, m.Aliases, m.Tags, m.Date, m.Created, m.Updated, m.Private, boolPtr(m.Publish), m.Keys))
	}
	if len(doc.Tags) > 0 {
		trailer = append(trailer, fmt.Sprintf("@tags: %q", doc.Tags))
	}
	for _, b := range doc.BlockIDs {
		trailer = append(trailer, fmt.Sprintf("@block: ^%s line %d", b.ID, b.Line))
	}
	if len(trailer) > 0 {
		out += "\n" + strings.Join(trailer, "\n")
	}
	return out
}

func boolPtr(b *bool) string {
	if b == nil {
		return "unset"
	}
	return fmt.Sprint(*b)
}

var (
	engineOnce sync.Once
	engine     *Engine
)

func testEngine() *Engine {
	engineOnce.Do(func() { engine = New() })
	return engine
}

// fixtureNotes is the little vault every case lives in.
var fixtureNotes = map[string]string{
	"notes/Alpha.md": `---
aliases: [First Letter]
---
# Alpha

Intro paragraph. ^intro

## Section One

One text with [[Beta]].

### Sub

Sub text.

## Section Two

Two text.

- item a ^item-a
- item b
`,
	"notes/Beta.md":           "# Beta\n\nBeta body links [[Alpha#Section One]].\n",
	"notes/Tagged.md":         "Tagged #inner-tag body.\n",
	"cycle/A.md":              "A text.\n\n![[cycle/B]]\n",
	"cycle/B.md":              "B text.\n\n![[cycle/A]]\n",
	"deep/1.md":               "One.\n\n![[deep/2]]\n",
	"deep/2.md":               "Two.\n\n![[deep/3]]\n",
	"deep/3.md":               "Three.\n\n![[deep/4]]\n",
	"deep/4.md":               "Four.\n\n![[deep/5]]\n",
	"deep/5.md":               "Five.\n\n![[deep/6]]\n",
	"deep/6.md":               "Six.\n",
	"x/Same.md":               "Same in x.\n",
	"y/Same.md":               "Same in y.\n",
	"folder/Sibling.md":       "Sibling.\n",
	"folder/sub/Child.md":     "Child.\n",
	"My Note & More.md":       "Spaces and ampersand.\n",
	"What?.md":                "Question mark.\n",
	"C++ tips.md":             "Plus signs.\n",
	"日本語ノート.md":               "# 日本語\n\n本文。\n",
	"café.md":                 "Accent.\n",
	"private.md":              "---\nprivate: true\n---\nSecret.\n",
	"Rel/Linker.md":           "Relative [[./Target]] and [[../notes/Alpha]].\n",
	"Rel/Target.md":           "Target.\n",
	"v1.2 notes.md":           "Dotted name.\n",
	"attachments/diagram.png": "",
	"photo.jpg":               "",
	"clip.mp4":                "",
	"song.mp3":                "",
	"paper.pdf":               "",
}

// fakeSite is a RenderContext over the fixture vault plus the case's own
// page. It shows how the site is expected to implement the interface.
type fakeSite struct {
	docs map[string]*Doc // notes by path; attachments have no Doc
	ix   *NameIndex
}

var (
	fixtureOnce sync.Once
	fixtureDocs map[string]*Doc
)

func newFakeSite(page, input string) *fakeSite {
	fixtureOnce.Do(func() {
		fixtureDocs = map[string]*Doc{}
		for p, src := range fixtureNotes {
			if strings.HasSuffix(p, ".md") {
				fixtureDocs[p] = testEngine().ParseText(p, src)
			}
		}
	})
	s := &fakeSite{docs: map[string]*Doc{}}
	var entries []IndexEntry
	for p := range fixtureNotes {
		s.docs[p] = fixtureDocs[p]
		e := IndexEntry{Path: p}
		if d := fixtureDocs[p]; d != nil {
			e.Aliases = d.Meta.Aliases
		}
		entries = append(entries, e)
	}
	s.docs[page] = testEngine().ParseText(page, input)
	entries = append(entries, IndexEntry{Path: page, Aliases: s.docs[page].Meta.Aliases})
	s.ix = NewNameIndex(entries)
	return s
}

func (s *fakeSite) Resolve(from *Doc, l *Link) Target {
	var p string
	if l.Target == "" {
		p = from.Path
	} else {
		var ok bool
		if p, ok = s.ix.Lookup(from.Path, l.Target); !ok {
			return Target{Broken: true}
		}
	}
	d := s.docs[p]
	if d != nil && d.Meta.Private {
		return Target{Plain: true}
	}
	t := Target{Doc: d, Path: p}
	if d != nil && l.Fragment != "" {
		if a, ok := d.Anchor(l.Fragment); ok {
			t.Anchor = a
		} else if l.Target == "" {
			return Target{Broken: true}
		}
	}
	return t
}

// Href makes page-relative URLs: notes become .html pages, every path
// segment is escaped.
func (s *fakeSite) Href(from *Doc, t Target) string {
	frag := ""
	if t.Anchor != "" {
		frag = "#" + url.PathEscape(t.Anchor)
	}
	if t.Path == from.Path && frag != "" {
		return frag
	}
	target := t.Path
	if strings.HasSuffix(target, ".md") {
		target = strings.TrimSuffix(target, ".md") + ".html"
	}
	return relURL(path.Dir(from.Path), target) + frag
}

func (s *fakeSite) TagHref(from *Doc, tag string) string {
	return relURL(path.Dir(from.Path), "tags/"+tag+".html")
}

func relURL(fromDir, target string) string {
	up := ""
	if fromDir != "." {
		up = strings.Repeat("../", strings.Count(fromDir, "/")+1)
	}
	segs := strings.Split(target, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return up + strings.Join(segs, "/")
}
