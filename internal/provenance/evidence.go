package provenance

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Evidence thresholds, chosen on the labelled set in evidence_test.go
// (see TestEvidence_LabelledSetPrecisionAndRecall for the figures).
const (
	// minOverlap is the share of a claim's term weight (idf-weighted, stop
	// words aside) a block must hold to be evidence by word overlap.
	minOverlap = 0.5
	// minRecalled is the share needed when the recall store or a recall
	// event points at the block: the agent itself found the block when it
	// looked for this kind of fact, so less textual agreement is needed.
	minRecalled = 0.4
	// minBalance is the least harmonic mean of contain and cover.
	minBalance = 0.45
	// minClauseContain and minClauseBalance are the bars for a clause of
	// a claim matched on its own.
	minClauseContain = 0.6
	minClauseBalance = 0.55
	// fullContain is the share of a claim that makes a line evidence
	// whatever its length.
	fullContain = 0.85
	// minLeaves is how many distinct words (not dates' parts or joined
	// forms) a block must share with the claim.
	minLeaves = 2
	// maxTextEvidence caps the evidence found by matching per claim; the
	// strongest few say where a claim came from, more only repeat it.
	maxTextEvidence = 3
	// relativeCut drops matches much less confident than the best one.
	relativeCut = 0.2
	// maxExcerpt is the longest excerpt kept, in runes.
	maxExcerpt = 400
	// strictContain is the bar for more evidence of a claim whose pointer
	// already names a line.
	strictContain = 0.7
)

// hasLineEvidence reports whether an explicit pointer gave c a line.
func hasLineEvidence(c *Claim) bool {
	for _, ev := range c.Evidence {
		if ev.Method.IsPointer() && ev.StartLine > 0 && ev.Confidence >= 0.9 {
			return true
		}
	}
	return false
}

// collectEvidence finds the evidence of every claim: explicit pointers
// (in the order written), then matching over the corpus. A claim whose
// evidence the cache holds (see Cache) takes it from there.
func (a *analyzer) collectEvidence() {
	a.byDate = make(map[time.Time][]string, len(a.ws.Daily))
	for _, d := range a.ws.Daily {
		a.byDate[d.Date] = append(a.byDate[d.Date], d.File.Path)
	}
	byDate := a.byDate
	var todo []int // the claims whose evidence is worked out here
	for i, c := range a.claims {
		e := a.memo.evidence(c, a)
		if e == nil {
			todo = append(todo, i)
			continue
		}
		c.Evidence = append([]Evidence(nil), e.evidence...)
		c.Findings = append(c.Findings, e.codes...)
		for _, d := range e.findings {
			a.findings.Add(d)
		}
		for _, r := range e.reads {
			a.sourceOf(r.path) // anchors are added to the files evidence is in
		}
	}
	queries := make([][]query, len(a.claims))
	terms := make([][]string, len(a.claims))
	// Analysis and matching read only the claims and the corpus, so they
	// run on every core; pointers add evidence, in claim order, between.
	workers := runtime.GOMAXPROCS(0)
	split := a.claimTerms(todo)
	parallel.For(len(todo), workers, func(k int) {
		i := todo[k]
		var tm termer
		ref := a.claimRef(a.claims[i])
		terms[i] = split[k].text.at(ref, &tm)
		queries[i] = a.claimQueries(split[k], terms[i], ref, &tm)
	})
	a.termPointedFiles(todo, byDate)
	found := make([]*evidenceEntry, len(a.claims))
	for _, i := range todo {
		c := a.claims[i]
		e := &evidenceEntry{ref: a.claimRef(c), corpus: a.corpus, names: a.names}
		nf, nc := len(a.findings), len(c.Findings)
		a.reads = &e.reads
		for _, p := range pointersOf(c) {
			a.addPointerEvidence(c, terms[i], p, PointerMethod(p.Kind), byDate, "")
		}
		a.reads = nil
		e.findings = append(diag.List(nil), a.findings[nf:]...)
		e.codes = append([]string(nil), c.Findings[nc:]...)
		found[i] = e
	}
	matched := make([][]Evidence, len(a.claims))
	scratches := sync.Pool{New: func() any { return &scratch{} }}
	parallel.For(len(todo), workers, func(k int) {
		i := todo[k]
		sc := scratches.Get().(*scratch)
		matched[i] = a.matchText(a.claims[i], split[k].norm, queries[i], distinctiveTerms(terms[i]), hasLineEvidence(a.claims[i]), sc)
		scratches.Put(sc)
	})
	for _, i := range todo {
		c := a.claims[i]
		for _, ev := range matched[i] {
			a.addEvidence(c, ev)
		}
		if a.memo != nil {
			found[i].evidence = append([]Evidence(nil), c.Evidence...)
			a.memo.keepEvidence(c, found[i])
		}
	}
}

// termPointedFiles computes, on every core, the terms of each piece of the
// files the pointers of the claims at indexes todo name, which resolving
// the pointers (one at a time, in claim order) then only looks up.
func (a *analyzer) termPointedFiles(todo []int, byDate map[time.Time][]string) {
	var srcs []*source
	seen := map[*source]bool{}
	for _, i := range todo {
		c := a.claims[i]
		for _, p := range pointersOf(c) {
			paths, _ := a.pointerTargets(c, p, byDate)
			for _, tp := range paths {
				if src := a.sourceOf(tp); src != nil && !seen[src] {
					seen[src] = true
					srcs = append(srcs, src)
				}
			}
		}
	}
	parallel.For(len(srcs), runtime.GOMAXPROCS(0), func(i int) {
		var tm termer
		for j := range srcs[i].pieces {
			srcs[i].pieceTerms(j, &tm)
		}
	})
}

// claimRef is the date partial dates in a claim are resolved against.
func (a *analyzer) claimRef(c *Claim) time.Time {
	if m := a.meta[c]; m != nil && !m.Created.IsZero() {
		return m.Created
	}
	if c.Entry != nil && !c.Entry.Date.IsZero() {
		return c.Entry.Date
	}
	return a.res.AsOf
}

// claimTerms are the texts of the claims at indexes todo split for
// matching, each worked out once while the cache keeps it.
func (a *analyzer) claimTerms(todo []int) []*claimTerms {
	out := make([]*claimTerms, len(todo))
	keys := make([]claimTextKey, len(todo))
	var miss []int
	for k, i := range todo {
		c := a.claims[i]
		keys[k] = claimTextKey{text: statedText(c)}
		if c.Entry != nil {
			keys[k].rule = c.Entry.Rule
		}
		if out[k] = a.memo.claimTerms(keys[k]); out[k] == nil {
			miss = append(miss, k)
		}
	}
	parallel.For(len(miss), runtime.GOMAXPROCS(0), func(j int) {
		var tm termer
		k := miss[j]
		out[k] = newClaimTerms(keys[k], &tm)
	})
	for _, k := range miss {
		a.memo.keepClaimTerms(keys[k], out[k])
	}
	return out
}

// claimTerms are a claim's texts split for matching (see claimQueries).
type claimTerms struct {
	// text is the stated text's, parts are those of the rule and the
	// clauses that differ from it.
	text  *textTerms
	parts []*textTerms
	// norm is the stated text normalised (analysis.Normalize), as
	// classify compares it with a block's.
	norm string
}

// claimTextKey is what a claim's texts are split from: its stated text
// and its entry's rule.
type claimTextKey struct{ text, rule string }

// newClaimTerms splits the texts a claim is matched by: its text, and
// each of its clauses. An entry often joins facts a log wrote on separate
// lines ("Lena Vogt — payments PM. Marta has the spare key."), and a
// Rule/Why/How entry's rule is what the log line said.
func newClaimTerms(k claimTextKey, tm *termer) *claimTerms {
	ct := &claimTerms{text: tm.split(k.text), norm: analysis.Normalize(k.text)}
	seen := map[string]bool{k.text: true}
	var parts []string
	if k.rule != "" {
		parts = append(parts, k.rule)
	}
	parts = append(parts, clauses(k.text)...)
	for _, p := range parts {
		if seen[p] {
			continue
		}
		seen[p] = true
		ct.parts = append(ct.parts, tm.split(p))
	}
	return ct
}

// claimQueries are the queries a claim is matched by: its text's (whose
// terms at ref are terms), and each of its clauses' that says something
// on its own (at least minClauseWords words).
func (a *analyzer) claimQueries(ct *claimTerms, terms []string, ref time.Time, tm *termer) []query {
	qs := []query{a.corpus.query(terms)}
	for _, p := range ct.parts {
		ts := p.at(ref, tm)
		if leafCount(ts) >= minClauseWords {
			qs = append(qs, a.corpus.query(ts))
		}
	}
	return qs
}

// minClauseWords is the fewest words a clause needs to be matched alone.
const minClauseWords = 3

// clauses cuts text into sentences and semicolon clauses, and gives the
// text without its parenthetical remarks.
func clauses(text string) []string {
	var out []string
	if strings.ContainsAny(text, "(（") {
		if t := strings.TrimSpace(reParen.ReplaceAllString(text, "")); t != "" {
			out = append(out, t)
		}
	}
	parts := reClause.Split(text, -1)
	if len(parts) < 2 {
		return out
	}
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

var (
	reParen  = regexp.MustCompile(`\s*[(（][^)）]*[)）]`)
	reClause = regexp.MustCompile(`[.!?。；;]\s+|\s[—–]\s|,?\s+and\s+`)
)

func leafCount(terms []string) int {
	n := 0
	for _, t := range terms {
		if isLeafTerm(t) {
			n++
		}
	}
	return n
}

// pointersOf returns the entry's pointers without repeats (a promotion
// comment and its [score=... source=...] suffix name the same lines).
func pointersOf(c *Claim) []workspace.SourcePointer {
	if c.Entry == nil {
		return nil
	}
	if len(c.Entry.Sources) < 2 {
		return c.Entry.Sources // nothing to repeat
	}
	var out []workspace.SourcePointer
	seen := map[string]bool{}
	for _, p := range c.Entry.Sources {
		k := p.Path + "#" + strconv.Itoa(p.StartLine) + "-" + strconv.Itoa(p.EndLine)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	return out
}

// addEvidence appends ev unless the claim already has evidence on the
// same block.
func (a *analyzer) addEvidence(c *Claim, ev Evidence) {
	for _, old := range c.Evidence {
		if old.Path == ev.Path && old.StartLine == ev.StartLine {
			return
		}
	}
	c.Evidence = append(c.Evidence, ev)
}

// pointerTargets resolves where a pointer points. ok is false when the
// file it names does not exist (a wikilink to nothing is the vault's to
// report, as a broken link).
func (a *analyzer) pointerTargets(c *Claim, p workspace.SourcePointer, byDate map[time.Time][]string) (paths []string, ok bool) {
	switch {
	case p.Kind == workspace.PointerWikilink:
		if t, found := a.names.Lookup(c.File, p.Path); found {
			return []string{t}, true
		}
		return nil, true
	case !p.Date.IsZero() && p.StartLine == 0:
		ps := byDate[dates.Day(p.Date)]
		if len(ps) == 0 && a.ws.Withholds(p.Path) {
			ps = []string{p.Path}
		}
		return ps, len(ps) > 0
	}
	// As written, else relative to the claim's file (joined only then: it
	// is rarely needed, and every claim's pointers are resolved).
	for i := range 2 {
		cand := p.Path
		if i == 1 {
			cand = path.Join(path.Dir(c.File), p.Path)
		}
		if f := a.ws.FileByPath(cand); f != nil {
			return []string{f.Path}, true
		}
		if a.ws.Withholds(cand) {
			return []string{cand}, true
		}
	}
	return nil, false
}

// addPointerEvidence turns one explicit pointer into evidence, reporting
// pointers to missing files and lines past the end.
//
// Findings are reported at file:p.Line (the claim's file when file is "").
func (a *analyzer) addPointerEvidence(c *Claim, terms []string, p workspace.SourcePointer, method Method, byDate map[time.Time][]string, file string) {
	if ev, ok := a.resolvePointer(c, terms, p, method, byDate, file); ok {
		a.addEvidence(c, ev)
	}
}

// resolvePointer is addPointerEvidence without adding: ok is false when
// the pointer gives no evidence.
func (a *analyzer) resolvePointer(c *Claim, terms []string, p workspace.SourcePointer, method Method, byDate map[time.Time][]string, file string) (Evidence, bool) {
	paths, ok := a.pointerTargets(c, p, byDate)
	line := p.Line
	if file == "" {
		file = c.File
		if line == 0 {
			line = c.Line
		}
	}
	if !ok {
		what := p.Path
		if !p.Date.IsZero() && p.StartLine == 0 {
			what = "a daily log for " + p.Date.Format("2006-01-02")
		}
		a.findings.Add(pointerDiag(file, line, fmt.Sprintf("pointer %q names %s, which is not in the workspace", p.Text, what),
			"fix the path, or remove the pointer; no evidence was taken from it"))
		c.Findings = append(c.Findings, "broken-pointer")
		return Evidence{}, false
	}
	var best Evidence
	bestScore := -1.0
	for _, tp := range paths {
		if tp == c.File {
			continue
		}
		if a.ws.Withholds(tp) {
			// The claim has evidence, and nothing of it is told: not the
			// path, the lines or the words (DESIGN 5.7). Any evidence that
			// can be shown ranks above it.
			if bestScore < privateRank {
				best, bestScore = Evidence{Method: method, Kind: SourceNote, Confidence: 0.6, Private: true}, privateRank
			}
			continue
		}
		src := a.sourceOf(tp)
		if src == nil {
			continue
		}
		start, end := p.StartLine, p.EndLine
		if start > 0 {
			if end < start {
				end = start
			}
			n := len(src.lines)
			if start > n {
				a.findings.Add(pointerDiag(file, line, fmt.Sprintf("pointer %q names line %d, but %s has %d lines", p.Text, start, tp, n),
					"the log may have been edited; point at the line that holds the fact"))
				c.Findings = append(c.Findings, "broken-pointer")
				continue
			}
			if end > n {
				a.findings.Add(pointerDiag(file, line, fmt.Sprintf("pointer %q runs to line %d, but %s has %d lines; read up to line %d", p.Text, end, tp, n, n),
					"fix the range"))
				c.Findings = append(c.Findings, "broken-pointer")
				end = n
			}
		}
		ev, s := a.bestBlock(src, terms, start, end)
		ev.Method, ev.Pointer = method, p.Text
		switch {
		case start > 0 && s.contain >= 0.25, start > 0 && s.leaves >= minLeaves:
			ev.Confidence = 1
		case start > 0:
			ev.Confidence = 0.7 // the pointer says so; the text does not obviously agree
		case ev.StartLine > 0:
			ev.Confidence = 0.9
		default:
			ev.Confidence = 0.6 // the whole file, no line stands out
		}
		rank := s.contain + float64(s.leaves)/100
		if ev.StartLine == 0 {
			rank = -0.5
		}
		if rank > bestScore {
			best, bestScore = ev, rank
		}
	}
	return best, bestScore > -1
}

// privateRank ranks the evidence of a pointer to a private note below
// whole-file evidence (-0.5) and above none (-1).
const privateRank = -0.75

func pointerDiag(file string, line int, msg, hint string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Code: "broken-pointer", File: file, Line: line, Message: msg, Hint: hint}
}

// bestBlock returns the piece of src between lines start and end (the
// whole file when start is 0) that best supports the claim's terms. With
// a range but no piece in it (only headings or blank lines), the evidence
// is the range itself; with no range and no piece that shares two words,
// the evidence is the whole file.
func (a *analyzer) bestBlock(src *source, terms []string, start, end int) (Evidence, score) {
	best := -1
	var bestS score
	var tm termer
	for i, pc := range src.pieces {
		if start > 0 && (pc.End < start || pc.Start > end) {
			continue
		}
		s := a.overlap(terms, src.pieceTerms(i, &tm))
		if best < 0 || s.contain > bestS.contain || (s.contain == bestS.contain && s.leaves > bestS.leaves) {
			best, bestS = i, s
		}
	}
	ev := Evidence{Path: src.path, Kind: src.kind, Date: src.date, Private: src.private}
	switch {
	case best >= 0 && (start > 0 || bestS.leaves >= minLeaves || (bestS.contain >= 0.3 && bestS.leaves >= 1)):
		a.fillPiece(&ev, src, best)
	case start > 0:
		ev.StartLine, ev.EndLine = start, end
		var parts []string
		for ln := start; ln <= end && ln <= len(src.lines); ln++ {
			if t := strings.TrimSpace(src.lines[ln-1]); t != "" {
				parts = append(parts, strings.TrimLeft(t, "#> "))
			}
		}
		ev.Excerpt = clip(strings.Join(parts, " "), maxExcerpt)
	}
	return ev, bestS
}

// fillPiece points ev at piece i of src, and its link at the piece's block.
func (a *analyzer) fillPiece(ev *Evidence, src *source, i int) {
	pc := src.pieces[i]
	b := &src.blocks[pc.blk]
	ev.StartLine, ev.EndLine = pc.Start, pc.End
	ev.Excerpt = clip(pc.Text, maxExcerpt)
	switch {
	case b.ID != "":
		ev.Block = b.ID
	case b.Anchorable:
		ev.Block = "e" + strconv.Itoa(b.Start)
	}
}

// overlap scores block terms against claim terms with the corpus's
// weights (terms the corpus has never seen weigh the most).
func (a *analyzer) overlap(claim, blk []string) score {
	var s score
	total, matched, bw := 0.0, 0.0, 0.0
	i, j := 0, 0
	for i < len(claim) || j < len(blk) {
		switch {
		case j >= len(blk) || (i < len(claim) && claim[i] < blk[j]):
			total += a.weight(claim[i])
			i++
		case i >= len(claim) || claim[i] > blk[j]:
			bw += a.weight(blk[j])
			j++
		default:
			w := a.weight(claim[i])
			total += w
			bw += w
			matched += w
			if isLeafTerm(claim[i]) {
				s.leaves++
			}
			i++
			j++
		}
	}
	if total > 0 {
		s.contain = matched / total
	}
	if bw > 0 {
		s.cover = matched / bw
	}
	return s
}

func (a *analyzer) weight(t string) float64 {
	if id, ok := a.corpus.ids[t]; ok {
		return a.corpus.idf[id]
	}
	return a.corpus.unknownIDF
}

// textMatch is one candidate block for one claim: its unit, and how it
// matched (conf rounded as Evidence.Confidence is).
type textMatch struct {
	unit   int32
	method Method
	conf   float64
}

// matchText finds evidence for c by matching over the corpus: exact and
// substring agreement of the normalised texts, then idf-weighted word
// overlap, with a lower bar for blocks the agent recalled.
//
// When strict (an explicit pointer already names a line), a match must be
// stronger to be added: it only says the fact was also written elsewhere.
func (a *analyzer) matchText(c *Claim, cn string, qs []query, distinct []string, strict bool, sc *scratch) []Evidence {
	// Every match in query order; a block matched again by a later query
	// (a clause) replaces its match when that is more confident.
	ms := sc.matches[:0]
	for qi := range qs {
		q := &qs[qi]
		for _, s := range a.corpus.candidates(q, minRecalled, sc) {
			u := &a.corpus.units[s.unit]
			if u.src.path == c.File {
				continue
			}
			method, conf, ok := classify(cn, u.src.norms[u.piece], s, u.recall, qi > 0)
			if !ok || (strict && method != MethodExact && method != MethodSubstring && s.contain < strictContain) {
				continue
			}
			if int(u.piece) < len(u.src.terms) && !sharesValues(distinct, u.src.terms[u.piece]) {
				continue
			}
			ms = append(ms, textMatch{s.unit, method, conf})
		}
	}
	sc.matches = ms
	if len(ms) == 0 {
		return nil
	}
	// By block, in the order found; then each block's match is folded
	// into one: a later one wins when the one kept (rounded) is less
	// confident than it.
	slices.SortStableFunc(ms, func(x, y textMatch) int { return cmp.Compare(x.unit, y.unit) })
	kept := ms[:0]
	for _, m := range ms {
		if n := len(kept); n > 0 && kept[n-1].unit == m.unit {
			if kept[n-1].conf < m.conf {
				kept[n-1] = textMatch{m.unit, m.method, round3(m.conf)}
			}
			continue
		}
		kept = append(kept, textMatch{m.unit, m.method, round3(m.conf)})
	}
	units := a.corpus.units
	slices.SortFunc(kept, func(x, y textMatch) int {
		ux, uy := &units[x.unit], &units[y.unit]
		return cmp.Or(cmp.Compare(y.conf, x.conf), cmp.Compare(ux.src.path, uy.src.path),
			cmp.Compare(ux.src.pieces[ux.piece].Start, uy.src.pieces[uy.piece].Start), cmp.Compare(x.unit, y.unit))
	})
	if day := claimDay(c); !day.IsZero() {
		// A dated entry looks in its own day's log first: that day's
		// lines come before any other day's, however the others scored.
		own := func(m textMatch) bool {
			u := &units[m.unit]
			return u.src.kind == SourceDaily && u.src.date.Equal(day)
		}
		slices.SortStableFunc(kept, func(x, y textMatch) int {
			ox, oy := own(x), own(y)
			switch {
			case ox && !oy:
				return -1
			case oy && !ox:
				return 1
			}
			return 0
		})
	}
	top := kept[0].conf
	var out []Evidence
	for _, m := range kept {
		if len(out) == maxTextEvidence {
			break
		}
		if m.conf < top-relativeCut {
			continue
		}
		u := &units[m.unit]
		ev := Evidence{Path: u.src.path, Kind: u.src.kind, Date: u.src.date, Private: u.src.private, Method: m.method, Confidence: m.conf}
		a.fillPiece(&ev, u.src, u.piece)
		out = append(out, ev)
	}
	return out
}

// claimDay is the day a claim's entry is dated ("… (2026-07-18)"), zero
// when it has none.
func claimDay(c *Claim) time.Time {
	if c.Entry == nil || c.Entry.Date.IsZero() {
		return time.Time{}
	}
	return dates.Day(c.Entry.Date)
}

// distinctiveTerms are the terms of a claim that are its values, not its
// label or its common words: numbers and amounts ("3.30", "240"),
// identifiers, paths and file names ("5/ip/15min", "boredom-timer.sh").
// Dates are left out, with the parts they split into: they say when, and
// claimDay reads them; so are words joined by a hyphen only
// ("sister-in-law"), which a log may write apart.
func distinctiveTerms(terms []string) []string {
	dateParts := map[string]bool{}
	for _, t := range terms {
		if _, ok := dates.Parse(t); ok && strings.Count(t, "-") == 2 {
			dateParts[t] = true
			for _, p := range strings.Split(t, "-") {
				dateParts[p] = true
			}
		}
		// "3.60" is also split into "60", which "4.60" has too, and
		// "22:00" into "22" and "00": a number is matched whole.
		if strings.ContainsAny(t, ".:") && strings.ContainsFunc(t, unicode.IsDigit) {
			for _, p := range strings.FieldsFunc(t, func(r rune) bool { return r == '.' || r == ':' }) {
				if p != t {
					dateParts[p] = true
				}
			}
		}
	}
	var out []string
	for _, t := range terms {
		if dateParts[t] || (isDateToken(t) && strings.ContainsAny(t, "-/")) { // dates, parts of numbers and times
			continue
		}
		if strings.ContainsFunc(t, unicode.IsDigit) || strings.ContainsAny(t, `/\@:._`) {
			out = append(out, t)
		}
	}
	return out
}

// sharesValues reports whether a block's terms (sorted) hold enough of a
// claim's distinctive terms to support it: at least half of them, one at
// least, and at least half of its names of things (file names, paths,
// identifiers with a dot, slash or underscore). A block that shares only
// a claim's label and common words ("Rate limiting de magic login" for
// "… — 5/IP/15min"), or its numbers with another name ("rotate-logs.sh
// keeps 30 days" for "prune-snapshots.sh keeps 30 days"), says something
// else. A claim without such terms needs none.
func sharesValues(distinct, block []string) bool {
	var in, names, namesIn int
	for _, t := range distinct {
		_, ok := slices.BinarySearch(block, t)
		if ok {
			in++
		}
		if strings.ContainsFunc(t, unicode.IsLetter) && strings.ContainsAny(t, `./\_`) {
			names++
			if ok {
				namesIn++
			}
		}
	}
	return len(distinct) == 0 || (2*in >= len(distinct) && in > 0 && 2*namesIn >= names)
}

// classify decides whether a candidate block is evidence, and how strong.
//
// Word overlap is judged on two shares: how much of the claim the line
// holds (contain) and how much of the line is the claim (cover), combined
// as their harmonic mean. A long line that happens to hold most of a short
// claim's words ("Taipei trip booked: April 3rd to April 10th" for "The
// Taipei trip was cancelled") covers little of itself and is no evidence.
//
// A clause of the claim (clause is true) matched alone must match better:
// it is a part of the claim, and short parts find look-alikes easily.
// claimNorm and bn are the claim's and the block's texts normalised
// (analysis.Normalize).
func classify(claimNorm, bn string, s score, recall Method, clause bool) (Method, float64, bool) {
	if claimNorm != "" && (s.contain >= 0.6 || recall != "") {
		cw, bwords := strings.Count(claimNorm, " ")+1, strings.Count(bn, " ")+1
		switch {
		case bn == claimNorm && utf8.RuneCountInString(claimNorm) >= 8:
			return MethodExact, 1, true
		case cw >= 3 && containsWords(bn, claimNorm):
			return MethodSubstring, 0.95, true
		case bwords >= 4 && 2*len(bn) >= len(claimNorm) && containsWords(claimNorm, bn):
			return MethodSubstring, 0.9, true
		}
	}
	if s.leaves < minLeaves {
		return "", 0, false
	}
	f := 0.0
	if s.contain+s.cover > 0 {
		f = 2 * s.contain * s.cover / (s.contain + s.cover)
	}
	if clause && (s.contain < minClauseContain || f < minClauseBalance) && s.contain < fullContain {
		return "", 0, false
	}
	switch {
	case recall != "" && s.contain >= minRecalled && f >= minBalance-0.1:
		return recall, min(0.6+0.35*f, 0.95), true
	case s.contain >= minOverlap && f >= minBalance:
		return MethodOverlap, min(0.5+0.4*f, 0.9), true
	case s.contain >= fullContain:
		// Every word of the claim is in the line, however much else the
		// line says: "clock: 24h" in "…Europe/Lisbon timezone, 24h clock…".
		return MethodOverlap, 0.5 + 0.4*s.contain*0.9, true
	case s.contain >= minOverlap-0.05 && s.cover >= 0.9 && s.leaves >= 3:
		// A short line that is all about the claim: "Petra approved the switch."
		return MethodOverlap, 0.5 + 0.4*s.contain, true
	}
	return "", 0, false
}

// containsWords reports whether needle occurs in hay on word boundaries.
func containsWords(hay, needle string) bool {
	for i := 0; ; {
		k := strings.Index(hay[i:], needle)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(needle)
		if (k == 0 || hay[k-1] == ' ') && (end == len(hay) || hay[end] == ' ') {
			return true
		}
		i = k + 1
	}
}
