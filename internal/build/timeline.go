package build

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/changes"
	"github.com/dreamwiki/dreamwiki/internal/health"
	"github.com/dreamwiki/dreamwiki/internal/history"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
)

// maxWeeks caps the weekly points of a workspace without dreams: the
// slider steps through its last year.
const maxWeeks = 52

// stop is one point of a timeline to read: a dream (memory just before it
// and at the end of its day) or the end of a week.
type stop struct {
	id, label string
	dream     *provenance.Dream
	at        time.Time // the end of the dream's day, or of the week
}

// History reads the memory of the workspace of m at each dream, or
// without dreams at each week of its git history, for the site's dream
// pages, changes page, claim histories and time slider. It returns nil
// when there is nothing to step through (no dreams, no git history) and
// for a snapshot (--as-of), whose site shows one past already, and with
// opts.TwinsOnly, whose outputs show none.
//
// Every point's claims keep the ids of m's claims (as a build keeps the
// previous build's), so that an entry edited since keeps the id of the
// claim page it is shown with today, and a diff between two points sees
// an edit as a change. The points are read oldest first through one
// opened history and one provenance cache: a snapshot of the commit read
// last is not analysed again, and what did not change between two
// snapshots (the daily logs, mostly) is not read or worked out again.
func History(ctx context.Context, opts Options, m *Model) (*site.History, error) {
	if m.Snapshot != nil || opts.TwinsOnly || opts.History == workspace.HistoryOff || opts.History == "" && m.Workspace.Config.History.Off() {
		return nil, nil // no page shows it, or it is turned off
	}
	past, err := openPast(opts, m.Workspace)
	if err != nil {
		return nil, err
	}
	reportPast(past, m.Workspace)
	stops := dreamStops(m.Provenance.Dreams)
	if len(stops) == 0 {
		stops = weekStops(past.Commits())
	}
	if len(stops) == 0 {
		return nil, nil
	}
	progress(opts, fmt.Sprintf("reading memory at %d earlier points", len(stops)))
	opts.unlinked = true // a point's claims are shown, never its vault
	opts.parses = &workspace.Parses{}
	t := &reader{ctx: ctx, opts: opts, past: past, cache: &provenance.Cache{}, prior: m.Provenance.Prior(), last: &provenance.Result{}}
	h := &site.History{}
	for _, st := range stops {
		p := site.HistoryPoint{ID: st.id, Label: st.label, Date: st.at.Format("2006-01-02")}
		prev := t.last
		if d := st.dream; d != nil {
			p.Dream = d.Slug
			before, _ := dreamSpan(d)
			promoted := map[string]bool{}
			for _, id := range d.Promoted {
				promoted[id] = true
			}
			// A dream from before the repository's first commit, with no
			// log or backup that old, has no "before" to show.
			snap, ws, res, err := t.read(before, promoted)
			switch {
			case err == nil:
				p.Before, p.BeforeSource = memoryText(ws), snap.Describe()
				p.Since = changes.Between(prev, res)
				prev = res
			case !errors.Is(err, history.ErrNoPast):
				return nil, err
			}
		}
		snap, ws, res, err := t.read(st.at, nil)
		if errors.Is(err, history.ErrNoPast) {
			continue // nothing records memory then: no point
		}
		if err != nil {
			return nil, err
		}
		if st.dream != nil {
			p.Changes = changes.Between(prev, res)
			p.Since = roundTrips(p.Since, p.Changes)
		} else {
			p.Since = changes.Between(prev, res)
		}
		p.Source, p.Memory = snap.Describe(), memoryText(ws)
		p.Health = health.Of(res)
		p.Tiers, p.Types = map[string]int{}, map[string]int{}
		for _, c := range res.Claims {
			p.Tiers[string(c.Tier)]++
			p.Types[string(c.MemoryType)]++
		}
		p.Claims = len(res.Claims)
		h.Points = append(h.Points, p)
	}
	return h, nil
}

// roundTrips joins the changes made before a dream and those it made,
// less each claim removed before it and added back by it as it was: a
// snapshot from dates alone cuts the claims a dream promoted from the
// moment before it, and another dream of the same day then seems to
// have removed them.
func roundTrips(before, by []changes.Change) []changes.Change {
	back := map[string]bool{}
	for _, c := range by {
		if c.Kind == changes.Added {
			back[c.Claim+"\x00"+c.Text] = true
		}
	}
	gone := map[string]bool{}
	var out []changes.Change
	for _, c := range before {
		if k := c.Claim + "\x00" + c.Text; c.Kind == changes.Removed && back[k] {
			gone[k] = true
			continue
		}
		out = append(out, c)
	}
	for _, c := range by {
		if c.Kind == changes.Added && gone[c.Claim+"\x00"+c.Text] {
			continue
		}
		out = append(out, c)
	}
	return out
}

// reader reads a timeline's snapshots in order.
type reader struct {
	ctx   context.Context
	opts  Options
	past  *history.Past
	cache *provenance.Cache
	// prior are the claims whose ids every snapshot's keep.
	prior []provenance.PriorClaim
	// last is the last snapshot's analysis; lastSnap and lastWS its
	// snapshot and workspace.
	last     *provenance.Result
	lastSnap *history.Snapshot
	lastWS   *workspace.Workspace
	// at is the file system of the git snapshot read last, which the
	// workspace read from it rereads the next one's changed files from.
	at *snapshotFS
}

// read analyses the workspace as it stood at at. A snapshot of the commit read last is not analysed
// again; of another commit, only the files changed since are read again.
func (t *reader) read(at time.Time, later map[string]bool) (*history.Snapshot, *workspace.Workspace, *provenance.Result, error) {
	snap, err := t.past.At(at)
	if err != nil {
		return nil, nil, nil, err
	}
	if snap.Source != history.SourceGit {
		snap, ws, res, err := analyzeAt(t.ctx, t.opts, snap, at, t.prior, later, t.cache)
		if err != nil {
			return nil, nil, nil, err
		}
		t.last, t.lastSnap, t.lastWS = res, snap, ws
		return snap, ws, res, nil
	}
	if t.lastSnap != nil && snap.Commit == t.lastSnap.Commit {
		return snap, t.lastWS, t.last, nil
	}
	opts, wopts := snapshotOptions(t.opts, at)
	var ws *workspace.Workspace
	if paths, ok := snap.ChangedSince(t.lastSnap); ok && t.at != nil {
		t.at.snap = snap
		ws, err = t.lastWS.RereadChanged(paths)
	} else {
		t.at = &snapshotFS{snap: snap}
		ws, err = workspace.LoadFS(t.at, wopts)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading the workspace as of %s: %w", opts.AsOf.Format("2006-01-02"), err)
	}
	if err := t.ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	res := analyzeCached(opts, ws, t.prior, t.cache)
	t.last, t.lastSnap, t.lastWS = res, snap, ws
	return snap, ws, res, nil
}

// snapshotFS is the files of the snapshot snap, which a reader moves
// from one commit to the next.
type snapshotFS struct{ snap *history.Snapshot }

func (f *snapshotFS) Open(name string) (fs.File, error) { return f.snap.FS.Open(name) }

func (f *snapshotFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(f.snap.FS, name)
}

// memoryText is MEMORY.md as ws holds it (secrets redacted), "" when it
// has none.
func memoryText(ws *workspace.Workspace) string {
	if ws == nil || ws.Memory == nil || ws.Memory.File == nil {
		return ""
	}
	return ws.Memory.File.Content
}

// dreamStops are the dreams, oldest first, one per slug.
func dreamStops(dreams []*provenance.Dream) []stop {
	var out []stop
	seen := map[string]bool{}
	for _, d := range dreams {
		if d.Slug == "" || seen[d.Slug] {
			continue
		}
		seen[d.Slug] = true
		_, after := dreamSpan(d)
		// In the dream's own time zone, as its slug and note title are.
		label := "Dream " + d.Date.Format("2006-01-02")
		if d.HasTime {
			label += d.Date.Format(" 15:04")
		}
		out = append(out, stop{id: d.Slug, label: label, dream: d, at: after})
	}
	slices.SortStableFunc(out, func(a, b stop) int {
		return cmp.Or(a.at.Compare(b.at), a.dream.Date.Compare(b.dream.Date), cmp.Compare(a.id, b.id))
	})
	return out
}

// weekStops are the ends of the ISO weeks in which commits were made, the
// last maxWeeks of them.
func weekStops(commits []time.Time) []stop {
	var out []stop
	for _, c := range commits {
		y, w := c.ISOWeek()
		id := fmt.Sprintf("%d-W%02d", y, w)
		if len(out) > 0 && out[len(out)-1].id == id {
			continue
		}
		// The week ends on its Sunday.
		end := history.EndOfDay(c.AddDate(0, 0, (7-int(c.Weekday()))%7))
		out = append(out, stop{id: id, label: "Week of " + end.AddDate(0, 0, -6).Format("2006-01-02"), at: end})
	}
	return out[max(0, len(out)-maxWeeks):]
}
