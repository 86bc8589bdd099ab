package dream

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/memory"
)

func TestRecall_CountsTheRecallEverywhere(t *testing.T) {
	dir := workspaceFrom(t, basic)
	ctx := context.Background()
	res, err := Recall(ctx, dir, "zigbee dongle", "Zigbee2MQTT runs on the NUC with the SONOFF dongle", Options{Now: at("2026-04-05T10:00:00Z")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Path != "memory/homelab.md" || res.Matches[0].How != "exact" || len(res.Entries) != 1 {
		t.Fatalf("matches %+v entries %+v", res.Matches, res.Entries)
	}
	if _, err := Recall(ctx, dir, "where is the zigbee stick", "Zigbee2MQTT runs on the NUC with the SONOFF dongle", Options{Now: at("2026-04-05T11:00:00Z")}, 0); err != nil {
		t.Fatal(err)
	}
	events := read(t, dir, "memory/.dreams/events.jsonl")
	if n := strings.Count(events, `"type":"memory.recall.recorded"`); n != 2 || !strings.Contains(events, `"query":"zigbee dongle","resultCount":1,"results":[{"path":"memory/homelab.md","startLine":5,"endLine":5,"score":1}]`) {
		t.Errorf("events:\n%s", events)
	}
	store, err := memory.ParseRecallDoc([]byte(read(t, dir, "memory/.dreams/short-term-recall.json")))
	if err != nil {
		t.Fatal(err)
	}
	r := store.Get("memory:memory/homelab.md:5:5")
	if r == nil || r.RecallCount != 2 || len(r.QueryHashes) != 2 || r.DailyCount != 0 || r.GroundedCount != 2 || r.TotalScore != 2 ||
		r.Snippet != "Zigbee2MQTT runs on the NUC with the SONOFF dongle." && r.Snippet != "Zigbee2MQTT runs on the NUC with the SONOFF dongle" {
		t.Errorf("recall store: %+v", r)
	}
	meta, _ := memory.ParseMetaDoc([]byte(read(t, dir, "memory/memory-meta.json")))
	var rec *memory.MetaRecord
	for _, m := range meta.Entries {
		if strings.HasPrefix(m.Text, "Zigbee2MQTT runs on the NUC") {
			rec = m
		}
	}
	if rec == nil || rec.RecallCount != 2 || rec.LastRecalled.Format(time.RFC3339) != "2026-04-05T11:00:00Z" || rec.File != "memory/homelab.md" {
		t.Errorf("meta: %+v", rec)
	}
	if len(meta.Entries) != 1 {
		t.Errorf("a recall tracked %d entries; only the recalled one should get a record", len(meta.Entries))
	}
	// Nothing matches: an error, and nothing written.
	before := snapshot(t, dir)
	_, err = Recall(ctx, dir, "q", "nothing like this anywhere at all", Options{Now: at("2026-04-05T12:00:00Z")}, 0)
	var nm *NoMatchError
	if !errors.As(err, &nm) || !mapsEqual(before, snapshot(t, dir)) {
		t.Errorf("no match: %v", err)
	}
}

// Recalls are what lets a fact of the daily logs reach MEMORY.md: three
// searches with different queries, then a dream.
func TestRecall_ThenDreamPromotesIntoMemory(t *testing.T) {
	dir := workspaceFrom(t, basic)
	ctx := context.Background()
	for i, q := range []string{"zigbee path", "dongle by-id", "ttyUSB0 problem"} {
		now := at("2026-04-0" + string(rune('3'+i)) + "T10:00:00Z")
		if _, err := Recall(ctx, dir, q, "The Zigbee2MQTT dongle on the NUC needs the by-id path, not /dev/ttyUSB0.", Options{Now: now}, 0); err != nil {
			t.Fatal(err)
		}
	}
	res := dream(t, dir, "2026-04-05T12:00:00Z")
	var idx *Action
	for i, a := range res.Plan.Actions {
		if a.Kind == "index" && strings.Contains(a.Text, "Zigbee2MQTT dongle") {
			idx = &res.Plan.Actions[i]
		}
	}
	if idx == nil || !idx.Scores.Promotion.Promote {
		t.Fatalf("not promoted into MEMORY.md: %+v", res.Plan.Actions)
	}
	if !strings.Contains(read(t, dir, "MEMORY.md"), "- [reference] The Zigbee2MQTT dongle on the NUC needs the by-id path, not /dev/ttyUSB0 (2026-04-02). Source: memory/2026-04-02.md#L4-L4") {
		t.Errorf("MEMORY.md:\n%s", read(t, dir, "MEMORY.md"))
	}
	store, _ := memory.ParseRecallDoc([]byte(read(t, dir, "memory/.dreams/short-term-recall.json")))
	if r := store.Get("memory:memory/2026-04-02.md:4:4"); r == nil || r.PromotedAt.IsZero() {
		t.Errorf("promotion not recorded in the store: %+v", r)
	}
	// The event log holds recall records only: every record carries a
	// query, so a dream record (which has none) would not be one of its
	// records and is not written. The recall store holds the promotion.
	if ev := read(t, dir, "memory/.dreams/events.jsonl"); strings.Count(ev, "\n") != 3 || strings.Contains(ev, `"type":"memory.dream.completed"`) {
		t.Errorf("events:\n%s", ev)
	}
}

func TestSupersede(t *testing.T) {
	ctx := context.Background()
	t.Run("an L2 entry is marked and followed by its successor", func(t *testing.T) {
		dir := workspaceFrom(t, basic)
		res, err := Supersede(ctx, dir, "Zigbee2MQTT runs on the NUC", "Zigbee2MQTT runs on the Pi 5", Options{Now: at("2026-04-07T09:00:00Z")}, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := read(t, dir, "memory/homelab.md")
		want := "- Zigbee2MQTT runs on the NUC with the SONOFF dongle. (superseded 2026-04-07 by: Zigbee2MQTT runs on the Pi 5; since 2026-03-21) Source: memory/2026-03-21.md#L3-L3\n- Zigbee2MQTT runs on the Pi 5 (2026-04-07)\n"
		if !strings.Contains(got, want) {
			t.Errorf("homelab.md:\n%s", got)
		}
		if res.OldID == "" || res.NewID == "" || res.Backup != ".backup/memory-dreams/20260407-0900" {
			t.Errorf("result %+v", res)
		}
		meta, _ := memory.ParseMetaDoc([]byte(read(t, dir, "memory/memory-meta.json")))
		if o, n := meta.ByID(res.OldID), meta.ByID(res.NewID); o == nil || n == nil || o.SupersededBy != n.ID || n.Supersedes != o.ID {
			t.Errorf("meta chain %+v %+v", o, n)
		}
		if b := read(t, dir, ".backup/memory-dreams/20260407-0900/memory/homelab.md.bak"); strings.Contains(b, "superseded") {
			t.Error("backup holds the new content")
		}
		// The chain grows from its head; the old link cannot be superseded again.
		if _, err := Supersede(ctx, dir, "Zigbee2MQTT runs on the NUC with the SONOFF dongle", "x y z", Options{Now: at("2026-04-08T09:00:00Z")}, 0); err == nil || !strings.Contains(err.Error(), "already superseded") {
			t.Errorf("superseding a superseded entry: %v", err)
		}
		if _, err := Supersede(ctx, dir, "Zigbee2MQTT runs on the Pi 5", "Zigbee2MQTT runs on the NAS", Options{Now: at("2026-04-09T09:00:00Z")}, 0); err != nil {
			t.Fatal(err)
		}
		if got := read(t, dir, "memory/homelab.md"); !strings.Contains(got, "- Zigbee2MQTT runs on the Pi 5 (2026-04-07) (superseded 2026-04-09 by: Zigbee2MQTT runs on the NAS; since 2026-04-07)\n- Zigbee2MQTT runs on the NAS (2026-04-09)") {
			t.Errorf("extended chain:\n%s", got)
		}
	})
	t.Run("a MEMORY.md entry is replaced in place and archived", func(t *testing.T) {
		dir := workspaceFrom(t, basic)
		if _, err := Supersede(ctx, dir, "Gateway host is the NUC", "Gateway host is the Mac mini", Options{Now: at("2026-04-07T09:00:00Z")}, 0); err != nil {
			t.Fatal(err)
		}
		mem := read(t, dir, "MEMORY.md")
		if !strings.Contains(mem, "## Infrastructure\n- Gateway host is the Mac mini (2026-04-07)\n- Home lab details") {
			t.Errorf("MEMORY.md:\n%s", mem)
		}
		if a := read(t, dir, "memory/archive/2026-04.md"); !strings.Contains(a, "- Gateway host is the NUC. (superseded 2026-04-07 by: Gateway host is the Mac mini; since 2026-03-20) Source: memory/2026-03-20.md#L3-L3") {
			t.Errorf("archive:\n%s", a)
		}
	})
	t.Run("an existing successor is linked, not written again", func(t *testing.T) {
		dir := workspaceFrom(t, basic)
		res, err := Supersede(ctx, dir, "Zigbee2MQTT runs on the NUC", "NAS is nas-01 at 10.0.0.20", Options{Now: at("2026-04-07T09:00:00Z")}, 0)
		if err != nil || !res.Existing || res.NewFile != "memory/homelab.md" || res.NewID == "" {
			t.Fatalf("%v %+v", err, res)
		}
		if strings.Count(read(t, dir, "memory/homelab.md"), "\n- NAS is nas-01") != 1 {
			t.Error("successor written twice")
		}
	})
	t.Run("ambiguous and unknown text change nothing", func(t *testing.T) {
		dir := workspaceFrom(t, basic+"-- memory/notes.md --\n# Notes\n\n- Gateway host is the NUC.\n")
		before := snapshot(t, dir)
		_, err := Supersede(ctx, dir, "Gateway host is the NUC", "Gateway host is the Mac mini", Options{Now: at("2026-04-07T09:00:00Z")}, 0)
		var am *AmbiguousError
		if !errors.As(err, &am) || len(am.Matches) != 2 {
			t.Errorf("ambiguous: %v", err)
		}
		_, err = Supersede(ctx, dir, "no such entry anywhere", "x", Options{Now: at("2026-04-07T09:00:00Z")}, 0)
		var nm *NoMatchError
		if !errors.As(err, &nm) {
			t.Errorf("unknown: %v", err)
		}
		if !mapsEqual(before, snapshot(t, dir)) {
			t.Error("files changed")
		}
	})
}

func TestDecay_RecomputesAndReports(t *testing.T) {
	dir := workspaceFrom(t, decayWorkspace)
	res, err := Decay(context.Background(), dir, Options{Now: at("2026-04-14T00:00:00Z")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[memory.Tier]int{memory.TierHot: 1, memory.TierWarm: 1, memory.TierCold: 7, memory.TierCrystallised: 1, memory.TierArchived: 2}
	for tier, n := range want {
		if res.Tiers[tier] != n {
			t.Errorf("%s: %d, want %d", tier, res.Tiers[tier], n)
		}
	}
	if !res.Written || res.Changed != 12 {
		t.Errorf("written %v changed %d", res.Written, res.Changed)
	}
	meta, _ := memory.ParseMetaDoc([]byte(read(t, dir, "memory/memory-meta.json")))
	if r := meta.ByID("d9"); r.Tier != "cold" || r.Score != 0.3 || !r.Structural {
		t.Errorf("d9 %+v", r)
	}
	// Decay moves nothing: MEMORY.md is as it was.
	if !strings.Contains(read(t, dir, "MEMORY.md"), "The old Kindle went to the charity shop.") {
		t.Error("decay moved an entry")
	}
	var b strings.Builder
	res.WriteText(&b, time.Date(2026, 4, 14, 0, 0, 0, 0, time.UTC))
	for _, want := range []string{"decay at 2026-04-14 00:00 UTC: 12 entries, 12 changed tier", "  archived      2", "d5             archived*      0.068       0 2025-05-09 The old Kindle went to the charity shop.", "2 archived entries move to memory/archive/ at the next dream"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestApply_RefusesAPlanWhoseFilesChanged(t *testing.T) {
	dir := workspaceFrom(t, basic)
	pl, err := NewPlan(context.Background(), dir, Options{Now: at("2026-04-05T07:00:00Z"), Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := appendFile(filepath.Join(dir, "memory", "homelab.md"), "- A hand edit made while the plan was shown.\n"); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	_, err = Apply(context.Background(), pl, nil)
	var ce *ChangedError
	if !errors.As(err, &ce) || ce.Path != "memory/homelab.md" {
		t.Fatalf("apply over a changed file: %v", err)
	}
	if !mapsEqual(before, snapshot(t, dir)) || Pending(dir) {
		t.Error("a refused plan wrote something")
	}
	if err := checkInside("../outside.md"); err == nil {
		t.Error("a path outside the workspace was accepted")
	}
	if allowedTarget("memory/2026-04-02.md") || allowedTarget("memory/dreaming/deep/2026-04-02.md") || allowedTarget("notes/x.md") {
		t.Error("a daily log or a file outside memory/ is an allowed target")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRecall_WaitsForADreamToFinish(t *testing.T) {
	dir := workspaceFrom(t, basic)
	l, err := acquireLock(dir, time.Hour, "test")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Recall(context.Background(), dir, "q", "Zigbee2MQTT runs on the NUC", Options{Now: at("2026-04-05T10:00:00Z")}, 0)
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("no wait: %v", err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		l.release()
	}()
	if _, err := Recall(context.Background(), dir, "q", "Zigbee2MQTT runs on the NUC", Options{Now: at("2026-04-05T10:00:00Z")}, 5*time.Second); err != nil {
		t.Fatalf("waiting: %v", err)
	}
}

// The write guard refuses every file the reader reads as a daily log
// (issue #14: it once let through "memory/2026-04-14 standup.md", which
// the reader calls the log of 2026-04-14), and allows the curated files
// beside them.
func TestAllowedTarget_NeverWhatTheReaderReadsAsADailyLog(t *testing.T) {
	ws := load(t, workspaceFrom(t, `
-- memory/2026-04-14.md --
- a
-- memory/2026-04-14 standup.md --
- a
-- memory/2026-04-14_standup.md --
- a
-- memory/2026-04-14-0810.md --
- a
-- memory/daily/2026-04-14.md --
- a
-- memory/2026-04-14.markdown --
- a
-- memory/homelab.md --
- a
`))
	var logs []string
	for _, d := range ws.Daily {
		logs = append(logs, d.File.Path)
		if allowedTarget(d.File.Path) {
			t.Errorf("the guard lets a dream write %s, which the reader reads as a daily log", d.File.Path)
		}
	}
	if !slices.Contains(logs, "memory/2026-04-14 standup.md") || len(logs) != 6 {
		t.Errorf("the reader's daily logs: %q", logs)
	}
	if !allowedTarget("memory/homelab.md") || !allowedTarget("MEMORY.md") {
		t.Error("the guard refuses a curated file")
	}
}
