package site

import "testing"

func TestEscapePath_EscapesOnlyWhatAURLPathCannotHold(t *testing.T) {
	for in, want := range map[string]string{
		"notes/note-1.html":      "notes/note-1.html",
		"notes/a b.html":         "notes/a%20b.html",
		"a#b?c%d.html":           "a%23b%3Fc%25d.html",
		"日本語/メモ.html":            "日本語/メモ.html",
		"x/\"<y>\".md":           "x/%22%3Cy%3E%22.md",
		"people/o'brien(1).html": "people/o'brien(1).html",
		"":                       "",
	} {
		if got := escapePath(in); got != want {
			t.Errorf("escapePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNavRel_IsTheShortestRelativeURL(t *testing.T) {
	for _, c := range []struct{ dir, target, want string }{
		{"", "a/index.html", "a/index.html"},
		{"a/b", "a/b/x.html", "x.html"},
		{"a/b", "a/index.html", "../index.html"},
		{"a/b", "c/index.html", "../../c/index.html"},
		{"a/b", "a/b/c/index.html", "c/index.html"},
		{"a", "index.html", "../index.html"},
	} {
		if got := navRel(c.dir, c.target); got != c.want {
			t.Errorf("navRel(%q, %q) = %q, want %q", c.dir, c.target, got, c.want)
		}
	}
}
