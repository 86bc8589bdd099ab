package vault

import (
	"fmt"
	"path"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// dreamInput is the note of one dream run: what it says, as written, then
// the claims it promoted, superseded and archived and the logs it read.
func dreamInput(d *provenance.Dream, res *provenance.Result, locate func(string) string) Input {
	var p Props
	p.Set("type", "dream")
	p.Set("kind", d.Kind)
	p.Set("date", dateValue(d.Date))
	if !d.ConsolidatedThrough.IsZero() {
		p.Set("consolidated_through", dateValue(d.ConsolidatedThrough))
	}
	p.Set("promoted", claimLinks(res, d.Promoted))
	p.Set("superseded", claimLinks(res, d.Superseded))
	p.Set("archived", claimLinks(res, d.Archived))
	p.Set("source", fmt.Sprintf("%s#L%d", d.File, d.Line))

	var b strings.Builder
	title := "Dream " + d.Date.Format("2006-01-02")
	if d.HasTime {
		title += " " + d.Date.Format("15:04")
	}
	if d.Kind == "diary" {
		title += " (dream diary)"
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "From %s.\n\n", citeLink(noteTarget(locate(d.File)), d.File, fmt.Sprintf(", line %d", d.Line)))
	if body := strings.TrimSpace(d.Body); body != "" {
		b.WriteString(body)
		b.WriteString("\n")
	}
	list := func(heading string, ids []string) {
		var lines []string
		for _, id := range ids {
			if c := res.Claim(id); c != nil {
				lines = append(lines, "- "+wikilink(noteTarget(ClaimPath(c)), clipText(c.Title, 80)))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", heading, strings.Join(lines, "\n"))
		}
	}
	list("Promoted", d.Promoted)
	list("Superseded", d.Superseded)
	list("Archived", d.Archived)
	if len(d.Items) > 0 {
		b.WriteString("\n## Items\n\n")
		for _, it := range d.Items {
			line := "- " + escapeText(it.Text)
			if c := res.Claim(it.Claim); c != nil {
				line += " → " + wikilink(noteTarget(ClaimPath(c)), "claim")
			}
			var facts []string
			if it.Status != "" {
				facts = append(facts, it.Status)
			}
			if it.Confidence > 0 {
				facts = append(facts, fmt.Sprintf("confidence %.2f", it.Confidence))
			}
			if it.Recalls > 0 {
				facts = append(facts, fmt.Sprintf("%d recalls", it.Recalls))
			}
			if len(facts) > 0 {
				line += " (" + strings.Join(facts, ", ") + ")"
			}
			b.WriteString(line + "\n")
			for _, ev := range it.Evidence {
				b.WriteString("  - " + evidenceLine(ev) + "\n")
			}
		}
	}
	if len(d.Logs) > 0 {
		b.WriteString("\n## Logs consolidated\n\n")
		for i, l := range d.Logs {
			if i > 0 {
				b.WriteString(" · ")
			}
			b.WriteString(wikilink(noteTarget(locate(l)), strings.TrimSuffix(path.Base(l), ".md")))
		}
		b.WriteString("\n")
	}
	b.WriteString(humanSection)
	return Input{Path: DreamPath(d), Kind: KindDream, Text: b.String(), Props: p, Date: d.Date.Format("2006-01-02"),
		From: d.File, Dream: d}
}
