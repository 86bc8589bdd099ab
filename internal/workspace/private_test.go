package workspace

import (
	"testing/fstest"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// privateWorkspace has a private file of every kind the rule knows, and
// public files that look close to private ones.
const privateWorkspace = `
-- dreamwiki.toml --
private = ["notes/secret-*.md", "[bad"]
-- MEMORY.md --
- Health is in [[health]].
-- memory/private/health.md --
# Health
- physio on Tuesdays
-- Notes/PRIVATE/x.md --
x
-- notes/private/photo.png --
png
-- notes/secret-plans.md --
plans
-- notes/fm-private.md --
---
private: true
---
x
-- notes/fm-publish.md --
---
publish: no
---
x
-- notes/fm-broken.md --
---
title: [unclosed
private: true
---
x
-- notes/fm-unclosed.md --
---
publish: false
x
-- notes/published.md --
---
publish: true
private: false
---
x
-- notes/private-life.md --
a file named private-life is not in a private folder
-- memory/privately.md --
x
`

func TestLoad_PrivateFilesAreMarkedByGlobFolderAndFrontMatter(t *testing.T) {
	ws, err := LoadFS(mapFS(privateWorkspace), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"MEMORY.md": false, "memory/private/health.md": true, "Notes/PRIVATE/x.md": true,
		"notes/secret-plans.md": true, "notes/fm-private.md": true, "notes/fm-publish.md": true,
		"notes/fm-broken.md": true, "notes/fm-unclosed.md": true, "notes/published.md": false,
		"notes/private-life.md": false, "memory/privately.md": false,
	}
	for p, private := range want {
		f := ws.FileByPath(p)
		if f == nil {
			t.Errorf("%s was not read", p)
			continue
		}
		if f.Private != private {
			t.Errorf("%s: Private = %v, want %v", p, f.Private, private)
		}
	}
	if len(ws.Withheld) != 0 {
		t.Errorf("a read without OmitPrivate withheld %v", ws.Withheld)
	}
	if n := len(diagsWith(ws.Diagnostics, "config")); n != 1 {
		t.Errorf("the malformed private pattern should be reported once: %v", ws.Diagnostics)
	}
}

func TestLoad_OmitPrivateLeavesPrivateFilesOutAndKeepsTheirPaths(t *testing.T) {
	ws, err := LoadFS(mapFS(privateWorkspace), Options{OmitPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	got := paths(ws.Files)
	wantFiles := []string{"MEMORY.md", "dreamwiki.toml", "memory/privately.md", "notes/private-life.md", "notes/published.md"}
	var md []string
	for _, p := range got {
		if p != "dreamwiki.toml" {
			md = append(md, p)
		}
	}
	if !equalStrings(md, without(wantFiles, "dreamwiki.toml")) {
		t.Errorf("Files = %v", got)
	}
	for _, f := range ws.Files {
		if f.Private || strings.Contains(f.Content, "physio") {
			t.Errorf("%s is private but in the model", f.Path)
		}
	}
	if len(ws.Assets) != 0 {
		t.Errorf("an asset in a private folder is in the model: %v", ws.Assets)
	}
	var withheld []string
	for _, w := range ws.Withheld {
		withheld = append(withheld, w.Path)
	}
	wantWithheld := []string{"Notes/PRIVATE/x.md", "memory/private/health.md", "notes/fm-broken.md", "notes/fm-private.md",
		"notes/fm-publish.md", "notes/fm-unclosed.md", "notes/private/photo.png", "notes/secret-plans.md"}
	if !equalStrings(withheld, wantWithheld) {
		t.Errorf("Withheld = %v, want %v", withheld, wantWithheld)
	}
	if !ws.Withholds("memory/private/health.md") || ws.Withholds("MEMORY.md") || ws.FileByPath("memory/private/health.md") != nil {
		t.Error("Withholds and FileByPath disagree with Withheld")
	}
	if len(ws.Topics) != 1 || ws.Topics[0].File.Path != "memory/privately.md" {
		t.Errorf("a private topic file is among the topics: %v", ws.Topics)
	}
}

func writeFile(t *testing.T, dir, p, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func without(ss []string, s string) []string {
	var out []string
	for _, x := range ss {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func TestReread_AFileEditedToBePrivateIsWithheldAndBack(t *testing.T) {
	dir := writeTree(t, "-- MEMORY.md --\n- x\n-- notes/a.md --\n# A\nknee\n")
	ws := mustLoad(t, dir, Options{OmitPrivate: true, Redact: true})
	writeFile(t, dir, "notes/a.md", "---\nprivate: true\n---\n# A\nknee\n")
	ws, err := ws.Reread([]string{"notes/a.md"})
	if err != nil {
		t.Fatal(err)
	}
	if ws.FileByPath("notes/a.md") != nil || !ws.Withholds("notes/a.md") {
		t.Fatalf("a note made private is still read: %v", paths(ws.Files))
	}
	writeFile(t, dir, "notes/a.md", "# A\nknee\n")
	if ws, err = ws.Reread([]string{"notes/a.md"}); err != nil {
		t.Fatal(err)
	}
	if ws.FileByPath("notes/a.md") == nil || ws.Withholds("notes/a.md") {
		t.Fatal("a note made public again is not read")
	}
}

// The secrets here are fake values in the shapes the guard knows.
const (
	fakeGitHubToken = "ghp_R4nd0mF4k3T0k3nV4lu3F0rT3st1ngXyZ123"
	fakePrivateKey  = "-----BEGIN OPENSSH PRIVATE KEY-----\n  b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n  QyNTUxOQAAACB0ZXN0a2V5dGVzdGtleXRlc3RrZXl0ZXN0a2V5dGVzdGtleQAAAJi0\n  -----END OPENSSH PRIVATE KEY-----"
)

func TestLoad_RedactReplacesSecretsKeepingLineNumbers(t *testing.T) {
	src := "# Keys\n\n- deploy key:\n  " + fakePrivateKey + "\n- token " + fakeGitHubToken + " for CI\n- last line\n"
	ws, err := LoadFS(mapFS("-- notes/keys.md --\n"+src), Options{Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	f := ws.FileByPath("notes/keys.md")
	if strings.Contains(f.Content, fakeGitHubToken) || strings.Contains(f.Content, "b3BlbnNzaC1rZXkt") {
		t.Fatalf("a secret survived:\n%s", f.Content)
	}
	if got, want := strings.Count(f.Content, "\n"), strings.Count(src, "\n"); got != want {
		t.Errorf("redaction changed the line count from %d to %d:\n%s", want, got, f.Content)
	}
	lines := strings.Split(f.Content, "\n")
	if lines[8] != "- last line" || !strings.Contains(lines[7], "[REDACTED:github-token]") {
		t.Errorf("lines moved:\n%s", f.Content)
	}
	secretsAt := diagsWith(ws.Diagnostics, "secret")
	if len(secretsAt) != 2 || secretsAt[0].Line != 4 || secretsAt[1].Line != 8 {
		t.Fatalf("want a finding on lines 4 and 8, got %v", secretsAt)
	}
	for _, d := range secretsAt {
		if strings.Contains(d.Error(), fakeGitHubToken) || !strings.Contains(d.Message, "show [REDACTED:") {
			t.Errorf("finding %q", d.Error())
		}
	}
	if raw, _ := LoadFS(mapFS("-- notes/keys.md --\n"+src), Options{}); raw.FileByPath("notes/keys.md").Content != src {
		t.Error("a read without Redact changed the text")
	}
}

func TestLoad_RedactNamesAFileByItsRedactedPath(t *testing.T) {
	name := "notes/" + fakeGitHubToken + ".md"
	ws, err := LoadFS(mapFS("-- MEMORY.md --\n- x\n-- "+name+" --\n# Token\n"), Options{Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "notes/redacted-github-token.md"
	if ws.FileByPath(want) == nil || ws.FileByPath(name) != nil {
		t.Fatalf("files: %v", paths(ws.Files))
	}
	ds := diagsWith(ws.Diagnostics, "secret")
	if len(ds) != 1 || ds[0].File != want || strings.Contains(ds[0].Error(), fakeGitHubToken) {
		t.Errorf("want one finding naming the redacted path, got %v", ds)
	}
}

// TestFrontMatter_AmbiguousPrivacyErrsPrivate holds the privacy rule to
// its one way of erring: front matter that names "private" or "publish"
// in any way other than once, plainly true or false, in a Markdown
// note's YAML keeps the note private, and says so at the key's line with
// what to write instead.
func TestFrontMatter_AmbiguousPrivacyErrsPrivate(t *testing.T) {
	cases := []struct {
		name, file, content string
		private             bool
		line                int // of the warning; 0: none
	}{
		{"yaml alias to true", "notes/n.md", "---\nyes_please: &p true\nprivate: *p\n---\nbody\n", true, 3},
		{"duplicate keys, the last false", "notes/n.md", "---\nprivate: true\nprivate: false\n---\nbody\n", true, 3},
		{"one for true", "notes/n.md", "---\nprivate: 1\n---\nbody\n", true, 2},
		{"yes", "notes/n.md", "---\ntitle: x\nprivate: yes\n---\nbody\n", true, 3},
		{"on", "notes/n.md", "---\nprivate: on\n---\nbody\n", true, 2},
		{"quoted true", "notes/n.md", "---\nprivate: \"true\"\n---\nbody\n", true, 2},
		{"publish no", "notes/n.md", "---\npublish: no\n---\nbody\n", true, 2},
		{"merge key", "notes/n.md", "---\nbase: &b {private: true}\n<<: *b\n---\nbody\n", true, 3},
		{"toml front matter", "notes/n.md", "+++\ntitle = \"x\"\nprivate = true\n+++\nbody\n", true, 3},
		{"toml saying false", "notes/n.md", "+++\nprivate = false\n+++\nbody\n", true, 2},
		{"front matter in a .txt note", "notes/n.txt", "---\nprivate: true\n---\nbody\n", true, 2},
		{"unclosed", "notes/n.md", "---\npublish: false\nbody\n", true, 2},

		{"plain true", "notes/n.md", "---\nprivate: true\n---\nbody\n", true, 0},
		{"plain True", "notes/n.md", "---\nPrivate: True\n---\nbody\n", true, 0},
		{"plain false", "notes/n.md", "---\nprivate: false\npublish: true\n---\nbody\n", false, 0},
		{"publish false", "notes/n.md", "---\npublish: false\n---\nbody\n", true, 0},
		{"no privacy key", "notes/n.md", "---\ntitle: private\n---\nbody\n", false, 0},
		{"toml without privacy key", "notes/n.md", "+++\ntitle = \"x\"\n+++\nbody\n", false, 0},
		{"txt without front matter", "notes/n.txt", "private: true is just text here\n", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, err := LoadFS(fstest.MapFS{c.file: {Data: []byte(c.content)}}, Options{OmitPrivate: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := ws.Withholds(c.file); got != c.private {
				t.Errorf("withheld = %v, want %v", got, c.private)
			}
			if f := ws.FileByPath(c.file); c.private && f != nil {
				t.Errorf("the private note is in the model")
			}
			warned := diagsWith(ws.Diagnostics, "private")
			if c.line == 0 {
				if len(warned) != 0 {
					t.Errorf("unexpected warnings %v", warned)
				}
				return
			}
			if len(warned) != 1 {
				t.Fatalf("want one privacy warning, got %v", ws.Diagnostics)
			}
			w := warned[0]
			if w.File != c.file || w.Line != c.line || w.Severity != diag.Warning || !strings.Contains(w.Message, "kept private") || !strings.Contains(w.Hint, "false") {
				t.Errorf("warning = %+v, want %s:%d saying the note was kept private and what to write", w, c.file, c.line)
			}
		})
	}
}

// TestLoad_AFileIsPrivateWhenAnyPathThatReachesItIs holds the rule for
// symbolic links: a file's privacy is the file's, not the name it is
// read by. A public link to a private file, a public folder link into a
// private folder, a link through a private link and a public file a link
// at a private path points at are all private, at every path.
func TestLoad_AFileIsPrivateWhenAnyPathThatReachesItIs(t *testing.T) {
	ws := writeTree(t, `
-- dreamwiki.toml --
private = ["secret/**"]
-- memory/private/health.md --
physio
-- secret/plan.md --
plan
-- notes/shared.md --
shared with a private link
-- notes/public.md --
public
`)
	must(t, os.Symlink("../memory/private/health.md", filepath.Join(ws, "notes", "health.md")))
	must(t, os.Symlink("../memory/private", filepath.Join(ws, "notes", "private-view")))
	must(t, os.Symlink("../secret/plan.md", filepath.Join(ws, "notes", "plan.md")))
	must(t, os.Symlink("../../notes/shared.md", filepath.Join(ws, "memory", "private", "shared.md")))
	must(t, os.Symlink("../memory/private/shared.md", filepath.Join(ws, "notes", "via-private.md")))

	w := mustLoad(t, ws, Options{})
	want := map[string]bool{
		"memory/private/health.md": true, "notes/health.md": true, "notes/private-view/health.md": true,
		"secret/plan.md": true, "notes/plan.md": true,
		"notes/shared.md": true, "memory/private/shared.md": true, "notes/via-private.md": true,
		"notes/public.md": false,
	}
	for p, private := range want {
		f := w.FileByPath(p)
		if f == nil {
			t.Errorf("%s was not read", p)
			continue
		}
		if f.Private != private {
			t.Errorf("%s: Private = %v, want %v", p, f.Private, private)
		}
	}
	for _, d := range diagsWith(w.Diagnostics, "symlink") {
		if strings.Contains(d.Message, "memory/private") || strings.Contains(d.Message, "secret/") {
			t.Errorf("a warning names the private path: %v", d)
		}
	}
	if len(diagsWith(w.Diagnostics, "symlink")) == 0 {
		t.Errorf("no warning says why the public paths are private: %v", w.Diagnostics)
	}
}
