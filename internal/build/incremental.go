package build

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
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
	// inputs are what the vault was built from, redacted; redactions
	// caches each input's redaction by vault path.
	inputs     []vault.Input
	redactions map[string]redaction
	// bySource indexes inputs by workspace path; redactDiags are the
	// redactions' findings in input order. Both are made again only when
	// the inputs are assembled again or a redaction changed.
	bySource    map[string]int
	redactDiags diag.List
	redactDirty bool
	// cited are the files citedBy (a provenance result) names.
	cited   map[string]bool
	citedBy *provenance.Result
	v       *vault.Vault
	site    site.Incremental
	// broken is set when an update failed halfway: the next one starts
	// afresh.
	broken bool
}

// redaction is one input's text before and after redaction.
type redaction struct {
	before, after string
	diags         diag.List
}

// Change says what a Session update did.
type Change struct {
	// Files are the workspace files that changed (written, created or
	// removed), sorted.
	Files []string
	// Provenance is set when provenance ran again.
	Provenance bool
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
	ws, err := readWorkspace(s.opts)
	if err != nil {
		return nil, err
	}
	var prior []provenance.PriorClaim
	if s.prov != nil {
		prior = s.prov.Prior()
	}
	*s = Session{opts: s.opts, eng: markdown.New(), ws: ws, redactions: map[string]redaction{}}
	s.prov = s.analyze(ws, prior)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inputs, assets := vault.Assemble(ws, s.prov)
	s.inputs = s.redact(inputs)
	s.v = vault.Build(s.eng, s.inputs, assets)
	d := vault.Delta{Changed: s.v.Notes, Names: true}
	ch := &Change{Provenance: true}
	if err := s.render(ctx, d, w, ch); err != nil {
		s.broken = true
		return nil, err
	}
	ch.Duration = time.Since(start)
	return ch, nil
}

// analyze runs provenance as Load does; prior are the claims of the
// earlier state, whose ids survive edits.
func (s *Session) analyze(ws *workspace.Workspace, prior []provenance.PriorClaim) *provenance.Result {
	return provenance.Analyze(ws, provenance.Options{
		AsOf:     s.opts.AsOf,
		Previous: prior,
		Locate:   vault.Locator(ws),
		Private:  vault.Privacy(ws),
	})
}

// redact redacts inputs as Load does, reusing the redaction of every
// input whose text is unchanged, and forgets the inputs that are gone.
func (s *Session) redact(inputs []vault.Input) []vault.Input {
	keep := make(map[string]bool, len(inputs))
	for i := range inputs {
		inputs[i] = s.redactOne(inputs[i])
		keep[redactionKey(inputs[i])] = true
	}
	for k := range s.redactions {
		if !keep[k] {
			delete(s.redactions, k)
		}
	}
	s.redactDirty = true
	s.bySource = nil
	return inputs
}

// redactOne redacts one input, reusing its earlier redaction when its
// text is unchanged.
func (s *Session) redactOne(in vault.Input) vault.Input {
	k := redactionKey(in)
	r, ok := s.redactions[k]
	if !ok || r.before != in.Text {
		one := []vault.Input{in}
		next := redaction{before: in.Text, diags: vault.Redact(one)}
		next.after = one[0].Text
		// The findings in input order change only if this input's do.
		if !ok || !reflect.DeepEqual(r.diags, next.diags) {
			s.redactDirty = true
		}
		r = next
		s.redactions[k] = r
	}
	in.Text = r.after
	return in
}

// redactionKey names an input before the vault makes paths unique: two
// inputs may share a vault path, never a workspace file.
func redactionKey(in vault.Input) string { return in.Source + "\x00" + in.Path }

// render brings the site up to date with s.v and fills in ch.
func (s *Session) render(ctx context.Context, d vault.Delta, w output.Writer, ch *Change) error {
	s.v.Provenance = s.prov
	if s.redactDirty {
		s.redactDiags = nil
		for _, in := range s.inputs {
			s.redactDiags = append(s.redactDiags, s.redactions[redactionKey(in)].diags...)
		}
		s.redactDirty = false
	}
	if len(s.redactDiags) > 0 {
		s.v.Diagnostics = append(s.v.Diagnostics, s.redactDiags...)
		s.v.Diagnostics.Sort()
	}
	m := &Model{Workspace: s.ws, Provenance: s.prov, Vault: s.v, Engine: s.eng}
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
// deferred files afterwards.
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
	prov := s.prov
	if structural || s.provenanceReads(s.ws, files) {
		prov = s.analyze(ws, s.prov.Prior())
		ch.Provenance = true
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var inputs []vault.Input
	var assets []*vault.Asset
	if ch.Provenance || structural {
		inputs, assets = vault.Assemble(ws, prov)
		inputs = s.redact(inputs)
	} else {
		inputs, assets, err = s.patchInputs(ws, files)
		if err != nil {
			return nil, err
		}
	}
	s.ws, s.prov, s.inputs = ws, prov, inputs
	var d vault.Delta
	s.v, d = s.v.Update(s.eng, inputs, assets)
	if err := s.render(ctx, d, w, ch); err != nil {
		return nil, err
	}
	s.broken = false
	ch.Duration = time.Since(start)
	return ch, nil
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
	sort.Strings(paths)
	return paths, structural
}

// provenanceReads reports whether provenance can read any of the changed
// files: anything but other notes ("note" kind) does, and so does an
// other note that a claim or a dream already cites.
func (s *Session) provenanceReads(ws *workspace.Workspace, paths []string) bool {
	if !configEqual(s.ws.Config, ws.Config) {
		return true
	}
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

// patchInputs remakes the inputs of changed other notes only: with
// provenance unchanged and no file added or removed, every other input
// (claims, dreams, reports included) is what it was. The session's
// inputs are patched in place.
func (s *Session) patchInputs(ws *workspace.Workspace, paths []string) ([]vault.Input, []*vault.Asset, error) {
	if s.bySource == nil {
		s.bySource = make(map[string]int, len(s.inputs))
		for i, in := range s.inputs {
			if in.Source != "" {
				s.bySource[in.Source] = i
			}
		}
	}
	for _, p := range paths {
		f := ws.FileByPath(p)
		if f == nil {
			continue // an asset
		}
		i, ok := s.bySource[p]
		in, isNote := vault.FileInput(ws, f)
		if !ok || !isNote {
			return nil, nil, errors.New("build: a changed file has no input of its own: " + p)
		}
		s.inputs[i] = s.redactOne(in)
	}
	return s.inputs, vault.Assets(ws), nil
}

// Reload reads the whole workspace again and renders everything into w
// (ch.Site.Full), keeping the claim ids of the current state. Serve mode
// calls it when file events were lost.
func (s *Session) Reload(ctx context.Context, w output.Writer) (*Change, error) {
	return s.load(ctx, w)
}
