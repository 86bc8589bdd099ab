package markdown

import (
	"io"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// benchNote is a realistic memory note of about 3 KB (3,010 bytes): front
// matter, headings, lists with block ids, wikilinks, tags, callouts, a
// table, a code block, a comment, a footnote and an embed.
const benchNote = `---
title: Gateway and deployment notes
aliases: [Gateway notes, Deploy]
tags: [memory/reference, infra]
created: 2026-03-31
updated: 2026-04-14T09:30:00Z
---
# Gateway and deployment notes

The gateway host is the **Mac mini** in the office (moved from the NUC on
2026-03-31). See [[Beta]] for the history and [[notes/Alpha#Section One]] for
the original decision. #infra #memory/reference

> [!note] Why this matters
> The agent deploys from the gateway, so every deploy instruction depends on
> which machine it is. Evidence: [[sources/daily/2026-03-31#^e7]].

## Hosts

- Gateway: Mac mini, ` + "`gw.local`" + `, macOS 15 ^host-gw
- Build box: Linux, ` + "`build.local`" + `, 32 GB ^host-build
- Old NUC: retired, kept for backups only ^host-nuc
- [ ] Move the backup job off the NUC
- [x] Update DNS for ` + "`gw.local`" + `

| Host | Role | Since |
|------|------|-------|
| Mac mini | gateway | 2026-03-31 |
| Linux box | builds | 2025-11-02 |
| NUC | backups | 2024-06-10 |

## Deploy procedure

1. Pull the release branch and run the checks.
2. Build with ` + "`make release`" + ` on the build box.
3. Copy the bundle to the gateway and restart the service.

` + "```sh" + `
ssh gw.local 'sudo launchctl kickstart -k system/com.example.gateway'
curl -fsS https://gw.local/healthz && echo ok
` + "```" + `

%%Reminder to self: check the certificate expiry before the next deploy.%%

Rule: never deploy on Fridays after 16:00.
Why: nobody is around to roll back.
How: the deploy script refuses; override with ` + "`--force`" + ` only with approval.

### Certificates

The gateway certificate comes from the internal CA and expires every 90
days. The renewal job runs on the build box at 03:00 and copies the new
certificate over; if it fails, the gateway keeps serving the old one until
it expires, so check the job's log after each renewal. Owner: the platform
team (see [[Platform team#On call]]).

### Rollback

If the health check fails, run the previous bundle: ==do not debug in
production==. The rollback steps are in [[Rollback runbook|the runbook]] and
the [checklist](checklists/rollback.md#Before%20you%20start).

## Decisions

**[feedback] Keep deploys boring (04-27)**
> Prefer the scripted path over hand-run commands, even when it is slower.
> The user said so twice after the March incident. ^fb-boring

- 2026-03-31: gateway moved to the Mac mini (source: [[memory/2026-03-31]])
- 2026-04-02: backups stay on the NUC until June ~~May~~ ^dec-backups
- 2026-04-14: health check added to the deploy script, see ` + "`deploy.sh`" + `
- Permission: *you may deploy on weekdays* without asking, until 2026-06-30

> [!warning]- Known issue
> The health endpoint answers 200 before the cache is warm; wait ten
> seconds after a restart before trusting it. #known-issue

## Related

- [[First Letter]] — the alias of Alpha
- [[Same]] and [[y/Same]] for the two Same notes
- External: <https://example.com/docs/gateway> and https://status.example.com
- A footnote on the NUC.[^nuc]

![[notes/Beta]]

[^nuc]: The NUC still holds the 2024 backups; do not wipe it before June.
`

func BenchmarkParseRender(b *testing.B) {
	e := New()
	site := newFakeSite("bench.md", benchNote)
	b.SetBytes(int64(len(benchNote)))
	b.ReportAllocs()
	for b.Loop() {
		d := e.ParseText("bench.md", benchNote)
		if err := e.RenderHTML(io.Discard, d, site); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	e := New()
	b.SetBytes(int64(len(benchNote)))
	b.ReportAllocs()
	for b.Loop() {
		e.ParseText("bench.md", benchNote)
	}
}

func BenchmarkRender(b *testing.B) {
	e := New()
	site := newFakeSite("bench.md", benchNote)
	d := site.docs["bench.md"]
	b.SetBytes(int64(len(benchNote)))
	b.ReportAllocs()
	for b.Loop() {
		if err := e.RenderHTML(io.Discard, d, site); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlainText(b *testing.B) {
	d := New().Parse("bench.md", []byte(benchNote))
	b.ReportAllocs()
	for b.Loop() {
		_ = d.PlainText()
	}
}

// BenchmarkGoldmarkBaseline is plain goldmark with GFM and footnotes on
// the same note: the floor our Obsidian dialect is measured against.
func BenchmarkGoldmarkBaseline(b *testing.B) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))
	src := []byte(benchNote)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		doc := md.Parser().Parse(text.NewReader(src))
		if err := md.Renderer().Render(io.Discard, src, doc); err != nil {
			b.Fatal(err)
		}
	}
}
