package main

import (
	"fmt"
	"io"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/team"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// teamOf returns the team site the arguments name: several workspace
// folders, or one folder (default: the current one) whose dreamwiki.toml
// has [[workspace]] entries. It returns nil for a single workspace. The
// build options o (flags) become the team's; the team's dreamwiki.toml
// gives the title and base URL the flags leave unset.
func teamOf(args []string, o build.Options) (*team.Options, error) {
	if o.Demo {
		return nil, nil
	}
	t := &team.Options{Title: o.Title, BaseURL: o.BaseURL, Out: o.Out, Force: o.Force, AsOf: o.AsOf,
		Snapshot: o.Snapshot, Progress: o.Progress}
	if len(args) > 1 {
		wss, err := team.FromArgs(args)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		t.Workspaces = wss
		return t, nil
	}
	dir := "."
	if len(args) == 1 {
		dir = args[0]
	}
	cfg, _ := workspace.ReadConfig(dir) // a workspace's own is reported when it is read
	if len(cfg.Workspaces) == 0 {
		return nil, nil
	}
	wss, err := team.FromConfig(dir, cfg)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	t.Workspaces = wss
	if t.Title == "" && cfg.Title != workspace.DefaultConfig().Title {
		t.Title = cfg.Title
	}
	if t.BaseURL == "" {
		t.BaseURL = cfg.BaseURL
	}
	params := search.ParamsFromConfig(cfg.Search)
	t.Search = &params
	return t, nil
}

// reportTeam prints a team build's or check's report (each workspace's,
// then the team's) and decides the exit status as report does.
func reportTeam(e *env, r *team.Report, f *buildFlags, verb string) error {
	if f.json {
		if err := writeJSON(e.stdout, r); err != nil {
			return err
		}
	} else if !f.quiet {
		printTeam(e.stdout, r, verb)
	}
	all := r.Diagnostics()
	warnings, errs := all.Count(diag.Warning), all.Count(diag.Error)
	switch {
	case errs > 0:
		return failure{fmt.Sprintf("%d errors", errs)}
	case f.minHealth > 0:
		for i, w := range r.Workspaces {
			if w.Health.Score < f.minHealth {
				return failure{fmt.Sprintf("memory health of %s is %d, below --min-health %d", r.Names[i], w.Health.Score, f.minHealth)}
			}
		}
	}
	if f.strict && warnings > 0 {
		return failure{fmt.Sprintf("%d warnings and --strict is set", warnings)}
	}
	return nil
}

func printTeam(w io.Writer, r *team.Report, verb string) {
	notes := 0
	for _, wr := range r.Workspaces {
		notes += wr.Notes
	}
	fmt.Fprintf(w, "dreamwiki: %s a team site of %d workspaces, %d notes, in %s\n", verb, len(r.Workspaces), notes, time.Duration(r.Duration).Round(time.Millisecond))
	for i, wr := range r.Workspaces {
		private := ""
		if wr.Private > 0 {
			private = fmt.Sprintf(", %d private files not published", wr.Private)
		}
		fmt.Fprintf(w, "  %s: %d notes (%d published%s) from %s, health %d/100\n", r.Names[i], wr.Notes, wr.Published, private, wr.Workspace, wr.Health.Score)
		if wr.Personal != nil {
			fmt.Fprintf(w, "    %s\n", wr.Personal.Summary())
		}
	}
	noun := "disagreements"
	if r.DisagreementCount == 1 {
		noun = "disagreement"
	}
	fmt.Fprintf(w, "  %d %s between workspaces\n", r.DisagreementCount, noun)
	for i, d := range r.Disagreements {
		if i == maxListed {
			fmt.Fprintf(w, "    … and %d more (disagreements.html lists them all)\n", len(r.Disagreements)-maxListed)
			break
		}
		fmt.Fprintf(w, "    %s: %s %s:%d, %s %s:%d\n", d.Subject, r.Names[d.A.Workspace], d.A.Claim.File, d.A.Claim.Line,
			r.Names[d.B.Workspace], d.B.Claim.File, d.B.Claim.Line)
	}
	if r.Out != "" && r.Files > 0 {
		fmt.Fprintf(w, "  vault  %s/vault/<name>\n  site   %s/site  (%d pages, %d files)\n", r.Out, r.Out, r.Pages, r.Files)
	}
	printProblems(w, r.Diagnostics())
}
