package workspace

import (
	"reflect"
	"testing"
	"time"
)

func TestRecall_ToleratesMissingExtraAndStringlyTypedFields(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/.dreams/short-term-recall.json --
{
  "version": 1,
  "updatedAt": "2026-04-20T10:00:00Z",
  "entries": {
    "memory:memory/2026-04-17.md:7:7": {
      "path": "memory/2026-04-17.md", "startLine": 7, "endLine": 7,
      "snippet": "User prefers TypeScript examples.",
      "recallCount": "4", "dailyCount": 2, "groundedCount": 1,
      "totalScore": "2.48", "maxScore": 0.71,
      "firstRecalledAt": "2026-04-17T09:00:00Z", "lastRecalledAt": 1776700800000,
      "queryHashes": ["a1", "b2"], "recallDays": ["2026-04-17"], "conceptTags": ["typescript"],
      "promotedAt": "2026-04-24T03:00:00Z", "futureField": {"x": 1}
    },
    "memory:memory/2026-04-01.md:3:5:9f2c": {"snippet": "only a snippet"}
  }
}
`)
	r := ws.Recall
	if r == nil || len(r.Entries) != 2 {
		t.Fatalf("Recall = %+v", r)
	}
	// Sorted by key.
	a, b := r.Entries[0], r.Entries[1]
	if a.Key != "memory:memory/2026-04-01.md:3:5:9f2c" || a.Path != "memory/2026-04-01.md" || a.StartLine != 3 || a.EndLine != 5 {
		t.Errorf("entry from key only = %+v", a)
	}
	if b.Key != "memory:memory/2026-04-17.md:7:7" || b.Path != "memory/2026-04-17.md" || b.StartLine != 7 || b.EndLine != 7 ||
		b.Snippet != "User prefers TypeScript examples." || b.RecallCount != 4 || b.DailyCount != 2 || b.GroundedCount != 1 ||
		b.TotalScore != 2.48 || b.MaxScore != 0.71 ||
		!b.FirstRecalledAt.Equal(time.Date(2026, 4, 17, 9, 0, 0, 0, time.UTC)) || !b.LastRecalledAt.Equal(time.UnixMilli(1776700800000)) ||
		!reflect.DeepEqual(b.QueryHashes, []string{"a1", "b2"}) || !reflect.DeepEqual(b.RecallDays, []string{"2026-04-17"}) ||
		!reflect.DeepEqual(b.ConceptTags, []string{"typescript"}) || !b.PromotedAt.Equal(time.Date(2026, 4, 24, 3, 0, 0, 0, time.UTC)) {
		t.Errorf("entry = %+v", b)
	}
}

// The workspace reads what it can of a state file: an entry that is not
// an object is left out with a warning, the rest is read.
func TestStateFiles_EntriesThatAreNoObjectsAreSkippedWithAWarning(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/.dreams/short-term-recall.json --
{"entries": {"memory:MEMORY.md:3:3": {"recallCount": 2}, "memory:MEMORY.md:4:4": "junk"}}
-- memory/memory-meta.json --
{"entries": [{"id": "a", "text": "A"}, 7, {"id": "b", "text": "B"}]}
`)
	if len(ws.Recall.Entries) != 1 || ws.Recall.Entries[0].RecallCount != 2 {
		t.Errorf("recall entries = %+v", ws.Recall.Entries)
	}
	if len(ws.Meta.Entries) != 2 || ws.Meta.Entries[1].ID != "b" {
		t.Errorf("meta entries = %+v", ws.Meta.Entries)
	}
	if ds := diagsWith(ws.Diagnostics, "json"); len(ds) != 2 {
		t.Errorf("diagnostics = %v", ws.Diagnostics)
	}
}

func TestEvents_RecallFieldsTopLevelOrNestedAndOtherFieldsKept(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/.dreams/events.jsonl --
{"type":"memory.recall.recorded","at":"2026-04-18T08:41:00Z","query":"vector dbs","resultCount":"2","results":[{"path":"memory/2026-04-03.md","startLine":8,"endLine":"8","score":0.82},{"path":"MEMORY.md","startLine":48,"endLine":48,"score":"0.31"}]}
{"event":"memory.promotion.applied","timestamp":1776700800,"data":{"key":"memory:memory/2026-04-17.md:7:7"},"score":0.835}
{"type":"memory.recall.recorded","ts":"2026-04-19T10:00:00Z","payload":{"query":"gateway","results":[{"path":"memory/gateway.md","startLine":1,"endLine":3,"score":0.9}]}}
[1,2]
`)
	if len(ws.Events) != 3 {
		t.Fatalf("Events = %+v", ws.Events)
	}
	e := ws.Events[0]
	if e.Type != "memory.recall.recorded" || e.Query != "vector dbs" || e.ResultCount != 2 || len(e.Results) != 2 ||
		e.Results[0] != (EventResult{"memory/2026-04-03.md", 8, 8, 0.82}) || e.Results[1].Score != 0.31 || e.Fields != nil {
		t.Errorf("recall event = %+v", e)
	}
	p := ws.Events[1]
	if p.Type != "memory.promotion.applied" || p.Line != 2 || !p.At.Equal(time.Unix(1776700800, 0)) ||
		!reflect.DeepEqual(p.Fields, map[string]any{"data": map[string]any{"key": "memory:memory/2026-04-17.md:7:7"}, "score": 0.835}) {
		t.Errorf("promotion event = %+v", p)
	}
	n := ws.Events[2]
	if n.Query != "gateway" || n.ResultCount != 1 || n.Results[0].Path != "memory/gateway.md" {
		t.Errorf("nested recall event = %+v", n)
	}
	ds := diagsWith(ws.Diagnostics, "json")
	if len(ds) != 1 || ds[0].Line != 4 {
		t.Errorf("diagnostics = %v", ws.Diagnostics)
	}
}

func TestMeta_EveryKnownShapeIsRead(t *testing.T) {
	cases := []struct {
		name, src string
		ids       []string
	}{
		{"entries array", `{"version":2,"entries":[{"id":"a","text":"A"},{"id":"b","text":"B"}]}`, []string{"a", "b"}},
		{"entries map keeps file order", `{"entries":{"zeta":{"text":"Z"},"alpha":{"text":"A"}}}`, []string{"zeta", "alpha"}},
		{"top-level array", `[{"id":"x","text":"X"}]`, []string{"x"}},
		{"top-level map", `{"m2":{"text":"two"},"m1":{"text":"one"}}`, []string{"m2", "m1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := loadTxtar(t, "-- memory/memory-meta.json --\n"+c.src+"\n")
			noDiagnostics(t, ws)
			if ws.Meta == nil {
				t.Fatal("Meta = nil")
			}
			var ids []string
			for _, e := range ws.Meta.Entries {
				ids = append(ids, e.ID)
			}
			if !equalStrings(ids, c.ids) {
				t.Errorf("ids = %v, want %v", ids, c.ids)
			}
		})
	}
}

func TestMeta_FieldsAndOldNames(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/memory-meta.json --
{"version": 2, "lastDecayAt": "2026-04-18T07:00:00Z", "entries": [
  {"id": "mem_1", "text": "Gateway host is the Mac mini", "created": "2026-03-31", "lastRecalled": "2026-04-02T10:00:00Z",
   "recallCount": 4, "structural": true, "supersedes": "mem_0", "tier": "warm", "score": 0.62, "section": "Infra", "type": "reference"},
  {"id": "mem_0", "text": "Gateway host is nuc-01", "createdAt": 1774915200, "recalls": "2", "decayScore": "0.1",
   "superseded_by": "mem_1", "structural": "true"}
]}
`)
	m := ws.Meta
	a := m.Entries[0]
	if a.ID != "mem_1" || !a.Created.Equal(date("2026-03-31")) || a.LastRecalled.Day() != 2 || a.RecallCount != 4 || !a.Structural ||
		a.Supersedes != "mem_0" || a.Tier != "warm" || a.Score != 0.62 || a.Section != "Infra" || a.Type != "reference" {
		t.Errorf("entry = %+v", a)
	}
	b := m.Entries[1]
	if !b.Created.Equal(time.Unix(1774915200, 0)) || b.RecallCount != 2 || b.Score != 0.1 || b.SupersededBy != "mem_1" || !b.Structural {
		t.Errorf("older field names = %+v", b)
	}
}

func TestHeartbeat(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/heartbeat-state.json --
{"lastDreamAt": "2026-03-31T15:40:00Z", "lastDreamResult": "pruned from 269 to 85 lines", "lastChecks": {"email": 1}}
`)
	h := ws.Heartbeat
	if h == nil || !h.LastDreamAt.Equal(time.Date(2026, 3, 31, 15, 40, 0, 0, time.UTC)) || h.LastDreamResult != "pruned from 269 to 85 lines" ||
		!reflect.DeepEqual(h.Extra, map[string]any{"lastChecks": map[string]any{"email": float64(1)}}) {
		t.Errorf("Heartbeat = %+v", h)
	}
}

func TestConversations_GroupsLabelsTopicsAndCounts(t *testing.T) {
	ws := loadTxtar(t, `
-- archives/archive-config.json --
{
  "agentName": "Juniper",
  "groups": {"-100123": {"name": "homelab-crew", "label": "Homelab Crew"}},
  "topicNames": {"-100123": {"1": "General"}}
}
-- archives/telegram/homelab-crew/DIGEST.md --
# Digest
-- archives/telegram/homelab-crew/INDEX.md --
# Index

| Topic | Name | Messages |
|---|---|---|
| [topic-1](summaries/topic-1.md) | General | 212 |
| [topic-10](summaries/topic-10.md) | Backups | 1,087 |
-- archives/telegram/homelab-crew/summaries/topic-1.md --
# General
-- archives/telegram/homelab-crew/summaries/topic-10.md --
# Backups & NAS
-- archives/telegram/homelab-crew/summaries/topic-2.md --
# Off-topic

42 messages since March.
-- archives/telegram/homelab-crew/raw/2026-04-02.jsonl --
{"from": "marta", "text": "hi"}
-- archives/telegram/homelab-crew/notes.md --
extra
-- archives/discord/guild-7/DIGEST.md --
# Guild
-- archives/README.md --
about the archives
`)
	noDiagnostics(t, ws)
	if ws.ArchiveConfig == nil || ws.ArchiveConfig.AgentName != "Juniper" {
		t.Fatalf("ArchiveConfig = %+v", ws.ArchiveConfig)
	}
	if len(ws.Conversations) != 2 {
		t.Fatalf("Conversations = %+v", ws.Conversations)
	}
	g := ws.Conversations[0]
	if g.Channel != "discord" || g.Group != "guild-7" || g.Label != "guild-7" || g.Digest == nil {
		t.Errorf("discord = %+v", g)
	}
	c := ws.Conversations[1]
	if c.Channel != "telegram" || c.Group != "homelab-crew" || c.GroupID != "-100123" || c.Label != "Homelab Crew" ||
		c.Digest == nil || c.Index == nil || len(c.Raw) != 1 || len(c.Other) != 1 {
		t.Errorf("telegram = %+v", c)
	}
	type topic struct {
		id, name string
		n        int
	}
	var got []topic
	for _, tp := range c.Topics {
		got = append(got, topic{tp.ID, tp.Name, tp.Messages})
	}
	want := []topic{{"1", "General", 212}, {"2", "Off-topic", 42}, {"10", "Backups & NAS", 1087}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("topics = %v, want %v", got, want)
	}
	if !equalStrings(paths(ws.Notes), []string{"archives/README.md"}) {
		t.Errorf("Notes = %v", paths(ws.Notes))
	}
}

func TestConversations_RawTranscriptsGiveDaysSendersCountsAndDigestCites(t *testing.T) {
	ws := loadTxtar(t, `
-- archives/telegram/crew/INDEX.md --
| topic id | name | messages |
|---|---|---|
| 7 | Backups | 87 |
-- archives/telegram/crew/summaries/topic-7.md --
# Backups
-- archives/telegram/crew/raw/topic-7/2026-11-02.md --
# Crew — Backups (topic 7) — 2026-11-02

- **[08:51] Rui Costa:** restic to B2 ^L3
- **[09:07] Sam Okafor:** ok, we'll go with glacier ^L4
  a second line of the same message
- *[09:08] pricing_lookup:* 3.10 EUR
- **[09:10] Sam Okafor:** done ^L7
-- archives/telegram/crew/raw/topic-7/2026-11-03.md --
# Crew — Backups (topic 7) — 2026-11-03

- **[10:00] Rui Costa:** restore tested ^L3
-- archives/telegram/crew/raw/topic-9/2026-11-04.md --
# Crew — topic 9 — 2026-11-04

- **[11:00] Marta Sousa:** pi-hole or adguard? ^L3
-- archives/telegram/crew/raw/2026-10-30.md --
# Crew — 2026-10-30

**[20:52] Wei Zhang:** an older archiver's line
-- archives/telegram/crew/DIGEST.md --
# Crew — digest

## Latest decisions

- 2026-11-02 09:07 **Sam Okafor**: “ok, we'll go with glacier” ([raw/topic-7/2026-11-02.md#L4](raw/topic-7/2026-11-02.md#^L4))
- 2026-11-02 09:30 **Sam Okafor**: “gone” ([raw/topic-7/2026-11-02.md#L99](raw/topic-7/2026-11-02.md#^L99))
`)
	noDiagnostics(t, ws)
	c := ws.Conversations[0]
	type day struct {
		topic, day string
		n          int
		senders    []SenderCount
	}
	var days []day
	for _, d := range c.Days {
		days = append(days, day{d.Topic, d.Day, d.Messages, d.Senders})
	}
	want := []day{
		{"", "2026-10-30", 1, []SenderCount{{"Wei Zhang", 1}}},
		{"7", "2026-11-02", 3, []SenderCount{{"Sam Okafor", 2}, {"Rui Costa", 1}}},
		{"7", "2026-11-03", 1, []SenderCount{{"Rui Costa", 1}}},
		{"9", "2026-11-04", 1, []SenderCount{{"Marta Sousa", 1}}},
	}
	if !reflect.DeepEqual(days, want) {
		t.Errorf("days = %+v\nwant %+v", days, want)
	}
	// The raw lines count over the index; a raw topic folder without a
	// summary is a topic too.
	if len(c.Topics) != 2 || c.Topics[0].ID != "7" || c.Topics[0].Messages != 4 || len(c.Topics[0].Days) != 2 ||
		c.Topics[1].ID != "9" || c.Topics[1].File != nil || c.Topics[1].Name != "9" || c.Topics[1].Messages != 1 {
		t.Errorf("topics = %+v %+v", c.Topics[0], c.Topics[1])
	}
	// A digest line citing a raw line has the message; one citing a line
	// that is not there is left out.
	if len(c.Cites) != 1 || c.Cites[0].Line != 5 || c.Cites[0].Topic != c.Topics[0] ||
		c.Cites[0].Message != (RawMessage{Time: "09:07", Sender: "Sam Okafor", Text: "ok, we'll go with glacier", Line: 4}) {
		t.Errorf("cites = %+v", c.Cites)
	}
}

func TestConversations_IndexLinesWithCounts(t *testing.T) {
	counts := indexCounts("# Index\n- [General](summaries/topic-1.md) — 212 messages\n- topic-7 (Backups): 87 msgs\n- topic-9: no count\n")
	if !reflect.DeepEqual(counts, map[string]int{"1": 212, "7": 87}) {
		t.Errorf("counts = %v", counts)
	}
}

func TestBootstrap_FilesAndObservedBlocks(t *testing.T) {
	ws := loadTxtar(t, `
-- USER.md --
# USER.md

<!-- observed: 2026-07-27 | status: active -->
Prefers tea.
Lives in Lisbon.

- Runs on Sundays <!-- observed: 2026-06-01 | status: superseded -->

<!-- observed: 2026-08-01 -->
- Learning the cello
## Next
-- AGENTS.md --
# Agents
-- soul.md --
# lower-case bootstrap name
-- Tools.md --
# mixed case is an ordinary note
`)
	var names []string
	for _, b := range ws.Bootstrap {
		names = append(names, b.Name)
	}
	if !equalStrings(names, []string{"AGENTS", "USER", "SOUL"}) {
		t.Errorf("Bootstrap = %v", names)
	}
	if !equalStrings(paths(ws.Notes), []string{"Tools.md"}) {
		t.Errorf("Notes = %v", paths(ws.Notes))
	}
	var user *BootstrapFile
	for _, b := range ws.Bootstrap {
		if b.Name == "USER" {
			user = b
		}
	}
	var got []Observation
	for _, o := range user.Observations {
		got = append(got, *o)
	}
	want := []Observation{
		{Line: 3, EndLine: 5, Observed: date("2026-07-27"), Status: "active", Text: "Prefers tea.\nLives in Lisbon."},
		{Line: 7, EndLine: 7, Observed: date("2026-06-01"), Status: "superseded", Text: "Runs on Sundays"},
		{Line: 9, EndLine: 10, Observed: date("2026-08-01"), Text: "Learning the cello"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Observations = %+v\nwant %+v", got, want)
	}
}

func TestArchive_EntriesWithMonthAndLifecycle(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/archive/2026-10.md --
# Archive — October 2026

## Archived 2026-10-04
- Sam will send the inventory tomorrow. (source: 2026-09-15) — done 2026-09-16.
- [reference] Gateway host is nuc-01. Superseded 2026-10-21 by the Mac mini.
- Plants watered (10-07)
`)
	a := ws.Archive[0]
	if !a.Month.Equal(date("2026-10-01")) || len(a.Entries) != 3 || a.File.Kind != KindArchive {
		t.Fatalf("Archive = %+v", a)
	}
	if e := a.Entries[0]; e.Status != "done" || e.Sources[0].Path != "memory/2026-09-15.md" || e.Section != "Archived 2026-10-04" {
		t.Errorf("entry 1 = %+v", e)
	}
	if e := a.Entries[1]; e.Status != "superseded" || e.TypeTag != "reference" {
		t.Errorf("entry 2 = %+v", e)
	}
	if e := a.Entries[2]; !e.Date.Equal(date("2026-10-07")) {
		t.Errorf("partial date in an archive resolves against its month: %v", e.Date)
	}
}
