package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/changes"
	"github.com/dreamwiki/dreamwiki/internal/history"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// ChangesIn is memory_changes' input: a date or a dream.
type ChangesIn struct {
	Since string `json:"since,omitempty" jsonschema:"a date, YYYY-MM-DD: changes made after that day, to now (as dreamwiki diff --since)"`
	Dream string `json:"dream,omitempty" jsonschema:"a dream's slug (as memory_why or an earlier answer gives it), or latest"`
}

// ChangesOut is what changed between two points, as `dreamwiki diff
// --json` and the site's changes page count it: one computation
// (build.Diff) for every surface.
type ChangesOut struct {
	Since string    `json:"since,omitempty"`
	Dream *DreamRef `json:"dream,omitempty"`
	// From and To say what each side was read from (a git commit, the
	// dream backups, the dates written in the memory, memory now).
	From string `json:"from"`
	To   string `json:"to"`
	// Counts are the changes by kind: added, changed, superseded,
	// archived, contested, resolved, removed.
	Counts []changes.KindCount `json:"counts"`
	// Changes are every change, each with its claim id, text, earlier
	// text when changed, related claims and evidence citations.
	Changes []changes.Change `json:"changes"`
	// Dreams are the dreams of the period (since a date).
	Dreams []DreamRef `json:"dreams,omitempty"`
}

func (t *tools) changes(ctx context.Context, _ *sdk.CallToolRequest, in ChangesIn) (*sdk.CallToolResult, ChangesOut, error) {
	if (in.Since == "") == (in.Dream == "") {
		return nil, ChangesOut{}, errors.New("give either since (a date, YYYY-MM-DD) or dream (a dream's slug, or latest)")
	}
	var out ChangesOut
	var d build.DiffOptions
	if in.Dream != "" {
		if err := t.settle(ctx); err != nil {
			return nil, ChangesOut{}, err
		}
		dr := findDream(t.src.Provenance(), in.Dream)
		if dr == nil {
			return nil, ChangesOut{}, fmt.Errorf("no dream %q; memory_changes with since lists the dreams of a period", in.Dream)
		}
		ref := dreamRef(dr)
		out.Dream, d.Dream = &ref, dr.Slug
	} else {
		since, err := time.Parse("2006-01-02", in.Since)
		if err != nil {
			return nil, ChangesOut{}, fmt.Errorf("since must be a date such as 2026-11-01, not %q", in.Since)
		}
		out.Since, d.Since = day(since), since
		if err := t.settle(ctx); err != nil {
			return nil, ChangesOut{}, err
		}
		for _, dr := range t.src.Provenance().Dreams {
			if dr.Date.After(history.EndOfDay(since)) {
				out.Dreams = append(out.Dreams, dreamRef(dr))
			}
		}
	}
	r, err := t.src.Diff(ctx, d)
	if err != nil {
		return nil, ChangesOut{}, err
	}
	out.From, out.To, out.Counts, out.Changes = r.From.Label, r.To.Label, r.Counts, r.Changes
	if out.Counts == nil {
		out.Counts = []changes.KindCount{}
	}
	return nil, out, nil
}

// findDream is the dream whose slug is slug, or the latest for "latest";
// nil when there is none.
func findDream(prov *provenance.Result, slug string) *provenance.Dream {
	var d *provenance.Dream
	for _, x := range prov.Dreams {
		if x.Slug == slug || (slug == "latest" && (d == nil || x.Date.After(d.Date))) {
			d = x
		}
	}
	return d
}
