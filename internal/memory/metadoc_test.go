package memory

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestMetaDoc_RoundTripIsByteIdentical: reading and writing back a file
// without edits changes nothing, so a dream's diff shows only real changes.
func TestMetaDoc_RoundTripIsByteIdentical(t *testing.T) {
	src, err := os.ReadFile("../demo/workspace/memory/memory-meta.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseMetaDoc(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entries) < 10 {
		t.Fatalf("read %d entries", len(d.Entries))
	}
	if got := string(d.Bytes()); got != string(src) {
		t.Errorf("round trip changed the file:\n%s", firstDiff(string(src), got))
	}
}

func TestMetaDoc_WritesOnlyChangedFieldsUnderTheirAliases(t *testing.T) {
	src := `{
  "entries": {
    "a1": {
      "text": "Gateway host is the NUC",
      "createdAt": "2026-01-02T03:04:05Z",
      "recalls": 2,
      "custom": {"keep": [1, 2]}
    }
  },
  "note": "kept"
}
`
	d, err := ParseMetaDoc([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := d.ByID("a1")
	if r == nil || r.RecallCount != 2 || r.Created.Format(time.RFC3339) != "2026-01-02T03:04:05Z" {
		t.Fatalf("read %+v", r)
	}
	r.RecallCount = 3
	r.SupersededBy = "mem_beef"
	got := string(d.Bytes())
	want := `{
  "entries": {
    "a1": {
      "text": "Gateway host is the NUC",
      "createdAt": "2026-01-02T03:04:05Z",
      "recalls": 3,
      "custom": {
        "keep": [
          1,
          2
        ]
      },
      "supersededBy": "mem_beef"
    }
  },
  "note": "kept"
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestMetaDoc_AddGivesStableIDsAndFullRecords(t *testing.T) {
	d := NewMetaDoc()
	r := d.Add("Gateway host is the Mac mini")
	r.Created = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	r.Tier, r.Score, r.File = "hot", 1, "MEMORY.md"
	r2 := d.Add("Gateway host is the Mac mini") // same text, new id
	if r.ID == r2.ID || !strings.HasPrefix(r.ID, "mem_") || len(r.ID) != 12 {
		t.Fatalf("ids %q %q", r.ID, r2.ID)
	}
	out := string(d.Bytes())
	for _, want := range []string{`"id": "` + r.ID + `"`, `"created": "2026-11-20"`, `"lastRecalled": null`, `"recallCount": 0`, `"structural": false`, `"tier": "hot"`, `"score": 1`, `"file": "MEMORY.md"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	again, err := ParseMetaDoc([]byte(out))
	if err != nil || len(again.Entries) != 2 || again.Entries[0].ID != r.ID {
		t.Fatalf("reparse: %v %+v", err, again)
	}
}

func TestMetaDoc_ShapesSurvive(t *testing.T) {
	for _, src := range []string{
		`[{"id":"x","text":"t"}]`,
		`{"x":{"text":"t","created":"2026-01-01"}}`,
		`{"version":2,"items":[{"id":"x","text":"t"}]}`,
	} {
		d, err := ParseMetaDoc([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		d.Entries[0].Tier = "cold"
		again, err := ParseMetaDoc(d.Bytes())
		if err != nil || again.shape != d.shape || again.Entries[0].Tier != "cold" || again.Entries[0].ID != "x" {
			t.Errorf("%s: reparse %v shape %q -> %q, %+v", src, err, d.shape, again.shape, again.Entries)
		}
	}
	if _, err := ParseMetaDoc([]byte(`{"entries": [1, 2]}`)); err == nil {
		t.Error("entries that are not objects: no error")
	}
	if _, err := ParseMetaDoc([]byte(`{"entries": [`)); err == nil {
		t.Error("truncated JSON: no error")
	}
}

func TestRecompute_SetsTierAndScore(t *testing.T) {
	d := NewMetaDoc()
	old := d.Add("Buy milk")
	old.Created = now.Add(-340 * day)
	host := d.Add("NAS is nas-01 at 10.0.0.20")
	host.Created = now.Add(-400 * day)
	rows := d.Recompute(now, DefaultParams())
	if rows[0].Tier != TierArchived || old.Tier != "archived" || old.Score != 0.068 {
		t.Errorf("old: %+v", rows[0])
	}
	if rows[1].Tier != TierCold || host.Score != 0.3 || !host.Structural {
		t.Errorf("structural: %+v", rows[1])
	}
}

// firstDiff shows where two texts first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-80, 0)
	return "want …" + a[lo:min(i+80, len(a))] + "\n got …" + b[lo:min(i+80, len(b))]
}

func TestUpdateObject_ChangesOnlyTheValuesSet(t *testing.T) {
	src := "{\n  \"lastDreamAt\": \"2026-11-18T07:04:12Z\",\n  \"quietHours\": { \"start\": \"22:00\" },\n  \"n\": 1\n}"
	got, err := UpdateObject([]byte(src), Field{"lastDreamAt", "2026-11-21T07:00:00Z"}, Field{"lastDreamResult", "ok"})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"lastDreamAt\": \"2026-11-21T07:00:00Z\",\n  \"quietHours\": { \"start\": \"22:00\" },\n  \"n\": 1,\n  \"lastDreamResult\": \"ok\"\n}"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, _ := UpdateObject([]byte("{}\n"), Field{"a", 1}); string(got) != "{\n  \"a\": 1\n}\n" {
		t.Errorf("empty object: %q", got)
	}
	if got, _ := UpdateObject(nil, Field{"a", 1}); string(got) != "{\n  \"a\": 1\n}\n" {
		t.Errorf("no file: %q", got)
	}
	if _, err := UpdateObject([]byte("[1]"), Field{"a", 1}); err == nil {
		t.Error("an array: no error")
	}
}

func TestUpdateObject_KeepsTheFilesIndentation(t *testing.T) {
	got, err := UpdateObject([]byte("{\n    \"a\": 1\n}\n"), Field{"b", 2})
	if err != nil || string(got) != "{\n    \"a\": 1,\n    \"b\": 2\n}\n" {
		t.Errorf("got %q, %v", got, err)
	}
}

// A writer must refuse a file it cannot write back whole; a reader takes
// what it can and is told what it left out.
func TestReadMeta_LeavesOutWhatIsNoEntryWhereParseFails(t *testing.T) {
	src := []byte(`{"entries": [{"id": "a", "text": "A", "structural": "1", "created": "2026-04-02 07:00:00 UTC"}, 7, {"id": "b"}]}`)
	if _, err := ParseMetaDoc(src); err == nil {
		t.Error("ParseMetaDoc took a file with an entry that is no object")
	}
	entries, skipped, err := ReadMeta(src)
	if err != nil || len(entries) != 2 || len(skipped) != 1 || skipped[0] != "entry 2 is not an object" {
		t.Fatalf("ReadMeta = %+v %q %v", entries, skipped, err)
	}
	if a := entries[0]; !a.Structural || !a.Created.Equal(time.Date(2026, 4, 2, 7, 0, 0, 0, time.UTC)) {
		t.Errorf("entry = %+v", a)
	}
}

func TestReadRecall_BareArrayAndSkippedEntries(t *testing.T) {
	entries, skipped, err := ReadRecall([]byte(`[{"key": "memory:MEMORY.md:3:4", "recallCount": "2"}, "junk", {"key": "memory:notes.md"}]`))
	if err != nil || len(entries) != 2 || len(skipped) != 1 {
		t.Fatalf("ReadRecall = %+v %q %v", entries, skipped, err)
	}
	if a := entries[0]; a.Path != "MEMORY.md" || a.StartLine != 3 || a.EndLine != 4 || a.RecallCount != 2 {
		t.Errorf("entry = %+v", a)
	}
	if b := entries[1]; b.Path != "notes.md" || b.StartLine != 0 {
		t.Errorf("whole-file entry = %+v", b)
	}
	if _, err := ParseRecallDoc([]byte(`{"entries": {"k": "junk"}}`)); err == nil {
		t.Error("ParseRecallDoc took an entry that is no object")
	}
}
