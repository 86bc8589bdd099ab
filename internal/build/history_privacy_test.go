package build_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/history/historytest"
)

// healthHistory commits a workspace whose topic file memory/health.md
// holds the words of healthWords, on three days: written, edited, and
// (when commitMove) moved into memory/private/ with git. Without
// commitMove the move is made in the work tree only, as `mv` leaves it.
// Each day also adds a public fact, so that every point has changes.
func healthHistory(t *testing.T, commitMove bool) string {
	t.Helper()
	dir := t.TempDir()
	memory := func(n int) string {
		var b strings.Builder
		b.WriteString("# Memory\n\n")
		for i := range n {
			b.WriteString("- The kiln fired batch " + string(rune('A'+i)) + ". Source: memory/" + day0.AddDate(0, 0, i).Format("2006-01-02") + ".md#L1-L1\n")
		}
		return b.String()
	}
	day := func(i int) {
		write(t, filepath.Join(dir, "memory", day0.AddDate(0, 0, i).Format("2006-01-02")+".md"), "- The kiln fired a batch.\n")
		write(t, filepath.Join(dir, "MEMORY.md"), memory(i+1))
	}
	commit := func(i int) {
		if _, err := historytest.Commit(dir, day0.AddDate(0, 0, i).Add(12*time.Hour), "day"); err != nil {
			t.Fatal(err)
		}
	}
	day(0)
	write(t, filepath.Join(dir, "memory", "health.md"), "# Health\n\n## Physio\n\n- The physio set marrowleaf exercises on 2026-03-01.\n")
	commit(0)
	day(1)
	write(t, filepath.Join(dir, "memory", "health.md"), "# Health\n\n## Physio\n\n- The physio set marrowleaf exercises on 2026-03-01.\n- The knee scan showed lanternwick damage on 2026-03-02.\n")
	commit(1)
	day(2)
	if err := os.MkdirAll(filepath.Join(dir, "memory", "private"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "memory", "health.md"), filepath.Join(dir, "memory", "private", "health.md")); err != nil {
		t.Fatal(err)
	}
	if commitMove {
		commit(2)
	}
	return dir
}

// healthWords are the private note's own words (and its old name).
var healthWords = []string{"marrowleaf", "lanternwick", "memory/health", "health.html"}

// TestHistory_NoteMovedIntoPrivateIsAbsentFromEveryPoint holds history to
// today's privacy: a note moved into a private folder, with git or only
// in the work tree, is absent from every past point at its old path
// too, in each of its versions: from the changes page and the claim
// histories, from a build --as-of each earlier day and from diff --since.
func TestHistory_NoteMovedIntoPrivateIsAbsentFromEveryPoint(t *testing.T) {
	for _, tc := range []struct {
		name   string
		commit bool
	}{{"git mv committed", true}, {"mv not committed", false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := healthHistory(t, tc.commit)
			ctx := context.Background()

			out := buildtest.BuildWith(t, build.Options{Workspace: dir, AsOf: day0.AddDate(0, 0, 3)})
			out.AssertContains("site/changes.html", "kiln")
			out.AssertNoFileHolds("", healthWords...)

			for _, i := range []int{0, 1} {
				past := buildtest.BuildWith(t, build.Options{Workspace: dir, AsOf: day0.AddDate(0, 0, i), Snapshot: true})
				if past.Report.Snapshot == nil || past.Report.Snapshot.Source != "git" {
					t.Fatalf("as of day %d: snapshot %+v, want one from git", i, past.Report.Snapshot)
				}
				past.AssertContains("site/index.html", "kiln")
				past.AssertNoFileHolds("", healthWords...)
			}

			r, err := build.Diff(ctx, build.Options{Workspace: dir}, build.DiffOptions{Since: day0})
			if err != nil {
				t.Fatal(err)
			}
			text, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(text), "kiln") {
				t.Errorf("diff --since shows no public change: %s", text)
			}
			for _, w := range healthWords {
				if strings.Contains(string(text), w) {
					t.Errorf("diff --since shows %q: %s", w, text)
				}
			}
		})
	}
}
