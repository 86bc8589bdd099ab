package vault_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
)

// Publishers title a page by its note's title property, else by its file
// name: every note carries its title, the H1 it shows.
func TestVault_EveryNoteCarriesItsTitle(t *testing.T) {
	out := buildtest.Build(t, `
-- MEMORY.md --
# Memory

- Gateway host is the Mac mini. Source: memory/2026-10-21.md#L2-L2
-- memory/2026-10-21.md --
# Tuesday 21 October
- Moved the gateway to the Mac mini.
-- notes/untitled.md --
No heading here.
`)
	out.AssertMatches("vault/claims/gateway-host-is-the-mac-mini.md", `\A---\ntitle: Gateway host is the Mac mini\.\n`)
	out.AssertMatches("vault/sources/daily/2026-10-21.md", `\A---\ntitle: Tuesday 21 October\n`)
	out.AssertMatches("vault/index.md", `\A---\ntitle: Memory\n`)
	out.AssertMatches("vault/notes/untitled.md", `\A---\ntitle: untitled\n`)
	out.AssertMatches("vault/reports/lint.md", `\A---\ntitle: Lint\ntype: report\n`)
}

// An alias is a name a person types in [[ and a publisher turns into a
// redirect page at its root: a claim goes by its table row's key or its
// "Key: value" line's key, never by its whole text; a name two notes
// share, or that is a file's name, is nobody's alias.
func TestVault_AliasesAreShortNamesOfOneNoteEach(t *testing.T) {
	out := buildtest.Build(t, `
-- MEMORY.md --
# Memory

- Gateway host is the Mac mini.

Timezone: Europe/Lisbon

| host | ip |
|---|---|
| nas-01 | 10.0.0.20 |
| router | 10.0.0.1 |
-- memory/hosts.md --
# Hosts

| host | role |
|---|---|
| nas-01 | backups |
| blog | the static site |
-- memory/blog.md --
---
aliases: [okafor.dev, "Blog: the series", writing]
---
# Blog
-- memory/writing.md --
# Writing
`)
	out.AssertContains("vault/claims/timezone-europe-lisbon.md", "aliases: [Timezone]\n")
	out.AssertContains("vault/claims/gateway-host-is-the-mac-mini.md", "aliases: []\n")
	out.AssertContains("vault/claims/router-10-0-0-1.md", "aliases: [router]\n")
	// nas-01 keys a row in two tables; blog is also a file's name.
	out.AssertContains("vault/claims/nas-01-10-0-0-20.md", "aliases: []\n")
	out.AssertContains("vault/claims/blog-the-static-site.md", "aliases: []\n")
	// A user's own aliases pass the same rules: ":" cannot be in a file
	// name, and writing is another note's name.
	out.AssertContains("vault/topics/blog.md", "aliases: [okafor.dev]\n")
}

// A bare name that two files have (a daily log and a chat log of the same
// day) is written as the path from the vault root, to the file Obsidian
// resolved it to in the workspace, and so is a Markdown link's
// folder-relative path; a unique name stays bare, in the case of the
// file. Every publisher then finds the same note.
func TestVault_LinksNameOneFileFromTheRoot(t *testing.T) {
	out := buildtest.Build(t, `
-- MEMORY.md --
# Memory

See [[2026-11-02]], [[Gateway]] and [[gateway#Setup]].
-- memory/2026-11-02.md --
# 2026-11-02
-- memory/gateway.md --
# Gateway
## Setup
-- archives/telegram/crew/INDEX.md --
# Index

- [the chat](summaries/topic-1.md) and [[2026-11-02]]
-- archives/telegram/crew/summaries/topic-1.md --
# Topic 1
-- archives/telegram/crew/raw/2026-11-02.md --
# Chat of 2026-11-02
`)
	out.AssertContains("vault/index.md",
		"See [[sources/daily/2026-11-02|2026-11-02]], [[gateway|Gateway]] and [[gateway#Setup|gateway > Setup]].")
	out.AssertContains("vault/sources/conversations/telegram/crew/INDEX.md",
		"[the chat](<sources/conversations/telegram/crew/summaries/topic-1.md>)",
		"[[sources/daily/2026-11-02|2026-11-02]]")
}

// Quartz finds wikilinks in the text Markdown leaves: it links an escaped
// \[\[x\]\] as well, and leaves a wikilink whose text holds "#" or a URL
// as text. Quoted lines show a wikilink as its text; a claim's link text
// that Quartz cannot read is written as a Markdown link; a citation
// keeps its folder out of the link text, which Quartz cuts at "/".
func TestVault_LinkTextsReadTheSameInEveryPublisher(t *testing.T) {
	out := buildtest.Build(t, `
-- MEMORY.md --
# Memory

- Friday updates go to #platform-updates. Source: memory/2026-10-21.md#L2-L2
- Friday updates go to #reliability since 2026-11-02. Source: memory/2026-11-02.md#L2-L2
-- memory/2026-10-21.md --
# 2026-10-21
- Friday updates go to #platform-updates, see [[gateway|the gateway page]].
-- memory/2026-11-02.md --
# 2026-11-02
- Friday updates go to #reliability from now on.
-- memory/gateway.md --
# Gateway
`)
	claim := "vault/claims/friday-updates-go-to-platform-updates.md"
	out.AssertContains(claim,
		"> Friday updates go to \\#platform-updates, see the gateway page.",
		"memory/[[sources/daily/2026-10-21#^e2|2026-10-21.md, line 2]]")
	out.AssertNotContains(claim, `\[\[`)
	out.AssertContains("vault/reports/contested-claims.md",
		"[Friday updates go to #platform-updates.](<claims/friday-updates-go-to-platform-updates.md>)")
}

// A report lists a bounded number of lines and says how many it left out:
// a publisher parses every note whole, and reports of a large workspace's
// every finding stalled Quartz.
func TestVault_ReportsAreBounded(t *testing.T) {
	var ws strings.Builder
	ws.WriteString("-- MEMORY.md --\n# Memory\n\n")
	for i := range 520 {
		fmt.Fprintf(&ws, "- Unsupported fact number %d about the lab.\n", i)
	}
	out := buildtest.Build(t, ws.String())
	report := out.Read("vault/reports/claims-without-evidence.md")
	if n := strings.Count(report, "\n- "); n != 500 {
		t.Errorf("the report lists %d claims, want 500", n)
	}
	out.AssertContains("vault/reports/claims-without-evidence.md", "count: 520\n",
		"20 more lines are not listed here; `dreamwiki check` lists every finding.")
}
