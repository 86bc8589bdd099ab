package vault

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// HumanStart and HumanEnd fence the text a person adds to a generated
// note; it is carried over when the vault is rebuilt.
const (
	HumanStart = "<!-- human:start -->"
	HumanEnd   = "<!-- human:end -->"
)

// humanSection ends every generated note: a place for a person's notes.
const humanSection = "\n## Notes\n\n" + HumanStart + "\n" + HumanEnd + "\n"

// claimInput is the note of one claim: the front matter of DESIGN 4.1,
// then the claim, its evidence as quoted excerpts with links to the exact
// blocks, its chain, the dreams that touched it, and its scores.
func claimInput(c *provenance.Claim, res *provenance.Result, locate func(string) string) Input {
	var p Props
	p.Set("id", c.ID)
	p.Set("type", "claim")
	p.Set("memory_type", string(c.MemoryType))
	p.Set("status", string(c.Status))
	p.Set("tier", string(c.Tier))
	p.Set("decay", c.Scores.Decay)
	p.Set("recalls", c.Recalls)
	p.Set("created", dateValue(c.Created))
	p.Set("last_recalled", dateValue(c.LastRecall))
	p.Set("evidence", evidenceLinks(c))
	p.Set("supersedes", claimLinks(res, c.Supersedes()))
	p.Set("superseded_by", claimLinks(res, c.SupersededBy()))
	p.Set("tags", claimTags(c))
	p.Set("aliases", claimAliases(c))
	p.Set("source", fmt.Sprintf("%s#L%d", c.File, c.Line))
	if c.Lifecycle != "" {
		p.Set("lifecycle", c.Lifecycle)
	}
	if c.Permission != nil {
		p.Set("expires", dateValue(c.Permission.Expires))
		p.Set("lapsed", c.Permission.Lapsed)
	}
	if len(c.Contests) > 0 {
		p.Set("contests", claimLinks(res, c.Contests))
	}

	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", escapeText(c.Title))
	callout, label := "note", string(c.MemoryType)+" · "+string(c.Status)+" · "+string(c.Tier)
	switch {
	case c.Lapsed():
		callout, label = "warning", label+" · lapsed"
	case c.Status == provenance.StatusContested:
		callout = "warning"
	case c.Status == provenance.StatusSuperseded || c.Status == provenance.StatusArchived:
		callout = "quote"
	}
	fmt.Fprintf(&b, "> [!%s] %s\n> %s\n\n", callout, label, escapeText(c.Text))
	from := noteTarget(locate(c.File))
	if c.Block != "" {
		from += "#^" + c.Block
	}
	b.WriteString("Written in " + citeLink(from, c.File, fmt.Sprintf(", line %d", c.Line)))
	if c.Section != "" {
		b.WriteString(" (" + escapeText(c.Section) + ")")
	}
	b.WriteString(".\n")

	b.WriteString("\n## Evidence\n\n")
	if len(c.Evidence) == 0 {
		b.WriteString("No evidence: no pointer, recall or log line in the workspace supports this claim. It is listed in " +
			wikilink(ReportsFolder+"/claims-without-evidence", "claims without evidence") + ".\n")
	}
	for _, ev := range c.Evidence {
		b.WriteString("- " + evidenceLine(ev) + "\n")
		switch {
		case ev.Private:
			b.WriteString("  > (from a private note; not shown)\n")
		case ev.Excerpt != "":
			b.WriteString("  > " + escapeText(ev.Excerpt) + "\n")
		}
	}

	if len(c.Chain) > 0 || len(c.Contests) > 0 {
		b.WriteString("\n## Chain\n\n")
		for _, l := range c.Chain {
			other := res.Claim(l.Claim)
			if other == nil {
				continue
			}
			verb := "Supersedes"
			if l.Kind == provenance.LinkSupersededBy {
				verb = "Superseded by"
			}
			fmt.Fprintf(&b, "- %s %s", verb, wikilink(noteTarget(ClaimPath(other)), clipText(other.Title, 80)))
			var notes []string
			if !l.Date.IsZero() {
				notes = append(notes, l.Date.Format("2006-01-02"))
			}
			notes = append(notes, "recorded in "+chainSource(l.From))
			fmt.Fprintf(&b, " (%s)\n", strings.Join(notes, ", "))
		}
		for _, id := range c.Contests {
			if other := res.Claim(id); other != nil {
				fmt.Fprintf(&b, "- Contradicts %s: contested until one of them is confirmed.\n",
					wikilink(noteTarget(ClaimPath(other)), clipText(other.Title, 80)))
			}
		}
	}

	if len(c.Dreams) > 0 {
		b.WriteString("\n## Dreams\n\n")
		for _, slug := range c.Dreams {
			fmt.Fprintf(&b, "- %s\n", wikilink(DreamsFolder+"/"+slug, "Dream "+slug))
		}
	}

	b.WriteString("\n## Scores\n\n")
	s := c.Scores
	fmt.Fprintf(&b, "- Decay %.2f (age %.2f + recalls %.2f + recency %.2f), tier %s", s.Decay, s.Base, s.Recall, s.Recency, c.Tier)
	if c.Structural {
		b.WriteString(", structural (never below 0.3)")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "- Recalled %d times", c.Recalls)
	if !c.LastRecall.IsZero() {
		fmt.Fprintf(&b, ", last on %s", c.LastRecall.Format("2006-01-02"))
	}
	if !c.Created.IsZero() {
		fmt.Fprintf(&b, "; created %s", c.Created.Format("2006-01-02"))
	}
	fmt.Fprintf(&b, "; evaluated on %s\n", res.AsOf.Format("2006-01-02"))
	if s.Promotion > 0 {
		fmt.Fprintf(&b, "- Promotion score %.3f\n", s.Promotion)
	}
	if s.Importance > 0 {
		fmt.Fprintf(&b, "- Importance %d\n", s.Importance)
	}
	if pm := c.Permission; pm != nil {
		state := "in force"
		if pm.Lapsed {
			state = "**lapsed**: ask again before acting on it"
		}
		fmt.Fprintf(&b, "- Permission expiring %s: %s\n", pm.Expires.Format("2006-01-02"), state)
	}
	if c.Lifecycle != "" {
		fmt.Fprintf(&b, "- Lifecycle: %s\n", c.Lifecycle)
	}
	b.WriteString(humanSection)
	return Input{Path: ClaimPath(c), Kind: KindClaim, Text: b.String(), Props: p, Private: c.Private,
		Date: dateString(c.Created), Claim: c}
}

// evidenceLine is one evidence item: a link to the block and how it was found.
func evidenceLine(ev provenance.Evidence) string {
	how := methodLabel(ev.Method)
	if ev.Note == "" {
		// A private note left out: that it exists is all that is told.
		return fmt.Sprintf("a private note — %s, confidence %.2f", how, ev.Confidence)
	}
	where := ""
	if ev.StartLine > 0 {
		if ev.EndLine > ev.StartLine {
			where = fmt.Sprintf(", lines %d–%d", ev.StartLine, ev.EndLine)
		} else {
			where = fmt.Sprintf(", line %d", ev.StartLine)
		}
	}
	if ev.Pointer != "" {
		how += " `" + strings.ReplaceAll(ev.Pointer, "`", "'") + "`"
	}
	return fmt.Sprintf("%s — %s, confidence %.2f", citeLink(ev.Target(), ev.Path, where), how, ev.Confidence)
}

// citeLink links to a place in a workspace file, cited by its path: the
// folder is written before the link rather than in its text, as
// "memory/[[sources/daily/2026-09-17#^e5|2026-09-17.md, line 5]]", since
// Quartz shows only the last part of a link text that holds a "/".
func citeLink(target, file, where string) string {
	dir, base := path.Split(file)
	return escapeText(dir) + wikilink(target, base+where)
}

func methodLabel(m provenance.Method) string {
	switch {
	case m.IsPointer():
		return "written pointer"
	case m == provenance.MethodDream:
		return "dream evidence"
	case m == provenance.MethodRecall:
		return "recalled line (recall store)"
	case m == provenance.MethodEvent:
		return "recalled line (recall event)"
	case m == provenance.MethodExact:
		return "same text"
	case m == provenance.MethodSubstring:
		return "text contained"
	}
	return "word overlap"
}

func chainSource(from string) string {
	switch from {
	case "meta":
		return "memory-meta.json"
	case "user":
		return "USER.md"
	case "dream-log":
		return "the dream log"
	}
	return from
}

// evidenceLinks are the front matter evidence links: each block, then the
// dreams that promoted the claim.
func evidenceLinks(c *provenance.Claim) []string {
	out := []string{}
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, "[["+t+"]]")
		}
	}
	for _, ev := range c.Evidence {
		if ev.Note != "" { // a private note left out has none to link to
			add(ev.Target())
		}
	}
	for _, d := range c.Dreams {
		add(DreamsFolder + "/" + d)
	}
	return out
}

func claimLinks(res *provenance.Result, ids []string) []string {
	out := []string{}
	for _, id := range ids {
		if c := res.Claim(id); c != nil {
			out = append(out, "[["+noteTarget(ClaimPath(c))+"]]")
		}
	}
	return out
}

func claimTags(c *provenance.Claim) []string {
	tags := []string{"memory/" + string(c.MemoryType)}
	if c.Lapsed() {
		tags = append(tags, "memory/lapsed")
	}
	if c.Status == provenance.StatusContested {
		tags = append(tags, "memory/contested")
	}
	return tags
}

// claimAliases are the name a claim goes by, for Obsidian's [[ completion
// and a publisher's redirects: the first cell of its table row, or the
// key of its "Key: value" line that links nowhere. A claim's whole text
// is never an alias (DESIGN 4.1 showed one; issue #21 found them a
// publisher's root folder's worth of redirects), and neither is a bold
// title, which already names the claim's file. publishing keeps only the
// aliases every reader can use.
func claimAliases(c *provenance.Claim) []string {
	name := ""
	if e := c.Entry; e != nil {
		switch e.Shape {
		case workspace.ShapeTableRow:
			if len(e.Cells) > 1 {
				name = e.Cells[0]
			}
		case workspace.ShapeKeyValue:
			// "Related: [[x]]" points elsewhere; its key names nothing.
			if !strings.Contains(e.Raw, "[[") && !strings.Contains(e.Raw, "](") {
				name, _, _ = strings.Cut(e.Text, ": ")
			}
		}
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, strings.TrimSpace(c.Text)) || !aliasOK(name) {
		return []string{}
	}
	return []string{name}
}

// dateValue is a date property: YYYY-MM-DD written as a YAML date, as
// Obsidian's property editor writes it, or empty when unknown.
func dateValue(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

func dateString(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

// textEscaper escapes what would turn generated text into structure:
// links, tags, block ids, comments, highlights, HTML, emphasis and math.
// The text still reads the same once rendered.
var textEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`,
	"#", `\#`, "|", `\|`, "^", `\^`, "%%", `\%\%`, "==", `\=\=`, "~~", `\~\~`, "$", `\$`,
	"\n", " ",
)

// escapeText makes text safe to write as prose: a wikilink in it (an
// excerpt quotes the line as written) is reduced to the text it shows,
// since Quartz makes a live link of an escaped \[\[x\]\] too, and the
// rest is escaped.
func escapeText(s string) string {
	if strings.Contains(s, "[[") {
		s = wikilinkRe.ReplaceAllStringFunc(s, shownText)
	}
	return textEscaper.Replace(s)
}

// wikilinkRe finds what any reader may take for a wikilink or embed.
var wikilinkRe = regexp.MustCompile(`!?\[\[([^\[\]]*)\]\]`)

// shownText is the text a wikilink shows: its label, else its target with
// each heading after " > ", as Obsidian shows it.
func shownText(link string) string {
	inner := link[strings.Index(link, "[[")+2 : len(link)-2]
	if i := strings.LastIndexByte(inner, '|'); i >= 0 {
		return strings.TrimSpace(inner[i+1:])
	}
	parts := strings.Split(inner, "#")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " > ")
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}
