package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

// ClaimRef names a claim and where it stands.
type ClaimRef struct {
	ID       string  `json:"id"`
	Text     string  `json:"text"`
	Status   string  `json:"status"`
	Tier     string  `json:"tier"`
	Decay    float64 `json:"decay"`
	Evidence int     `json:"evidence"`
	Citation string  `json:"citation"`
	Lapsed   bool    `json:"lapsed,omitempty"`
}

func refOf(c *provenance.Claim) *ClaimRef {
	return &ClaimRef{ID: c.ID, Text: c.Text, Status: string(c.Status), Tier: string(c.Tier), Decay: c.Scores.Decay,
		Evidence: len(c.Evidence), Citation: memsearch.Citation(c.File, c.Line, c.EndLine), Lapsed: c.Lapsed()}
}

// WhyIn is memory_why's input.
type WhyIn struct {
	Claim string `json:"claim" jsonschema:"a claim id (claim.…, as memory_search gives it) or a sentence to match to the closest claim"`
}

// WhyOut explains one claim.
type WhyOut struct {
	Claim ClaimRef `json:"claim"`
	// Matched says how the claim was found: "id", or the word overlap of
	// the sentence given with the claim's text.
	Matched string `json:"matched"`
	// Why is the support in one line.
	Why        string     `json:"why"`
	Type       string     `json:"type"`
	Section    string     `json:"section,omitempty"`
	Created    string     `json:"created,omitempty"`
	Recalls    int        `json:"recalls"`
	LastRecall string     `json:"last_recalled,omitempty"`
	Evidence   []Evidence `json:"evidence"`
	// Supersedes and SupersededBy are the supersession chain next to it.
	Supersedes   []Link      `json:"supersedes,omitempty"`
	SupersededBy []Link      `json:"superseded_by,omitempty"`
	Contests     []ClaimRef  `json:"contested_by,omitempty"`
	Dreams       []DreamRef  `json:"dreams,omitempty"`
	Others       []*ClaimRef `json:"other_matches,omitempty"`
}

// Evidence is one line that supports a claim.
type Evidence struct {
	Citation   string  `json:"citation,omitempty"`
	Kind       string  `json:"kind"`
	Method     string  `json:"method"`
	Confidence float64 `json:"confidence"`
	Date       string  `json:"date,omitempty"`
	Excerpt    string  `json:"excerpt,omitempty"`
	// Private evidence is in a note that is not published: it counts,
	// but neither its place nor its text is shown.
	Private bool `json:"private,omitempty"`
}

// Link is a neighbour in a supersession chain.
type Link struct {
	ClaimRef
	Date string `json:"date,omitempty"`
}

// DreamRef is a dream that touched a claim, or a dream in a list.
type DreamRef struct {
	Slug    string `json:"slug"`
	Date    string `json:"date"`
	Heading string `json:"heading,omitempty"`
	// Did is what the dream did to the claim: promoted, superseded or
	// archived.
	Did string `json:"did,omitempty"`
}

// minMatch is the word overlap a sentence needs with a claim's text for
// memory_why to take it as that claim.
const minMatch = 0.2

func (t *tools) why(ctx context.Context, _ *sdk.CallToolRequest, in WhyIn) (*sdk.CallToolResult, WhyOut, error) {
	q := strings.TrimSpace(in.Claim)
	if q == "" {
		return nil, WhyOut{}, errors.New("claim is empty: give a claim id (claim.…) or a sentence")
	}
	if err := t.settle(ctx); err != nil {
		return nil, WhyOut{}, err
	}
	prov := t.src.Provenance()
	c, how, others := findClaim(prov, q)
	if c == nil {
		return nil, WhyOut{}, errors.New("no claim matches that text; use memory_search to find the words memory uses, then pass a claim id")
	}
	out := WhyOut{Claim: *refOf(c), Matched: how, Why: summary(c), Type: string(c.MemoryType), Section: c.Section,
		Created: day(c.Created), Recalls: c.Recalls, LastRecall: day(c.LastRecall), Evidence: []Evidence{}, Others: others}
	for _, e := range c.Evidence {
		if e.Private {
			out.Evidence = append(out.Evidence, Evidence{Kind: string(e.Kind), Method: string(e.Method), Confidence: e.Confidence, Private: true})
			continue
		}
		out.Evidence = append(out.Evidence, Evidence{Citation: e.Citation(), Kind: string(e.Kind), Method: string(e.Method),
			Confidence: e.Confidence, Date: day(e.Date), Excerpt: e.Excerpt})
	}
	for _, l := range c.Chain {
		o := prov.Claim(l.Claim)
		if o == nil {
			continue
		}
		link := Link{ClaimRef: *refOf(o), Date: day(l.Date)}
		if l.Kind == provenance.LinkSupersedes {
			out.Supersedes = append(out.Supersedes, link)
		} else {
			out.SupersededBy = append(out.SupersededBy, link)
		}
	}
	for _, id := range c.Contests {
		if o := prov.Claim(id); o != nil {
			out.Contests = append(out.Contests, *refOf(o))
		}
	}
	for _, d := range prov.Dreams {
		if !slices.Contains(c.Dreams, d.Slug) {
			continue
		}
		ref := dreamRef(d)
		switch {
		case slices.Contains(d.Promoted, c.ID):
			ref.Did = "promoted"
		case slices.Contains(d.Superseded, c.ID):
			ref.Did = "superseded"
		case slices.Contains(d.Archived, c.ID):
			ref.Did = "archived"
		}
		out.Dreams = append(out.Dreams, ref)
	}
	return nil, out, nil
}

// findClaim finds the claim q names: by id, else the claim whose text
// shares most words with q. others are the next best matches.
func findClaim(prov *provenance.Result, q string) (*provenance.Claim, string, []*ClaimRef) {
	if c := prov.Claim(q); c != nil {
		return c, "id", nil
	}
	if c := prov.Claim("claim." + q); c != nil {
		return c, "id", nil
	}
	words := analysis.WordSet(q)
	if len(words) == 0 {
		return nil, "", nil
	}
	type scored struct {
		c *provenance.Claim
		s float64
	}
	var best []scored
	for _, c := range prov.Claims {
		s := analysis.Jaccard(words, analysis.WordSet(c.Text))
		if s >= minMatch {
			best = append(best, scored{c, s})
		}
	}
	if len(best) == 0 {
		return nil, "", nil
	}
	// Ties go to the claim that stands (current before superseded), then
	// to workspace order, so the answer is the same every time.
	slices.SortStableFunc(best, func(a, b scored) int {
		if a.s != b.s {
			if a.s > b.s {
				return -1
			}
			return 1
		}
		return rank(a.c) - rank(b.c)
	})
	var others []*ClaimRef
	for _, o := range best[1:min(len(best), 4)] {
		others = append(others, refOf(o.c))
	}
	return best[0].c, fmt.Sprintf("text (word overlap %.2f)", best[0].s), others
}

func rank(c *provenance.Claim) int {
	if c.Status == provenance.StatusCurrent {
		return 0
	}
	return 1
}

// summary says in one line why the claim is believed.
func summary(c *provenance.Claim) string {
	n, newest, private := 0, time.Time{}, 0
	for _, e := range c.Evidence {
		n++
		if e.Private {
			private++
		}
		if e.Date.After(newest) {
			newest = e.Date
		}
	}
	var b strings.Builder
	switch n {
	case 0:
		b.WriteString("No evidence: nothing in the logs supports this claim")
	case 1:
		b.WriteString("Supported by 1 source")
	default:
		fmt.Fprintf(&b, "Supported by %d sources", n)
	}
	if private > 0 {
		fmt.Fprintf(&b, " (%d private)", private)
	}
	if !newest.IsZero() {
		fmt.Fprintf(&b, ", newest %s", day(newest))
	}
	switch {
	case len(c.SupersededBy()) > 0 || c.Status == provenance.StatusSuperseded:
		b.WriteString("; superseded, so history rather than current")
	case c.Status == provenance.StatusContested:
		b.WriteString("; contested by another claim")
	case c.Lapsed():
		b.WriteString("; a permission that has lapsed")
	}
	fmt.Fprintf(&b, "; tier %s, decay %.2f, recalled %d times.", c.Tier, c.Scores.Decay, c.Recalls)
	return b.String()
}

func dreamRef(d *provenance.Dream) DreamRef {
	return DreamRef{Slug: d.Slug, Date: day(d.Date), Heading: d.Heading}
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

// claimIndex finds the claim a search result's lines state.
type claimIndex map[string][]*provenance.Claim

func claimsAt(prov *provenance.Result) claimIndex {
	ix := claimIndex{}
	if prov == nil {
		return ix
	}
	for _, c := range prov.Claims {
		ix[c.File] = append(ix[c.File], c)
	}
	return ix
}

// at returns the claim whose entry overlaps lines start to end of path,
// nil when none does.
func (ix claimIndex) at(path string, start, end int) *provenance.Claim {
	for _, c := range ix[path] {
		if c.Line <= end && c.EndLine >= start {
			return c
		}
	}
	return nil
}
