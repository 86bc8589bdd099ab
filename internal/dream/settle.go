package dream

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// materialize writes the new facts into their documents, now that every
// candidate's final state (merged evidence, closing, superseding) is known.
func materialize(placements []*placement) {
	for _, pl := range placements {
		b := newBlock(pl.c.lines(pl.tag)...)
		pl.block = b
		switch {
		case pl.replaceU != nil:
			pl.replaceU.after = append(pl.replaceU.after, b)
		case pl.afterU != nil:
			pl.afterU.after = append(pl.afterU.after, b)
		default:
			pl.sec.inserts = append(pl.sec.inserts, b)
		}
	}
}

// archiveDecayed moves entries whose decay fell to the archived tier
// (score < 0.1 and fewer than 2 recalls, never structural ones, DESIGN
// 5.1) to memory/archive/YYYY-MM.md.
//
// Only the dream's own lines go: an author's line that decayed stays where
// its author put it, and the dream reports how many there are (#23 rule 2).
func archiveDecayed(entries []*curated, arch archive, lg *ledger) {
	var theirs []string
	first := ""
	for _, c := range entries {
		if c.fresh || c.u == nil || c.isGone() || c.table || c.pointer || c.preamble || c.structural || c.pinned() || c.meta == nil {
			continue
		}
		if c.decay.Tier != memory.TierArchived || len(c.u.entries) != 1 {
			continue
		}
		if !c.dreams() {
			if first == "" {
				first = c.file
			}
			theirs = append(theirs, c.at())
			continue
		}
		arch.add(c, c.u.lines, fmt.Sprintf("decayed: score %s < 0.1, %d recalls", fmtScore(c.decay.Score), c.meta.RecallCount))
		lg.action(Action{Kind: "archive", File: c.file, Text: shorten(c.text, 160),
			Reason: fmt.Sprintf("decayed out: score %s < 0.1 with %d recalls (< 2), created %s, not structural; moved to %s",
				fmtScore(c.decay.Score), c.meta.RecallCount, dateOr(c.meta.Created, "unknown"), arch.path()),
			Scores: &Scores{Decay: decayScores(c.decay)}})
		lg.counts.Archived++
	}
	if n := len(theirs); n > 0 {
		at := strings.Join(theirs[:min(n, 5)], ", ")
		if n > 5 {
			at += ", …"
		}
		lg.warn(first, "%d curated %s decayed below the archive threshold (%s); a dream archives only lines it wrote, so %s where %s author put %s",
			n, plural(n, "line", "lines"), at, plural(n, "it stays", "they stay"), plural(n, "its", "their"), plural(n, "it", "them"))
	}
}

// archive is this month's archive file, opened in files when the first
// entry goes there.
type archive struct {
	files *fileSet
	day   time.Time
}

// path is this month's archive file.
func (a archive) path() string { return "memory/archive/" + a.day.Format("2006-01") + ".md" }

// doc opens (or starts) this month's archive file.
func (a archive) doc() *mdDoc {
	path := a.path()
	if d := a.files.docs[path]; d != nil {
		return d
	}
	var d *mdDoc
	if f := a.files.ws.FileByPath(path); f != nil {
		d = newPlainDoc(path, f.Content, a.files.read(f))
	} else {
		d = newEmptyDoc(path)
		d.lines = []string{"# Archive — " + a.day.Format("January 2006")}
		d.sections[0].end = 1
	}
	a.files.docs[path] = d
	return d
}

// add moves an entry's lines (with a marker where superseded) to the
// archive, under a heading for today, with a comment saying where it came
// from and why.
func (a archive) add(c *curated, lines []string, why string) {
	d := a.doc()
	heading := "Archived " + a.day.Format(time.DateOnly)
	sec := d.section(heading)
	if sec == nil {
		sec = d.addSection(heading, 2)
	}
	from := c.file
	if c.section != "" {
		from += " § " + c.section
	}
	comment := fmt.Sprintf("<!-- from: %s | %s -->", strings.ReplaceAll(from, "--", "—"), why)
	block := append([]string{comment}, stripComments(lines)...)
	sec.inserts = append(sec.inserts, newBlock(block...))
	c.u.remove()
	c.archived = true
	if c.meta != nil {
		c.meta.File = a.path()
		if why != "superseded" {
			c.meta.Tier = string(memory.TierArchived)
		}
	}
}

// stripComments drops whole-line comments that only carried dreamwiki's own
// provenance for the old place, keeping promotion comments (evidence).
func stripComments(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "<!-- from:") && strings.HasSuffix(t, "-->") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// Budget is MEMORY.md's size target (DESIGN 5.3): characters, not bytes,
// and lines or bytes when those are configured.
type Budget struct {
	Chars int `json:"chars"`
	Lines int `json:"lines,omitempty"`
	Bytes int `json:"bytes,omitempty"`
}

// Size is a file's size.
type Size struct {
	Chars int `json:"chars"`
	Lines int `json:"lines"`
	Bytes int `json:"bytes"`
}

func sizeOf(b []byte) Size {
	s := Size{Chars: utf8.RuneCount(b), Bytes: len(b)}
	if len(b) > 0 {
		s.Lines = strings.Count(string(b), "\n")
		if b[len(b)-1] != '\n' {
			s.Lines++
		}
	}
	return s
}

func (b Budget) fits(s Size) bool {
	return (b.Chars <= 0 || s.Chars <= b.Chars) && (b.Lines <= 0 || s.Lines <= b.Lines) && (b.Bytes <= 0 || s.Bytes <= b.Bytes)
}

func (b Budget) String() string {
	parts := []string{}
	if b.Chars > 0 {
		parts = append(parts, thousands(b.Chars)+" chars")
	}
	if b.Lines > 0 {
		parts = append(parts, thousands(b.Lines)+" lines")
	}
	if b.Bytes > 0 {
		parts = append(parts, thousands(b.Bytes)+" bytes")
	}
	return strings.Join(parts, ", ")
}

// budget derives the target: TargetPct of the character headroom, and of
// the line and byte limits when dreamwiki.toml (b) or MEMORY.md's own size
// header (m, nil without one) sets them (the tighter one wins).
func budget(b workspace.BudgetConfig, m *workspace.MemoryIndex) Budget {
	pct := b.TargetPct
	if pct <= 0 || pct > 100 {
		pct = 80
	}
	out := Budget{Chars: b.MaxChars * pct / 100}
	lines, bytes := b.MaxLines, b.MaxBytes
	if m != nil && m.Limit != nil {
		if m.Limit.MaxLines > 0 && (lines == 0 || m.Limit.MaxLines < lines) {
			lines = m.Limit.MaxLines
		}
		if m.Limit.MaxBytes > 0 && (bytes == 0 || m.Limit.MaxBytes < bytes) {
			bytes = m.Limit.MaxBytes
		}
		if m.Limit.MaxChars > 0 && (out.Chars == 0 || m.Limit.MaxChars*pct/100 < out.Chars) {
			out.Chars = m.Limit.MaxChars * pct / 100
		}
	}
	out.Lines = lines * pct / 100
	out.Bytes = bytes * pct / 100
	return out
}

// fitBudget keeps the dream's own additions to MEMORY.md within its
// budget (DESIGN 5.3, #23 rule 2). The budget is the window of MEMORY.md
// the agent sees each turn, not a limit on the file: a dream never moves,
// trims or rewrites a line it did not write to make room ("a naive system
// that trims memory to fit by editing the file would quietly destroy real
// knowledge"). When this run's index lines take MEMORY.md over its budget,
// they are left out, lowest promotion score first, until it fits; an
// index over its budget before the dream (before) gets none of them, and
// a report saying so.
func fitBudget(mem *curatedMemory, before Size, target Budget, lg *ledger) {
	cur := sizeOf(mem.memDoc.render())
	if target.fits(cur) {
		return
	}
	already := mem.memDoc.exists && !target.fits(before)
	n, cur := dropIndexLines(mem, target, already, lg)
	switch {
	case already:
		lg.warn(mem.memDoc.path, "MEMORY.md is over its budget already (%s > %s); a dream never trims or moves its lines to fit (the budget is how much of it the agent sees, not a limit on the file), so it added no index line (%d left out) and changed none of its lines; shorten it, or move detail into topic files, by hand",
			sizeText(before, target), target.String(), n)
	case !target.fits(cur):
		lg.warn(mem.memDoc.path, "MEMORY.md is over its budget (%s > %s) with this dream's lines that could not be left out; none of its own lines was moved or changed",
			sizeText(cur, target), target.String())
	}
}

// sizeText is a size in the units a budget counts.
func sizeText(s Size, b Budget) string {
	var parts []string
	if b.Chars > 0 || b.Lines <= 0 && b.Bytes <= 0 {
		parts = append(parts, thousands(s.Chars)+" chars")
	}
	if b.Lines > 0 {
		parts = append(parts, thousands(s.Lines)+" lines")
	}
	if b.Bytes > 0 {
		parts = append(parts, thousands(s.Bytes)+" bytes")
	}
	return strings.Join(parts, ", ")
}

// dropIndexLines leaves out this run's new index lines, lowest promotion
// score first, until the index fits its budget (all of them when all is
// set): the dream drops its own proposals, never its author's lines. A
// fact that has no line in an L2 file either is reported as left out. It
// returns how many lines it left out and the index's size after.
func dropIndexLines(mem *curatedMemory, target Budget, all bool, lg *ledger) (int, Size) {
	var fresh []*placement
	for _, pl := range mem.placements {
		if pl.index && pl.block != nil && !pl.dropped {
			fresh = append(fresh, pl)
		}
	}
	slices.SortStableFunc(fresh, func(a, b *placement) int {
		if a.score < b.score {
			return -1
		}
		if a.score > b.score {
			return 1
		}
		return 0
	})
	cur := sizeOf(mem.memDoc.render())
	n := 0
	for _, pl := range fresh {
		if !all && target.fits(cur) {
			break
		}
		pl.dropped, pl.block.dropped = true, true
		n++
		lg.counts.Indexed--
		if !mem.fitsL2(pl.c) {
			lg.counts.Promoted--
			lg.skip(pl.c, fmt.Sprintf("left out of MEMORY.md, which is over its budget (%s): a dream drops its own lowest-scored lines (score %s), never its author's",
				target.String(), fmtScore(pl.score)))
		}
		cur = sizeOf(mem.memDoc.render())
	}
	return n, cur
}

// fitsL2 reports whether a fact also has a line in an L2 file, so leaving
// its MEMORY.md line out loses nothing.
func (m *curatedMemory) fitsL2(c *candidate) bool {
	for _, cur := range m.fresh[c] {
		if cur.file != m.memDoc.path && !cur.isGone() {
			return true
		}
	}
	return false
}

var reLastDream = regexp.MustCompile(`((?i:last dream)\s*[:：]\s*|上次整理\s*[:：]\s*)\d{4}-\d{2}-\d{2}`)

// updateHeader moves the "last dream" date of the index's size header to
// day, when the index changes anyway (a dream that changes nothing else
// leaves the file alone, so a repeated dream is a no-op). An index the
// dream starts gets a header saying its limit (target at targetPct).
// idx is the workspace's reading of the index (nil without one).
func updateHeader(doc *mdDoc, idx *workspace.MemoryIndex, target Budget, targetPct int, day time.Time) {
	if !doc.exists {
		if doc.changed() {
			doc.lines = []string{"# MEMORY.md", "", fmt.Sprintf("> limit: %s chars | last dream: %s", thousands(target.Chars*100/max(targetPct, 1)), day.Format(time.DateOnly))}
			doc.sections[0].end = len(doc.lines)
		}
		return
	}
	if !doc.changed() || idx == nil || idx.Limit == nil {
		return
	}
	for l := idx.Limit.Line; l >= 1 && l <= len(doc.lines); l++ {
		line := doc.lines[l-1]
		if _, quote := mdline.Quote(strings.TrimSpace(line)); !quote && l > idx.Limit.Line {
			break
		}
		if reLastDream.MatchString(line) {
			doc.lineRepl[l] = reLastDream.ReplaceAllString(line, "${1}"+day.Format(time.DateOnly))
			break
		}
	}
}

// thousands formats 16000 as "16,000".
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
