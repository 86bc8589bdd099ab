package markdown

import (
	"slices"
	"testing"
)

func TestNameIndex_Lookup(t *testing.T) {
	ix := NewNameIndex([]IndexEntry{
		{Path: "MEMORY.md"},
		{Path: "notes/Alpha.md", Aliases: []string{"First Letter", "A"}},
		{Path: "notes/Beta.md"},
		{Path: "x/Same.md"},
		{Path: "y/Same.md"},
		{Path: "deep/er/Same.md"},
		{Path: "a/Dup.md"},
		{Path: "bb/Dup.md"},
		{Path: "folder/Sibling.md"},
		{Path: "folder/sub/Child.md"},
		{Path: "attachments/diagram.png"},
		{Path: "image.png.md"},
		{Path: "v1.2 notes.md"},
		{Path: "café.md"},
		{Path: "日本語.md"},
		{Path: "sources/daily/2026-04-14.md", AltPaths: []string{"memory/2026-04-14.md"}},
		{Path: "Clash.md", Aliases: []string{"Beta"}},
	})
	tests := []struct {
		name, from, target, want string
	}{
		{"exact path", "page.md", "notes/Beta.md", "notes/Beta.md"},
		{"exact path without .md", "page.md", "notes/Beta", "notes/Beta.md"},
		{"case-insensitive path", "page.md", "NOTES/beta", "notes/Beta.md"},
		{"leading slash is the root", "folder/page.md", "/notes/Beta", "notes/Beta.md"},
		{"backslashes", "page.md", `notes\Beta`, "notes/Beta.md"},
		{"name anywhere", "page.md", "Beta", "notes/Beta.md"},
		{"name with .md", "page.md", "beta.MD", "notes/Beta.md"},
		{"name beats alias", "page.md", "beta", "notes/Beta.md"},
		{"alias", "page.md", "first letter", "notes/Alpha.md"},
		{"relative ./", "folder/page.md", "./Sibling", "folder/Sibling.md"},
		{"relative ../", "folder/sub/page.md", "../Sibling", "folder/Sibling.md"},
		{"relative without ./ inside from's folder", "folder/page.md", "sub/Child", "folder/sub/Child.md"},
		{"ambiguous: same folder as from", "y/page.md", "Same", "y/Same.md"},
		{"ambiguous: shortest path, then bytes", "page.md", "Same", "x/Same.md"},
		{"ambiguous: shortest path", "page.md", "Dup", "a/Dup.md"},
		{"path suffix", "page.md", "er/Same", "deep/er/Same.md"},
		{"attachment needs its extension", "page.md", "attachments/diagram.png", "attachments/diagram.png"},
		{"attachment by name", "page.md", "diagram.png", "attachments/diagram.png"},
		{"exact before .md", "page.md", "image.png", "image.png.md"},
		{"dotted note name", "page.md", "v1.2 notes", "v1.2 notes.md"},
		{"unicode case", "page.md", "CAFÉ", "café.md"},
		{"unicode NFD spelling", "page.md", "cafe\u0301", "café.md"},
		{"non-latin", "page.md", "日本語", "日本語.md"},
		{"alt path", "page.md", "memory/2026-04-14.md", "sources/daily/2026-04-14.md"},
		{"alt path by name", "page.md", "2026-04-14", "sources/daily/2026-04-14.md"},
		{"root file", "notes/x.md", "MEMORY", "MEMORY.md"},
		{"dot segments inside the vault", "page.md", "notes/../notes/Beta", "notes/Beta.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ix.Lookup(tt.from, tt.target)
			if !ok || got != tt.want {
				t.Errorf("Lookup(%q, %q) = %q, %v; want %q", tt.from, tt.target, got, ok, tt.want)
			}
		})
	}

	notFound := []struct{ name, from, target string }{
		{"escapes the root", "page.md", "../../etc/passwd"},
		{"escapes the root from a folder", "folder/page.md", "../../MEMORY"},
		{"dot segments escaping", "page.md", "notes/../../MEMORY"},
		{"relative is only relative", "folder/page.md", "./Beta"},
		{"attachment without extension", "page.md", "attachments/diagram"},
		{"attachment name without extension", "page.md", "diagram"},
		{"missing", "page.md", "Nowhere"},
		{"empty", "page.md", "  "},
		{"rooted and missing", "page.md", "/Beta"},
		{"path suffix must match whole segments", "page.md", "r/Same"},
	}
	for _, tt := range notFound {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := ix.Lookup(tt.from, tt.target); ok {
				t.Errorf("Lookup(%q, %q) = %q; want not found", tt.from, tt.target, got)
			}
		})
	}

	var nilIndex *NameIndex
	if _, ok := nilIndex.Lookup("a.md", "b"); ok {
		t.Error("a nil index found something")
	}
}

// TestLinkKeys_AnEntryWithOtherKeysChangesNoLookup adds each entry to an
// index in turn and checks that every target whose keys (LinkKeys) are
// none of the entry's (EntryKeys) resolves as it did without it.
func TestLinkKeys_AnEntryWithOtherKeysChangesNoLookup(t *testing.T) {
	base := []IndexEntry{
		{Path: "notes/a.md"}, {Path: "notes/sub/b.md", Aliases: []string{"Bee"}},
		{Path: "topics/gateway.md", AltPaths: []string{"memory/gateway.md"}}, {Path: "img/pic.png"},
		{Path: "notes.md"}, {Path: "Café.md"},
	}
	extra := []IndexEntry{
		{Path: "notes/b.md"}, {Path: "a.md", Aliases: []string{"notes/a"}}, {Path: "x/notes.md"},
		{Path: "sub.md"}, {Path: "cafe\u0301.md"}, {Path: "img/pic.png.md"}, {Path: "gateway.md", Aliases: []string{"Bee"}},
	}
	targets := []string{"a", "notes/a", "b", "sub/b", "Bee", "bee", "gateway", "memory/gateway.md", "pic.png",
		"img/pic.png", "./a", "../a", "..", ".", "sub/..", "notes", "/notes", "Café", "café", "notes/sub", "x/../a"}
	froms := []string{"notes/n.md", "notes/sub/n.md", "n.md", "topics/t.md"}
	without := NewNameIndex(base)
	for _, e := range extra {
		with := NewNameIndex(append(append([]IndexEntry(nil), base...), e))
		names, aliases := EntryKeys(e)
		for _, target := range targets {
			tn, ta := LinkKeys(target)
			shared := slices.Contains(aliases, ta) || slices.Contains(tn, AnyName)
			for _, k := range tn {
				shared = shared || slices.Contains(names, k)
			}
			if shared {
				continue
			}
			for _, from := range froms {
				p1, ok1 := without.Lookup(from, target)
				p2, ok2 := with.Lookup(from, target)
				if p1 != p2 || ok1 != ok2 {
					t.Errorf("adding %+v changed %q from %s: %q -> %q, though their keys differ (%v %q / %v %v)",
						e, target, from, p1, p2, tn, ta, names, aliases)
				}
			}
		}
	}
}

func TestWorkspaceTarget_OnlyAWorkspaceNameQualifiesALink(t *testing.T) {
	for _, c := range []struct {
		target, name, rest string
		ok                 bool
	}{
		{"b:note", "b", "note", true},
		{"beta-2:topics/runbook", "beta-2", "topics/runbook", true},
		{" alpha:MEMORY ", "alpha", "MEMORY", true},
		{"note", "", "", false},
		{"Beta:note", "", "", false},      // names are lower case
		{"my notes:x", "", "", false},     // not a name
		{"b:", "", "", false},             // nothing inside
		{"-b:note", "", "", false},        // a name starts with a letter or digit
		{"10.0.0.12:8080", "", "", false}, // an address
	} {
		name, rest, ok := WorkspaceTarget(c.target)
		if name != c.name || rest != c.rest || ok != c.ok {
			t.Errorf("WorkspaceTarget(%q) = %q, %q, %v; want %q, %q, %v", c.target, name, rest, ok, c.name, c.rest, c.ok)
		}
	}
}
