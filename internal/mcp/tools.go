package mcp

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/dream"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// tools holds the tool handlers.
type tools struct {
	src  Source
	opts Options
}

// maxLimit caps memory_search's limit, as the HTTP API does.
const maxLimit = 50

// SearchIn is memory_search's input.
type SearchIn struct {
	Query string   `json:"query" jsonschema:"what to look for: words (any may match; matching more ranks higher), \"phrases\", +required and -excluded words, and filters type:feedback tier:hot tag:x kind:daily path:memory/ date:2026-10 status:superseded"`
	Limit int      `json:"limit,omitempty" jsonschema:"number of results, 1 to 50; default 10"`
	Types []string `json:"types,omitempty" jsonschema:"only memory of these types: user, feedback, project, reference"`
	Tiers []string `json:"tiers,omitempty" jsonschema:"only claims of these tiers: hot, warm, cold, crystallised, archived"`
}

// SearchOut is memory_search's answer.
type SearchOut struct {
	Results []Hit `json:"results"`
}

// Hit is one search result in OpenClaw's memory_search shape, with the
// claim the cited lines state when they state one.
type Hit struct {
	memsearch.Result
	Claim *ClaimRef `json:"claim,omitempty"`
}

// GetIn is memory_get's input.
type GetIn struct {
	Path  string `json:"path" jsonschema:"a workspace path, optionally with a line range as search citations give it: MEMORY.md, memory/2026-10-08.md#L4-L7"`
	From  int    `json:"from,omitempty" jsonschema:"first line to read, from 1 (overrides the range in path)"`
	Lines int    `json:"lines,omitempty" jsonschema:"number of lines to read from 'from'"`
}

// RecallIn is memory_recall's input.
type RecallIn struct {
	Query   string `json:"query" jsonschema:"the query the agent searched for"`
	Matched string `json:"matched" jsonschema:"the text of the result the agent used"`
}

// RecallOut is memory_recall's answer: where the recall was counted.
type RecallOut struct {
	Query   string        `json:"query"`
	Matches []RecallMatch `json:"matches"`
	Entries []RecallEntry `json:"entries,omitempty"`
}

// RecallMatch is a published line the recall matched.
type RecallMatch struct {
	Citation string  `json:"citation"`
	How      string  `json:"how"`
	Score    float64 `json:"score"`
}

// RecallEntry is a curated entry's standing after the recall.
type RecallEntry struct {
	ID      string  `json:"id"`
	Tier    string  `json:"tier"`
	Recalls int     `json:"recalls"`
	Decay   float64 `json:"decay"`
}

// PlanIn is dream_plan's input.
type PlanIn struct {
	Force bool `json:"force,omitempty" jsonschema:"plan as if the time and session gates had passed"`
}

// ApplyIn is dream_apply's input: the proposals an agent chose and the
// lines it wrote itself, each citing the daily-log lines it says.
type ApplyIn struct {
	Force      bool            `json:"force,omitempty" jsonschema:"dream even if the time and session gates hold it back"`
	Candidates []string        `json:"candidates,omitempty" jsonschema:"ids of proposals (from dream_plan) to write into curated memory"`
	Rewrites   []dream.Rewrite `json:"rewrites,omitempty" jsonschema:"lines written by the agent: text (one line, only what the cited lines say, no secret, no instruction), cites (daily-log lines as memory/2026-01-02.md#L5 or #L5-L7), optional type (user, feedback, project, reference) and file (index or a topic file path)"`
}

// PlanOut is a dream plan as an agent reads it.
type PlanOut struct {
	Ready   bool         `json:"ready"`
	Summary string       `json:"summary"`
	Counts  dream.Counts `json:"counts"`
	// Proposals are the lines the dream will not write by itself, highest
	// score first: pass their ids to dream_apply's candidates to write
	// them.
	Proposals []dream.Proposal `json:"proposals"`
	// Diff is the change to each published curated file, as a unified
	// diff, with secrets redacted.
	Diff string `json:"diff"`
	// Unshown are the state files the dream also changes (not published,
	// so not shown); Private counts the private files it changes.
	Unshown []string `json:"unshown,omitempty"`
	Private int      `json:"private_files,omitempty"`
}

// ApplyOut is dream_apply's answer.
type ApplyOut struct {
	Applied bool     `json:"applied"`
	Summary string   `json:"summary"`
	Written []string `json:"written,omitempty"`
	Backup  string   `json:"backup,omitempty"`
}

func (t *tools) register(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "memory_search", Title: "Search memory",
		Annotations: readOnly(),
		Description: "Search the agent's memory (MEMORY.md, topic files, daily logs, dream logs, conversation digests) and return the best lines first, each with a citation path#Lx-Ly that memory_get reads. " +
			"A result that states a remembered claim carries the claim's id, status (current, superseded, contested, archived), tier (hot, warm, cold, crystallised, archived), decay score and evidence count; pass the id to memory_why to see the evidence. " +
			"Dated notes rank lower as they age. Results marked superseded or lapsed are history, not current instructions."}, t.search)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_get", Title: "Read memory lines",
		Annotations: readOnly(),
		Description: "Read a workspace file, or the lines a memory_search citation points at (memory/2026-10-08.md#L4-L7). " +
			"Only published files can be read: a private note is no more there than a missing file, and secrets are redacted."}, t.get)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_why", Title: "Why is this remembered?",
		Annotations: readOnly(),
		Description: "Explain why the memory holds a claim: give a claim id (claim.…, from memory_search) or a sentence, which is matched to the closest claim. " +
			"Returns the claim, its status and tier, a one-line summary of its support, the evidence lines with citations and excerpts, what it superseded or was superseded by, claims that contradict it, and the dreams that promoted, superseded or archived it."}, t.why)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_changes", Title: "What changed",
		Annotations: readOnly(),
		Description: "List what changed in memory since a date (since: YYYY-MM-DD) or in one dream (dream: its slug from a previous answer, or \"latest\"): each change (added, changed with its earlier text, superseded, archived, contested, resolved, removed) with its claim id, text, related claims and evidence, the counts by kind and what each side was read from (git history, dream backups or dates), exactly as `dreamwiki diff` and the site's changes page give them; and the dreams of the period."}, t.changes)
	sdk.AddTool(s, &sdk.Tool{Name: "dream_plan", Title: "Plan a dream",
		Annotations: readOnly(),
		Description: "Plan a dream (a consolidation of recent daily logs into curated memory) without writing anything: whether its gates pass, what it would promote (only lines whose recall signals pass the Deep gates), merge, supersede and archive, the diff of each curated file, and the proposals: lines worth a look that a dream writes only when chosen, each with an id, score, signals and source."}, t.plan)
	if !t.opts.Writable {
		return
	}
	sdk.AddTool(s, &sdk.Tool{Name: "memory_recall", Title: "Log a recall",
		Annotations: &sdk.ToolAnnotations{IdempotentHint: false, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
		Description: "Record that a memory_search result was used: call it with the query and the matched text after acting on a result. " +
			"The recall keeps the entry from decaying and lets daily-log facts that are recalled often reach MEMORY.md at the next dream."}, t.recall)
	if t.opts.AllowDream {
		sdk.AddTool(s, &sdk.Tool{Name: "dream_apply", Title: "Dream now",
			Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
			Description: "Run a dream and write it: curated files are backed up first and written atomically; daily logs are never changed. " +
				"Give candidates (proposal ids from dream_plan) to write those proposals too, and rewrites ({text, cites}) to write lines of your own wording, each checked against the lines it cites: a rewrite that cites nothing, says what its lines do not, holds a secret or an instruction is refused with the reason, and nothing is written. " +
				"Without force the dream's gates (time since the last dream, new sessions) may hold it back; the answer says so."}, t.apply)
	}
}

func readOnly() *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
}

func ptr[T any](v T) *T { return &v }

func (t *tools) search(ctx context.Context, _ *sdk.CallToolRequest, in SearchIn) (*sdk.CallToolResult, SearchOut, error) {
	q := strings.TrimSpace(in.Query)
	switch {
	case q == "":
		return nil, SearchOut{}, errors.New("query is empty: give words to look for, such as \"gateway host\"")
	case len(q) > 1000:
		return nil, SearchOut{}, errors.New("query is longer than 1000 bytes")
	case in.Limit < 0 || in.Limit > maxLimit:
		return nil, SearchOut{}, fmt.Errorf("limit must be between 1 and %d", maxLimit)
	}
	if err := t.settle(ctx); err != nil {
		return nil, SearchOut{}, err
	}
	params := search.ParamsFromConfig(t.src.Workspace().Config.Search)
	res, err := t.src.Search(ctx, memsearch.Query{Text: q, Limit: in.Limit, Types: in.Types, Tiers: in.Tiers, Params: &params})
	if err != nil {
		return nil, SearchOut{}, err
	}
	claims := claimsAt(t.src.Provenance())
	out := SearchOut{Results: make([]Hit, 0, len(res))}
	for _, r := range res {
		h := Hit{Result: r}
		if c := claims.at(r.Path, r.StartLine, r.EndLine); c != nil {
			h.Claim = refOf(c)
		}
		out.Results = append(out.Results, h)
	}
	return nil, out, nil
}

func (t *tools) get(ctx context.Context, _ *sdk.CallToolRequest, in GetIn) (*sdk.CallToolResult, memsearch.GetResult, error) {
	p, start, end, err := memsearch.ParseCitation(strings.TrimSpace(in.Path))
	if err != nil || p == "" {
		return nil, memsearch.GetResult{}, errors.New("path must name a workspace file, such as MEMORY.md or memory/2026-10-08.md#L4-L7")
	}
	if in.From < 0 || in.Lines < 0 {
		return nil, memsearch.GetResult{}, errors.New("from and lines must be positive")
	}
	if in.From > 0 {
		start, end = in.From, 0
	}
	if in.Lines > 0 {
		if start == 0 {
			start = 1
		}
		end = start + in.Lines - 1
	}
	if err := t.settle(ctx); err != nil {
		return nil, memsearch.GetResult{}, err
	}
	res, err := memsearch.Get(t.src.Workspace(), p, start, end)
	return nil, res, err
}

func (t *tools) recall(ctx context.Context, _ *sdk.CallToolRequest, in RecallIn) (*sdk.CallToolResult, RecallOut, error) {
	if strings.TrimSpace(in.Query) == "" || strings.TrimSpace(in.Matched) == "" {
		return nil, RecallOut{}, errors.New("memory_recall needs the query and the matched text")
	}
	if err := t.settle(ctx); err != nil {
		return nil, RecallOut{}, err
	}
	root := t.src.Root()
	if root == "" {
		return nil, RecallOut{}, errors.New("this workspace cannot be written (the embedded demo)")
	}
	// The query and text are written to the recall log: never a secret.
	query, _ := secrets.Redact(in.Query)
	matched, _ := secrets.Redact(in.Matched)
	res, err := dream.Recall(ctx, root, query, matched, dream.Options{Now: t.opts.Now, Command: "dreamwiki mcp"}, dream.DefaultWait)
	if err != nil {
		return nil, RecallOut{}, err
	}
	if err := t.src.Wrote(ctx, res.Files); err != nil {
		return nil, RecallOut{}, err
	}
	// The recall may have matched private lines too: the answer names
	// only published ones, and no entry's text.
	ws := t.src.Workspace()
	out := RecallOut{Query: res.Query, Matches: []RecallMatch{}}
	for _, m := range res.Matches {
		if ws.FileByPath(m.Path) == nil {
			continue
		}
		out.Matches = append(out.Matches, RecallMatch{Citation: memsearch.Citation(m.Path, m.StartLine, m.EndLine), How: m.How, Score: m.Score})
	}
	for _, e := range res.Entries {
		if e.File != "" && ws.FileByPath(e.File) == nil {
			continue
		}
		out.Entries = append(out.Entries, RecallEntry{ID: e.ID, Tier: string(e.Tier), Recalls: e.Recalls, Decay: e.Score})
	}
	return nil, out, nil
}

func (t *tools) plan(ctx context.Context, _ *sdk.CallToolRequest, in PlanIn) (*sdk.CallToolResult, PlanOut, error) {
	if err := t.settle(ctx); err != nil {
		return nil, PlanOut{}, err
	}
	pl, err := t.newPlan(ctx, in.Force, nil, nil)
	if err != nil {
		return nil, PlanOut{}, err
	}
	return nil, planOut(pl, t.src.Workspace()), nil
}

// planOut shows the diff of each published Markdown file the plan
// changes. The state files (memory-meta.json, the recall store, events)
// and private files are named, not shown: they describe private notes too.
func planOut(pl *dream.Plan, ws *workspace.Workspace) PlanOut {
	out := PlanOut{Ready: pl.Ready, Summary: pl.Summary, Counts: pl.Counts, Proposals: proposalsOut(pl.Proposals, ws.Config.Guard())}
	var b strings.Builder
	for _, f := range pl.Files {
		if path.Ext(f.Path) == ".md" && !ws.Unpublished(f.Path) {
			b.WriteString(f.Diff)
		} else if !ws.Unpublished(f.Path) {
			out.Unshown = append(out.Unshown, f.Path)
		} else {
			out.Private++
		}
	}
	// The diff is redacted of secrets already; the workspace's guard
	// adds personal data when [publish] redact_personal asks for it, as
	// every other answer made from the published workspace has it.
	out.Diff, _ = ws.Config.Guard().Redact(b.String())
	return out
}

// proposalsOut is the plan's proposals as the answer shows them: their
// text is redacted of secrets already (the dream's guard), and the
// workspace's guard adds personal data, as it does for the diff, which
// shows the same lines in DREAMS.md. The ids are kept: dream_apply takes
// them, and they are hashes.
func proposalsOut(props []dream.Proposal, g secrets.Guard) []dream.Proposal {
	out := make([]dream.Proposal, len(props))
	for i, p := range props {
		p.Text, _ = g.Redact(p.Text)
		p.Source = slices.Clone(p.Source)
		for j, src := range p.Source {
			p.Source[j], _ = g.Redact(src)
		}
		out[i] = p
	}
	return out
}

func (t *tools) apply(ctx context.Context, _ *sdk.CallToolRequest, in ApplyIn) (*sdk.CallToolResult, ApplyOut, error) {
	if err := t.settle(ctx); err != nil {
		return nil, ApplyOut{}, err
	}
	if t.src.Root() == "" {
		return nil, ApplyOut{}, errors.New("this workspace cannot be written (the embedded demo)")
	}
	pl, err := t.newPlan(ctx, in.Force, in.Candidates, in.Rewrites)
	if err != nil {
		return nil, ApplyOut{}, err
	}
	// Once begun, a dream is written whole even if the client goes away.
	res, err := dream.Apply(context.WithoutCancel(ctx), pl, nil)
	if err != nil {
		return nil, ApplyOut{}, err
	}
	out := ApplyOut{Applied: res.Applied, Summary: pl.Summary, Written: res.Written, Backup: res.Backup}
	if !res.Applied {
		out.Summary = "The dream was held back by its gates; call dream_apply with force to dream anyway."
	}
	if err := t.src.Wrote(ctx, res.Written); err != nil {
		return nil, out, err
	}
	return nil, out, nil
}

// newPlan plans a dream over the workspace on disk, not over the published
// read: a plan made from redacted text would write the redaction back in
// place of the values (the dream keeps private notes out itself).
func (t *tools) newPlan(ctx context.Context, force bool, choose []string, rewrites []dream.Rewrite) (*dream.Plan, error) {
	root := t.src.Root()
	if root == "" {
		return nil, errors.New("this workspace has no folder to dream in (the embedded demo)")
	}
	return dream.NewPlan(ctx, root, dream.Options{Now: t.opts.Now, Force: force, Command: "dreamwiki mcp", Choose: choose, Rewrites: rewrites})
}
