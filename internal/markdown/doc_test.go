package markdown

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func parse(t *testing.T, path, src string) *Doc {
	t.Helper()
	d := testEngine().Parse(path, []byte(src))
	for _, dg := range d.Diagnostics {
		if dg.Code == "internal" {
			t.Fatalf("engine failure: %v", dg)
		}
	}
	return d
}

func TestParse_Links(t *testing.T) {
	src := "---\ntitle: T\n---\n" +
		"See [[Beta]] and [[notes/Alpha#Section One#Sub|the sub]].\n" +
		"`[[not a link]]` and [site](https://example.com) [top](#top)\n" +
		"![[diagram.png|300x200]] ![[Alpha#^intro]]\n" +
		"[local](other%20note.md#Some%20Heading) ![img](pics/a.png)\n" +
		"[[#Local heading]] %%[[hidden]]%% [[a\\|b]]\n"
	d := parse(t, "page.md", src)
	type row struct {
		Target, Fragment, Display string
		Embed, Wiki               bool
		W, H, Line                int
		Text                      string
	}
	var got []row
	for _, l := range d.Links {
		got = append(got, row{l.Target, l.Fragment, l.Display, l.Embed, l.Wiki, l.Width, l.Height, l.Line, string(d.Source[l.Start:l.End])})
	}
	want := []row{
		{"Beta", "", "Beta", false, true, 0, 0, 4, "[[Beta]]"},
		{"notes/Alpha", "Section One#Sub", "the sub", false, true, 0, 0, 4, "[[notes/Alpha#Section One#Sub|the sub]]"},
		{"diagram.png", "", "diagram.png", true, true, 300, 200, 6, "![[diagram.png|300x200]]"},
		{"Alpha", "^intro", "Alpha > ^intro", true, true, 0, 0, 6, "![[Alpha#^intro]]"},
		{"other note.md", "Some Heading", "local", false, false, 0, 0, 7, "[local](other%20note.md#Some%20Heading)"},
		{"pics/a.png", "", "img", true, false, 0, 0, 7, "![img](pics/a.png)"},
		{"", "Local heading", "Local heading", false, true, 0, 0, 8, "[[#Local heading]]"},
		{"a", "", "b", false, true, 0, 0, 8, "[[a\\|b]]"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links:\n got %+v\nwant %+v", got, want)
	}
	nodes := map[int]bool{}
	for _, i := range d.syn.linkAt {
		nodes[i] = true
	}
	for i, l := range d.Links {
		if !nodes[i] {
			t.Errorf("link %q has no node", l.Target)
		}
	}
}

func TestParse_Title(t *testing.T) {
	tests := []struct{ path, src, want string }{
		{"a/b/My Note.md", "---\ntitle: From Front Matter\n---\n# H1\n", "From Front Matter"},
		{"x.md", "Intro\n\n## Two\n\n# The H1 *styled*\n", "The H1 styled"},
		{"dir/File Name.md", "no headings", "File Name"},
		{"dir/File.MD", "", "File"},
		{"image.png", "", "image.png"},
	}
	for _, tt := range tests {
		if got := parse(t, tt.path, tt.src).Title; got != tt.want {
			t.Errorf("Title of %s = %q; want %q", tt.path, got, tt.want)
		}
	}
}

func TestParse_HeadingsAndLines(t *testing.T) {
	src := "---\na: 1\n---\n# One\n\ntext\n%%\nhidden\n%%\n## Two ^not-an-id\n\n## Two\n"
	d := parse(t, "p.md", src)
	want := []Heading{
		{Level: 1, Text: "One", ID: "one", Line: 4},
		{Level: 2, Text: "Two ^not-an-id", ID: "two-not-an-id", Line: 10},
		{Level: 2, Text: "Two", ID: "two", Line: 12},
	}
	if !reflect.DeepEqual(d.Headings, want) {
		t.Errorf("headings:\n got %+v\nwant %+v", d.Headings, want)
	}
	if d.BodyLine != 4 {
		t.Errorf("BodyLine = %d; want 4", d.BodyLine)
	}
}

func TestParse_FrontMatter(t *testing.T) {
	tr := true
	tests := []struct {
		name, src string
		want      FrontMatter
		diagLine  int // 0: no diagnostic
		diagMsg   string
	}{
		{
			name: "typed fields",
			src:  "---\ntitle: ' Spaced '\naliases: Solo\ntags: '#a, b  c'\ndate: 2026-01-02 10:00\npublish: yes\n---\n",
			want: FrontMatter{Present: true, Title: "Spaced", Aliases: []string{"Solo"}, Tags: []string{"a", "b", "c"},
				Date: "2026-01-02", Publish: &tr, Keys: []string{"title", "aliases", "tags", "date", "publish"},
				Privacy: []PrivacyKey{{Key: "publish", Line: 6, Value: "yes"}}},
		},
		{
			name: "lists and case-insensitive duplicate tags",
			src:  "---\naliases: [One, One, Two]\ntags: [Work, work, '#x/y/']\ncreated: 2026-04-14T23:30:00-05:00\n---\n",
			want: FrontMatter{Present: true, Aliases: []string{"One", "Two"}, Tags: []string{"Work", "x/y"},
				Created: "2026-04-14", Keys: []string{"aliases", "tags", "created"}},
		},
		{
			name:     "broken YAML reports the file line",
			src:      "---\ntitle: ok\nlist:\n  - a\n - b\n---\nbody\n",
			want:     FrontMatter{Present: true},
			diagLine: 4, // where yaml places it: the list the bad item breaks
			diagMsg:  "front matter is not valid YAML (did not find expected key)",
		},
		{
			name:     "tab indentation",
			src:      "---\ntitle: x\n\tbad: tab\n---\n",
			want:     FrontMatter{Present: true},
			diagLine: 3,
			diagMsg:  "front matter is not valid YAML",
		},
		{
			name:     "unclosed",
			src:      "---\ntitle: x\n",
			want:     FrontMatter{},
			diagLine: 1,
			diagMsg:  "front matter is not closed",
		},
		{
			name: "bad values are ignored, not fatal",
			src:  "---\ndate: someday\npublish: maybe\ntitle: [a, b]\n---\n",
			want: FrontMatter{Present: true, Keys: []string{"date", "publish", "title"},
				Privacy: []PrivacyKey{{Key: "publish", Line: 3, Value: "maybe"}}},
		},
		{
			name: "BOM and CRLF",
			src:  "\uFEFF---\r\ntitle: Win\r\n---\r\nbody\r\n",
			want: FrontMatter{Present: true, Title: "Win", Keys: []string{"title"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := parse(t, "n.md", tt.src)
			got := d.Meta
			got.Fields = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("front matter:\n got %+v\nwant %+v", got, tt.want)
			}
			if tt.diagLine == 0 {
				if len(d.Diagnostics) != 0 {
					t.Errorf("unexpected diagnostics: %v", d.Diagnostics)
				}
				return
			}
			if len(d.Diagnostics) != 1 {
				t.Fatalf("diagnostics = %v; want one", d.Diagnostics)
			}
			dg := d.Diagnostics[0]
			if dg.Code != "frontmatter" || dg.Line != tt.diagLine || !strings.Contains(dg.Message, tt.diagMsg) || dg.File != "n.md" || dg.Hint == "" {
				t.Errorf("diagnostic = %+v; want frontmatter at line %d containing %q", dg, tt.diagLine, tt.diagMsg)
			}
		})
	}
}

func TestParse_FrontMatterFields(t *testing.T) {
	d := parse(t, "n.md", "---\nnested: {a: [1, 2]}\nwhen: 2026-04-14\nn: 3\n---\n")
	want := map[string]any{
		"nested": map[string]any{"a": []any{1, 2}},
		"when":   "2026-04-14", // dates as YYYY-MM-DD strings, not time.Time
		"n":      3,
	}
	if !reflect.DeepEqual(d.Meta.Fields, want) {
		t.Errorf("Fields = %#v; want %#v", d.Meta.Fields, want)
	}
}

func TestParse_NoFrontMatterBodyLineIsOne(t *testing.T) {
	d := parse(t, "n.md", "text ^a\n")
	if d.BodyLine != 1 || d.Meta.Present || len(d.BlockIDs) != 1 || d.BlockIDs[0].Line != 1 {
		t.Errorf("BodyLine=%d Present=%v BlockIDs=%v", d.BodyLine, d.Meta.Present, d.BlockIDs)
	}
}

func TestDoc_Anchor(t *testing.T) {
	d := parse(t, "n.md", `# Top
## Setup: the basics
### Install
## Usage
### Install
## Usage
Para ^Block-1
`)
	tests := []struct {
		fragment, want string
		ok             bool
	}{
		{"", "", true},
		{"Top", "top", true},
		{"top", "top", true},
		{"Setup: the basics", "setup-the-basics", true},
		{"setup the basics", "setup-the-basics", true}, // Obsidian drops ':' in links
		{"SETUP-THE-BASICS", "setup-the-basics", true},
		{"Install", "install", true},
		{"Usage#Install", "install-1", true},
		{"Top#Usage#Install", "install-1", true},
		{"Setup: the basics#Install", "install", true},
		{"usage-1", "usage-1", true},
		{"^block-1", "^Block-1", true},
		{"^BLOCK-1", "^Block-1", true},
		{" Usage # Install ", "install-1", true},
		{"Install#Usage", "", false}, // Usage is not inside Install
		{"Nowhere", "", false},
		{"^nope", "", false},
	}
	for _, tt := range tests {
		got, ok := d.Anchor(tt.fragment)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Anchor(%q) = %q, %v; want %q, %v", tt.fragment, got, ok, tt.want, tt.ok)
		}
	}
}

func TestDoc_PlainText(t *testing.T) {
	d := parse(t, "n.md", "---\ntitle: x\n---\n"+
		"# Title *here*\n\n"+
		"Text with **bold**, a [[Beta|link]], [[Gamma#H]], #tag and ==mark==. %%secret%%\n"+
		"Entity &amp; escape \\* and <b>raw</b> <!-- gone -->\n\n"+
		"> [!note] Callout title\n> Body ^blk\n\n"+
		"- [x] task\n- item\n\n"+
		"```go\nfmt.Println(\"code kept\")\n```\n\n"+
		"| a | b |\n|---|---|\n| 1 | 2 |\n\n"+
		"![alt text](x.png) ![[Embedded]]\n\n"+
		"Footnote[^1].\n\n[^1]: The note.\n")
	want := "Title here\n" +
		"Text with bold, a link, Gamma > H, #tag and mark.\n" +
		"Entity & escape * and raw \n" +
		"Callout title\n" +
		"Body\n" +
		"task\n" +
		"item\n" +
		"fmt.Println(\"code kept\")\n" +
		"a b \n" +
		"1 2 \n" +
		"alt text \n" +
		"Footnote.\n" +
		"The note."
	if got := d.PlainText(); got != want {
		t.Errorf("PlainText:\n%q\nwant\n%q", got, want)
	}
	var empty *Doc
	if empty.PlainText() != "" {
		t.Error("nil Doc has text")
	}
}

func TestRewriteLinks(t *testing.T) {
	src := "---\nx: 1\n---\nSee [[Beta|b]] and ![[img.png|20]], [m](My%20Note.md) and [[Keep]].\n[![inner](a.png)](outer.md)\n"
	d := parse(t, "n.md", src)
	out := RewriteLinks(d, func(l *Link) (string, bool) {
		switch {
		case l.Target == "Keep":
			return "", false
		case l.Embed && l.Wiki:
			return fmt.Sprintf("![](%s)", l.Target), true
		case l.Wiki:
			return fmt.Sprintf("[%s](%s.md)", l.Display, l.Target), true
		case l.Target == "outer.md":
			return "[OUTER](o.md)", true
		default:
			return fmt.Sprintf("[%s](<%s>)", l.Display, l.Target), true
		}
	})
	want := "See [b](Beta.md) and ![](img.png), [m](<My Note.md>) and [[Keep]].\n[OUTER](o.md)\n"
	if string(out) != want {
		t.Errorf("RewriteLinks:\n%q\nwant\n%q", out, want)
	}
	if !bytes.HasPrefix(d.Source, []byte("See [[Beta|b]]")) {
		t.Error("RewriteLinks changed Source")
	}
	// Offering nothing returns the source unchanged.
	if same := RewriteLinks(d, func(*Link) (string, bool) { return "", false }); !bytes.Equal(same, d.Source) {
		t.Errorf("no-op rewrite = %q", same)
	}
	if RewriteLinks(nil, nil) != nil {
		t.Error("nil doc")
	}
}

func TestRewriteLinks_InnerLinkWhenOuterKept(t *testing.T) {
	d := parse(t, "n.md", "[![inner](a.png)](outer.md)")
	out := RewriteLinks(d, func(l *Link) (string, bool) {
		if l.Target == "a.png" {
			return "![inner](b.png)", true
		}
		return "", false
	})
	if string(out) != "[![inner](b.png)](outer.md)" {
		t.Errorf("got %q", out)
	}
}

func TestParse_Tags(t *testing.T) {
	d := parse(t, "n.md", "---\ntags: [Work]\n---\n#work #Home `#code` #home #x/y\n")
	if want := []string{"Work", "Home", "x/y"}; !reflect.DeepEqual(d.Tags, want) {
		t.Errorf("Tags = %q; want %q", d.Tags, want)
	}
}

func TestParse_CommentsInSource(t *testing.T) {
	d := parse(t, "n.md", "a %%b%% c\r\n%%x\r\ny%%\r\n`%%k%%`\r\n")
	if want := "a  c\n\n\n`%%k%%`\n"; string(d.Source) != want {
		t.Errorf("Source = %q; want %q", d.Source, want)
	}
}

func TestStripComments(t *testing.T) {
	tests := []struct{ in, want string }{
		{"no comments", "no comments"},
		{"a %%b%% c", "a  c"},
		{"%%a\nb%%c", "\nc"},
		{"`%%a%%` %%b%%", "`%%a%%` "},
		{"``x `%%` y`` %%z%%", "``x `%%` y`` "},
		{"`unclosed %%c%%", "`unclosed "},
		{"`a\nb %%c%%`", "`a\nb %%c%%`"},
		{"`a\n\nb` %%c%%", "`a\n\nb` "},
		{"\\%%a%%", "\\%%a%%"}, // the escaped '%' leaves "%a%%": an unclosed %%
		{"```\n%%k%%\n```\n%%g%%", "```\n%%k%%\n```\n"},
		{"~~~~\n%%k%%\n~~~\n%%k%%\n~~~~\n%%g%%", "~~~~\n%%k%%\n~~~\n%%k%%\n~~~~\n"},
		{"> ```\n> %%k%%\n> ```\n", "> ```\n> %%k%%\n> ```\n"},
		{"- item\n\n    %%in list%%", "- item\n\n    "},
		{"p\n\n    %%code%%\n\n%%g%%", "p\n\n    %%code%%\n\n"},
		{"50%% off", "50%% off"},
		{"%%%%", ""},
		{"%%\n\n%%after", "\n\nafter"},
	}
	for _, tt := range tests {
		if got := string(stripComments([]byte(tt.in), false)); got != tt.want {
			t.Errorf("stripComments(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestRenderHTML_Concurrent renders notes that embed each other from many
// goroutines at once; run with -race. Every render must equal the serial
// one.
func TestRenderHTML_Concurrent(t *testing.T) {
	site := newFakeSite("page.md", "# Page\n\n![[cycle/A]]\n\n![[notes/Alpha#Section One]] [[Beta]] #tag\n")
	paths := []string{"page.md", "cycle/A.md", "cycle/B.md", "notes/Alpha.md", "notes/Beta.md", "deep/1.md"}
	want := map[string]string{}
	for _, p := range paths {
		var b bytes.Buffer
		if err := testEngine().RenderHTML(&b, site.docs[p], site); err != nil {
			t.Fatal(err)
		}
		want[p] = b.String()
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				p := paths[(g+i)%len(paths)]
				var b bytes.Buffer
				if err := testEngine().RenderHTML(&b, site.docs[p], site); err != nil {
					errs <- err
					return
				}
				if b.String() != want[p] {
					errs <- fmt.Errorf("%s rendered differently under concurrency", p)
					return
				}
				_ = site.docs[p].PlainText()
			}
		}(g)
	}
	// Parsing concurrently with the same engine is safe too.
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				testEngine().Parse("x.md", []byte(fixtureNotes["notes/Alpha.md"]))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestRenderHTML_NilContextRendersText(t *testing.T) {
	d := parse(t, "n.md", "[[Beta]] ![[Alpha]] [x](y.md) #tag ![i](p.png)")
	var b bytes.Buffer
	if err := New().RenderHTML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	// The paragraph holds a note embed, so it has no <p> (see
	// renderParagraph), even when the embed renders as text.
	want := "Beta Alpha x <span class=\"tag\">#tag</span> i"
	if b.String() != want {
		t.Errorf("got %q; want %q", b.String(), want)
	}
	if err := New().RenderHTML(&b, nil, nil); err != nil {
		t.Errorf("nil doc: %v", err)
	}
}

func TestRenderHTML_WriterError(t *testing.T) {
	d := parse(t, "n.md", strings.Repeat("Some text.\n\n", 2000))
	err := testEngine().RenderHTML(failingWriter{}, d, nil)
	if err == nil {
		t.Error("a failing writer produced no error")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }

func TestHighlightCSS(t *testing.T) {
	css := HighlightCSS("github", "github-dark")
	for _, want := range []string{
		".chroma .k {",
		"@media (prefers-color-scheme: dark) {",
		":root:not([data-theme=light]) .chroma .k {",
		"[data-theme=dark] .chroma .k {",
	} {
		if !strings.Contains(css, want) {
			t.Errorf("HighlightCSS lacks %q", want)
		}
	}
	if strings.Contains(css, ".bg ") || strings.Contains(css, "/* Keyword */") {
		t.Error("HighlightCSS kept chroma's standalone rules or comments")
	}
	if HighlightCSS("github", "github-dark") != css {
		t.Error("HighlightCSS is not deterministic")
	}
}

func TestHeadingIDs_Unique(t *testing.T) {
	var ids headingIDs
	var got []string
	for _, base := range []string{"a", "a-1", "a", "a", "", ""} {
		got = append(got, ids.unique(base))
	}
	want := []string{"a", "a-1", "a-2", "a-3", "section", "section-1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ids = %q; want %q", got, want)
	}
}
