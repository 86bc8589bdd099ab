package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/build"
)

func newDiffCmd(e *env) *cobra.Command {
	var since, dream string
	var demo, asJSON bool
	cmd := &cobra.Command{
		Use:   "diff [WORKSPACE]",
		Short: "Show what changed in memory since a date or in one dream",
		Long: `Diff compares the memory of WORKSPACE (default: the current folder) at two
points and lists the claims added, changed, superseded, archived,
contested, resolved and removed in between, each with its evidence.

With --since DATE it compares memory as it stood at the end of DATE with
memory now; with --dream ID, memory just before that dream with memory at
the end of its day. Earlier memory is read from the workspace's git
history, else its dream backups, else its dates, as build --as-of does;
the output says which.`,
		Example: `  dreamwiki diff --since 2026-10-01
  dreamwiki diff ~/agent --dream 2026-10-30-0700 --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (since == "") == (dream == "") {
				return usageError{"diff needs exactly one of --since DATE and --dream ID"}
			}
			if demo && len(args) > 0 {
				return usageError{"--demo compares the embedded demo; leave out the WORKSPACE argument"}
			}
			opts := build.Options{Demo: demo}
			if len(args) == 1 {
				opts.Workspace = args[0]
			}
			d := build.DiffOptions{Dream: dream}
			if since != "" {
				t, err := time.Parse("2006-01-02", since)
				if err != nil {
					return usageError{fmt.Sprintf("--since %q is not a date; write it as YYYY-MM-DD", since)}
				}
				d.Since = t
			}
			r, err := build.Diff(cmd.Context(), opts, d)
			if err != nil {
				return failure{err.Error()}
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			printDiff(e.stdout, r)
			return nil
		},
	}
	cmd.Flags().StringVar(&since, "since", "", "compare memory at the end of this date, YYYY-MM-DD, with memory now")
	cmd.Flags().StringVar(&dream, "dream", "", "compare memory before and after this dream (its note's name, such as 2026-10-30-0700)")
	cmd.Flags().BoolVar(&demo, "demo", false, "use the embedded demo workspace")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the changes as JSON")
	return cmd
}

func printDiff(w io.Writer, r *build.DiffReport) {
	fmt.Fprintf(w, "dreamwiki: %d changes in %s\n  from %s\n  to   %s\n", len(r.Changes), r.Workspace, r.From.Label, r.To.Label)
	var counts []string
	for _, c := range r.Counts {
		counts = append(counts, fmt.Sprintf("%d %s", c.N, c.Kind))
	}
	if len(counts) > 0 {
		fmt.Fprintf(w, "  %s\n", strings.Join(counts, ", "))
	}
	for _, c := range r.Changes {
		fmt.Fprintf(w, "  %-10s %s:%d  %q\n", c.Kind, c.File, c.Line, clip(c.Text, 100))
		if c.Before != "" {
			fmt.Fprintf(w, "             was %q\n", clip(c.Before, 100))
		}
		if len(c.Related) > 0 {
			fmt.Fprintf(w, "             %s %s\n", c.Kind.Relation(), strings.Join(c.Related, ", "))
		}
		if len(c.Evidence) > 0 {
			fmt.Fprintf(w, "             evidence: %s\n", strings.Join(c.Evidence, ", "))
		}
	}
}
