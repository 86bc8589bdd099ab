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
func archiveDecayed(entries []*curated, arch archive, lg *ledger) {
	for _, c := range entries {
		if c.fresh || c.u == nil || c.isGone() || c.table || c.pointer || c.preamble || c.structural || c.pinned() || c.meta == nil {
			continue
		}
		if c.decay.Tier != memory.TierArchived || len(c.u.entries) != 1 {
			continue
		}
		arch.add(c, c.u.lines, fmt.Sprintf("decayed: score %s < 0.1, %d recalls", fmtScore(c.decay.Score), c.meta.RecallCount))
		lg.action(Action{Kind: "archive", File: c.file, Text: shorten(c.text, 160),
			Reason: fmt.Sprintf("decayed out: score %s < 0.1 with %d recalls (< 2), created %s, not structural; moved to %s",
				fmtScore(c.decay.Score), c.meta.RecallCount, dateOr(c.meta.Created, "unknown"), arch.path()),
			Scores: &Scores{Decay: decayScores(c.decay)}})
		lg.counts.Archived++
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

// fitBudget keeps MEMORY.md within its budget by sinking detail into L2
// files (DESIGN 5.3): whole entries move, lowest value first (not
// structural, lowest decay score, longest), and the section keeps one
// pointer line per L2 file they went to. Nothing is deleted. If that is not
// enough, the new index lines of this run are left out (their facts are in
// L2 already), and whatever still does not fit is reported.
func fitBudget(mem *curatedMemory, files *fileSet, target Budget, lg *ledger) {
	cur := sizeOf(mem.memDoc.render())
	if target.fits(cur) {
		return
	}
	est := cur
	for _, u := range sinkOrder(mem) {
		if target.fits(est) {
			cur = sizeOf(mem.memDoc.render())
			if target.fits(cur) {
				break
			}
			est = cur
		}
		removed := strings.Join(u.lines, "\n") + "\n"
		added := sink(mem, files, u, lg)
		est.Chars += utf8.RuneCountInString(added) - utf8.RuneCountInString(removed)
		est.Bytes += len(added) - len(removed)
		est.Lines += strings.Count(added, "\n") - strings.Count(removed, "\n")
	}
	cur = sizeOf(mem.memDoc.render())
	if !target.fits(cur) {
		cur = dropIndexLines(mem, target, lg)
	}
	if !target.fits(cur) {
		lg.warn(mem.memDoc.path, "MEMORY.md is still over its budget (%s > %s) after moving every entry that can move to L2 files; what is left are index lines and lines holding a secret, which never move",
			thousands(cur.Chars)+" chars", target.String())
	}
}

// sinkOrder is the index's entries that may sink into L2 files, in the
// order they go: lowest value first (not structural, lowest decay score,
// longest), the preamble under the title last. Pointers and lines holding
// a secret never move.
func sinkOrder(mem *curatedMemory) []*unit {
	var sinkable []*unit
	for _, u := range mem.memDoc.units {
		if u.gone || u.pinned || u.cur == nil || mem.allPointers(u) {
			continue
		}
		sinkable = append(sinkable, u)
	}
	score := func(u *unit) float64 {
		s := 1.0
		if c := u.cur; c != nil && c.meta != nil {
			s = c.meta.Score
		}
		return s
	}
	structural := func(u *unit) bool { return u.cur != nil && u.cur.structural }
	size := func(u *unit) int { return utf8.RuneCountInString(strings.Join(u.lines, "\n")) }
	slices.SortStableFunc(sinkable, func(a, b *unit) int {
		if sa, sb := structural(a), structural(b); sa != sb {
			if sa {
				return 1
			}
			return -1
		}
		if a.sec.line != b.sec.line && (a.sec.level == 1 || b.sec.level == 1 || a.sec.line == 0 || b.sec.line == 0) {
			// The preamble under the title goes last: it says what the file is.
			if a.sec.level == 1 || a.sec.line == 0 {
				return 1
			}
			if b.sec.level == 1 || b.sec.line == 0 {
				return -1
			}
		}
		if sa, sb := score(a), score(b); sa != sb {
			if sa < sb {
				return -1
			}
			return 1
		}
		if za, zb := size(a), size(b); za != zb {
			return zb - za
		}
		return a.start - b.start
	})
	return sinkable
}

// dropIndexLines leaves out this run's new index lines, lowest promotion
// score first, until the index fits its budget: only lines whose fact
// also went to an L2 file, so nothing is lost. It returns the index's
// size after.
func dropIndexLines(mem *curatedMemory, target Budget, lg *ledger) Size {
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
	for _, pl := range fresh {
		if mem.fitsL2(pl.c) {
			pl.dropped, pl.block.dropped = true, true
			lg.counts.Indexed--
			if cur = sizeOf(mem.memDoc.render()); target.fits(cur) {
				break
			}
		}
	}
	return cur
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

// allPointers reports a unit that is nothing but index lines.
func (m *curatedMemory) allPointers(u *unit) bool {
	for _, e := range u.entries {
		if !m.isPointer(e) {
			return false
		}
	}
	return true
}

// sink moves a MEMORY.md entry into an L2 file and leaves a pointer to it
// in its section. It returns the text the pointer line adds to MEMORY.md.
func sink(mem *curatedMemory, files *fileSet, u *unit, lg *ledger) string {
	tp, how := sinkTarget(mem, files, u, lg)
	dup := true
	for _, e := range u.entries {
		if !mem.topicHolds(tp, e.Text) {
			dup = false
		}
	}
	if !dup {
		b := newBlock(stripComments(u.lines)...)
		if sec, after := sinkSection(tp, u); after != nil {
			after.after = append(after.after, b)
		} else {
			sec.inserts = append(sec.inserts, b)
		}
		for _, w := range u.cur.words {
			tp.words[w]++
		}
	}
	u.remove()
	for _, c := range mem.curated {
		if c.u == u {
			c.sunk = true
			if c.meta != nil {
				c.meta.File = tp.path
			}
		}
	}
	lg.counts.Sunk++
	reason := "MEMORY.md over budget; moved " + how
	if dup {
		reason = "MEMORY.md over budget; " + tp.path + " already holds it, so the index line goes"
	}
	lg.action(Action{Kind: "sink", File: tp.path, Text: shorten(u.cur.text, 160), Reason: reason})
	// One pointer per section and L2 file.
	for _, other := range u.sec.units {
		if !other.gone && (strings.Contains(strings.Join(other.lines, "\n"), tp.path) || strings.Contains(strings.Join(other.lines, "\n"), "[["+tp.slug+"]]")) {
			return ""
		}
	}
	for _, b := range u.sec.inserts {
		if !b.dropped && strings.Contains(strings.Join(b.lines, "\n"), "see "+tp.path) {
			return ""
		}
	}
	name := u.sec.heading
	if name == "" || u.sec.level == 1 {
		name = "index"
	}
	line := fmt.Sprintf("- More %s entries: see %s", name, tp.path)
	u.sec.inserts = append(u.sec.inserts, newBlock(line))
	return line + "\n"
}

// sinkTarget picks the L2 file a MEMORY.md entry moves to: the file it
// points to, else the topic whose vocabulary it shares, else a file named
// for its MEMORY.md section (a new file, opened in files).
func sinkTarget(mem *curatedMemory, files *fileSet, u *unit, lg *ledger) (*topic, string) {
	for _, e := range u.entries {
		for _, s := range e.Sources {
			switch s.Kind {
			case workspace.PointerSee, workspace.PointerWikilink, workspace.PointerLink, workspace.PointerPath:
				if t := mem.resolveTopic(s.Path); t != "" {
					return mem.topicByPath[t], "to " + t + ", which it points to"
				}
			}
		}
	}
	// Vocabulary decides only among the files that were there before: a
	// file this run started for a section's detail is no topic of its own.
	pseudo := &candidate{raw: strings.Join(u.lines, "\n"), words: u.cur.words}
	if tp, why := mem.route(pseudo); tp != nil && !tp.isNew {
		return tp, "to " + tp.path + ": " + why
	}
	s := slug(u.sec.heading)
	if s == "" || u.sec.level == 1 {
		s = "notes"
	}
	path := "memory/" + s + ".md"
	for n := 2; ; n++ {
		if tp := mem.topicByPath[path]; tp != nil {
			return tp, "to " + path + ", the file for its section"
		}
		if !files.taken(path) && isTopicPath(path) {
			break
		}
		path = fmt.Sprintf("memory/%s-%d.md", s, n)
	}
	title := u.sec.heading
	if title == "" || u.sec.level == 1 {
		title = "Notes"
	}
	tp := &topic{path: path, slug: strings.TrimSuffix(strings.TrimPrefix(path, "memory/"), ".md"), title: title, words: map[string]int{}, names: map[string]bool{}, isNew: true}
	tp.name(title)
	tp.doc = newEmptyDoc(path)
	tp.doc.lines = []string{"# " + title}
	tp.doc.sections[0].end = 1
	files.docs[path] = tp.doc
	mem.topics = append(mem.topics, tp)
	mem.topicByPath[path] = tp
	lg.counts.NewTopics++
	lg.action(Action{Kind: "new-topic", File: path, Text: title, Reason: "detail sunk from MEMORY.md § " + u.sec.heading})
	return tp, "to " + path + ", a new file for its section"
}

// sinkSection is where a sunk entry goes in its L2 file: a section with
// the MEMORY.md section's name, else where spot puts a fact of its type
// and words (after is set when it goes right after that entry).
func sinkSection(tp *topic, u *unit) (sec *mdSection, after *unit) {
	if u.sec.heading != "" && u.sec.level > 1 {
		if s := tp.doc.section(u.sec.heading); s != nil {
			if s.isNew {
				return s, nil
			}
			if after := tp.doc.openListEnd(s); after != nil {
				return s, after
			}
		}
	}
	if tp.isNew {
		h := u.sec.heading
		if h == "" || u.sec.level == 1 {
			h = "Notes"
		}
		return tp.doc.addSection(h, 2), nil
	}
	return tp.doc.spot(u.cur.typ, u.cur.words)
}

// topicHolds reports whether an L2 file already has an entry containing
// the text (compared normalised).
func (m *curatedMemory) topicHolds(tp *topic, text string) bool {
	n := normText(text)
	if n == "" {
		return false
	}
	for _, c := range m.curated {
		if c.file == tp.path && !c.isGone() && c.e != nil && strings.Contains(normText(c.text), n) {
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
