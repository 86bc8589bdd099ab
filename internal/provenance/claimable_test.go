package provenance

import (
	"strings"
	"testing"
)

// The bad claims issue #15 found in real MEMORY.md files: bookkeeping
// lines become no claim; facts that look like them stay claims.
func TestClaims_BookkeepingLinesAreNoClaims(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
# Memory

_Last updated: 2026-02-06_

## 2026-02-06
2026-02-06:
- Date: 2026-04-09
- Commit 9b1e7d2
- gateway.log
- 2026-02-12 | memory/2026-02-12.md | model pinning, dashboard | model,ops
- Arjun's birthday: 14 May
- Gateway logs go to gateway.log in ~/.openclaw/logs.
- Pinned the CLI at v1.2 after the 9b1e7d2 regression.
- Config: settings.yaml

| | |
|---|---|
| nas-01 | 10.0.0.20 |
`), Options{})
	var got []string
	for _, c := range r.Claims {
		got = append(got, c.Text)
	}
	want := []string{
		"Arjun's birthday: 14 May",
		"Gateway logs go to gateway.log in ~/.openclaw/logs.",
		"Pinned the CLI at v1.2 after the 9b1e7d2 regression.",
		"Config: settings.yaml",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("claims:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A row's cells say nothing without their headers: the claim names its
// columns, while its page keeps the short name its cells give.
func TestClaims_TableRowNamesItsColumns(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## Hosts
| host | ip | role |
|---|---|---|
| nas-01 | 10.0.0.20 | Synology, backups |
`), Options{})
	c := claimWith(t, r, "nas-01")
	if c.Text != "host: nas-01; ip: 10.0.0.20; role: Synology, backups" {
		t.Errorf("Text = %q", c.Text)
	}
	if c.Slug != "nas-01-10-0-0-20-synology-backups" {
		t.Errorf("Slug = %q", c.Slug)
	}
}

// Claim text keeps code as written: "()" and "[]" are part of a call or a
// type (issue #15 found them stripped).
func TestClaims_CodeInClaimTextKeepsItsBrackets(t *testing.T) {
	r := Analyze(load(t, "-- MEMORY.md --\n## Code\n"+
		"- Last day of last month: `new Date(now.getFullYear(), now.getMonth(), 0)`.\n"+
		"- Ids are `string[]`; call `flush()` before exit.\n"+
		"| step | command |\n|---|---|\n| build | `make()` then `flush()` |\n"), Options{})
	for _, want := range []string{
		"Last day of last month: new Date(now.getFullYear(), now.getMonth(), 0).",
		"Ids are string[]; call flush() before exit.",
		"step: build; command: make() then flush()",
	} {
		if c := claimWith(t, r, want[:12]); c.Text != want {
			t.Errorf("Text = %q, want %q", c.Text, want)
		}
	}
}

// Issue #23, rule 5: a claim says something about something. Labels with
// nothing after them, a template's fields, date labels, pointers to where
// entries went, transcript and code lines, and bare lists of names are
// not claims; the facts around them are.
func TestClaims_TemplateFieldsAndLabelsAreNotClaims(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
# Memory

## Garden
- Tomatoes go in the south bed from May.
- Planting plan:
- Watering: every second evening
- Next check: TBD
- Started: 2026-03-02
- Done: 18:40
- More Garden entries: see memory/garden.md
- Basil, Thyme, Rosemary, Sage
- Seed trays + Grow lights + Heat mats
- Soil pH tester
- Herbs: basil, thyme, rosemary

| plant | sown | notes |
|---|---|---|
| chard | 2026-03-10 | came up in a week |
| kale | - | (tbd) |

## YYYY-MM-DD — [incident title]
- Symptom:
- Owner: someone

## Chat with Mo
- assistant: All sorted, pushed the change.

## Hand-over （タスク完了時に記入）
- Done: watered
- (more later)

## 待执行
待执行
-- memory/snippets.md --
# Snippets

## Retry
- const waitMs = 500;
- }
- Retries back off from half a second.
`), Options{})
	var got []string
	for _, c := range r.Claims {
		got = append(got, c.Text)
	}
	want := []string{
		"Tomatoes go in the south bed from May.",
		"Watering: every second evening",
		"Herbs: basil, thyme, rosemary",
		"plant: chard; sown: 2026-03-10; notes: came up in a week",
		"Retries back off from half a second.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("claims:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
