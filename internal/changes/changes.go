// Package changes says what changed in memory between two analyses of a
// workspace (two provenance results): claims added, changed, superseded,
// archived, contested, resolved and removed, each with its evidence. It
// compares values and reads nothing; `dreamwiki diff` and the dream pages
// call it.
package changes

import (
	"cmp"
	"slices"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// Kind is what happened to a claim.
type Kind string

// Change kinds, in the order a diff lists them.
const (
	Added      Kind = "added"
	Changed    Kind = "changed"
	Superseded Kind = "superseded"
	Archived   Kind = "archived"
	Contested  Kind = "contested"
	Resolved   Kind = "resolved"
	// Removed is a claim that is gone without being superseded or
	// archived: its entry was deleted.
	Removed Kind = "removed"
)

var order = []Kind{Added, Changed, Superseded, Archived, Contested, Resolved, Removed}

// Change is one thing that happened to one claim.
type Change struct {
	Kind  Kind   `json:"kind"`
	Claim string `json:"claim"`
	Title string `json:"title"`
	// File and Line locate the claim's entry: where it is now, or where it
	// was for a removed claim.
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
	// Before is the earlier text of a changed claim.
	Before string `json:"before,omitempty"`
	// Status is the claim's status after the change ("" when removed).
	Status provenance.Status `json:"status,omitempty"`
	// Related are the other claims involved: those that superseded it, or
	// that it contests (or contested, when resolved).
	Related []string `json:"related,omitempty"`
	// Evidence are the claim's evidence citations
	// ("memory/2026-03-05.md#L1-L1"), private evidence left out.
	Evidence []string `json:"evidence,omitempty"`
}

// Between lists what changed from old to cur. The claims of cur must have
// been analysed with old's claims as provenance.Options.Previous, so that
// an edited entry keeps its id and shows as changed, not as removed and
// added.
func Between(old, cur *provenance.Result) []Change {
	var out []Change
	before := make(map[string]*provenance.Claim, len(old.Claims))
	for _, o := range old.Claims {
		before[o.ID] = o
	}
	seen := map[string]bool{}
	for _, c := range cur.Claims {
		seen[c.ID] = true
		o := before[c.ID]
		if o == nil {
			out = append(out, change(Added, c, nil))
			continue
		}
		if o.Text != c.Text {
			ch := change(Changed, c, nil)
			ch.Before = o.Text
			out = append(out, ch)
		}
		switch {
		case c.Status == provenance.StatusSuperseded && o.Status != provenance.StatusSuperseded:
			out = append(out, change(Superseded, c, c.SupersededBy()))
		case c.Status == provenance.StatusArchived && o.Status != provenance.StatusArchived:
			out = append(out, change(Archived, c, nil))
		}
		if len(c.Contests) > 0 && len(o.Contests) == 0 {
			out = append(out, change(Contested, c, c.Contests))
		} else if len(c.Contests) == 0 && len(o.Contests) > 0 {
			out = append(out, change(Resolved, c, o.Contests))
		}
	}
	for _, o := range old.Claims {
		if !seen[o.ID] {
			ch := change(Removed, o, nil)
			ch.Status, ch.Evidence = "", nil
			out = append(out, ch)
		}
	}
	slices.SortStableFunc(out, func(a, b Change) int {
		return cmp.Or(cmp.Compare(slices.Index(order, a.Kind), slices.Index(order, b.Kind)),
			cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Claim, b.Claim))
	})
	return out
}

func change(k Kind, c *provenance.Claim, related []string) Change {
	ch := Change{Kind: k, Claim: c.ID, Title: c.Title, File: c.File, Line: c.Line, Text: c.Text, Status: c.Status, Related: related}
	for _, ev := range c.Evidence {
		if !ev.Private {
			ch.Evidence = append(ch.Evidence, ev.Citation())
		}
	}
	return ch
}

// Relation says how the Related claims of a change of kind k relate to
// its claim, as the words before them: superseded "by", "contests", "no
// longer contests".
func (k Kind) Relation() string {
	switch k {
	case Superseded:
		return "by"
	case Resolved:
		return "no longer contests"
	}
	return "contests"
}

// Count is how many changes of each kind there are, in list order,
// leaving out kinds with none.
func Count(cs []Change) []KindCount {
	var out []KindCount
	for _, k := range order {
		n := 0
		for _, c := range cs {
			if c.Kind == k {
				n++
			}
		}
		if n > 0 {
			out = append(out, KindCount{Kind: k, N: n})
		}
	}
	return out
}

// KindCount is the number of changes of one kind.
type KindCount struct {
	Kind Kind `json:"kind"`
	N    int  `json:"n"`
}
