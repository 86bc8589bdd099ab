package build

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Session is a build kept in memory and brought up to date as files of
// the workspace change (serve mode). Each stage does only the work a
// change needs: the workspace re-reads the changed files
// (workspace.Reread), provenance runs again only when a changed file can
// matter to it, the vault re-parses changed notes and re-resolves the
// links that can point elsewhere (vault.Update), and the site re-renders
// the pages the change reaches (site.Incremental). After Update and
// Finish, the site written so far is byte for byte the one Build writes
// for the same workspace with the same earlier claims (TestSession_*).
//
// A Session is not safe for concurrent use; serve mode drives it from one
// goroutine.
type Session struct {
	opts Options
	eng  *markdown.Engine
	ws   *workspace.Workspace
	prov *provenance.Result
	// cache keeps what provenance worked out for the next run.
	cache *provenance.Cache
	// jobs tells when the last ProvenanceJob that started has ended.
	jobs *jobs
	// history is the memory at earlier points, read when the session
	// loads: edits change the present, not the past (a dream run from
	// serve mode reloads).
	history *site.History
	// asm holds the vault's inputs, made from ws and prov.
	asm *vault.Assembly
	// cited are the files citedBy (a provenance result) names.
	cited   map[string]bool
	citedBy *provenance.Result
	v       *vault.Vault
	site    site.Incremental
	// broken is set when an update failed halfway: the next one starts
	// afresh.
	broken bool
	// pending is set while provenance has yet to run over rendered edits;
	// pendingClaims when they include a file whose entries become claims.
	pending, pendingClaims bool
}

// Change says what a Session update did.
type Change struct {
	// Files are the workspace files that changed (written, created or
	// removed), sorted.
	Files []string
	// Provenance is set when provenance ran again.
	Provenance bool
	// Pending is set when provenance has yet to run over this change
	// (see Session.ProvenanceJob).
	Pending bool
	// ProvenanceTook is how long provenance took, when it ran.
	ProvenanceTook time.Duration
	// Site says what was rendered.
	Site site.UpdateStats
	// Diagnostics are every finding of the new state, sorted.
	Diagnostics diag.List
	// Duration is how long the update took.
	Duration time.Duration
}

// Open reads the workspace of opts (a folder on disk, or the demo) and
// renders its site into w, except the deferred files (site.Deferred) that
// Finish writes.
func Open(ctx context.Context, opts Options, w output.Writer) (*Session, *Change, error) {
	s := &Session{opts: opts}
	ch, err := s.load(ctx, w)
	if err != nil {
		return nil, nil, err
	}
	return s, ch, nil
}

// load reads and renders everything.
func (s *Session) load(ctx context.Context, w output.Writer) (*Change, error) {
	start := time.Now()
	ws, err := readWorkspace(s.opts, published())
	if err != nil {
		return nil, err
	}
	var prior []provenance.PriorClaim
	if s.prov != nil {
		prior = s.prov.Prior()
	}
	cache, running := s.cache, s.jobs
	if cache == nil {
		cache, running = &provenance.Cache{}, &jobs{}
	}
	*s = Session{opts: s.opts, eng: markdown.New(), ws: ws, cache: cache, jobs: running} // pending too
	t0 := time.Now()
	s.prov = analyzeCached(s.opts, ws, prior, cache)
	took := time.Since(t0)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.history, err = History(ctx, s.opts, &Model{Workspace: ws, Provenance: s.prov}); err != nil {
		return nil, fmt.Errorf("reading the memory's history: %w", err)
	}
	s.asm = vault.NewAssembly(ws, s.prov)
	s.v = vault.Build(s.eng, s.inputs(), s.assets(), vault.Withheld(ws))
	d := vault.Delta{Changed: s.v.Notes, Names: true}
	ch := &Change{Provenance: true, ProvenanceTook: took}
	if err := s.render(ctx, d, w, ch); err != nil {
		s.broken = true
		return nil, err
	}
	ch.Duration = time.Since(start)
	return ch, nil
}

// asOf is the date a build judges decay, tiers and permission expiry at:
// the one asked for, else today.
func (o Options) asOf() time.Time {
	if !o.AsOf.IsZero() {
		return o.AsOf
	}
	return time.Now()
}

// analyze runs provenance for Load and for serve mode's rebuilds; prior
// are the claims of the earlier state, whose ids survive edits.
func analyze(opts Options, ws *workspace.Workspace, prior []provenance.PriorClaim) *provenance.Result {
	return analyzeCached(opts, ws, prior, nil)
}

// analyzeCached is analyze keeping what it works out in cache (nil: none)
// for the next run.
func analyzeCached(opts Options, ws *workspace.Workspace, prior []provenance.PriorClaim, cache *provenance.Cache) *provenance.Result {
	return provenance.Analyze(ws, provenance.Options{
		AsOf:     opts.asOf(),
		Previous: prior,
		Locate:   vault.Locator(ws),
		Cache:    cache,
		Unlinked: opts.unlinked,
	})
}

// render brings the site up to date with s.v and fills in ch.
func (s *Session) render(ctx context.Context, d vault.Delta, w output.Writer, ch *Change) error {
	s.v.Provenance = s.prov
	m := &Model{Workspace: s.ws, Provenance: s.prov, Vault: s.v, Engine: s.eng, History: s.history}
	st, err := s.site.Update(ctx, s.eng, s.v, d, m.SiteOptions(s.opts), w)
	if err != nil {
		return fmt.Errorf("rendering the site: %w", err)
	}
	ch.Site = st
	ch.Diagnostics = m.Diagnostics()
	return nil
}

// Update brings the session up to date after the workspace files at paths
// (workspace-relative, forward slashes) changed, and writes what changed
// of the site into w (everything when ch.Site.Full). Finish writes the
// pages that only list what changed, and the deferred files, afterwards.
//
// When files were added or removed, or the configuration changed,
// provenance runs before anything is rendered: links and pointers
// resolve to other notes then. When files were only edited, their pages
// are rendered at once, with the claim links and block ids the last
// provenance run gave the lines they still have (see vault.Assembly):
// exact for the files provenance does not read, a moment out of date for
// those it does (a topic file's new entry has no claim yet). If
// provenance reads an edited file, the session is then Pending:
// ProvenanceJob runs provenance (in another goroutine, if the caller
// likes) and ApplyProvenance renders what it changed: at 10,000 notes a
// topic-file edit reaches its page in a daily log's time, and its claims
// follow.
func (s *Session) Update(ctx context.Context, paths []string, w output.Writer) (*Change, error) {
	start := time.Now()
	if s.broken || s.opts.Demo {
		ch, err := s.load(ctx, w)
		if ch != nil {
			ch.Files = append([]string(nil), paths...)
			sort.Strings(ch.Files)
		}
		return ch, err
	}
	ws, err := s.ws.Reread(paths)
	if err != nil {
		return nil, err
	}
	files, structural := changedFiles(s.ws, ws)
	ch := &Change{Files: files}
	s.broken = true // until this update is through
	if structural || !configEqual(s.ws.Config, ws.Config) {
		t0 := time.Now()
		// A provenance run over an earlier edit still going (a
		// ProvenanceJob) is waited for: it leaves in the cache what this
		// run would otherwise work out again beside it, on the same
		// cores. At 10,000 notes that is a daily log's corpus, seconds.
		s.jobs.wait()
		s.prov = analyzeCached(s.opts, ws, s.prov.Prior(), s.cache)
		s.pending, s.pendingClaims = false, false
		ch.Provenance, ch.ProvenanceTook = true, time.Since(t0)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	} else if s.provenanceReads(ws, files) {
		s.pending = true
		s.pendingClaims = s.pendingClaims || curated(ws, files)
	}
	// The past hides what is private now: when that changed, it is read
	// again (History); otherwise it stands until the next dream reloads.
	if !configEqual(s.ws.Config, ws.Config) || !slices.EqualFunc(s.ws.Withheld, ws.Withheld, func(a, b workspace.Withheld) bool { return a.Path == b.Path }) {
		if s.history, err = History(ctx, s.opts, &Model{Workspace: ws, Provenance: s.prov}); err != nil {
			return nil, fmt.Errorf("reading the memory's history: %w", err)
		}
	}
	// Without provenance, the edited files' inputs are made with the claim
	// links and block ids of the last run.
	s.asm = s.asm.Next(ws, s.prov)
	ch.Pending = s.pending
	s.ws = ws
	var d vault.Delta
	s.v, d = s.v.Update(s.eng, s.inputs(), s.assets(), vault.Withheld(ws))
	if err := s.render(ctx, d, w, ch); err != nil {
		return nil, err
	}
	s.broken = false
	ch.Duration = time.Since(start)
	return ch, nil
}

// ProvenanceResult is a provenance run over a workspace and the vault
// inputs assembled from it (see ProvenanceJob).
type ProvenanceResult struct {
	ws   *workspace.Workspace
	prov *provenance.Result
	asm  *vault.Assembly
}

// inputs are the vault's inputs; assets its assets.
func (s *Session) inputs() []vault.Input { in, _ := s.asm.Inputs(); return in }

func (s *Session) assets() []*vault.Asset { _, as := s.asm.Inputs(); return as }

// Pending reports whether provenance has yet to run over edits already
// rendered.
func (s *Session) Pending() bool { return s.pending }

// PendingClaims reports whether the edits provenance has yet to run over
// include a file whose entries become claims (MEMORY.md, a topic file,
// the archive): until it runs, a new entry shows without its claim.
func (s *Session) PendingClaims() bool { return s.pendingClaims }

// curated reports whether any of the changed files is one whose entries
// become claims.
func curated(ws *workspace.Workspace, paths []string) bool {
	for _, p := range paths {
		if f := ws.FileByPath(p); f != nil && (f.Kind == workspace.KindMemory || f.Kind == workspace.KindTopic || f.Kind == workspace.KindArchive) {
			return true
		}
	}
	return false
}

// ProvenanceJob returns the provenance run the session waits for, as a
// function that reads only values that never change (the workspace as
// last read, the claims of the last run): it may run in another
// goroutine while the session goes on updating. Its result is for
// ApplyProvenance.
func (s *Session) ProvenanceJob() func() *ProvenanceResult {
	ws, prior, opts, cache, asm, jobs := s.ws, s.prov.Prior(), s.opts, s.cache, s.asm, s.jobs
	return func() *ProvenanceResult {
		defer jobs.started()()
		prov := analyzeCached(opts, ws, prior, cache)
		return &ProvenanceResult{ws: ws, prov: prov, asm: asm.Next(ws, prov)}
	}
}

// jobs tells when the provenance run a ProvenanceJob started last ends:
// a job runs in another goroutine while the session goes on.
type jobs struct {
	mu   sync.Mutex
	done chan struct{}
}

// started marks a job as running; the job calls the function it returns
// when it ends.
func (j *jobs) started() func() {
	done := make(chan struct{})
	j.mu.Lock()
	j.done = done
	j.mu.Unlock()
	return func() { close(done) }
}

// wait returns once the job that started last has ended.
func (j *jobs) wait() {
	j.mu.Lock()
	done := j.done
	j.mu.Unlock()
	if done != nil {
		<-done
	}
}

// ApplyProvenance brings the session up to date with a provenance run and
// writes what changed of the site into w. A run over a workspace that has
// changed since is stale: applied is false, nothing is done, and the
// session stays pending for a new job.
func (s *Session) ApplyProvenance(ctx context.Context, r *ProvenanceResult, w output.Writer) (ch *Change, applied bool, err error) {
	if s.broken || r == nil || r.ws != s.ws {
		return nil, false, nil
	}
	start := time.Now()
	s.broken = true
	s.prov, s.asm = r.prov, r.asm
	ch = &Change{Provenance: true}
	var d vault.Delta
	s.v, d = s.v.Update(s.eng, s.inputs(), s.assets(), vault.Withheld(r.ws))
	if err := s.render(ctx, d, w, ch); err != nil {
		return nil, false, err
	}
	s.pending, s.pendingClaims, s.broken = false, false, false
	ch.Duration = time.Since(start)
	return ch, true, nil
}

// Finish writes the deferred files of the site (the search index, the
// sitemap, the feed, the outputs for agents) into w.
func (s *Session) Finish(ctx context.Context, w output.Writer) error {
	return s.site.Finish(ctx, w)
}

// Workspace returns the workspace as last read.
func (s *Session) Workspace() *workspace.Workspace { return s.ws }

// Vault returns the current vault. It is the session's: read it only
// between updates, from the goroutine that drives them.
func (s *Session) Vault() *vault.Vault { return s.v }

// changedFiles compares two reads of a workspace: the paths of files
// (text and assets) written, created or removed, and whether the set of
// files itself changed.
func changedFiles(a, b *workspace.Workspace) (paths []string, structural bool) {
	for _, f := range b.Files {
		if old := a.FileByPath(f.Path); old != f {
			paths = append(paths, f.Path)
			structural = structural || old == nil || old.Kind != f.Kind
		}
	}
	for _, f := range a.Files {
		if b.FileByPath(f.Path) == nil {
			paths = append(paths, f.Path)
			structural = true
		}
	}
	for _, x := range b.Assets {
		if old := a.AssetByPath(x.Path); old == nil || old.Hash != x.Hash {
			paths = append(paths, x.Path)
			structural = structural || old == nil
		}
	}
	for _, x := range a.Assets {
		if b.AssetByPath(x.Path) == nil {
			paths = append(paths, x.Path)
			structural = true
		}
	}
	if a.Config.Title != b.Config.Title || a.Config.BaseURL != b.Config.BaseURL {
		structural = true
	}
	// A private file that came or went changes what links and pointers to
	// it resolve to (plain text, private evidence, nothing).
	if !slices.Equal(a.Withheld, b.Withheld) {
		structural = true
	}
	sort.Strings(paths)
	return paths, structural
}

// provenanceReads reports whether provenance can read any of the changed
// files: anything but other notes ("note" kind) does, and so does an
// other note that a claim or a dream already cites.
func (s *Session) provenanceReads(ws *workspace.Workspace, paths []string) bool {
	if s.cited == nil || s.citedBy != s.prov {
		s.cited, s.citedBy = citedFiles(s.prov), s.prov
	}
	cited := s.cited
	for _, p := range paths {
		if ws.AssetByPath(p) != nil {
			continue // provenance reads text only
		}
		f := ws.FileByPath(p)
		if f == nil || f.Kind != workspace.KindNote || cited[p] {
			return true
		}
	}
	return false
}

// configEqual compares what of the configuration provenance reads.
func configEqual(a, b workspace.Config) bool {
	return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
}

// citedFiles are the workspace files a provenance result names: claim
// entries, evidence, dream runs and their inputs, anchored files.
func citedFiles(r *provenance.Result) map[string]bool {
	out := map[string]bool{}
	if r == nil {
		return out
	}
	for _, c := range r.Claims {
		out[c.File] = true
		for _, e := range c.Evidence {
			out[e.Path] = true
		}
	}
	for _, d := range r.Dreams {
		out[d.File] = true
		for _, l := range d.Logs {
			out[l] = true
		}
		for _, it := range d.Items {
			for _, e := range it.Evidence {
				out[e.Path] = true
			}
		}
	}
	for _, p := range r.AnchoredFiles() {
		out[p] = true
	}
	return out
}

// Reload reads the whole workspace again and renders everything into w
// (ch.Site.Full), keeping the claim ids of the current state. Serve mode
// calls it when file events were lost.
func (s *Session) Reload(ctx context.Context, w output.Writer) (*Change, error) {
	return s.load(ctx, w)
}
