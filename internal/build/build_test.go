package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dreamwiki/dreamwiki/internal/output"
)

// writeTxtar materialises a workspace written as a txtar archive.
func writeTxtar(t *testing.T, archive string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func buildInto(t *testing.T, opts Options) (*Report, string) {
	t.Helper()
	if opts.Out == "" {
		opts.Out = filepath.Join(t.TempDir(), "dist")
	}
	r, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return r, opts.Out
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// treeHash hashes every file of a tree with its path, for determinism checks.
func treeHash(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func hasDiag(r *Report, code, file string, line int) bool {
	for _, d := range r.Diagnostics {
		if d.Code == code && d.File == file && (line == 0 || d.Line == line) {
			return true
		}
	}
	return false
}

func TestBuild_DemoSiteHasNoBrokenLinksAndIsDeterministic(t *testing.T) {
	r, out := buildInto(t, Options{Demo: true})
	if r.Published < 80 {
		t.Fatalf("demo published %d notes, want at least 80", r.Published)
	}
	if pages := checkLinks(t, filepath.Join(out, "site")); pages < r.Published {
		t.Errorf("site has %d pages for %d published notes", pages, r.Published)
	}
	_, out2 := buildInto(t, Options{Demo: true})
	a, b := treeHash(t, out), treeHash(t, out2)
	if len(a) != len(b) {
		t.Fatalf("two builds wrote %d and %d files", len(a), len(b))
	}
	for p, h := range a {
		if b[p] != h {
			t.Errorf("%s differs between two builds of the same input", p)
		}
	}
}

func TestBuild_EmptyWorkspaceBuildsAValidSite(t *testing.T) {
	r, out := buildInto(t, Options{Workspace: t.TempDir()})
	if r.Notes != 0 {
		t.Errorf("notes = %d, want 0", r.Notes)
	}
	home := read(t, filepath.Join(out, "site", "index.html"))
	if !strings.Contains(home, "no notes yet") {
		t.Errorf("empty home page does not say the workspace is empty")
	}
	for _, f := range []string{"site/404.html", "site/sitemap.xml", "site/robots.txt", "vault/.obsidian/app.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	checkLinks(t, filepath.Join(out, "site"))
}

func TestBuild_MissingWorkspaceIsAnErrorAndKeepsTheOldOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dist")
	if err := os.MkdirAll(filepath.Join(out, "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(out, "site", "index.html")
	if err := os.WriteFile(old, []byte("previous build"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := output.MarkOwned(out); err != nil {
		t.Fatal(err)
	}
	_, err := Build(context.Background(), Options{Workspace: "/no/such/workspace", Out: out})
	if err == nil || !strings.Contains(err.Error(), "/no/such/workspace") {
		t.Fatalf("err = %v, want one naming the missing folder", err)
	}
	if got := read(t, old); got != "previous build" {
		t.Errorf("a failed build replaced the previous output")
	}
}

const badInputs = `
-- MEMORY.md --
# Memory
- Links: [[Weird & Name?]], [[plus+sign]], [[日本語のノート]], [[missing note]], [[../../etc/passwd]]
- Both [[notes/a/dup]] and [[notes/b/dup]] exist.
- Inert: <script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3)) [data](data:text/html,hi)
-- notes/Weird & Name?.md --
# Weird

Back to [[MEMORY]].
-- notes/plus+sign.md --
plus
-- notes/日本語のノート.md --
# 日本語

本文。
-- notes/a/dup.md --
A
-- notes/b/dup.md --
B
-- notes/broken-yaml.md --
---
title: [unclosed
tags: a
---
The body still renders.
-- notes/empty.md --
-- memory/memory-meta.json --
{"entries": [ {"id": 1,, } ]}
-- memory/.dreams/short-term-recall.json --
not json
`

func TestBuild_BadInputIsReportedAndRenderedSafely(t *testing.T) {
	ws := writeTxtar(t, badInputs)
	// Bytes txtar cannot carry: invalid UTF-8, CRLF, a 2 MB line.
	must(t, os.WriteFile(filepath.Join(ws, "notes", "latin1.md"), []byte("caf\xe9 ok\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "notes", "plain.txt"), []byte("A plain *text* file with ``` fences inside.\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "notes", "crlf.md"), []byte("# CRLF\r\n\r\nline one\r\nline two\r\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "notes", "long.md"), append(bytes.Repeat([]byte("word "), 400_000), '\n'), 0o644))
	// Symlinks out of the workspace are not followed.
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(outside, "secret.md"), []byte("outside secret"), 0o644))
	must(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(ws, "notes", "link.md")))
	must(t, os.Symlink(outside, filepath.Join(ws, "escape")))

	r, out := buildInto(t, Options{Workspace: ws})
	site := filepath.Join(out, "site")
	checkLinks(t, site)

	for _, want := range []struct {
		code, file string
	}{
		{"frontmatter", "notes/broken-yaml.md"},
		{"utf8", "notes/latin1.md"},
		{"json", "memory/memory-meta.json"},
		{"json", "memory/.dreams/short-term-recall.json"},
		{"symlink", "notes/link.md"},
		{"symlink", "escape"},
		{"broken-link", "MEMORY.md"},
	} {
		if !hasDiag(r, want.code, want.file, 0) {
			t.Errorf("no %s diagnostic for %s; got %v", want.code, want.file, r.Diagnostics)
		}
	}
	var fm string
	for _, d := range r.Diagnostics {
		if d.Code == "frontmatter" {
			fm = d.Error()
		}
	}
	if !regexp.MustCompile(`^notes/broken-yaml\.md:[23]: `).MatchString(fm) {
		t.Errorf("front matter diagnostic %q does not name the file and line", fm)
	}

	all := ""
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all += read(t, p)
		}
		return nil
	})
	if strings.Contains(all, "outside secret") {
		t.Errorf("a file outside the workspace reached the output through a symlink")
	}
	home := read(t, filepath.Join(site, "index.html"))
	for _, bad := range []string{"<script>alert", "<img src=x onerror", `href="javascript:`, `href="data:`} {
		if strings.Contains(home, bad) {
			t.Errorf("home page contains live %q", bad)
		}
	}
	if !strings.Contains(home, "&lt;script&gt;") {
		t.Errorf("raw HTML is not shown escaped")
	}
	if n := strings.Count(home, `class="broken-link"`); n != 2 {
		t.Errorf("home page has %d broken links, want 2 (missing note and ../../etc/passwd)", n)
	}
	if !strings.Contains(read(t, filepath.Join(site, "notes", "broken-yaml.html")), "The body still renders.") {
		t.Errorf("the body of a note with broken front matter was not rendered")
	}
	if plain := read(t, filepath.Join(site, "notes", "plain.txt.html")); !strings.Contains(plain, "A plain *text* file") {
		t.Errorf("a .txt file is not shown as written")
	}
	if !strings.Contains(read(t, filepath.Join(site, "notes", "crlf.html")), "line one") {
		t.Errorf("CRLF note not rendered")
	}
	pages := listFiles(t, site)
	for _, want := range []string{"notes/weird-and-name.html", "notes/plus-sign.html", "notes/日本語のノート.html", "notes/a/dup.html", "notes/b/dup.html", "notes/long.html"} {
		if !pages[want] {
			t.Errorf("missing page %s", want)
		}
	}
	vaultFiles := listFiles(t, filepath.Join(out, "vault"))
	for _, want := range []string{"notes/Weird & Name?.md", "notes/日本語のノート.md", "notes/a/dup.md", "notes/b/dup.md"} {
		if !vaultFiles[want] {
			t.Errorf("missing vault note %s", want)
		}
	}
}

func listFiles(t *testing.T, root string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for p := range treeHash(t, root) {
		out[p] = true
	}
	return out
}

func TestBuild_PrivateNotesAreLeftOutAndLinksToThemArePlainText(t *testing.T) {
	ws := writeTxtar(t, `
-- dreamwiki.toml --
private = ["memory/private/**"]
-- MEMORY.md --
- See [[health]] and [[gifts]] and [[public]].
-- memory/private/health.md --
Private health note.
-- notes/gifts.md --
---
publish: false
---
Gift ideas.
-- notes/public.md --
Public note.
`)
	_, out := buildInto(t, Options{Workspace: ws})
	site := listFiles(t, filepath.Join(out, "site"))
	var leaked []string
	for p := range site {
		// The private notes' own pages (a public claim may name them).
		if strings.Contains(p, "private/health") || strings.HasPrefix(p, "notes/gifts") {
			leaked = append(leaked, p)
		}
	}
	sort.Strings(leaked)
	if len(leaked) > 0 {
		t.Errorf("private notes published: %v", leaked)
	}
	home := read(t, filepath.Join(out, "site", "index.html"))
	if strings.Contains(home, "health.html") || strings.Contains(home, "gifts.html") {
		t.Errorf("home page links to private notes")
	}
	if !strings.Contains(home, "public.html") {
		t.Errorf("home page lost the link to the public note")
	}
	checkLinks(t, filepath.Join(out, "site"))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestBuild_NoDemoSecretReachesTheOutput(t *testing.T) {
	// The fake credentials planted in the demo workspace (internal/demo).
	fakes := []string{"ghp_DemoOnlyJuniperFakeToken0123456789ab", "AKIAJUNIPERDEMO00042", "hunter2-demo"}
	r, out := buildInto(t, Options{Demo: true})
	for p := range treeHash(t, out) {
		data := read(t, filepath.Join(out, p))
		for _, s := range fakes {
			if strings.Contains(data, s) {
				t.Errorf("%s contains the secret %.6s…", p, s)
			}
		}
	}
	n := 0
	for _, d := range r.Diagnostics {
		if d.Code == "secret" {
			n++
			if d.File == "" || d.Line == 0 {
				t.Errorf("secret finding without file and line: %v", d)
			}
		}
	}
	if n != len(fakes) {
		t.Errorf("reported %d secrets, want %d", n, len(fakes))
	}
}

// The demo keeps Sam's health notes in memory/private/: nothing of them
// reaches the lint report (it once listed their claims without evidence),
// or any other published file.
func TestBuild_DemoLintPageShowsNoPrivateText(t *testing.T) {
	_, out := buildInto(t, Options{Demo: true})
	lint := read(t, filepath.Join(out, "site", "reports", "lint.html"))
	if !strings.Contains(lint, "Every finding") {
		t.Fatal("the demo's lint page lists no findings; the test needs some")
	}
	for p := range treeHash(t, out) {
		data := read(t, filepath.Join(out, p))
		for _, private := range []string{"physio", "Clínica do Rato", "tendinopathy", "memory/private", "Kept for Sam. Not published"} {
			if strings.Contains(p, private) || strings.Contains(data, private) {
				t.Errorf("%s shows the private %q", p, private)
			}
		}
	}
}

// With [vault] include_private the vault keeps the private notes and the
// claims made from them, marked publish: false; the site still has none
// of them.
func TestBuild_VaultIncludePrivateKeepsThemMarkedAndTheSiteDoesNot(t *testing.T) {
	ws := writeTxtar(t, `
-- dreamwiki.toml --
[vault]
include_private = true
-- MEMORY.md --
- Health notes live in [[health]].
-- memory/private/health.md --
# Health
- Knee-physio-phrase on Tuesdays.
-- notes/diary.md --
---
publish: false
---
Diary-phrase.
`)
	r, out := buildInto(t, Options{Workspace: ws})
	for _, p := range []string{"topics/private/health.md", "notes/diary.md"} {
		note := read(t, filepath.Join(out, "vault", filepath.FromSlash(p)))
		if !strings.Contains(note, "publish: false") {
			t.Errorf("vault %s is not marked publish: false:\n%s", p, note)
		}
	}
	claims := 0
	for p := range treeHash(t, filepath.Join(out, "vault", "claims")) {
		if note := read(t, filepath.Join(out, "vault", "claims", p)); strings.Contains(note, "Knee-physio-phrase") {
			claims++
			if !strings.Contains(note, "publish: false") {
				t.Errorf("the claim of a private note is not marked publish: false:\n%s", note)
			}
		}
	}
	if claims != 1 {
		t.Errorf("%d vault claims from the private topic file, want 1", claims)
	}
	// Obsidian Publish leaves out notes marked publish: false and
	// publishes the rest, reports included: no other note may quote one.
	for p := range treeHash(t, filepath.Join(out, "vault")) {
		if !strings.HasSuffix(p, ".md") {
			continue // the manifest, which keeps claim ids, is no note
		}
		note := read(t, filepath.Join(out, "vault", p))
		if !strings.Contains(note, "publish: false") && (strings.Contains(note, "Knee-physio-phrase") || strings.Contains(note, "Diary-phrase")) {
			t.Errorf("vault %s is published but quotes a private note:\n%s", p, note)
		}
	}
	for p := range treeHash(t, filepath.Join(out, "site")) {
		data := read(t, filepath.Join(out, "site", p))
		if strings.Contains(data, "Knee-physio-phrase") || strings.Contains(data, "Diary-phrase") {
			t.Errorf("site %s holds private text", p)
		}
	}
	if r.Notes <= r.Published || r.Private != 2 {
		t.Errorf("report: %d notes, %d published, %d private", r.Notes, r.Published, r.Private)
	}
}

// A secret in an entry is redacted before the claim is named: its slug,
// id, file name and every link to it are made from the redacted text, so
// the vault has no broken link and the report says what was done.
func TestBuild_AClaimWithASecretIsNamedByItsRedactedText(t *testing.T) {
	token := "ghp_" + strings.Repeat("Zq7Wm", 7) + "K"
	ws := writeTxtar(t, `
-- MEMORY.md --
# Memory
- CI token `+token+` for the release bot.
`)
	r, out := buildInto(t, Options{Workspace: ws})
	slug := "ci-token-redacted-github-token-for-the-release-bot"
	for _, p := range []string{"vault/claims/" + slug + ".md", "site/claims/" + slug + ".html"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("the claim is not named by its redacted text: %v", err)
		}
	}
	var secrets int
	for _, d := range r.Diagnostics {
		switch d.Code {
		case "broken-link", "broken-anchor":
			t.Errorf("vault: %v", d)
		case "secret":
			secrets++
			if d.File != "MEMORY.md" || d.Line != 2 || !strings.Contains(d.Message, "the site, the vault and the search index show [REDACTED:github-token]") {
				t.Errorf("secret finding: %v", d)
			}
		}
	}
	if secrets != 1 {
		t.Errorf("%d secret findings, want 1", secrets)
	}
	checkLinks(t, filepath.Join(out, "site"))
}
