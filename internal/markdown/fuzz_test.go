package markdown

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes the engine panic or emit active
// content: Parse, RenderHTML (through the fixture vault, so links and
// embeds resolve), PlainText, Anchor and RewriteLinks all run on it.
//
//	go test -run=^$ -fuzz=FuzzParse -fuzztime=10s ./internal/markdown
func FuzzParse(f *testing.F) {
	for _, c := range readCases(f) {
		f.Add(c.input)
	}
	for _, src := range fixtureNotes {
		f.Add(src)
	}
	f.Add(benchNote)
	f.Add("[[a#b#c|d]] ![[x#^y|1x2]] > [!tip]- t\n> b ^id\n\n%%c\n%% ==m== #t")
	f.Add("<SCRIPT>x</SCRIPT><scr<script>ipt> [a](<javascript\n:x>) ![b](  JAVASCRIPT:x)")
	f.Add("`` ` %% `` %% \n\n```\n%%\n")
	f.Add("---\n: [\n---\n# h\n")
	f.Add("\xEF\xBB\xBF# BOM\r\nline %%gone%% kept\r\rlast\r\n")
	e := testEngine()
	f.Fuzz(func(t *testing.T, input string) {
		// ParseText shares the string's bytes with the Doc (no copy):
		// nothing below may write to them. src is a copy on the heap, so
		// a write is reported here rather than faulting on a literal.
		src := strings.Clone(input)
		defer func() {
			if src != input {
				t.Fatalf("parsing or rendering wrote into the note's string: %q became %q", input, src)
			}
		}()
		site := newFakeSite("page.md", src)
		d := site.docs["page.md"]
		for _, dg := range d.Diagnostics {
			if dg.Code == "internal" {
				t.Fatalf("engine failure: %v", dg)
			}
		}
		var b bytes.Buffer
		if err := e.RenderHTML(&b, d, site); err != nil {
			t.Fatalf("RenderHTML: %v", err)
		}
		out := strings.ToLower(b.String())
		if strings.Contains(out, "<script") {
			t.Fatalf("output contains <script:\n%s", b.String())
		}
		flat := strings.NewReplacer("\t", "", "\n", "", "\r", "", " ", "").Replace(out)
		for _, bad := range []string{`href="javascript:`, `src="javascript:`, `href="vbscript:`, `href="data:`, `src="data:`} {
			if strings.Contains(flat, bad) {
				t.Fatalf("output contains %s:\n%s", bad, b.String())
			}
		}
		_ = d.PlainText()
		for _, h := range d.Headings {
			if strings.HasPrefix(strings.TrimSpace(h.Text), "^") {
				continue // reads as a block id
			}
			if _, ok := d.Anchor(h.Text); !ok {
				t.Errorf("heading %q does not resolve as an anchor", h.Text)
			}
		}
		for _, l := range d.Links {
			if l.Start < 0 || l.Start > l.End || l.End > len(d.Source) {
				t.Fatalf("link %+v has a bad span for a source of %d bytes", l, len(d.Source))
			}
			d.Anchor(l.Fragment)
		}
		_ = RewriteLinks(d, func(l *Link) (string, bool) { return "[x](y)", true })
	})
}

// FuzzFrontMatter feeds arbitrary YAML between front matter fences: it
// must never panic, and every diagnostic must point inside the block.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{
		"title: x", "tags: a, b", "tags: [a, '#b']", "bad: key: value", "a:\n  - b\n - c",
		"date: 2026-04-14T10:00:00Z", "publish: maybe", "&a [*a]", "? [a]\n: b", "\t: x",
		"aliases: !!binary aGk=", "x: *unknown", "{a: 1, a: 2}", "- 1\n- 2", "a: !!timestamp nope",
	} {
		f.Add(s)
	}
	e := testEngine()
	f.Fuzz(func(t *testing.T, yml string) {
		src := "---\n" + yml + "\n---\nbody\n"
		d := e.Parse("n.md", []byte(src))
		norm, _ := normalizeNewlines([]byte(src), false)
		lines := strings.Count(string(norm), "\n") + 1
		for _, dg := range d.Diagnostics {
			if dg.Code == "internal" {
				t.Fatalf("engine failure: %v", dg)
			}
			if dg.Line < 1 || dg.Line > lines {
				t.Errorf("diagnostic line %d outside the file's %d lines: %v", dg.Line, lines, dg)
			}
		}
		_ = normalizeDate(yml)
	})
}
