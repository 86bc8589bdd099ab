package build

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/changes"
	"github.com/dreamwiki/dreamwiki/internal/health"
	"github.com/dreamwiki/dreamwiki/internal/history"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// DiffOptions choose the two points a diff compares: Since (a day) to
// now, or the memory just before and after the dream Dream.
type DiffOptions struct {
	Since time.Time
	// Dream is a dream's slug ("2026-10-30-0700"), as its vault note is
	// named.
	Dream string
}

// DiffReport is what changed in memory between two points.
type DiffReport struct {
	Workspace string `json:"workspace"`
	From      Point  `json:"from"`
	To        Point  `json:"to"`
	// Dream is the dream compared, with what its journal entry says.
	Dream   *provenance.Dream   `json:"dream,omitempty"`
	Counts  []changes.KindCount `json:"counts"`
	Changes []changes.Change    `json:"changes"`
}

// Point is one side of a diff: a snapshot, or the workspace as it is.
type Point struct {
	// Label says what the point is in words.
	Label    string            `json:"label"`
	Snapshot *history.Snapshot `json:"snapshot,omitempty"`
	// Health is the memory's health at that point.
	Health health.Health `json:"health"`
}

// Diff compares the memory of the workspace of opts at two points. The
// later side's claims keep the ids of the earlier side's (as a build keeps
// the previous build's), so an edited entry is a change, not a removal
// and an addition.
func Diff(ctx context.Context, opts Options, d DiffOptions) (*DiffReport, error) {
	r := &DiffReport{Workspace: opts.Workspace}
	if opts.Demo {
		r.Workspace = "(demo)"
	}
	var old, cur *provenance.Result
	switch {
	case d.Dream != "":
		ws, err := readWorkspace(opts, published())
		if err != nil {
			return nil, err
		}
		dream, err := findDream(analyze(opts, ws, nil), d.Dream)
		if err != nil {
			return nil, err
		}
		r.Dream = dream
		before, after := dreamSpan(dream)
		promoted := map[string]bool{}
		for _, id := range dream.Promoted {
			promoted[id] = true
		}
		fromSnap, _, o, err := snapshotAt(ctx, opts, before, nil, promoted)
		if err != nil {
			return nil, err
		}
		toSnap, _, c, err := snapshotAt(ctx, opts, after, o.Prior(), nil)
		if err != nil {
			return nil, err
		}
		old, cur = o, c
		r.From = Point{Label: "before dream " + dream.Slug + ": " + fromSnap.Describe(), Snapshot: fromSnap}
		r.To = Point{Label: "after it: " + toSnap.Describe(), Snapshot: toSnap}
	case !d.Since.IsZero():
		snap, _, o, err := snapshotAt(ctx, opts, history.EndOfDay(d.Since), nil, nil)
		if err != nil {
			return nil, err
		}
		ws, err := readWorkspace(opts, published())
		if err != nil {
			return nil, err
		}
		old, cur = o, analyze(opts, ws, o.Prior())
		r.From = Point{Label: snap.Describe(), Snapshot: snap}
		r.To = Point{Label: "memory now"}
	default:
		return nil, fmt.Errorf("diff needs a point to compare with: a date (--since) or a dream (--dream)")
	}
	r.From.Health, r.To.Health = health.Of(old), health.Of(cur)
	r.Changes = changes.Between(old, cur)
	r.Counts = changes.Count(r.Changes)
	if r.Changes == nil {
		r.Changes = []changes.Change{}
	}
	return r, nil
}

// findDream is the dream whose slug is slug.
func findDream(res *provenance.Result, slug string) (*provenance.Dream, error) {
	var slugs []string
	for _, d := range res.Dreams {
		if d.Slug == slug {
			return d, nil
		}
		slugs = append(slugs, d.Slug)
	}
	if len(slugs) == 0 {
		return nil, fmt.Errorf("no dream %q: the workspace records no dreams", slug)
	}
	return nil, fmt.Errorf("no dream %q; the dreams are %s", slug, strings.Join(slugs, ", "))
}

// dreamSpan is the instant just before a dream ran and the end of its
// day: a dream logged without a time of day is taken to have run at the
// start of its day.
func dreamSpan(d *provenance.Dream) (before, after time.Time) {
	y, m, day := d.Date.UTC().Date()
	start := time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
	if d.HasTime {
		start = d.Date.UTC()
	}
	return start.Add(-time.Nanosecond), history.EndOfDay(d.Date.UTC())
}
