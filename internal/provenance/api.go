package provenance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Options tune Analyze. The zero value is ready to use.
type Options struct {
	// AsOf is the date decay, tiers and permission expiry are evaluated
	// at. Claims are judged at the end of that day (UTC). Zero means the
	// newest date found in the workspace (NewestDate), so the same
	// workspace always gives the same vault.
	AsOf time.Time
	// Previous are the claims of the previous build (from the vault
	// manifest). An entry matched to one of them keeps its id, so links to
	// a claim survive edits of its text.
	Previous []PriorClaim
	// Locate maps a workspace path to the vault path of its note
	// ("memory/2026-10-21.md" -> "sources/daily/2026-10-21.md"), filling
	// Evidence.Note. Nil leaves Evidence.Note as the workspace path.
	Locate func(workspacePath string) string
	// Decay overrides the decay constants; the zero value means
	// memory.DefaultParams().
	Decay *memory.Params
	// Cache, when not nil, keeps what this run works out for the next
	// run over the same workspace (see Cache); the Result is the same
	// with or without it.
	Cache *Cache
	// Unlinked leaves out what only the vault reads: the evidence's
	// notes, the claims' block ids and the anchors to add to source files
	// (Evidence.Note, Claim.Block, Anchors).
	// The memory at each point of its history is read so: its claims,
	// their evidence and statuses, never its notes.
	Unlinked bool
}

// PriorClaim is what the previous build recorded about one claim, enough
// to recognise the claim again after its entry was edited.
type PriorClaim struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	MetaID    string `json:"meta,omitempty"`
	File      string `json:"file"`
	Lifecycle string `json:"lifecycle,omitempty"`
}

// MemoryType is one of the four memory types of the seeds, or
// unclassified.
type MemoryType string

// The memory types.
const (
	TypeUser         MemoryType = "user"
	TypeFeedback     MemoryType = "feedback"
	TypeProject      MemoryType = "project"
	TypeReference    MemoryType = "reference"
	TypeUnclassified MemoryType = "unclassified"
)

// Status is where a claim stands (DESIGN 4.1).
type Status string

// Claim statuses.
const (
	StatusCurrent    Status = "current"
	StatusSuperseded Status = "superseded"
	StatusContested  Status = "contested"
	StatusArchived   Status = "archived"
)

// Method says how a piece of evidence was found, strongest first.
type Method string

// Evidence methods. Pointer methods are "pointer:<kind>" with the
// workspace.PointerKind the pointer was written in.
const (
	MethodDream     Method = "dream"     // a DREAMS.md item with evidence: lines that promoted the claim
	MethodRecall    Method = "recall"    // the short-term recall store
	MethodEvent     Method = "event"     // a memory.recall.recorded event
	MethodExact     Method = "exact"     // the same text, normalised
	MethodSubstring Method = "substring" // one text inside the other, normalised
	MethodOverlap   Method = "overlap"   // weighted word overlap
)

// PointerMethod is the method of evidence written as an explicit pointer.
func PointerMethod(k workspace.PointerKind) Method { return Method("pointer:" + string(k)) }

// IsPointer reports whether evidence came from an explicit pointer.
func (m Method) IsPointer() bool { return strings.HasPrefix(string(m), "pointer:") }

// SourceKind is what kind of file a piece of evidence is in.
type SourceKind string

// Evidence source kinds.
const (
	SourceDaily        SourceKind = "daily"
	SourceConversation SourceKind = "conversation"
	SourceTopic        SourceKind = "topic"
	SourceDream        SourceKind = "dream"
	SourceNote         SourceKind = "note"
)

// Evidence is one place a claim came from.
type Evidence struct {
	// Path is the workspace path of the source file.
	Path string `json:"path"`
	// StartLine and EndLine are the 1-based lines of the block that holds
	// the evidence, inclusive; 0 when the evidence is the whole file.
	StartLine int `json:"start_line,omitempty"`
	EndLine   int `json:"end_line,omitempty"`
	// Excerpt is the block's text (list markers removed); "" for
	// whole-file evidence.
	Excerpt    string     `json:"excerpt,omitempty"`
	Method     Method     `json:"method"`
	Confidence float64    `json:"confidence"`
	Kind       SourceKind `json:"kind"`
	// Pointer is the pointer as written in the entry, for pointer evidence
	// ("Source: memory/2026-10-21.md#L4-L7").
	Pointer string `json:"pointer,omitempty"`
	// Date is the source's date (a daily log's date), zero when none.
	Date time.Time `json:"date,omitzero"`
	// Note is the vault path of the source's note (see Options.Locate).
	Note string `json:"note"`
	// Block is the block id the link lands on, without '^' ("e4"); "" when
	// the link goes to the top of the note.
	Block string `json:"block,omitempty"`
	// Private marks evidence in a private file (workspace.File.Private);
	// its Excerpt is empty unless the claim is private too. In a
	// workspace read without its private files, a pointer to one gives
	// evidence with Private set and nothing else: no path, no lines, no
	// note.
	Private bool `json:"private,omitempty"`
}

// Target is the wikilink target of the evidence: the note path without
// ".md", with "#^block" when there is a block ("sources/daily/2026-10-21#^e4").
func (e Evidence) Target() string {
	t := strings.TrimSuffix(e.Note, ".md")
	if e.Block != "" {
		t += "#^" + e.Block
	}
	return t
}

// Citation is the workspace citation of the evidence ("memory/x.md#L4-L5"),
// the form search results and reports use.
func (e Evidence) Citation() string {
	if e.StartLine == 0 {
		return e.Path
	}
	return fmt.Sprintf("%s#L%d-L%d", e.Path, e.StartLine, e.EndLine)
}

// Permission is set on claims that grant the agent permission to act.
type Permission struct {
	Given   time.Time `json:"given,omitzero"`
	Expires time.Time `json:"expires"`
	Lapsed  bool      `json:"lapsed"`
}

// Scores are a claim's decay numbers (DESIGN 5.1) at Result.AsOf.
type Scores struct {
	Decay   float64 `json:"decay"`
	Base    float64 `json:"base"`
	Recall  float64 `json:"recall"`
	Recency float64 `json:"recency"`
	// Importance is the "<!-- importance: N -->" value, 0 when absent;
	// Promotion is the promotion score written on the entry, 0 when none.
	Importance int     `json:"importance,omitempty"`
	Promotion  float64 `json:"promotion,omitempty"`
}

// Claim is one remembered entry, paired with its evidence.
type Claim struct {
	// ID is "claim.<slug>", unique and stable across builds.
	ID   string `json:"id"`
	Slug string `json:"slug"`
	// File, Line and EndLine locate the entry in the workspace.
	File    string `json:"file"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	// Section is the heading path of the entry in its file.
	Section string `json:"section,omitempty"`
	// Block is the block id (without '^') of the entry in its file's note,
	// so the claim can link back to the exact entry; "" when the entry
	// cannot carry one (a table row).
	Block string `json:"block,omitempty"`
	// Text is the entry's substance read on its own
	// (workspace.Entry.HeadedText: a table row names its columns).
	Text string `json:"text"`
	// Title is a short label: the bold title or rule when there is one,
	// else the first sentence of Text.
	Title      string     `json:"title"`
	MemoryType MemoryType `json:"memory_type"`
	// TypeFrom says how the type was found: "tag", "meta", "section",
	// "shape" or "".
	TypeFrom string `json:"type_from,omitempty"`
	Status   Status `json:"status"`
	// Lifecycle is "closed" for done/closed/archived work (it stays closed
	// across builds), "open" for open work, "" for plain facts.
	Lifecycle  string           `json:"lifecycle,omitempty"`
	Tier       memory.Tier      `json:"tier"`
	Scores     Scores           `json:"scores"`
	Recalls    int              `json:"recalls"`
	Created    time.Time        `json:"created,omitzero"`
	LastRecall time.Time        `json:"last_recalled,omitzero"`
	Structural bool             `json:"structural,omitempty"`
	Permission *Permission      `json:"permission,omitempty"`
	Evidence   []Evidence       `json:"evidence"`
	MetaID     string           `json:"meta_id,omitempty"`
	Tags       []string         `json:"tags,omitempty"`
	Private    bool             `json:"private,omitempty"`
	Origin     ClaimOrigin      `json:"origin"`
	Chain      []ChainLink      `json:"chain,omitempty"`
	Contests   []string         `json:"contests,omitempty"`
	Dreams     []string         `json:"dreams,omitempty"`
	Findings   []string         `json:"findings,omitempty"`
	Entry      *workspace.Entry `json:"-"`
}

// ClaimOrigin says which kind of curated file a claim comes from.
type ClaimOrigin string

// Claim origins.
const (
	OriginIndex   ClaimOrigin = "index"   // MEMORY.md
	OriginTopic   ClaimOrigin = "topic"   // an L2 topic file
	OriginArchive ClaimOrigin = "archive" // memory/archive/*.md
)

// Supersedes returns the ids of the claims this claim replaced.
func (c *Claim) Supersedes() []string { return c.linked(LinkSupersedes) }

// SupersededBy returns the ids of the claims that replaced this claim.
func (c *Claim) SupersededBy() []string { return c.linked(LinkSupersededBy) }

func (c *Claim) linked(kind LinkKind) []string {
	var out []string
	for _, l := range c.Chain {
		if l.Kind == kind {
			out = append(out, l.Claim)
		}
	}
	return out
}

// Lapsed reports whether the claim is a permission that has lapsed.
func (c *Claim) Lapsed() bool { return c.Permission != nil && c.Permission.Lapsed }

// LinkKind is the direction of a supersession link.
type LinkKind string

// Supersession link kinds.
const (
	LinkSupersedes   LinkKind = "supersedes"
	LinkSupersededBy LinkKind = "superseded_by"
)

// ChainLink is one step of a supersession chain seen from one claim.
type ChainLink struct {
	Kind  LinkKind `json:"kind"`
	Claim string   `json:"claim"` // the other claim's id
	// Date is when the change happened, when known (the newer claim's
	// created date or the observation date).
	Date time.Time `json:"date,omitzero"`
	// From says where the chain was recorded: "meta" (memory-meta.json),
	// "user" (USER.md observations) or "marker" (a "superseded" marker on
	// the entry).
	From string `json:"from"`
}

// Chain is a whole supersession chain, oldest claim first.
type Chain struct {
	Claims []string    `json:"claims"`
	Dates  []time.Time `json:"dates"` // per claim, its created date (zero when unknown)
}

// Contest is a pair of claims that give the same subject different
// values, neither confirmed by a recorded supersession.
type Contest struct {
	Subject string `json:"subject"`
	// Older and Newer are claim ids, ordered by their newest evidence or
	// creation date; Older is reported as stale.
	Older, Newer string
}

// Dream is one dream run: an entry of memory/dream-log.md or a dated
// entry of the DREAMS.md diary.
type Dream struct {
	// Slug names the dream's note ("2026-10-30-0700").
	Slug    string    `json:"slug"`
	Kind    string    `json:"kind"` // "dream-log" or "diary"
	File    string    `json:"file"`
	Line    int       `json:"line"`
	EndLine int       `json:"end_line"`
	Date    time.Time `json:"date"`
	HasTime bool      `json:"has_time"`
	Heading string    `json:"heading"`
	// Body is the entry as written.
	Body string `json:"body"`
	// ConsolidatedThrough is the watermark a dream-log entry records.
	ConsolidatedThrough time.Time `json:"consolidated_through,omitzero"`
	// Fields are the "Key: value" lines of a dream-log entry.
	Fields map[string]string `json:"fields,omitempty"`
	// Promoted are the ids of claims the dream promoted; Superseded and
	// Archived the claims it superseded and archived, when the entry says.
	Promoted   []string `json:"promoted,omitempty"`
	Superseded []string `json:"superseded,omitempty"`
	Archived   []string `json:"archived,omitempty"`
	// Logs are the daily logs the run consolidated (workspace paths).
	Logs []string `json:"logs,omitempty"`
	// Items are the DREAMS.md items of a diary entry.
	Items []DreamItem `json:"items,omitempty"`
}

// DreamItem is one item of a diary entry with what it became.
type DreamItem struct {
	Text       string     `json:"text"`
	Status     string     `json:"status,omitempty"`
	Confidence float64    `json:"confidence,omitempty"`
	Recalls    int        `json:"recalls,omitempty"`
	Evidence   []Evidence `json:"evidence,omitempty"`
	// Claim is the id of the claim the item matches, "" when none.
	Claim string `json:"claim,omitempty"`
}

// Budget is MEMORY.md's size against its limits.
type Budget struct {
	File string `json:"file"`
	// Chars, Lines and Bytes are MEMORY.md's size.
	Chars int `json:"chars"`
	Lines int `json:"lines"`
	Bytes int `json:"bytes"`
	// MaxChars and TargetChars come from dreamwiki.toml (DESIGN 5.3);
	// MaxLines and MaxBytes from the size header or the configuration,
	// 0 when unset.
	MaxChars    int `json:"max_chars"`
	TargetChars int `json:"target_chars"`
	MaxLines    int `json:"max_lines,omitempty"`
	MaxBytes    int `json:"max_bytes,omitempty"`
}

// Over reports whether any limit is exceeded.
func (b Budget) Over() bool {
	return (b.MaxChars > 0 && b.Chars > b.MaxChars) ||
		(b.MaxLines > 0 && b.Lines > b.MaxLines) || (b.MaxBytes > 0 && b.Bytes > b.MaxBytes)
}

// Result is everything Analyze found.
type Result struct {
	// AsOf is the evaluation date (UTC midnight of the day).
	AsOf time.Time `json:"as_of"`
	// Claims are in workspace order: MEMORY.md, then topic files by path,
	// then archive files, each by line.
	Claims   []*Claim  `json:"claims"`
	Chains   []Chain   `json:"chains,omitempty"`
	Contests []Contest `json:"contests,omitempty"`
	Dreams   []*Dream  `json:"dreams,omitempty"`
	Budget   *Budget   `json:"budget,omitempty"`
	// Findings are the lint findings, sorted, each with file and line.
	Findings diag.List `json:"findings"`

	byID    map[string]*Claim
	byEntry map[*workspace.Entry]*Claim
	anchors map[string][]Anchor
}

// Claim returns the claim with the given id, nil when there is none.
func (r *Result) Claim(id string) *Claim {
	if r == nil {
		return nil
	}
	return r.byID[id]
}

// ClaimOf returns the claim made from an entry, nil when the entry made
// none (a preface paragraph).
func (r *Result) ClaimOf(e *workspace.Entry) *Claim {
	if r == nil {
		return nil
	}
	return r.byEntry[e]
}

// Anchor is a block id to add to a source file so that evidence links
// land on the block.
type Anchor struct {
	// Line is the 1-based line the id is appended to (the block's last line).
	Line int
	// ID is the block id without '^'.
	ID string
}

// Anchors returns the block ids to add to the workspace file at path,
// sorted by line: the blocks evidence links land on and the blocks of
// entries claims link back to. Blocks that already carry an id are not
// listed.
func (r *Result) Anchors(path string) []Anchor {
	if r == nil {
		return nil
	}
	return r.anchors[path]
}

// AnchoredFiles returns the workspace paths that have anchors, sorted.
func (r *Result) AnchoredFiles() []string {
	if r == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(r.anchors))
}

// Prior returns the claims as the next build should see them in
// Options.Previous.
func (r *Result) Prior() []PriorClaim {
	if r == nil {
		return nil
	}
	out := make([]PriorClaim, 0, len(r.Claims))
	for _, c := range r.Claims {
		out = append(out, PriorClaim{ID: c.ID, Text: c.Text, MetaID: c.MetaID, File: c.File, Lifecycle: c.Lifecycle})
	}
	return out
}
