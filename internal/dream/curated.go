package dream

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// curated is one entry of MEMORY.md or an L2 topic file as the dream sees
// it: its text, its decay, what the dream decided about it.
type curated struct {
	id         int
	u          *unit
	e          *workspace.Entry // nil for lines this run writes
	file       string
	section    string
	text       string
	words      []string
	nums       []string
	subject    string
	value      string
	status     memory.Status
	date       time.Time
	meta       *memory.MetaRecord
	decay      memory.Result
	structural bool
	pointer    bool // an index line pointing down to an L2 file
	preamble   bool // the paragraph under a file's title
	table      bool
	fresh      bool // written by this run
	typ        string

	retired      bool       // superseded by an earlier run
	cand         *candidate // for a line this run writes
	pl           *placement
	archived     bool
	supersededBy *candidate
}

// curatedMemory is MEMORY.md and the public L2 files as a dream works on
// them: the collect phase reads them (readCurated), the place, supersede
// and settle phases change them, and the write phase renders their
// documents.
type curatedMemory struct {
	memDoc      *mdDoc // the index (see indexFile)
	topics      []*topic
	topicByPath map[string]*topic
	curated     []*curated // every entry, by id
	curIndex    *wordIndex // entry ids by word
	subjects    map[string][]*curated
	cited       map[string][]citation // daily-log path -> ranges entries cite

	// The place phase's edits, made into lines by materialize.
	placements []*placement
	fresh      map[*candidate][]*curated // the entries each candidate became
	indexed    map[*candidate]bool       // candidates with an index line
}

func newCuratedMemory() *curatedMemory {
	return &curatedMemory{topicByPath: map[string]*topic{}, curIndex: newWordIndex(),
		subjects: map[string][]*curated{}, cited: map[string][]citation{},
		fresh: map[*candidate][]*curated{}, indexed: map[*candidate]bool{}}
}

// citation is a line range of a daily log that a curated entry already
// names as its evidence: that part of the log is consolidated.
type citation struct {
	start, end int
	by         *curated
}

// citedBy returns a curated entry citing a line range, or nil.
func (m *curatedMemory) citedBy(path string, start, end int) *curated {
	for _, c := range m.cited[path] {
		if c.start <= end && c.end >= start && !c.by.isGone() {
			return c.by
		}
	}
	return nil
}

// topic is an L2 topic file the dream may write to.
type topic struct {
	path  string
	slug  string
	title string
	doc   *mdDoc
	words map[string]int // vocabulary of its entries, title and headings
	// names are what the file calls its subjects: the words (and CJK
	// three-character runs) of its title, file name, headings and entry
	// labels ("Gateway" of "Gateway: port 18789"). A fact is routed to a
	// topic only when it names one of them.
	names map[string]bool
	isNew bool
	added []*candidate
	// dated is a topic file that belongs to a day or a month
	// (workspace.DatedPath): read, so a fact it holds is known, and never
	// written.
	dated bool
}

// name adds a name of the topic's subjects (see topic.names) to its
// names and its vocabulary.
func (tp *topic) name(s string) {
	for _, w := range contentWords(s) {
		tp.words[w]++
	}
	for _, k := range nameKeys(s) {
		tp.names[k] = true
	}
}

// entryLabel is what a bullet entry names its subject by: a short label it
// opens with ("Gateway" of "- Gateway: port 18789", "远程桌面端口" of
// "- 远程桌面端口：3389"), else the short subject of an "X is Y" sentence
// ("Summaries" of "Summaries are bullets"), else an opening name that is
// no ordinary word (an acronym or a name with digits or inner capitals:
// "Zigbee2MQTT runs …"). A numbered step's lead-in ("3. 在打印服务器上执行：")
// names nothing.
func entryLabel(e *workspace.Entry) string {
	if orderedItem(e.Raw) {
		return ""
	}
	short := func(k string) bool {
		n := cjkRunes(k)
		return n > 0 && n <= 6 || n == 0 && len(strings.Fields(k)) <= 3
	}
	l := readLine(e.Raw, e.Raw, "")
	if k := l.key; k != "" {
		if !short(k) {
			return ""
		}
		return k
	}
	if subj, _, ok := memory.SubjectValue(e.Text); ok && short(subj) {
		return subj
	}
	first, _, _ := strings.Cut(strings.Trim(l.body, "*_`"), " ")
	if reIdentifier.MatchString(first) {
		return first
	}
	return ""
}

// reIdentifier is a name no dictionary word looks like: an acronym, or a
// word with a digit or a capital inside ("NAS", "Zigbee2MQTT", "OpenClaw").
var reIdentifier = regexp.MustCompile(`^(?:[A-Z]{2,}[A-Za-z0-9-]*|[A-Za-z]+[0-9][A-Za-z0-9-]*|[A-Za-z]+[a-z][A-Z][A-Za-z0-9-]*)$`)

// nameKeys are the keys a name is matched by: its words of Latin, Cyrillic
// or other spaced scripts (stop words and generic words left out), and
// every run of three CJK characters (two would match "负责" in both
// "负责人" and "负责每天").
func nameKeys(s string) []string {
	var out []string
	for _, w := range contentWords(s) {
		if cjkRunes(w) == 0 && !genericWords[w] {
			out = append(out, w)
		}
	}
	var run []rune
	flush := func() {
		for i := 0; i+3 <= len(run); i++ {
			out = append(out, string(run[i:i+3]))
		}
		run = run[:0]
	}
	for _, r := range strings.ToLower(s) {
		if cjkRunes(string(r)) > 0 {
			run = append(run, r)
		} else {
			flush()
		}
	}
	flush()
	return out
}

// readCurated reads MEMORY.md and the public L2 topic files into editable
// documents (opened in files) and curated entries, and reports the secrets
// they hold. A private index stops it (privateIndex). day dates the
// entries: a date after it says nothing about when a line was written.
func readCurated(ws *workspace.Workspace, day time.Time, files *fileSet, lg *ledger) (*curatedMemory, error) {
	if err := privateIndex(ws); err != nil {
		return nil, err
	}
	m := newCuratedMemory()
	if f, sections := indexFile(ws); f != nil {
		m.memDoc = files.open(f, sections)
	} else {
		m.memDoc = newEmptyDoc("MEMORY.md")
		files.docs["MEMORY.md"] = m.memDoc
	}
	for _, t := range ws.Topics {
		if t.File.Private || !isTopicPath(t.File.Path) || t.File.Path == m.memDoc.path || indexLike(t.File.Path) {
			continue
		}
		tp := &topic{path: t.File.Path, slug: t.Topic, title: t.Title, doc: files.open(t.File, t.Sections), words: map[string]int{}, names: map[string]bool{},
			dated: workspace.DatedPath(t.File.Path)}
		tp.name(t.Title + " " + strings.ReplaceAll(t.Topic, "-", " "))
		for _, s := range t.Sections {
			tp.name(s.Heading)
			for _, e := range s.Entries {
				tp.name(entryLabel(e))
			}
		}
		m.topics = append(m.topics, tp)
		m.topicByPath[tp.path] = tp
	}
	for _, d := range append([]*mdDoc{m.memDoc}, m.topicDocs()...) {
		lg.secrets = append(lg.secrets, pinSecrets(d, files.before[d.path].data)...)
		for _, u := range d.units {
			for _, e := range u.entries {
				c := m.add(u, e, day)
				if tp := m.topicByPath[d.path]; tp != nil {
					for _, w := range c.words {
						tp.words[w]++
					}
				}
			}
		}
	}
	return m, nil
}

// keptSecret is what the secret guard says about a secret already written
// in curated memory.
const keptSecret = "left as it is: a dream never rewrites a line of curated memory (the value would be lost); published outputs redact it"

// pinSecrets returns every secret a curated file already holds (raw, its
// bytes as read), with its line, and pins the units that hold one (see
// unit.pinned).
func pinSecrets(d *mdDoc, raw []byte) []SecretFinding {
	var found []SecretFinding
	data := string(raw)
	for _, f := range secrets.Scan(data) {
		last := f.Line + strings.Count(data[f.Start:f.End], "\n")
		found = append(found, SecretFinding{File: d.path, Line: f.Line, Kind: f.Kind, Action: keptSecret})
		for _, u := range d.units {
			if u.start <= last && u.end >= f.Line {
				u.pinned = true
				u.values = append(u.values, secretValue{data[f.Start:f.End], f.Kind})
			}
		}
	}
	return found
}

// secretValue is a secret a curated line holds, and its kind.
type secretValue struct {
	value string
	kind  secrets.Kind
}

// recorded is the entry's text as memory-meta.json records it: for an
// entry holding a secret, redacted, with each secret its file holds on its
// lines replaced too, which the guard reading the text alone could miss
// (a table row does not hold the header that names its value).
func (c *curated) recorded() string {
	if !c.pinned() {
		return c.text
	}
	text := c.text
	for _, v := range c.u.values {
		text = strings.ReplaceAll(text, v.value, secrets.Placeholder(v.kind))
	}
	return redact(text)
}

// pinned reports an entry whose lines hold a secret: it is read, matched
// and reported, never changed, moved or archived.
func (c *curated) pinned() bool { return c.u != nil && c.u.pinned }

func (m *curatedMemory) topicDocs() []*mdDoc {
	out := make([]*mdDoc, 0, len(m.topics))
	for _, t := range m.topics {
		out = append(out, t.doc)
	}
	return out
}

// add registers an entry of unit u; day is the date the plan is made on.
func (m *curatedMemory) add(u *unit, e *workspace.Entry, day time.Time) *curated {
	c := &curated{id: len(m.curated), u: u, e: e, file: u.doc.path, section: e.Section, text: e.Text,
		table: e.Shape == workspace.ShapeTableRow, date: e.Date}
	c.words = contentWords(e.Text)
	c.nums = numbers(e.Text)
	c.subject, c.value, _ = memory.SubjectValue(e.Text)
	c.status = entryStatus(e)
	c.retired = e.Status == "superseded" || strings.Contains(e.Text, "(superseded ")
	c.typ = normType(e.TypeTag)
	c.pointer = m.isPointer(e)
	// The paragraph under a file's title says what the file is: it is
	// neither a fact to decay nor detail to move.
	c.preamble = e.Shape == workspace.ShapeParagraph && (u.sec.line == 0 || u.sec.level == 1)
	// When the entry was written: the earliest log its sources name, else
	// the date it mentions, if that is not in the future ("expires
	// 2027-01-07" says nothing about when the line was written).
	var src time.Time
	for _, s := range e.Sources {
		d := s.Date
		if d.IsZero() {
			d, _, _ = workspace.DailyLogPath(s.Path)
		}
		if !d.IsZero() && (src.IsZero() || d.Before(src)) {
			src = d
		}
	}
	switch {
	case !src.IsZero():
		c.date = src
	case c.date.After(day):
		c.date = time.Time{}
	}
	if u.cur == nil {
		u.cur = c
	}
	for _, s := range e.Sources {
		if _, _, daily := workspace.DailyLogPath(s.Path); daily && s.StartLine > 0 {
			m.cited[s.Path] = append(m.cited[s.Path], citation{start: s.StartLine, end: max(s.EndLine, s.StartLine), by: c})
		}
	}
	m.curated = append(m.curated, c)
	m.index(c)
	return c
}

// index makes a curated entry findable by its words and its subject.
func (m *curatedMemory) index(c *curated) {
	m.curIndex.add(c.id, c.words)
	if c.subject != "" {
		m.subjects[c.subject] = append(m.subjects[c.subject], c)
	}
}

// entryStatus is the lifecycle of an entry: the workspace's status word,
// else the markers memory.Lifecycle reads.
func entryStatus(e *workspace.Entry) memory.Status {
	switch e.Status {
	case "done", "closed", "archived", "resolved", "cancelled", "obsolete", "wontfix", "superseded", "expired", "snoozed":
		return memory.StatusClosed
	case "open", "active", "pending", "blocked", "paused":
		return memory.StatusOpen
	}
	return memory.Lifecycle(e.Raw)
}

// isPointer reports an index line: an entry that mostly points down to an
// L2 file ("Incidents and what changed after them: see memory/incidents.md").
func (m *curatedMemory) isPointer(e *workspace.Entry) bool {
	hasL2 := false
	for _, s := range e.Sources {
		switch s.Kind {
		case workspace.PointerSee, workspace.PointerWikilink, workspace.PointerLink, workspace.PointerPath:
			if _, _, daily := workspace.DailyLogPath(s.Path); m.resolveTopic(s.Path) != "" || strings.HasSuffix(s.Path, ".md") && !daily {
				hasL2 = true
			}
		}
	}
	return hasL2 && len(contentWords(e.Text)) <= 14
}

// resolveTopic maps a pointer path or wikilink target to an L2 file path.
func (m *curatedMemory) resolveTopic(target string) string {
	t := strings.TrimSuffix(strings.TrimSpace(target), "/")
	if t == "" {
		return ""
	}
	if _, ok := m.topicByPath[t]; ok {
		return t
	}
	base := strings.TrimSuffix(path.Base(t), ".md")
	for _, tp := range m.topics {
		if tp.slug == base || strings.TrimSuffix(tp.path, ".md") == strings.TrimSuffix(t, ".md") {
			return tp.path
		}
	}
	return ""
}

// matchMeta pairs entries with memory-meta.json records: by the same text,
// then the same text normalised, then the same 40-character prefix, then
// by word overlap (Jaccard >= 0.6), each record used once (DESIGN 4.1: ids
// survive edits; a 20-character hash alone would not). Entries left over
// get new records (bootstrapMeta).
func matchMeta(meta *memory.MetaDoc, entries []*curated) {
	if meta == nil {
		return
	}
	used := map[*memory.MetaRecord]bool{}
	byText := map[string][]*memory.MetaRecord{}
	byNorm := map[string][]*memory.MetaRecord{}
	byPrefix := map[string][]*memory.MetaRecord{}
	byTitle := map[string][]*memory.MetaRecord{}
	idx := newWordIndex()
	recWords := make([][]string, len(meta.Entries))
	for i, r := range meta.Entries {
		if strings.HasPrefix(r.File, "memory/archive/") {
			used[r] = true // gone from curated memory: never matched again
			continue
		}
		byText[r.Text] = append(byText[r.Text], r)
		n := normText(r.Text)
		byNorm[n] = append(byNorm[n], r)
		byPrefix[prefix(n)] = append(byPrefix[prefix(n)], r)
		t := normText(reTrailingDate.ReplaceAllString(r.Text, ""))
		byTitle[t] = append(byTitle[t], r)
		recWords[i] = contentWords(r.Text)
		idx.add(i, recWords[i])
	}
	// Records hold their texts redacted, so an entry holding a secret is
	// looked up redacted too. An entry a dream marked ("(superseded …)",
	// "(done …)") is the same entry as before: its record is found by the
	// text without the marker.
	key := func(c *curated) string { return c.recorded() }
	text := func(c *curated) string { return stripMarkers(key(c)) }
	take := func(rs []*memory.MetaRecord) *memory.MetaRecord {
		for _, r := range rs {
			if !used[r] {
				used[r] = true
				return r
			}
		}
		return nil
	}
	byTextFile := map[string][]*memory.MetaRecord{}
	for _, r := range meta.Entries {
		if !used[r] && r.File != "" {
			byTextFile[r.File+"\x00"+r.Text] = append(byTextFile[r.File+"\x00"+r.Text], r)
		}
	}
	var rest []*curated
	for _, c := range entries {
		if c.pointer || c.preamble {
			continue
		}
		if r := take(byTextFile[c.file+"\x00"+key(c)]); r != nil {
			c.meta = r
		} else if r := take(byText[key(c)]); r != nil {
			c.meta = r
		} else if r := take(byText[text(c)]); r != nil {
			c.meta = r
		} else if r := take(byNorm[normText(text(c))]); r != nil {
			c.meta = r
		} else {
			rest = append(rest, c)
		}
	}
	var rest2 []*curated
	for _, c := range rest {
		if n := normText(text(c)); len(n) >= 40 {
			if r := take(byPrefix[prefix(n)]); r != nil {
				c.meta = r
				continue
			}
		}
		// Older bootstraps recorded a bold title alone, partial date and all
		// ("Nothing after 22:00 (10-27)").
		if c.e != nil && c.e.Title != "" {
			if r := take(byTitle[normText(c.e.Title)]); r != nil {
				c.meta = r
				continue
			}
		}
		rest2 = append(rest2, c)
	}
	for _, c := range rest2 {
		best, bestJ := -1, 0.6
		for _, i := range idx.candidates(c.words, 200) {
			r := meta.Entries[i]
			if used[r] {
				continue
			}
			if j := jaccard(c.words, recWords[i]); j >= bestJ {
				best, bestJ = i, j
			}
		}
		if best >= 0 {
			c.meta = meta.Entries[best]
			used[c.meta] = true
		}
	}
	for _, c := range entries {
		if c.meta != nil && c.meta.File == "" {
			c.meta.File = c.file
		}
	}
}

// bootstrapMeta gives every entry without a memory-meta.json record one,
// dated by the entry's own date, else its source's. An entry nothing dates
// stays undated: its record says only when it was first seen, which is
// what its decay counts from (day). It returns how many records it added.
func bootstrapMeta(meta *memory.MetaDoc, entries []*curated, day time.Time) int {
	if meta == nil {
		return 0
	}
	n := 0
	for _, c := range entries {
		if c.pointer || c.preamble || c.meta != nil || c.fresh {
			continue
		}
		track(meta, c, day)
		n++
	}
	return n
}

// track adds a record for one entry, first seen on day.
func track(meta *memory.MetaDoc, c *curated, day time.Time) *memory.MetaRecord {
	c.meta = meta.Add(c.recorded())
	c.meta.Created = c.date
	if c.meta.Created.IsZero() {
		c.meta.FirstSeen = day
	}
	c.meta.Section = c.section
	c.meta.Type = c.typ
	c.meta.File = c.file
	return c.meta
}

// evaluate computes every record's decay at now (DESIGN 5.1) and gives
// it to its entry.
func evaluate(meta *memory.MetaDoc, entries []*curated, now time.Time) {
	if meta == nil {
		for _, c := range entries {
			c.structural = memory.IsStructural(c.text)
		}
		return
	}
	rows := meta.Recompute(now, memory.DefaultParams())
	byID := map[string]memory.TierRow{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	for _, c := range entries {
		if c.meta == nil {
			c.structural = memory.IsStructural(c.text)
			continue
		}
		r := byID[c.meta.ID]
		c.decay = r.Parts
		c.decay.Tier, c.decay.Score = r.Tier, r.Score
		c.structural = c.meta.Structural
	}
}

var reMarker = regexp.MustCompile(`\s*\((?:superseded \d{4}-\d{2}-\d{2} by: [^)]*|done \d{4}-\d{2}-\d{2}|expires \d{4}-\d{2}-\d{2}|permission lapsed \d{4}-\d{2}-\d{2})\)`)

// reTrailingDate is a date note closing a title: "(10-27)", "(2026-10-27)".
var reTrailingDate = regexp.MustCompile(`\s*[(（]\s*(?:\d{4}-)?\d{1,2}[-/]\d{1,2}\s*[)）]\s*$`)

// stripMarkers removes the markers a dream adds to an entry.
func stripMarkers(s string) string { return strings.TrimSpace(reMarker.ReplaceAllString(s, "")) }

func normText(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("[[", "", "]]", "", "**", "", "`", "").Replace(s)
	return strings.Trim(strings.Join(strings.Fields(s), " "), " .;,!?:-—")
}

func prefix(n string) string {
	if len(n) > 40 {
		return n[:40]
	}
	return n
}

// isCuratedPath reports a path of curated memory: the index or an L2 file.
func isCuratedPath(p string) bool {
	return p == "MEMORY.md" || p == "memory.md" || isTopicPath(p)
}

// writableTopic reports a path a dream may write as an L2 topic file: a
// topic path (isTopicPath) that belongs to no day or month
// (workspace.DatedPath: the same rule the reader's topics are marked
// dated by).
func writableTopic(p string) bool { return isTopicPath(p) && !workspace.DatedPath(p) }

// isTopicPath reports a path a dream reads as an L2 topic file:
// memory/<name>.md (or deeper), never the dream log, an archive file, or
// anything under memory/dreaming/, memory/.dreams/ or memory/daily/. Which
// dated files are daily logs and which are topics the reader decides
// (workspace.IsDailyLog); a dream writes neither (writableTopic).
func isTopicPath(p string) bool {
	if !strings.HasPrefix(p, "memory/") || !strings.HasSuffix(p, ".md") {
		return false
	}
	switch {
	case p == "memory/dream-log.md",
		strings.HasPrefix(p, "memory/archive/"),
		strings.HasPrefix(p, "memory/dreaming/"),
		strings.HasPrefix(p, "memory/.dreams/"),
		strings.HasPrefix(p, "memory/daily/"):
		return false
	}
	return !slices.Contains(strings.Split(p, "/"), "..")
}

// dreams reports an entry the dream wrote: a line of this run, or one an
// earlier dream wrote, which carries the Source footer a dream writes
// ("Source: memory/2026-03-01.md:12"). Every other line of curated memory
// is its author's (#23 rule 2): a dream never moves, rewrites, marks,
// closes, supersedes or archives it, and never adds to it; a person does,
// with `dreamwiki supersede` or by hand.
func (c *curated) dreams() bool {
	if c.fresh || c.cand != nil {
		return true
	}
	if c.u == nil || c.e == nil {
		return false
	}
	for _, l := range c.u.lines {
		if reSourceFooter.MatchString(l) {
			return true
		}
	}
	return false
}

// at is where an entry is, for reasons: "MEMORY.md:12".
func (c *curated) at() string {
	if n := c.line(); n > 0 {
		return c.file + ":" + strconv.Itoa(n)
	}
	return c.file
}
