package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/dream"
)

func newRecallCmd(e *env) *cobra.Command {
	f := &memoryFlags{}
	var query, matches, dir string
	cmd := &cobra.Command{
		Use:   "recall --query Q --matches TEXT",
		Short: "Log that a memory search found an entry (feeds decay and promotion)",
		Long: `Recall records that a search for Q found the line TEXT: it appends a
memory.recall.recorded event to memory/.dreams/events.jsonl, counts the recall
in memory/.dreams/short-term-recall.json (recalls, unique queries, days) and, for
MEMORY.md and L2 entries, in memory/memory-meta.json (recall count, last recall,
decay score and tier). Recalls keep entries from decaying and let facts of the
daily logs reach MEMORY.md at the next dream.

TEXT is matched as the seed's recall logger does: the same text, else lines
containing it, else lines sharing at least half its words.`,
		Example: `  dreamwiki recall --query "dev server IP" --matches "Dev server: user@203.0.113.10"
  dreamwiki recall -w ~/agent --query "gateway host" --matches "Gateway host is the Mac mini" --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if query == "" || matches == "" {
				return usageError{"recall needs --query and --matches"}
			}
			now, err := f.clock()
			if err != nil {
				return err
			}
			res, err := dream.Recall(cmd.Context(), dir, query, matches, dream.Options{Now: now, Command: "dreamwiki recall"}, dream.DefaultWait)
			if err != nil {
				var nm *dream.NoMatchError
				if errors.As(err, &nm) {
					return failure{err.Error() + "; nothing was recorded"}
				}
				return memoryError(err)
			}
			if f.json {
				return writeJSON(e.stdout, res)
			}
			if f.quiet {
				return nil
			}
			printRecovered(e.stdout, res.Recovered)
			fmt.Fprintf(e.stdout, "recorded a recall of %q: %d matches\n", res.Query, len(res.Matches))
			for _, m := range res.Matches {
				fmt.Fprintf(e.stdout, "  %s#L%d-L%d  %-9s %.3f  %s\n", m.Path, m.StartLine, m.EndLine, m.How, m.Score, clip(m.Text, 70))
			}
			for _, r := range res.Entries {
				fmt.Fprintf(e.stdout, "  %s: %d recalls, %s, score %.3f\n", r.ID, r.Recalls, r.Tier, r.Score)
			}
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&query, "query", "", "the search query")
	cmd.Flags().StringVar(&matches, "matches", "", "the text the search found")
	cmd.Flags().StringVarP(&dir, "workspace", "w", ".", "the workspace folder")
	return cmd
}

// clip shortens s to n characters for a table cell.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
