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

// curatedState is curated memory as the small writers read it, under the
// lock: the entries with their meta records and decay.
type curatedState struct {
	env
	files     *fileSet
	mem       *curatedMemory
	meta      *memory.MetaDoc // nil when memory-meta.json cannot be read
	lg        *ledger         // what reading and the audit report
	lock      *lock
	recovered *Recovery // what was put back before reading the workspace
}

// prepare reads the workspace and the curated entries with their meta
// records, without creating records for entries that have none. The
// caller holds the lock.
func prepare(root string, opts Options) (*curatedState, error) {
	rec, err := Recover(root)
	if err != nil {
		return nil, err
	}
	ws, err := workspace.Load(root, workspace.Options{})
	if err != nil {
		return nil, err
	}
	st := &curatedState{env: newEnv(ws, opts), files: newFileSet(ws), lg: newLedger(), recovered: rec}
	if st.mem, err = readCurated(ws, st.day, st.files, st.lg); err != nil {
		return nil, err
	}
	st.meta = readMeta(ws, st.files, st.lg)
	matchMeta(st.meta, st.mem.curated)
	evaluate(st.meta, st.mem.curated, st.now)
	return st, nil
}

// locked takes the workspace lock (waiting up to wait for a dream to
// finish), reads the workspace under it and runs fn.
func locked(ctx context.Context, dir string, opts Options, wait time.Duration, fn func(st *curatedState) error) error {
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
	st, err := prepare(root, opts)
	if err != nil {
		return err
	}
	st.lock = l
	return fn(st)
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

// commit writes file changes in one transaction (the caller holds the
// lock).
func (st *curatedState) commit(changes []FileChange) (string, error) {
	if st.ws.Root == "" {
		return "", errors.New("an in-memory workspace cannot be written")
	}
	var writes []fileWrite
	for _, f := range changes {
		writes = append(writes, fileWrite{Path: f.Path, Data: f.new, Before: f.Before, Backup: f.backup})
	}
	t := &txn{root: st.ws.Root, run: st.now.Format("20060102-1504"), now: st.now, writes: writes, lock: st.lock, hook: st.opts.hook}
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
	err := locked(ctx, dir, opts, wait, func(st *curatedState) (err error) {
		res, err = st.recordRecall(query, matches)
		return err
	})
	return res, err
}

// curatedLines are the curated entries (those keep keeps; index pointers
// never) as lines to match a text against, and each entry by its
// "file:line".
func curatedLines(entries []*curated, keep func(*curated) bool) ([]memory.Line, map[string]*curated) {
	var lines []memory.Line
	at := map[string]*curated{}
	for _, c := range entries {
		if c.e == nil || c.pointer || !keep(c) {
			continue
		}
		lines = append(lines, memory.Line{Path: c.file, StartLine: c.e.Line, EndLine: c.e.EndLine, Text: c.text})
		at[lineKey(c.file, c.e.Line)] = c
	}
	return lines, at
}

func lineKey(path string, line int) string { return fmt.Sprintf("%s:%d", path, line) }

func (st *curatedState) recordRecall(query, matches string) (*RecallResult, error) {
	var err error
	lines, curAt := curatedLines(st.mem.curated, func(*curated) bool { return true })
	for _, d := range st.logs {
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
	res := &RecallResult{Query: redact(query), Matches: found, Recovered: st.recovered}

	// The recall store and the events.
	store := memory.NewRecallDoc()
	if f := st.ws.FileByPath(recallPath); f != nil {
		if store, err = memory.ParseRecallDoc(st.files.read(f)); err != nil {
			return nil, fmt.Errorf("%s is not valid JSON (%v); fix or remove it before recording recalls", recallPath, err)
		}
	}
	qh := memory.QueryHash(query)
	for _, m := range found {
		store.Record(m, qh, m.How != "overlap", st.now)
	}
	out := map[string][]byte{recallPath: store.Bytes()}
	var events []byte
	if f := st.ws.FileByPath(eventsPath); f != nil {
		events = st.files.read(f)
	}
	// The record takes the log's shape; a log whose records all carry keys
	// a recall has no value for gets none (the recall store has it).
	if rec, ok := memory.ReadEventLog(events).RecallEvent(query, found, st.now); ok {
		events = slices.Clone(events)
		if len(events) > 0 && events[len(events)-1] != '\n' {
			events = append(events, '\n')
		}
		out[eventsPath] = append(events, rec...)
	}

	if st.meta != nil {
		if res.Entries = countRecalls(st.meta, found, curAt, st.now, st.day); len(res.Entries) > 0 {
			out[metaPath] = st.meta.Bytes()
		}
	}
	changes := st.stateFiles(out)
	if _, err := st.commit(changes); err != nil {
		return nil, err
	}
	for _, f := range changes {
		res.Files = append(res.Files, f.Path)
	}
	return res, nil
}

// countRecalls counts a recall of the curated entries among the matches
// (found; curAt are the entries by "file:line") in their memory-meta.json
// records, started on day for an entry without one, and returns their
// decay at now after it.
func countRecalls(meta *memory.MetaDoc, found []memory.Match, curAt map[string]*curated, now, day time.Time) []memory.TierRow {
	var rows []memory.TierRow
	for _, m := range found {
		c := curAt[lineKey(m.Path, m.StartLine)]
		if c == nil {
			continue
		}
		r := c.meta
		if r == nil {
			r = track(meta, c, day)
		}
		r.RecallCount++
		if now.After(r.LastRecalled) {
			r.LastRecalled = now
		}
		if !r.Structural && memory.IsStructural(r.Text) {
			r.Structural = true
		}
		ev := memory.Evaluate(memory.Input{Created: r.Since(), LastRecalled: r.LastRecalled, RecallCount: r.RecallCount, Structural: r.Structural}, now, memory.DefaultParams())
		r.Tier, r.Score = string(ev.Tier), ev.Score
		rows = append(rows, memory.TierRow{ID: r.ID, Text: r.Text, File: c.file, Tier: ev.Tier, Score: r3(ev.Score),
			Recalls: r.RecallCount, Created: r.Created, Structural: r.Structural, Parts: ev})
	}
	return rows
}

// stateFiles turns new state-file bytes into file changes without backups
// (they are logs and counters, and the journal still makes the set
// atomic).
func (st *curatedState) stateFiles(out map[string][]byte) []FileChange {
	changes := audit(out, st.ws, st.files.before, st.lg)
	for i := range changes {
		changes[i].backup = false
	}
	return changes
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
	err := locked(ctx, dir, opts, wait, func(st *curatedState) (err error) {
		res, err = st.supersedeText(oldText, newText)
		return err
	})
	return res, err
}

// supersedable finds the one entry oldText names (lines and byKey from
// curatedLines), and says why when it is none, several, or one that may
// not be superseded.
func supersedable(oldText string, lines []memory.Line, byKey map[string]*curated) (*curated, error) {
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
	old := byKey[lineKey(found[0].Path, found[0].StartLine)]
	if strings.Contains(strings.ToLower(old.text), "(superseded ") {
		return nil, fmt.Errorf("%s:%d is already superseded; supersede its successor to extend the chain", old.file, old.e.Line)
	}
	if old.pinned() {
		return nil, fmt.Errorf("%s:%d holds a secret, and a line holding one is never rewritten (its value would be lost); move the secret to a password manager, edit the line by hand, then supersede it", old.file, old.e.Line)
	}
	return old, nil
}

// successor is the candidate a supersede writes for newText on day,
// typed like the entry it replaces (old), redacted and dated.
func successor(newText string, old *curated, day time.Time) *candidate {
	fact := redact(strings.TrimSpace(newText)) // a new secret never reaches curated memory
	if !reISODate.MatchString(fact) {
		fact = withDate(fact, day)
	}
	c := &candidate{fact: fact, date: day, words: contentWords(newText), nums: numbers(fact), typ: old.typ}
	if c.typ == "" {
		c.typ = classify(newText, "", nil, memory.IsStructural(newText))
	}
	c.subject, c.value, _ = memory.SubjectValue(newText)
	c.evidence = []evidence{{Date: day}}
	return c
}

func (st *curatedState) supersedeText(oldText, newText string) (*SupersedeResult, error) {
	lines, byKey := curatedLines(st.mem.curated, func(c *curated) bool { return !c.table })
	old, err := supersedable(oldText, lines, byKey)
	if err != nil {
		return nil, err
	}
	if old.meta == nil && st.meta != nil {
		track(st.meta, old, st.day)
	}
	res := &SupersedeResult{Old: old.text, OldFile: old.file, OldLine: old.e.Line, Recovered: st.recovered}
	c := successor(newText, old, st.day)

	// The successor may exist already.
	if nm := memory.MatchRecall(newText, lines, 1); len(nm) > 0 && nm[0].How != "overlap" {
		if n := byKey[lineKey(nm[0].Path, nm[0].StartLine)]; n != nil && n != old {
			res.Existing, res.New, res.NewFile = true, redact(n.text), n.file
			if n.meta == nil && st.meta != nil {
				track(st.meta, n, st.day)
			}
			c.fact = n.text
			st.mem.fresh[c] = []*curated{n}
		}
	}
	if !res.Existing {
		res.New = c.fact
		pl := &placement{c: c}
		if old.file == st.mem.memDoc.path {
			pl.doc, pl.replaceU, pl.index, pl.tag = st.mem.memDoc, old.u, true, old.e.TypeTag != ""
		} else {
			pl.doc, pl.afterU = old.u.doc, old.u
		}
		res.NewFile = pl.doc.path
		pl.cur = st.mem.freshCurated(c, pl.doc.path, pl)
		st.mem.placements = append(st.mem.placements, pl)
	}
	supersede(old, c, st.mem.memDoc.path, archive{files: st.files, day: st.day})
	materialize(st.mem.placements)
	metaForPlacements(st.meta, st.mem, st.now)
	if old.meta != nil {
		res.OldID = old.meta.ID
		for _, f := range st.mem.fresh[c] {
			if f.meta != nil {
				res.NewID = f.meta.ID
				old.meta.SupersededBy = f.meta.ID
				f.meta.Supersedes = old.meta.ID
			}
		}
	}
	out := st.files.rendered()
	if st.meta != nil {
		out[metaPath] = st.meta.Bytes()
	}
	res.Files = audit(out, st.ws, st.files.before, st.lg)
	if res.Backup, err = st.commit(res.Files); err != nil {
		return nil, err
	}
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
	err := locked(ctx, dir, opts, wait, func(st *curatedState) (err error) {
		res, err = st.decay()
		return err
	})
	return res, err
}

func (st *curatedState) decay() (*DecayResult, error) {
	res := &DecayResult{Tiers: map[memory.Tier]int{}, File: metaPath, Recovered: st.recovered}
	if st.meta == nil {
		return nil, fmt.Errorf("%s cannot be read; fix it, or remove it and let a dream start it again", metaPath)
	}
	// The tiers as the file has them (prepare already recomputed them in
	// memory).
	before := map[string]string{}
	if orig, err := memory.ParseMetaDoc(st.files.before[metaPath].data); err == nil {
		for _, r := range orig.Entries {
			before[r.ID] = r.Tier
		}
	}
	res.Rows = st.meta.Recompute(st.now, memory.DefaultParams())
	for i, r := range res.Rows {
		res.Rows[i].Was = memory.Tier(before[r.ID])
		res.Tiers[r.Tier]++
		if before[r.ID] != string(r.Tier) {
			res.Changed++
		}
	}
	for _, c := range st.mem.curated {
		if c.meta == nil && !c.pointer && !c.preamble {
			res.Untracked++
		}
	}
	if len(st.meta.Entries) == 0 {
		return res, nil
	}
	st.meta.Set("lastDecayAt", st.now.Format(time.RFC3339))
	changes := st.stateFiles(map[string][]byte{metaPath: st.meta.Bytes()})
	if _, err := st.commit(changes); err != nil {
		return nil, err
	}
	res.Written = len(changes) > 0
	return res, nil
}
