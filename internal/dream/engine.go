package dream

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// env is what a dream reads and never changes: the workspace, its daily
// logs, the clock and the configuration.
type env struct {
	ws   *workspace.Workspace
	logs []*workspace.DailyLog // the daily logs it may read (dailyLogs)
	now  time.Time
	day  time.Time // now's date, UTC midnight
	cfg  workspace.Config
	opts Options
}

func newEnv(ws *workspace.Workspace, opts Options) env {
	now := opts.now()
	e := env{ws: ws, logs: dailyLogs(ws), now: now, cfg: ws.Config, opts: opts,
		day: time.Date(now.UTC().Year(), now.UTC().Month(), now.UTC().Day(), 0, 0, 0, 0, time.UTC)}
	if opts.Configure != nil {
		opts.Configure(&e.cfg)
	}
	return e
}

// promotionConfig is the promotion gates of DESIGN 5.2 with the
// thresholds dreamwiki.toml sets.
func promotionConfig(d workspace.DreamConfig) memory.PromotionConfig {
	c := memory.DefaultPromotionConfig()
	c.MinScore, c.MinRecall, c.MinUniqueQueries = d.MinScore, d.MinRecall, d.MinUniqueQueries
	return c
}

// fileSet is every file a plan reads to change: its document as the plan
// edits it, and its bytes as the plan read them (what the audit diffs
// against and the transaction checks are still there).
type fileSet struct {
	ws     *workspace.Workspace
	docs   map[string]*mdDoc    // every file the plan may change, by path
	before map[string]fileState // those files as the plan read them
}

func newFileSet(ws *workspace.Workspace) *fileSet {
	return &fileSet{ws: ws, docs: map[string]*mdDoc{}, before: map[string]fileState{}}
}

// raw is a file's bytes on disk (CRLF line endings kept), or its content
// when there is no disk (the embedded demo).
func (fs *fileSet) raw(path, content string) []byte {
	if fs.ws.Root != "" {
		if b, err := readWorkspaceFile(fs.ws.Root, path); err == nil {
			return b
		}
	}
	return []byte(content)
}

// read returns a workspace file's bytes and records them as what the plan
// read.
func (fs *fileSet) read(f *workspace.File) []byte {
	raw := fs.raw(f.Path, f.Content)
	fs.before[f.Path] = fileState{hash: f.Hash, data: raw}
	return raw
}

// open makes an editable document of a workspace file.
func (fs *fileSet) open(f *workspace.File, sections []*workspace.Section) *mdDoc {
	d := newDoc(f.Path, f.Content, fs.read(f), sections)
	fs.docs[f.Path] = d
	return d
}

// taken reports a path the workspace or the plan already holds a file at.
func (fs *fileSet) taken(path string) bool {
	return fs.ws.FileByPath(path) != nil || fs.docs[path] != nil
}

// rendered is the new bytes of every document the plan changed.
func (fs *fileSet) rendered() map[string][]byte {
	out := map[string][]byte{}
	for path, d := range fs.docs {
		if d.changed() {
			out[path] = d.render()
		}
	}
	return out
}

// ledger is what a dream reports as it goes: every decision with its
// reason, the lines it left out, the secrets it found, warnings, notes
// and counts. Phases write to it as to a log; no phase reads it to decide
// anything (the dream log and the summary only report it).
type ledger struct {
	actions []Action
	skipped []Skip
	secrets []SecretFinding
	notes   []string
	diags   diag.List
	counts  Counts
}

func newLedger() *ledger {
	return &ledger{actions: []Action{}, skipped: []Skip{}, secrets: []SecretFinding{}}
}

// warn records a diagnostic, redacted like an action.
func (lg *ledger) warn(file, format string, args ...any) {
	lg.diags.Warnf("dream", file, 0, "%s", redact(fmt.Sprintf(format, args...)))
}

// action records a decision. Its texts quote curated memory and logs, and
// are printed, sent and written as JSON: they are redacted here, once.
func (lg *ledger) action(a Action) {
	a.Text, a.Old, a.Reason = redact(a.Text), redact(a.Old), redact(a.Reason)
	lg.actions = append(lg.actions, a)
}

// skip records a line left out and why.
func (lg *ledger) skip(c *candidate, reason string) {
	lg.skipped = append(lg.skipped, Skip{File: c.path, Line: c.line, Text: shorten(c.fact, 80), Reason: reason})
}

// fileState is a file as the plan read it.
type fileState struct {
	hash string
	data []byte
}

// placement is where a new fact goes.
type placement struct {
	c        *candidate
	doc      *mdDoc
	sec      *mdSection // appended at the end of this section, or
	afterU   *unit      // right after this entry, or
	replaceU *unit      // instead of this entry (MEMORY.md supersession)
	index    bool       // a MEMORY.md index line
	tag      bool       // an index line starts with its [type]
	dropped  bool       // taken out again to keep MEMORY.md within budget
	cur      *curated
	block    *block
	score    float64 // promotion score, for index lines
}

// readWorkspaceFile reads a workspace file's bytes from disk.
func readWorkspaceFile(root, rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
}

// recallAgg is what the recall store and the recall events say about one
// line range.
type recallAgg struct {
	path       string
	start, end int
	count      int
	daily      int // daily ingestions (OpenClaw's dailyCount)
	total      float64
	queries    map[string]bool
	days       map[string]bool
	first      time.Time
	last       time.Time
	grounded   int
	tags       int
	promotedAt time.Time
	key        string
	snippet    string
	// anchor is the first line of the one daily-log item the range stands
	// for, when it spans several: a recalled range is one memory, and
	// must not turn into one promotion per line of it.
	anchor int
}

// recalls is what the recall store and the recall events say about the
// line ranges of the daily logs: the collect phase reads it once, and
// promotion scores and the recall store's update read it.
type recalls struct {
	store *memory.RecallDoc       // nil when there is none, or it cannot be read
	aggs  map[string][]*recallAgg // daily-log path -> recalled ranges
}

// readRecalls reads the recall store and the recall events into per-range
// aggregates, each anchored to the item of logs it stands for. The store
// already sums the events it saw, so events count only for ranges the
// store does not hold. A store that is not valid JSON is left out and its
// error returned with the events' aggregates.
func readRecalls(ws *workspace.Workspace, logs []*workspace.DailyLog) (recalls, error) {
	r := recalls{aggs: map[string][]*recallAgg{}}
	var bad error
	inStore := map[string]bool{}
	if f := ws.FileByPath(recallPath); f != nil {
		if doc, err := memory.ParseRecallDoc([]byte(f.Content)); err != nil {
			bad = err
		} else {
			r.store = doc
		}
	}
	if r.store != nil {
		for _, e := range r.store.Entries {
			a := &recallAgg{path: e.Path, start: e.StartLine, end: e.EndLine, count: e.RecallCount, daily: e.DailyCount, total: e.TotalScore,
				queries: map[string]bool{}, days: map[string]bool{}, first: e.FirstRecalledAt, last: e.LastRecalledAt,
				grounded: e.GroundedCount, tags: len(e.ConceptTags), promotedAt: e.PromotedAt, key: e.Key, snippet: e.Snippet}
			for _, q := range e.QueryHashes {
				a.queries[q] = true
			}
			for _, d := range e.RecallDays {
				a.days[d] = true
			}
			r.aggs[e.Path] = append(r.aggs[e.Path], a)
			inStore[memory.RecallKey(e.Path, e.StartLine, e.EndLine)] = true
		}
	}
	byKey := map[string]*recallAgg{}
	for _, ev := range ws.Events {
		if ev.Type != "memory.recall.recorded" {
			continue
		}
		for _, res := range ev.Results {
			key := memory.RecallKey(res.Path, res.StartLine, res.EndLine)
			if inStore[key] || res.Path == "" {
				continue
			}
			a := byKey[key]
			if a == nil {
				a = &recallAgg{path: res.Path, start: res.StartLine, end: res.EndLine, queries: map[string]bool{}, days: map[string]bool{}, key: key}
				byKey[key] = a
				r.aggs[res.Path] = append(r.aggs[res.Path], a)
			}
			a.count++
			a.total += res.Score
			if ev.Query != "" {
				a.queries[memory.QueryHash(ev.Query)] = true
			}
			if !ev.At.IsZero() {
				a.days[ev.At.UTC().Format(time.DateOnly)] = true
				if a.first.IsZero() || ev.At.Before(a.first) {
					a.first = ev.At
				}
				if ev.At.After(a.last) {
					a.last = ev.At
				}
			}
		}
	}
	r.anchor(logs)
	return r, bad
}

// recallData reads the recall data (readRecalls) for a plan: a recall
// store that is not valid JSON is reported and left alone (the events
// still count); a valid one is recorded as read, since the plan may mark
// its promoted ranges.
func recallData(ws *workspace.Workspace, logs []*workspace.DailyLog, files *fileSet, lg *ledger) recalls {
	rec, err := readRecalls(ws, logs)
	if err != nil {
		lg.warn(recallPath, "the recall store is not valid JSON (%v); recall counts were not used and it is left alone", err)
	} else if f := ws.FileByPath(recallPath); f != nil {
		files.before[recallPath] = fileState{hash: f.Hash, data: []byte(f.Content)}
	}
	return rec
}

// anchor gives every recalled range the item it stands for: the one whose
// words best match the store's snippet, else the first it overlaps.
func (r recalls) anchor(logs []*workspace.DailyLog) {
	for _, log := range logs {
		for _, a := range r.aggs[log.File.Path] {
			sw := contentWords(a.snippet)
			best, bestScore := 0, -1.0
			for _, it := range log.Items {
				end := max(it.EndLine, it.Line)
				if it.Line > a.end || end < a.start {
					continue
				}
				score := 0.0
				if len(sw) > 0 {
					score = jaccard(sw, contentWords(it.Text))
				}
				if score > bestScore {
					best, bestScore = it.Line, score
				}
			}
			a.anchor = best
		}
	}
}

// forRange returns the aggregates for an item's line range.
func (r recalls) forRange(path string, start, end int) []*recallAgg {
	var out []*recallAgg
	for _, a := range r.aggs[path] {
		if a.start <= end && a.end >= start && (a.anchor == 0 || a.anchor >= start && a.anchor <= end) {
			out = append(out, a)
		}
	}
	return out
}

// scorer scores candidates for promotion: the recall data, the clock and
// the gates are all it reads.
type scorer struct {
	rec recalls
	now time.Time
	cfg memory.PromotionConfig
}

// promotion scores a candidate with the six signals and three gates of
// DESIGN 5.2 on its recall signals alone: the recall store (recalls,
// daily ingestions, grounded confirmations, as OpenClaw writes them) and
// the recall events of ranges the store does not hold. How often the logs
// state a fact, or how it is worded, never counts here: text may propose
// a line (durable.go), only recall signals may promote it. promoted is
// set when the store says an earlier dream promoted the range already.
func (sc scorer) promotion(c *candidate) (memory.Decision, memory.PromotionInput, bool) {
	var in memory.PromotionInput
	queries := map[string]bool{}
	days := map[string]bool{}
	tags := 0
	promoted := false
	seen := map[*recallAgg]bool{}
	for _, ev := range c.evidence {
		for _, a := range sc.rec.forRange(ev.Path, ev.Line, ev.EndLine) {
			if seen[a] {
				continue
			}
			seen[a] = true
			in.RecallCount += a.count
			in.DailyCount += a.daily
			in.TotalScore += a.total
			in.GroundedCount += a.grounded
			for q := range a.queries {
				queries[q] = true
			}
			for d := range a.days {
				days[d] = true
			}
			if !a.first.IsZero() && (in.FirstRecalled.IsZero() || a.first.Before(in.FirstRecalled)) {
				in.FirstRecalled = a.first
			}
			if a.last.After(in.LastRecalled) {
				in.LastRecalled = a.last
			}
			tags = max(tags, a.tags)
			promoted = promoted || !a.promotedAt.IsZero()
		}
	}
	in.UniqueQueries = len(queries)
	for d := range days {
		in.RecallDays = append(in.RecallDays, d)
	}
	sort.Strings(in.RecallDays)
	if tags == 0 {
		tags = len(memory.ConceptTags(c.fact, 6))
	}
	in.ConceptTags = tags
	return memory.Promote(in, sc.now, sc.cfg), in, promoted
}

func evidenceStrings(evs []evidence) []string {
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		if e.Path != "" {
			out = append(out, e.String())
		}
	}
	return out
}

// sortCandidates orders candidates oldest first (date, path, line), the
// order a person would have written them in.
func sortCandidates(cs []*candidate) {
	slices.SortStableFunc(cs, func(a, b *candidate) int {
		if c := a.date.Compare(b.date); c != 0 {
			return c
		}
		if a.path != b.path {
			return strings.Compare(a.path, b.path)
		}
		return a.line - b.line
	})
}

// fmtScore formats a score for reasons and reports.
func fmtScore(f float64) string { return fmt.Sprintf("%.3f", f) }
