package dream

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Each phase of a dream is a function of values (api.go, PlanWorkspace),
// so it can be run alone on a small workspace. These tests do that.

// phases is a workspace read up to the point where candidates are decided
// about: what PlanWorkspace's sense and collect phases produce.
type phases struct {
	ws    *workspace.Workspace
	e     env
	files *fileSet
	lg    *ledger
	mem   *curatedMemory
	sel   *selection
	score scorer
	cands []*candidate
}

func collectPhases(t *testing.T, src, now string) *phases {
	t.Helper()
	ws := load(t, workspaceFrom(t, src))
	p := &phases{ws: ws, e: newEnv(ws, Options{Now: at(now)}), files: newFileSet(ws), lg: newLedger()}
	var err error
	if p.mem, err = readCurated(ws, p.e.day, p.files, p.lg); err != nil {
		t.Fatal(err)
	}
	d := p.e.cfg.Dream
	p.sel = selectLogs(ws, d.MaxLogs, d.MaxBytes)
	p.score = scorer{rec: recallData(ws, p.e.logs, p.files, p.lg), now: p.e.now, cfg: promotionConfig(d)}
	p.cands, _ = groupDuplicates(sense(ws, p.sel, p.e.logs, p.mem, p.score).cands)
	return p
}

// chooseEvery marks every candidate chosen, as a person who chooses every
// proposal does (Options.Choose): a proposal is written only when chosen
// (issue #23, rule 1).
func (p *phases) chooseEvery() {
	for _, c := range p.cands {
		c.chosen, c.chosenBy = true, "chosen"
	}
}

// decide runs the consolidate phase and writes its placements into the
// documents.
func (p *phases) decide() {
	arch := archive{files: p.files, day: p.e.day}
	decider{mem: p.mem, score: p.score, arch: arch, lg: p.lg, now: p.e.now, logs: len(p.sel.inputs)}.decide(context.Background(), p.cands)
	materialize(p.mem.placements)
}

func TestDecide_AFactAlreadyInMemoryIsNotPlacedTwice(t *testing.T) {
	p := collectPhases(t, `
-- MEMORY.md --
# MEMORY.md

## Infrastructure
- The NAS backs up nightly to Backblaze B2 at 02:00.
-- memory/2026-04-02.md --
# 2026-04-02

- Decision: the NAS backs up nightly to Backblaze B2 at 02:00.
`, "2026-04-05T07:00:00Z")
	if len(p.cands) != 1 {
		t.Fatalf("candidates = %d, want the one line of the log", len(p.cands))
	}
	p.decide()
	if len(p.mem.placements) != 0 {
		t.Errorf("the fact was placed again: %+v", p.mem.placements[0].c.fact)
	}
	if c := p.lg.counts; c.Merged != 0 || c.Promoted != 0 || c.Indexed != 0 {
		t.Errorf("counts = %+v, want nothing merged into the author's line and nothing promoted", c)
	}
	mem := string(p.mem.memDoc.render())
	if n := strings.Count(mem, "Backblaze B2"); n != 1 {
		t.Errorf("MEMORY.md names the fact %d times, want once:\n%s", n, mem)
	}
	// The author's line gets no Source (#23 rule 2); the log's line is
	// reported as already kept.
	if strings.Contains(mem, "memory/2026-04-02.md#L3-L3") || len(p.lg.skipped) != 1 || !strings.Contains(p.lg.skipped[0].Reason, "already kept at MEMORY.md:4") {
		t.Errorf("MEMORY.md:\n%s\nskipped %+v", mem, p.lg.skipped)
	}
}

// TestDecide_NoUserLineGetsASourceAppended: a log line that says again
// what an author's line says (in a numbered list, or a plain one) adds
// nothing to it; a line the dream wrote earlier (its Source footer says
// so) still gets the new evidence.
func TestDecide_NoUserLineGetsASourceAppended(t *testing.T) {
	p := collectPhases(t, `
-- MEMORY.md --
# MEMORY.md

## Garden
1. The greenhouse vents open automatically above 27 degrees.
2. The rain barrel overflow drains into the pond behind the shed.
- The compost bin by the fence is turned every second Sunday.
- The apple tree by the gate was pruned hard in February. Source: memory/2026-02-10.md#L3-L3
-- memory/2026-04-02.md --
# 2026-04-02

- Decision: the greenhouse vents open automatically above 27 degrees.
- Decision: the compost bin by the fence is turned every second Sunday.
- Decision: the apple tree by the gate was pruned hard in February.
`, "2026-04-05T07:00:00Z")
	mem := string(p.mem.memDoc.render())
	p.decide()
	after := string(p.mem.memDoc.render())
	for _, l := range strings.Split(mem, "\n") {
		if strings.Contains(l, "Source:") {
			continue
		}
		if !strings.Contains(after, l+"\n") {
			t.Errorf("the author's line %q changed:\n%s", l, after)
		}
	}
	if !strings.Contains(after, "pruned hard in February. Source: memory/2026-02-10.md#L3-L3, memory/2026-04-02.md#L5-L5") {
		t.Errorf("the dream's own line lacks the new evidence:\n%s", after)
	}
	if n := strings.Count(after, "Source:"); n != 1 {
		t.Errorf("%d Source footers, want the dream's one:\n%s", n, after)
	}
}

func TestDecide_AFactTheLogsRepeatIsWrittenOnce(t *testing.T) {
	p := collectPhases(t, `
-- MEMORY.md --
# MEMORY.md

## Infrastructure
- Home lab details: see memory/homelab.md
-- memory/homelab.md --
# Home lab

## Hosts
- The NUC runs Home Assistant.
-- memory/2026-04-02.md --
# 2026-04-02

- Decision: the home lab NUC hosts the Zigbee2MQTT bridge from now on.
-- memory/2026-04-03.md --
# 2026-04-03

- Decision: the home lab NUC hosts the Zigbee2MQTT bridge from now on.
`, "2026-04-05T07:00:00Z")
	// The sense phase folds the repeat into one candidate with both
	// lines as its evidence.
	if len(p.cands) != 1 {
		t.Fatalf("candidates = %d, want the repeat folded into one", len(p.cands))
	}
	if ev := evidenceStrings(p.cands[0].evidence); len(ev) != 2 {
		t.Errorf("evidence = %v, want both lines", ev)
	}
	// Stated on two days, it is a proposal; a person chose it.
	p.cands[0].chosen, p.cands[0].chosenBy = true, "chosen"
	p.decide()
	written := 0
	for _, d := range p.files.docs {
		written += strings.Count(string(d.render()), "Zigbee2MQTT bridge")
	}
	if written != 1 {
		t.Errorf("the fact is written %d times, want once", written)
	}
}

func TestAudit_ADailyLogIsNeverATarget(t *testing.T) {
	ws := load(t, workspaceFrom(t, `
-- memory/2026-04-14.md --
# 2026-04-14

- The NUC runs Home Assistant.
`))
	lg := newLedger()
	out := map[string][]byte{
		"memory/2026-04-14.md":         []byte("# 2026-04-14\n\n- rewritten\n"),
		"memory/2026-04-14 standup.md": []byte("- a new log\n"),
		"memory/daily/2026-04-15.md":   []byte("- a new log\n"),
		"memory/dreaming/deep/x.md":    []byte("- phase output\n"),
		"notes/elsewhere.md":           []byte("- outside memory/\n"),
		"memory/homelab.md":            []byte("# Home lab\n"),
	}
	changes := audit(out, ws, map[string]fileState{}, lg)
	if len(changes) != 1 || changes[0].Path != "memory/homelab.md" {
		t.Errorf("changes = %+v, want memory/homelab.md alone", changes)
	}
	refused := map[string]bool{}
	for _, d := range lg.diags {
		refused[d.File] = true
	}
	for path := range out {
		if path != "memory/homelab.md" && !refused[path] {
			t.Errorf("%s was dropped without an error saying so (%+v)", path, lg.diags)
		}
	}
}

func TestGate_ForceSkipsTheGatesThatFailAndSaysSo(t *testing.T) {
	now := time.Date(2026, 4, 5, 7, 0, 0, 0, time.UTC)
	sel := &selection{lastDream: now.Add(-24 * time.Hour)} // a day ago, no new logs
	d := workspace.DefaultConfig().Dream
	gs, ready := gate(sel, now, d, false)
	if ready || len(gs) != 2 || gs[0].Passed || gs[1].Passed || gs[0].Forced {
		t.Errorf("without force: ready %v, gates %+v", ready, gs)
	}
	gs, ready = gate(sel, now, d, true)
	if !ready || !gs[0].Forced || !gs[1].Forced || gs[0].Passed {
		t.Errorf("with force: ready %v, gates %+v", ready, gs)
	}
}

// TestFitBudget_DropsTheDreamsOwnLinesNeverTheAuthors: over its budget with
// this run's lines (three decisions a person chose), the index loses
// those lines, lowest score first, and none of its author's (before #23
// the author's lines moved into a new file named after their heading).
func TestFitBudget_DropsTheDreamsOwnLinesNeverTheAuthors(t *testing.T) {
	p := collectPhases(t, `
-- MEMORY.md --
# MEMORY.md

## Hosts
- nas-01 is the Synology DS920+ in the hall cupboard, on the UPS with the router.
- The NUC in the study runs Home Assistant, Zigbee2MQTT and the Mosquitto broker.
- The printer is a Brother HL-L2350DW on the guest network, reserved at 10.0.0.31.
`+decisionsLog("2026-04-04", 3), "2026-04-05T07:00:00Z")
	mem := string(p.mem.memDoc.render())
	before := sizeOf([]byte(mem))
	p.chooseEvery()
	p.decide()
	if p.lg.counts.Indexed != 3 {
		t.Fatalf("counts = %+v, want three index lines", p.lg.counts)
	}
	target := Budget{Chars: before.Chars + 230} // room for one line of about 140
	fitBudget(p.mem, before, target, p.lg)

	after := string(p.mem.memDoc.render())
	if !target.fits(sizeOf([]byte(after))) {
		t.Errorf("MEMORY.md is over its budget of %d:\n%s", target.Chars, after)
	}
	if l := lineOrder(mem, after); l != "" {
		t.Errorf("the author's line %q moved or went:\n%s", l, after)
	}
	if p.lg.counts.Indexed != 1 || p.lg.counts.NewTopics != 0 {
		t.Errorf("counts = %+v, want one of the dream's three lines kept", p.lg.counts)
	}
}

func TestDreamLog_NothingEverConsolidatedWritesNoEntry(t *testing.T) {
	now := time.Date(2026, 4, 5, 7, 0, 0, 0, time.UTC)
	r := dreamLog{started: now, clock: func() time.Time { return now }, sel: &selection{}}
	if got := r.lines(); got != nil {
		t.Errorf("an entry with no watermark to record: %q", got)
	}
	r.sel = &selection{watermark: now.AddDate(0, 0, -5), through: now.AddDate(0, 0, -5)}
	got := strings.Join(r.lines(), "\n")
	for _, want := range []string{"## 2026-04-05 07:00 — dream", "- **Consolidated through**: 2026-03-31", "- **Logs**: 0 (nothing new since 2026-03-31)"} {
		if !strings.Contains(got, want) {
			t.Errorf("entry lacks %q:\n%s", want, got)
		}
	}
}
