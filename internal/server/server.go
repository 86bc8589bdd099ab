package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Options configure a server.
type Options struct {
	// Workspace is the folder to serve (and to write dreams into).
	Workspace string
	// Build carries the build flags (base URL, title, as-of date);
	// its Workspace, Demo and Out are ignored.
	Build build.Options
	// ReadOnly disables dreams and recall logging: the server never
	// writes to the workspace.
	ReadOnly bool
	// Debounce is how long the watcher waits for quiet before rebuilding;
	// 0 means 50 ms.
	Debounce time.Duration
	// FinishAfter is how long the server waits after the last change
	// before writing the site-wide files (search index, sitemap, feed,
	// llms.txt, api/, the search API's index); 0 means 1 s.
	FinishAfter time.Duration
	// Now is the clock of dreams and recall events; nil means time.Now.
	Now func() time.Time
	// Log receives developer logging; nil discards it.
	Log *slog.Logger
	// Version is the dreamwiki version the MCP server at /mcp reports.
	Version string
	// IndexDir is the folder of the search API's index, kept between
	// runs (memsearch.WorkspaceDir): a start re-indexes only the files
	// that changed since the last run. "" keeps the index in memory; so
	// does a folder another process holds.
	IndexDir string
	// Out receives a line per rebuild for the person running the server
	// ("12:03:04 notes/today.md: 2 pages in 35 ms"); nil for silence.
	Out io.Writer

	// recallSettle is how long a search must stand before it is logged
	// (tests shorten it); 0 means 1.5 s.
	recallSettle time.Duration
}

// Server is a running serve mode: the site in memory, the watcher, the
// rebuild loop and the websocket hub.
type Server struct {
	opts  Options
	root  string // the workspace folder, absolute
	log   *slog.Logger
	token string
	// instance names this process to pages (unlike the token, it is not a
	// secret).
	instance string
	store    *store
	hub      *hub
	index    *memsearch.Index
	indexer  *indexer

	session *build.Session // owned by the rebuild loop once it runs
	watch   *watcher

	mu       sync.RWMutex
	snap     *snapshot
	problems []Problem // the overlay, empty when the build is whole
	builds   int
	// edited are the workspace files changed while serving (the rebuild
	// loop's).
	edited map[string]bool

	// rebuild requests from handlers (dreams) reach the loop here.
	kick chan kick
	// pending is set from a change until the site-wide files caught up.
	pending atomic.Bool
	// dreaming is held while a dream runs; a second press is refused.
	dreaming sync.Mutex
	dreamMu  sync.Mutex
	dream    *dreamState
	recalls  *recaller

	// bound is the address the listener is bound to, for Host checks.
	bound    string
	loopback bool

	stop       context.CancelFunc
	loopWG     sync.WaitGroup
	started    time.Time
	first      *build.Change
	finishTook time.Duration // the first build's site-wide files
	closeOnce  sync.Once
	closeErr   error
}

// snapshot is what handlers may read of the build: values that never
// change once published.
type snapshot struct {
	// ws is the workspace as published (build.Load): what get serves.
	ws *workspace.Workspace
	// prov is the provenance of ws: its claims.
	prov *provenance.Result
	// dreamNotes maps each dream-run note's vault path to its title.
	dreamNotes map[string]string
	// notes and published count the vault's notes.
	notes, published int
}

// kick asks the rebuild loop to bring the build up to date with paths now
// (without waiting for the watcher) and to signal done when the whole
// site is: claims, the pages that only list what changed and the
// site-wide files included.
type kick struct {
	paths []string
	done  chan error
}

// New builds the workspace into memory and starts watching it. Close (or
// cancelling the context given to Serve) stops everything.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = 50 * time.Millisecond
	}
	if opts.FinishAfter <= 0 {
		opts.FinishAfter = time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	root, err := filepath.Abs(opts.Workspace)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	tok := make([]byte, 16)
	if _, err := rand.Read(tok); err != nil {
		return nil, err
	}
	s := &Server{opts: opts, root: root, log: opts.Log, token: hex.EncodeToString(tok), instance: newID(), store: newStore(),
		kick: make(chan kick), started: time.Now(), edited: map[string]bool{}}
	s.hub = newHub(s.log, s.helloMessage)
	s.recalls = newRecaller(s)

	// Watch first, so nothing written while the first build runs is missed.
	if s.watch, err = newWatcher(root, opts.Debounce, s.log); err != nil {
		return nil, fmt.Errorf("watching %s: %w", opts.Workspace, err)
	}
	bopts := opts.Build
	bopts.Workspace, bopts.Demo, bopts.Out = root, false, ""
	b := newBatch()
	sess, ch, err := build.Open(ctx, bopts, b)
	if err != nil {
		s.watch.close()
		return nil, err
	}
	s.session, s.first = sess, ch
	s.store.commitUpdate(b, ch.Site)
	b = newBatch()
	t0 := time.Now()
	if err := sess.Finish(ctx, b); err != nil {
		s.watch.close()
		return nil, err
	}
	s.store.commitFinish(b)
	s.finishTook = time.Since(t0)
	if s.index, err = openIndex(opts.IndexDir, s.log); err != nil {
		s.watch.close()
		return nil, err
	}
	s.indexer = newIndexer(s)
	s.publish(ch)

	loopCtx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.loopWG.Add(4)
	go func() { defer s.loopWG.Done(); s.watch.run(loopCtx) }()
	go func() { defer s.loopWG.Done(); s.loop(loopCtx) }()
	go func() { defer s.loopWG.Done(); s.recalls.run(loopCtx) }()
	go func() { defer s.loopWG.Done(); s.indexer.run(loopCtx) }()
	return s, nil
}

// openIndex opens the search index kept in dir, or one in memory when
// dir is "" or held by another process (a second agent's server).
func openIndex(dir string, log *slog.Logger) (*memsearch.Index, error) {
	if dir != "" {
		ix, err := memsearch.OpenIndex(dir)
		if err == nil {
			return ix, nil
		}
		log.Warn("searching from an index in memory", "err", err)
	}
	return memsearch.OpenIndex("")
}

// First is what the first build did.
func (s *Server) First() *build.Change { return s.first }

// Idle reports whether the server has caught up with every change: the
// pages, the site-wide files and the search index. Benchmarks wait for it.
func (s *Server) Idle() bool {
	return !s.pending.Load() && s.indexer.idle()
}

// Token is the per-process token mutating requests must carry.
func (s *Server) Token() string { return s.token }

// Files is the number of files the site has.
func (s *Server) Files() int { return s.store.len() }

// Notes returns how many notes the vault has and how many are published.
func (s *Server) Notes() (notes, published int) {
	snap := s.snapshot()
	return snap.notes, snap.published
}

// Close stops the watcher, the rebuild loop and every websocket. It does
// not stop an HTTP server serving the handler; Serve does that.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		if s.stop != nil {
			s.stop()
		}
		s.loopWG.Wait()
		s.hub.close()
		if s.index != nil {
			s.closeErr = s.index.Close()
		}
	})
	return s.closeErr
}

// Serve serves the handler on ln until ctx is done, then shuts down
// cleanly: requests in flight finish (for up to five seconds), websockets
// are told goodbye, and the watcher and rebuild loop stop.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.setBound(ln.Addr().String())
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Websockets are hijacked connections: Shutdown does not wait for
	// them, the hub closes them.
	s.hub.close()
	err := srv.Shutdown(shutdown)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// setBound records the listening address, for the Host and Origin checks.
func (s *Server) setBound(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bound = addr
	host, _, _ := net.SplitHostPort(addr)
	ip := net.ParseIP(host)
	s.loopback = ip != nil && ip.IsLoopback()
}

// loop is the rebuild loop: the one goroutine that drives the session.
// Each batch of changes is applied at once and its pages go live. The
// work that follows a change runs in the background once changes pause:
// provenance, at once over an edit of the files claims come from (a
// topic file's new entry shows its claim once it ran), after a pause as
// long as its last run took over edited evidence; then the site-wide
// files, after at least FinishAfter and as long as they took the last
// time. So while a person
// keeps editing a large workspace the background never competes with
// the rebuilds they are waiting for. Provenance runs in a goroutine of
// its own (it reads only values that never change) and is applied if
// still current; the site-wide files give way to the next change.
func (s *Server) loop(ctx context.Context) {
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	defer idle.Stop()
	var finishing chan error
	var cancelFinish context.CancelFunc
	var finishBatch *batch
	var finishStart time.Time
	// How long the background steps took last, to wait as long for quiet.
	// The first build's provenance ran over everything, with nothing
	// cached: no guess of a run over an edit, which the first one times.
	var provTook time.Duration
	finishTook := s.finishTook
	stopFinish := func() {
		if finishing != nil {
			cancelFinish()
			<-finishing
			finishing, finishBatch = nil, nil
		}
	}
	defer stopFinish()
	// prov carries the result of the provenance run in progress, if any.
	var prov chan *build.ProvenanceResult
	var provStart time.Time
	defer func() {
		if prov != nil {
			<-prov // provenance cannot be interrupted; wait for it
		}
	}()
	// wait arms the idle timer for the next background step.
	wait := func() {
		q := s.opts.FinishAfter
		switch {
		case prov != nil:
			return // its result re-arms the timer
		case s.session.PendingClaims():
			q = 0 // a page shows a new entry without its claim
		case s.session.Pending():
			q = max(s.opts.Debounce, provTook)
		default:
			q = max(q, finishTook)
		}
		idle.Reset(q)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ch := <-s.watch.out:
			stopFinish()
			s.pending.Store(true)
			if c, err := s.rebuild(ctx, ch); err == nil && c.Provenance {
				// The run an edit made is the best guess of the next one
				// (the first build's ran over everything): with the first
				// build's, the background run over a daily log's edit at
				// 10,000 notes waited longer than a person's pause between
				// edits, and the next edit's update did its work.
				provTook = c.ProvenanceTook
			}
			wait()
		case k := <-s.kick:
			stopFinish()
			s.pending.Store(true)
			_, err := s.rebuild(ctx, change{paths: k.paths, first: time.Now()})
			if err == nil && s.session.Pending() {
				// The caller (a dream) wants everything, claims included.
				if prov != nil {
					<-prov
					prov = nil
				}
				err = s.applyProvenance(ctx, s.session.ProvenanceJob()(), time.Now())
			}
			if err == nil {
				// And the pages that only list what changed: the dream's
				// answer links the journal, which lists its run.
				start := time.Now()
				b := newBatch()
				if err = s.session.Finish(ctx, b); err == nil {
					finishTook = time.Since(start)
					s.finished(b, finishTook)
				}
			}
			k.done <- err
			wait()
		case r := <-prov:
			prov = nil
			provTook = time.Since(provStart)
			stopFinish()
			_ = s.applyProvenance(ctx, r, provStart)
			// Stale, it runs again once changes pause; otherwise the
			// site-wide files follow.
			wait()
		case <-idle.C:
			if prov != nil || finishing != nil {
				continue
			}
			if s.session.Pending() {
				job := s.session.ProvenanceJob()
				prov, provStart = make(chan *build.ProvenanceResult, 1), time.Now()
				go func(out chan<- *build.ProvenanceResult) { out <- job() }(prov)
				continue
			}
			fctx, cancel := context.WithCancel(ctx)
			cancelFinish, finishing, finishBatch, finishStart = cancel, make(chan error, 1), newBatch(), time.Now()
			go func(b *batch, done chan<- error) { done <- s.session.Finish(fctx, b) }(finishBatch, finishing)
		case err := <-finishing:
			b := finishBatch
			cancelFinish()
			finishing, finishBatch = nil, nil
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					s.log.Error("writing the site-wide files", "err", err)
					s.pending.Store(false)
				}
				continue
			}
			finishTook = time.Since(finishStart)
			s.finished(b, finishTook)
		}
	}
}

// finished makes the files of a Finish that took took live and tells
// the pages.
func (s *Server) finished(b *batch, took time.Duration) {
	s.pending.Store(false)
	if changed := s.store.commitFinish(b); len(changed) > 0 {
		s.log.Debug("site-wide files written", "files", len(changed), "took", took.Round(time.Millisecond))
		if pages := reloadable(changed); len(pages) > 0 {
			s.announce(pages)
		}
	}
}

// applyProvenance brings the site up to date with a provenance run
// (unless changes since made it stale) and tells the pages.
func (s *Server) applyProvenance(ctx context.Context, r *build.ProvenanceResult, started time.Time) error {
	b := newBatch()
	c, applied, err := s.session.ApplyProvenance(ctx, r, b)
	if err != nil {
		s.log.Error("applying provenance", "err", err)
		s.setProblems([]Problem{problemOf(err)})
		return err
	}
	if !applied {
		return nil // stale: the loop starts a run over the latest workspace
	}
	changed := s.store.commitUpdate(b, c.Site)
	s.publish(c)
	s.setProblems(s.problemsOf(c, nil))
	if pages := reloadable(changed); len(pages) > 0 {
		s.announce(pages)
	}
	if s.opts.Out != nil {
		fmt.Fprintf(s.opts.Out, "%s  claims and evidence: %s in %s\n", time.Now().Format("15:04:05"), pagesWord(c), time.Since(started).Round(time.Millisecond))
	}
	return nil
}

// pagesWord says how many pages an update rendered.
func pagesWord(c *build.Change) string {
	if c.Site.Full {
		return fmt.Sprintf("every page (%d)", c.Site.Pages)
	}
	return fmt.Sprintf("%d pages", c.Site.Pages)
}

// rebuild applies one batch of changes, tells the pages and returns what
// the update did.
func (s *Server) rebuild(ctx context.Context, ch change) (*build.Change, error) {
	b := newBatch()
	var c *build.Change
	var err error
	if ch.reset {
		c, err = s.session.Reload(ctx, b)
	} else {
		c, err = s.session.Update(ctx, ch.paths, b)
	}
	if err != nil {
		s.log.Error("rebuilding", "err", err)
		s.setProblems([]Problem{problemOf(err)})
		if s.opts.Out != nil {
			fmt.Fprintf(s.opts.Out, "%s  the build failed: %v\n", time.Now().Format("15:04:05"), err)
		}
		return nil, err
	}
	changed := s.store.commitUpdate(b, c.Site)
	s.publish(c)
	s.log.Info("rebuilt", "files", ch.paths, "changed", len(changed), "pages", c.Site.Pages,
		"full", c.Site.Full, "provenance", c.Provenance, "took", c.Duration.Round(time.Millisecond),
		"since_event", time.Since(ch.first).Round(time.Millisecond))
	problems := s.problemsOf(c, ch.paths)
	s.setProblems(problems)
	if pages := reloadable(changed); len(pages) > 0 {
		s.announce(pages)
	}
	if s.opts.Out != nil {
		what := strings.Join(c.Files, ", ")
		if len(c.Files) > 3 {
			what = fmt.Sprintf("%s and %d more files", strings.Join(c.Files[:3], ", "), len(c.Files)-3)
		}
		if what == "" {
			what = "no change"
		}
		how := pagesWord(c)
		if c.Pending {
			how += " (claims and evidence follow)"
		}
		fmt.Fprintf(s.opts.Out, "%s  %s: %s in %s (the build %s)\n", time.Now().Format("15:04:05"), what, how,
			time.Since(ch.first).Round(time.Millisecond), c.Duration.Round(time.Millisecond))
		for _, p := range problems {
			fmt.Fprintf(s.opts.Out, "          %s: %s\n", p.Severity, p.Message)
		}
	}
	return c, nil
}

// announce tells pages which files changed: stylesheets alone are
// swapped in place, anything else reloads the pages showing it.
func (s *Server) announce(changed []string) {
	s.mu.Lock()
	s.builds++
	n := s.builds
	s.mu.Unlock()
	css := true
	for _, p := range changed {
		if filepath.Ext(p) != ".css" {
			css = false
		}
	}
	typ := "reload"
	if css {
		typ = "css"
	}
	s.hub.broadcast(Message{Type: typ, Paths: changed, Build: n})
}

// reloadable leaves out the files no open page shows: hover previews,
// Markdown twins and the outputs for agents are fetched when needed.
func reloadable(changed []string) []string {
	var out []string
	for _, p := range changed {
		switch {
		case filepath.Ext(p) == ".md", filepath.Ext(p) == ".json", filepath.Ext(p) == ".txt",
			filepath.Ext(p) == ".xml", len(p) > 13 && p[len(p)-13:] == ".preview.html":
			continue
		}
		out = append(out, p)
	}
	return out
}

// publish makes the new build's workspace readable by handlers.
func (s *Server) publish(c *build.Change) {
	v := s.session.Vault()
	snap := &snapshot{ws: s.session.Workspace(), prov: v.Provenance, dreamNotes: map[string]string{}}
	snap.notes, snap.published = len(v.Notes), len(v.Notes)
	for _, n := range v.Notes {
		if n.Dream != nil {
			snap.dreamNotes[n.Path] = n.Title
		}
	}
	s.mu.Lock()
	s.snap = snap
	s.mu.Unlock()
	if s.indexer != nil {
		s.indexer.offer(snap.ws, v)
	}
}

// snapshot returns the latest published build state.
func (s *Server) snapshot() *snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap
}

// problemsOf is the overlay after an update: the errors of the build, and
// the warnings that mean a file edited while serving could not be read as
// written (front matter, JSON, encoding). Other warnings (a broken link
// while typing) and the workspace's old problems are for the report, not
// for an overlay.
func (s *Server) problemsOf(c *build.Change, paths []string) []Problem {
	// Only the rebuild loop calls this: edited needs no lock.
	for _, p := range paths {
		s.edited[p] = true
	}
	for _, p := range c.Files {
		s.edited[p] = true
	}
	var out []Problem
	for _, d := range c.Diagnostics {
		if d.Severity == diag.Error || d.Severity == diag.Warning && s.edited[d.File] && brokenInput[d.Code] {
			out = append(out, Problem{File: d.Redacted().File, Line: d.Line, Col: d.Col, Severity: d.Severity.String(), Message: d.Error()})
		}
	}
	return out
}

// brokenInput are the diagnostic codes of input that could not be read as
// written.
var brokenInput = map[string]bool{"frontmatter": true, "json": true, "utf8": true, "config": true, "read": true, "internal": true}

// problemOf turns a failed build into an overlay entry.
func problemOf(err error) Problem {
	var d diag.Diagnostic
	if errors.As(err, &d) {
		return Problem{File: d.File, Line: d.Line, Col: d.Col, Severity: "error", Message: d.Error()}
	}
	return Problem{Severity: "error", Message: err.Error()}
}

// setProblems updates the overlay and tells the pages when it changed.
func (s *Server) setProblems(ps []Problem) {
	s.mu.Lock()
	had := len(s.problems) > 0
	same := equalProblems(s.problems, ps)
	s.problems = ps
	s.mu.Unlock()
	switch {
	case len(ps) > 0 && !same:
		s.hub.broadcast(Message{Type: "error", Problems: ps})
	case len(ps) == 0 && had:
		s.hub.broadcast(Message{Type: "clear"})
	}
}

func equalProblems(a, b []Problem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// helloMessage is what a page hears first: the overlay, if any.
func (s *Server) helloMessage() Message {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return Message{Type: "hello", Problems: s.problems, Build: s.builds, Instance: s.instance}
}

// Rebuild brings the site up to date with the workspace files at paths now,
// without waiting for the watcher, and returns once the whole site shows
// them: the pages that show what changed, and also those that only list
// it (the dream journal lists a dream's run) and the site-wide files,
// which an edit's rebuild leaves for when edits pause.
func (s *Server) Rebuild(ctx context.Context, paths []string) error {
	k := kick{paths: paths, done: make(chan error, 1)}
	select {
	case s.kick <- k:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-k.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
