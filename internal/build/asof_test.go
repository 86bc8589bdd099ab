package build_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/history"
	"github.com/dreamwiki/dreamwiki/internal/history/historytest"
)

// day0 is the first day of the histories below.
var day0 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// factLine is the MEMORY.md entry the history adds on day i, citing that
// day's log.
func factLine(i int) string {
	return fmt.Sprintf("- Fact %02d: the agent learned thing %d. Source: memory/%s.md#L1-L1", i, i, day0.AddDate(0, 0, i).Format("2006-01-02"))
}

// correctedDay is the day the git history corrects fact 3's text.
const correctedDay = 20

// writeDay writes the workspace as it stands after day i: a log per day
// so far and one MEMORY.md entry per log.
func writeDay(t *testing.T, dir string, i int) {
	t.Helper()
	log := filepath.Join(dir, "memory", day0.AddDate(0, 0, i).Format("2006-01-02")+".md")
	write(t, log, fmt.Sprintf("- Sam said the agent learned thing %d.\n", i))
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	for k := 0; k <= i; k++ {
		line := factLine(k)
		if k == 3 && i >= correctedDay {
			line = strings.Replace(line, "thing 3.", "thing 3, and then some.", 1)
		}
		b.WriteString(line + "\n")
	}
	write(t, filepath.Join(dir, "MEMORY.md"), b.String())
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitHistory makes a workspace with 30 daily commits (day i at noon adds
// fact i) and returns the commit hashes; the work tree then gets an
// uncommitted fact 99, which no snapshot may show.
func gitHistory(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var hashes []string
	for i := range 30 {
		writeDay(t, dir, i)
		h, err := historytest.Commit(dir, day0.AddDate(0, 0, i).Add(12*time.Hour), fmt.Sprintf("day %d", i))
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, h)
	}
	f, err := os.OpenFile(filepath.Join(dir, "MEMORY.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "- Fact 99: not committed yet.")
	f.Close()
	return dir, hashes
}

// facts lists the "Fact NN" claims of a model, in order.
func facts(t *testing.T, m *build.Model) []string {
	t.Helper()
	var out []string
	for _, c := range m.Provenance.Claims {
		if strings.HasPrefix(c.Text, "Fact ") {
			out = append(out, c.Text[:len("Fact 00")])
		}
	}
	return out
}

func wantFacts(n int) []string {
	var out []string
	for k := range n {
		out = append(out, fmt.Sprintf("Fact %02d", k))
	}
	return out
}

func TestSnapshot_AsOfADayBetweenCommitsGivesThatCommitsClaims(t *testing.T) {
	dir, hashes := gitHistory(t)
	for _, i := range []int{0, 1, 14, 29} {
		// The day after commit i, before commit i+1's noon: still commit i
		// at the end of day i.
		m, err := build.Load(context.Background(), build.Options{Workspace: dir, AsOf: day0.AddDate(0, 0, i), Snapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		if m.Snapshot.Source != history.SourceGit || m.Snapshot.Commit != hashes[i] {
			t.Errorf("as of day %d: snapshot from %s %s, want git %s", i, m.Snapshot.Source, m.Snapshot.Commit, hashes[i])
		}
		if got := facts(t, m); !slices.Equal(got, wantFacts(i+1)) {
			t.Errorf("as of day %d: claims %v, want %v", i, got, wantFacts(i+1))
		}
		if !strings.Contains(m.SiteOptions(build.Options{}).Snapshot, "git commit "+hashes[i][:10]) {
			t.Errorf("as of day %d: the site does not name the commit: %q", i, m.SiteOptions(build.Options{}).Snapshot)
		}
	}
	// Without --as-of, the work tree as it is, uncommitted fact included.
	m, err := build.Load(context.Background(), build.Options{Workspace: dir, AsOf: day0.AddDate(0, 0, 40)})
	if err != nil {
		t.Fatal(err)
	}
	if got := facts(t, m); len(got) != 31 || m.Snapshot != nil {
		t.Errorf("now: %d claims (snapshot %v), want 31 from the work tree", len(got), m.Snapshot)
	}
}

// backupsOnly is a workspace without git whose dreams left backups: on
// day 10 and day 20 a dream rewrote MEMORY.md (keeping the earlier copy).
func backupsOnly(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	memory := func(n int) string {
		var b strings.Builder
		b.WriteString("# Memory\n\n")
		for k := range n {
			b.WriteString(factLine(k) + "\n")
		}
		return b.String()
	}
	for i := range 30 {
		write(t, filepath.Join(dir, "memory", day0.AddDate(0, 0, i).Format("2006-01-02")+".md"), fmt.Sprintf("- Sam said the agent learned thing %d.\n", i))
	}
	// The dream of day 10 found facts 0-4, the one of day 20 facts 0-14;
	// now there are 30.
	write(t, filepath.Join(dir, ".backup/memory-dreams", day0.AddDate(0, 0, 10).Format("20060102")+"-0700", "MEMORY.md.bak"), memory(5))
	write(t, filepath.Join(dir, ".backup/memory-dreams", day0.AddDate(0, 0, 20).Format("20060102")+"-0700", "MEMORY.md.bak"), memory(15))
	write(t, filepath.Join(dir, "MEMORY.md"), memory(30))
	return dir
}

func TestSnapshot_BackupsGiveMemoryAsTheNextDreamFoundIt(t *testing.T) {
	dir := backupsOnly(t)
	for _, tc := range []struct {
		day     int
		source  history.Source
		backups []string
		facts   int
	}{
		{5, history.SourceBackups, []string{"20260311-0700"}, 5},
		{15, history.SourceBackups, []string{"20260321-0700"}, 15},
		// After the last dream: the workspace now, less the entries citing
		// logs not yet written.
		{25, history.SourceDates, nil, 26},
	} {
		m, err := build.Load(context.Background(), build.Options{Workspace: dir, AsOf: day0.AddDate(0, 0, tc.day), Snapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		if m.Snapshot.Source != tc.source || !slices.Equal(m.Snapshot.Backups, tc.backups) {
			t.Errorf("as of day %d: source %s %v, want %s %v", tc.day, m.Snapshot.Source, m.Snapshot.Backups, tc.source, tc.backups)
		}
		if got := facts(t, m); !slices.Equal(got, wantFacts(tc.facts)) {
			t.Errorf("as of day %d: claims %v, want %v", tc.day, got, wantFacts(tc.facts))
		}
	}
}

func TestDiff_SinceListsExactlyTheChangesMadeInBetween(t *testing.T) {
	dir, _ := gitHistory(t)
	r, err := build.Diff(context.Background(), build.Options{Workspace: dir}, build.DiffOptions{Since: day0.AddDate(0, 0, 15)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, string(c.Kind)+" "+c.Text[:len("Fact 00")])
	}
	var want []string
	want = append(want, "added Fact 16")
	for k := 17; k < 30; k++ {
		want = append(want, fmt.Sprintf("added Fact %02d", k))
	}
	want = append(want, "added Fact 99", "changed Fact 03")
	if !slices.Equal(got, want) {
		t.Errorf("changes since day 15:\n got %v\nwant %v", got, want)
	}
	for _, c := range r.Changes {
		if c.Kind == "changed" && (c.Before != "Fact 03: the agent learned thing 3." || len(c.Evidence) != 1 || c.Evidence[0] != "memory/2026-03-04.md#L1-L1") {
			t.Errorf("the change of fact 3: was %q, evidence %v", c.Before, c.Evidence)
		}
	}
	if r.From.Snapshot.Source != history.SourceGit {
		t.Errorf("from %s, want git", r.From.Snapshot.Source)
	}
}

func TestDiff_DreamComparesBeforeAndAfterItsRun(t *testing.T) {
	dir := backupsOnly(t)
	write(t, filepath.Join(dir, "memory/dream-log.md"), `# Dream log

## 2026-03-11 07:00

- Consolidated through: 2026-03-10
- Promoted: 10

## 2026-03-21 07:00

- Consolidated through: 2026-03-20
- Promoted: 10
`)
	r, err := build.Diff(context.Background(), build.Options{Workspace: dir}, build.DiffOptions{Dream: "2026-03-11-0700"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, string(c.Kind)+" "+c.Text[:len("Fact 00")])
	}
	// After it is the end of its day: the next dream's backup has facts
	// 0-14, of which those citing logs after the day were not written yet.
	var want []string
	for k := 5; k <= 10; k++ {
		want = append(want, fmt.Sprintf("added Fact %02d", k))
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes of the dream:\n got %v\nwant %v", got, want)
	}
	if _, err := build.Diff(context.Background(), build.Options{Workspace: dir}, build.DiffOptions{Dream: "2026-03-12"}); err == nil || !strings.Contains(err.Error(), "2026-03-11-0700, 2026-03-21-0700") {
		t.Errorf("an unknown dream: %v, want the list of dreams", err)
	}
}
