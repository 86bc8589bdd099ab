package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/team"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// buildFlags are shared by build and check.
type buildFlags struct {
	asOf    string
	demo    bool
	out     string
	baseURL string
	title   string
	strict  bool
	json    bool
	quiet   bool
	force   bool
	history string
	// minHealth fails a check whose health score is below it (0: never).
	minHealth int
	// snapshot makes --as-of show memory as it stood then (build, check)
	// rather than only judge decay at that date (serve, mcp).
	snapshot bool
}

func (f *buildFlags) options(e *env, args []string) (build.Options, error) {
	o := build.Options{Demo: f.demo, Out: f.out, BaseURL: f.baseURL, Title: f.title, Force: f.force}
	switch f.history {
	case "", workspace.HistoryAuto, workspace.HistoryOff:
		o.History = f.history
	default:
		return o, usageError{fmt.Sprintf("--history %q: use auto or off", f.history)}
	}
	if len(args) >= 1 {
		o.Workspace = args[0]
	}
	if f.asOf != "" {
		t, err := time.Parse("2006-01-02", f.asOf)
		if err != nil {
			return o, usageError{fmt.Sprintf("--as-of %q is not a date; write it as YYYY-MM-DD", f.asOf)}
		}
		o.AsOf, o.Snapshot = t, f.snapshot
	}
	if !f.quiet && !f.json && isTerminal(e.stderr) {
		start := time.Now()
		o.Progress = func(stage string) {
			fmt.Fprintf(e.stderr, "  %6.2fs  %s\n", time.Since(start).Seconds(), stage)
		}
	}
	return o, nil
}

func newBuildCmd(e *env) *cobra.Command {
	f := &buildFlags{snapshot: true}
	cmd := &cobra.Command{
		Use:   "build [WORKSPACE...]",
		Short: "Build the provenance vault and the static site",
		Long: `Build reads WORKSPACE (default: the current folder) and writes OUT/vault (an
Obsidian vault) and OUT/site (a static HTML site).

Several workspaces make a team site: each workspace's site under
OUT/site/<name>/ (its folder's name) and its vault in OUT/vault/<name>/,
with a team home, one search over all of them (workspace:NAME keeps one),
one graph and a report of the subjects two workspaces disagree on. Links
between workspaces are written [[name:note]]. A folder whose
dreamwiki.toml has [[workspace]] entries (name, path, private) is such
a team too.

The previous output is
replaced only when the whole build succeeded, OUT/vault and OUT/site each in
one step: a build stopped at any point (even killed) leaves each the previous
build's or the new one's, and the next build removes the temporary
OUT/.build-* folder it left. OUT must be new, empty, or an earlier build's
output (it carries a .dreamwiki-output marker): a folder of other files is
refused unless --force is given.

OUT may lie inside a workspace (the default, dist, does when WORKSPACE is the
current folder): builds never read it, also when --out reaches it through a
symbolic link. OUT may not be a workspace itself, nor hold one in the folders
a build replaces (site/, vault/, vault-backup/): such a build is refused, even
with --force, and writes nothing.

A build keeps its memory low (Go's GOGC=60) at the cost of some CPU time;
GOGC=100 in the environment makes it faster and larger.`,
		Example: `  dreamwiki build --demo
  dreamwiki build ~/.openclaw/workspace --out public
  dreamwiki build . --base-url https://example.org/memory/ --strict
  dreamwiki build agents/alpha agents/beta --out team`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.demo && len(args) > 0 {
				return usageError{"--demo builds the embedded demo; leave out the WORKSPACE argument"}
			}
			opts, err := f.options(e, args)
			if err != nil {
				return err
			}
			setBuildGC()
			t, err := teamOf(args, opts)
			if err != nil {
				return err
			}
			if t != nil {
				r, err := team.Build(cmd.Context(), *t)
				if err != nil {
					return failure{err.Error()}
				}
				return reportTeam(e, r, f, "built")
			}
			r, err := build.Build(cmd.Context(), opts)
			if err != nil {
				return failure{err.Error()}
			}
			return report(e, r, f, "built")
		},
	}
	addBuildFlags(cmd, f)
	cmd.Flags().StringVarP(&f.out, "out", "o", "dist", "output folder (vault/ and site/ are written inside)")
	cmd.Flags().StringVar(&f.baseURL, "base-url", "", "absolute URL the site is published at (for canonical links, sitemap, feed)")
	cmd.Flags().StringVar(&f.title, "title", "", "site title (default: from dreamwiki.toml)")
	cmd.Flags().BoolVar(&f.force, "force", false, "build into an --out folder that holds files dreamwiki did not write (its site/ and vault/ are replaced)")
	cmd.Flags().StringVar(&f.history, "history", "", historyUsage)
	return cmd
}

// buildGCPercent is the garbage collector's target for a build, unless
// GOGC is set. A build keeps the whole vault alive (about 250 MB at
// 10,000 notes), and Go's default (100) lets the heap grow to twice that
// before collecting. At 60, a 10,000-note build's peak memory is about a
// quarter lower (~850 -> ~610 MB), for about 8% more CPU time: a build
// should fit the small machines CI runs on (bench/compare.sh).
const buildGCPercent = 60

// setBuildGC applies buildGCPercent; GOGC in the environment wins, so a
// user can trade the other way.
func setBuildGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(buildGCPercent)
	}
}

func addBuildFlags(cmd *cobra.Command, f *buildFlags) {
	cmd.Flags().BoolVar(&f.demo, "demo", false, "use the embedded demo workspace")
	cmd.Flags().BoolVar(&f.strict, "strict", false, "exit 1 when any warning is found (broken links, secrets, bad front matter, lint findings)")
	cmd.Flags().StringVar(&f.asOf, "as-of", "", "show memory as it stood at the end of this date, YYYY-MM-DD, from git history, dream backups or dates (default: now)")
	cmd.Flags().BoolVar(&f.json, "json", false, "print the report as JSON")
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but errors")
}

// historyUsage is --history's help, for the commands that build history
// points (build, serve).
const historyUsage = `history points from git commits and dreams: "auto" or "off" (default: [history] mode in dreamwiki.toml, else auto)`

// maxListed caps the diagnostics printed; --json gives them all.
const maxListed = 25

// report prints a build or check report and decides the exit status.
func report(e *env, r *build.Report, f *buildFlags, verb string) error {
	warnings := r.Diagnostics.Count(diag.Warning)
	errs := r.Diagnostics.Count(diag.Error)
	if f.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else if !f.quiet {
		printReport(e.stdout, r, verb)
	}
	switch {
	case errs > 0:
		return failure{fmt.Sprintf("%d errors", errs)}
	case r.Health.Score < f.minHealth:
		return failure{fmt.Sprintf("memory health %d is below --min-health %d", r.Health.Score, f.minHealth)}
	case f.strict && warnings > 0:
		return failure{fmt.Sprintf("%d warnings and --strict is set", warnings)}
	}
	return nil
}

func printReport(w io.Writer, r *build.Report, verb string) {
	private := ""
	if r.Private > 0 {
		private = fmt.Sprintf(", %d private files not published", r.Private)
	}
	fmt.Fprintf(w, "dreamwiki: %s %d notes (%d published%s) from %s in %s\n", verb, r.Notes, r.Published, private, r.Workspace,
		time.Duration(r.Duration).Round(time.Millisecond))
	if r.Snapshot != nil {
		fmt.Fprintf(w, "  %s\n", r.Snapshot.Describe())
	}
	fmt.Fprintf(w, "  health %d/100:", r.Health.Score)
	for _, p := range r.Health.Parts {
		fmt.Fprintf(w, " %s %.2f", p.Name, p.Value)
	}
	fmt.Fprintln(w)
	if r.Out != "" && r.Files > 0 {
		fmt.Fprintf(w, "  vault  %s/vault\n  site   %s/site  (%d pages, %d files)\n", r.Out, r.Out, r.Pages, r.Files)
	}
	printPersonal(w, r, verb == "checked")
	printProblems(w, r.Diagnostics)
}

// printPersonal says in one line what personal data the published files
// hold, and what [publish] redact_personal does about it; a check also
// lists where (a build's --json has them all).
func printPersonal(w io.Writer, r *build.Report, list bool) {
	if r.Personal == nil {
		return
	}
	fmt.Fprintf(w, "  %s\n", r.Personal.Summary())
	if !list {
		return
	}
	n := 0
	for _, d := range r.Diagnostics {
		if d.Code != workspace.PersonalCode {
			continue
		}
		if n++; n > maxListed {
			fmt.Fprintf(w, "    … and %d more (use --json for all)\n", r.Personal.Total()-maxListed)
			break
		}
		d.Hint = ""
		fmt.Fprintf(w, "    %s\n", d.Error())
	}
}

// summaryCodes are the notes (diag.Info) printed with the problems: the
// counts a finding per line would drown them in.
var summaryCodes = map[string]bool{"claim-no-evidence": true}

// printProblems lists the summary notes of ds, then its warnings and
// errors, up to maxListed.
func printProblems(w io.Writer, ds diag.List) {
	for _, d := range ds {
		if d.Severity == diag.Info && summaryCodes[d.Code] {
			fmt.Fprintf(w, "  note: %s\n", d.Error())
		}
	}
	var shown diag.List
	for _, d := range ds {
		if d.Severity >= diag.Warning {
			shown = append(shown, d)
		}
	}
	if len(shown) == 0 {
		return
	}
	fmt.Fprintf(w, "  %d problems:\n", len(shown))
	for i, d := range shown {
		if i == maxListed {
			fmt.Fprintf(w, "    … and %d more (use --json for all)\n", len(shown)-maxListed)
			break
		}
		fmt.Fprintf(w, "    %s: %s\n", d.Severity, d.Error())
	}
}

func newCheckCmd(e *env) *cobra.Command {
	f := &buildFlags{snapshot: true}
	cmd := &cobra.Command{
		Use:   "check [WORKSPACE...]",
		Short: "Lint the workspace without writing anything",
		Long: `Check reads WORKSPACE (default: the current folder) like build does and reports
what it finds without writing anything: broken links and anchors, bad front
matter, unreadable files, and the memory lint of the provenance vault (claims
without evidence, contested and stale claims, lapsed permissions, MEMORY.md
over budget, pointers to missing files or lines, memory-meta.json entries that
match nothing, supersession cycles, duplicate and oversized entries). It
sees what build publishes: secrets are reported by file and line with a
masked preview, and private notes are not linted (lint reports and CI logs
are read by others too). It also scores the memory's health from 0 to
100 (freshness, evidence, agreement, permissions, budget, duplication;
the formulas are in internal/health). It exits 1 on errors, on warnings
with --strict, and on a health score below --min-health, so CI can run
it on every push. Several workspaces, or a folder whose dreamwiki.toml has
[[workspace]] entries, are checked as the team site build makes of them:
links between them resolve, and each workspace is scored on its own.`,
		Example: `  dreamwiki check
  dreamwiki check ~/agent --strict
  dreamwiki check --demo --json
  dreamwiki check --demo --as-of 2026-09-25
  dreamwiki check --min-health 70`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.demo && len(args) > 0 {
				return usageError{"--demo checks the embedded demo; leave out the WORKSPACE argument"}
			}
			opts, err := f.options(e, args)
			if err != nil {
				return err
			}
			t, err := teamOf(args, opts)
			if err != nil {
				return err
			}
			if t != nil {
				r, err := team.Check(cmd.Context(), *t)
				if err != nil {
					return failure{err.Error()}
				}
				return reportTeam(e, r, f, "checked")
			}
			r, err := build.Check(cmd.Context(), opts)
			if err != nil {
				return failure{err.Error()}
			}
			return report(e, r, f, "checked")
		},
	}
	addBuildFlags(cmd, f)
	cmd.Flags().IntVar(&f.minHealth, "min-health", 0, "exit 1 when the memory health score (0-100; see --json for its parts) is below this")
	return cmd
}
