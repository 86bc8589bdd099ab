package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

type searchFlags struct {
	workspace string
	demo      bool
	json      bool
	n         int
	types     []string
	tiers     []string
}

func newSearchCmd(e *env) *cobra.Command {
	f := &searchFlags{}
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the workspace's memory (memory_search)",
		Long: `Search finds the lines of the workspace that answer QUERY, best first, with
citations (path#Lx-Ly) that 'dreamwiki get' prints. It keeps a bleve index in
WORKSPACE/.dreamwiki/index and re-indexes only files that changed since the
last search.

QUERY is words (any may match; matching more ranks higher), "phrases",
+required and -excluded words, and filters: type:feedback, tier:hot, tag:x,
kind:daily (or source:daily), status:superseded, path:memory/ and
date:2026-10 (prefixes). Words that match nothing are matched with typos
forgiven. Dated notes rank lower as they age (30-day half-life); MEMORY.md,
topic files and claims do not age. Filters alone list what they select,
newest first (undated notes last).`,
		Example: `  dreamwiki search "gateway host"
  dreamwiki search E_AUTH_4031 --json
  dreamwiki search deploy type:feedback -n 3
  dreamwiki search 'kind:"daily log"' date:2026-11 -n 20
  dreamwiki search 京都 --demo`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.demo && f.workspace != "" {
				return usageError{"--demo searches the embedded demo; leave out -w"}
			}
			if f.n < 0 {
				return usageError{"-n must be a positive number of results"}
			}
			ws := f.workspace
			if ws == "" {
				ws = "."
			}
			m, err := build.Load(cmd.Context(), build.Options{Workspace: ws, Demo: f.demo})
			if err != nil {
				return failure{err.Error()}
			}
			dir := ""
			if !f.demo {
				dir = memsearch.WorkspaceDir(ws)
			}
			ix, err := memsearch.OpenIndex(dir)
			if errors.Is(err, memsearch.ErrInUse) {
				// dreamwiki mcp keeps the index open while it runs: search
				// without it, in memory.
				ix, err = memsearch.OpenIndex("")
			}
			if err != nil {
				return failure{err.Error()}
			}
			defer ix.Close()
			st, err := ix.Update(cmd.Context(), m.Workspace, m.Vault)
			if err != nil {
				return failure{err.Error()}
			}
			if st.Changed+st.Removed > 0 && !f.json && isTerminal(e.stderr) {
				fmt.Fprintf(e.stderr, "dreamwiki: indexed %d changed files (%d chunks), removed %d\n", st.Changed, st.Chunks, st.Removed)
			}
			params := search.ParamsFromConfig(m.Workspace.Config.Search)
			q := memsearch.Query{Text: joinArgs(args), Limit: f.n, Types: f.types, Tiers: f.tiers, Params: &params}
			res, err := ix.Search(cmd.Context(), q)
			if err != nil {
				return failure{err.Error()}
			}
			return memsearch.WriteResults(e.stdout, res, f.json)
		},
	}
	cmd.Flags().StringVarP(&f.workspace, "workspace", "w", "", "workspace folder (default: the current folder)")
	cmd.Flags().BoolVar(&f.demo, "demo", false, "search the embedded demo workspace")
	cmd.Flags().BoolVar(&f.json, "json", false, `print {"results":[{path,startLine,endLine,score,snippet,source,citation}]}`)
	cmd.Flags().IntVarP(&f.n, "n", "n", 10, "number of results")
	cmd.Flags().StringSliceVar(&f.types, "type", nil, "only memory of these types (user, feedback, project, reference)")
	cmd.Flags().StringSliceVar(&f.tiers, "tier", nil, "only claims of these tiers (hot, warm, cold, crystallised, archived)")
	return cmd
}

// joinArgs lets a query be given as one quoted argument or as several
// words.
func joinArgs(args []string) string {
	out := ""
	for i, a := range args {
		if i > 0 {
			out += " "
		}
		out += a
	}
	return out
}
