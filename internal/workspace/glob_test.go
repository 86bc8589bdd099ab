package workspace

import "testing"

func TestMatchGlob(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"drafts/**", "drafts", true},
		{"drafts/**", "drafts/a.md", true},
		{"drafts/**", "drafts/x/y/z.md", true},
		{"drafts/**", "notes/drafts/a.md", false},
		{"drafts", "notes/drafts/a.md", true}, // no slash: any depth
		{"drafts/", "drafts/a.md", true},
		{"*.tmp.md", "deep/in/x.tmp.md", true},
		{"*.tmp.md", "x.md", false},
		{"/notes/old.md", "notes/old.md", true},
		{"/notes/old.md", "a/notes/old.md", false},
		{"memory/**/scratch.md", "memory/scratch.md", true},
		{"memory/**/scratch.md", "memory/a/b/scratch.md", true},
		{"memory/*/x.md", "memory/a/b/x.md", false},
		{"**/*.bak", "a/b.bak", true},
		{"memory/2026-0?-*.md", "memory/2026-04-01.md", true},
		{"[bad", "bad", false},
		{"", "x", false},
	}
	for _, c := range cases {
		if got := MatchGlob(c.pattern, c.path); got != c.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
	if ValidGlob("[bad") || !ValidGlob("memory/**/x") {
		t.Error("ValidGlob")
	}
}
