package build

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/output"
)

// TestSession_TwinsOnlyWritesTheSitesTwinsAndAPIAndNoHTML is what
// dreamwiki mcp builds: the Markdown twins and api/ of the whole site,
// byte for byte, after the first build and after edits, and nothing
// else: no HTML page, asset, search index or feed. What is private stays
// out and secrets stay redacted, as on the site.
func TestSession_TwinsOnlyWritesTheSitesTwinsAndAPIAndNoHTML(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo site twice")
	}
	dir := demoDir(t)
	write(t, dir, "notes/hidden.md", "---\nprivate: true\n---\n# Hidden\n\nThe quokkaflux plan, see [[scratch]].\n")
	write(t, dir, "notes/token.md", "# Token\n\nThe deploy bot uses ghp_Zq8rT4vW2xY6uB9nC3mK7pL5sD1fG0hJ8aE2 for the repo. See [[alpha]].\n")
	never := []string{"quokkaflux", "ghp_Zq8rT4vW2xY6uB9nC3mK7pL5sD1fG0hJ8aE2", "hidden.md"}

	whole, wholeSite := openWith(t, Options{Workspace: dir})
	twins, twinsSite := openWith(t, Options{Workspace: dir, TwinsOnly: true})
	check := func(when string) {
		t.Helper()
		wholeSite.settle(t, whole)
		twinsSite.settle(t, twins)
		want := served{}
		for name, b := range wholeSite {
			if agentFile(name) {
				want[name] = b
			}
		}
		if len(want) < 20 || want["api/pages.json"] == nil || want["api/claims.json"] == nil {
			t.Fatalf("%s: the whole site has only %d twins and api/ files", when, len(want))
		}
		for name, b := range twinsSite {
			if !agentFile(name) {
				t.Errorf("%s: a twins-only session wrote %s", when, name)
			}
			for _, w := range never {
				if bytes.Contains(b, []byte(w)) {
					t.Errorf("%s: %s holds %q", when, name, w)
				}
			}
		}
		if d := siteDiff(twinsSite, want); d != "" {
			t.Errorf("%s: the twins and api/ differ from the whole site's:\n%s", when, d)
		}
	}
	check("first build")

	edit(t, dir, "notes/scratch.md", "A note that links", "A note, edited, that links")
	write(t, dir, "notes/gamma.md", "# Gamma\n\nLinks [[beta]] and [[token]].\n")
	for _, s := range []struct {
		s  *Session
		sv served
	}{{whole, wholeSite}, {twins, twinsSite}} {
		s.sv.update(t, s.s, []string{"notes/scratch.md", "notes/gamma.md"})
	}
	check("after an edit and a new note")
	if !bytes.Contains(twinsSite["notes/gamma.md"], []byte("[token](../notes/token.md)")) {
		t.Errorf("the new note's twin does not link the other twin:\n%s", twinsSite["notes/gamma.md"])
	}
}

// agentFile reports whether a site file is one agents read.
func agentFile(name string) bool {
	return strings.HasSuffix(name, ".md") || name == "api/pages.json" || name == "api/claims.json"
}

// openWith opens a session with opts and keeps its first render, as
// serve mode does.
func openWith(t *testing.T, opts Options) (*Session, served) {
	t.Helper()
	w := output.NewMemory()
	s, ch, err := Open(context.Background(), opts, w)
	if err != nil {
		t.Fatal(err)
	}
	sv := served{}
	sv.apply(w, ch.Site)
	return s, sv
}
