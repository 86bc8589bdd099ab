package build_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/diag"
)

// History degrades, never fails (#25): a shallow clone, a repository
// with an extension go-git refuses, and one with missing objects all
// build; the report says what limited the history.

// commitsOldestFirst lists the repository's commits, oldest first.
func commitsOldestFirst(t *testing.T, dir string) []*object.Commit {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	iter, err := repo.Log(&git.LogOptions{Order: git.LogOrderCommitterTime})
	if err != nil {
		t.Fatal(err)
	}
	var out []*object.Commit
	must(t, iter.ForEach(func(c *object.Commit) error { out = append([]*object.Commit{c}, out...); return nil }))
	return out
}

// dropObject removes a loose object, as a clone that never fetched it.
func dropObject(t *testing.T, dir, hash string) {
	t.Helper()
	must(t, os.Remove(filepath.Join(dir, ".git", "objects", hash[:2], hash[2:])))
}

func buildReport(t *testing.T, ws string, opts build.Options) (*build.Report, string) {
	t.Helper()
	opts.Workspace, opts.Out, opts.Force, opts.AsOf = ws, t.TempDir(), true, day0.AddDate(0, 0, 10)
	r, err := build.Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("the build failed: %v", err)
	}
	return r, filepath.Join(opts.Out, "site")
}

func historyDiags(r *build.Report) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range r.Diagnostics {
		if d.Code == "history" {
			out = append(out, d)
		}
	}
	return out
}

func TestHistory_AShallowCloneBuildsFromTheCommitsItHolds(t *testing.T) {
	ws := dreamHistory(t)
	cs := commitsOldestFirst(t, ws)
	// A clone at depth 4: the six older commits are absent, and
	// .git/shallow names the oldest one it holds.
	for _, c := range cs[:6] {
		dropObject(t, ws, c.Hash.String())
	}
	must(t, os.WriteFile(filepath.Join(ws, ".git", "shallow"), []byte(cs[6].Hash.String()+"\n"), 0o644))
	r, site := buildReport(t, ws, build.Options{})
	ds := historyDiags(r)
	if len(ds) != 1 || ds[0].Severity != diag.Info || !strings.Contains(ds[0].Message, "shallow clone") ||
		!strings.Contains(ds[0].Message, cs[6].Committer.When.UTC().Format("2006-01-02")) || !strings.Contains(ds[0].Hint, "fetch-depth: 0") {
		t.Errorf("the report does not say the history is a shallow clone's and from when: %+v", ds)
	}
	// The second dream (day 8) lies within the clone: its point is read
	// from git.
	if page := readPage(t, site, "dreams/2026-03-09-0700.html"); !strings.Contains(textOf(page), "git commit") {
		t.Errorf("the dream within the shallow clone was not read from git:\n%s", textOf(page))
	}
}

func TestHistory_ARepositoryWithWorktreeConfigIsRead(t *testing.T) {
	ws := dreamHistory(t)
	// What `git sparse-checkout init` leaves in .git/config.
	cfg := filepath.Join(ws, ".git", "config")
	b, err := os.ReadFile(cfg)
	must(t, err)
	must(t, os.WriteFile(cfg, append(b, "[extensions]\n\tworktreeConfig = true\n"...), 0o644))
	r, site := buildReport(t, ws, build.Options{})
	if ds := historyDiags(r); len(ds) != 0 {
		t.Errorf("a repository with extensions.worktreeConfig was reported: %+v", ds)
	}
	if page := readPage(t, site, "dreams/2026-03-05-0700.html"); !strings.Contains(textOf(page), "git commit") {
		t.Errorf("the history was not read from git:\n%s", textOf(page))
	}
}

func TestHistory_AnUnreadableRepositoryBuildsWithAWarning(t *testing.T) {
	ws := dreamHistory(t)
	cs := commitsOldestFirst(t, ws)
	dropObject(t, ws, cs[len(cs)-1].Hash.String()) // HEAD's own commit
	r, site := buildReport(t, ws, build.Options{})
	ds := historyDiags(r)
	if len(ds) != 1 || ds[0].Severity != diag.Warning || !strings.Contains(ds[0].Message, "git history was not read") ||
		!strings.Contains(ds[0].Message, "object not found") || !strings.Contains(ds[0].Hint, "--history off") {
		t.Fatalf("the report does not warn once, naming the cause and the fix: %+v", ds)
	}
	// The dreams' points come from backups and dates instead.
	readPage(t, site, "dreams/2026-03-05-0700.html")
}

func TestHistory_OffBuildsNoHistoryPoints(t *testing.T) {
	ws := dreamHistory(t)
	_, site := buildReport(t, ws, build.Options{History: "off"})
	if _, err := os.Stat(filepath.Join(site, "history")); !os.IsNotExist(err) {
		t.Errorf("--history off wrote history points (%v)", err)
	}
	write(t, filepath.Join(ws, "dreamwiki.toml"), "[history]\nmode = \"off\"\n")
	_, site = buildReport(t, ws, build.Options{})
	if _, err := os.Stat(filepath.Join(site, "history")); !os.IsNotExist(err) {
		t.Errorf("[history] mode = \"off\" wrote history points (%v)", err)
	}
	_, site = buildReport(t, ws, build.Options{History: "auto"})
	if _, err := os.Stat(filepath.Join(site, "history")); err != nil {
		t.Errorf("--history auto did not override the setting: %v", err)
	}
}

func TestAsOf_BeforeTheFirstCommitThereIsNoPastUnlessTheLogsReachBack(t *testing.T) {
	ws := dreamHistory(t) // first commit: 2026-03-01 20:00
	_, err := build.Build(context.Background(), build.Options{Workspace: ws, Out: t.TempDir(), AsOf: day0.AddDate(0, 0, -10), Snapshot: true})
	if err == nil || !strings.Contains(err.Error(), "no history before 2026-03-01") || !strings.Contains(err.Error(), "choose a later date") {
		t.Fatalf("--as-of before the first commit, with no log that old, did not say there is no past: %v", err)
	}
	// A daily log older than the repository: the dates reach back, and
	// the snapshot says it is from before the first commit.
	write(t, filepath.Join(ws, "memory", "2026-02-15.md"), "# 2026-02-15\n\n- Sam set up the NUC.\n")
	r, err := build.Build(context.Background(), build.Options{Workspace: ws, Out: t.TempDir(), AsOf: day0.AddDate(0, 0, -10), Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Snapshot == nil || r.Snapshot.Source != "dates" || !strings.Contains(r.Snapshot.Describe(), "before the repository's first commit (2026-03-01)") {
		t.Errorf("the snapshot does not say it is from dates before the first commit: %+v", r.Snapshot)
	}
}
