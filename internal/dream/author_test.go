package dream

import (
	"slices"
	"strings"
	"testing"
)

// The author's memory is the author's (#23 rule 2): a dream adds its own
// lines and maintains only those. These tests hold every line an author
// wrote to that.

// TestDream_AToDoIsNeverTouched: logs that seem to finish an author's
// to-dos (a checkbox, a TODO line, a Chinese one) leave them as they are:
// no tick, no "(done …)", no Source. The logs' lines are reported.
func TestDream_AToDoIsNeverTouched(t *testing.T) {
	mem := `# MEMORY.md

## Open
- [ ] Set up the photo backup folder on the NAS
- TODO: renew the greenhouse insurance policy
- [ ] 创建 照片备份 目录，放在 NAS 共享盘
`
	dir := workspaceFrom(t, "-- MEMORY.md --\n"+mem+`-- memory/2026-04-02.md --
# 2026-04-02

- Set up the photo backup folder on the NAS — done.
- Renewed the greenhouse insurance policy for two years — done.
- 已完成：创建 照片备份 目录，放在 NAS 共享盘
`)
	res := dream(t, dir, "2026-04-05T07:00:00Z")
	got := read(t, dir, "MEMORY.md")
	if l := lineOrder(mem, got); l != "" {
		t.Errorf("the to-do %q changed:\n%s", l, got)
	}
	if strings.Contains(got, "(done") || strings.Contains(got, "[x]") || res.Plan.Counts.Closed != 0 {
		t.Errorf("a to-do was closed (counts %+v):\n%s", res.Plan.Counts, got)
	}
	n := 0
	for _, s := range res.Plan.Skipped {
		if strings.Contains(s.Reason, "never ticks, dates or annotates a to-do") {
			n++
		}
	}
	if n == 0 {
		t.Errorf("no closing line reported: %+v", res.Plan.Skipped)
	}
}

// greenhouseTopic is a topic file about the greenhouse, wherever it lies.
const greenhouseTopic = `# Greenhouse

## Heating
- The greenhouse heater is a 2 kW fan heater on a thermostat plug.
- The thermostat plug sits on the shelf by the greenhouse door.
`

// TestDream_ADatedFileIsNeverWritten: topic files that belong to a day or
// a month (a date in the name, a diary/ folder) are read, never written,
// though a new fact is about them; the audit refuses them too.
func TestDream_ADatedFileIsNeverWritten(t *testing.T) {
	for _, path := range []string{"memory/2026-03-01-greenhouse.md", "memory/diary/greenhouse.md", "memory/2026-03/greenhouse.md", "memory/archives/greenhouse.md"} {
		t.Run(path, func(t *testing.T) {
			dir := workspaceFrom(t, "-- "+path+" --\n"+greenhouseTopic+`-- memory/2026-04-02.md --
# 2026-04-02

- Decision: the greenhouse heater thermostat is set to 12 degrees at night from now on.
`)
			res := dream(t, dir, "2026-04-05T07:00:00Z")
			if got := read(t, dir, path); got != greenhouseTopic {
				t.Errorf("%s was written:\n%s", path, unifiedDiff(path, []byte(greenhouseTopic), []byte(got), false))
			}
			for _, f := range res.Plan.Files {
				if f.Path == path {
					t.Errorf("the plan writes %s", path)
				}
			}
			for _, in := range res.Plan.Inputs {
				if in.Path == path {
					t.Errorf("%s, a topic file by its shape, was read as a daily log", path)
				}
			}
		})
	}
	for _, path := range []string{"memory/diary/notes.md", "memory/2026-03-01-greenhouse.md", "memory/journal/2026/plan.md", "memory/archives/old.md", "memory/2026-03.md"} {
		if allowedTarget(path) {
			t.Errorf("allowedTarget(%q) = true, want a dated file refused", path)
		}
	}
	for _, path := range []string{"memory/greenhouse.md", "memory/archive/2026-04.md", "MEMORY.md", "memory/projects/2026-plans.md"} {
		if !allowedTarget(path) {
			t.Errorf("allowedTarget(%q) = false", path)
		}
	}
}

// TestDream_AUserLineIsNeverSupersededByALog: a log that changes what an
// author's line says is a proposal: the line stays, nothing is archived or
// marked, and the plan says how to choose (`dreamwiki supersede`). A line
// the dream wrote (its Source footer) is still superseded.
func TestDream_AUserLineIsNeverSupersededByALog(t *testing.T) {
	mem := `# MEMORY.md

## Infrastructure
- Gateway host is the NUC.
- **Backups**
- Backup target is the Synology. Source: memory/2026-03-20.md#L3-L3
`
	dir := workspaceFrom(t, "-- MEMORY.md --\n"+mem+`-- memory/2026-03-20.md --
# 2026-03-20

- Backup target is the Synology.
-- memory/2026-04-02.md --
# 2026-04-02

- Gateway host is now the Mac mini.
- Backup target is now the Hetzner storage box.
`)
	res := dream(t, dir, "2026-04-05T07:00:00Z")
	got := read(t, dir, "MEMORY.md")
	for _, l := range []string{"- Gateway host is the NUC.\n", "- **Backups**\n"} {
		if !strings.Contains(got, l) {
			t.Errorf("the author's line %q changed:\n%s", l, got)
		}
	}
	if strings.Contains(got, "Mac mini") {
		t.Errorf("the change to the author's line was written:\n%s", got)
	}
	if !slices.ContainsFunc(res.Plan.Skipped, func(s Skip) bool {
		return strings.Contains(s.Reason, "would replace MEMORY.md:4, the author's line") && strings.Contains(s.Reason, "dreamwiki supersede")
	}) {
		t.Errorf("the proposal is not reported: %+v", res.Plan.Skipped)
	}
	if !strings.Contains(got, "Backup target is now the Hetzner storage box") || strings.Contains(got, "Backup target is the Synology") {
		t.Errorf("the dream's own line was not superseded:\n%s", got)
	}
}
