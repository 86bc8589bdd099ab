package provenance

import (
	"fmt"
	"strings"
	"testing"
)

// contestTexts lists each reported pair as "older | newer" claim texts.
func contestTexts(r *Result) []string {
	var out []string
	for _, c := range r.Contests {
		out = append(out, r.byID[c.Older].Text+" | "+r.byID[c.Newer].Text)
	}
	return out
}

func TestContests_OneAttributeOfOneSubjectWithTwoValues(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## People
- Arjun: Priya's brother; birthday 14 March.

## Stack
- Ollama model: llama3.1:8b
- Dev server port: 3000
- Dev server port: 5173
- Friday updates go to #platform-updates.
- Friday updates go to #reliability since 2026-11-02.
-- memory/travel.md --
# Travel

## Family
- Arjun's birthday: 14 May, book the train early.
-- memory/infra.md --
# Infra

## Hosts
- Ollama: qwen2.5:7b on newton
`), Options{})
	got := strings.Join(contestTexts(r), "\n")
	for _, want := range []string{"birthday 14 March", "Arjun's birthday: 14 May", "llama3.1:8b", "qwen2.5:7b", "port: 3000", "port: 5173", "#platform-updates", "#reliability"} {
		if !strings.Contains(got, want) {
			t.Errorf("no contest names %q; contests:\n%s", want, got)
		}
	}
	if len(r.Contests) != 4 {
		t.Errorf("%d contests, want 4 (birthday, model, port, where Friday updates go):\n%s", len(r.Contests), got)
	}
	if c := claimWith(t, r, "Arjun's birthday"); c.Status != StatusContested {
		t.Errorf("status %s, want contested", c.Status)
	}
}

// The false pairs: lines that share a list key, the same field of
// two records, two attributes of one device, and one value said twice in
// other words.
func TestContests_SharedKeysRecordsAndOtherAttributesAreNoContradiction(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## Decisions
- Decision: Postgres for [[billing]]
- Decision: Redis for [[sessions]]
- Decision: S3 for [[exports]]

## 下一步
- 下一步：整理巡检报告
- 下一步：更新 SOP

## Devices
- Kitchen speaker: device id 4F2A9C
- Kitchen speaker: volume 40

## Storage
- NAS: Synology DS920+
-- memory/personas.md --
# Personas

## Ddok (strategy)
- Role: strategy and implementation
- Tone: short and decisive

## Kkom (review)
- Role: backtest review
- Tone: asks questions
-- memory/project.md --
# Project

## Phase one
- Decision: SQLite for [[cache]]
- Decision: Caddy for [[ingress]]

## Phase two
- Decision: Postgres for [[cache]]
- Decision: Traefik for [[ingress]]
-- memory/storage.md --
# Storage

## Backups
- NAS: the Synology DS920+ in the hall closet
`), Options{})
	if len(r.Contests) != 0 {
		t.Errorf("contests reported:\n%s", strings.Join(contestTexts(r), "\n"))
	}
}

// A key shared by hundreds of lines is read as a list in O(n log n): no
// line of it is compared with another.
func TestContests_AKeyManyLinesShareIsAList(t *testing.T) {
	var b strings.Builder
	b.WriteString("-- MEMORY.md --\n## Log\n")
	for i := range 500 {
		fmt.Fprintf(&b, "- Decision: ship build %d on channel %d\n", i, i%7)
		fmt.Fprintf(&b, "- Next: review item %d with team %d\n", i, i%5)
	}
	r := Analyze(load(t, b.String()), Options{})
	if len(r.Claims) != 1000 || len(r.Contests) != 0 {
		t.Errorf("%d claims, %d contests; want 1000 and 0", len(r.Claims), len(r.Contests))
	}
}

// Issue #23, rule 6: a contradiction needs one subject and one
// single-valued attribute, the subject read from the whole context. The
// same label in two cards or files, rows of different tables, a table
// whose first column is no key, a template and its instance, time slots
// and phrases under one label are not contradictions; two rows of one
// table giving one key two values are.
func TestContradictions_DifferentEntitiesAreNot(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## Accounts
- Node ID: node_7f3a91c2
- Hub Node ID: hub_55e0b1d4
- Profile: https://social.example/@otter

## Schedule
- 09:00: water the seedlings
- 14:00: repot the fig
- Monday: compost run
- Tuesday: market

## Runs
| date | distance | pace |
|---|---|---|
| 2026-05-01 | 5.0km | 6'10" |
| 2026-05-02 | 3.1km | 6'40" |
| 2026-05-04 | 4.0km | 6'35" |
| 2026-05-03 | 7.2km | 6'30" |
| 2026-05-03 | 7.8km | 6'25" |

## Lessons
- Root cause: nobody read the alert
-- memory/other-site.md --
# Other site

- Profile: https://forum.example/u/otter
- Root cause: the disk filled up overnight
-- memory/posts.md --
# Posts

| rank | title |
|---|---|
| 1 | Why otters hold hands |
| 1 | Tides, briefly |
| 2 | Kelp forests |
| 2 | River maps |

## Week 1
| field | value |
|---|---|
| mood | rested |

## Week 2
| field | value |
|---|---|
| mood | sore calves |
-- memory/incidents.md --
# Incidents

## Template
- Owner: TBD

## Disk full
- Owner: Sam
`), Options{})
	got := contestTexts(r)
	if len(got) != 1 || !strings.Contains(got[0], "7.2km") || !strings.Contains(got[0], "7.8km") || r.Contests[0].Subject != "2026-05-03 distance" {
		t.Errorf("contests (want only the two rows of 2026-05-03):\n%s\nsubjects: %+v", strings.Join(got, "\n"), r.Contests)
	}
}

// The team report uses the same rule: each agent's "Connection:" line is
// about that agent, while a named attribute of one thing is compared.
func TestDisagreements_UseTheContradictionRule(t *testing.T) {
	a := Analyze(load(t, `
-- MEMORY.md --
## Setup
- Connection: https://agent-a.example/ws
- NAS model: DS920+
`), Options{})
	b := Analyze(load(t, `
-- MEMORY.md --
## Setup
- Connection: chat channel 42
- NAS model: DS3000xs
`), Options{})
	ds := Disagreements([]*Result{a, b})
	if len(ds) != 1 || ds[0].Subject != "nas model" {
		t.Errorf("disagreements = %+v; want only the NAS model", ds)
	}
}
