package provenance

import (
	"maps"
	"runtime"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// analyzer holds the state of one Analyze call.
type analyzer struct {
	ws   *workspace.Workspace
	opts Options
	now  time.Time // the end of the as-of day
	res  *Result

	claims []*Claim
	// meta is the memory-meta.json entry of each claim that has one.
	meta       map[*Claim]*memory.MetaRecord
	claimOfMID map[string]*Claim
	metaByID   map[string]*memory.MetaRecord
	prior      map[*Claim]*PriorClaim

	sources map[string]*source
	corpus  *corpus
	names   *markdown.NameIndex
	// claimWords indexes claims by word for matching dream items and
	// observations to claims.
	claimWords map[string][]int
	claimSets  []map[string]bool

	// recalls are the recall-store entries and events per claim.
	recallOf   map[*Claim]*recallStats
	findings   diag.List
	byLocation map[string]*Claim // "file:line" of every line of every claim

	byDate    map[time.Time][]string // daily log paths by date
	itemClaim map[*workspace.DreamItem]*Claim
	// itemEvidence is the evidence of each matched dream item.
	itemEvidence map[*workspace.DreamItem][]Evidence
	dreamEdges   []edge

	// memo is this run's view of Options.Cache; nil without one.
	memo *memo
	// cachedCorpus is set when the corpus (its units marked) came from
	// the cache.
	cachedCorpus bool
	// reads, while not nil, collects the files sourceOf reads (for the
	// claim whose evidence is being collected).
	reads *[]fileRead
}

type recallStats struct {
	count int
	last  time.Time
}

// Analyze builds the claims of a workspace with their evidence, scores,
// chains, dreams and lint findings. It never fails: every problem is a
// finding in Result.Findings.
func Analyze(ws *workspace.Workspace, opts Options) *Result {
	if ws == nil {
		ws = &workspace.Workspace{}
	}
	asOf := dates.Day(opts.AsOf)
	if asOf.IsZero() {
		asOf = NewestDate(ws)
	}
	a := &analyzer{
		ws:           ws,
		opts:         opts,
		now:          asOf.Add(24*time.Hour - time.Second),
		res:          &Result{AsOf: asOf, anchors: map[string][]Anchor{}},
		meta:         map[*Claim]*memory.MetaRecord{},
		claimOfMID:   map[string]*Claim{},
		metaByID:     map[string]*memory.MetaRecord{},
		sources:      map[string]*source{},
		recallOf:     map[*Claim]*recallStats{},
		itemClaim:    map[*workspace.DreamItem]*Claim{},
		itemEvidence: map[*workspace.DreamItem][]Evidence{},
		memo:         opts.Cache.start(),
	}
	a.collectClaims()
	// The indexes of the claims, sized once: at 10,000 notes growing them
	// entry by entry was a good part of a topic-file edit's analysis.
	a.res.byID = make(map[string]*Claim, len(a.claims))
	a.res.byEntry = make(map[*workspace.Entry]*Claim, len(a.claims))
	a.prior = make(map[*Claim]*PriorClaim, len(a.claims))
	a.matchMeta()
	a.assignIDs()
	a.buildCorpus()
	a.markRecalls()
	a.collectEvidence()
	a.dreamItems()
	a.score()
	a.dreams()
	a.chains()
	a.contests()
	a.settleStatus()
	a.budget()
	a.lint()
	if !a.opts.Unlinked {
		a.anchorsAndNotes()
	}
	a.hidePrivateExcerpts()

	a.res.Claims = a.claims
	a.findings.Sort()
	a.res.Findings = a.findings
	a.memo.share(a.res)
	a.memo.finish(a.res)
	return a.res
}

// NewestDate is the newest calendar day (UTC) the workspace mentions in
// its dated files and state: daily logs, memory-meta.json, the recall
// store, events, the dream log and diary, USER.md observations and the
// heartbeat. It is the default evaluation date, so that a build depends
// on its input only. Zero when the workspace has no dates.
func NewestDate(ws *workspace.Workspace) time.Time {
	var newest time.Time
	see := func(t time.Time) {
		if t = dates.Day(t); t.After(newest) {
			newest = t
		}
	}
	for _, d := range ws.Daily {
		see(d.Date)
	}
	if ws.Meta != nil {
		for _, m := range ws.Meta.Entries {
			see(m.Created)
			see(m.LastRecalled)
		}
	}
	if ws.Recall != nil {
		for _, r := range ws.Recall.Entries {
			see(r.LastRecalledAt)
		}
	}
	for _, e := range ws.Events {
		see(e.At)
	}
	if ws.DreamLog != nil {
		for _, e := range ws.DreamLog.Entries {
			see(e.Date)
		}
	}
	if ws.Dreams != nil {
		for _, e := range ws.Dreams.Diary {
			see(e.Date)
		}
	}
	for _, b := range ws.Bootstrap {
		for _, o := range b.Observations {
			see(o.Observed)
		}
	}
	if ws.Heartbeat != nil {
		see(ws.Heartbeat.LastDreamAt)
	}
	return newest
}

// collectClaims makes a claim of every entry of MEMORY.md, the topic
// files and the archive, in that order. A paragraph before a file's first
// section is the file's description, and bookkeeping lines (notAClaim)
// state nothing: neither is a claim.
func (a *analyzer) collectClaims() {
	add := func(entries []*workspace.Entry, origin ClaimOrigin) {
		sectioned := false
		for _, e := range entries {
			if e.Section != "" {
				sectioned = true
			}
		}
		for i, e := range entries {
			if !a.memo.claimable(e) {
				continue
			}
			if i == 0 && e.Section == "" && e.Shape == workspace.ShapeParagraph &&
				(sectioned || (len(entries) > 1 && entries[1].Shape != workspace.ShapeParagraph)) {
				continue // the file's description, not a fact
			}
			a.claims = append(a.claims, a.newClaim(e, origin))
		}
	}
	if a.ws.Memory != nil {
		add(a.ws.Memory.Entries(), OriginIndex)
	}
	for _, t := range a.ws.Topics {
		add(t.Entries(), OriginTopic)
	}
	for _, f := range a.ws.Archive {
		add(f.Entries, OriginArchive)
	}
}

func (a *analyzer) newClaim(e *workspace.Entry, origin ClaimOrigin) *Claim {
	c := &Claim{
		File:    e.File,
		Line:    e.Line,
		EndLine: max(e.EndLine, e.Line),
		Section: e.Section,
		Text:    e.HeadedText(),
		Origin:  origin,
		Entry:   e,
		Tags:    append([]string(nil), e.Tags...),
	}
	switch {
	case e.Title != "":
		c.Title = e.Title
	case e.Rule != "":
		c.Title = firstSentence(e.Rule, 100)
	default:
		c.Title = firstSentence(c.Text, 100)
	}
	if f := a.ws.FileByPath(e.File); f != nil {
		c.Private = f.Private
	}
	return c
}

// claimAt is the claim whose entry holds line ln of file, nil when none;
// the index of every line of every claim is made on first use.
func (a *analyzer) claimAt(file string, ln int) *Claim {
	if a.byLocation == nil {
		a.byLocation = map[string]*Claim{}
		for _, c := range a.claims {
			for l := c.Line; l <= c.EndLine; l++ {
				a.byLocation[location(c.File, l)] = c
			}
		}
	}
	return a.byLocation[location(file, ln)]
}

func location(file string, line int) string { return file + ":" + itoa(line) }

// statedText is a claim's text as a source would state it, what the claim
// is looked for by in logs, conversations and dream logs: a table row's
// cells without their column headers ("fx-rates — 2026-11-20 — done
// 21:31"), since a log never writes "service: fx-rates; notes: …" and the
// headers, the same in every row, would pull each row to the same lines.
func statedText(c *Claim) string {
	if c.Entry != nil {
		return c.Entry.Text
	}
	return c.Text
}

// claimIdentity is how a claim is recognised: its texts in every form the
// entry gives.
func (a *analyzer) claimIdentity(c *Claim, key string) identity {
	title, rule := "", ""
	if e := c.Entry; e != nil {
		title, rule = e.Title, e.Rule
	}
	if a.memo == nil {
		return newIdentity(key, c.Text, title, rule)
	}
	return a.memo.claimIdentity(c, key, title, rule)
}

// matchMeta pairs claims with memory-meta.json entries by text.
func (a *analyzer) matchMeta() {
	if a.ws.Meta == nil {
		return
	}
	for _, m := range a.ws.Meta.Entries {
		if m.ID != "" && a.metaByID[m.ID] == nil {
			a.metaByID[m.ID] = m
		}
	}
	cur := make([]identity, len(a.claims))
	for i, c := range a.claims {
		cur[i] = a.claimIdentity(c, "")
	}
	prev := make([]identity, len(a.ws.Meta.Entries))
	for j, m := range a.ws.Meta.Entries {
		prev[j] = a.memo.identity("", m.Text, "", "")
	}
	for i, j := range matchIdentities(cur, newIdentityIndex(prev), IdentityThreshold) {
		c, m := a.claims[i], a.ws.Meta.Entries[j]
		a.meta[c] = m
		if m.ID != "" {
			c.MetaID = m.ID
			a.claimOfMID[m.ID] = c
		}
	}
}

// assignIDs gives every claim its id: the id of its earlier self in the
// previous build when there is one, else a fresh slug that no other claim
// uses.
func (a *analyzer) assignIDs() {
	taken := make(map[string]bool, len(a.claims))
	if len(a.opts.Previous) > 0 {
		ident := func(i int) identity { return a.claimIdentity(a.claims[i], a.claims[i].MetaID) }
		match, ok := a.matchFromLast(ident)
		if !ok {
			cur := make([]identity, len(a.claims))
			for i := range a.claims {
				cur[i] = ident(i)
			}
			match = make([]int, len(a.claims))
			for i := range match {
				match[i] = -1
			}
			for i, j := range matchIdentities(cur, a.memo.priorIndex(a.opts.Previous), IdentityThreshold) {
				match[i] = j
			}
		}
		for i, c := range a.claims {
			j := match[i]
			if j < 0 {
				continue
			}
			p := &a.opts.Previous[j]
			slug, valid := strings.CutPrefix(p.ID, "claim.")
			if !valid || slug == "" || taken[slug] || !a.memo.validSlug(slug) {
				continue
			}
			c.ID, c.Slug = p.ID, slug
			taken[slug] = true
			a.prior[c] = p
		}
	}
	// memory-meta.json may describe the entries of a private file left
	// out; its text is then never published, not even as a slug.
	metaText := !a.withheldEntries()
	for _, c := range a.claims {
		if c.ID != "" {
			continue
		}
		src := c.Title
		if c.Entry != nil && c.Entry.Title == "" && c.Entry.Rule == "" {
			// A row's slug is its cells: short, and what its page was
			// called before rows named their columns.
			src = statedText(c)
			if m := a.meta[c]; m != nil && m.Text != "" && metaText {
				src = m.Text // the text the entry was first recorded with
			}
		}
		base := slugify(src)
		slug := base
		if taken[slug] {
			slug = base + "-" + slugify(fileStem(c.File))
		}
		for n := 2; taken[slug]; n++ {
			slug = base + "-" + itoa(n)
		}
		taken[slug] = true
		c.Slug, c.ID = slug, "claim."+slug
	}
	for _, c := range a.claims {
		a.res.byID[c.ID] = c
		if c.Entry != nil {
			a.res.byEntry[c.Entry] = c
		}
	}
}

func fileStem(p string) string {
	p = p[strings.LastIndexByte(p, '/')+1:]
	if i := strings.LastIndexByte(p, '.'); i > 0 {
		p = p[:i]
	}
	return p
}

// wordIndex builds the word index used to find the claim a dream item or
// an observation talks about, on first use: a workspace without dreams
// and observations never needs it.
func (a *analyzer) wordIndex() {
	if a.claimWords != nil {
		return
	}
	a.claimWords = map[string][]int{}
	a.claimSets = make([]map[string]bool, len(a.claims))
	for i, c := range a.claims {
		set := a.content(c)
		if st := statedText(c); st != c.Text {
			// A table row is looked for by its cells (statedText).
			set = analysis.ContentWordSet(st)
		}
		a.claimSets[i] = set
		for w := range set {
			a.claimWords[w] = append(a.claimWords[w], i)
		}
	}
}

// findClaim returns the claim whose content words best match text (Dice
// overlap, stop words aside): a dream item or a USER.md observation
// restates a claim in other words, with more or less around it. ok is
// false below minScore.
func (a *analyzer) findClaim(text string, minScore float64, accept func(*Claim) bool) (*Claim, float64, bool) {
	a.wordIndex()
	set := analysis.ContentWordSet(text)
	counts := map[int]int{}
	for w := range set {
		for _, i := range a.claimWords[w] {
			counts[i]++
		}
	}
	best, bestScore := -1, 0.0
	for i := range counts {
		if accept != nil && !accept(a.claims[i]) {
			continue
		}
		s := analysis.Dice(set, a.claimSets[i])
		if s > bestScore || (s == bestScore && best >= 0 && i < best) {
			best, bestScore = i, s
		}
	}
	if best < 0 || bestScore < minScore {
		return nil, 0, false
	}
	return a.claims[best], bestScore, true
}

// sourceOf returns the evidence source for a workspace path, building it
// on first use; nil when the workspace has no such text file.
func (a *analyzer) sourceOf(p string) *source {
	if a.reads != nil {
		*a.reads = append(*a.reads, fileRead{p, a.ws.FileByPath(p)})
	}
	if s, ok := a.sources[p]; ok {
		return s
	}
	f := a.ws.FileByPath(p)
	if f == nil || f.Kind == workspace.KindData {
		a.sources[p] = nil
		return nil
	}
	k := fileKey(f)
	if s := a.memo.source(k); s != nil {
		a.sources[p] = s
		return s
	}
	s := newSource(f)
	a.sources[p] = s
	a.memo.keepSource(k, s)
	return s
}

// newSource splits a file into blocks and pieces.
func newSource(f *workspace.File) *source {
	s := &source{path: f.Path, kind: kindOfFile(f.Kind), lines: mdline.Split(f.Content), private: f.Private}
	s.blocks = fileBlocks(s.lines, nil)
	if !isMarkdownPath(f.Path) {
		// A plain text file is shown as written: no block can carry an id.
		for i := range s.blocks {
			s.blocks[i].Anchorable = false
		}
	}
	s.pieces = piecesOf(s.blocks)
	return s
}

func isMarkdownPath(p string) bool {
	p = strings.ToLower(p)
	return strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".markdown")
}

func kindOfFile(k workspace.Kind) SourceKind {
	switch k {
	case workspace.KindDaily:
		return SourceDaily
	case workspace.KindConversation:
		return SourceConversation
	case workspace.KindTopic, workspace.KindMemory, workspace.KindArchive:
		return SourceTopic
	case workspace.KindDreams, workspace.KindDreamLog, workspace.KindPhase:
		return SourceDream
	}
	return SourceNote
}

// buildCorpus indexes the daily logs (without their dream blocks and
// session headers) and the conversation summaries and digests.
func (a *analyzer) buildCorpus() {
	var files []corpusFile
	for _, d := range a.ws.Daily {
		files = append(files, corpusFile{file: d.File, daily: d})
	}
	for _, conv := range a.ws.Conversations {
		if conv.Digest != nil {
			files = append(files, corpusFile{file: conv.Digest})
		}
		for _, t := range conv.Topics {
			if t.File != nil {
				files = append(files, corpusFile{file: t.File})
			}
		}
	}
	a.names = a.memo.names(a.indexedPaths())
	if e := a.memo.corpus(files, a.ws.Recall, a.ws.Events); e != nil {
		a.corpus, a.cachedCorpus = e.corpus, true
		for p, src := range e.sources {
			a.sources[p] = src
		}
		return
	}
	// Each file's blocks and terms are worked out once, while it stays
	// the same, and a corpus whose files came first is extended by the
	// files added after them (the next daily logs).
	base := a.memo.corpusBefore(files, a.ws.Recall, a.ws.Events)
	maps.Copy(a.sources, base.sources)
	var srcs, fresh []*source
	var keys []sourceKey
	for _, cf := range files[len(base.files):] {
		var k sourceKey
		if d := cf.daily; d != nil {
			k = fileKey(d.File)
			k.date, k.skip = d.Date, skipKey(d)
		} else {
			if seen, ok := a.sources[cf.file.Path]; ok {
				if seen != nil {
					srcs = append(srcs, seen)
				}
				continue
			}
			if cf.file.Kind == workspace.KindData {
				a.sources[cf.file.Path] = nil
				continue
			}
			k = fileKey(cf.file)
		}
		k.corpus = true
		made := a.memo.source(k)
		if made == nil {
			if d := cf.daily; d != nil {
				made = &source{path: d.File.Path, kind: SourceDaily, date: d.Date, lines: mdline.Split(d.File.Content), private: d.File.Private}
				made.blocks = fileBlocks(made.lines, skipper(d))
				made.pieces = piecesOf(made.blocks)
			} else {
				made = newSource(cf.file)
			}
			fresh, keys = append(fresh, made), append(keys, k)
		}
		a.sources[made.path] = made
		srcs = append(srcs, made)
	}
	parallel.For(len(fresh), runtime.GOMAXPROCS(0), func(i int) {
		var tm termer
		fresh[i].termAll(&tm)
		fresh[i].normAll()
	})
	for i, s := range fresh {
		a.memo.keepSource(keys[i], s)
	}
	// The corpus numbers its units in its own copies of the sources.
	for i, made := range srcs {
		s := *made
		s.units = nil
		a.sources[s.path], srcs[i] = &s, &s
	}
	if base.corpus != nil {
		a.corpus = base.corpus.extend(srcs)
	} else {
		a.corpus = newCorpus(srcs, a.memo.corpusTerms())
	}
	if a.memo != nil {
		e := &corpusEntry{files: files, recall: a.ws.Recall, events: a.ws.Events, corpus: a.corpus, sources: maps.Clone(base.sources)}
		if e.sources == nil {
			e.sources = map[string]*source{}
		}
		for _, s := range srcs {
			e.sources[s.path] = s
		}
		a.memo.keepCorpus(e)
	}
}

// skipKey says which lines of a daily log skipper leaves out.
func skipKey(d *workspace.DailyLog) string {
	var b strings.Builder
	if d.Session != nil {
		b.WriteString(itoa(d.Session.EndLine))
	}
	for _, r := range d.Sleep {
		b.WriteString("," + itoa(r.StartLine) + "-" + itoa(r.EndLine))
	}
	return b.String()
}

// indexedPaths are the paths pointers may name: every file, and the
// private files left out (a wikilink to a private note resolves to it, as
// in Obsidian, so that it is told from a link to nothing).
func (a *analyzer) indexedPaths() (files, withheld []string) {
	files = make([]string, len(a.ws.Files))
	for i, f := range a.ws.Files {
		files[i] = f.Path
	}
	withheld = make([]string, len(a.ws.Withheld))
	for i, w := range a.ws.Withheld {
		withheld[i] = w.Path
	}
	return files, withheld
}

// skipper returns the lines of a daily log that are never evidence: the
// session header and inline dream blocks.
func skipper(d *workspace.DailyLog) func(int) bool {
	header := 0
	if d.Session != nil {
		header = d.Session.EndLine
	}
	sleep := d.Sleep
	if header == 0 && len(sleep) == 0 {
		return nil
	}
	return func(ln int) bool {
		if ln <= header {
			return true
		}
		for _, b := range sleep {
			if ln >= b.StartLine && ln <= b.EndLine {
				return true
			}
		}
		return false
	}
}

// markRecalls marks the blocks the recall store and recall events point
// at, and counts recalls of the claims events point at directly.
func (a *analyzer) markRecalls() {
	mark := func(p string, start, end int, m Method) {
		s := a.sources[p]
		if s == nil || s.units == nil {
			return
		}
		for pi, pc := range s.pieces {
			if pc.End < start || pc.Start > max(end, start) {
				continue
			}
			if u := s.units[pi]; u >= 0 && a.corpus.units[u].recall == "" {
				a.corpus.units[u].recall = m
			}
		}
	}
	if a.cachedCorpus {
		// The units were marked when the corpus was built, from the same
		// recall store and events.
		mark = func(string, int, int, Method) {}
	}
	if a.ws.Recall != nil {
		for _, r := range a.ws.Recall.Entries {
			mark(r.Path, r.StartLine, r.EndLine, MethodRecall)
		}
	}
	for _, e := range a.ws.Events {
		if e.Type != "memory.recall.recorded" {
			continue
		}
		for _, r := range e.Results {
			mark(r.Path, r.StartLine, r.EndLine, MethodEvent)
			if c := a.claimAt(r.Path, r.StartLine); c != nil {
				st := a.recallStats(c)
				st.count++
				if e.At.After(st.last) {
					st.last = e.At
				}
			}
		}
	}
}

func (a *analyzer) recallStats(c *Claim) *recallStats {
	st := a.recallOf[c]
	if st == nil {
		st = &recallStats{}
		a.recallOf[c] = st
	}
	return st
}

// finding adds a lint warning.
func (a *analyzer) finding(code, file string, line int, hint, format string, args ...any) {
	d := diag.Diagnostic{Severity: diag.Warning, Code: code, File: file, Line: line, Message: sprintf(format, args...), Hint: hint}
	a.findings.Add(d)
}

// claimFinding adds a lint warning about a claim and notes it on the claim.
func (a *analyzer) claimFinding(c *Claim, code, hint, format string, args ...any) {
	msg := sprintf(format, args...)
	a.findings.Add(diag.Diagnostic{Severity: diag.Warning, Code: code, File: c.File, Line: c.Line, Message: msg, Hint: hint})
	c.Findings = append(c.Findings, code)
}

// score computes decay, tier, recalls, permission and lifecycle.
func (a *analyzer) score() {
	params := memory.DefaultParams()
	if a.opts.Decay != nil {
		params = *a.opts.Decay
	}
	if a.ws.Recall != nil {
		a.recallStoreStats()
	}
	fileDate := map[string]time.Time{}
	for _, c := range a.claims {
		if t := latest(c); t.After(fileDate[c.File]) {
			fileDate[c.File] = t
		}
	}
	// What the cache keeps of each entry is looked up first: the loop
	// below runs on every core, and the cache is used from one goroutine.
	var facts []*entryFacts
	if a.memo != nil {
		facts = make([]*entryFacts, len(a.claims))
		for i, c := range a.claims {
			facts[i] = a.memo.facts(c)
		}
	}
	// Each claim is scored from read-only state into itself; the regular
	// expressions of the structural, permission and lifecycle checks make
	// this the analysis's costliest loop, so it runs on every core.
	parallel.For(len(a.claims), runtime.GOMAXPROCS(0), func(i int) {
		c := a.claims[i]
		m := a.meta[c]
		var in memory.Input
		if facts != nil {
			in.Structural = facts[i].structural
		} else {
			in.Structural = memory.IsStructural(c.Text)
		}
		if m != nil {
			in.Created, in.LastRecalled, in.RecallCount = m.Created, m.LastRecalled, m.RecallCount
			in.Structural = in.Structural || m.Structural
		}
		if in.Created.IsZero() {
			in.Created = a.earliestEvidence(c)
		}
		if in.Created.IsZero() && c.Entry != nil {
			in.Created = c.Entry.Date
		}
		if in.Created.IsZero() {
			// "## Archived 2026-10-18", "## Promoted From Short-Term Memory (2026-10-24)"
			in.Created = earliest(dates.Find(c.Section, time.Time{}))
		}
		if in.Created.IsZero() {
			// Nothing dates the entry itself: its file was last written
			// around the newest evidence of its other entries.
			in.Created = fileDate[c.File]
		}
		if st := a.recallOf[c]; st != nil {
			in.RecallCount = max(in.RecallCount, st.count)
			if st.last.After(in.LastRecalled) {
				in.LastRecalled = st.last
			}
		}
		r := memory.Evaluate(in, a.now, params)
		c.Created, c.LastRecall, c.Recalls, c.Structural = dates.Day(in.Created), dates.Day(in.LastRecalled), in.RecallCount, in.Structural
		c.Tier = r.Tier
		c.Scores = Scores{Decay: round3(r.Score), Base: round3(r.Base), Recall: round3(r.Recall), Recency: round3(r.Recency)}
		if e := c.Entry; e != nil {
			c.Scores.Importance = e.Importance
			if e.Promotion != nil {
				c.Scores.Promotion = e.Promotion.Score
			}
		}
		if c.Origin == OriginArchive {
			c.Tier = memory.TierArchived
		}
		if facts != nil {
			c.MemoryType, c.TypeFrom = a.memoryType(c, facts[i].types)
		} else {
			c.MemoryType, c.TypeFrom = a.memoryType(c, entryTypes(c.Entry))
		}
		if facts != nil {
			a.lifecycle(c, facts[i].lifecycle)
		} else {
			a.lifecycle(c, entryLifecycle(c.Entry))
			a.permission(c)
		}
	})
	if facts != nil {
		for _, c := range a.claims {
			a.permission(c)
		}
	}
}

// recallStoreStats credits each claim with the recall-store entries of
// its evidence blocks.
func (a *analyzer) recallStoreStats() {
	type key struct {
		path string
		line int
	}
	byLine := map[key]*memory.RecallRecord{}
	for _, r := range a.ws.Recall.Entries {
		for ln := r.StartLine; ln <= max(r.EndLine, r.StartLine) && ln-r.StartLine < 200; ln++ {
			if byLine[key{r.Path, ln}] == nil {
				byLine[key{r.Path, ln}] = r
			}
		}
	}
	for _, c := range a.claims {
		for _, ev := range c.Evidence {
			if ev.StartLine == 0 {
				continue
			}
			for ln := ev.StartLine; ln <= ev.EndLine; ln++ {
				r := byLine[key{ev.Path, ln}]
				if r == nil {
					continue
				}
				st := a.recallStats(c)
				st.count = max(st.count, r.RecallCount)
				if r.LastRecalledAt.After(st.last) {
					st.last = r.LastRecalledAt
				}
				break
			}
		}
	}
}

func earliest(ts []time.Time) time.Time {
	var t time.Time
	for _, x := range ts {
		if t.IsZero() || x.Before(t) {
			t = x
		}
	}
	return t
}

func (a *analyzer) earliestEvidence(c *Claim) time.Time {
	var t time.Time
	for _, ev := range c.Evidence {
		if !ev.Date.IsZero() && (t.IsZero() || ev.Date.Before(t)) {
			t = ev.Date
		}
	}
	return t
}

func round3(x float64) float64 {
	return float64(int64(x*1000+0.5)) / 1000
}

// sectionTypes maps words of section headings (and topic titles) to
// memory types.
var sectionTypes = map[string]MemoryType{
	"people": TypeUser, "person": TypeUser, "family": TypeUser, "friends": TypeUser, "preferences": TypeUser,
	"preference": TypeUser, "about": TypeUser, "profile": TypeUser, "personal": TypeUser, "user": TypeUser,
	"me": TypeUser, "health": TypeUser, "habits": TypeUser, "identity": TypeUser, "人物": TypeUser, "偏好": TypeUser,
	"feedback": TypeFeedback, "rules": TypeFeedback, "rule": TypeFeedback, "lessons": TypeFeedback, "style": TypeFeedback,
	"corrections": TypeFeedback, "guidelines": TypeFeedback, "反馈": TypeFeedback,
	"projects": TypeProject, "project": TypeProject, "tasks": TypeProject, "todo": TypeProject, "goals": TypeProject,
	"plans": TypeProject, "roadmap": TypeProject, "migration": TypeProject, "项目": TypeProject,
	"references": TypeReference, "reference": TypeReference, "infrastructure": TypeReference, "infra": TypeReference,
	"tools": TypeReference, "tooling": TypeReference, "hosts": TypeReference, "links": TypeReference,
	"resources": TypeReference, "commands": TypeReference, "runbook": TypeReference, "runbooks": TypeReference,
	"docs": TypeReference, "参考": TypeReference,
}

// memoryType reads the memory type from an explicit tag, the meta entry,
// the section heading (innermost first), the Rule/Why/How shape, or the
// topic file's title; else unclassified. t is what c's entry says of its
// type (entryTypes).
func (a *analyzer) memoryType(c *Claim, t typeFacts) (MemoryType, string) {
	if t.tag != "" {
		return t.tag, "tag"
	}
	if m := a.meta[c]; m != nil {
		if t, ok := parseType(m.Type); ok {
			return t, "meta"
		}
	}
	if t.entry != "" {
		return t.entry, t.from
	}
	return TypeUnclassified, ""
}

// typeFacts are what an entry says of its memory type: its tag, and what
// its section heading or shape gives ("section" or "shape" in from).
type typeFacts struct {
	tag, entry MemoryType
	from       string
}

// entryTypes reads the memory type of an entry (nil: none) from the entry
// alone; the Cache keeps it, so that an edit does not split every
// claim's section heading again.
func entryTypes(e *workspace.Entry) typeFacts {
	var f typeFacts
	if e == nil {
		return f
	}
	f.tag, _ = parseType(e.TypeTag)
	parts := strings.Split(e.Section, " / ")
	for i := len(parts) - 1; i >= 0; i-- {
		if t, ok := headingType(parts[i]); ok {
			f.entry, f.from = t, "section"
			return f
		}
	}
	if e.Shape == workspace.ShapeRuleWhy {
		f.entry, f.from = TypeFeedback, "shape"
	}
	return f
}

func parseType(s string) (MemoryType, bool) {
	switch MemoryType(strings.ToLower(strings.TrimSpace(s))) {
	case TypeUser:
		return TypeUser, true
	case TypeFeedback:
		return TypeFeedback, true
	case TypeProject:
		return TypeProject, true
	case TypeReference:
		return TypeReference, true
	}
	return "", false
}

func headingType(h string) (MemoryType, bool) {
	for _, w := range strings.FieldsFunc(strings.ToLower(h), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r > 0x2E80)
	}) {
		if t, ok := sectionTypes[w]; ok {
			return t, true
		}
	}
	return "", false
}

// permission marks grants and whether they have lapsed (DESIGN 5.5).
func (a *analyzer) permission(c *Claim) {
	text := c.Text
	if c.Entry != nil {
		text = c.Entry.Raw
	}
	given := c.Created
	if given.IsZero() {
		given = a.res.AsOf
	}
	ok, expires := a.memo.permission(text, given)
	if !ok {
		return
	}
	c.Permission = &Permission{Given: c.Created, Expires: expires, Lapsed: memory.Lapsed(expires, a.now)}
}

// lifecycle sets c's lifecycle from its entry's (entryLifecycle): closed
// work stays closed across builds (the previous build's lifecycle is
// remembered).
func (a *analyzer) lifecycle(c *Claim, st memory.Status) {
	if p := a.prior[c]; p != nil {
		st = memory.Sticky(memory.Status(p.Lifecycle), st)
	}
	c.Lifecycle = string(st)
}

// entryLifecycle reads an entry's done/closed markers ("" for no entry).
func entryLifecycle(e *workspace.Entry) memory.Status {
	if e == nil {
		return ""
	}
	st := memory.Lifecycle(e.Raw)
	switch e.Status {
	case "done", "closed", "archived", "resolved", "completed", "fixed", "cancelled", "canceled":
		st = memory.StatusClosed
	}
	return st
}

// budget measures MEMORY.md against its limits.
func (a *analyzer) budget() {
	m := a.ws.Memory
	if m == nil || m.File == nil {
		return
	}
	content := m.File.Content
	cfg := a.ws.Config.Budget
	b := &Budget{
		File:        m.File.Path,
		Chars:       runeCount(content),
		Lines:       len(mdline.Split(content)),
		Bytes:       len(content),
		MaxChars:    cfg.MaxChars,
		TargetChars: cfg.TargetChars(),
		MaxLines:    cfg.MaxLines,
		MaxBytes:    cfg.MaxBytes,
	}
	if l := m.Limit; l != nil {
		if l.MaxLines > 0 {
			b.MaxLines = l.MaxLines
		}
		if l.MaxBytes > 0 {
			b.MaxBytes = l.MaxBytes
		}
		if l.MaxChars > 0 {
			b.MaxChars = l.MaxChars
		}
	}
	a.res.Budget = b
}
