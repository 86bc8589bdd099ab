package dream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// The small writers: recall, supersede and decay. Each reads the
// workspace, takes the lock (waiting a little for a dream to finish, since
// an agent calls recall after every search), and writes its files in one
// journaled transaction.

// DefaultWait is how long recall, supersede and decay wait for the lock.
const DefaultWait = 10 * time.Second

// prepare reads the workspace and the curated entries with their meta
// records, without creating records for entries that have none. The
// caller holds the lock.
func prepare(root string, opts Options) (*planner, error) {
	rec, err := Recover(root)
	if err != nil {
		return nil, err
	}
	ws, err := workspace.Load(root, workspace.Options{})
	if err != nil {
		return nil, err
	}
	p := newPlanner(ws, opts)
	p.recovered = rec
	p.plan = &Plan{Workspace: ws.Root, Now: p.now, root: ws.Root, Actions: []Action{}, Files: []FileChange{}}
	p.sel = &selection{}
	if err := p.loadCurated(); err != nil {
		return nil, err
	}
	p.loadMeta()
	p.matchMeta()
	p.evaluate()
	return p, nil
}

// locked takes the workspace lock (waiting up to wait for a dream to
// finish), reads the workspace under it and runs fn.
func locked(ctx context.Context, dir string, opts Options, wait time.Duration, fn func(p *planner) error) error {
	root, err := workspaceRoot(dir)
	if err != nil {
		return err
	}
	cfg := readConfig(root)
	timeout := time.Duration(max(cfg.Dream.LockTimeoutMin, 1)) * time.Minute
	l, err := lockWaiting(ctx, root, opts, wait, timeout)
	if err != nil {
		return err
	}
	defer l.release()
	p, err := prepare(root, opts)
	if err != nil {
		return err
	}
	p.lock = l
	return fn(p)
}

// lockWaiting takes the lock, retrying every 100 ms for up to wait.
func lockWaiting(ctx context.Context, root string, opts Options, wait time.Duration, timeout time.Duration) (*lock, error) {
	for {
		l, err := acquireLock(root, timeout, opts.Command)
		var le *LockedError
		if err == nil || !errors.As(err, &le) || wait <= 0 {
			return l, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		wait -= 100 * time.Millisecond
	}
}

// commitFiles writes the plan's files in one transaction (the caller holds
// the lock).
func (p *planner) commitFiles() (string, error) {
	if p.root == "" {
		return "", errors.New("an in-memory workspace cannot be written")
	}
	var writes []fileWrite
	for _, f := range p.plan.Files {
		writes = append(writes, fileWrite{Path: f.Path, Data: f.new, Before: f.Before, Backup: f.backup})
	}
	t := &txn{root: p.root, run: p.now.Format("20060102-1504"), now: p.now, writes: writes, lock: p.lock, hook: p.opts.hook}
	return t.commit()
}

// RecallResult is what Recall recorded.
type RecallResult struct {
	Query   string         `json:"query"`
	Matches []memory.Match `json:"matches"`
	// Entries are the curated entries among the matches, with their decay
	// after the recall.
	Entries []memory.TierRow `json:"entries"`
	Files   []string         `json:"files"`
	// Recovered is what an interrupted earlier run left and this one put
	// back first.
	Recovered *Recovery `json:"recovered,omitempty"`
}

// NoMatchError says a recall or supersede found nothing.
type NoMatchError struct{ Text string }

func (e *NoMatchError) Error() string {
	return fmt.Sprintf("nothing in MEMORY.md, the L2 files or the daily logs matches %q", e.Text)
}

// Recall logs that a search for query found the text matches: it appends a
// memory.recall.recorded event to memory/.dreams/events.jsonl, counts the
// recall in short-term-recall.json (recalls, unique queries, days,
// grounding) and, for curated entries, in memory-meta.json (recall count,
// last recall, new decay score). These feed decay (DESIGN 5.1) and
// promotion (5.2). The lines are found as the seed's logger does: same
// text, else containing text, else word overlap.
func Recall(ctx context.Context, dir, query, matches string, opts Options, wait time.Duration) (*RecallResult, error) {
	if strings.TrimSpace(query) == "" || strings.TrimSpace(matches) == "" {
		return nil, errors.New("a recall needs a query and the text it matched")
	}
	var res *RecallResult
	err := locked(ctx, dir, opts, wait, func(p *planner) (err error) {
		res, err = p.recordRecall(query, matches)
		return err
	})
	return res, err
}

func (p *planner) recordRecall(query, matches string) (*RecallResult, error) {
	var err error
	var lines []memory.Line
	curAt := map[string]*curated{}
	for _, c := range p.mem.curated {
		if c.e == nil || c.pointer {
			continue
		}
		lines = append(lines, memory.Line{Path: c.file, StartLine: c.e.Line, EndLine: c.e.EndLine, Text: c.text})
		curAt[fmt.Sprintf("%s:%d", c.file, c.e.Line)] = c
	}
	for _, d := range p.logs {
		for _, it := range d.Items {
			lines = append(lines, memory.Line{Path: d.File.Path, StartLine: it.Line, EndLine: max(it.EndLine, it.Line), Text: it.Text})
		}
	}
	found := memory.MatchRecall(matches, lines, 10)
	if len(found) == 0 {
		return nil, &NoMatchError{Text: matches}
	}
	for i := range found {
		found[i].Text = redact(found[i].Text)
	}
	res := &RecallResult{Query: redact(query), Matches: found, Recovered: p.recovered}

	// The recall store and the events.
	store := memory.NewRecallDoc()
	if f := p.ws.FileByPath(recallPath); f != nil {
		raw := p.rawOf(recallPath, f.Content)
		if store, err = memory.ParseRecallDoc(raw); err != nil {
			return nil, fmt.Errorf("%s is not valid JSON (%v); fix or remove it before recording recalls", recallPath, err)
		}
		p.before[recallPath] = fileState{hash: f.Hash, data: raw}
	}
	qh := memory.QueryHash(query)
	for _, m := range found {
		store.Record(m, qh, m.How != "overlap", p.now)
	}
	out := map[string][]byte{recallPath: store.Bytes()}
	var events []byte
	if f := p.ws.FileByPath(eventsPath); f != nil {
		events = p.rawOf(eventsPath, f.Content)
		p.before[eventsPath] = fileState{hash: f.Hash, data: events}
	}
	// The record takes the log's shape; a log whose records all carry keys
	// a recall has no value for gets none (the recall store has it).
	if rec, ok := memory.ReadEventLog(events).RecallEvent(query, found, p.now); ok {
		events = slices.Clone(events)
		if len(events) > 0 && events[len(events)-1] != '\n' {
			events = append(events, '\n')
		}
		out[eventsPath] = append(events, rec...)
	}

	// Curated entries: recall counts and decay in memory-meta.json.
	if p.meta != nil {
		for _, m := range found {
			c := curAt[fmt.Sprintf("%s:%d", m.Path, m.StartLine)]
			if c == nil {
				continue
			}
			r := c.meta
			if r == nil {
				r = p.track(c)
			}
			r.RecallCount++
			if p.now.After(r.LastRecalled) {
				r.LastRecalled = p.now
			}
			if !r.Structural && memory.IsStructural(r.Text) {
				r.Structural = true
			}
			ev := memory.Evaluate(memory.Input{Created: r.Since(), LastRecalled: r.LastRecalled, RecallCount: r.RecallCount, Structural: r.Structural}, p.now, memory.DefaultParams())
			r.Tier, r.Score = string(ev.Tier), ev.Score
			res.Entries = append(res.Entries, memory.TierRow{ID: r.ID, Text: r.Text, File: c.file, Tier: ev.Tier, Score: r3(ev.Score),
				Recalls: r.RecallCount, Created: r.Created, Structural: r.Structural, Parts: ev})
		}
		if len(res.Entries) > 0 {
			out[metaPath] = p.meta.Bytes()
		}
	}
	p.stateFiles(out)
	if _, err := p.commitFiles(); err != nil {
		return nil, err
	}
	for _, f := range p.plan.Files {
		res.Files = append(res.Files, f.Path)
	}
	return res, nil
}

// stateFiles turns new state-file bytes into the plan's file changes
// (without backups: they are logs and counters, and the journal still
// makes the set atomic).
func (p *planner) stateFiles(out map[string][]byte) {
	p.audit(out)
	for i := range p.plan.Files {
		p.plan.Files[i].backup = false
	}
}

// SupersedeResult is what Supersede changed.
type SupersedeResult struct {
	Old      string       `json:"old"`
	OldFile  string       `json:"oldFile"`
	OldLine  int          `json:"oldLine"`
	New      string       `json:"new"`
	NewFile  string       `json:"newFile"`
	OldID    string       `json:"oldId,omitempty"`
	NewID    string       `json:"newId,omitempty"`
	Existing bool         `json:"existing"` // the new fact was already written somewhere
	Backup   string       `json:"backup,omitempty"`
	Files    []FileChange `json:"files"`
	// Recovered is what an interrupted earlier run left and this one put
	// back first.
	Recovered *Recovery `json:"recovered,omitempty"`
}

// AmbiguousError says a text matches several entries equally well.
type AmbiguousError struct {
	Text    string
	Matches []string // "file:line: text"
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q matches %d entries equally well (%s); give more of the text", e.Text, len(e.Matches), strings.Join(e.Matches, "; "))
}

// Supersede starts or extends a temporal fact chain (DESIGN 5.4): the entry
// matching oldText is marked superseded on today's date, with a link to its
// successor and the date it held since; newText is written right after it
// (in MEMORY.md it takes the old line's place and the old line goes to the
// archive), unless an entry already says it. memory-meta.json links the
// two records both ways. Changed files are backed up first.
func Supersede(ctx context.Context, dir, oldText, newText string, opts Options, wait time.Duration) (*SupersedeResult, error) {
	if strings.TrimSpace(oldText) == "" || strings.TrimSpace(newText) == "" {
		return nil, errors.New("supersede needs the old text and the new text")
	}
	var res *SupersedeResult
	err := locked(ctx, dir, opts, wait, func(p *planner) (err error) {
		res, err = p.supersedeText(oldText, newText)
		return err
	})
	return res, err
}

func (p *planner) supersedeText(oldText, newText string) (*SupersedeResult, error) {
	var err error
	var lines []memory.Line
	byKey := map[string]*curated{}
	for _, c := range p.mem.curated {
		if c.e == nil || c.pointer || c.table {
			continue
		}
		lines = append(lines, memory.Line{Path: c.file, StartLine: c.e.Line, EndLine: c.e.EndLine, Text: c.text})
		byKey[fmt.Sprintf("%s:%d", c.file, c.e.Line)] = c
	}
	found := memory.MatchRecall(oldText, lines, 0)
	if len(found) == 0 {
		return nil, &NoMatchError{Text: oldText}
	}
	if len(found) > 1 && found[1].Score == found[0].Score {
		e := &AmbiguousError{Text: oldText}
		for _, m := range found {
			if m.Score == found[0].Score {
				e.Matches = append(e.Matches, fmt.Sprintf("%s:%d: %s", m.Path, m.StartLine, shorten(m.Text, 60)))
			}
		}
		return nil, e
	}
	old := byKey[fmt.Sprintf("%s:%d", found[0].Path, found[0].StartLine)]
	if strings.Contains(strings.ToLower(old.text), "(superseded ") {
		return nil, fmt.Errorf("%s:%d is already superseded; supersede its successor to extend the chain", old.file, old.e.Line)
	}
	if old.pinned() {
		return nil, fmt.Errorf("%s:%d holds a secret, and a line holding one is never rewritten (its value would be lost); move the secret to a password manager, edit the line by hand, then supersede it", old.file, old.e.Line)
	}
	if old.meta == nil && p.meta != nil {
		p.track(old)
	}
	res := &SupersedeResult{Old: old.text, OldFile: old.file, OldLine: old.e.Line, Recovered: p.recovered}

	fact := redact(strings.TrimSpace(newText)) // a new secret never reaches curated memory
	if !reISODate.MatchString(fact) {
		fact = withDate(fact, p.day)
	}
	c := &candidate{fact: fact, date: p.day, words: contentWords(newText), nums: numbers(fact), typ: old.typ}
	if c.typ == "" {
		c.typ = classify(newText, "", nil, memory.IsStructural(newText))
	}
	c.subject, c.value, _ = memory.SubjectValue(newText)
	c.evidence = []evidence{{Date: p.day}}

	// The successor may exist already.
	if nm := memory.MatchRecall(newText, lines, 1); len(nm) > 0 && nm[0].How != "overlap" {
		if n := byKey[fmt.Sprintf("%s:%d", nm[0].Path, nm[0].StartLine)]; n != nil && n != old {
			res.Existing, res.New, res.NewFile = true, redact(n.text), n.file
			if n.meta == nil && p.meta != nil {
				p.track(n)
			}
			c.fact = n.text
			p.mem.fresh[c] = []*curated{n}
		}
	}
	if !res.Existing {
		res.New = fact
		pl := &placement{c: c}
		if old.file == p.mem.memDoc.path {
			pl.doc, pl.replaceU, pl.index, pl.tag = p.mem.memDoc, old.u, true, old.e.TypeTag != ""
		} else {
			pl.doc, pl.afterU = old.u.doc, old.u
		}
		res.NewFile = pl.doc.path
		pl.cur = p.freshCurated(c, pl.doc.path, pl)
		p.mem.placements = append(p.mem.placements, pl)
	}
	p.supersede(old, c)
	p.materialize()
	p.metaForPlacements()
	if old.meta != nil {
		res.OldID = old.meta.ID
		for _, f := range p.mem.fresh[c] {
			if f.meta != nil {
				res.NewID = f.meta.ID
				old.meta.SupersededBy = f.meta.ID
				f.meta.Supersedes = old.meta.ID
			}
		}
	}
	out := map[string][]byte{}
	for path, d := range p.docs {
		if d.changed() {
			out[path] = d.render()
		}
	}
	if p.meta != nil {
		out[metaPath] = p.meta.Bytes()
	}
	p.audit(out)
	if res.Backup, err = p.commitFiles(); err != nil {
		return nil, err
	}
	res.Files = p.plan.Files
	return res, nil
}

// DecayResult is the tier table after Decay.
type DecayResult struct {
	Rows []memory.TierRow `json:"rows"`
	// Tiers counts the entries per tier.
	Tiers map[memory.Tier]int `json:"tiers"`
	// Changed counts the entries whose tier changed.
	Changed int `json:"changed"`
	// Untracked counts curated entries without a record yet (the next
	// dream adds them).
	Untracked int    `json:"untracked"`
	Written   bool   `json:"written"`
	File      string `json:"file"`
	// Recovered is what an interrupted earlier run left and this one put
	// back first.
	Recovered *Recovery `json:"recovered,omitempty"`
}

// Decay recomputes every entry's decay score and tier (DESIGN 5.1) in
// memory-meta.json and returns the tier table. It moves nothing: entries
// that reach the archived tier are moved by the next dream.
func Decay(ctx context.Context, dir string, opts Options, wait time.Duration) (*DecayResult, error) {
	var res *DecayResult
	err := locked(ctx, dir, opts, wait, func(p *planner) (err error) {
		res, err = p.decay()
		return err
	})
	return res, err
}

func (p *planner) decay() (*DecayResult, error) {
	res := &DecayResult{Tiers: map[memory.Tier]int{}, File: metaPath, Recovered: p.recovered}
	if p.meta == nil {
		return nil, fmt.Errorf("%s cannot be read; fix it, or remove it and let a dream start it again", metaPath)
	}
	// The tiers as the file has them (prepare already recomputed them in
	// memory).
	before := map[string]string{}
	if orig, err := memory.ParseMetaDoc(p.before[metaPath].data); err == nil {
		for _, r := range orig.Entries {
			before[r.ID] = r.Tier
		}
	}
	res.Rows = p.meta.Recompute(p.now, memory.DefaultParams())
	for i, r := range res.Rows {
		res.Rows[i].Was = memory.Tier(before[r.ID])
		res.Tiers[r.Tier]++
		if before[r.ID] != string(r.Tier) {
			res.Changed++
		}
	}
	for _, c := range p.mem.curated {
		if c.meta == nil && !c.pointer && !c.preamble {
			res.Untracked++
		}
	}
	if len(p.meta.Entries) == 0 {
		return res, nil
	}
	p.meta.Set("lastDecayAt", p.now.Format(time.RFC3339))
	p.stateFiles(map[string][]byte{metaPath: p.meta.Bytes()})
	if _, err := p.commitFiles(); err != nil {
		return nil, err
	}
	res.Written = len(p.plan.Files) > 0
	return res, nil
}
