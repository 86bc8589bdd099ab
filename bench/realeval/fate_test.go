package main

import (
	"strings"
	"testing"
)

func snap(files map[string]string) *snapshot {
	s := &snapshot{hash: map[string]string{}, lines: map[string][]string{}}
	for p, c := range files {
		s.hash[p] = sha(c)
		s.lines[p] = strings.Split(c, "\n")
	}
	return s
}

func TestMeasureFate_TellsWhatBecameOfEachCuratedLine(t *testing.T) {
	before := snap(map[string]string{
		"MEMORY.md":            "# Memory\n- Sam prefers tea\n- [ ] create the reports folder\n- The gateway runs on port 8080\n- an old note nobody needs\n- first\n- second\n",
		"memory/2026-03-01.md": "- Decided: the deploy window is Friday\n",
		"memory/projects.md":   "# Projects\n- Orion ships in May\n",
	})
	after := snap(map[string]string{
		"MEMORY.md":                  "# Memory\n- Sam prefers tea Source: memory/2026-03-01.md#L1\n- [x] create the reports folder (done 2026-03-23)\n- The gateway runs on port 8081 now\n- second\n- first\n\n## From dreams\n- The deploy window is Friday Source: memory/2026-03-01.md#L1-L1\n",
		"memory/2026-03-01.md":       "- Decided: the deploy window is Friday\n",
		"memory/projects.md":         "# Projects\n",
		"memory/old/projects.md":     "- Orion ships in May\n",
		"memory/diary/2026-03-02.md": "- 核心决策\n",
	})
	f := measureFate(before, after)
	if f.Moved != 1 || f.Annotated != 2 || f.Rewritten != 1 || f.Deleted != 1 || f.Reordered != 1 {
		t.Errorf("moved/annotated/rewritten/deleted/reordered = %d/%d/%d/%d/%d, want 1/2/1/1/1",
			f.Moved, f.Annotated, f.Rewritten, f.Deleted, f.Reordered)
	}
	if f.TodosTouched != 1 {
		t.Errorf("to-dos touched = %d, want 1", f.TodosTouched)
	}
	if len(f.DatedFiles) != 1 || f.DatedFiles[0] != "memory/diary/2026-03-02.md" || f.DatedLines != 1 {
		t.Errorf("dated files %v (%d lines), want the diary file (1 line)", f.DatedFiles, f.DatedLines)
	}
	if len(f.Added) != 1 || !strings.Contains(f.Added[0].Text, "deploy window") {
		t.Errorf("added = %v, want the one promoted line (not the heading)", f.Added)
	}
	items := promotedItems("ws", f.Added, before, nil)
	if want := sha("Decided: the deploy window is Friday"); items[0].Key != want || items[0].KeyPath != pathKey("memory/2026-03-01.md") {
		t.Errorf("promoted line keyed %s %s, want its source line's hash and path", items[0].KeyPath, items[0].Key)
	}
}

func TestEventsOffShape_CountsRecordsWithKeysTheFileNeverUsed(t *testing.T) {
	b := []string{`{"applied":1,"candidates":3,"memoryPath":"MEMORY.md"}`}
	a := append(b, `{"path":"x","startLine":1,"target":"MEMORY.md"}`, `{"applied":2,"candidates":1,"memoryPath":"MEMORY.md"}`)
	if n := eventsOffShape(b, a); n != 1 {
		t.Errorf("off-shape records = %d, want 1", n)
	}
}

func TestIsDated(t *testing.T) {
	for p, want := range map[string]bool{
		"memory/2026-03-01.md": true, "memory/diary/notes.md": true, "memory/archive/x.md": true,
		"memory/20260301-report.md": true, "memory/加课（2026-7-7-订立）.md": true, "memory/日记_2026-07-06.md": true, "memory/projects.md": false, "MEMORY.md": false, "memory/v2026.md": false,
	} {
		if got := isDated(p); got != want {
			t.Errorf("isDated(%q) = %v, want %v", p, got, want)
		}
	}
}
