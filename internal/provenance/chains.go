package provenance

import (
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// edge is one recorded supersession: old was replaced by new.
type edge struct {
	old, new *Claim
	date     time.Time
	from     string // "meta", "user", "dream-log"
	// file and line say where the edge was recorded, for findings.
	file string
	line int
}

// chains links supersession chains (DESIGN 5.4) from memory-meta.json,
// USER.md observations and dream-log entries. An edge that would close a
// cycle is reported and left out, so every chain has a start and an end.
func (a *analyzer) chains() {
	edges := append(a.metaEdges(), a.observationEdges()...)
	edges = append(edges, a.dreamEdges...)
	succ := map[*Claim][]*Claim{}
	reaches := func(from, to *Claim) bool {
		seen := map[*Claim]bool{}
		stack := []*Claim{from}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c == to {
				return true
			}
			if seen[c] {
				continue
			}
			seen[c] = true
			stack = append(stack, succ[c]...)
		}
		return false
	}
	linked := map[[2]*Claim]bool{}
	for _, e := range edges {
		if linked[[2]*Claim{e.old, e.new}] {
			continue
		}
		if e.old == e.new || reaches(e.new, e.old) {
			a.finding("supersession-cycle", e.file, e.line, "fix supersededBy/supersedes so the chain runs one way; this link was ignored",
				"superseding %q with %q would close a cycle in the supersession chain", clip(e.old.Title, 60), clip(e.new.Title, 60))
			continue
		}
		linked[[2]*Claim{e.old, e.new}] = true
		succ[e.old] = append(succ[e.old], e.new)
		date := e.date
		if date.IsZero() {
			date = e.new.Created
		}
		e.old.Chain = append(e.old.Chain, ChainLink{Kind: LinkSupersededBy, Claim: e.new.ID, Date: date, From: e.from})
		e.new.Chain = append(e.new.Chain, ChainLink{Kind: LinkSupersedes, Claim: e.old.ID, Date: date, From: e.from})
	}
	// Whole chains, oldest first: every path from a claim nothing
	// supersedes to a claim nothing replaces.
	hasPred := map[*Claim]bool{}
	for _, ns := range succ {
		for _, n := range ns {
			hasPred[n] = true
		}
	}
	var walk func(path []*Claim)
	walk = func(path []*Claim) {
		last := path[len(path)-1]
		if len(succ[last]) == 0 {
			ch := Chain{}
			for _, c := range path {
				ch.Claims = append(ch.Claims, c.ID)
				ch.Dates = append(ch.Dates, c.Created)
			}
			a.res.Chains = append(a.res.Chains, ch)
			return
		}
		for _, n := range succ[last] {
			walk(append(append([]*Claim(nil), path...), n))
		}
	}
	for _, c := range a.claims {
		if len(succ[c]) > 0 && !hasPred[c] {
			walk([]*Claim{c})
		}
	}
}

// metaEdges reads supersededBy/supersedes of memory-meta.json, reporting
// ids that name no meta entry.
func (a *analyzer) metaEdges() []edge {
	if a.ws.Meta == nil {
		return nil
	}
	var out []edge
	file := a.ws.Meta.File.Path
	for _, m := range a.ws.Meta.Entries {
		line := a.metaLine(m.ID)
		for _, ref := range []struct {
			id       string
			field    string
			replaced bool // ref.id replaced m
		}{{m.SupersededBy, "supersededBy", true}, {m.Supersedes, "supersedes", false}} {
			if ref.id == "" {
				continue
			}
			if a.metaByID[ref.id] == nil {
				a.findings.Add(metaOrphan(file, line, "fix or remove the reference",
					"%s of %s names %s, which memory-meta.json does not have", ref.field, m.ID, ref.id))
				continue
			}
			this, other := a.claimOfMID[m.ID], a.claimOfMID[ref.id]
			if this == nil || other == nil {
				continue // the unmatched entry is reported once, as meta-orphan
			}
			e := edge{old: this, new: other, from: "meta", file: file, line: line}
			if !ref.replaced {
				e.old, e.new = other, this
			}
			out = append(out, e)
		}
	}
	return out
}

// metaLine finds the line of a meta entry's id in memory-meta.json.
func (a *analyzer) metaLine(id string) int {
	if a.ws.Meta == nil || a.ws.Meta.File == nil || id == "" {
		return 0
	}
	content := a.ws.Meta.File.Content
	k := strings.Index(content, `"`+id+`"`)
	if k < 0 {
		return 0
	}
	return strings.Count(content[:k], "\n") + 1
}

// observationEdges reads USER.md-style observation blocks: a block marked
// "status: superseded" is replaced by the next block of the same section
// that is not. Each side is matched to the claim that says the same.
func (a *analyzer) observationEdges() []edge {
	var out []edge
	for _, b := range a.ws.Bootstrap {
		if len(b.Observations) == 0 {
			continue
		}
		lines := mdline.Split(b.File.Content)
		section := func(ln int) string {
			for i := min(ln, len(lines)) - 1; i >= 0; i-- {
				if t := strings.TrimSpace(lines[i]); headingLevel(t) > 0 {
					return t
				}
			}
			return ""
		}
		for i, o := range b.Observations {
			if !strings.EqualFold(o.Status, "superseded") {
				continue
			}
			var next *workspace.Observation
			for _, n := range b.Observations[i+1:] {
				if section(n.Line) == section(o.Line) && !strings.EqualFold(n.Status, "superseded") {
					next = n
					break
				}
			}
			if next == nil {
				continue
			}
			old, _, ok1 := a.findClaim(o.Text, 0.45, nil)
			cur, _, ok2 := a.findClaim(next.Text, 0.45, func(c *Claim) bool { return c.Origin != OriginArchive })
			if !ok1 || !ok2 || old == cur {
				continue
			}
			out = append(out, edge{old: old, new: cur, date: dates.Day(next.Observed), from: "user", file: b.File.Path, line: o.Line})
		}
	}
	return out
}

// latest is the newest date a claim is known by: its newest evidence, or
// its creation.
func latest(c *Claim) time.Time {
	t := c.Created
	for _, ev := range c.Evidence {
		if ev.Date.After(t) {
			t = ev.Date
		}
	}
	return t
}

// settleStatus sets each claim's status from what is known by now.
func (a *analyzer) settleStatus() {
	for _, c := range a.claims {
		switch {
		case len(c.SupersededBy()) > 0:
			c.Status = StatusSuperseded
		case c.Origin == OriginArchive:
			c.Status = StatusArchived
		case c.Entry != nil && c.Entry.Status == "superseded":
			c.Status = StatusSuperseded
		case len(c.Contests) > 0:
			c.Status = StatusContested
		default:
			c.Status = StatusCurrent
		}
		sort.Strings(c.Contests)
	}
}
