package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

type getFlags struct {
	workspace string
	demo      bool
	json      bool
}

// getResult is the --json shape of get (memory_get).
type getResult struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Text      string `json:"text"`
}

func newGetCmd(e *env) *cobra.Command {
	f := &getFlags{}
	cmd := &cobra.Command{
		Use:   "get PATH[#Lx-Ly]",
		Short: "Print a workspace file or a range of its lines (memory_get)",
		Long: `Get prints the lines a search citation points at, or a whole file.
PATH is relative to the workspace; secrets are redacted as in every output.`,
		Example: `  dreamwiki get memory/2026-10-08.md#L4-L7
  dreamwiki get MEMORY.md
  dreamwiki get memory/gateway.md#L6 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if f.demo && f.workspace != "" {
				return usageError{"--demo reads the embedded demo; leave out -w"}
			}
			p, start, end, err := search.ParseCitation(args[0])
			if err != nil {
				return usageError{err.Error()}
			}
			p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, "\\", "/")), "/")
			if p == "" || p == "." {
				return usageError{"get needs a file path, such as MEMORY.md or memory/2026-10-08.md#L4-L7"}
			}
			data, err := readWorkspaceFile(f, p)
			if err != nil {
				return failure{err.Error()}
			}
			text := strings.ReplaceAll(string(data), "\r\n", "\n")
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if start == 0 {
				start, end = 1, len(lines)
			}
			if start > len(lines) {
				return failure{fmt.Sprintf("%s has %d lines; L%d is past the end", p, len(lines), start)}
			}
			end = min(end, len(lines))
			out, _ := secrets.Redact(strings.Join(lines[start-1:end], "\n"))
			if f.json {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(getResult{Path: p, StartLine: start, EndLine: end, Text: out})
			}
			fmt.Fprintln(e.stdout, out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&f.workspace, "workspace", "w", "", "workspace folder (default: the current folder)")
	cmd.Flags().BoolVar(&f.demo, "demo", false, "read from the embedded demo workspace")
	cmd.Flags().BoolVar(&f.json, "json", false, "print {path,startLine,endLine,text}")
	return cmd
}

// readWorkspaceFile reads p inside the workspace and never outside it:
// os.Root refuses "..", absolute paths and symlinks that leave the folder.
func readWorkspaceFile(f *getFlags, p string) ([]byte, error) {
	if f.demo {
		data, err := fs.ReadFile(demo.FS(), p)
		if err != nil {
			return nil, fmt.Errorf("%s: not in the demo workspace", p)
		}
		return data, nil
	}
	ws := f.workspace
	if ws == "" {
		ws = "."
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return nil, fmt.Errorf("opening the workspace: %w", err)
	}
	defer root.Close()
	data, err := root.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file in %s", p, ws)
		}
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return data, nil
}
