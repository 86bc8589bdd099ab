package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// printReport writes the per-workspace table and each set's totals as
// Markdown, dev and held-out apart.
func printReport(out io.Writer, results []*result) {
	for _, set := range []string{"dev", "heldout"} {
		var rows []*result
		for _, r := range results {
			if r.Set == set {
				rows = append(rows, r)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(out, "\n### %s\n\n", map[string]string{"dev": "Development workspaces", "heldout": "Held-out workspaces"}[set])
		fmt.Fprintln(out, "| workspace | lang | notes | dream s | check s | promoted (dream says) | promoted precision | curated moved / annotated / rewritten / deleted / reordered | other lines altered | dated files (lines) | unsourced lines added | to-dos touched | events off-shape | claims | claim precision | contradictions | contradiction precision | evidence precision | evidence coverage | warnings |")
		fmt.Fprintln(out, "|---|---|--:|--:|--:|--:|---|---|--:|---|--:|--:|--:|--:|---|--:|---|---|---|--:|")
		tot := &result{Workspace: "**total**", ByCode: map[string]int{}, JunkBy: map[string]int{}}
		for _, r := range rows {
			if r.Err != "" {
				fmt.Fprintf(out, "| %s | %s | | | | | error: %s |\n", r.Workspace, r.Lang, r.Err)
				continue
			}
			row(out, r)
			tot.Notes += r.Notes
			tot.DreamSeconds += r.DreamSeconds
			tot.CheckSeconds += r.CheckSeconds
			tot.DreamCount += r.DreamCount
			tot.Promoted.add(r.Promoted)
			tot.Moved += r.Moved
			tot.Annotated += r.Annotated
			tot.Rewritten += r.Rewritten
			tot.Deleted += r.Deleted
			tot.Reordered += r.Reordered
			tot.Other += r.Other
			tot.DatedF += r.DatedF
			tot.DatedL += r.DatedL
			tot.Todos += r.Todos
			tot.Unsourced += r.Unsourced
			tot.EventsOff += r.EventsOff
			tot.Claims.add(r.Claims)
			tot.Contradictions.add(r.Contradictions)
			tot.Evidence.add(r.Evidence)
			tot.CuratedClaims += r.CuratedClaims
			tot.WithEvidence += r.WithEvidence
			tot.Warnings += r.Warnings
			tot.ToLabel += r.ToLabel
			for k, v := range r.JunkBy {
				tot.JunkBy[k] += v
			}
			for k, v := range r.ByCode {
				tot.ByCode[k] += v
			}
		}
		row(out, tot)
		if len(tot.JunkBy) > 0 {
			fmt.Fprintf(out, "\nPromoted lines labelled junk, by category: %s\n", counts(tot.JunkBy))
		}
		fmt.Fprintf(out, "\nWarnings by code: %s\n", counts(tot.ByCode))
		fmt.Fprintf(out, "\nItems waiting for a label: %d\n", tot.ToLabel)
	}
}

func row(out io.Writer, r *result) {
	cov := "–"
	if r.CuratedClaims > 0 {
		cov = fmt.Sprintf("%.2f (%d/%d)", float64(r.WithEvidence)/float64(r.CuratedClaims), r.WithEvidence, r.CuratedClaims)
	}
	fmt.Fprintf(out, "| %s | %s | %d | %.1f | %.1f | %d (%d) | %s | %d / %d / %d / %d / %d | %d | %d (%d) | %d | %d | %d | %d | %s | %d | %s | %s | %s | %d |\n",
		r.Workspace, r.Lang, r.Notes, r.DreamSeconds, r.CheckSeconds, r.Promoted.Found, r.DreamCount, r.Promoted.precision(),
		r.Moved, r.Annotated, r.Rewritten, r.Deleted, r.Reordered, r.Other, r.DatedF, r.DatedL, r.Unsourced, r.Todos, r.EventsOff,
		r.Claims.Found, r.Claims.precision(), r.Contradictions.Found, r.Contradictions.precision(), r.Evidence.precision(), cov, r.Warnings)
}

// counts is "a 3, b 2", largest first.
func counts(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var s []kv
	for k, v := range m {
		if k == "" {
			k = "(none)"
		}
		s = append(s, kv{k, v})
	}
	sort.Slice(s, func(i, j int) bool {
		if s[i].v != s[j].v {
			return s[i].v > s[j].v
		}
		return s[i].k < s[j].k
	})
	var parts []string
	for _, e := range s {
		parts = append(parts, fmt.Sprintf("%s %d", e.k, e.v))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
