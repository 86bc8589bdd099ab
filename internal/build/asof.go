package build

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/history"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Snapshot reads the workspace of opts as it stood at the end of the day
// at (history.Take), as it is published: the paths private now stay out
// of every earlier version too. Its claims are analysed as of at; prior
// are the claims whose ids the snapshot's claims keep.
//
// The backups and the dates cannot tell that an entry was added later
// (a dream makes no backup of a file it creates; a hand edit makes none
// at all): their snapshots are analysed once, the entries of claims
// created after at and of dreams run after it are cut, and the rest
// analysed again.
func Snapshot(ctx context.Context, opts Options, prior []provenance.PriorClaim) (*history.Snapshot, *workspace.Workspace, *provenance.Result, error) {
	return snapshotAt(ctx, opts, history.EndOfDay(opts.AsOf), prior, nil)
}

// snapshotAt is Snapshot at the instant at (a dream's start, for diff);
// claims are judged as of at's day. Without git, the claims named in
// later are cut too: those a dream's journal says it promoted, when at
// is the moment before it ran (dates cannot tell the hours of one day).
func snapshotAt(ctx context.Context, opts Options, at time.Time, prior []provenance.PriorClaim, later map[string]bool) (*history.Snapshot, *workspace.Workspace, *provenance.Result, error) {
	now, err := readWorkspace(opts, published())
	if err != nil {
		return nil, nil, nil, err
	}
	past, err := openPast(opts, now)
	if err != nil {
		return nil, nil, nil, err
	}
	progress(opts, "reading the workspace as of "+at.UTC().Format("2006-01-02"))
	snap, err := past.At(at)
	if err != nil {
		return nil, nil, nil, err
	}
	snap, ws, prov, err := analyzeAt(ctx, opts, snap, at, prior, later, nil)
	if err == nil {
		reportPast(past, ws)
	}
	return snap, ws, prov, err
}

// openPast opens the history of the workspace of opts, which hides the
// files now withholds (those private now stay private in every past) by
// their paths and by their contents, wherever they were.
func openPast(opts Options, now *workspace.Workspace) (*history.Past, error) {
	hopts := history.Options{Hide: now.Unpublished}
	for _, w := range now.Withheld {
		if w.Blob != "" {
			hopts.Private = append(hopts.Private, w.Blob)
		}
	}
	for _, f := range now.Files {
		hopts.Contents = append(hopts.Contents, f.Content)
	}
	if opts.Demo {
		return history.Open("", demo.FS(), hopts)
	}
	fsys, err := history.OnDisk(workspaceRoot(opts))
	if err != nil {
		return nil, err
	}
	return history.Open(workspaceRoot(opts), fsys, hopts)
}

// reportPast adds to ws's diagnostics what limits the history read: a
// repository that could not be read (the past then comes from backups and
// dates) or a shallow clone (it begins at the oldest commit it holds).
func reportPast(past *history.Past, ws *workspace.Workspace) {
	if err := past.Unread(); err != nil {
		ws.Diagnostics.Add(diag.Diagnostic{Severity: diag.Warning, Code: "history",
			Message: fmt.Sprintf("the git history was not read (%v); history points come from dream backups and dates", err),
			Hint:    "repair the repository (git fsck), or build with --history off or [history] mode = \"off\""})
	}
	if past.Shallow() {
		c := past.Commits()
		ws.Diagnostics.Add(diag.Diagnostic{Severity: diag.Info, Code: "history",
			Message: fmt.Sprintf("the git history is a shallow clone's: it begins at %s", c[0].Format(time.DateOnly)),
			Hint:    "clone with full history (actions/checkout fetch-depth: 0, GIT_DEPTH: 0) for all of it"})
	}
}

// analyzeAt analyses the snapshot snap taken at at; cache (nil: none)
// keeps what it works out for the next snapshot's analysis.
func analyzeAt(ctx context.Context, opts Options, snap *history.Snapshot, at time.Time, prior []provenance.PriorClaim, later map[string]bool, cache *provenance.Cache) (*history.Snapshot, *workspace.Workspace, *provenance.Result, error) {
	opts, wopts := snapshotOptions(opts, at)
	ws, prov, err := analyzeSnapshot(ctx, opts, snap, wopts, prior, cache)
	if err != nil || snap.Source == history.SourceGit {
		return snap, ws, prov, err
	}
	snap = snap.Edit(laterEdits(ws, prov, at, later))
	ws, prov, err = analyzeSnapshot(ctx, opts, snap, wopts, prior, cache)
	return snap, ws, prov, err
}

// laterEdits cut what a snapshot from backups or dates shows but that
// came after at: the entries of claims created after it or citing a
// daily log dated after it, their memory-meta.json records (and the
// links from the records they superseded), and the
// dream journal's entries of later dreams.
func laterEdits(ws *workspace.Workspace, prov *provenance.Result, at time.Time, later map[string]bool) map[string]func([]byte) ([]byte, error) {
	cut := map[string][][2]int{}
	var metaIDs []string
	for _, c := range prov.Claims {
		if c.Entry != nil && (c.Created.After(at) || citesLater(c.Entry, at) || later[c.ID]) {
			cut[c.File] = append(cut[c.File], [2]int{c.Line, c.EndLine})
			if c.MetaID != "" {
				metaIDs = append(metaIDs, c.MetaID)
			}
		}
	}
	for _, d := range prov.Dreams {
		if d.Date.After(at) {
			cut[d.File] = append(cut[d.File], [2]int{d.Line, d.EndLine})
		}
	}
	edits := map[string]func([]byte) ([]byte, error){}
	for p, ranges := range cut {
		edits[p] = func(data []byte) ([]byte, error) { return history.CutLines(data, ranges), nil }
	}
	if ws.Meta != nil && len(metaIDs) > 0 {
		edits[ws.Meta.File.Path] = func(data []byte) ([]byte, error) {
			doc, err := memory.ParseMetaDoc(data)
			if err != nil {
				return nil, err
			}
			for _, id := range metaIDs {
				if r := doc.ByID(id); r != nil {
					doc.Remove(r)
				}
			}
			// What a later claim superseded still stood then.
			for _, r := range doc.Entries {
				if slices.Contains(metaIDs, r.SupersededBy) {
					r.SupersededBy = ""
				}
			}
			return doc.Bytes(), nil
		}
	}
	return edits
}

// snapshotOptions are the build options and workspace reader options of a
// snapshot taken at at: claims judged as of at's day, the output folder
// skipped.
func snapshotOptions(opts Options, at time.Time) (Options, workspace.Options) {
	y, m, d := at.UTC().Date()
	opts.AsOf = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	wopts := published()
	wopts.Private = opts.Private // the snapshot's files are private by the same globs
	wopts.Parses = opts.parses
	if skip := relInside(workspaceRoot(opts), opts.Out); skip != "" && !opts.Demo {
		wopts.Skip = []string{skip}
	}
	return opts, wopts
}

func citesLater(e *workspace.Entry, at time.Time) bool {
	for _, p := range e.Sources {
		date := p.Date
		if d, _, ok := workspace.DailyLogPath(p.Path); ok {
			date = d
		}
		if date.After(at) {
			return true
		}
	}
	return false
}

func analyzeSnapshot(ctx context.Context, opts Options, snap *history.Snapshot, wopts workspace.Options, prior []provenance.PriorClaim, cache *provenance.Cache) (*workspace.Workspace, *provenance.Result, error) {
	ws, err := workspace.LoadFS(snap.FS, wopts)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the workspace as of %s: %w", opts.AsOf.Format("2006-01-02"), err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return ws, analyzeCached(opts, ws, prior, cache), nil
}
