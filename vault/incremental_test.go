package vault

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
)

// baseInputs is a small vault with links, an embed, an anchor link, an
// alias, a broken link and an asset link.
func baseInputs() []Input {
	return []Input{
		{Path: "index.md", Kind: KindIndex, Source: "MEMORY.md", Text: "# Memory\n\n- Host: see [[gateway#Hardware]]\n- ![[gateway#Hardware]]\n- [[missing]]\n"},
		{Path: "topics/gateway.md", Kind: KindTopic, Source: "memory/gateway.md", Text: "---\naliases: [GW]\n---\n# Gateway\n\n## Hardware\n\nA NUC. ![[photo.png]]\n"},
		{Path: "topics/dns.md", Kind: KindTopic, Source: "memory/dns.md", Text: "# DNS\n\nServed by [[GW]] and [[gateway]].\n"},
		{Path: "sources/daily/2026-04-12.md", Kind: KindDaily, Source: "memory/2026-04-12.md", Date: "2026-04-12", Text: "- Moved DNS, see [[dns]] #infra\n"},
		{Path: "notes/other.md", Kind: KindNote, Source: "notes/other.md", Text: "# Other\n\nNothing links here.\n"},
	}
}

func baseAssets() []*Asset {
	return []*Asset{{Path: "photo.png", Source: "photo.png", Size: 3, Hash: "abc"}}
}

func withText(in []Input, path, text string) []Input {
	out := append([]Input(nil), in...)
	for i := range out {
		if out[i].Path == path {
			out[i].Text = text
		}
	}
	return out
}

func without(in []Input, path string) []Input {
	var out []Input
	for _, x := range in {
		if x.Path != path {
			out = append(out, x)
		}
	}
	return out
}

// TestUpdate_EqualsBuild applies one change after another through Update
// and checks each result against a fresh Build of the same inputs.
func TestUpdate_EqualsBuild(t *testing.T) {
	steps := []struct {
		name   string
		change func([]Input) []Input
		names  bool // the change is expected to touch names
	}{
		{"edit a body", func(in []Input) []Input {
			return withText(in, "notes/other.md", "# Other\n\nStill nothing. Now a [[dns]] link.\n")
		}, false},
		{"rename the heading an anchor points to", func(in []Input) []Input {
			return withText(in, "topics/gateway.md", "---\naliases: [GW]\n---\n# Gateway\n\n## Hosts\n\nA NUC.\n")
		}, false},
		{"restore the heading", func(in []Input) []Input {
			return withText(in, "topics/gateway.md", "---\naliases: [GW]\n---\n# Gateway\n\n## Hardware\n\nA Mac mini.\n")
		}, false},
		{"broken front matter", func(in []Input) []Input {
			return withText(in, "topics/dns.md", "---\ntitle: [unclosed\n---\n# DNS\n\nServed by [[GW]].\n")
		}, false},
		{"a new note resolves a broken link", func(in []Input) []Input {
			return append(in, Input{Path: "notes/missing.md", Kind: KindNote, Source: "notes/missing.md", Text: "# Missing no more\n"})
		}, true},
		{"remove a linked note", func(in []Input) []Input { return without(in, "topics/dns.md") }, true},
		{"change an alias", func(in []Input) []Input {
			return withText(in, "topics/gateway.md", "---\naliases: [Router]\n---\n# Gateway\n\n## Hardware\n\nA Mac mini.\n")
		}, true},
		{"make a note private", func(in []Input) []Input {
			out := append([]Input(nil), in...)
			for i := range out {
				if out[i].Path == "notes/other.md" {
					out[i].Private = true
				}
			}
			return out
		}, false},
		{"a duplicate path", func(in []Input) []Input {
			return append(in, Input{Path: "notes/other.md", Kind: KindNote, Source: "notes/Other.md", Text: "# Twin\n"})
		}, true},
		{"nothing changed", func(in []Input) []Input { return append([]Input(nil), in...) }, false},
	}
	eng := markdown.New()
	inputs := baseInputs()
	v := Build(eng, inputs, baseAssets(), nil)
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			inputs = s.change(inputs)
			got, d := v.Update(eng, inputs, baseAssets(), nil)
			want := Build(eng, inputs, baseAssets(), nil)
			if msg := vaultDiff(got, want); msg != "" {
				t.Fatalf("Update differs from Build: %s", msg)
			}
			if d.Names != s.names {
				t.Errorf("Delta.Names = %v, want %v", d.Names, s.names)
			}
			v = got
		})
	}
}

// TestUpdate_KeepsUnchangedNotes checks that an edit parses one note and
// reports as relinked only the notes whose links now land elsewhere.
func TestUpdate_KeepsUnchangedNotes(t *testing.T) {
	eng := markdown.New()
	inputs := baseInputs()
	v := Build(eng, inputs, baseAssets(), nil)
	before := map[string]*Note{}
	for _, n := range v.Notes {
		before[n.Path] = n
	}
	// index.md links to the heading; topics/dns.md links to the note.
	inputs = withText(inputs, "topics/gateway.md", "---\naliases: [GW]\n---\n# Gateway\n\n## Hosts\n\nA NUC.\n")
	got, d := v.Update(eng, inputs, baseAssets(), nil)
	if len(d.Changed) != 1 || d.Changed[0].Path != "topics/gateway.md" {
		t.Fatalf("Changed = %v, want topics/gateway.md", notePaths(d.Changed))
	}
	if got, want := notePaths(d.Relinked), []string{"index.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Relinked = %v, want %v", got, want)
	}
	for _, n := range got.Notes {
		if n.Path != "topics/gateway.md" && before[n.Path] != n {
			t.Errorf("%s was made again", n.Path)
		}
	}
}

func notePaths(ns []*Note) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Path)
	}
	return out
}

// vaultDiff describes how a differs from b, "" when they are alike in
// everything a vault exposes.
func vaultDiff(a, b *Vault) string {
	if got, want := notePaths(a.Notes), notePaths(b.Notes); !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("notes %v, want %v", got, want)
	}
	for i, n := range a.Notes {
		m := b.Notes[i]
		if n.Kind != m.Kind || n.Source != m.Source || n.Title != m.Title || n.Date != m.Date || n.Private != m.Private || n.from != m.from {
			return fmt.Sprintf("%s: fields %+v, want %+v", n.Path, *n, *m)
		}
		if !reflect.DeepEqual(n.Props, m.Props) {
			return fmt.Sprintf("%s: props %v, want %v", n.Path, n.Props, m.Props)
		}
		if string(n.Doc.Source) != string(m.Doc.Source) || !reflect.DeepEqual(n.Doc.Diagnostics, m.Doc.Diagnostics) {
			return n.Path + ": parse differs"
		}
		if got, want := resolutions(n), resolutions(m); got != want {
			return fmt.Sprintf("%s: links %s, want %s", n.Path, got, want)
		}
		for j, l := range n.Doc.Links {
			r, ok := a.Resolution(l)
			if !ok || r.Link != l || !reflect.DeepEqual(r, n.Links[j]) {
				return fmt.Sprintf("%s: Resolution of link %d is not its note's", n.Path, j)
			}
		}
		if got, want := notePaths(a.Backlinks(n)), notePaths(b.Backlinks(m)); !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("%s: backlinks %v, want %v", n.Path, got, want)
		}
		if a.Note(n.Path) != n || a.NoteOf(n.Doc) != n {
			return n.Path + ": not indexed"
		}
	}
	for t, srcs := range a.backlinks {
		if a.Note(t.Path) != t {
			return fmt.Sprintf("backlinks keep %s, which is not in the vault", t.Path)
		}
		for _, s := range srcs {
			if a.Note(s.Path) != s {
				return fmt.Sprintf("backlinks of %s keep %s, which is not in the vault", t.Path, s.Path)
			}
		}
	}
	if len(a.links) != len(b.links) {
		return fmt.Sprintf("%d resolutions indexed, want %d", len(a.links), len(b.links))
	}
	if !reflect.DeepEqual(a.Diagnostics, b.Diagnostics) {
		return fmt.Sprintf("diagnostics\n%v\nwant\n%v", a.Diagnostics, b.Diagnostics)
	}
	for _, q := range []string{"gateway", "GW", "Router", "dns", "missing", "photo.png", "other"} {
		p1, ok1 := a.Names.Lookup("MEMORY.md", q)
		p2, ok2 := b.Names.Lookup("MEMORY.md", q)
		if p1 != p2 || ok1 != ok2 {
			return fmt.Sprintf("name %q resolves to %q, want %q", q, p1, p2)
		}
	}
	return ""
}

// resolutions prints where a note's links point.
func resolutions(n *Note) string {
	var parts []string
	for _, r := range n.Links {
		s := "broken"
		switch {
		case r.Note != nil:
			s = "note:" + r.Note.Path
		case r.Asset != nil:
			s = "asset:" + r.Asset.Path
		}
		if r.Broken {
			s += "(broken)"
		}
		parts = append(parts, s+"#"+r.Anchor)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
