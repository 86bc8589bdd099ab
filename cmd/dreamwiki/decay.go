package main

import (
	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/dream"
)

func newDecayCmd(e *env) *cobra.Command {
	f := &memoryFlags{}
	var dir string
	cmd := &cobra.Command{
		Use:   "decay",
		Short: "Recompute decay scores and tiers and print the tier table",
		Long: `Decay recomputes every entry's decay score and tier in memory/memory-meta.json
(score = 1 - age/365 + 0.05 per recall (at most 0.5) + 0.2 if recalled within 7
days or 0.1 within 30; hot < 48 h, warm < 30 days, cold after; crystallised at 20
recalls; archived below 0.1 with fewer than 2 recalls; structural entries never
below 0.3) and prints the tier table, lowest score first. It moves nothing: the
next dream moves archived entries to memory/archive/.`,
		Example: `  dreamwiki decay
  dreamwiki decay -w ~/agent --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			now, err := f.clock()
			if err != nil {
				return err
			}
			res, err := dream.Decay(cmd.Context(), dir, dream.Options{Now: now, Command: "dreamwiki decay"}, dream.DefaultWait)
			if err != nil {
				return memoryError(err)
			}
			switch {
			case f.json:
				return writeJSON(e.stdout, res)
			case !f.quiet:
				printRecovered(e.stdout, res.Recovered)
				res.WriteText(e.stdout, now().UTC())
			}
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().StringVarP(&dir, "workspace", "w", ".", "the workspace folder")
	return cmd
}
