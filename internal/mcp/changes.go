package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// ChangesIn is memory_changes' input: a date or a dream.
type ChangesIn struct {
	Since string `json:"since,omitempty" jsonschema:"a date, YYYY-MM-DD: changes on or after it"`
	Dream string `json:"dream,omitempty" jsonschema:"a dream's slug (as memory_why or an earlier answer gives it), or latest"`
}

// ChangesOut is what changed.
type ChangesOut struct {
	Since      string         `json:"since,omitempty"`
	Dream      *DreamRef      `json:"dream,omitempty"`
	Added      []*ClaimRef    `json:"added"`
	Superseded []Supersession `json:"superseded"`
	Archived   []*ClaimRef    `json:"archived"`
	Contested  []Contest      `json:"contested"`
	Dreams     []DreamRef     `json:"dreams,omitempty"`
}

// Supersession is a claim replaced by a newer one.
type Supersession struct {
	Old  *ClaimRef `json:"old"`
	New  *ClaimRef `json:"new,omitempty"`
	Date string    `json:"date,omitempty"`
}

// Contest is two current claims that give one subject different values.
type Contest struct {
	Subject string    `json:"subject"`
	Older   *ClaimRef `json:"older"`
	Newer   *ClaimRef `json:"newer"`
}

func (t *tools) changes(ctx context.Context, _ *sdk.CallToolRequest, in ChangesIn) (*sdk.CallToolResult, ChangesOut, error) {
	if (in.Since == "") == (in.Dream == "") {
		return nil, ChangesOut{}, errors.New("give either since (a date, YYYY-MM-DD) or dream (a dream's slug, or latest)")
	}
	if err := t.settle(ctx); err != nil {
		return nil, ChangesOut{}, err
	}
	prov := t.src.Provenance()
	if in.Dream != "" {
		return dreamChanges(prov, in.Dream)
	}
	since, err := time.Parse("2006-01-02", in.Since)
	if err != nil {
		return nil, ChangesOut{}, fmt.Errorf("since must be a date such as 2026-11-01, not %q", in.Since)
	}
	return nil, changesSince(prov, since), nil
}

// changesSince lists what the claims' dates and the dreams say changed on
// or after since.
func changesSince(prov *provenance.Result, since time.Time) ChangesOut {
	out := ChangesOut{Since: day(since), Added: []*ClaimRef{}, Superseded: []Supersession{}, Archived: []*ClaimRef{}, Contested: []Contest{}}
	recent := map[string]bool{}
	for _, c := range prov.Claims {
		if c.Created.IsZero() || c.Created.Before(since) {
			continue
		}
		recent[c.ID] = true
		if c.Origin == provenance.OriginArchive {
			out.Archived = append(out.Archived, refOf(c))
		} else {
			out.Added = append(out.Added, refOf(c))
		}
	}
	for _, c := range prov.Claims {
		for _, l := range c.Chain {
			if l.Kind != provenance.LinkSupersededBy || l.Date.IsZero() || l.Date.Before(since) {
				continue
			}
			s := Supersession{Old: refOf(c), Date: day(l.Date)}
			if n := prov.Claim(l.Claim); n != nil {
				s.New = refOf(n)
			}
			out.Superseded = append(out.Superseded, s)
		}
	}
	archived := map[string]bool{}
	for _, r := range out.Archived {
		archived[r.ID] = true
	}
	for _, d := range prov.Dreams {
		if d.Date.Before(since) {
			continue
		}
		out.Dreams = append(out.Dreams, dreamRef(d))
		for _, id := range d.Archived {
			if c := prov.Claim(id); c != nil && !archived[id] {
				archived[id] = true
				out.Archived = append(out.Archived, refOf(c))
			}
		}
	}
	for _, ct := range prov.Contests {
		if recent[ct.Older] || recent[ct.Newer] {
			out.Contested = append(out.Contested, contestOf(prov, ct))
		}
	}
	return out
}

// dreamChanges lists what one dream did, as its log entry records it.
func dreamChanges(prov *provenance.Result, slug string) (*sdk.CallToolResult, ChangesOut, error) {
	var d *provenance.Dream
	for _, x := range prov.Dreams {
		if x.Slug == slug || (slug == "latest" && (d == nil || x.Date.After(d.Date))) {
			d = x
		}
	}
	if d == nil {
		return nil, ChangesOut{}, fmt.Errorf("no dream %q; memory_changes with since lists the dreams of a period", slug)
	}
	ref := dreamRef(d)
	out := ChangesOut{Dream: &ref, Added: refs(prov, d.Promoted), Superseded: []Supersession{}, Archived: refs(prov, d.Archived), Contested: []Contest{}}
	for _, id := range d.Superseded {
		c := prov.Claim(id)
		if c == nil {
			continue
		}
		s := Supersession{Old: refOf(c)}
		for _, l := range c.Chain {
			if n := prov.Claim(l.Claim); l.Kind == provenance.LinkSupersededBy && n != nil {
				s.New, s.Date = refOf(n), day(l.Date)
			}
		}
		out.Superseded = append(out.Superseded, s)
	}
	for _, ct := range prov.Contests {
		if slices.Contains(d.Promoted, ct.Older) || slices.Contains(d.Promoted, ct.Newer) {
			out.Contested = append(out.Contested, contestOf(prov, ct))
		}
	}
	return nil, out, nil
}

func refs(prov *provenance.Result, ids []string) []*ClaimRef {
	out := []*ClaimRef{}
	for _, id := range ids {
		if c := prov.Claim(id); c != nil {
			out = append(out, refOf(c))
		}
	}
	return out
}

func contestOf(prov *provenance.Result, ct provenance.Contest) Contest {
	out := Contest{Subject: ct.Subject}
	if c := prov.Claim(ct.Older); c != nil {
		out.Older = refOf(c)
	}
	if c := prov.Claim(ct.Newer); c != nil {
		out.Newer = refOf(c)
	}
	return out
}
