package provenance

import (
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// TestEvidence_YearlessDateAcrossNewYear pins the New Year bug: "12-28" in
// a log dated 2027-01-02 is 2026-12-28 for the workspace (the claim's
// date) and for evidence matching alike. Provenance used to read it as
// 2027-12-28, so the log written days after the appointment matched the
// claim no better than one written a year later.
func TestEvidence_YearlessDateAcrossNewYear(t *testing.T) {
	fsys := fstest.MapFS{
		"MEMORY.md":            {Data: []byte("# Memory\n\n## Health\n- Dentist cleaning done on 12-28 (2026-12-28).\n")},
		"memory/2027-01-02.md": {Data: []byte("# 2027-01-02\n\n- Dentist cleaning done 12-28, all fine.\n")},
		"memory/2027-12-30.md": {Data: []byte("# 2027-12-30\n\n- Dentist cleaning done 12-28, all fine.\n")},
	}
	ws, err := workspace.LoadFS(fsys, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := Analyze(ws, Options{AsOf: time.Date(2028, 1, 10, 0, 0, 0, 0, time.UTC)})
	if len(res.Claims) != 1 {
		t.Fatalf("%d claims, want 1", len(res.Claims))
	}
	c := res.Claims[0]
	if got := c.Entry.Date.Format(time.DateOnly); got != "2026-12-28" {
		t.Errorf("the claim is dated %s, want 2026-12-28", got)
	}
	conf := map[string]float64{}
	for _, ev := range c.Evidence {
		conf[ev.Path] = ev.Confidence
	}
	week, year := conf["memory/2027-01-02.md"], conf["memory/2027-12-30.md"]
	if len(c.Evidence) == 0 || c.Evidence[0].Path != "memory/2027-01-02.md" || week <= year {
		t.Errorf("evidence %+v: the log of 2027-01-02 (%.2f) should beat the one a year later (%.2f)", c.Evidence, week, year)
	}
	if terms := evidenceTerms("Dentist cleaning done 12-28", ws.Daily[0].Date); !slices.Contains(terms, "2026-12-28") {
		t.Errorf("evidence terms of the 2027-01-02 log line: %q, want 2026-12-28 among them", terms)
	}
}
