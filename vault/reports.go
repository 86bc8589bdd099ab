package vault

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// Report notes: the lint dashboards of DESIGN 4.1.
const (
	ReportLint       = ReportsFolder + "/lint.md"
	ReportNoEvidence = ReportsFolder + "/claims-without-evidence.md"
	ReportContested  = ReportsFolder + "/contested-claims.md"
	ReportStale      = ReportsFolder + "/stale-claims.md"
	ReportLapsed     = ReportsFolder + "/lapsed-permissions.md"
	ReportBudget     = ReportsFolder + "/memory-budget.md"
)

// reportLines bounds what a report lists. A publisher parses each note
// whole: reports that listed all of a 2,191-note workspace's findings
// (25 MB) kept Quartz busy for over 20 minutes.
const reportLines = 500

// reportInputs are the lint dashboards: one overview and one note per kind
// of finding a person acts on.
//
// Reports are public notes even in a vault that keeps private files
// ([vault] include_private, where those are marked publish: false), so
// nothing about a claim or finding in a private file appears in them.
func reportInputs(res *provenance.Result, locate func(string) string, private func(string) bool) []Input {
	claimLink := func(c *provenance.Claim) string {
		return wikilink(noteTarget(ClaimPath(c)), clipText(c.Title, 90))
	}
	where := func(c *provenance.Claim) string {
		t := noteTarget(locate(c.File))
		if c.Block != "" {
			t += "#^" + c.Block
		}
		return citeLink(t, c.File, fmt.Sprintf(":%d", c.Line))
	}
	with := func(code string) []*provenance.Claim {
		var out []*provenance.Claim
		for _, c := range res.Claims {
			if c.Private {
				continue
			}
			for _, f := range c.Findings {
				if f == code {
					out = append(out, c)
					break
				}
			}
		}
		return out
	}
	report := func(p, title, intro string, body []string) Input {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n%s\n\n", title, intro)
		if len(body) == 0 {
			b.WriteString("Nothing to report.\n")
		}
		shown := body[:min(len(body), reportLines)]
		for _, l := range shown {
			b.WriteString(l + "\n")
		}
		if more := len(body) - len(shown); more > 0 {
			fmt.Fprintf(&b, "\n%d more lines are not listed here; `dreamwiki check` lists every finding.\n", more)
		}
		b.WriteString("\nBack to " + wikilink(noteTarget(ReportLint), "the lint overview") + ".\n")
		b.WriteString(humanSection)
		var props Props
		props.Set("type", "report")
		props.Set("title", title)
		props.Set("count", len(body))
		return Input{Path: p, Kind: KindReport, Text: b.String(), Props: props}
	}

	var noEv []string
	for _, c := range with("claim-no-evidence") {
		noEv = append(noEv, fmt.Sprintf("- %s, %s", claimLink(c), where(c)))
	}
	var contested []string
	for _, ct := range res.Contests {
		older, newer := res.Claim(ct.Older), res.Claim(ct.Newer)
		if older == nil || newer == nil || older.Private || newer.Private {
			continue
		}
		contested = append(contested, fmt.Sprintf("- %s (%s) says otherwise than %s (%s), which has the newer evidence",
			claimLink(older), where(older), claimLink(newer), where(newer)))
	}
	var stale []string
	for _, c := range with("claim-stale") {
		stale = append(stale, fmt.Sprintf("- %s, %s: decay %.2f, tier %s, %d recalls", claimLink(c), where(c), c.Scores.Decay, c.Tier, c.Recalls))
	}
	var lapsed, standing []string
	for _, c := range res.Claims {
		pm := c.Permission
		if pm == nil || c.Status == provenance.StatusSuperseded || c.Private {
			continue
		}
		line := fmt.Sprintf("- %s, %s: expires %s", claimLink(c), where(c), pm.Expires.Format("2006-01-02"))
		if pm.Lapsed {
			lapsed = append(lapsed, line+" — **lapsed**")
		} else {
			standing = append(standing, line)
		}
	}
	var permLines []string
	permLines = append(permLines, lapsed...)
	if len(standing) > 0 {
		permLines = append(permLines, "", "Still in force on "+res.AsOf.Format("2006-01-02")+":", "")
		permLines = append(permLines, standing...)
	}

	var budget []string
	if b := res.Budget; b != nil {
		row := func(what string, n, limit int) {
			if limit <= 0 {
				budget = append(budget, fmt.Sprintf("| %s | %d | — | — |", what, n))
				return
			}
			state := "within"
			if n > limit {
				state = "**over**"
			}
			budget = append(budget, fmt.Sprintf("| %s | %d | %d (%d%%) | %s |", what, n, limit, 100*n/limit, state))
		}
		budget = append(budget, "| measure | MEMORY.md | limit (used) | |", "|---|---|---|---|")
		row("characters", b.Chars, b.MaxChars)
		if b.TargetChars > 0 {
			row("characters (dream target)", b.Chars, b.TargetChars)
		}
		row("lines", b.Lines, b.MaxLines)
		row("bytes", b.Bytes, b.MaxBytes)
	}

	// The overview: counts by finding, then every finding.
	var findings diag.List
	for _, f := range res.Findings {
		if !private(f.File) {
			findings = append(findings, f)
		}
	}
	counts := map[string]int{}
	for _, f := range findings {
		counts[f.Code]++
	}
	if len(noEv) > 0 {
		// One finding counts them for the workspace; the overview counts
		// the claims.
		counts["claim-no-evidence"] = len(noEv)
	}
	var overview []string
	overview = append(overview, "| finding | count | report |", "|---|---|---|")
	reportOf := map[string]string{
		"claim-no-evidence": ReportNoEvidence, "claim-contested": ReportContested, "claim-stale": ReportStale,
		"permission-lapsed": ReportLapsed, "memory-budget": ReportBudget,
	}
	codes := make([]string, 0, len(counts))
	for c := range counts {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, code := range codes {
		r := "—"
		if p := reportOf[code]; p != "" {
			r = wikilink(noteTarget(p), strings.TrimSuffix(p[len(ReportsFolder)+1:], ".md"))
		}
		overview = append(overview, fmt.Sprintf("| %s | %d | %s |", code, counts[code], strings.ReplaceAll(r, "|", `\|`)))
	}
	if len(findings) > 0 {
		overview = append(overview, "", "## Every finding", "")
		for _, f := range findings {
			overview = append(overview, "- "+escapeText(findingText(f)))
		}
	}
	lint := report(ReportLint, "Lint", fmt.Sprintf("What `dreamwiki check` found in the workspace's memory on %s: %d findings, %d claims. Secrets found in the workspace are not listed here: `dreamwiki check` reports them to you, and where they are is never published.",
		res.AsOf.Format("2006-01-02"), len(findings), len(res.Claims)), overview)
	lint.Props.Set("count", len(findings))
	return []Input{
		lint,
		report(ReportNoEvidence, "Claims without evidence", "Entries of MEMORY.md and the topic files that no pointer, recall or log line supports. Nothing was invented for them: add a `Source:` pointer, or let them go.", noEv),
		report(ReportContested, "Contested claims", "Pairs of claims that give one subject different values with no recorded supersession. Both stay contested until one is confirmed (`dreamwiki supersede`).", contested),
		report(ReportStale, "Stale claims", "Claims contradicted by newer evidence, or decayed below the archive threshold.", stale),
		report(ReportLapsed, "Lapsed permissions", "Permissions past their expiry: once granted, never a standing green light. Ask again before acting on them.", permLines),
		report(ReportBudget, "MEMORY.md budget", "MEMORY.md is loaded into every session, so it is kept within a budget counted in characters (DESIGN 5.3).", budget),
	}
}

func findingText(d diag.Diagnostic) string {
	return d.Error()
}
