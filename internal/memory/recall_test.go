package memory

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestRecallDoc_RoundTripIsByteIdentical(t *testing.T) {
	src, err := os.ReadFile("../demo/workspace/memory/.dreams/short-term-recall.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseRecallDoc(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(d.Bytes()); got != string(src) {
		t.Errorf("round trip changed the file:\n%s", firstDiff(string(src), got))
	}
}

func TestRecallDoc_RecordCountsRecallsQueriesAndDays(t *testing.T) {
	d := NewRecallDoc()
	m := Match{Line: Line{Path: "memory/2026-04-10.md", StartLine: 3, EndLine: 3, Text: "Dev server: user@203.0.113.10 #homelab"}, Score: 0.9}
	t1 := time.Date(2026, 4, 12, 9, 0, 0, 0, time.UTC)
	d.Record(m, QueryHash("dev server IP"), true, t1)
	d.Record(m, QueryHash("Dev  server ip"), true, t1.Add(time.Hour)) // same query, same day
	r := d.Record(m, QueryHash("where is the dev box"), false, t1.Add(26*time.Hour))
	if r.RecallCount != 3 || len(r.QueryHashes) != 2 || r.DailyCount != 0 || len(r.RecallDays) != 2 || r.GroundedCount != 2 {
		t.Errorf("counts: %+v", r)
	}
	if r.TotalScore != 2.7 || r.MaxScore != 0.9 || !r.FirstRecalledAt.Equal(t1) || !r.LastRecalledAt.Equal(t1.Add(26*time.Hour)) {
		t.Errorf("scores/times: %+v", r)
	}
	if got := strings.Join(r.ConceptTags, ","); got != "homelab,server,user,203.0.113.10" && !strings.HasPrefix(got, "homelab,") {
		t.Errorf("concept tags %q", got)
	}
	again, err := ParseRecallDoc(d.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	g := again.Get(RecallKey("memory/2026-04-10.md", 3, 3))
	if g == nil || g.RecallCount != 3 || g.Path != "memory/2026-04-10.md" || len(g.RecallDays) != 2 {
		t.Errorf("reparsed %+v", g)
	}
}

// Recall matching compares texts as evidence matching does (one
// analysis): case, diacritics and the joiners of an identifier do not stop
// an exact match.
func TestMatchRecall_ComparesTextsAsTheAnalysisDoes(t *testing.T) {
	lines := []Line{{Path: "MEMORY.md", StartLine: 7, EndLine: 7, Text: "Tomás runs the mac-mini gateway."}}
	if m := MatchRecall("tomas runs the Mac mini gateway", lines, 0); len(m) != 1 || m[0].How != "exact" {
		t.Errorf("exact: %+v", m)
	}
}

func TestConceptTags_ContentWordsOfTheAnalysis(t *testing.T) {
	got := strings.Join(ConceptTags("#homelab The user asked: Café backups on sqlite-vec, twice today", 6), ",")
	if want := "homelab,cafe,backups,sqlite,twice"; got != want {
		t.Errorf("ConceptTags = %q, want %q", got, want)
	}
}

func TestRecallEvent_IsOneJSONLine(t *testing.T) {
	at := time.Date(2026, 11, 20, 17, 40, 6, 0, time.UTC)
	got, ok := ReadEventLog(nil).RecallEvent("dev server IP", []Match{{Line: Line{Path: "MEMORY.md", StartLine: 4, EndLine: 4}, Score: 1}}, at)
	want := `{"type":"memory.recall.recorded","timestamp":"2026-11-20T17:40:06.000Z","query":"dev server IP","resultCount":1,"results":[{"path":"MEMORY.md","startLine":4,"endLine":4,"score":1}]}` + "\n"
	if !ok || string(got) != want {
		t.Errorf("got  %s want %s", got, want)
	}
}

// An event log is OpenClaw's file: a record dreamwiki adds takes the time
// key the log uses, and is not written at all when every record of the log
// carries a key the event has no value for.
func TestEventLog_WritesInTheShapeTheLogUses(t *testing.T) {
	at := time.Date(2026, 11, 20, 17, 40, 6, 0, time.UTC)
	for _, c := range []struct {
		name, log, want string
		ok              bool
	}{
		{"a new log takes OpenClaw's shape", "", `{"type":"memory.dream.completed","timestamp":"2026-11-20T17:40:06.000Z","promoted":2}`, true},
		{"an older log keeps ts", `{"type":"memory.recall.recorded","ts":"2026-11-01T10:00:00Z","query":"q"}` + "\n" +
			`{"type":"memory.dream.completed","ts":"2026-11-02T10:00:00Z"}`, `{"type":"memory.dream.completed","ts":"2026-11-20T17:40:06.000Z","promoted":2}`, true},
		{"a log of recall records only gets no other kind", `{"type":"memory.recall.recorded","timestamp":"2026-11-01T10:00:00Z","query":"q","resultCount":0,"results":[]}`, "", false},
		{"a type the log holds keeps its records' keys (#23 rule 3)", `{"type":"memory.recall.recorded","timestamp":"2026-11-01T10:00:00Z"}` + "\n" +
			`{"type":"memory.dream.completed","timestamp":"2026-11-02T10:00:00Z","runId":"r1","phases":["deep"]}`, "", false},
		{"a type's keys are those all its records carry", `{"type":"memory.dream.completed","timestamp":"2026-11-01T10:00:00Z","promoted":1,"note":"x"}` + "\n" +
			`{"type":"memory.dream.completed","timestamp":"2026-11-02T10:00:00Z","promoted":0}`, `{"type":"memory.dream.completed","timestamp":"2026-11-20T17:40:06.000Z","promoted":2}`, true},
		{"lines that are not JSON are left out", "not json\n" + `{"type":"x","timestamp":"2026-11-01T10:00:00Z"}`, `{"type":"memory.dream.completed","timestamp":"2026-11-20T17:40:06.000Z","promoted":2}`, true},
	} {
		got, ok := ReadEventLog([]byte(c.log)).Record("memory.dream.completed", at, map[string]any{"promoted": 2})
		if ok != c.ok || ok && string(got) != c.want+"\n" {
			t.Errorf("%s: got %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestMatchRecall_StagesExactThenSubstringThenOverlap(t *testing.T) {
	lines := []Line{
		{Path: "MEMORY.md", StartLine: 3, EndLine: 3, Text: "Dev server: user@203.0.113.10"},
		{Path: "MEMORY.md", StartLine: 4, EndLine: 4, Text: "Dev server backups run nightly to the NAS"},
		{Path: "memory/2026-04-10.md", StartLine: 5, EndLine: 5, Text: "Moved the dev server to the rack"},
	}
	if m := MatchRecall("dev server: USER@203.0.113.10.", lines, 0); len(m) != 1 || m[0].How != "exact" || m[0].StartLine != 3 {
		t.Errorf("exact: %+v", m)
	}
	if m := MatchRecall("backups run nightly", lines, 0); len(m) != 1 || m[0].How != "substring" || m[0].StartLine != 4 {
		t.Errorf("substring: %+v", m)
	}
	m := MatchRecall("the dev server moved to a rack", lines, 0)
	if len(m) != 1 || m[0].How != "overlap" || m[0].Path != "memory/2026-04-10.md" {
		t.Errorf("overlap: %+v", m)
	}
	if m := MatchRecall("something else entirely", lines, 0); len(m) != 0 {
		t.Errorf("no match expected: %+v", m)
	}
}
