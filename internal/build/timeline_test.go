package build_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/history/historytest"
)

// dreamHistory makes a workspace with ten daily commits and two dreams
// logged in memory/dream-log.md: the first (day 4, 2026-03-05 07:00)
// promotes "Sam prefers short answers" and rewrites the build time; the
// second (day 8) promotes the Kyoto trip.
func dreamHistory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for i := range 10 {
		day := day0.AddDate(0, 0, i)
		ymd := day.Format("2006-01-02")
		write(t, filepath.Join(dir, "memory", ymd+".md"), fmt.Sprintf("# %s\n\n- Sam said thing %d.\n- Sam prefers short answers.\n- Sam books the Kyoto trip for April.\n", ymd, i))
		var m strings.Builder
		m.WriteString("# Memory\n\n## Facts\n\n- Gateway host is the NUC. Source: memory/2026-03-01.md#L3-L3\n")
		if i < 4 {
			m.WriteString("- The nightly build takes 5 minutes. Source: memory/2026-03-01.md#L3-L3\n")
		} else {
			m.WriteString("- The nightly build takes 7 minutes. Source: memory/2026-03-05.md#L3-L3\n")
			m.WriteString("- Sam prefers short answers. Source: memory/2026-03-05.md#L4-L4\n")
		}
		if i >= 8 {
			m.WriteString("- Sam books the Kyoto trip for April. Source: memory/2026-03-09.md#L5-L5\n")
		}
		write(t, filepath.Join(dir, "MEMORY.md"), m.String())
		var log strings.Builder
		if i >= 4 {
			log.WriteString("# Dream log\n\n## 2026-03-05 07:00 — dream\n\nConsolidated through: 2026-03-04\n- Promoted: Sam prefers short answers\n")
		}
		if i >= 8 {
			log.WriteString("\n## 2026-03-09 07:00 — dream\n\nConsolidated through: 2026-03-08\n- Promoted: Sam books the Kyoto trip for April\n")
		}
		if log.Len() > 0 {
			write(t, filepath.Join(dir, "memory", "dream-log.md"), log.String())
		}
		if _, err := historytest.Commit(dir, day.Add(20*time.Hour), "day "+ymd); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func buildSite(t *testing.T, ws string) string {
	t.Helper()
	out := t.TempDir()
	if _, err := build.Build(context.Background(), build.Options{Workspace: ws, Out: out, Force: true, AsOf: day0.AddDate(0, 0, 10)}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(out, "site")
}

func readPage(t *testing.T, site, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(site, p))
	if err != nil {
		t.Fatalf("%s was not written: %v", p, err)
	}
	return string(b)
}

// textOf is a page's text without tags, spaces collapsed.
func textOf(html string) string {
	return strings.Join(strings.Fields(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(html, " ")), " ")
}

func TestHistory_ADreamsPageListsWhatItsJournalSaysAndWhatChanged(t *testing.T) {
	site := buildSite(t, dreamHistory(t))
	page := readPage(t, site, "dreams/2026-03-05-0700.html")
	text := textOf(page)
	// What the journal says: the claim it promoted, linked.
	if !regexp.MustCompile(`id="promoted">Promoted<.*</h2>\s*<ul>\s*<li><a [^>]*href="../claims/sam-prefers-short-answers.html"`).MatchString(page) {
		t.Errorf("the dream's page does not list the claim its journal says it promoted:\n%s", text)
	}
	// What changed from just before the dream to the end of its day.
	for _, want := range []string{
		"What this dream changed",
		"git commit", // where both sides were read from
		"1 added, 1 changed",
		"added Sam prefers short answers. MEMORY.md:7",
		"changed The nightly build takes 7 minutes. MEMORY.md:6 was: The nightly build takes 5 minutes.",
		"evidence: 5 Mar 2026 log, line 4", // as people read it
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the dream's page does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Kyoto") {
		t.Errorf("the first dream's page shows what the second promoted:\n%s", text)
	}
	// MEMORY.md before and after, line by line.
	for _, want := range []string{
		`<del><span class="visually-hidden">removed: </span>-- The nightly build takes 5 minutes.`,
		`<ins><span class="visually-hidden">added: </span>+- The nightly build takes 7 minutes.`,
		`<ins><span class="visually-hidden">added: </span>+- Sam prefers short answers.`,
		`href="../history/2026-03-05-0700/memory.html"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the dream's page lacks %s", want)
		}
	}
	// The evidence link opens the cited line, as a claim page's does.
	if !strings.Contains(page, `href="../sources/daily/2026-03-05.html#^e4" title="memory/2026-03-05.md#L4-L4">5 Mar 2026 log, line 4</a>`) {
		t.Error("the evidence link does not open the cited line of the day's page")
	}
	if !strings.Contains(page, `href="../claims/sam-prefers-short-answers.html">Sam prefers short answers.</a>`) {
		t.Error("the added claim is not linked to its page")
	}

	// The claim's page tells its history, back to the dream.
	claim := textOf(readPage(t, site, "claims/sam-prefers-short-answers.html"))
	if !strings.Contains(claim, "2026-03-05 In memory by Dream 2026-03-05 07:00") {
		t.Errorf("the claim's page does not say the dream added it:\n%s", claim)
	}
	build := textOf(readPage(t, site, "claims/the-nightly-build-takes-7-minutes.html"))
	if !strings.Contains(build, "Changed by Dream 2026-03-05 07:00 was: The nightly build takes 5 minutes.") {
		t.Errorf("the changed claim's page does not say what it was:\n%s", build)
	}

	// The changes page lists both dreams, newest first.
	changes := textOf(readPage(t, site, "changes.html"))
	second, first := strings.Index(changes, "Dream 2026-03-09 07:00"), strings.Index(changes, "Dream 2026-03-05 07:00")
	if second < 0 || first < 0 || second > first {
		t.Errorf("the changes page does not list the dreams newest first:\n%s", changes)
	}
}

func TestHistory_SnapshotPagesShowMemoryThenAndLinkToEachOther(t *testing.T) {
	site := buildSite(t, dreamHistory(t))
	first := readPage(t, site, "history/2026-03-05-0700/memory.html")
	second := readPage(t, site, "history/2026-03-09-0700/memory.html")
	if !strings.Contains(first, "Sam prefers short answers") || strings.Contains(first, "Kyoto") {
		t.Errorf("the first dream's MEMORY.md is not as it stood then:\n%s", textOf(first))
	}
	if !strings.Contains(second, "Kyoto") {
		t.Errorf("the second dream's MEMORY.md lacks what it promoted:\n%s", textOf(second))
	}
	for _, l := range []struct{ page, link string }{
		{first, `rel="next" href="../../history/2026-03-09-0700/memory.html"`},
		{second, `rel="prev" href="../../history/2026-03-05-0700/memory.html"`},
		{first, `href="../../dreams/2026-03-05-0700.html">What this dream changed`},
		{readPage(t, site, "index.html"), `href="history/2026-03-05-0700/memory.html"`},
		{readPage(t, site, "dashboard.html"), `href="history/2026-03-09-0700/memory.html"`},
	} {
		if !strings.Contains(l.page, l.link) {
			t.Errorf("a page lacks the link %s", l.link)
		}
	}
	// The slider's data names both points and their pages.
	var data struct {
		Points []struct{ Label, Page string }
	}
	if err := json.Unmarshal([]byte(readPage(t, site, "history/index.json")), &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Points) != 2 || data.Points[0].Page != "history/2026-03-05-0700/memory.html" || data.Points[1].Label != "Dream 2026-03-09 07:00" {
		t.Errorf("history/index.json: %+v", data.Points)
	}
	// Every link of a snapshot page leads to a page the build wrote.
	for _, m := range regexp.MustCompile(`href="([^"#:]+)(?:#[^"]*)?"`).FindAllStringSubmatch(first, -1) {
		target := filepath.Join(site, "history/2026-03-05-0700", m[1])
		if _, err := os.Stat(target); err != nil {
			t.Errorf("the snapshot page links to %s, which was not written", m[1])
		}
	}
}

func TestHistory_TheSameWorkspaceBuildsTheSameBytes(t *testing.T) {
	ws := dreamHistory(t)
	a, b := buildSite(t, ws), buildSite(t, ws)
	files := 0
	err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds of the same workspace", rel)
		}
		if strings.HasPrefix(rel, "history"+string(filepath.Separator)) {
			files++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 3 {
		t.Errorf("%d files under history/, want 3 (two snapshot pages and the slider's data)", files)
	}
}

func TestHistory_WithoutDreamsTheSliderStepsThroughWeeksOfGitHistory(t *testing.T) {
	ws, _ := gitHistory(t) // 30 daily commits from Sunday 2026-03-01, no dream
	site := buildSite(t, ws)
	var data struct {
		Points []struct{ Label, Date, Page string }
	}
	if err := json.Unmarshal([]byte(readPage(t, site, "history/index.json")), &data); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range data.Points {
		labels = append(labels, p.Label+" "+p.Date)
	}
	want := []string{"Week of 2026-02-23 2026-03-01", "Week of 2026-03-02 2026-03-08", "Week of 2026-03-09 2026-03-15",
		"Week of 2026-03-16 2026-03-22", "Week of 2026-03-23 2026-03-29", "Week of 2026-03-30 2026-04-05"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Fatalf("points %q, want %q", labels, want)
	}
	// The second week's index has the facts of its last day (day 7,
	// 2026-03-08), not those of the day after; the uncommitted fact 99 is
	// in no week.
	week := readPage(t, site, data.Points[1].Page)
	if !strings.Contains(week, "Fact 07:") || strings.Contains(week, "Fact 08:") || strings.Contains(week, "Fact 99") {
		t.Errorf("the week's MEMORY.md is not as it stood at its end:\n%s", textOf(week))
	}
	changes := textOf(readPage(t, site, "changes.html"))
	if !strings.Contains(changes, "between one week and the next") || !strings.Contains(changes, "Week of 2026-03-02 7 added") {
		t.Errorf("the changes page does not list the weeks:\n%s", changes)
	}
}

func TestChanges_EditsComeFirstAndEveryMoreIsALink(t *testing.T) {
	dir := t.TempDir()
	facts := []string{"- The nightly build takes 5 minutes."}
	for week := range 2 {
		if week == 1 {
			facts[0] = "- The nightly build takes 7 minutes."
			for k := range 14 {
				facts = append(facts, fmt.Sprintf("- Rack %d holds the backup disks of site %d.", k+1, k+1))
			}
		}
		write(t, filepath.Join(dir, "MEMORY.md"), "# Memory\n\n"+strings.Join(facts, "\n")+"\n")
		if _, err := historytest.Commit(dir, day0.AddDate(0, 0, 7*week+1), fmt.Sprintf("week %d", week)); err != nil {
			t.Fatal(err)
		}
	}
	site := buildSite(t, dir)
	page := readPage(t, site, "changes.html")
	text := textOf(page)
	if i, j := strings.Index(text, "changed The nightly build takes 7 minutes."), strings.Index(text, "added Rack"); i < 0 || j < 0 || i > j {
		t.Errorf("the edited claim is not listed before the additions:\n%s", text)
	}
	more := regexp.MustCompile(`<a href="(history/[^"]+/memory\.html)#changes">and (\d+) more</a>`).FindStringSubmatch(page)
	if more == nil {
		t.Fatalf("the long list's rest is not a link:\n%s", text)
	}
	// The point's page lists them all.
	point := textOf(readPage(t, site, more[1]))
	for _, want := range []string{"Changes since the point before", "changed The nightly build takes 7 minutes.", "added Rack 1 holds", "added Rack 14 holds"} {
		if !strings.Contains(point, want) {
			t.Errorf("%s does not list %q:\n%s", more[1], want, point)
		}
	}
}
