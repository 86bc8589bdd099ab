package dream

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// gatesWorkspace has a curated index and a topic file, three days of logs
// and an OpenClaw recall store: the line about the backup window was
// found by four different searches on four days (and the daily
// ingestion), the decision about the release train by none.
const gatesWorkspace = `
-- MEMORY.md --
# MEMORY.md

## Infrastructure
- The gateway runs on nuc-01.
-- memory/release.md --
# Release

## Process
- Releases are cut from main.
-- memory/2026-05-01.md --
# 2026-05-01

- Decision: the release train leaves every second Thursday from now on.
- Backups of the photo library run at 03:30 to the basement NAS over rsync.
-- memory/2026-05-02.md --
# 2026-05-02

- Decision: the release train leaves every second Thursday from now on.
- Walked to the bakery and back, nice weather for it.
-- memory/2026-05-03.md --
# 2026-05-03

- Decision: the release train leaves every second Thursday from now on.
-- memory/.dreams/short-term-recall.json --
{"version": 1, "updatedAt": "2026-05-03T20:00:00Z", "entries": {
 "memory:memory/2026-05-01.md:4:4": {"key": "memory:memory/2026-05-01.md:4:4", "path": "memory/2026-05-01.md", "startLine": 4, "endLine": 4, "source": "memory",
  "snippet": "Backups of the photo library run at 03:30 to the basement NAS over rsync.",
  "recallCount": 4, "dailyCount": 1, "groundedCount": 0, "totalScore": 4.1, "maxScore": 0.9,
  "firstRecalledAt": "2026-04-28T09:00:00Z", "lastRecalledAt": "2026-05-03T18:00:00Z",
  "queryHashes": ["a1", "b2", "c3", "d4"], "recallDays": ["2026-04-28", "2026-04-30", "2026-05-02", "2026-05-03"],
  "conceptTags": ["backups", "photo", "library", "nas", "rsync"]}
}}
`

const gatesNow = "2026-05-04T08:00:00Z"

func gatesPlan(t *testing.T, dir string, opts Options) *Plan {
	t.Helper()
	opts.Now, opts.Force = at(gatesNow), true
	pl, err := NewPlan(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

func TestGates_AMarkerLineStatedOnThreeDaysIsOnlyProposed(t *testing.T) {
	dir := workspaceFrom(t, gatesWorkspace)
	res, err := Run(context.Background(), dir, Options{Now: at(gatesNow), Force: true}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"MEMORY.md", "memory/release.md"} {
		if strings.Contains(read(t, dir, f), "release train") {
			t.Errorf("a decision no search recalled reached %s:\n%s", f, read(t, dir, f))
		}
	}
	var p *Proposal
	for i := range res.Plan.Proposals {
		if strings.Contains(res.Plan.Proposals[i].Text, "release train") {
			p = &res.Plan.Proposals[i]
		}
	}
	if p == nil || !slices.Contains(p.Cues, "stated as a decision") || !slices.Contains(p.Cues, "stated on 3 days") || len(p.Source) != 3 || p.Signals == nil || p.Signals.Promote {
		t.Fatalf("the decision should be a proposal with its cues, three sources and signals that failed the gates: %+v", res.Plan.Proposals)
	}
	diary := read(t, dir, "DREAMS.md")
	for _, want := range []string{diaryStart, "release train", "status: proposed", "score ", "relevance ", "from memory/2026-05-01.md#L3-L3", "id " + p.ID} {
		if !strings.Contains(diary, want) {
			t.Errorf("DREAMS.md lacks %q:\n%s", want, diary)
		}
	}
}

func TestGates_ALinePastTheGatesOnRecallSignalsIsPromoted(t *testing.T) {
	dir := workspaceFrom(t, gatesWorkspace)
	pl := gatesPlan(t, dir, Options{})
	var idx *Action
	for i, a := range pl.Actions {
		if a.Kind == "index" && strings.Contains(a.Text, "photo library") {
			idx = &pl.Actions[i]
		}
	}
	if idx == nil || !idx.Scores.Promotion.Promote {
		t.Fatalf("the recalled backup line should pass the Deep gates into MEMORY.md: %+v", pl.Actions)
	}
	if s := idx.Scores.Promotion; s.Frequency == 0 || s.Diversity < 0.8 || s.Recency == 0 || s.Score < 0.75 {
		t.Errorf("its six signals: %+v", s)
	}
	if pl.Counts.Promoted != 1 || strings.Contains(pl.Summary, "nothing passed") {
		t.Errorf("one line passed the gates: %s", pl.Summary)
	}
}

func TestGates_AChosenCandidateIsWritten(t *testing.T) {
	dir := workspaceFrom(t, gatesWorkspace)
	var id string
	for _, p := range gatesPlan(t, dir, Options{}).Proposals {
		if strings.Contains(p.Text, "release train") {
			id = p.ID
		}
	}
	if _, err := Run(context.Background(), dir, Options{Now: at(gatesNow), Force: true, Choose: []string{id}}, false, nil); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "MEMORY.md") + read(t, dir, "memory/release.md"); strings.Count(got, "release train leaves every second Thursday") != 1 || !strings.Contains(got, "memory/2026-05-01.md") {
		t.Errorf("the chosen decision should be written once, with its source:\n%s", got)
	}
	_, err := NewPlan(context.Background(), dir, Options{Now: at(gatesNow), Force: true, Choose: []string{"0000000000"}})
	var ce *ChoiceError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "not in this dream's plan") {
		t.Errorf("an unknown id should refuse the choice: %v", err)
	}
}

func TestGates_NothingPastTheGatesWritesOnlyTheDiaryAndTheLog(t *testing.T) {
	dir := workspaceFrom(t, strings.Replace(gatesWorkspace, `"recallCount": 4`, `"recallCount": 1`, 1))
	before := snapshot(t, dir)
	res, err := Run(context.Background(), dir, Options{Now: at(gatesNow), Force: true}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Applied || !strings.HasPrefix(res.Plan.Summary, "nothing passed the gates; ") || !strings.Contains(res.Plan.Summary, "proposal") {
		t.Errorf("the dream should say plainly that nothing passed: %q", res.Plan.Summary)
	}
	after := snapshot(t, dir)
	var changed []string
	for p, h := range after {
		if before[p] != h && !strings.HasPrefix(p, ".backup/") && !strings.HasPrefix(p, ".dreamwiki/") {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	if want := []string{"DREAMS.md", "memory/dream-log.md", "memory/heartbeat-state.json"}; !slices.Equal(changed, want) {
		t.Errorf("written %v, want only %v (diary entry, log with its watermark, lastDreamAt)", changed, want)
	}
	if !strings.Contains(read(t, dir, "DREAMS.md"), "nothing passed the gates") {
		t.Errorf("DREAMS.md:\n%s", read(t, dir, "DREAMS.md"))
	}
}
