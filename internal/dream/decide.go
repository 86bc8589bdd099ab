package dream

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// sensed is what the collect phase makes of the logs: the candidate facts,
// oldest first, the lines left out with why, and the secrets they hold.
type sensed struct {
	cands   []*candidate
	skipped []Skip
	secrets []SecretFinding
}

// sense extracts the candidates of the selected logs, and adds the facts
// of older logs that searches found often enough to pass the promotion
// gates (the recall store's deep phase), which a dream must not ignore
// just because their log was consolidated before. A line curated memory
// already cites as its source is consolidated, and left out.
func sense(ws *workspace.Workspace, sel *selection, logs []*workspace.DailyLog, mem *curatedMemory, sc scorer) sensed {
	var s sensed
	inBatch := map[string]bool{}
	// Reading a line is independent of every other line: do it on all
	// cores, then go through the results in order.
	type job struct {
		log  *workspace.DailyLog
		it   workspace.LogItem
		c    *candidate
		skip *Skip
	}
	var jobs []*job
	files := make([]*workspace.File, len(sel.inputs))
	for i, log := range sel.inputs {
		files[i] = log.File
		for _, it := range log.Items {
			jobs = append(jobs, &job{log: log, it: it})
		}
	}
	found := secretsOf(files)
	parallel.For(len(jobs), runtime.GOMAXPROCS(0), func(i int) {
		jobs[i].c, jobs[i].skip = newCandidate(i, jobs[i].log, jobs[i].it, found[jobs[i].log.File])
	})
	take := func(c *candidate, skip *Skip, note string) {
		if c != nil {
			c.id = len(s.cands)
		}
		if skip != nil {
			s.skipped = append(s.skipped, *skip)
			return
		}
		s.secrets = append(s.secrets, c.secrets...)
		if by := mem.citedBy(c.path, c.line, c.endLine); by != nil {
			s.skipped = append(s.skipped, Skip{File: c.path, Line: c.line, Text: shorten(c.fact, 80),
				Reason: fmt.Sprintf("already consolidated: %s cites this line as its source", by.file)})
			return
		}
		if note != "" {
			c.notes = append(c.notes, note)
		}
		s.cands = append(s.cands, c)
	}
	next := 0
	for _, log := range sel.inputs {
		inBatch[log.File.Path] = true
		for range log.Items {
			j := jobs[next]
			next++
			take(j.c, j.skip, "")
		}
		for _, b := range log.Sleep {
			s.skipped = append(s.skipped, Skip{File: log.File.Path, Line: b.StartLine,
				Text: strings.Title(b.Name) + " Sleep block", Reason: "dreaming phase output inside a daily log, not a fact"})
		}
	}
	// Messages the conversation digests cite, then recalled facts of
	// earlier logs.
	for _, ci := range conversationItems(ws, sel) {
		if found[ci.log.File] == nil {
			found[ci.log.File] = newFileSecrets(ci.log.File)
		}
		c, skip := newCandidate(len(s.cands), ci.log, ci.it, found[ci.log.File])
		take(c, skip, "from a conversation digest")
	}
	s.addRecalled(logs, inBatch, mem, sc)
	sortCandidates(s.cands)
	return s
}

// addRecalled adds the recalled facts of logs outside the batch (inBatch)
// that pass the promotion gates and no earlier dream promoted.
func (s *sensed) addRecalled(logs []*workspace.DailyLog, inBatch map[string]bool, mem *curatedMemory, sc scorer) {
	byPath := map[string]*workspace.DailyLog{}
	for _, d := range logs {
		byPath[d.File.Path] = d
	}
	var paths []string
	for path := range sc.rec.aggs {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		log := byPath[path]
		if log == nil || inBatch[path] {
			continue
		}
		var found *fileSecrets
		for _, it := range log.Items {
			if len(sc.rec.forRange(path, it.Line, max(it.EndLine, it.Line))) == 0 {
				continue
			}
			if found == nil {
				found = newFileSecrets(log.File)
			}
			c, skip := newCandidate(len(s.cands), log, it, found)
			if skip != nil || mem.citedBy(c.path, c.line, c.endLine) != nil {
				continue
			}
			if d, _, promoted := sc.promotion(c); !d.Promote || promoted {
				continue
			}
			c.notes = append(c.notes, "from the recall store")
			s.secrets = append(s.secrets, c.secrets...)
			s.cands = append(s.cands, c)
		}
	}
}

// groupDuplicates folds the batch's repeats into their first statement
// before anything is decided, so a fact's promotion sees how often the logs
// state it (its frequency across logs) and all its evidence travels with
// it. A later line that adds to an earlier one is no repeat and stays.
// It returns the candidates kept and a merge action for each repeat.
func groupDuplicates(cands []*candidate) (kept []*candidate, merges []Action) {
	idx := newWordIndex()
	same := map[string]*candidate{} // the same text: no need to compare words
	for _, c := range cands {
		key := string(c.status) + "\x00" + normText(stripDateSuffix(c.fact))
		into := same[key]
		if into == nil {
			for _, id := range idx.candidates(c.words, 300) {
				k := kept[id]
				if k.status == c.status && nearDuplicate(c.words, k.words, c.nums, k.nums) {
					into = k
					break
				}
			}
		}
		if into != nil {
			into.addEvidence(c.evidence...)
			if into.marker == "" {
				into.marker = c.marker
			}
			merges = append(merges, Action{Kind: "merge", File: c.path, Text: shorten(c.fact, 160), Type: c.typ, Evidence: evidenceStrings(c.evidence),
				Reason: fmt.Sprintf("says again what %s:%d says; one fact, both lines kept as its evidence", into.path, into.line)})
			continue
		}
		idx.add(len(kept), c.words)
		same[key] = c
		kept = append(kept, c)
	}
	return kept, merges
}

// decider places a batch's candidates in curated memory. It changes mem
// (the placements, merged evidence, closings and supersessions) and the
// archive, and reports each decision to lg.
type decider struct {
	mem   *curatedMemory
	score scorer
	arch  archive
	lg    *ledger
	now   time.Time
	logs  int // daily logs in the batch
}

// decide settles every candidate, oldest first, against curated memory as
// it stands after the earlier ones: a later line can merge into, close or
// supersede what an earlier line of the same batch wrote. Durable facts no
// topic file is clearly about go to the index.
func (d decider) decide(ctx context.Context, cands []*candidate) {
	for _, c := range cands {
		if ctx.Err() != nil {
			return
		}
		if !d.decideOne(c) {
			decision, _, promotedBefore := d.score.promotion(c)
			d.accept(c, nil, c.routeNote, nil, decision, promotedBefore, &Scores{Promotion: promotionScores(decision)})
		}
	}
}

// decideOne handles a candidate; false means it is a durable fact that
// found no L2 topic yet.
func (d decider) decideOne(c *candidate) bool {
	lg, mem := d.lg, d.mem
	decision, _, promotedBefore := d.score.promotion(c)
	scores := &Scores{Promotion: promotionScores(decision)}
	recalled := decision.Promote && !promotedBefore

	// Lifecycle: closed work stays closed.
	if c.status == memory.StatusOpen {
		if done := mem.findLifecycle(c, memory.StatusClosed); done != nil {
			lg.skip(c, fmt.Sprintf("closed work stays closed: %s:%d already marks it done", done.file, done.line()))
			return true
		}
	}
	if c.status == memory.StatusClosed {
		if open := mem.findLifecycle(c, memory.StatusOpen); open != nil && !open.pinned() {
			if !open.dreams() {
				lg.skip(c, fmt.Sprintf("it may finish the to-do at %s, which stays as its author wrote it: a dream never ticks, dates or annotates a to-do", open.at()))
				return true
			}
			closeEntry(open, c)
			lg.action(Action{Kind: "close", File: open.file, Text: c.fact, Old: shorten(open.text, 120), Type: c.typ,
				Evidence: evidenceStrings(c.evidence), Reason: "the log says the open item is finished; closed with this date and evidence", Scores: scores})
			lg.counts.Closed++
			return true
		}
	}
	if dup := mem.findDuplicate(c); dup != nil && dup.pinned() {
		lg.skip(c, fmt.Sprintf("already kept at %s:%d, whose line holds a secret and is left as it is (no evidence added)", dup.file, dup.line()))
		return true
	} else if dup != nil && !dup.dreams() {
		lg.skip(c, fmt.Sprintf("already kept at %s, the author's line, which is left as it is (a dream adds no Source to it)", dup.at()))
		if recalled && dup.file != mem.memDoc.path && !mem.inMemory(dup) {
			d.placeIndex(c, nil, nil, decision)
		}
		return true
	} else if dup != nil {
		merge(dup, c)
		lg.action(Action{Kind: "merge", File: dup.file, Text: shorten(dup.text, 160), Type: c.typ, Evidence: evidenceStrings(c.evidence),
			Reason: "near-duplicate of an entry already kept; its evidence was added to that entry", Scores: scores})
		lg.counts.Merged++
		if recalled && dup.file != mem.memDoc.path && !mem.inMemory(dup) {
			d.placeIndex(c, nil, nil, decision)
		}
		return true
	}
	if o := mem.restates(c); o != nil && !o.dreams() {
		lg.skip(c, fmt.Sprintf("the log says again what %s says, the author's line, which is left as it is (a dream adds no Source to it)", o.at()))
		return true
	} else if o != nil {
		merge(o, c)
		lg.action(Action{Kind: "merge", File: o.file, Text: shorten(o.text, 160), Type: c.typ, Evidence: evidenceStrings(c.evidence),
			Reason: "the log says it again (a restatement of an entry already kept); its evidence was added to that entry", Scores: scores})
		lg.counts.Merged++
		return true
	}
	keep, skip := durability(c, recalled, d.logs)
	if promotedBefore {
		keep, skip = "", "an earlier dream promoted it already (the recall store says so)"
	}
	if keep == "" {
		lg.skip(c, skip)
		return true
	}
	c.notes = append([]string{keep}, c.notes...)
	tp, why := mem.route(c)
	old := mem.findContradictions(c, tp)
	for _, o := range mem.replaced(c) {
		if !slices.Contains(old, o) {
			old = append(old, o)
		}
	}
	for _, o := range old {
		if !o.dreams() {
			// A user line is superseded only by a choice: `dreamwiki
			// supersede`, or a person picking this proposal.
			lg.skip(c, fmt.Sprintf("it would replace %s, the author's line, which a dream never supersedes (run `dreamwiki supersede` to choose)", o.at()))
			return true
		}
	}
	if tp == nil && len(old) > 0 {
		for _, o := range old {
			if t := mem.topicByPath[o.file]; t != nil && !t.dated {
				tp, why = t, "the fact it replaces is in "+o.file
				break
			}
		}
	}
	if tp == nil && len(old) == 0 {
		c.routeNote = why
		return false
	}
	d.accept(c, tp, why, old, decision, promotedBefore, scores)
	return true
}

// accept writes a new fact: into its topic file (when it has one), into
// MEMORY.md when it passed the promotion gates, superseding the entries it
// contradicts.
func (d decider) accept(c *candidate, tp *topic, why string, old []*curated, decision memory.Decision, promotedBefore bool, scores *Scores) {
	lg := d.lg
	c.annotatePermission(d.now)
	var memOld, l2Old []*curated
	for _, o := range old {
		if o.file == d.mem.memDoc.path {
			memOld = append(memOld, o)
		} else {
			l2Old = append(l2Old, o)
		}
	}
	if tp != nil {
		var after *unit
		for _, o := range l2Old {
			if o.file == tp.path && o.u != nil {
				after = o.u
				break
			}
		}
		d.mem.placeL2(c, tp, after)
		reason := "new fact; " + why
		if len(c.notes) > 0 {
			reason += "; " + strings.Join(c.notes, ", ")
		}
		lg.action(Action{Kind: "promote", File: tp.path, Text: c.fact, Type: c.typ, Evidence: evidenceStrings(c.evidence), Reason: reason, Scores: scores})
		lg.counts.Promoted++
	}
	indexed := false
	switch {
	case len(memOld) > 0 && !o0MultiFact(memOld):
		// The new fact takes the old one's place in the index, written the
		// way the old one was (with or without a type tag).
		d.placeIndex(c, memOld[0].u, nil, decision)
		indexed = true
	case len(memOld) > 0:
		// The old entry says more than what changed: it stays, marked, and
		// the new fact follows it.
		d.placeIndex(c, nil, memOld[0].u, decision)
		indexed = true
	case tp == nil || decision.Promote && !promotedBefore:
		d.placeIndex(c, nil, nil, decision)
		indexed = true
	}
	if tp == nil && indexed {
		lg.counts.Promoted++
	}
	for _, o := range old {
		supersede(o, c, d.mem.memDoc.path, d.arch)
		reason := fmt.Sprintf("the log of %s replaces a value it holds (since %s)", c.date.Format(time.DateOnly), dateOr(o.since(), "an unknown date"))
		if c.subject != "" && c.subject == o.subject {
			reason = fmt.Sprintf("same subject %q with a new value: %q (since %s) -> %q (%s)", c.subject, shorten(o.value, 60),
				dateOr(o.since(), "an unknown date"), shorten(c.value, 60), c.date.Format(time.DateOnly))
		}
		lg.action(Action{Kind: "supersede", File: o.file, Text: c.fact, Old: shorten(o.text, 160), Type: c.typ,
			Evidence: evidenceStrings(c.evidence), Reason: reason, Scores: scores})
		lg.counts.Superseded++
	}
}

// o0MultiFact reports whether the first of the index entries a fact
// replaces says more than one thing (two sentences or clauses): replacing
// it whole would take the rest out of the index.
func o0MultiFact(old []*curated) bool { return multiFact(old[0]) }

// multiFact reports an entry of two sentences or clauses or more.
func multiFact(o *curated) bool {
	t := stripMarkers(o.text)
	return len(splitSentences(t)) > 1 || strings.ContainsAny(t, ";；")
}

// placeL2 adds a fact to a topic file: after a unit it supersedes, else at
// the end of the best section.
func (m *curatedMemory) placeL2(c *candidate, tp *topic, after *unit) {
	pl := &placement{c: c, doc: tp.doc, afterU: after, tag: tp.doc.exists && usesTypeTags(tp.doc)}
	if after == nil {
		pl.sec, pl.afterU = tp.doc.spot(c.typ, c.words)
	}
	cur := m.freshCurated(c, tp.doc.path, pl)
	pl.cur = cur
	m.placements = append(m.placements, pl)
	tp.added = append(tp.added, c)
	for _, w := range c.words {
		tp.words[w]++
	}
}

// placeIndex adds a fact to the index: in place of a unit it supersedes,
// else where spot puts it (a new index starts a section per type).
func (d decider) placeIndex(c *candidate, replace, after *unit, decision memory.Decision) {
	m := d.mem
	reason := "passed the promotion gates (" + fmtScore(decision.Score) + " >= " + fmtScore(d.score.cfg.MinScore) + ", recalls and unique queries); the index gets a line"
	switch {
	case replace != nil:
		reason = "takes the place of the index entry it supersedes"
	case !decision.Promote:
		reason = "no L2 topic is clearly about it (" + c.routeNote + "); the index keeps it"
	}
	if m.indexed[c] {
		return
	}
	m.indexed[c] = true
	// Type tags ("- [user] …") only where the file writes them.
	pl := &placement{c: c, doc: m.memDoc, replaceU: replace, index: true, score: decision.Score, tag: usesTypeTags(m.memDoc)}
	if replace != nil && replace.cur != nil && replace.cur.e != nil {
		pl.tag = replace.cur.e.TypeTag != ""
		if t := normType(replace.cur.e.TypeTag); t != "" {
			c.typ = t
		}
	}
	switch {
	case replace != nil:
	case after != nil:
		pl.afterU = after
	case !m.memDoc.exists:
		pl.sec = m.memorySection(c.typ)
	default:
		pl.sec, pl.afterU = m.memDoc.spot(c.typ, c.words)
	}
	pl.cur = m.freshCurated(c, m.memDoc.path, pl)
	m.placements = append(m.placements, pl)
	d.lg.counts.Indexed++
	d.lg.action(Action{Kind: "index", File: m.memDoc.path, Text: c.fact, Type: c.typ, Evidence: evidenceStrings(c.evidence),
		Reason: reason, Scores: &Scores{Promotion: promotionScores(decision)}})
}

// freshCurated registers a line this run writes, so later candidates can
// merge into, close or supersede it.
func (m *curatedMemory) freshCurated(c *candidate, file string, pl *placement) *curated {
	cur := &curated{id: len(m.curated), file: file, text: c.fact, words: c.words, nums: c.nums, subject: c.subject, value: c.value,
		status: c.status, date: c.date, fresh: true, typ: c.typ, cand: c, pl: pl}
	cur.structural = c.structural
	m.curated = append(m.curated, cur)
	m.index(cur)
	m.fresh[c] = append(m.fresh[c], cur)
	return cur
}

// inMemory reports whether MEMORY.md already holds the fact (or a line of
// this run puts it there).
func (m *curatedMemory) inMemory(cur *curated) bool {
	if cur.cand != nil && m.indexed[cur.cand] {
		return true
	}
	for _, id := range m.curIndex.candidates(cur.words, 1000) {
		o := m.curated[id]
		if o.file == m.memDoc.path && !o.isGone() && nearDuplicate(cur.words, o.words, cur.nums, o.nums) {
			return true
		}
	}
	return false
}

// findDuplicate finds a kept entry saying the same thing (MEMORY.md and L2,
// lines of this run included); the most similar wins.
func (m *curatedMemory) findDuplicate(c *candidate) *curated {
	var best *curated
	bestJ := -1.0
	for _, id := range m.curIndex.candidates(c.words, 1000) {
		o := m.curated[id]
		if o.isGone() || o.superseded() || o.pointer {
			continue
		}
		if !nearDuplicate(c.words, o.words, c.nums, o.nums) {
			continue
		}
		if j := jaccard(c.words, o.words); j > bestJ {
			best, bestJ = o, j
		}
	}
	return best
}

// reRestated marks a line that says it repeats something ("again",
// "reconfirmed", 재확인, 再次, de nuevo).
var reRestated = regexp.MustCompile(`(?i)\b(?:again|reconfirm(?:ed|s)?|once more|as before|repeats|repeated|otra vez|de nuevo|repite|encore)\b|再次|再度|重申|재확인|다시 확인|再確認`)

// restates finds the kept entry a line that says it repeats something
// repeats: the entry of curated memory before this dream that shares the
// most of its distinctive words, three at least and three in ten of the
// shorter one's.
func (m *curatedMemory) restates(c *candidate) *curated {
	if !reRestated.MatchString(c.raw) {
		return nil
	}
	var best *curated
	bestN := 0
	for _, id := range m.curIndex.candidates(c.words, 1000) {
		o := m.curated[id]
		if o.fresh || o.isGone() || o.superseded() || o.pointer || o.pinned() {
			continue
		}
		n := 0
		for _, w := range c.words {
			if !genericWords[w] && slices.Contains(o.words, w) {
				n++
			}
		}
		if n >= 3 && 10*n >= 3*min(len(c.words), len(o.words)) && n > bestN {
			best, bestN = o, n
		}
	}
	return best
}

// lifecycleWords are left out when matching a closing line to the item it
// closes ("TODO: renew the domain" / "renewed the domain — done").
var lifecycleWords = map[string]bool{"todo": true, "done": true, "finished": true, "completed": true, "complete": true,
	"closed": true, "resolved": true, "fixed": true, "open": true, "pending": true, "wip": true, "status": true, "cancelled": true}

func withoutLifecycle(ws []string) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if !lifecycleWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// findLifecycle finds a kept entry about the same item in the given state:
// most of the shorter one's words (at least two) are in the other.
func (m *curatedMemory) findLifecycle(c *candidate, want memory.Status) *curated {
	cw := withoutLifecycle(c.words)
	if len(cw) < 2 {
		return nil
	}
	var best *curated
	bestC := 0.6
	for _, id := range m.curIndex.candidates(cw, 1000) {
		o := m.curated[id]
		if o.isGone() || o.pointer || o.table || o.status != want {
			continue
		}
		ow := withoutLifecycle(o.words)
		if min(len(ow), len(cw)) < 2 {
			continue
		}
		if cont := containment(cw, ow); cont >= bestC {
			shared := 0
			for _, w := range cw {
				if slices.Contains(ow, w) {
					shared++
				}
			}
			if shared >= 2 {
				best, bestC = o, cont
			}
		}
	}
	return best
}

// findContradictions finds kept entries with the candidate's subject and a
// different value (DESIGN 5.3: "same subject, new value"). A one-word
// subject ("Status: accepted") only counts within the same file, where it
// names the same thing; longer subjects ("gateway host") count anywhere in
// MEMORY.md and the candidate's topic. Values that contain one another are
// refinements, not contradictions.
func (m *curatedMemory) findContradictions(c *candidate, tp *topic) []*curated {
	if c.subject == "" || !plausibleValue(c.value) || c.marker != "change" && c.marker != "correction" && c.marker != "decision" {
		return nil
	}
	if k, _ := markerOf(c.subject); k != "" || len(slices.DeleteFunc(contentWords(c.subject), func(w string) bool { return genericWords[w] })) == 0 {
		return nil // a label ("Decision:", "决定：") names no subject
	}
	multi := strings.Contains(c.subject, " ")
	var out []*curated
	for _, o := range m.subjects[c.subject] {
		if o.isGone() || o.superseded() || o.pointer || o.table || o.pinned() || !plausibleValue(o.value) || o.u != nil && o.u.doc.closedUnit(o.u) {
			continue
		}
		if o.fresh && o.cand == c {
			continue
		}
		inScope := o.file == m.memDoc.path || tp != nil && o.file == tp.path
		if !inScope && !(multi && o.fresh) {
			continue
		}
		if !multi && !(tp != nil && o.file == tp.path) {
			continue
		}
		a, b := normValue(c.value), normValue(o.value)
		if a == "" || b == "" || a == b || strings.Contains(a, b) || strings.Contains(b, a) {
			continue
		}
		if !o.date.IsZero() && o.date.After(c.date) {
			continue // an older log never overrides a newer fact
		}
		out = append(out, o)
	}
	return out
}

var reParen = regexp.MustCompile(`\([^)]*\)|（[^）]*）`)

// normValue compares values without dates, asides in brackets, articles
// and punctuation.
func normValue(v string) string {
	v = reISODate.ReplaceAllString(v, " ")
	v = reParen.ReplaceAllString(v, " ")
	v = strings.ToLower(v)
	var ws []string
	for _, w := range strings.Fields(v) {
		w = strings.Trim(w, ".,;:!?\"'`*")
		switch w {
		case "", "the", "a", "an", "now", "still":
			continue
		}
		ws = append(ws, w)
	}
	return strings.Join(ws, " ")
}

// plausibleValue: a value worth comparing is a short phrase, not a
// sentence.
func plausibleValue(v string) bool {
	n := len(strings.Fields(v))
	return n > 0 && n <= 10
}

// merge adds a candidate's evidence to a kept entry the dream wrote (an
// author's line gets nothing appended: decideOne).
func merge(o *curated, c *candidate) {
	if o.cand != nil {
		o.cand.addEvidence(c.evidence...)
		return
	}
	if o.table || o.u == nil {
		return
	}
	// A mention in a log is evidence, not a recall: meta counts stay.
	o.u.replace(addEvidence(o.u.lines, c.evidence))
}

// closeEntry marks an open entry the dream wrote done with the date and
// evidence of the line that finished it (an author's to-do is never
// touched: decideOne).
func closeEntry(o *curated, c *candidate) {
	o.status = memory.StatusClosed
	if o.cand != nil {
		o.cand.closedOn = c.date
		o.cand.status = memory.StatusClosed
		o.cand.addEvidence(c.evidence...)
		return
	}
	lines := insertMarker(o.u.lines, "(done "+c.date.Format(time.DateOnly)+")")
	o.u.replace(addEvidence(lines, c.evidence))
}

// supersede marks an entry replaced by a newer fact, with both dates
// (DESIGN 5.4): in an L2 file the old line stays, marked, with the new one
// right after it; in MEMORY.md the new line takes its place and the old one
// goes to the archive, marked the same way. index is the index's path.
func supersede(o *curated, c *candidate, index string, arch archive) {
	marker := fmt.Sprintf("(superseded %s by: %s; since %s)", c.date.Format(time.DateOnly),
		shorten(strings.TrimRight(stripDateSuffix(redact(c.fact)), ". "), 80), dateOr(o.since(), "unknown"))
	o.status = memory.StatusClosed
	o.supersededBy = c
	if o.cand != nil {
		o.cand.supersededBy = c
		o.cand.supersedeNote = marker
		return
	}
	lines := insertMarker(o.u.lines, marker)
	if o.file == index && !multiFact(o) {
		// The old line moves to the archive; placeIndex put the new line in
		// its place.
		arch.add(o, lines, "superseded")
		return
	}
	o.u.replace(lines)
}

// since is when an entry's fact became true, as far as the files say.
func (c *curated) since() time.Time {
	if c.meta != nil && !c.meta.Created.IsZero() {
		return c.meta.Created
	}
	return c.date
}

func (c *curated) isGone() bool {
	return c.u != nil && c.u.gone || c.pl != nil && c.pl.dropped || c.archived
}

// superseded reports an entry replaced by a newer fact, in this run or
// an earlier one (its line carries the marker, or its status says so).
func (c *curated) superseded() bool { return c.supersededBy != nil || c.retired }

func (c *curated) line() int {
	if c.e != nil {
		return c.e.Line
	}
	return 0
}

// route finds the L2 topic a fact is clearly about: an explicit link or
// tag first ([[gateway]], memory/gateway.md, #gateway), then the topic
// whose vocabulary holds the fact's most distinctive words. It never
// files a fact by shared vocabulary alone: the fact must name one of the
// topic's subjects (see topic.names), share two words at least that are
// rare enough across curated memory to mean something, and the topic must
// win clearly (half again the score of the next). Otherwise the index
// keeps the fact.
func (m *curatedMemory) route(c *candidate) (*topic, string) {
	if c.byModel {
		if tp := m.topicByPath[c.modelFile]; tp != nil && !tp.dated {
			return tp, "the LLM filed it in " + tp.path
		}
		return nil, "the LLM filed it in the index"
	}
	for _, tp := range m.topics {
		if tp.dated {
			continue
		}
		if strings.Contains(c.raw, "[["+tp.slug+"]]") || strings.Contains(c.raw, "[["+tp.slug+"|") ||
			strings.Contains(c.raw, tp.path) || slices.Contains(c.tags, tp.slug) {
			return tp, "explicit link to " + tp.path
		}
	}
	common := m.commonWords(c.words)
	total := 0.0
	for i, w := range m.distinctive(c.words, common) {
		if i == 6 {
			break
		}
		total += w
	}
	keys := nameKeys(c.fact)
	var best *topic
	var bestShared, bestNames []string
	bestScore, second := 0.0, 0.0
	for _, tp := range m.topics {
		if tp.dated {
			continue // never written: it belongs to its day
		}
		score := 0.0
		var shared, named []string
		for _, w := range c.words {
			if common[w] || genericWords[w] || tp.words[w] == 0 {
				continue
			}
			score += m.idf(w)
			shared = append(shared, w)
		}
		for _, k := range keys {
			if tp.names[k] && !common[k] && !slices.Contains(named, k) {
				named = append(named, k)
			}
		}
		if len(shared) < 2 || len(named) == 0 {
			continue
		}
		switch {
		case score > bestScore:
			second = bestScore
			best, bestScore, bestShared, bestNames = tp, score, shared, named
		case score > second:
			second = score
		}
	}
	switch {
	case best == nil:
		return nil, "no topic file names its subject"
	case total == 0 || bestScore/total < minCoverage:
		return nil, "no topic shares enough of its words"
	case bestScore < 1.5*second:
		return nil, "two topics fit it about as well"
	}
	if len(bestShared) > 4 {
		bestShared = bestShared[:4]
	}
	return best, fmt.Sprintf("names %s and shares %s with %s (score %.0f%%)", quoteList(bestNames), quoteList(bestShared), best.path, min(100, 100*bestScore/total))
}

// idf is how rare a word is across curated memory: ln(1 + entries /
// entries using it).
func (m *curatedMemory) idf(w string) float64 {
	return math.Log(1 + float64(len(m.curated)+1)/max(float64(m.curIndex.df[w]), 1))
}

// commonWords are the words most topics use ("sam", the user's name):
// they say nothing about which topic a fact belongs to. With fewer than
// four topics no word is common.
func (m *curatedMemory) commonWords(words []string) map[string]bool {
	common := map[string]bool{}
	if len(m.topics) < 4 {
		return common
	}
	for _, w := range words {
		k := 0
		for _, tp := range m.topics {
			if tp.words[w] > 0 {
				k++
			}
		}
		if k*2 > len(m.topics) {
			common[w] = true
		}
	}
	return common
}

// distinctive weighs a fact's words that are neither common nor generic
// by how rare they are (idf), rarest first: route takes the share a topic
// holds of the six rarest, so a long line is not held back by its length.
func (m *curatedMemory) distinctive(words []string, common map[string]bool) []float64 {
	var weights []float64
	for _, w := range words {
		if !common[w] && !genericWords[w] {
			weights = append(weights, m.idf(w))
		}
	}
	slices.SortFunc(weights, func(a, b float64) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	return weights
}

// minCoverage is how much of a fact's six most distinctive words, each
// weighted by how rare it is in curated memory (ln(1 + entries/entries
// using it)), a topic's vocabulary must hold for the topic to take the
// fact; and at least two shared words, none of them generic.
const minCoverage = 0.3

func quoteList(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "'" + w + "'"
	}
	return strings.Join(q, ", ")
}

// genericWords are too vague to name a new topic after.
var genericWords = map[string]bool{
	"started": true, "start": true, "finished": true, "working": true, "works": true, "work": true, "need": true,
	"needs": true, "using": true, "used": true, "uses": true, "still": true, "should": true, "would": true,
	"could": true, "going": true, "think": true, "thing": true, "things": true, "stuff": true, "people": true,
	"update": true, "updates": true, "updated": true, "added": true, "moved": true, "sent": true, "fixed": true,
	"check": true, "checked": true, "later": true, "soon": true, "first": true, "draft": true, "plan": true,
	"notes": true, "note": true, "todo": true, "done": true, "open": true, "closed": true, "like": true,
	"good": true, "great": true, "better": true, "maybe": true, "really": true, "every": true, "around": true,
	"morning": true, "evening": true, "night": true, "afternoon": true, "weekend": true, "meeting": true,
	"back": true, "again": true, "ready": true, "asked": true, "wants": true, "said": true, "told": true,
	"making": true, "made": true, "took": true, "take": true, "came": true, "come": true, "goes": true,
	"went": true, "keep": true, "kept": true, "left": true, "right": true,
	"asking": true, "without": true, "until": true, "today": true, "tomorrow": true, "yesterday": true, "reason": true,
	"details": true, "detail": true, "see": true, "also": true, "time": true, "week": true, "days": true, "next": true, "last": true,
	// The labels entries open with, and the words that mark a statement
	// as durable, name no subject ("don" is the word "don't" leaves).
	"decision": true, "decisions": true, "rule": true, "rules": true, "lesson": true, "lessons": true, "fact": true, "facts": true,
	"why": true, "how": true, "what": true, "decided": true, "decide": true, "agreed": true, "prefer": true, "prefers": true,
	"preferred": true, "always": true, "never": true, "don": true, "switched": true, "changed": true,
}

// usesTypeTags reports a file that tags its entries with their memory
// type ("- [user] …"), or a file the dream starts (whose convention it
// sets).
func usesTypeTags(d *mdDoc) bool {
	if !d.exists {
		return true
	}
	for _, u := range d.units {
		for _, e := range u.entries {
			if e.TypeTag != "" {
				return true
			}
		}
	}
	return false
}

var reHistory = regexp.MustCompile(`(?i)\b(?:history|archive[sd]?|superseded|old|past|previous|changelog|log)\b|历史|歴史`)

func historySection(h string) bool { return reHistory.MatchString(h) }

// typeHeadings are the section names that hold each type.
// typeHeadings are the section names that hold each type: an English,
// Spanish or German name opening the heading (after any emoji), or a CJK
// name anywhere in it ("💡 用户偏好", "📝 重要约定", "알고리즘/투자 선호 및 제약").
var typeHeadings = map[string]*regexp.Regexp{
	TypeUser: regexp.MustCompile(`(?i)^(?:people|persons?|users?|preferences?|profile|about|personal|family|sobre|preferencias|personas|perfil|familia|vorlieben|personen)\b` +
		`|偏好|喜好|关于|關於|人物|人员|人員|家人|好み|プロフィール|선호|사람|프로필|가족`),
	TypeFeedback: regexp.MustCompile(`(?i)^(?:feedback|rules?|lessons?(?: learned)?|corrections?|conventions?|reglas|normas|lecciones|regeln)\b` +
		`|约定|約定|规则|規則|原则|原則|教训|教訓|ルール|규칙|원칙|교훈`),
	TypeProject: regexp.MustCompile(`(?i)^(?:projects?|ongoing|current work|goals?|tasks?|status|decisions?|proyectos|decisiones|projekte)\b` +
		`|项目|項目|专案|專案|决策|決策|プロジェクト|方針|프로젝트|결정`),
	TypeReference: regexp.MustCompile(`(?i)^(?:references?|infrastructure|infra|tools?|tooling|hosts?|links|pointers|accounts?|herramientas|cuentas|referencias|werkzeuge)\b` +
		`|技术环境|技術環境|工具|账号|帳號|ツール|環境|도구|인프라|계정`),
}

// typeHeading reports a heading that names the section for a type.
func typeHeading(typ, heading string) bool {
	re := typeHeadings[typ]
	h := strings.TrimLeftFunc(strings.TrimSpace(heading), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return re != nil && re.MatchString(h)
}

// memorySection is the MEMORY.md section for a type: one named for it,
// else a new one at the end ("User", "Feedback", "Projects", "References").
func (m *curatedMemory) memorySection(typ string) *mdSection {
	d := m.memDoc
	for _, s := range append(slices.Clone(d.sections), d.added...) {
		if (s.line > 0 || s.isNew) && typeHeading(typ, s.heading) {
			return s
		}
	}
	name := map[string]string{TypeUser: "User", TypeFeedback: "Feedback", TypeProject: "Projects", TypeReference: "References"}[typ]
	if name == "" {
		name = "Projects"
	}
	return d.addSection(name, 2)
}
