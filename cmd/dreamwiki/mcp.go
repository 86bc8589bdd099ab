package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/mcp"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/server"
)

type mcpFlags struct {
	demo       bool
	writable   bool
	allowDream bool
	asOf       string
	verbose    bool
}

func newMCPCmd(e *env) *cobra.Command {
	f := &mcpFlags{}
	cmd := &cobra.Command{
		Use:   "mcp [WORKSPACE]",
		Short: "Answer agents over the Model Context Protocol (stdio)",
		Long: `MCP serves WORKSPACE (default: the current folder) to an agent over the
Model Context Protocol on stdin and stdout. It keeps the memory current as
files change, as serve does, and publishes what the site publishes: private
notes are absent and secrets redacted.

Tools: memory_search, memory_get, memory_why (why a claim is believed: its
evidence, supersession and dreams), memory_changes (since a date or a
dream) and dream_plan. --writable adds memory_recall (log that a result was
used, which feeds decay and promotion); --writable --allow-dream adds
dream_apply. Resources: every page of the site as Markdown
(dreamwiki://site/...), MEMORY.md (dreamwiki://workspace/MEMORY.md) and
claims by id (dreamwiki://claim/{id}).

MCP renders no HTML page: only what agents read (the Markdown twins,
api/pages.json and api/claims.json) and the search index, which it keeps
in WORKSPACE/.dreamwiki/index as dreamwiki search does, so that a restart
re-indexes only the files that changed.

serve mounts the same tools at http://127.0.0.1:4321/mcp (streamable HTTP).
Messages go to stderr; stdout carries the protocol only.`,
		Example: `  dreamwiki mcp ~/.openclaw/workspace
  dreamwiki mcp --demo
  dreamwiki mcp . --writable

  # Claude Code
  claude mcp add dreamwiki -- dreamwiki mcp ~/.openclaw/workspace`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.demo && len(args) > 0 {
				return usageError{"--demo serves the embedded demo; leave out the WORKSPACE argument"}
			}
			if f.allowDream && !f.writable {
				return usageError{"--allow-dream needs --writable: dream_apply writes to the workspace"}
			}
			bf := &buildFlags{asOf: f.asOf}
			bopts, err := bf.options(e, nil)
			if err != nil {
				return err
			}
			bopts.Progress = nil
			// Agents read the Markdown twins, api/ and the search index:
			// no HTML page is rendered.
			bopts.TwinsOnly = true
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if f.demo {
				tmp, cleanup, err := demoCopy()
				if err != nil {
					return err
				}
				defer cleanup()
				dir = tmp
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return failure{fmt.Sprintf("workspace %q is not a folder", dir)}
			}
			indexDir := memsearch.WorkspaceDir(dir)
			if f.demo {
				indexDir = "" // a copy, gone when the server stops
			}
			level := slog.LevelWarn
			if f.verbose {
				level = slog.LevelDebug
			}
			log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
			// The handshake is answered at once; tools wait for the first
			// build (mcp.Later). An agent is not typing: the site-wide
			// files and the index can follow an edit at once.
			ctx := cmd.Context()
			src := mcp.Load(func() (mcp.Source, error) {
				s, err := server.New(ctx, server.Options{Workspace: dir, Build: bopts, ReadOnly: !f.writable,
					FinishAfter: 50 * time.Millisecond, Debounce: 20 * time.Millisecond, Log: log, Version: version,
					IndexDir: indexDir})
				if err != nil {
					log.Error("reading the workspace", "err", err)
					return nil, err
				}
				return s, nil
			})
			defer func() {
				if s, err := src.Wait(); err == nil {
					s.(*server.Server).Close()
				}
			}()
			// A fresh answer is worth a wait: an agent would rather not act on
			// memory from before an edit.
			srv := mcp.New(src, mcp.Options{Version: version, Writable: f.writable, AllowDream: f.allowDream, SettleWait: 20 * time.Second})
			t := &sdk.IOTransport{Reader: io.NopCloser(os.Stdin), Writer: nopWriteCloser{e.stdout}}
			if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
				return failure{err.Error()}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&f.demo, "demo", false, "serve a writable copy of the embedded demo workspace")
	cmd.Flags().BoolVar(&f.writable, "writable", false, "add memory_recall, which writes recall events to the workspace")
	cmd.Flags().BoolVar(&f.allowDream, "allow-dream", false, "with --writable, add dream_apply, which runs a dream")
	cmd.Flags().StringVar(&f.asOf, "as-of", "", "judge decay, tiers and permission expiry as of this date, YYYY-MM-DD (default: today)")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "log what the server does to stderr")
	return cmd
}

// nopWriteCloser keeps the transport from closing stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
