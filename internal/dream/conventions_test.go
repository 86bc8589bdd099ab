package dream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The workspace's own conventions (issue #15): its index where it keeps
// it, its lists as they are, its event records' shape, its undated
// entries undated.

func TestDream_TheIndexIsWhereTheWorkspaceKeepsIt(t *testing.T) {
	dir := workspaceFrom(t, `
-- AGENTS.md --
The long-term index is memory/MEMORY.md; there is no root MEMORY.md.
-- memory/MEMORY.md --
# MEMORY.md

## Preferences
- Short answers, the recommendation first.
-- memory/INDEX.md --
# INDEX

- 2026-03-01 | memory/2026-03-01.md | setup | ops
-- memory/2026-03-02.md --
# 2026-03-02

- Sam prefers metric units in every report.
- Decided: the weekly report goes out on Fridays at 17:00.
`)
	dream(t, dir, "2026-03-05T07:00:00Z")
	if _, err := os.Stat(filepath.Join(dir, "MEMORY.md")); err == nil {
		t.Errorf("a root MEMORY.md was created:\n%s", read(t, dir, "MEMORY.md"))
	}
	mem := read(t, dir, "memory/MEMORY.md")
	if !strings.Contains(mem, "- Short answers, the recommendation first.\n- Sam prefers metric units in every report (2026-03-02). Source: memory/2026-03-02.md#L3-L3\n") {
		t.Errorf("the preference is not at the end of the index's Preferences list:\n%s", mem)
	}
	if !strings.Contains(mem, "## From dreams\n- Decided: the weekly report goes out on Fridays at 17:00 (2026-03-02). Source: memory/2026-03-02.md#L4-L4\n") {
		t.Errorf("the decision is not in the dream's own section of the index:\n%s", mem)
	}
	if got := read(t, dir, "memory/INDEX.md"); strings.Contains(got, "Decided") || strings.Contains(got, "metric") {
		t.Errorf("a fact was filed into a file of date/file lines:\n%s", got)
	}
}

func TestDream_NewEntriesStayOutOfClosedLists(t *testing.T) {
	before := `# Backups

## Restore steps (3)
1. Stop the backup job.
2. Mount the restic repository.
3. Copy the files back.

## Hosts (2)
- nas-01: the restic repository
- pi-dns: nothing to back up

## Schedule
| job | when |
|---|---|
| nightly | 02:30 |

` + "```sh\nrestic snapshots\n```\n"
	dir := workspaceFrom(t, "-- memory/backups.md --\n"+before+`-- memory/2026-03-02.md --
# 2026-03-02

- Decided: restic backups keep 30 daily snapshots; the nightly job prunes the rest.
- Rule: never restore restic backups over a running database; stop it first.
`)
	dream(t, dir, "2026-03-05T07:00:00Z")
	got := read(t, dir, "memory/backups.md")
	if !strings.HasPrefix(got, before) {
		t.Errorf("the file's own lists, table or code changed:\n%s", got)
	}
	want := "\n## From dreams\n- Decided: restic backups keep 30 daily snapshots; the nightly job prunes the rest (2026-03-02). Source: memory/2026-03-02.md#L3-L3\n" +
		"- Rule: never restore restic backups over a running database; stop it first (2026-03-02). Source: memory/2026-03-02.md#L4-L4\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("the facts are not in the dream's own section:\n%s", got)
	}
}

func TestDream_EventRecordsTakeTheLogsShape(t *testing.T) {
	log := `{"type":"memory.recall.recorded","timestamp":"2026-03-01T06:00:41.118Z","query":"backup schedule","resultCount":0,"results":[]}
{"type":"memory.dream.completed","timestamp":"2026-03-01T07:00:12.904Z","phase":"deep","lineCount":4,"storageMode":"inline"}
`
	dir := workspaceFrom(t, "-- memory/.dreams/events.jsonl --\n"+log+`-- memory/2026-03-02.md --
# 2026-03-02

- Decided: the weekly report goes out on Fridays at 17:00.
`)
	res := dream(t, dir, "2026-03-05T07:00:00Z")
	got := read(t, dir, "memory/.dreams/events.jsonl")
	added := strings.Split(strings.TrimSpace(strings.TrimPrefix(got, log)), "\n")
	// The log's memory.dream.completed records carry phase, lineCount and
	// storageMode, which the dream's cannot fill: it writes none of them
	// (#23 rule 3), and says so.
	if !strings.HasPrefix(got, log) || len(added) != 1 ||
		!strings.HasPrefix(added[0], `{"type":"memory.promotion.applied","timestamp":"2026-03-05T07:00:00.000Z",`) {
		t.Errorf("the new records do not take the log's shape:\n%s", got)
	}
	if d := diagText(res.Plan.Diagnostics); !strings.Contains(d, "its memory.dream.completed records carry the keys lineCount, phase, storageMode, timestamp, type") {
		t.Errorf("no diagnostic for the record left out:\n%s", d)
	}
}
