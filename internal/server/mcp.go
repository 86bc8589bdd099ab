package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/mcp"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// The server is the memory MCP tools read (mcp.Source): `dreamwiki mcp`
// runs one without a listener and serve mounts the tools at /mcp, so
// agents and pages read the same build, with the same privacy rules.
var _ mcp.Source = (*Server)(nil)

// Settle waits until the server has caught up with every file written
// before it was called: the watcher has gathered their events (a mark
// dropped behind them has arrived: under load the kernel's events reach
// the watcher tens of milliseconds after the write, and an agent that
// writes a note and then searches must find it), and the pages, site-wide
// files and search index are up to date. The state must hold twice in a
// row, since a batch passes from the watcher to the rebuild loop between
// the two flags. Where no mark arrives within markWait (a file system
// that does not report it) the mark is not waited for.
func (s *Server) Settle(ctx context.Context) error {
	caughtUp, marked := s.watch.sync()
	start := time.Now()
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	quiet := 0
	for quiet < 2 {
		seen := !marked || caughtUp() || time.Since(start) > markWait
		if seen && !s.watch.gathering.Load() && s.Idle() {
			quiet++
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// markWait bounds how long Settle waits for the watcher's mark.
const markWait = 2 * time.Second

// Workspace is the workspace as published.
func (s *Server) Workspace() *workspace.Workspace { return s.snapshot().ws }

// Provenance is the published workspace's claims.
func (s *Server) Provenance() *provenance.Result { return s.snapshot().prov }

// Search runs memory_search on the search API's index. Until the first
// index is built (seconds, at 10,000 notes) it says so rather than
// finding nothing.
func (s *Server) Search(ctx context.Context, q memsearch.Query) ([]memsearch.Result, error) {
	if !s.indexer.ready.Load() {
		return nil, errIndexing
	}
	return s.index.Search(ctx, q)
}

var errIndexing = errors.New("the search index is still being built; try again in a moment")

// SiteFile returns a file of the site as served.
func (s *Server) SiteFile(name string) ([]byte, bool) { return s.store.get(name) }

// Root is the workspace folder.
func (s *Server) Root() string { return s.root }

// Diff compares the published memory at two points (build.Diff), read
// from the workspace folder as the server reads it.
func (s *Server) Diff(ctx context.Context, d build.DiffOptions) (*build.DiffReport, error) {
	opts := s.opts.Build
	opts.Workspace, opts.Demo, opts.Out, opts.TwinsOnly = s.root, false, "", false
	return build.Diff(ctx, opts, d)
}

// Wrote brings the site up to date with files just written at paths.
func (s *Server) Wrote(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	return s.Rebuild(ctx, paths)
}

// mcpHandler serves the MCP tools over streamable HTTP. Write tools are
// there unless the server is read-only; dream_apply never is (it would let
// any local program dream; `dreamwiki mcp --allow-dream` is for that).
func (s *Server) mcpHandler() http.Handler {
	srv := mcp.New(s, mcp.Options{Version: s.opts.Version, Writable: !s.opts.ReadOnly, Now: s.opts.Now})
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{})
}
