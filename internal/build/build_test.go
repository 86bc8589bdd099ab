package build_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/output"
)

func TestBuild_DemoSiteHasNoBrokenLinksAndIsDeterministic(t *testing.T) {
	out := buildtest.BuildWith(t, build.Options{Demo: true})
	r := out.Report
	if r.Published < 80 {
		t.Fatalf("demo published %d notes, want at least 80", r.Published)
	}
	if pages := out.AssertLinksResolve(); pages < r.Published {
		t.Errorf("site has %d pages for %d published notes", pages, r.Published)
	}
	again := buildtest.BuildWith(t, build.Options{Demo: true})
	a, b := out.Files(""), again.Files("")
	if !slices.Equal(a, b) {
		t.Fatalf("two builds wrote %d and %d files", len(a), len(b))
	}
	for _, p := range a {
		if out.Read(p) != again.Read(p) {
			t.Errorf("%s differs between two builds of the same input", p)
		}
	}
}

func TestBuild_EmptyWorkspaceBuildsAValidSite(t *testing.T) {
	out := buildtest.Build(t, "")
	if n := out.Report.Notes; n != 0 {
		t.Errorf("notes = %d, want 0", n)
	}
	out.AssertContains("site/index.html", "no notes yet")
	out.AssertExists("site/404.html", "site/sitemap.xml", "site/robots.txt", "vault/.obsidian/app.json")
	out.AssertLinksResolve()
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
	_, err := build.Build(context.Background(), build.Options{Workspace: "/no/such/workspace", Out: out})
	if err == nil || !strings.Contains(err.Error(), "/no/such/workspace") {
		t.Fatalf("err = %v, want one naming the missing folder", err)
	}
	if got, _ := os.ReadFile(old); string(got) != "previous build" {
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
	ws := buildtest.Workspace(t, badInputs)
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

	out := buildtest.BuildWith(t, build.Options{Workspace: ws})
	out.AssertLinksResolve()

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
		out.AssertDiagnostic(want.code, want.file)
	}
	var fm string
	for _, d := range out.Report.Diagnostics {
		if d.Code == "frontmatter" {
			fm = d.Error()
		}
	}
	if !regexp.MustCompile(`^notes/broken-yaml\.md:[23]: `).MatchString(fm) {
		t.Errorf("front matter diagnostic %q does not name the file and line", fm)
	}

	out.AssertNoFileHolds("", "outside secret") // a file outside the workspace, through a symlink
	// Raw HTML is shown escaped, never live.
	out.AssertNotContains("site/index.html", "<script>alert", "<img src=x onerror", `href="javascript:`, `href="data:`)
	out.AssertContains("site/index.html", "&lt;script&gt;")
	if n := strings.Count(out.Read("site/index.html"), `class="broken-link"`); n != 2 {
		t.Errorf("home page has %d broken links, want 2 (missing note and ../../etc/passwd)", n)
	}
	out.AssertContains("site/notes/broken-yaml.html", "The body still renders.")
	out.AssertContains("site/notes/plain.txt.html", "A plain *text* file")
	out.AssertContains("site/notes/crlf.html", "line one")
	out.AssertExists("site/notes/weird-and-name.html", "site/notes/plus-sign.html", "site/notes/日本語のノート.html",
		"site/notes/a/dup.html", "site/notes/b/dup.html", "site/notes/long.html")
	out.AssertExists("vault/notes/Weird & Name?.md", "vault/notes/日本語のノート.md", "vault/notes/a/dup.md", "vault/notes/b/dup.md")
}

func TestBuild_PrivateNotesAreLeftOutAndLinksToThemArePlainText(t *testing.T) {
	out := buildtest.Build(t, `
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
	// The private notes' own pages (a public claim may name them).
	for _, p := range out.Files("site") {
		if strings.Contains(p, "private/health") || strings.HasPrefix(p, "site/notes/gifts") {
			t.Errorf("private note published: %s", p)
		}
	}
	out.AssertNotContains("site/index.html", "health.html", "gifts.html")
	out.AssertContains("site/index.html", "public.html")
	out.AssertLinksResolve()
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
	out := buildtest.BuildWith(t, build.Options{Demo: true})
	out.AssertNoFileHolds("", fakes...)
	n := 0
	for _, d := range out.Report.Diagnostics {
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
	out := buildtest.BuildWith(t, build.Options{Demo: true})
	if !strings.Contains(out.Read("site/reports/lint.html"), "Every finding") {
		t.Fatal("the demo's lint page lists no findings; the test needs some")
	}
	out.AssertNoFileHolds("", "physio", "Clínica do Rato", "tendinopathy", "memory/private", "Kept for Sam. Not published")
}

// With [vault] include_private the vault keeps the private notes and the
// claims made from them, marked publish: false; the site still has none
// of them.
func TestBuild_VaultIncludePrivateKeepsThemMarkedAndTheSiteDoesNot(t *testing.T) {
	out := buildtest.Build(t, `
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
	// publish: false for Obsidian Publish, draft: true for Quartz.
	out.AssertContains("vault/topics/private/health.md", "publish: false\ndraft: true\n")
	out.AssertContains("vault/notes/diary.md", "publish: false\ndraft: true\n")
	claims := 0
	for _, p := range out.Files("vault/claims") {
		if note := out.Read(p); strings.Contains(note, "Knee-physio-phrase") {
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
	for _, p := range out.Files("vault") {
		if !strings.HasSuffix(p, ".md") {
			continue // the manifest, which keeps claim ids, is no note
		}
		note := out.Read(p)
		if !strings.Contains(note, "publish: false") && (strings.Contains(note, "Knee-physio-phrase") || strings.Contains(note, "Diary-phrase")) {
			t.Errorf("%s is published but quotes a private note:\n%s", p, note)
		}
	}
	out.AssertNoFileHolds("site", "Knee-physio-phrase", "Diary-phrase")
	if r := out.Report; r.Notes <= r.Published || r.Private != 2 {
		t.Errorf("report: %d notes, %d published, %d private", r.Notes, r.Published, r.Private)
	}
}

// A secret in an entry is redacted before the claim is named: its slug,
// id, file name and every link to it are made from the redacted text, so
// the vault has no broken link and the report says what was done.
func TestBuild_AClaimWithASecretIsNamedByItsRedactedText(t *testing.T) {
	token := "ghp_" + strings.Repeat("Zq7Wm", 7) + "K"
	out := buildtest.Build(t, `
-- MEMORY.md --
# Memory
- CI token `+token+` for the release bot.
`)
	slug := "ci-token-redacted-github-token-for-the-release-bot"
	out.AssertExists("vault/claims/"+slug+".md", "site/claims/"+slug+".html")
	var secrets int
	for _, d := range out.Report.Diagnostics {
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
	out.AssertLinksResolve()
}
