package dream

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// promotionWorkspace: one log (2026-04-10) whose lines have recall data of
// every kind: the recall store, recall events only, a range spanning two
// lines, repeats in later logs, a line promoted before, and none at all.
const promotionWorkspace = `
-- memory/2026-04-10.md --
# 2026-04-10

- Strong candidate: the backup window moved to 02:30.
- Hammered candidate: the VPN exit node is in Frankfurt.
- Lucky candidate: the printer toner is the TN-2420 cartridge.
- Rack fan is loud again
- Cellar humidity sensor drifts
- Gated candidate: the router firmware stays on 7.57.
- Weak candidate: the hallway light timer runs until midnight.
- Garage door opener battery swapped
- Range start: the patch panel labels were redone.
- Range anchor: the patch panel port 12 feeds the office switch.
- Promoted candidate: the UPS self-test runs on Sundays.
-- memory/2026-04-11.md --
# 2026-04-11

- Cellar humidity sensor drifts
-- memory/2026-04-12.md --
# 2026-04-12

- Cellar humidity sensor drifts
-- memory/.dreams/events.jsonl --
{"type":"memory.recall.recorded","ts":"2026-04-13T10:00:00.000Z","query":"garage battery","resultCount":1,"results":[{"path":"memory/2026-04-10.md","startLine":10,"endLine":10,"score":0.8}]}
{"type":"memory.recall.recorded","ts":"2026-04-14T10:00:00.000Z","query":"door opener","resultCount":1,"results":[{"path":"memory/2026-04-10.md","startLine":10,"endLine":10,"score":0.6}]}
{"type":"memory.recall.recorded","ts":"2026-04-14T10:00:00.000Z","query":"backup window","resultCount":1,"results":[{"path":"memory/2026-04-10.md","startLine":3,"endLine":3,"score":0.9}]}
-- memory/.dreams/short-term-recall.json --
{
  "version": 1,
  "entries": {
    "memory:memory/2026-04-10.md:3:3": {"path": "memory/2026-04-10.md", "startLine": 3, "endLine": 3, "recallCount": 5, "totalScore": 4.25, "groundedCount": 1,
      "queryHashes": ["a", "b", "c", "d"], "recallDays": ["2026-04-08", "2026-04-12", "2026-04-13"], "lastRecalledAt": "2026-04-13T12:00:00.000Z", "conceptTags": ["backup", "window", "time"]},
    "memory:memory/2026-04-10.md:4:4": {"path": "memory/2026-04-10.md", "startLine": 4, "endLine": 4, "recallCount": 50, "totalScore": 45,
      "queryHashes": ["a"], "recallDays": ["2026-04-12", "2026-04-13", "2026-04-14"], "lastRecalledAt": "2026-04-14T12:00:00.000Z", "conceptTags": ["vpn", "exit"]},
    "memory:memory/2026-04-10.md:5:5": {"path": "memory/2026-04-10.md", "startLine": 5, "endLine": 5, "recallCount": 1, "totalScore": 0.95,
      "queryHashes": ["a"], "recallDays": ["2026-04-14"], "lastRecalledAt": "2026-04-14T12:00:00.000Z", "conceptTags": ["printer"]},
    "memory:memory/2026-04-10.md:8:8": {"path": "memory/2026-04-10.md", "startLine": 8, "endLine": 8, "recallCount": 3, "totalScore": 2.7, "groundedCount": 3,
      "queryHashes": ["a", "b", "c"], "recallDays": ["2026-04-12", "2026-04-13", "2026-04-14"], "lastRecalledAt": "2026-04-14T06:00:00.000Z",
      "conceptTags": ["router", "firmware", "7.57", "mikrotik", "version", "network"]},
    "memory:memory/2026-04-10.md:9:9": {"path": "memory/2026-04-10.md", "startLine": 9, "endLine": 9, "recallCount": 3, "totalScore": 0.9,
      "queryHashes": ["a", "b", "c"], "recallDays": ["2026-04-01", "2026-04-13"], "lastRecalledAt": "2026-04-13T12:00:00.000Z", "conceptTags": ["light", "timer"]},
    "memory:memory/2026-04-10.md:11:12": {"path": "memory/2026-04-10.md", "startLine": 11, "endLine": 12, "recallCount": 4, "totalScore": 3.2, "groundedCount": 2,
      "snippet": "Range anchor: the patch panel port 12 feeds the office switch.",
      "queryHashes": ["a", "b", "c", "d"], "recallDays": ["2026-04-11", "2026-04-12", "2026-04-13", "2026-04-14"], "lastRecalledAt": "2026-04-14T09:00:00.000Z",
      "conceptTags": ["patch", "panel", "port", "office"]},
    "memory:memory/2026-04-10.md:13:13": {"path": "memory/2026-04-10.md", "startLine": 13, "endLine": 13, "recallCount": 6, "totalScore": 5.4, "groundedCount": 2,
      "queryHashes": ["a", "b", "c", "d", "e"], "recallDays": ["2026-04-12", "2026-04-14"], "lastRecalledAt": "2026-04-14T11:00:00.000Z",
      "conceptTags": ["ups", "self-test", "sunday", "power", "battery"], "promotedAt": "2026-04-14T03:00:00.000Z"}
  }
}
`

// TestDream_PromotionAsTheEngineUsesIt checks the six signals, the score
// and the gates of DESIGN 5.2 on what the dream itself feeds them: the
// recall store and the recall events, and nothing else: a fact's repeats
// across logs and its log's own date are text, which may propose a line
// but never promote it (issue #23, rule 1).
// now = 2026-04-14 12:00 UTC; weights .30 .24 .15 .15 .10 .06; gates 0.75,
// n = recalls + daily ingestions >= 3, max(unique queries, recall days)
// >= 3 (as OpenClaw's deep phase); half-life 14 days. The comments give
// the figures at the earlier design, which also counted the log's date as
// a recall day (+.2 diversity, a longer span) and each further log as a
// recall of relevance 0.5; the table holds today's (each one checked by
// hand: the same formulas without those).
func TestDream_PromotionAsTheEngineUsesIt(t *testing.T) {
	tests := []struct {
		line     int
		signals  [6]float64 // relevance, frequency, diversity, recency, consolidation, conceptual
		score    float64
		promote  bool
		promoted bool // promoted by an earlier run: not again
	}{
		// 1. Store: n=5, total 4.25, 4 queries, days {04-08, 04-10, 04-12, 04-13},
		// last 04-13 12:00 (1 d), grounded 1, 3 tags. rel 4.25/5 = .85;
		// freq ln6/ln11 = .747222; div max(4,4)/5 = .8; rec exp(-ln2/14) = .951695;
		// spacing ln5/ln5 = 1, span 5/7 = .714286 -> cons .55+.321429 = .871429;
		// concept 3/6 = .5. Score .814230: all gates pass. (The event for this
		// line is not counted again: the store already sums the events.)
		{3, [6]float64{.85, .747222, .8, .951695, .871429, .5}, .814230, true, false},
		// 2. One query hammered 50 times: rel .9, freq 1 (clamped), div 4 days/5
		// = .8, rec 1, spacing 1, span 04-10..04-14 = 4/7 -> cons .807143,
		// concept 2/6. Score .880714, but 1 unique query < 3.
		{4, [6]float64{.9, 1, .6, 1, .678571, .333333}, .837857, true, false},
		// 3. One lucky recall: rel .95, freq ln2/ln11 = .289065, div 2 days/5
		// = .4, rec 1, spacing 0, span 4/7 -> cons .257143, concept 1/6.
		// Score .600090: fails all three gates.
		{5, [6]float64{.95, .289065, .2, 1, 0, .166667}, .544376, false, false},
		// 4. Never recalled, said once: only the log's day. rec from that day
		// (4.5 d): exp(-ln2*4.5/14) = .800277; concept from its words (rack,
		// loud) 2/6. Score .2*.15 + .800277*.15 + .333333*.06 = .170042.
		{6, [6]float64{0, 0, 0, 0, 0, .333333}, .02, false, false},
		// 5. Said in three logs (04-10, 04-11, 04-12), never searched: n = 2
		// further logs, total 2*.5 -> rel .5; freq ln3/ln11 = .458157; div
		// 3 days/5 = .6; rec from 04-12 (2.5 d) = .883577; spacing ln2/ln5 =
		// .430677, span 2/7 -> cons .365444; concept 4/6 (cellar, humidity,
		// sensor, drifts). Score .559039; no search, so no unique query.
		{7, [6]float64{0, 0, 0, 0, 0, .666667}, .04, false, false},
		// 6. Exactly enough: n=3, total 2.7, 3 queries, 4 days, last 6 h ago,
		// grounded 3 (cons = 3/3 = 1), 6 tags. rel .9, freq ln4/ln11 = .578130,
		// div .8, rec exp(-ln2*.25/14) = .987699. Score .836906: promoted.
		{8, [6]float64{.9, .578130, .6, .987699, 1, 1}, .806906, true, false},
		// 7. Enough recalls and queries, low relevance (.9/3 = .3): spacing
		// .682606, span 04-01..04-13 = 12/7 -> 1 -> cons .825433. Score
		// .564049 < .75.
		{9, [6]float64{.3, .578130, .6, .951695, .825433, .333333}, .564049, false, false},
		// 8. Recall events only: 2 events (0.8 + 0.6), 2 queries, days
		// {04-10, 04-13, 04-14}, last 04-14 10:00 (2 h): rel .7, freq ln3/ln11,
		// div .6, rec .995883, spacing .430677, span 4/7 -> cons .494015,
		// concept 5/6 (garage, door, opener, battery, swapped). Score .658742.
		{10, [6]float64{.7, .458157, .4, .995883, .301158, .833333}, .609456, false, false},
		// 9. A stored range of two lines belongs to the line its snippet
		// names; the other line of the range gets nothing from it.
		{11, [6]float64{0, 0, 0, 0, 0, 1}, .06, false, false},
		// 10. ... and the anchored line: n=4, total 3.2, 4 queries, 5 days,
		// last 3 h ago, grounded 2, 4 tags: rel .8, freq ln5/ln11 = .671188,
		// div 1, rec .993830, spacing ln4/ln5 = .861353, span 4/7 -> cons
		// .730887. Score .813248: promoted.
		{12, [6]float64{.8, .671188, .8, .993830, .666667, .666667}, .776826, true, false},
		// 11. Promoted by an earlier run (promotedAt): scored, never again.
		// n=6, total 5.4, 5 queries, days {04-10, 04-12, 04-14}, last 1 h ago.
		{13, [6]float64{.9, .811508, 1, .997939, .678571, .833333}, .88231, true, true},
	}
	dir := workspaceFrom(t, promotionWorkspace)
	ws := load(t, dir)
	e := newEnv(ws, Options{Now: at("2026-04-14T12:00:00Z")})
	sel := selectLogs(ws, 32, 192*1024)
	mem, err := readCurated(ws, e.day, newFileSet(ws), newLedger())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := readRecalls(ws, e.logs)
	if err != nil {
		t.Fatal(err)
	}
	p := scorer{rec: rec, now: e.now, cfg: promotionConfig(e.cfg.Dream)}
	cands, _ := groupDuplicates(sense(ws, sel, e.logs, mem, p).cands)
	byLine := map[int]*candidate{}
	for _, c := range cands {
		if c.path == "memory/2026-04-10.md" {
			byLine[c.line] = c
		}
	}
	for _, tt := range tests {
		c := byLine[tt.line]
		if c == nil {
			t.Errorf("line %d: no candidate", tt.line)
			continue
		}
		d, _, promoted := p.promotion(c)
		s := d.Signals
		got := [6]float64{s.Relevance, s.Frequency, s.Diversity, s.Recency, s.Consolidation, s.Conceptual}
		for i := range got {
			if math.Abs(got[i]-tt.signals[i]) > 1e-6 {
				t.Errorf("line %d signal %d = %.6f, want %.6f", tt.line, i, got[i], tt.signals[i])
			}
		}
		if math.Abs(d.Score-tt.score) > 1e-6 || d.Promote != tt.promote || promoted != tt.promoted {
			t.Errorf("line %d: score %.6f promote %v before %v, want %.6f %v %v (%v)", tt.line, d.Score, d.Promote, promoted, tt.score, tt.promote, tt.promoted, d.Reasons)
		}
	}

	// The plan indexes the facts that pass and were not promoted before,
	// and reports the same numbers; the one the logs state on three days
	// (line 7) is only proposed. One query hammered on three days (line 4)
	// passes, as in OpenClaw: its recall days make it spaced use.
	pl, err := NewPlan(context.Background(), dir, Options{Now: at("2026-04-14T12:00:00Z"), Force: true})
	if err != nil {
		t.Fatal(err)
	}
	var indexed []string
	for _, a := range pl.Actions {
		if a.Kind == "index" {
			indexed = append(indexed, a.Evidence[0])
			passed := a.Scores != nil && a.Scores.Promotion.Promote
			if !passed {
				t.Errorf("index action: %+v", a)
			}
		}
	}
	want := []string{"memory/2026-04-10.md#L3-L3", "memory/2026-04-10.md#L4-L4", "memory/2026-04-10.md#L8-L8", "memory/2026-04-10.md#L12-L12"}
	if strings.Join(indexed, " ") != strings.Join(want, " ") {
		t.Errorf("indexed %v, want %v", indexed, want)
	}
}

// decayWorkspace has one MEMORY.md entry per decay case, each with its
// memory-meta.json record.
const decayWorkspace = `
-- MEMORY.md --
# MEMORY.md

## Facts
- Bought a new standing desk for the office.
- The office plant needs water on Mondays.
- The bike lock code is kept by Aiko.
- Sam's running shoes are the blue pair.
- The old Kindle went to the charity shop. Source: memory/2025-05-09.md#L3-L3
- The spare HDMI cable is in the second drawer.
- The expired gym membership card is in the wallet.
- The winter tyres are stored at the garage.
- NAS is nas-01 at 10.0.0.20 in the hallway cupboard.
- Sam takes his coffee black, no sugar.
- Sam's dentist is on Rua Augusta.
- The recycling goes out on Thursday evenings.
-- memory/memory-meta.json --
{
  "entries": [
    {"id": "d1", "text": "Bought a new standing desk for the office.", "created": "2026-04-13", "recallCount": 0},
    {"id": "d2", "text": "The office plant needs water on Mondays.", "created": "2026-04-04", "lastRecalled": "2026-04-12", "recallCount": 3},
    {"id": "d3", "text": "The bike lock code is kept by Aiko.", "created": "2026-01-04", "recallCount": 0},
    {"id": "d4", "text": "Sam's running shoes are the blue pair.", "created": "2025-09-26", "lastRecalled": "2026-03-25", "recallCount": 4},
    {"id": "d5", "text": "The old Kindle went to the charity shop.", "created": "2025-05-09", "recallCount": 0},
    {"id": "d6", "text": "The spare HDMI cable is in the second drawer.", "created": "2025-05-09", "lastRecalled": "2026-02-13", "recallCount": 1},
    {"id": "d7", "text": "The expired gym membership card is in the wallet.", "created": "2025-04-19", "lastRecalled": "2026-01-04", "recallCount": 1},
    {"id": "d8", "text": "The winter tyres are stored at the garage.", "created": "2025-03-10", "lastRecalled": "2026-01-14", "recallCount": 2},
    {"id": "d9", "text": "NAS is nas-01 at 10.0.0.20 in the hallway cupboard.", "created": "2025-03-10", "recallCount": 0},
    {"id": "d10", "text": "Sam takes his coffee black, no sugar.", "created": "2025-06-18", "lastRecalled": "2026-03-05", "recallCount": 25},
    {"id": "d11", "text": "Sam's dentist is on Rua Augusta.", "created": "2025-08-07", "lastRecalled": "2026-04-06", "recallCount": 15},
    {"id": "d12", "text": "The recycling goes out on Thursday evenings.", "lastRecalled": "2026-04-13", "recallCount": 3}
  ]
}
`

// TestDream_DecayAsTheEngineUsesIt checks DESIGN 5.1 on the records the
// dream matches to MEMORY.md's entries: score = clamp(1 - days/365 +
// min(0.05 n, 0.5) + (0.2 if recalled <= 7 d, 0.1 if <= 30 d), 0, 1), the
// structural floor 0.3, crystallised at 20 recalls, archived below 0.1 with
// fewer than 2 recalls (and then moved to the archive). now = 2026-04-14.
func TestDream_DecayAsTheEngineUsesIt(t *testing.T) {
	tests := []struct {
		id    string
		score float64 // as written: three decimals
		tier  memory.Tier
	}{
		{"d1", 0.997, memory.TierHot},       // 1 d: 1 - 1/365 = .997260
		{"d2", 1, memory.TierWarm},          // 10 d: .972603 + 3*.05 + .2 = 1.32 -> 1
		{"d3", 0.726, memory.TierCold},      // 100 d: 1 - 100/365 = .726027
		{"d4", 0.752, memory.TierCold},      // 200 d: .452055 + .2 + .1 (20 d ago) = .752055
		{"d5", 0.068, memory.TierArchived},  // 340 d: .068493 < .1, 0 recalls -> archived
		{"d6", 0.118, memory.TierCold},      // 340 d: .068493 + .05 (60 d ago: no recency) = .118493
		{"d7", 0.064, memory.TierArchived},  // 360 d: .013699 + .05 = .063699 < .1, 1 recall -> archived
		{"d8", 0.004, memory.TierCold},      // 400 d: -.095890 + .1 = .004110, but 2 recalls: kept
		{"d9", 0.3, memory.TierCold},        // 400 d, a host and an IP: structural floor .3, never archived
		{"d10", 1, memory.TierCrystallised}, // 25 recalls >= 20: crystallised, 1
		{"d11", 0.915, memory.TierCold},     // 250 d: .315068 + .5 (15 recalls, capped) + .1 (8 d) = .915068
		{"d12", 0.35, memory.TierCold},      // no creation date: base 0 + .15 + .2 (1 d) = .35
	}
	dir := workspaceFrom(t, decayWorkspace)
	pl, err := NewPlan(context.Background(), dir, Options{Now: at("2026-04-14T00:00:00Z"), Force: true})
	if err != nil {
		t.Fatal(err)
	}
	var metaBytes []byte
	for _, f := range pl.Files {
		if f.Path == "memory/memory-meta.json" {
			metaBytes = f.Content()
		}
	}
	doc, err := memory.ParseMetaDoc(metaBytes)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		r := doc.ByID(tt.id)
		if r == nil {
			t.Errorf("%s: no record", tt.id)
			continue
		}
		if r.Score != tt.score || r.Tier != string(tt.tier) {
			t.Errorf("%s: %.3f %s, want %.3f %s", tt.id, r.Score, r.Tier, tt.score, tt.tier)
		}
	}
	var archived []string
	for _, a := range pl.Actions {
		if a.Kind == "archive" {
			archived = append(archived, a.Text)
			if a.Scores == nil || a.Scores.Decay == nil || a.Scores.Decay.Tier != "archived" || a.Scores.Decay.Score >= 0.1 {
				t.Errorf("archive without its decay: %+v", a)
			}
		}
	}
	// Only the dream's own line goes (its Source footer says the dream
	// wrote it); the author's decayed line stays and is reported (#23
	// rule 2).
	if strings.Join(archived, "|") != "The old Kindle went to the charity shop." {
		t.Errorf("archived %q", archived)
	}
	if d5, d7 := doc.ByID("d5"), doc.ByID("d7"); d5.File != "memory/archive/2026-04.md" || d7.File != "MEMORY.md" {
		t.Errorf("records point to %q, %q", d5.File, d7.File)
	}
	if !strings.Contains(diagText(pl.Diagnostics), "1 curated line decayed below the archive threshold (MEMORY.md:10)") {
		t.Errorf("the author's decayed line is not reported:\n%s", diagText(pl.Diagnostics))
	}
}
