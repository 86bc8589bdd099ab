package memory

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/synth"
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

// A store read and written back with nothing changed is the same file,
// byte for byte, whatever its layout: odd blanks, escapes, a key given
// twice, numbers as OpenClaw would never write them.
func TestRecallDoc_UnchangedReadWriteIsByteIdentical(t *testing.T) {
	odd := "{ \"version\":1 ,\t\"updatedAt\" : \"2026-04-07T13:27:59.217Z\",\r\n" +
		"\"entries\":{\"memory:memory/2026-03-30.md:57:60\":{\"key\":\"memory:memory/2026-03-30.md:57:60\",\n" +
		"      \"snippet\":\"Caf\\u00e9 \\ud83d\\ude00 \\\"quoted\\\" \\/ tab\\t\",\"recallCount\":1e3,\"dailyCount\":-0,\n" +
		"\"totalScore\":0.85E+0, \"totalScore\": 0.9, \"custom\":{\"nested\":[1,{\"a\":null}]},\"conceptTags\":[\"meta\"]}},\n" +
		"  \"unknown\": [true, false, null]   }"
	for name, src := range map[string][]byte{
		"generated 3 MB store": synth.RecallStore(3<<20, 1, time.Time{}, 365),
		"hand-written store":   []byte(odd),
	} {
		d, err := ParseRecallDoc(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := d.Bytes(); !bytes.Equal(got, src) {
			t.Errorf("%s: round trip changed the file:\n%s", name, firstDiff(string(src), string(got)))
		}
	}
	d, _ := ParseRecallDoc([]byte(odd))
	r := d.Get("memory:memory/2026-03-30.md:57:60")
	if r == nil || r.RecallCount != 1000 || r.TotalScore != 0.9 || r.Snippet != "Café 😀 \"quoted\" / tab\t" || r.StartLine != 57 {
		t.Errorf("hand-written store read as %+v", r)
	}
}

// An edit rewrites the entry it touched and updatedAt, and nothing else:
// the other entries, their order and the fields dreamwiki does not know
// ("source", "custom") stay as they were.
func TestRecallDoc_EditKeepsOrderAndUnknownFields(t *testing.T) {
	src := synth.RecallStore(3<<20, 1, time.Time{}, 365)
	d, err := ParseRecallDoc(src)
	if err != nil {
		t.Fatal(err)
	}
	e := d.Entries[len(d.Entries)/2]
	at := e.LastRecalledAt.Add(time.Hour)
	d.Record(Match{Line: Line{Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Text: e.Snippet}, Score: 0.5}, "0123456789ab", false, at)
	out := d.Bytes()
	// Outside the entry and updatedAt, the file is as it was.
	block := func(b []byte) (int, int) {
		start := bytes.Index(b, []byte("\n    \""+e.Key+"\": {"))
		return start, start + bytes.Index(b[start:], []byte("\n    }"))
	}
	s0, e0 := block(src)
	s1, e1 := block(out)
	stamped := regexp.MustCompile(`"updatedAt": "[^"]*"`)
	if string(stamped.ReplaceAll(src[:s0], nil)) != string(stamped.ReplaceAll(out[:s1], nil)) || !bytes.Equal(src[e0:], out[e1:]) {
		t.Errorf("the edit changed more than its entry and updatedAt")
	}
	if !bytes.Contains(out[:s1], []byte(`"updatedAt": "`+stamp(at)+`"`)) {
		t.Errorf("updatedAt was not moved to %s", stamp(at))
	}
	// The entry keeps its fields in their order, "source" included.
	keys := func(b []byte) []string {
		var out []string
		for _, m := range regexp.MustCompile(`(?m)^      "(\w+)":`).FindAllSubmatch(b, -1) {
			out = append(out, string(m[1]))
		}
		return out
	}
	if was, now := keys(src[s0:e0]), keys(out[s1:e1]); !slices.Equal(was, now) || !slices.Contains(now, "source") {
		t.Errorf("the entry's fields were %v, are %v", was, now)
	}
	if again, err := ParseRecallDoc(out); err != nil || again.Get(e.Key).RecallCount != e.RecallCount || !slices.Contains(again.Get(e.Key).QueryHashes, "0123456789ab") {
		t.Errorf("the edited store reads back as %v, %+v", err, again.Get(e.Key))
	}

	small := `{"version":1,"note":"kept","entries":{"memory:memory/x.md:2:2":{"custom":1,"path":"memory/x.md","startLine":2,"endLine":2,"recallCount":1},` +
		`"a":{"path":"memory/y.md","startLine":3,"endLine":3,"extra":[1,2]}},"tail":{"x":1}}`
	d, err = ParseRecallDoc([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	d.Record(Match{Line: Line{Path: "memory/x.md", StartLine: 2, EndLine: 2, Text: "t"}, Score: 1}, "q", true, time.Unix(0, 0))
	small2 := string(d.Bytes())
	order := []string{`"version"`, `"note": "kept"`, `"entries"`, `"memory:memory/x.md:2:2"`, `"custom": 1`, `"path": "memory/x.md"`, `"recallCount": 2`,
		`"a"`, `"extra": [`, `"tail"`, `"updatedAt"`}
	at0 := 0
	for _, s := range order {
		i := strings.Index(small2[at0:], s)
		if i < 0 {
			t.Fatalf("%s missing or out of order in\n%s", s, small2)
		}
		at0 += i
	}
}
