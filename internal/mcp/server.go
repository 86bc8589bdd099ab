// Package mcp answers agents over the Model Context Protocol: memory
// search, get, "why do you believe this?", what changed, recall logging
// and dream plans, as tools; every published page as a resource. It reads
// only what the site publishes (a Source), so private notes are absent
// and secrets redacted exactly as on the site.
package mcp

import (
	"context"
	"errors"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Source is the memory as published now. serve mode's server is one: it
// keeps the build, the site and the search index current as files change.
type Source interface {
	// Settle waits until what the other methods return reflects the files
	// on disk (the watcher has nothing pending and the index caught up),
	// or ctx ends; an error means the answer may be a little stale.
	Settle(ctx context.Context) error
	// Workspace is the workspace as published: secrets redacted, private
	// files left out.
	Workspace() *workspace.Workspace
	// Provenance is the claims of the published workspace.
	Provenance() *provenance.Result
	// Search runs memory_search over the published workspace.
	Search(ctx context.Context, q memsearch.Query) ([]memsearch.Result, error)
	// SiteFile returns a file of the published site ("api/pages.json", a
	// Markdown twin such as "claims/x.md").
	SiteFile(name string) ([]byte, bool)
	// Root is the workspace folder, where recalls and dreams write; ""
	// for a workspace that cannot be written (the embedded demo).
	Root() string
	// Wrote brings the source up to date with files just written at paths
	// and returns once it is.
	Wrote(ctx context.Context, paths []string) error
	// Diff is what changed in the published memory between two points,
	// by the computation `dreamwiki diff` and the site's changes page use
	// (build.Diff): git history, backups or dates, as they can.
	Diff(ctx context.Context, d build.DiffOptions) (*build.DiffReport, error)
}

// Options configure the server.
type Options struct {
	// Version is the dreamwiki version the server reports.
	Version string
	// Writable enables memory_recall (and, with AllowDream, dream_apply):
	// tools that write to the workspace.
	Writable bool
	// AllowDream enables dream_apply when Writable is set.
	AllowDream bool
	// Now is the clock of recall events and dreams; nil means time.Now.
	Now func() time.Time
	// SettleWait caps how long a call waits for the source to catch up
	// with the files on disk; 0 means 5 s.
	SettleWait time.Duration
}

// New returns an MCP server over src. Run it on a transport (stdio) or
// serve it over HTTP with sdk.NewStreamableHTTPHandler.
func New(src Source, opts Options) *sdk.Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.SettleWait <= 0 {
		opts.SettleWait = 5 * time.Second
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "dreamwiki", Title: "dreamwiki memory", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions, HasResources: true, HasTools: true})
	t := &tools{src: src, opts: opts}
	t.register(s)
	r := &resources{src: src, settle: t.settle}
	r.register(s)
	return s
}

// instructions tell a model what the server is for.
const instructions = `dreamwiki serves an agent's Markdown memory (MEMORY.md, topic files, daily logs, dream logs) with provenance: every remembered claim links to the lines that support it.
Use memory_search to find what is remembered, memory_get to read the cited lines, memory_why to see why a claim is believed (evidence, supersession, contests, dreams), memory_changes for what changed since a date or a dream, and dream_plan to preview a consolidation. Private notes are absent and secrets are redacted.`

// settle waits, at most SettleWait, for the source to catch up with the
// files on disk. A source that is still busy answers with what it has; a
// source still being made (Later) or that failed to load is an error.
func (t *tools) settle(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, t.opts.SettleWait)
	defer cancel()
	if err := t.src.Settle(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
