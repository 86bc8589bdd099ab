package dream

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/llmchat"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Options tune a dream.
type Options struct {
	// Now is the clock: every date a dream writes and its gates come from
	// it. nil means time.Now. The lock never uses it: a lock's age is
	// measured on the wall clock.
	Now func() time.Time
	// Force skips the time and session gates. It never skips the lock.
	Force bool
	// Configure, when set, adjusts the workspace configuration
	// (dreamwiki.toml) before planning: tests and callers use it to change
	// thresholds without writing the file.
	Configure func(*workspace.Config)
	// LLM, when set, runs the distil step (which lines are durable facts,
	// which state the same fact, their wording, Rule/Why/How, their file)
	// through an OpenAI-compatible endpoint (llm.go). The deterministic
	// engine is complete without it.
	LLM *LLM
	// Command is recorded in the lock ("dreamwiki dream").
	Command string
	// Choose lists the ids of candidates (Plan.Proposals) a person or an
	// agent chose: they are written as a line past the Deep gates is.
	Choose []string
	// Rewrites are lines an agent wrote from cited daily-log lines; each
	// is checked as a distiller's answer is before it is written. An id
	// not found or a rewrite refused refuses the plan (*ChoiceError).
	Rewrites []Rewrite

	// hook is called at each write step; tests use it to simulate crashes.
	hook func(step string)
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

// LLM is an OpenAI-compatible chat-completions endpoint that distils the
// candidate lines, answering in a JSON schema. Every fact of an answer is
// checked: it cites lines of the request, says only what they say (their
// words, numbers and code), holds no secret, instruction or Markdown
// structure, and names a type and a file that exist. An answer with one
// fact that fails is not used; its lines go the rule-based way.
type LLM = llmchat.Config

// Plan is a dream worked out in full and not yet written: the gates, the
// inputs, every decision with its reason and scores, and the new bytes of
// every file that would change. It is JSON-serialisable (the file bytes
// travel as unified diffs); Apply writes it.
type Plan struct {
	Workspace string    `json:"workspace"`
	Now       time.Time `json:"now"`
	Force     bool      `json:"force"`
	Gates     []Gate    `json:"gates"`
	// Ready is true when the time and session gates passed, or Force is set.
	Ready     bool    `json:"ready"`
	Watermark string  `json:"watermark,omitempty"`
	Through   string  `json:"consolidatedThrough,omitempty"`
	Inputs    []Input `json:"inputs"`
	Deferred  []Input `json:"deferred,omitempty"`
	// Notes are remarks about the batch (a date taken whole although over
	// the byte cap, a recovery that is pending).
	Notes   []string `json:"notes,omitempty"`
	Actions []Action `json:"actions"`
	// Proposals are the lines the dream found worth a look and may not
	// write by itself, highest score first; Options.Choose takes their ids.
	Proposals   []Proposal      `json:"proposals"`
	Skipped     []Skip          `json:"skipped"`
	Secrets     []SecretFinding `json:"secrets"`
	Counts      Counts          `json:"counts"`
	Memory      MemorySize      `json:"memory"`
	Files       []FileChange    `json:"files"`
	Summary     string          `json:"summary"`
	Diagnostics diag.List       `json:"diagnostics,omitempty"`

	root        string
	command     string
	lockTimeout time.Duration
}

// Action is one decision of a dream.
type Action struct {
	// Kind is "promote" (a new fact into an L2 file), "index" (a line into
	// MEMORY.md), "merge" (evidence added to an entry already kept),
	// "supersede", "close", "archive" (a line the dream wrote, decayed or
	// superseded), "new-topic" or "redact".
	Kind     string   `json:"kind"`
	File     string   `json:"file"`
	Text     string   `json:"text"`
	Old      string   `json:"old,omitempty"`
	Type     string   `json:"type,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
	Reason   string   `json:"reason"`
	Scores   *Scores  `json:"scores,omitempty"`
}

// Scores are the numbers behind a decision.
type Scores struct {
	Promotion *PromotionScores `json:"promotion,omitempty"`
	Decay     *DecayScores     `json:"decay,omitempty"`
}

// PromotionScores are the six signals of DESIGN 5.2, their weighted score
// and the gates that failed.
type PromotionScores struct {
	Relevance     float64  `json:"relevance"`
	Frequency     float64  `json:"frequency"`
	Diversity     float64  `json:"diversity"`
	Recency       float64  `json:"recency"`
	Consolidation float64  `json:"consolidation"`
	Conceptual    float64  `json:"conceptual"`
	Score         float64  `json:"score"`
	Promote       bool     `json:"promote"`
	Failed        []string `json:"failed,omitempty"`
}

// DecayScores are the decay score of DESIGN 5.1 and its parts.
type DecayScores struct {
	Score   float64 `json:"score"`
	Tier    string  `json:"tier"`
	Base    float64 `json:"base"`
	Recall  float64 `json:"recall"`
	Recency float64 `json:"recency"`
}

func promotionScores(d memory.Decision) *PromotionScores {
	s := d.Signals
	return &PromotionScores{Relevance: r3(s.Relevance), Frequency: r3(s.Frequency), Diversity: r3(s.Diversity),
		Recency: r3(s.Recency), Consolidation: r3(s.Consolidation), Conceptual: r3(s.Conceptual),
		Score: r3(d.Score), Promote: d.Promote, Failed: d.Reasons}
}

func decayScores(r memory.Result) *DecayScores {
	return &DecayScores{Score: r3(r.Score), Tier: string(r.Tier), Base: r3(r.Base), Recall: r3(r.Recall), Recency: r3(r.Recency)}
}

func r3(f float64) float64 {
	return float64(int64(f*1000+0.5*sign(f))) / 1000
}

func sign(f float64) float64 {
	if f < 0 {
		return -1
	}
	return 1
}

// Counts summarise a dream.
type Counts struct {
	Candidates int `json:"candidates"`
	Promoted   int `json:"promoted"` // new facts written to curated memory
	Indexed    int `json:"indexed"`  // of those, lines added to MEMORY.md
	Merged     int `json:"merged"`
	Superseded int `json:"superseded"`
	Closed     int `json:"closed"`
	Archived   int `json:"archived"`
	NewTopics  int `json:"newTopics"`
	Skipped    int `json:"skipped"`
	// Proposals are lines left to a choice (Plan.Proposals).
	Proposals int `json:"proposals"`
	Secrets   int `json:"secrets"`
	Tracked   int `json:"tracked"` // entries given a memory-meta.json record
}

// MemorySize is MEMORY.md before and after, and its budget.
type MemorySize struct {
	Before Size   `json:"before"`
	After  Size   `json:"after"`
	Budget Budget `json:"budget"`
}

// FileChange is one file a plan writes.
type FileChange struct {
	Path string `json:"path"`
	// Change is "create" or "modify".
	Change string `json:"change"`
	// Before and After are hex SHA-256 hashes ("" for a new file).
	Before string `json:"before,omitempty"`
	After  string `json:"after"`
	// Diff is the unified diff of the change.
	Diff string `json:"diff"`

	old, new []byte
	backup   bool
}

// Content returns the bytes the plan would write.
func (f FileChange) Content() []byte { return f.new }

// Event is a progress report of Apply and Run.
type Event struct {
	Stage   string `json:"stage"` // "lock", "recover", "plan", "backup", "write", "done"
	Message string `json:"message"`
}

// Result is what a dream did.
type Result struct {
	Plan *Plan `json:"plan"`
	// Applied is false when the gates held the dream back (see Plan.Gates).
	Applied bool `json:"applied"`
	// Backup is the folder the changed files were copied to first.
	Backup  string   `json:"backup,omitempty"`
	Written []string `json:"written,omitempty"`
	// StaleLock is the lock this run replaced because no process held it.
	StaleLock *ReplacedLock `json:"staleLock,omitempty"`
	// Recovered lists what an interrupted earlier run left and this run
	// put back.
	Recovered *Recovery `json:"recovered,omitempty"`
}

// ErrRecoveryNeeded means an earlier dream was interrupted while writing;
// a real run (not a dry run) restores the files first.
var ErrRecoveryNeeded = errors.New("an earlier dream was interrupted while writing; run a dream without --dry-run to restore its files from the backups first")

// NewPlan reads the workspace in dir and plans a dream. It writes nothing.
func NewPlan(ctx context.Context, dir string, opts Options) (*Plan, error) {
	ws, err := workspace.Load(dir, workspace.Options{})
	if err != nil {
		return nil, err
	}
	if ws.Root != "" && Pending(ws.Root) {
		return nil, ErrRecoveryNeeded
	}
	return PlanWorkspace(ctx, ws, opts)
}

// PlanWorkspace plans a dream over a workspace already read (serve mode
// keeps one in memory). It writes nothing; a plan over an in-memory
// workspace (the embedded demo) can be shown but not applied.
func PlanWorkspace(ctx context.Context, ws *workspace.Workspace, opts Options) (*Plan, error) {
	if ws == nil {
		return nil, errors.New("no workspace")
	}
	e := newEnv(ws, opts)
	d := e.cfg.Dream
	lg := newLedger()
	files := newFileSet(ws)

	// Sense: the batch of logs, and the gates.
	sel := selectLogs(ws, d.MaxLogs, d.MaxBytes)
	gs, ready := gate(sel, e.now, d, opts.Force)
	inputs, deferred := batchInputs(sel, d)
	if sel.oversized != "" {
		lg.notes = append(lg.notes, sel.oversized)
	}

	// Collect: curated memory, its meta records and their decay, the
	// recall data, and the candidate facts of the batch.
	mem, err := readCurated(ws, e.day, files, lg)
	if err != nil {
		return nil, err
	}
	meta := readMeta(ws, files, lg)
	matchMeta(meta, mem.curated)
	lg.counts.Tracked += bootstrapMeta(meta, mem.curated, e.day)
	evaluate(meta, mem.curated, e.now)
	score := scorer{rec: recallData(ws, e.logs, files, lg), now: e.now, cfg: promotionConfig(d)}
	sensed := sense(ws, sel, e.logs, mem, score)
	lg.skipped = append(lg.skipped, sensed.skipped...)
	lg.secrets = append(lg.secrets, sensed.secrets...)

	// Distil: the batch's repeats folded into one candidate each, and with
	// a model configured, the rest run through it.
	cands, merges := groupDuplicates(sensed.cands)
	for _, a := range merges {
		lg.action(a)
	}
	lg.counts.Merged += len(merges)
	if opts.LLM != nil {
		cands = distilByModel(ctx, opts.LLM, llmFiles(mem), cands, lg)
	}
	if cands, err = choose(e, mem, cands, opts.Choose, opts.Rewrites); err != nil {
		return nil, err
	}

	// Consolidate: each candidate placed, merged, closing or superseding,
	// oldest first, against curated memory as the earlier ones left it.
	arch := archive{files: files, day: e.day}
	decider{mem: mem, score: score, arch: arch, lg: lg, now: e.now, logs: len(sel.inputs)}.decide(ctx, cands)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	proposals := collectProposals(cands, score)
	lg.counts.Proposals = len(proposals)
	// A dream that read logs and wrote no line of them into curated memory
	// writes only its diary entry, its log entry (its journal and
	// watermark) and the heartbeat's lastDreamAt (the time gate's
	// watermark). One that read no log only keeps the books (decay).
	nothing := len(sel.inputs) > 0 && len(mem.placements) == 0

	// Settle: decayed entries archived, the new lines written, the index
	// kept within its budget and its header dated, new lines given their
	// meta records.
	size := MemorySize{Budget: budget(e.cfg.Budget, ws.Memory)}
	if ws.Memory != nil {
		size.Before = sizeOf(files.before[ws.Memory.File.Path].data)
	}
	archiveDecayed(mem.curated, arch, lg)
	materialize(mem.placements)
	fitBudget(mem, size.Before, size.Budget, lg)
	updateHeader(mem.memDoc, ws.Memory, size.Budget, e.cfg.Budget.TargetPct, e.day)
	size.After = sizeOf(mem.memDoc.render())
	if !mem.memDoc.changed() {
		size.After = size.Before
	}
	metaForPlacements(meta, mem, e.now)

	// Write: the dream log entry, the state files and every changed
	// document; what passes the audit is the plan's files.
	if lang, level := dreamLogShape(ws); lang != "" {
		dreamLogEntry(files, dreamLog{started: e.now, clock: opts.now, sel: sel, dream: d, counts: lg.counts, memory: size,
			archive: arch.path(), actions: lg.actions, secrets: lg.secrets, skipped: lg.skipped, lang: lang, level: level}.lines())
	} else {
		lg.warn(dreamLogPath, "its entries are written in a language a dream cannot tell or write (it writes Chinese, Japanese, Korean and English ones); no entry was added, so the next dream reads this batch again")
	}
	out := files.rendered()
	promoted := indexed(mem)
	state := map[string][]byte{
		dreamsPath:    diaryOutput(ws, files, e.day, len(sel.inputs) > 0, summary(lg.counts, size), proposals),
		heartbeatPath: heartbeatOutput(files, summary(lg.counts, size), e.now, lg),
	}
	if !nothing {
		state[metaPath] = metaOutput(ws, meta, e.now)
		state[recallPath] = recallOutput(score.rec, promoted, e.now)
		state[eventsPath] = eventsOutput(files, promoted, sel, mem.memDoc.path, lg.counts, e.now, lg)
	}
	for path, b := range state {
		if b != nil {
			out[path] = b
		}
	}
	changes := audit(out, ws, files.before, lg)

	lg.counts.Candidates = len(sensed.cands)
	lg.counts.Skipped = len(lg.skipped)
	lg.counts.Secrets = len(lg.secrets)
	lg.diags.Sort()
	return &Plan{Workspace: ws.Root, Now: e.now, Force: opts.Force, Gates: gs, Ready: ready,
		Watermark: dateOr(sel.watermark, ""), Through: dateOr(sel.through, ""), Inputs: inputs, Deferred: deferred,
		Notes: lg.notes, Actions: lg.actions, Proposals: proposals, Skipped: lg.skipped, Secrets: lg.secrets, Counts: lg.counts, Memory: size,
		Files: changes, Summary: summary(lg.counts, size), Diagnostics: lg.diags,
		root: ws.Root, command: opts.Command, lockTimeout: time.Duration(max(d.LockTimeoutMin, 1)) * time.Minute}, nil
}

// gate runs the time and session gates over the batch (sense.go); force
// passes the ones that fail, marked forced. It returns the gates and
// whether the dream may write.
func gate(sel *selection, now time.Time, d workspace.DreamConfig, force bool) ([]Gate, bool) {
	gs := gates(sel, now, d)
	ready := true
	for i := range gs {
		if !gs[i].Passed {
			if force {
				gs[i].Forced = true
			} else {
				ready = false
			}
		}
	}
	return gs, ready
}

// batchInputs are the logs of the batch, and those deferred to the next
// dream by the batch limits, as the plan lists them.
func batchInputs(sel *selection, d workspace.DreamConfig) (inputs, deferred []Input) {
	inputs = []Input{}
	for _, l := range sel.inputs {
		inputs = append(inputs, Input{Path: l.File.Path, Date: l.Date.Format(time.DateOnly), Bytes: l.File.Size, Hash: shortHash(l.File.Hash), Reason: sel.reasons[l]})
	}
	for _, l := range sel.deferred {
		deferred = append(deferred, Input{Path: l.File.Path, Date: l.Date.Format(time.DateOnly), Bytes: l.File.Size, Hash: shortHash(l.File.Hash),
			Reason: fmt.Sprintf("batch limit: %d days of logs / %s per dream, oldest first", d.MaxLogs, kib(int64(d.MaxBytes)))})
	}
	return inputs, deferred
}

// Diff returns the unified diff of every file the plan changes, in path
// order.
func (pl *Plan) Diff() string {
	var b strings.Builder
	for _, f := range pl.Files {
		b.WriteString(f.Diff)
	}
	return b.String()
}

// Apply writes a plan: it takes the lock, checks that no file changed since
// the plan was made, backs up every file it changes and writes them all in
// one journaled transaction. A plan whose gates did not pass is not
// applied (Result.Applied is false).
func Apply(ctx context.Context, pl *Plan, progress func(Event)) (*Result, error) {
	return apply(ctx, pl, progress, nil, Options{Now: func() time.Time { return pl.Now }})
}

func apply(ctx context.Context, pl *Plan, progress func(Event), held *lock, opts Options) (*Result, error) {
	emit := func(stage, format string, args ...any) {
		if progress != nil {
			progress(Event{Stage: stage, Message: fmt.Sprintf(format, args...)})
		}
	}
	res := &Result{Plan: pl}
	if pl.root == "" {
		return res, errors.New("this plan was made from an in-memory workspace and cannot be written")
	}
	if !pl.Ready {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if held == nil {
		emit("lock", "taking the lock")
		l, err := acquireLock(pl.root, lockTimeout(pl), pl.command)
		if err != nil {
			return res, err
		}
		defer l.release()
		held = l
		res.StaleLock = l.Stale
		if rec, err := Recover(pl.root); err != nil {
			return res, err
		} else if rec != nil {
			res.Recovered = rec
		}
	}
	var writes []fileWrite
	for _, f := range pl.Files {
		writes = append(writes, fileWrite{Path: f.Path, Data: f.new, Before: f.Before, Backup: f.backup})
	}
	emit("backup", "backing up %d files and writing them", len(writes))
	t := &txn{root: pl.root, run: pl.Now.Format("20060102-1504"), now: pl.Now, writes: writes, lock: held, hook: opts.hook}
	dir, err := t.commit()
	res.Backup = dir
	if err != nil {
		return res, err
	}
	for _, f := range pl.Files {
		res.Written = append(res.Written, f.Path)
	}
	res.Applied = true
	emit("done", "%s", pl.Summary)
	return res, nil
}

// lockTimeout is how old a lock must be before it counts as stale.
func lockTimeout(pl *Plan) time.Duration {
	if pl == nil || pl.lockTimeout <= 0 {
		return time.Duration(workspace.DefaultConfig().Dream.LockTimeoutMin) * time.Minute
	}
	return pl.lockTimeout
}

// workspaceRoot is the absolute folder of a workspace, checked to exist.
func workspaceRoot(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("workspace %q does not exist", dir)
	case err != nil:
		return "", fmt.Errorf("workspace %q cannot be read (%v)", dir, err)
	case !fi.IsDir():
		return "", fmt.Errorf("workspace %q is not a directory", dir)
	}
	return abs, nil
}

// readConfig reads dreamwiki.toml for the lock timeout (the workspace
// itself is read later, under the lock).
func readConfig(root string) workspace.Config {
	b, err := os.ReadFile(filepath.Join(root, workspace.ConfigFile))
	if err != nil {
		return workspace.DefaultConfig()
	}
	var diags diag.List
	return workspace.ParseConfig(workspace.ConfigFile, string(b), &diags)
}

// Run is a whole dream: take the lock (a held lock is a *LockedError; a
// stale one is replaced and reported), put back what an interrupted run
// left, read the workspace, plan, and, when the gates pass (or Force is
// set), write. dryRun stops after the plan and writes nothing, not even
// the lock.
func Run(ctx context.Context, dir string, opts Options, dryRun bool, progress func(Event)) (*Result, error) {
	emit := func(stage, format string, args ...any) {
		if progress != nil {
			progress(Event{Stage: stage, Message: fmt.Sprintf(format, args...)})
		}
	}
	if dryRun {
		pl, err := NewPlan(ctx, dir, opts)
		if err != nil {
			return nil, err
		}
		return &Result{Plan: pl}, nil
	}
	// The workspace is read under the lock, so no other dream can change
	// it between reading and writing.
	root, err := workspaceRoot(dir)
	if err != nil {
		return nil, err
	}
	cfg := readConfig(root)
	if opts.Configure != nil {
		opts.Configure(&cfg)
	}
	timeout := time.Duration(max(cfg.Dream.LockTimeoutMin, 1)) * time.Minute
	emit("lock", "taking the lock")
	l, err := acquireLock(root, timeout, opts.Command)
	if err != nil {
		return nil, err
	}
	defer l.release()
	res := &Result{StaleLock: l.Stale}
	rec, err := Recover(root)
	if err != nil {
		return res, err
	}
	if rec != nil {
		res.Recovered = rec
		emit("recover", "put back %d %s an interrupted dream (%s) was writing", len(rec.Restored), plural(len(rec.Restored), "file", "files"), rec.Run)
	}
	ws, err := workspace.Load(root, workspace.Options{})
	if err != nil {
		return res, err
	}
	emit("plan", "planning")
	pl, err := PlanWorkspace(ctx, ws, opts)
	if err != nil {
		return res, err
	}
	res.Plan = pl
	r2, err := apply(ctx, pl, progress, l, opts)
	if r2 != nil {
		res.Applied, res.Backup, res.Written = r2.Applied, r2.Backup, r2.Written
	}
	return res, err
}

// audit is the read-only checkpoint before anything is written (the seed's
// quality gates): only allowed paths are written (a target outside them is
// dropped and reported, the rest goes on), daily logs and private notes
// never (the plan never opens one; a file it would start where a private
// one lies is refused here); no new secret
// reaches curated Markdown (one on a line the file did not have is
// redacted and reported; a line the file already had is never changed,
// and a file that would lose a secret value it holds is not written);
// and a state file that would gain one is not written at all. read is
// every file as the plan read it; what passes is returned as the plan's
// file changes, in path order.
func audit(out map[string][]byte, ws *workspace.Workspace, read map[string]fileState, lg *ledger) []FileChange {
	changes := []FileChange{}
	paths := make([]string, 0, len(out))
	for path := range out {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		data := out[path]
		if !allowedTarget(path) {
			lg.diags.Errorf("dream", path, 0, "the plan would write outside the paths a dream may change; this file was left alone")
			continue
		}
		if isCuratedPath(path) && privateFile(ws, path) {
			lg.diags.Errorf("dream", path, 0, "the plan would write into a private note, which a dream never reads or writes; this file was left alone")
			continue
		}
		before := read[path]
		lost := 0
		if strings.HasSuffix(path, ".md") {
			lost = lostSecret(before.data, data)
		}
		if lost > 0 {
			lg.diags.Errorf("dream", path, lost, "the plan would lose the secret value this line holds (a plan over a workspace read redacted, as the site reads it, sees only placeholders); this file was left alone")
			continue
		}
		red, found := redactNew(before.data, data)
		switch {
		case len(found) == 0:
		case strings.HasSuffix(path, ".md"):
			for _, f := range found {
				lg.secrets = append(lg.secrets, SecretFinding{File: path, Line: f.Line, Kind: f.Kind, Action: "redacted: never promoted into curated memory"})
				lg.action(Action{Kind: "redact", File: path, Text: fmt.Sprintf("line %d: %s", f.Line, f.Kind),
					Reason: "a dream never writes a new secret into curated memory; the value was replaced by " + secrets.Placeholder(f.Kind)})
			}
			data = red
		default:
			lg.diags.Errorf("secret", path, 0, "the new content would hold a secret; this file was left alone")
			continue
		}
		if string(before.data) == string(data) && before.hash != "" {
			continue
		}
		fc := FileChange{Path: path, Change: "modify", Before: before.hash, After: hashBytes(data), old: before.data, new: data, backup: true}
		if before.hash == "" {
			fc.Change = "create"
		}
		// The diff is shown and sent (dry runs, the server): redacted, like
		// everything the dream prints.
		fc.Diff = redact(unifiedDiff(path, before.data, data, before.hash == ""))
		changes = append(changes, fc)
	}
	return changes
}

// reArchivePath is the dream's archive: memory/archive/YYYY-MM.md.
var reArchivePath = regexp.MustCompile(`^memory/archive/\d{4}-\d{2}\.md$`)

// allowedTarget lists what a dream may write: MEMORY.md, L2 topic files,
// its archive, the dream log and the state files. Never a daily log or
// another dated file (a date in its name or folder, diary/, archives/),
// never memory/dreaming/, never anything outside memory/ but MEMORY.md.
func allowedTarget(path string) bool {
	switch path {
	case "MEMORY.md", "memory.md", dreamsPath, dreamLogPath, metaPath, heartbeatPath, recallPath, eventsPath:
		return true
	}
	if _, _, daily := workspace.DailyLogPath(path); daily {
		return false // the reader's rule: what it reads as a daily log is one
	}
	if reArchivePath.MatchString(path) {
		return true // the dream's own archive (archive.path)
	}
	return writableTopic(path)
}
