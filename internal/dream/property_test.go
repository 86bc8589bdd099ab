package dream

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// TestDream_NoFactLost_GeneratedWorkspaces is the central property of the
// dream (DESIGN 5.3): over generated 90-day workspaces, dreamed until every
// log is consolidated, every entry of MEMORY.md and the L2 files before a
// dream is, after it, still present, superseded with a link to its
// successor, or in memory/archive/. Along the way: daily logs never change,
// every written line is distilled, no secret reaches curated memory, and
// MEMORY.md stays within its budget.
func TestDream_NoFactLost_GeneratedWorkspaces(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4, 5, 6}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			dir := t.TempDir()
			end := genWorkspace(dir, seed, 90, 8)
			logs := len(load(t, dir).Daily)
			read := 0
			for run := 0; run < 10; run++ {
				now := end.Add(time.Duration(7+run) * time.Hour)
				before := load(t, dir)
				snap := snapshot(t, dir)
				res := dream(t, dir, now.Format(time.RFC3339))
				after := load(t, dir)
				checkNoFactLost(t, before, after)
				checkSupersessionLinks(t, after)
				for _, d := range before.Daily {
					if got := snapshot(t, dir)[d.File.Path]; got != snap[d.File.Path] {
						t.Fatalf("run %d changed %s", run, d.File.Path)
					}
				}
				checkDistilled(t, res.Plan)
				for path, content := range snapshot(t, dir) {
					if _, _, daily := workspace.DailyLogPath(path); !daily && secrets.Contains(content) {
						t.Fatalf("run %d: %s holds a secret", run, path)
					}
				}
				if m := res.Plan.Memory; !m.Budget.fits(m.After) {
					t.Errorf("run %d: MEMORY.md %+v over budget %+v", run, m.After, m.Budget)
				}
				read += len(res.Plan.Inputs)
				if len(res.Plan.Inputs) == 0 {
					break
				}
			}
			if read != logs {
				t.Errorf("read %d of %d logs", read, logs)
			}
		})
	}
}

// checkNoFactLost fails for an entry of before that after holds nowhere:
// not in MEMORY.md, not in an L2 file (a marked, superseded or closed
// entry still contains its text), not in the archive.
func checkNoFactLost(t *testing.T, before, after *workspace.Workspace) {
	t.Helper()
	var have []string
	for _, txt := range curatedTexts(after) {
		have = append(have, normText(txt))
	}
	for _, a := range after.Archive {
		for _, e := range a.Entries {
			have = append(have, normText(e.Text))
		}
	}
	index := strings.Join(have, "\n")
	lost := 0
	for _, txt := range curatedTexts(before) {
		n := normText(txt)
		if n == "" || strings.Contains(index, n) {
			continue
		}
		lost++
		if lost <= 5 {
			t.Errorf("fact lost: %q", txt)
		}
	}
	if lost > 5 {
		t.Errorf("… %d facts lost in all", lost)
	}
}

var reSupersededBy = regexp.MustCompile(`\(superseded \d{4}-\d{2}-\d{2} by: (.+?); since`)

// checkSupersessionLinks: every superseded entry names a successor that
// curated memory holds.
func checkSupersessionLinks(t *testing.T, ws *workspace.Workspace) {
	t.Helper()
	all := strings.Join(curatedTexts(ws), "\n")
	for _, a := range ws.Archive {
		for _, e := range a.Entries {
			all += "\n" + e.Text
		}
	}
	norm := normText(all)
	for _, m := range reSupersededBy.FindAllStringSubmatch(all, -1) {
		succ := normText(strings.TrimSuffix(m[1], "…"))
		if !strings.Contains(strings.ReplaceAll(norm, m[0], ""), succ) {
			t.Errorf("superseded entry points to a successor nobody holds: %q", m[1])
		}
	}
}

// checkDistilled: every line a dream adds to curated memory is distilled.
func checkDistilled(t *testing.T, pl *Plan) {
	t.Helper()
	for _, l := range addedLines(pl) {
		for _, bad := range []string{"confidence:", "status: staged", "[score=", "# Session:", "Session Key"} {
			if strings.Contains(l, bad) {
				t.Errorf("a written line holds %q: %s", bad, l)
			}
		}
		if n := utf8.RuneCountInString(l); n > MaxLine {
			t.Errorf("a written line has %d characters: %s", n, l)
		}
	}
}
