package main

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// checked is what `dreamwiki check` finds in the workspace after the
// dream, and the items sampled from it for labelling.
type checked struct {
	Claims, CuratedClaims, WithEvidence int // curated: from MEMORY.md or a topic file
	Contradictions                      int
	EvidenceLinks                       int
	Warnings, Errors                    int
	ByCode                              map[string]int // warnings and errors by code
	Duration                            time.Duration
	Sample                              []Item // claims, contradictions, evidence links
}

// runCheck reads the workspace as `dreamwiki check` does (build.Load, the
// same model and findings) and samples claims, contradictions and evidence
// links: per kind the n items with the lowest SHA-256 of seed and key, so
// a sample is the same on every run and an item stays in it whatever else
// changes.
func runCheck(ctx context.Context, dir, ws string, asOf time.Time, snap *snapshot, seed string, n int) (*checked, error) {
	start := time.Now()
	m, err := build.Load(ctx, build.Options{Workspace: dir, AsOf: asOf})
	if err != nil {
		return nil, err
	}
	rep := m.Report(build.Options{Workspace: dir, AsOf: asOf})
	c := &checked{Duration: time.Since(start), ByCode: map[string]int{}}
	for _, d := range rep.Diagnostics {
		switch d.Severity {
		case diag.Warning:
			c.Warnings++
		case diag.Error:
			c.Errors++
		default:
			continue
		}
		c.ByCode[d.Code]++
	}
	prov := m.Provenance
	raw := func(cl *provenance.Claim) string {
		ls := snap.lines[cl.File]
		if cl.Line < 1 || cl.Line > len(ls) {
			return cl.Text
		}
		end := min(max(cl.EndLine, cl.Line), len(ls))
		var parts []string
		for _, l := range ls[cl.Line-1 : end] {
			if t := norm(l); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	}
	var claims, links, contests []Item
	for _, cl := range prov.Claims {
		c.Claims++
		r := raw(cl)
		if cl.Origin == provenance.OriginIndex || cl.Origin == provenance.OriginTopic {
			c.CuratedClaims++
			if len(cl.Evidence) > 0 {
				c.WithEvidence++
			}
		}
		claims = append(claims, Item{Workspace: ws, Path: cl.File, KeyPath: pathKey(cl.File), Key: sha(r), Kind: KindClaim, Text: r})
		for _, ev := range cl.Evidence {
			c.EvidenceLinks++
			where := ev.Citation()
			text := "CLAIM: " + r + "\nEVIDENCE " + where + ": " + ev.Excerpt
			links = append(links, Item{Workspace: ws, Path: cl.File + " <- " + where, KeyPath: pathKey(cl.File),
				Key: sha(r + "\x00" + ev.Path + "\x00" + norm(ev.Excerpt)), Kind: KindEvidence, Text: text})
		}
	}
	for _, ct := range prov.Contests {
		a, b := prov.Claim(ct.Older), prov.Claim(ct.Newer)
		if a == nil || b == nil {
			continue
		}
		c.Contradictions++
		ra, rb := raw(a), raw(b)
		lo, hi := ra, rb
		if lo > hi {
			lo, hi = hi, lo
		}
		text := "SUBJECT: " + ct.Subject + "\nA (" + a.File + "): " + ra + "\nB (" + b.File + "): " + rb
		contests = append(contests, Item{Workspace: ws, Path: a.File + " | " + b.File, KeyPath: pathKey(a.File),
			Key: sha(lo + "\x00" + hi), Kind: KindContradiction, Text: text})
	}
	for _, group := range [][]Item{claims, contests, links} {
		c.Sample = append(c.Sample, sample(group, seed, n)...)
	}
	return c, nil
}

// sample returns the n items of the lowest SHA-256 of seed and key, each
// key once.
func sample(items []Item, seed string, n int) []Item {
	seen := map[string]bool{}
	var uniq []Item
	for _, it := range items {
		if !seen[it.Key] {
			seen[it.Key] = true
			uniq = append(uniq, it)
		}
	}
	rank := func(it Item) string { return sha(seed + "\x00" + it.Workspace + "\x00" + it.Key) }
	sort.Slice(uniq, func(i, j int) bool { return rank(uniq[i]) < rank(uniq[j]) })
	if len(uniq) > n {
		uniq = uniq[:n]
	}
	return uniq
}
