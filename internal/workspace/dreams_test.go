package workspace

import (
	"reflect"
	"testing"
	"time"
)

func TestDreamLog_EntriesFieldsAndWatermark(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/dream-log.md --
# Dream log

How to read this log.

## 2026-03-22 07:00 — dream

Consolidated through: 2026-03-21
Promoted: 11
- **Merged**: 2
MEMORY.md: 1,204 → 3,318 chars

- New topic files: [[gateway]], memory/homelab.md.

### Notes
- a sub-heading stays inside its entry

## 2026-04-01T06:30 — dream
Promoted: 0

## 2026-04-04
Consolidated through: 2026-04-02
`)
	d := ws.DreamLog
	if d == nil || len(d.Entries) != 3 {
		t.Fatalf("DreamLog = %+v", d)
	}
	e := d.Entries[0]
	if e.Heading != "2026-03-22 07:00 — dream" || e.Line != 5 || e.EndLine != 15 || !e.HasTime ||
		!e.Date.Equal(time.Date(2026, 3, 22, 7, 0, 0, 0, time.UTC)) || !e.ConsolidatedThrough.Equal(date("2026-03-21")) {
		t.Errorf("entry 1 = %+v", e)
	}
	for k, v := range map[string]string{"promoted": "11", "merged": "2", "memory.md": "1,204 → 3,318 chars", "consolidated through": "2026-03-21"} {
		if e.Fields[k] != v {
			t.Errorf("Fields[%q] = %q, want %q", k, e.Fields[k], v)
		}
	}
	if !equalStrings(e.Links, []string{"MEMORY.md", "gateway", "memory/homelab.md"}) {
		t.Errorf("Links = %q", e.Links)
	}
	if e2 := d.Entries[1]; !e2.HasTime || e2.Date.Hour() != 6 || e2.Date.Minute() != 30 || !e2.ConsolidatedThrough.IsZero() {
		t.Errorf("entry 2 = %+v", e2)
	}
	if e3 := d.Entries[2]; e3.HasTime || !e3.Date.Equal(date("2026-04-04")) {
		t.Errorf("entry 3 = %+v", e3)
	}
	if w := d.Watermark(); !w.Equal(date("2026-04-02")) {
		t.Errorf("Watermark = %v", w)
	}
}

func TestDreamLog_WatermarkFallsBackToTheNewestHeading(t *testing.T) {
	ws := loadTxtar(t, "-- memory/dream-log.md --\n## 2026-03-01\nx\n## 2026-03-09 22:00\ny\n")
	if w := ws.DreamLog.Watermark(); !w.Equal(time.Date(2026, 3, 9, 22, 0, 0, 0, time.UTC)) {
		t.Errorf("Watermark = %v", w)
	}
	var none *DreamLog
	if !none.Watermark().IsZero() {
		t.Error("nil dream log has a watermark")
	}
}

const dreamsMD = `
-- DREAMS.md --
# Dreams

<!-- openclaw:dreaming:diary:start -->
## Dream Diary

*April 24, 2026 at 3:00 AM GMT+2*

First night of dreaming. Sam wants code in TypeScript.

- User prefers TypeScript examples.
  - confidence: 0.84
  - evidence: memory/2026-04-17.md:7-7
  - recalls: 4
  - status: promoted

---

*April 25, 2026 at 3:00 AM GMT+2*

Quiet night.
<!-- openclaw:dreaming:diary:end -->

<!-- openclaw:dreaming:light:start -->
- Gateway host is the Mac mini — confidence: 0.7 · evidence: memory/2026-04-29.md:3-6, memory/2026-04-30.md:2 · recalls: 3 · status: staged
- No annotations here
<!-- openclaw:dreaming:light:end -->

<!-- openclaw:dreaming:rem:start -->
- Theme: migrations (confidence 0.5, status: staged)
`

func TestDreams_BlocksDiaryAndItems(t *testing.T) {
	ws := loadTxtar(t, dreamsMD)
	d := ws.Dreams
	if d == nil {
		t.Fatal("DREAMS.md not read")
	}
	var blocks []string
	for _, b := range d.Blocks {
		blocks = append(blocks, b.Name)
	}
	if !equalStrings(blocks, []string{"diary", "light", "rem"}) {
		t.Errorf("Blocks = %v", blocks)
	}
	if b := d.Blocks[0]; b.StartLine != 3 || b.EndLine != 21 {
		t.Errorf("diary block lines %d-%d", b.StartLine, b.EndLine)
	}
	if len(d.Diary) != 2 {
		t.Fatalf("Diary = %+v", d.Diary)
	}
	e := d.Diary[0]
	gmt2 := time.FixedZone("GMT+2", 2*3600)
	if !e.Date.Equal(time.Date(2026, 4, 24, 3, 0, 0, 0, gmt2)) || e.DateText != "April 24, 2026 at 3:00 AM GMT+2" || e.Line != 6 {
		t.Errorf("diary entry = %+v", e)
	}
	if len(e.Items) != 1 {
		t.Fatalf("diary items = %+v", e.Items)
	}
	want := &DreamItem{Block: "diary", Line: 10, Text: "User prefers TypeScript examples.", Confidence: 0.84, Recalls: 4, Status: "promoted",
		Evidence: []SourcePointer{{Kind: PointerEvidence, Path: "memory/2026-04-17.md", StartLine: 7, EndLine: 7, Line: 10, Text: "evidence: memory/2026-04-17.md:7-7"}}}
	if !reflect.DeepEqual(e.Items[0], want) {
		t.Errorf("item = %+v\nwant %+v", e.Items[0], want)
	}
	if d.Diary[1].Text != "Quiet night." {
		t.Errorf("second entry text %q", d.Diary[1].Text)
	}

	var texts []string
	for _, it := range d.Items {
		texts = append(texts, it.Block+": "+it.Text)
	}
	wantTexts := []string{"diary: User prefers TypeScript examples.", "light: Gateway host is the Mac mini", "light: No annotations here", "rem: Theme: migrations"}
	if !equalStrings(texts, wantTexts) {
		t.Errorf("Items = %q", texts)
	}
	g := d.Items[1]
	if g.Confidence != 0.7 || g.Recalls != 3 || g.Status != "staged" || len(g.Evidence) != 2 || g.Evidence[1].Path != "memory/2026-04-30.md" || g.Evidence[1].StartLine != 2 {
		t.Errorf("inline annotations = %+v", g)
	}
	if r := d.Items[3]; r.Confidence != 0.5 || r.Status != "staged" {
		t.Errorf("rem item = %+v", r)
	}
	// The rem block has no end marker: reported, and read to the end.
	ds := diagsWith(ws.Diagnostics, "dreams")
	if len(ds) != 1 || ds[0].Line != 28 {
		t.Errorf("diagnostics = %v", ws.Diagnostics)
	}
}

func TestDreams_PhaseReports(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/dreaming/deep/2026-04-24.md --
# Deep
-- memory/dreaming/light/2026-04-24.md --
# Light
-- memory/dreaming/rem/2026-04-23.md --
# REM
-- memory/dreaming/notes.md --
not a phase report
`)
	var got []string
	for _, p := range ws.Phases {
		got = append(got, p.Phase+" "+p.Date.Format("2006-01-02"))
	}
	if !equalStrings(got, []string{"rem 2026-04-23", "deep 2026-04-24", "light 2026-04-24"}) {
		t.Errorf("Phases = %v", got)
	}
	if !equalStrings(paths(ws.Notes), []string{"memory/dreaming/notes.md"}) || len(ws.Topics) != 0 {
		t.Errorf("Notes = %v Topics = %v", paths(ws.Notes), ws.Topics)
	}
}
