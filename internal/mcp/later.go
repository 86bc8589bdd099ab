package mcp

import (
	"context"
	"errors"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// ErrLoading is a tool's answer while the workspace is still being read
// for the first time.
var ErrLoading = errors.New("dreamwiki is still reading the workspace (a large one takes a while the first time); try again in a moment")

// Later is a Source that is still being made: an MCP client's handshake
// is answered at once, and calls wait (up to Options.SettleWait) for the
// first build of a large workspace instead of the client timing out.
type Later struct {
	ready chan struct{}
	src   Source
	err   error
}

// Load makes the source with load in the background.
func Load(load func() (Source, error)) *Later {
	l := &Later{ready: make(chan struct{})}
	go func() {
		defer close(l.ready)
		l.src, l.err = load()
	}()
	return l
}

// Wait waits for the source and returns it, or load's error.
func (l *Later) Wait() (Source, error) {
	<-l.ready
	return l.src, l.err
}

// Settle waits for the source to be made, then for it to settle.
func (l *Later) Settle(ctx context.Context) error {
	select {
	case <-l.ready:
	case <-ctx.Done():
		return ErrLoading
	}
	if l.err != nil {
		return l.err
	}
	return l.src.Settle(ctx)
}

// The other methods are called only after Settle succeeded.

func (l *Later) Workspace() *workspace.Workspace { return l.src.Workspace() }
func (l *Later) Provenance() *provenance.Result  { return l.src.Provenance() }
func (l *Later) Search(ctx context.Context, q memsearch.Query) ([]memsearch.Result, error) {
	return l.src.Search(ctx, q)
}
func (l *Later) SiteFile(name string) ([]byte, bool) { return l.src.SiteFile(name) }
func (l *Later) Root() string                        { return l.src.Root() }
func (l *Later) Diff(ctx context.Context, d build.DiffOptions) (*build.DiffReport, error) {
	return l.src.Diff(ctx, d)
}
func (l *Later) Wrote(ctx context.Context, paths []string) error {
	return l.src.Wrote(ctx, paths)
}
