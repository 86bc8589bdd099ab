package main

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

type getFlags struct {
	workspace string
	demo      bool
	json      bool
}

func newGetCmd(e *env) *cobra.Command {
	f := &getFlags{}
	cmd := &cobra.Command{
		Use:   "get PATH[#Lx-Ly]",
		Short: "Print a workspace file or a range of its lines (memory_get)",
		Long: `Get prints the lines a search citation points at, or a whole file.
PATH is relative to the workspace. It prints what is published, as serve
mode's /api/get does: secrets are redacted, and a private note is no more
there than a missing file.`,
		Example: `  dreamwiki get memory/2026-10-08.md#L4-L7
  dreamwiki get MEMORY.md
  dreamwiki get memory/gateway.md#L6 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.demo && f.workspace != "" {
				return usageError{"--demo reads the embedded demo; leave out -w"}
			}
			p, start, end, err := memsearch.ParseCitation(args[0])
			if err != nil {
				return usageError{err.Error()}
			}
			p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
			if p == "" || p == "." {
				return usageError{"get needs a file path, such as MEMORY.md or memory/2026-10-08.md#L4-L7"}
			}
			ws := f.workspace
			if ws == "" && !f.demo {
				ws = "."
			}
			w, err := build.ReadWorkspace(build.Options{Workspace: ws, Demo: f.demo})
			if err != nil {
				return failure{err.Error()}
			}
			res, err := memsearch.Get(w, p, start, end)
			if err != nil {
				return failure{err.Error()}
			}
			if f.json {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			fmt.Fprintln(e.stdout, res.Text)
			return nil
		},
	}
	cmd.Flags().StringVarP(&f.workspace, "workspace", "w", "", "workspace folder (default: the current folder)")
	cmd.Flags().BoolVar(&f.demo, "demo", false, "read from the embedded demo workspace")
	cmd.Flags().BoolVar(&f.json, "json", false, "print {path,startLine,endLine,text}")
	return cmd
}
