package dream

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// qFigures are the measurements of one workspace (or the totals). Every
// ratio keeps its numerator and denominator, so totals are sums and a
// reader can see how many cases a percentage rests on.
type qFigures struct {
	name string

	// The dream. promoted counts the new fact lines in curated memory
	// (index and topic files); right those that derive from durable lines.
	promoted, right   int
	unattributed      int // cite no line range of a daily log
	ungrounded        int // cite durable lines but say something else
	facts, factsFound int // durable facts, and those a right line promoted
	misfiled          int // right lines put into an existing topic file they do not belong in
	duplicates        int // a fact promoted twice into one file
	indexLines        int // new pointer lines from the index to topic files
	newTopics, junk   int // new topic files, and those that are junk
	changedCode       int // code a human file had that is gone, and code a promoted line copied with changes
	inserted          int // lines inserted into (or against) lists, tables and code of human files
	stubIndexes       int
	brokenCounts      int // headings whose stated count no longer matches their list
	foreignEvents     int // event records not in the shape the workspace's log uses
	invented          int // memory-meta.json dates set to the dream's own day
	supersedes, done  int // curated lines a log line replaces, and those the dream handled
	dailyChanged      int
	otherFiles        int // Markdown files changed that are neither curated memory, the archive nor the dream log
	lost              int // entries of curated memory neither kept (text as it was, or extended) nor archived

	// The claims of curated memory before the dream.
	claims, claimsReal, unlabelled int
	realLabels, realFound          int
	contests, contestsTrue         int
	contraLabels, contraFound      int
	withSources, rightEvidence     int
	anyEvidence                    int
	evidenceItems, evidenceInFrom  int // daily-log evidence of claims with from=, and the part in those logs

	details []string
}

func (f *qFigures) note(format string, args ...any) {
	f.details = append(f.details, fmt.Sprintf(format, args...))
}

// add sums figures into totals.
func (f *qFigures) add(g *qFigures) {
	for _, p := range [][2]*int{
		{&f.promoted, &g.promoted}, {&f.right, &g.right}, {&f.unattributed, &g.unattributed}, {&f.ungrounded, &g.ungrounded},
		{&f.facts, &g.facts}, {&f.factsFound, &g.factsFound}, {&f.misfiled, &g.misfiled}, {&f.duplicates, &g.duplicates},
		{&f.indexLines, &g.indexLines}, {&f.newTopics, &g.newTopics}, {&f.junk, &g.junk}, {&f.changedCode, &g.changedCode},
		{&f.inserted, &g.inserted}, {&f.stubIndexes, &g.stubIndexes}, {&f.brokenCounts, &g.brokenCounts},
		{&f.foreignEvents, &g.foreignEvents}, {&f.invented, &g.invented}, {&f.supersedes, &g.supersedes}, {&f.done, &g.done},
		{&f.dailyChanged, &g.dailyChanged}, {&f.otherFiles, &g.otherFiles}, {&f.lost, &g.lost}, {&f.claims, &g.claims}, {&f.claimsReal, &g.claimsReal}, {&f.unlabelled, &g.unlabelled},
		{&f.realLabels, &g.realLabels}, {&f.realFound, &g.realFound}, {&f.contests, &g.contests}, {&f.contestsTrue, &g.contestsTrue},
		{&f.contraLabels, &g.contraLabels}, {&f.contraFound, &g.contraFound}, {&f.withSources, &g.withSources},
		{&f.rightEvidence, &g.rightEvidence}, {&f.anyEvidence, &g.anyEvidence},
		{&f.evidenceItems, &g.evidenceItems}, {&f.evidenceInFrom, &g.evidenceInFrom},
	} {
		*p[0] += *p[1]
	}
}

// qWorkspace is one labelled workspace, its files before the dream and the
// workspace model read from them.
type qWorkspace struct {
	labels *qLabels
	dir    string
	before map[string]string
	ws     *workspace.Workspace
	llm    *LLM // the dream's distiller; nil for the rule-based path
}

// checkLabels is the harness's own sanity: each label must make sense for
// the workspace as written, so that wrong labels fail instead of skewing a
// figure.
func (q *qWorkspace) checkLabels() []string {
	l, ws := q.labels, q.ws
	var errs []string
	bad := func(r qRef, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s.labels:%d: %s", l.name, r.at, fmt.Sprintf(format, args...)))
	}
	daily := map[string]*workspace.DailyLog{}
	for _, d := range ws.Daily {
		daily[d.File.Path] = d
	}
	var watermark time.Time
	if ws.DreamLog != nil {
		watermark = ws.DreamLog.Watermark()
	}
	curated := qCuratedPaths(ws)
	for _, d := range l.durable {
		switch log := daily[d.file]; {
		case log == nil:
			bad(d.qRef, "%s is no daily log; only daily-log lines can be durable", d.file)
		case log.Date.Before(watermark):
			bad(d.qRef, "%s is older than the watermark %s: the dream does not read it", d.file, watermark.Format(time.DateOnly))
		}
		for _, into := range d.into {
			if !curated[into] {
				bad(d.qRef, "into=%s is no topic file or index of the workspace", into)
			}
		}
	}
	for _, c := range l.claims {
		if !curated[c.file] {
			bad(c.qRef, "%s is neither the index nor a topic file: it makes no claims", c.file)
		}
		for _, from := range c.from {
			if daily[from] == nil {
				bad(c.qRef, "from=%s is no daily log", from)
			}
		}
	}
	for _, s := range l.supersedes {
		if daily[s.new.file] == nil || !curated[s.old.file] {
			bad(s.new, "a supersede label names a daily-log line, then the curated line it replaces")
		}
	}
	for _, p := range l.contradictions {
		if !curated[p[0].file] || !curated[p[1].file] {
			bad(p[0], "a contradiction is a pair of curated lines")
		}
	}
	for _, r := range l.counts {
		lines := strings.Split(q.before[r.file], "\n")
		n, ok := statedCount(lines[r.line-1])
		if !ok || !reQHeading.MatchString(lines[r.line-1]) {
			bad(r, "a count label names a heading that states a number")
			continue
		}
		from, to := qSection(lines, r.line-1)
		if got := qListLength(lines, from, to); got != n {
			bad(r, "the heading says %d but its section lists %d", n, got)
		}
	}
	for _, r := range l.closed {
		line := strings.Split(q.before[r.file], "\n")[r.line-1]
		if !reQHeading.MatchString(line) && !reQListItem.MatchString(line) {
			bad(r, "a closed label names a heading or a list item")
		}
	}
	if l.index != "" && q.before[l.index] == "" {
		errs = append(errs, fmt.Sprintf("%s.labels: index %s is not in the workspace", l.name, l.index))
	}
	return errs
}

// qCuratedPaths are the files whose entries are claims: the index and the
// topic files.
func qCuratedPaths(ws *workspace.Workspace) map[string]bool {
	out := map[string]bool{}
	if ws.Memory != nil {
		out[ws.Memory.File.Path] = true
	}
	for _, tp := range ws.Topics {
		out[tp.File.Path] = true
	}
	return out
}

// qCuratedEntries are the entries of the index and the topic files.
func qCuratedEntries(ws *workspace.Workspace) []*workspace.Entry {
	var out []*workspace.Entry
	if ws.Memory != nil {
		out = append(out, ws.Memory.Entries()...)
	}
	for _, tp := range ws.Topics {
		out = append(out, tp.Entries()...)
	}
	return out
}

// measureClaims judges the claims provenance.Analyze makes of curated
// memory before the dream.
func (q *qWorkspace) measureClaims(f *qFigures) {
	l := q.labels
	res := provenance.Analyze(q.ws, provenance.Options{AsOf: l.now})
	labelsIn := func(file string, from, to int) (real, junk []*qClaim) {
		for _, c := range l.claims {
			if c.file == file && c.line >= from && c.line <= to {
				if c.real {
					real = append(real, c)
				} else {
					junk = append(junk, c)
				}
			}
		}
		return real, junk
	}
	judged := map[string]bool{} // claim id -> real
	var realClaims []*provenance.Claim
	for _, c := range res.Claims {
		if c.Origin == provenance.OriginArchive {
			continue
		}
		f.claims++
		real, junk := labelsIn(c.File, c.Line, c.EndLine)
		switch {
		case len(real) == 0 && len(junk) == 0:
			f.unlabelled++
			f.note("claim without a label (counted as not real): %s:%d %q", c.File, c.Line, qShort(c.Text))
			continue
		case len(junk) > 0:
			continue
		}
		if why := qPresentation(c); why != "" {
			f.note("claim %s:%d is a real line but %s: %q", c.File, c.Line, why, qShort(c.Title))
			continue
		}
		judged[c.ID] = true
		f.claimsReal++
		realClaims = append(realClaims, c)
	}
	for _, lab := range l.claims {
		if !lab.real {
			continue
		}
		f.realLabels++
		found := false
		for _, c := range realClaims {
			if c.File == lab.file && lab.line >= c.Line && lab.line <= c.EndLine {
				found = true
			}
		}
		if found {
			f.realFound++
		} else {
			f.note("real line makes no acceptable claim: %s", lab.qRef)
		}
	}
	for _, c := range realClaims {
		var from []string
		real, _ := labelsIn(c.File, c.Line, c.EndLine)
		for _, lab := range real {
			from = append(from, lab.from...)
		}
		var daily []string
		for _, e := range c.Evidence {
			if e.Kind == provenance.SourceDaily || e.Kind == provenance.SourceConversation {
				daily = append(daily, e.Path)
			}
		}
		if len(daily) > 0 {
			f.anyEvidence++
		}
		if len(from) == 0 {
			continue
		}
		f.withSources++
		f.evidenceItems += len(daily)
		for _, p := range daily {
			if slices.Contains(from, p) {
				f.evidenceInFrom++
			}
		}
		if slices.ContainsFunc(daily, func(p string) bool { return slices.Contains(from, p) }) {
			f.rightEvidence++
		} else {
			f.note("claim %s:%d has no evidence in %v (has %v)", c.File, c.Line, from, daily)
		}
	}
	byID := map[string]*provenance.Claim{}
	for _, c := range res.Claims {
		byID[c.ID] = c
	}
	covers := func(c *provenance.Claim, r qRef) bool {
		return c != nil && c.File == r.file && r.line >= c.Line && r.line <= c.EndLine
	}
	f.contraLabels = len(l.contradictions)
	found := make([]bool, len(l.contradictions))
	for _, k := range res.Contests {
		a, b := byID[k.Older], byID[k.Newer]
		f.contests++
		hit := false
		for i, p := range l.contradictions {
			if covers(a, p[0]) && covers(b, p[1]) || covers(a, p[1]) && covers(b, p[0]) {
				hit, found[i] = true, true
			}
		}
		if hit {
			f.contestsTrue++
		} else if a != nil && b != nil {
			f.note("false contradiction (%s): %s:%d %q vs %s:%d %q", k.Subject, a.File, a.Line, qShort(a.Text), b.File, b.Line, qShort(b.Text))
		}
	}
	for i, ok := range found {
		if ok {
			f.contraFound++
		} else {
			f.note("contradiction not reported: %s vs %s", l.contradictions[i][0], l.contradictions[i][1])
		}
	}
}

var reQDateLabel = regexp.MustCompile(`^\s*\d{4}-\d{2}-\d{2}\s*[:：]?\s*$`)

// qPresentation says why a claim on a real line still cannot be shown to a
// user as it is, or "": a title that is only a date label, a table row
// that does not name its column headers.
func qPresentation(c *provenance.Claim) string {
	if strings.TrimSpace(c.Title) == "" || reQDateLabel.MatchString(c.Title) {
		return "its title is a date label"
	}
	if e := c.Entry; e != nil && e.Shape == workspace.ShapeTableRow {
		for _, h := range e.Columns {
			if h = strings.TrimSpace(h); h != "" && !strings.Contains(strings.ToLower(c.Text), strings.ToLower(h)) {
				return "it is a table row without its headers"
			}
		}
	}
	return ""
}

// qMatchEntries pairs entries of two versions of a workspace one to one:
// a later entry is the same entry as an earlier one when its text is the
// same, or extends it (a marker or evidence added; 12 bytes of text at
// least, so a bare word does not claim a line). It returns the earlier
// entries left without a later one and the later entries left without an
// earlier one.
func qMatchEntries(earlier, later []*workspace.Entry) (gone, added []*workspace.Entry) {
	usedE := make([]bool, len(earlier))
	usedL := make([]bool, len(later))
	// Exact matches first, so a prefix never takes an entry's own twin.
	for pass := 0; pass < 2; pass++ {
		for i, l := range later {
			for j, e := range earlier {
				if usedL[i] {
					break
				}
				if !usedE[j] && (pass == 0 && l.Text == e.Text || pass == 1 && len(e.Text) >= 12 && strings.HasPrefix(l.Text, e.Text)) {
					usedE[j], usedL[i] = true, true
				}
			}
		}
	}
	for j, e := range earlier {
		if !usedE[j] {
			gone = append(gone, e)
		}
	}
	for i, l := range later {
		if !usedL[i] {
			added = append(added, l)
		}
	}
	return gone, added
}

// qArchiveEntries are the entries of memory/archive/.
func qArchiveEntries(ws *workspace.Workspace) []*workspace.Entry {
	var out []*workspace.Entry
	for _, a := range ws.Archive {
		out = append(out, a.Entries...)
	}
	return out
}

// measureDream runs the dream and measures what it wrote. Since issue #23
// (rule 1) a dream writes by itself only lines whose recall signals pass
// the Deep gates, and proposes the rest; the self-written set has no
// recall store, so the dream is measured as a person who chooses every
// proposal: its figures are those of the proposals (their precision and
// recall against the labels), and what the dream wrote alone is noted.
func (q *qWorkspace) measureDream(t *testing.T, f *qFigures) {
	l := q.labels
	opts := Options{Now: func() time.Time { return l.now }, Force: true, LLM: q.llm}
	alone, err := NewPlan(context.Background(), q.dir, opts)
	if err != nil {
		t.Fatalf("%s: plan: %v", l.name, err)
	}
	if alone.Counts.Promoted > 0 && q.llm == nil {
		f.note("written with no choice (recall signals past the gates): %d", alone.Counts.Promoted)
	}
	for _, p := range alone.Proposals {
		opts.Choose = append(opts.Choose, p.ID)
	}
	res, err := Run(context.Background(), q.dir, opts, false, nil)
	if err != nil {
		t.Fatalf("%s: dream: %v", l.name, err)
	}
	if q.llm != nil {
		for _, d := range res.Plan.Diagnostics {
			if strings.Contains(d.Message, "LLM") {
				t.Errorf("%s: the model path was not taken: %s", l.name, d.Error())
			}
		}
	}
	if !res.Applied {
		t.Fatalf("%s: the forced dream was not applied: %+v", l.name, res.Plan.Gates)
	}
	after := snapshot(t, q.dir)
	wsA := load(t, q.dir)

	daily := map[string]bool{}
	for _, d := range q.ws.Daily {
		daily[d.File.Path] = true
		if after[d.File.Path] != q.before[d.File.Path] {
			f.dailyChanged++
			f.note("daily log changed: %s", d.File.Path)
		}
	}
	topicsBefore := map[string]bool{}
	for _, tp := range q.ws.Topics {
		topicsBefore[tp.File.Path] = true
	}
	topicsAfter := map[string]*workspace.TopicFile{}
	for _, tp := range wsA.Topics {
		topicsAfter[tp.File.Path] = tp
	}
	durableAt := map[string][]*qDurable{}
	for _, d := range l.durable {
		durableAt[d.file] = append(durableAt[d.file], d)
	}
	facts := map[string]bool{}
	for _, d := range l.durable {
		facts[d.fact] = true
	}
	f.facts = len(facts)
	found := map[string]bool{}
	rightFacts := map[string]map[string]bool{} // file -> facts promoted into it by right lines

	// New entries are those no entry before the dream (curated or
	// archived) accounts for; lost entries are human entries that are
	// neither in curated memory nor in the archive any more.
	_, fresh := qMatchEntries(append(qCuratedEntries(q.ws), qArchiveEntries(q.ws)...), qCuratedEntries(wsA))
	lost, _ := qMatchEntries(qCuratedEntries(q.ws), append(qCuratedEntries(wsA), qArchiveEntries(wsA)...))
	for _, e := range lost {
		f.lost++
		f.note("entry lost: %s:%d %q", e.File, e.Line, qShort(e.Text))
	}
	for _, e := range fresh {
		var ranges []workspace.SourcePointer
		wholeFile, topicPointer := false, false
		for _, s := range e.Sources {
			switch {
			case daily[s.Path] && s.StartLine > 0:
				ranges = append(ranges, s)
			case daily[s.Path]:
				wholeFile = true
			case topicsAfter[s.Path] != nil || topicsAfter["memory/"+strings.TrimSuffix(s.Path, ".md")+".md"] != nil:
				topicPointer = true
			}
		}
		if len(ranges) == 0 && !wholeFile && topicPointer {
			f.indexLines++
			f.note("index line in %s: %q", e.File, qShort(e.Text))
			continue
		}
		f.promoted++
		if len(ranges) == 0 || wholeFile {
			f.unattributed++
			f.note("promoted without a line range of a daily log: %s %q", e.File, qShort(e.Text))
			continue
		}
		var cited []*qDurable
		var citedText strings.Builder
		right := true
		for _, r := range ranges {
			lines := strings.Split(q.before[r.Path], "\n")
			end := max(r.EndLine, r.StartLine)
			for n := r.StartLine; n <= end && n <= len(lines); n++ {
				citedText.WriteString(lines[n-1] + "\n")
			}
			hit := false
			for _, d := range durableAt[r.Path] {
				if d.line >= r.StartLine && d.line <= end {
					cited = append(cited, d)
					hit = true
				}
			}
			if !hit {
				right = false
			}
		}
		if bad := qCopiedCode(e.Raw, citedText.String()); len(bad) > 0 {
			f.changedCode += len(bad)
			f.note("code in a promoted line differs from its source: %s %q (%s)", e.File, qShort(strings.Join(bad, " ")), qPointers(ranges))
		}
		if !right {
			f.note("promoted a line that is not durable: %s %q (%s)", e.File, qShort(e.Text), qPointers(ranges))
			continue
		}
		if !qGrounded(e.Text, citedText.String()) {
			f.ungrounded++
			f.note("promoted line says something its durable source does not: %s %q (%s)", e.File, qShort(e.Text), qPointers(ranges))
			continue
		}
		f.right++
		if rightFacts[e.File] == nil {
			rightFacts[e.File] = map[string]bool{}
		}
		dup := true
		for _, d := range cited {
			found[d.fact] = true
			if !rightFacts[e.File][d.fact] {
				dup = false
			}
			rightFacts[e.File][d.fact] = true
		}
		if dup {
			f.duplicates++
			f.note("fact promoted again into %s: %q", e.File, qShort(e.Text))
		}
		if topicsBefore[e.File] && e.File != l.index && !slices.ContainsFunc(cited, func(d *qDurable) bool { return slices.Contains(d.into, e.File) }) {
			f.misfiled++
			f.note("misfiled into %s: %q", e.File, qShort(e.Text))
		}
	}
	f.factsFound = len(found)
	for _, fact := range slices.Sorted(maps.Keys(facts)) {
		if !found[fact] {
			f.note("durable fact not promoted: %s", qFactRef(l, fact))
		}
	}

	for _, p := range slices.Sorted(maps.Keys(topicsAfter)) {
		tp := topicsAfter[p]
		if topicsBefore[p] || p == l.index {
			continue
		}
		f.newTopics++
		switch {
		case !slices.Contains(l.topics, tp.Topic):
			f.junk++
			f.note("junk topic file %s: its name is not one a user would pick here", p)
		case len(rightFacts[p]) < 2:
			f.junk++
			f.note("junk topic file %s: %d right facts", p, len(rightFacts[p]))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(after)) {
		if _, ok := q.before[p]; ok || p == l.index {
			continue
		}
		if base := strings.ToLower(path.Base(p)); base == "memory.md" || base == "index.md" {
			f.stubIndexes++
			f.note("stub index created: %s (the workspace's index is %s)", p, l.index)
		}
	}
	curated := qCuratedPaths(wsA)
	for _, p := range slices.Sorted(maps.Keys(after)) {
		old, existed := q.before[p]
		if !strings.HasSuffix(p, ".md") || daily[p] || curated[p] || p == dreamLogPath || strings.HasPrefix(p, "memory/archive/") ||
			existed && old == after[p] {
			continue
		}
		f.otherFiles++
		f.note("changed a file outside curated memory: %s", p)
	}
	q.measureEdits(f, after, daily)
	q.measureState(f, after)
	q.measureSupersedes(f, after, fresh)
}

// measureEdits judges how the dream edited Markdown: code it changed,
// lines it put into human structures, list counts it broke.
func (q *qWorkspace) measureEdits(f *qFigures, after map[string]string, daily map[string]bool) {
	l := q.labels
	spansBefore, spansAfter := map[string]int{}, map[string]int{}
	for _, p := range slices.Sorted(maps.Keys(after)) {
		old, existed := q.before[p]
		if !strings.HasSuffix(p, ".md") || daily[p] || existed && old == after[p] {
			continue
		}
		for _, s := range qCodeSpans(old) {
			spansBefore[s]++
		}
		for _, s := range qCodeSpans(after[p]) {
			spansAfter[s]++
		}
		if existed {
			f.inserted += q.insertedIntoStructures(f, p, old, after[p])
		}
	}
	for _, s := range slices.Sorted(maps.Keys(spansBefore)) {
		if lost := spansBefore[s] - spansAfter[s]; lost > 0 {
			f.changedCode += lost
			f.note("code changed: %q", qShort(s))
		}
	}
	for _, r := range l.counts {
		lines := strings.Split(after[r.file], "\n")
		at := -1
		for i, line := range lines {
			if strings.Contains(line, r.text) {
				at = i
				break
			}
		}
		if at < 0 {
			f.brokenCounts++
			f.note("counted heading gone: %s", r)
			continue
		}
		n, _ := statedCount(lines[at])
		from, to := qSection(lines, at)
		if got := qListLength(lines, from, to); got != n {
			f.brokenCounts++
			f.note("count broken: %s says %d, lists %d", r, n, got)
		}
	}
}

// insertedIntoStructures counts the lines a dream added to a human file
// that touch a code block, a table, a numbered list or a closed list (no
// blank line between): a fact there changes what the human wrote. A line
// the dream rewrote counts as added.
func (q *qWorkspace) insertedIntoStructures(f *qFigures, file, before, after string) int {
	a, b := strings.Split(before, "\n"), strings.Split(after, "\n")
	st := qStructures(a)
	closed := make([]bool, len(a))
	for _, r := range append(slices.Clone(q.labels.closed), q.labels.counts...) {
		if r.file != file {
			continue
		}
		i := r.line - 1
		if reQHeading.MatchString(a[i]) {
			from, to := qSection(a, i)
			for k := from; k < to; k++ {
				closed[k] = st[k].list > 0
			}
			continue
		}
		for k := range a {
			if st[k].list == st[i].list {
				closed[k] = true
			}
		}
	}
	human := func(i int) string {
		switch {
		case i < 0 || i >= len(a):
			return ""
		case st[i].code:
			return "code"
		case st[i].table:
			return "a table"
		case closed[i]:
			return "a closed list"
		case st[i].ordered:
			return "a numbered list"
		}
		return ""
	}
	keep := qDiff(a, b)
	count := 0
	for j := 0; j < len(b); {
		if keep[j] >= 0 {
			j++
			continue
		}
		k := j
		for k < len(b) && keep[k] < 0 {
			k++
		}
		above, below := -1, -1
		if j > 0 {
			above = keep[j-1]
		}
		if k < len(b) {
			below = keep[k]
		}
		where := ""
		if strings.TrimSpace(b[j]) != "" {
			where = human(above)
		}
		if where == "" && strings.TrimSpace(b[k-1]) != "" {
			where = human(below)
		}
		if where != "" {
			for _, line := range b[j:k] {
				if strings.TrimSpace(line) != "" {
					count++
					f.note("line put into %s of %s: %q", where, file, qShort(line))
				}
			}
		}
		j = k
	}
	return count
}

// measureState judges the state files against the workspace's own
// conventions: event records in the shape the log already uses, and no
// date invented for entries that have none.
func (q *qWorkspace) measureState(f *qFigures, after map[string]string) {
	const events = "memory/.dreams/events.jsonl"
	if newRecs := qNewLines(q.before[events], after[events]); len(newRecs) > 0 {
		_, kept := q.before[events]
		var common map[string]bool
		for _, line := range strings.Split(q.before[events], "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			if common == nil {
				common = map[string]bool{}
				for k := range rec {
					common[k] = true
				}
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(common)) {
				if _, ok := rec[k]; !ok {
					delete(common, k)
				}
			}
		}
		for _, line := range newRecs {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				f.foreignEvents++
				f.note("event record is not JSON: %q", qShort(line))
				continue
			}
			if !kept {
				f.foreignEvents++
				f.note("event log created in a workspace that keeps none: %q", qShort(line))
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(common)) {
				if _, ok := rec[k]; !ok {
					f.foreignEvents++
					f.note("event record without %q, which every record of the log has: %q", k, qShort(line))
					break
				}
			}
		}
	}
	type meta struct {
		Entries []struct {
			ID      string `json:"id"`
			Created string `json:"created"`
		} `json:"entries"`
	}
	var mb, ma meta
	_ = json.Unmarshal([]byte(q.before["memory/memory-meta.json"]), &mb)
	_ = json.Unmarshal([]byte(after["memory/memory-meta.json"]), &ma)
	was := map[string]string{}
	for _, e := range mb.Entries {
		was[e.ID] = e.Created
	}
	today := q.labels.now.Format(time.DateOnly)
	for _, e := range ma.Entries {
		if strings.HasPrefix(e.Created, today) && !strings.HasPrefix(was[e.ID], today) {
			f.invented++
		}
	}
	if f.invented > 0 {
		f.note("%d memory-meta.json records dated %s, the dream's own day (no log is from that day)", f.invented, today)
	}
}

// qNewLines are the non-empty lines of after that before does not have
// (as a multiset).
func qNewLines(before, after string) []string {
	have := map[string]int{}
	for _, l := range strings.Split(before, "\n") {
		have[l]++
	}
	var out []string
	for _, l := range strings.Split(after, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if have[l] > 0 {
			have[l]--
			continue
		}
		out = append(out, l)
	}
	return out
}

var reQMarker = regexp.MustCompile(`(?i)supersed|contested|replaced|outdated|~~`)

// measureSupersedes checks the labelled replacements: the new fact is
// promoted, and the line it replaces is marked or archived, not left as if
// still true (and not lost).
func (q *qWorkspace) measureSupersedes(f *qFigures, after map[string]string, fresh []*workspace.Entry) {
	promotedLine := func(r qRef) bool {
		for _, e := range fresh {
			for _, s := range e.Sources {
				if s.Path == r.file && r.line >= s.StartLine && r.line <= max(s.EndLine, s.StartLine) {
					return true
				}
			}
		}
		return false
	}
	for _, s := range q.labels.supersedes {
		f.supersedes++
		newOK := promotedLine(s.new)
		oldOK := false
		inFile := false
		for _, line := range strings.Split(after[s.old.file], "\n") {
			if strings.Contains(line, s.old.text) {
				inFile = true
				oldOK = reQMarker.MatchString(line)
			}
		}
		if !inFile {
			for p, content := range after {
				if strings.HasPrefix(p, "memory/archive/") && strings.Contains(content, s.old.text) {
					oldOK = true
				}
			}
		}
		if newOK && oldOK {
			f.done++
			continue
		}
		f.note("replacement not handled (new promoted: %v, old marked or archived: %v): %s replaces %s", newOK, oldOK, s.new, s.old)
	}
}

// qCopiedCode lists the code a promoted line got wrong: inline code of its
// source that the line uses (most of its words are there) but not byte
// for byte, markup included (without backticks "amount_cents" renders as
// emphasis); and, when there is none, code spans of the line its source
// does not have.
func qCopiedCode(line, source string) []string {
	var bad []string
	for _, src := range strings.Split(source, "\n") {
		for _, span := range qInlineCode(src) {
			if strings.Contains(line, span) {
				continue
			}
			if inner := strings.Trim(span, "`"); qGrounded(inner, line) {
				bad = append(bad, span)
			}
		}
	}
	if len(bad) > 0 {
		return bad
	}
	for _, span := range qCodeSpans(line) {
		if !strings.Contains(source, span) {
			bad = append(bad, span)
		}
	}
	return bad
}

// qGrounded reports whether a promoted line says what its sources say: at
// least half of its words (Han text: character pairs) are in them.
func qGrounded(text, sources string) bool {
	tw, sw := qTokens(text), qTokens(sources)
	if len(tw) == 0 {
		return false
	}
	in := 0
	for w := range tw {
		if sw[w] {
			in++
		}
	}
	return 2*in >= len(tw)
}

func qPointers(ps []workspace.SourcePointer) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s#L%d-L%d", p.Path, p.StartLine, max(p.EndLine, p.StartLine)))
	}
	return strings.Join(out, ", ")
}

func qFactRef(l *qLabels, fact string) string {
	for _, d := range l.durable {
		if d.fact == fact {
			return d.qRef.String()
		}
	}
	return fact
}

func qShort(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 90 {
		return string(r[:89]) + "…"
	}
	return s
}
