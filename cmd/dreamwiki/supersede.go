package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/dream"
)

func newSupersedeCmd(e *env) *cobra.Command {
	f := &memoryFlags{}
	var oldText, newText, dir string
	cmd := &cobra.Command{
		Use:   "supersede --old TEXT --new TEXT",
		Short: "Start or extend a temporal fact chain: a newer fact replaces an older one",
		Long: `Supersede marks the MEMORY.md or L2 entry matching --old as superseded today,
with the date it held since and a link to its successor, and writes --new right
after it (in MEMORY.md the new line takes the old one's place and the old line
moves to memory/archive/). If an entry already says --new, the two are linked.
memory/memory-meta.json records the chain both ways. Changed files are backed
up to .backup/memory-dreams/ first.`,
		Example: `  dreamwiki supersede --old "Status: pending" --new "Status: accepted"
  dreamwiki supersede -w ~/agent --old "Gateway host is the NUC" --new "Gateway host is the Mac mini"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if oldText == "" || newText == "" {
				return usageError{"supersede needs --old and --new"}
			}
			now, err := f.clock()
			if err != nil {
				return err
			}
			res, err := dream.Supersede(cmd.Context(), dir, oldText, newText, dream.Options{Now: now, Command: "dreamwiki supersede"}, dream.DefaultWait)
			if err != nil {
				var nm *dream.NoMatchError
				var am *dream.AmbiguousError
				if errors.As(err, &nm) || errors.As(err, &am) {
					return failure{err.Error() + "; nothing was changed"}
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
			fmt.Fprintf(e.stdout, "superseded %s:%d %q\n      by %q (%s)\n", res.OldFile, res.OldLine, clip(res.Old, 80), clip(res.New, 80), res.NewFile)
			if res.OldID != "" {
				fmt.Fprintf(e.stdout, "  chain %s → %s in memory/memory-meta.json\n", res.OldID, res.NewID)
			}
			for _, fc := range res.Files {
				fmt.Fprintf(e.stdout, "  %-6s %s\n", fc.Change, fc.Path)
			}
			if res.Backup != "" {
				fmt.Fprintf(e.stdout, "  backups in %s\n", res.Backup)
			}
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&oldText, "old", "", "text of the entry that no longer holds")
	cmd.Flags().StringVar(&newText, "new", "", "the fact that replaces it")
	cmd.Flags().StringVarP(&dir, "workspace", "w", ".", "the workspace folder")
	return cmd
}
