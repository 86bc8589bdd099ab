package team_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/team"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// twoAgents is a team of two workspaces: alpha links into beta by name
// and to its own gateway note, both keep a gateway note, they disagree on
// the NAS model, and beta keeps a private folder that also names a NAS
// model (which must never reach the site, the search or the report).
const twoAgents = `
-- dreamwiki.toml --
title = "Our team"

[[workspace]]
path = "agents/alpha"

[[workspace]]
name = "beta"
path = "agents/Beta"
private = ["private/**"]
-- agents/alpha/MEMORY.md --
# Memory

## Infrastructure

- The NAS model is DS920+ (bought 2025). Source: memory/2026-11-02.md
- Gateway notes are in [[gateway]]; the beta runbook is [[beta:runbook#Restart]].
-- agents/alpha/memory/2026-11-02.md --
# 2026-11-02

- Checked the NAS: it is a DS920+.
-- agents/alpha/memory/gateway.md --
# Gateway

The alpha gateway runs on the Mac mini.
-- agents/Beta/MEMORY.md --
# Memory

## Infrastructure

- The NAS model is DS1522+ (replaced in October). Source: memory/2026-11-03.md
- See [[runbook]] and [[gateway]]; the plans are in [[secret-plans]] and [[beta:secret-plans]].
-- agents/Beta/memory/2026-11-03.md --
# 2026-11-03

- The NAS is now a DS1522+.
-- agents/Beta/memory/runbook.md --
# Runbook

## Restart

Restart the beta gateway with systemctl.
-- agents/Beta/memory/gateway.md --
# Gateway

The beta gateway is a Raspberry Pi.
-- agents/Beta/private/secret-plans.md --
# Secret plans

Flumbergast is the codename. The NAS model is DS3000xs.
`

var asOf = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// buildTeam builds the team of archive's dreamwiki.toml into a new folder.
func buildTeam(t *testing.T, archive string) (*buildtest.Output, *team.Report) {
	t.Helper()
	dir := buildtest.Workspace(t, archive)
	cfg, diags := workspace.ReadConfig(dir)
	if len(diags) > 0 {
		t.Fatalf("dreamwiki.toml: %v", diags)
	}
	wss, err := team.FromConfig(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "dist")
	r, err := team.Build(t.Context(), team.Options{Workspaces: wss, Title: cfg.Title, Out: out, AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	return buildtest.Open(t, out), r
}

func TestBuild_EachWorkspaceHasItsSectionUnderATeamHome(t *testing.T) {
	o, r := buildTeam(t, twoAgents)
	if got := strings.Join(r.Names, " "); got != "alpha beta" {
		t.Errorf("workspaces %q; want alpha (from its folder) and beta (named)", got)
	}
	for _, ws := range []string{"alpha", "beta"} {
		o.AssertExists("site/"+ws+"/index.html", "site/"+ws+"/dashboard.html", "site/"+ws+"/dreams/journal.html",
			"site/"+ws+"/llms.txt", "site/"+ws+"/api/pages.json", "vault/"+ws+"/index.md")
		// A section's search is the team's: it writes no index of its own.
		o.AssertNotExists("site/"+ws+"/search.html", "site/"+ws+"/search/meta.bin")
		o.AssertContains("site/"+ws+"/index.html", `data-search-root="../"`, `action="../search.html"`, `<a class="team-home" href="../index.html">Our team</a>`)
	}
	o.AssertExists("site/search.html", "site/search/meta.bin", "site/graph.html", "site/disagreements.html")
	o.AssertContains("site/index.html", `href="alpha/index.html"`, `href="beta/index.html"`, "<strong>alpha</strong><span>12 notes · 3 claims · no dream yet · health ")
	if pages := o.AssertLinksResolve(); pages < 20 {
		t.Errorf("%d pages checked", pages)
	}
	for _, d := range r.Diagnostics() {
		if d.Code == "broken-link" || d.Code == "broken-anchor" {
			t.Errorf("%v", d)
		}
	}
}

func TestBuild_QualifiedLinksCrossWorkspacesAndPlainOnesStayHome(t *testing.T) {
	o, _ := buildTeam(t, twoAgents)
	// MEMORY.md is each section's home page.
	o.AssertContains("site/alpha/index.html", `href="../beta/topics/runbook.html#restart"`, `href="topics/gateway.html"`)
	o.AssertNotContains("site/alpha/index.html", `../beta/topics/gateway.html`)
	o.AssertContains("site/beta/index.html", `href="topics/runbook.html"`, `href="topics/gateway.html"`)
	// The Markdown twin for agents links the other workspace's page too.
	o.AssertContains("site/alpha/index.md", "](../beta/topics/runbook.md#restart)")
	// Each vault is a vault of its own: the link stays as written.
	o.AssertContains("vault/alpha/index.md", "[[beta:runbook#Restart]]")
}

func TestBuild_DisagreementsListTwoWorkspacesClaimsOnOneSubject(t *testing.T) {
	o, r := buildTeam(t, twoAgents)
	if r.DisagreementCount != 1 {
		t.Fatalf("%d disagreements; want the NAS model's", r.DisagreementCount)
	}
	o.AssertContains("site/disagreements.html", "nas model",
		`href="alpha/claims/the-nas-model-is-ds920-bought-2025.html"`,
		`href="beta/claims/the-nas-model-is-ds1522-replaced-in-october.html"`)
	var v struct {
		Disagreements []struct {
			Subject string
			Claims  []struct{ Workspace, ID, URL string }
		}
	}
	if err := json.Unmarshal([]byte(o.Read("site/api/disagreements.json")), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Disagreements) != 1 || len(v.Disagreements[0].Claims) != 2 ||
		v.Disagreements[0].Claims[0].Workspace != "alpha" || v.Disagreements[0].Claims[1].Workspace != "beta" {
		t.Errorf("api/disagreements.json: %+v", v)
	}
	o.AssertContains("site/llms.txt", "## Workspace alpha", "## Workspace beta", "## Disagreements", "nas model")
}

func TestBuild_APrivateGlobOfOneWorkspaceHidesItsNotesEverywhere(t *testing.T) {
	o, r := buildTeam(t, twoAgents)
	// Nothing of the private note: not its name, its codename or the NAS
	// model it gives (which would be a third disagreement). The search
	// index's shards are compressed; staticindex's team test reads them.
	o.AssertNoFileHolds("", "Flumbergast", "flumbergast", "DS3000xs", "ds3000xs", "secret-plans.html")
	if r.Workspaces[1].Private != 1 {
		t.Errorf("beta has %d private files; want 1", r.Workspaces[1].Private)
	}
	// Both links to it, plain and qualified, are shown as their text.
	o.AssertContains("site/beta/index.html", "the plans are in secret-plans and beta:secret-plans.")
}

func TestServe_ServesTheTeamSiteAndBuildsItAgainOnAnEdit(t *testing.T) {
	dir := buildtest.Workspace(t, twoAgents)
	cfg, _ := workspace.ReadConfig(dir)
	wss, err := team.FromConfig(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	ready, rebuilt := make(chan *team.Report, 1), make(chan error, 4)
	done := make(chan error, 1)
	go func() {
		done <- team.Serve(ctx, team.Options{Workspaces: wss, Title: cfg.Title, AsOf: asOf}, ln, slog.New(slog.DiscardHandler),
			func(r *team.Report) { ready <- r }, func(_ time.Duration, err error) { rebuilt <- err })
	}()
	r := <-ready
	if r.Files == 0 || r.DisagreementCount != 1 {
		t.Fatalf("first build: %d files, %d disagreements", r.Files, r.DisagreementCount)
	}
	base := "http://" + ln.Addr().String() + "/"
	get := func(p string) (int, string) {
		t.Helper()
		res, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(""); code != 200 || !strings.Contains(body, `href="beta/index.html"`) {
		t.Errorf("GET /: %d", code)
	}
	if code, _ := get("beta/"); code != 200 {
		t.Errorf("GET /beta/: %d", code)
	}
	if code, _ := get("beta/topics/secret-plans.html"); code != 404 {
		t.Errorf("the private note's page answers %d", code)
	}
	memory := filepath.Join(dir, "agents", "alpha", "MEMORY.md")
	text, err := os.ReadFile(memory)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(memory, append(text, "- The tea shelf is in the hall.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-rebuilt:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no rebuild after an edit")
	}
	if _, body := get("alpha/"); !strings.Contains(body, "The tea shelf is in the hall.") {
		t.Error("the edit is not served")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
