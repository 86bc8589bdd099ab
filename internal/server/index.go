package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/vault"
)

// indexer keeps the search API's bleve index up to date in a goroutine of
// its own. It reads a build's workspace and notes, which never change once
// published (vault.Update changes notes' links only, which indexing does
// not read), so the rebuild loop never waits for it: at 10,000 notes an
// update of the index takes seconds. Builds that come while it works are
// folded into the next update.
type indexer struct {
	s     *Server
	mu    sync.Mutex
	next  *indexJob
	wake  chan struct{}
	ready atomic.Bool
	busy  atomic.Bool
	// quiet is how long to wait after the last build before updating, at
	// least; took is how long the last update took.
	quiet, took time.Duration
}

type indexJob struct {
	ws *workspace.Workspace
	v  *vault.Vault
}

func newIndexer(s *Server) *indexer {
	return &indexer{s: s, wake: make(chan struct{}, 1), quiet: s.opts.FinishAfter}
}

// offer hands the indexer a new build; a build not yet indexed is
// replaced.
func (ix *indexer) offer(ws *workspace.Workspace, v *vault.Vault) {
	ix.mu.Lock()
	ix.busy.Store(true)
	ix.next = &indexJob{ws: ws, v: v}
	ix.mu.Unlock()
	select {
	case ix.wake <- struct{}{}:
	default:
	}
}

// run indexes builds until ctx is done. The first build is indexed at
// once; later ones once builds pause.
func (ix *indexer) run(ctx context.Context) {
	first := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-ix.wake:
		}
		if !first {
			// Wait for a pause in the builds, as long as the last update
			// took: at 10,000 notes an update costs seconds of CPU, which
			// should not slow the rebuilds of someone editing.
			quiet := max(ix.quiet, ix.took)
			t := time.NewTimer(quiet)
		wait:
			for {
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-ix.wake:
					t.Reset(quiet)
				case <-t.C:
					break wait
				}
			}
		}
		ix.mu.Lock()
		job := ix.next
		ix.next = nil
		ix.mu.Unlock()
		if job == nil {
			ix.settle()
			continue
		}
		start := time.Now()
		st, err := ix.s.index.Update(ctx, job.ws, job.v)
		if err != nil {
			if ctx.Err() == nil {
				ix.s.log.Error("updating the search index", "err", err)
			}
			ix.settle()
			continue
		}
		first = false
		ix.took = time.Since(start)
		ix.ready.Store(true)
		ix.s.log.Debug("search index updated", "changed", st.Changed, "removed", st.Removed, "took", time.Since(start).Round(time.Millisecond))
		ix.settle()
	}
}

// settle marks the indexer idle unless a build came meanwhile.
func (ix *indexer) settle() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.next == nil {
		ix.busy.Store(false)
	}
}

// idle reports whether every build offered has been indexed.
func (ix *indexer) idle() bool { return !ix.busy.Load() }
