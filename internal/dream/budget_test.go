package dream

import (
	"fmt"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// bigMemory is a MEMORY.md of about three times the default target (16,000
// characters of 20,000), with every shape of entry, CJK text (a character
// is not a byte), pointers to L2 files and promotion comments.
func bigMemory() string {
	var b strings.Builder
	b.WriteString("# MEMORY.md — Juniper\n\n> limit: 20,000 chars | last dream: 2026-03-01\n\nSam's memory index. Detail lives in memory/.\n")
	sections := []struct{ name, typ string }{{"People", "user"}, {"Preferences", "user"}, {"Infrastructure", "reference"},
		{"Projects", "project"}, {"Feedback", "feedback"}, {"References", "reference"}}
	n := 0
	for round := 0; utf8.RuneCountInString(b.String()) < 3*16000; round++ {
		for _, s := range sections {
			fmt.Fprintf(&b, "\n## %s\n", s.name)
			if round == 0 && s.name == "Infrastructure" {
				b.WriteString("- [reference] Home lab hosts and fixes: see memory/homelab.md\n")
			}
			for i := 0; i < 12; i++ {
				n++
				switch i % 6 {
				case 0:
					fmt.Fprintf(&b, "- [%s] %s fact %d: the homelab rack number %d keeps its cabling plan in the cupboard; checked on 2026-02-%02d. Source: memory/2026-02-%02d.md#L3-L3\n",
						s.typ, s.name, n, n, 1+n%28, 1+n%28)
				case 1:
					fmt.Fprintf(&b, "- %s 记录 %d：张伟负责第 %d 次切换，周四晚上进行，回滚计划已经写好并通过评审。(source: 2026-02-%02d)\n", s.name, n, n, 1+n%28)
				case 2:
					fmt.Fprintf(&b, "\n**[%s] %s detail %d (02-%02d)**\n> The long version of fact %d, with the reasoning and the history behind it.\n> A second line of detail that only matters now and then.\n\n", s.typ, s.name, n, 1+n%28, n)
				case 3:
					fmt.Fprintf(&b, "<!-- openclaw-memory-promotion:memory:memory/2026-02-%02d.md:4:4 -->\n- %s promoted fact %d about the backup window and the restic retention. [score=0.812 recalls=6 avg=0.760 source=memory/2026-02-%02d.md:4-4]\n", 1+n%28, s.name, n, 1+n%28)
				case 4:
					fmt.Fprintf(&b, "- [%s] %s fact %d: Argo CD syncs the staging cluster every three minutes; the prod sync is manual.\n", s.typ, s.name, n)
				default:
					fmt.Fprintf(&b, "\n**Rule:** %s rule %d: lead with the answer.\n**Why:** Sam reads on his phone (2026-02-%02d).\n**How to apply:** Replies and summaries.\n\n", s.name, n, 1+n%28)
				}
			}
		}
	}
	b.WriteString("\n| host | address |\n|---|---|\n| nas-01 | 10.0.0.20 |\n| pi-dns | 10.0.0.2 |\n")
	return b.String()
}

func TestDream_BoundedMemoryStartingThreeTimesOverBudget(t *testing.T) {
	mem := bigMemory()
	if n := utf8.RuneCountInString(mem); n < 48000 {
		t.Fatalf("MEMORY.md has %d characters", n)
	}
	dir := workspaceFrom(t, "-- MEMORY.md --\n"+mem+`-- memory/homelab.md --
# Home lab

## Hosts
- nas-01 is the Synology NAS at 10.0.0.20; the homelab rack holds it with the switch.
- The homelab rack cabling plan lives in the cupboard binder.
`)
	before := load(t, dir)
	res := dream(t, dir, "2026-03-10T07:00:00Z")
	after := load(t, dir)
	memAfter := after.Memory.File.Content

	// Within the budget, counted in characters.
	if n := utf8.RuneCountInString(memAfter); n > 16000 {
		t.Errorf("MEMORY.md has %d characters, budget 16,000", n)
	}
	if m := res.Plan.Memory; m.After.Chars > 16000 || m.Before.Chars < 48000 || m.After.Bytes <= m.After.Chars {
		t.Errorf("reported sizes %+v", m)
	}
	// Nothing lost: every entry is in MEMORY.md or in an L2 file that
	// MEMORY.md points to.
	inMemory := map[string]bool{}
	for _, e := range after.Memory.Entries() {
		inMemory[normText(e.Text)] = true
	}
	where := map[string]string{}
	for _, tp := range after.Topics {
		for _, e := range tp.Entries() {
			where[normText(e.Text)] = tp.File.Path
		}
	}
	moved := 0
	for _, e := range before.Memory.Entries() {
		n := normText(e.Text)
		if inMemory[n] {
			continue
		}
		f, ok := where[n]
		if !ok {
			t.Errorf("entry lost: %q", e.Text)
			continue
		}
		moved++
		slug := strings.TrimSuffix(path.Base(f), ".md")
		if !strings.Contains(memAfter, f) && !strings.Contains(memAfter, "[["+slug+"]]") {
			t.Errorf("%s holds moved detail but MEMORY.md does not point to it", f)
		}
	}
	if moved < 100 {
		t.Errorf("only %d entries moved", moved)
	}
	// The evidence of promoted entries moves with them.
	for _, tp := range after.Topics {
		if strings.Contains(tp.File.Content, "promoted fact") && !strings.Contains(tp.File.Content, "<!-- openclaw-memory-promotion:memory:") {
			t.Errorf("%s lost a promotion comment", tp.File.Path)
		}
	}
	// The pointer to homelab.md is an index line: it stays.
	if !strings.Contains(memAfter, "- [reference] Home lab hosts and fixes: see memory/homelab.md") {
		t.Error("the index line to homelab.md was moved")
	}
	// And the next dream finds nothing to move.
	res = dream(t, dir, "2026-03-10T09:00:00Z")
	if got := read(t, dir, "MEMORY.md"); got != memAfter {
		t.Errorf("second dream changed MEMORY.md:\n%s", unifiedDiff("MEMORY.md", []byte(memAfter), []byte(got), false))
	}
	if res.Plan.Counts.Sunk != 0 {
		t.Errorf("second dream sank %d entries", res.Plan.Counts.Sunk)
	}
}

func TestDream_BudgetCountsCharactersAndHonoursLineLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("# MEMORY.md\n\n## 笔记\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "- 第 %d 条：张伟负责周四晚上的切换，回滚计划已经写好。\n", i)
	}
	// About 1,900 characters but over 4,000 bytes: within a 2,000-character
	// headroom (target 1,600 at 80%)? No: 1,900 > 1,600, so it sinks to
	// within characters; a byte count would have sunk far more.
	dir := workspaceFrom(t, "-- MEMORY.md --\n"+b.String())
	res, err := Run(t.Context(), dir, Options{Now: at("2026-03-10T07:00:00Z"), Force: true, Configure: func(c *workspace.Config) {
		c.Budget.MaxChars = 2000
	}}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Plan.Memory
	if m.After.Chars > 1600 || m.After.Chars < 1200 || m.After.Bytes < 1600 {
		t.Errorf("sizes %+v: sinking should stop near 1,600 characters", m)
	}
	// A line limit (200 lines at 80% = 160) applies too when configured.
	b.Reset()
	b.WriteString("# MEMORY.md\n\n## Notes\n")
	for i := 0; i < 250; i++ {
		fmt.Fprintf(&b, "- note %d\n", i)
	}
	dir = workspaceFrom(t, "-- MEMORY.md --\n"+b.String())
	res, err = Run(t.Context(), dir, Options{Now: at("2026-03-10T07:00:00Z"), Force: true, Configure: func(c *workspace.Config) {
		c.Budget.MaxLines = 200
	}}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Plan.Memory; m.After.Lines > 160 || m.Budget.Lines != 160 {
		t.Errorf("lines %+v", m)
	}
}
