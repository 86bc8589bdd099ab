package workspace

import (
	"io/fs"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// Workspace is everything read from one agent workspace, as typed values.
// Every slice is sorted (by path, then by date where it has one) so that
// every later stage iterates deterministically.
type Workspace struct {
	// Root is the absolute path the workspace was read from ("" for an
	// in-memory file system such as the embedded demo).
	Root   string
	Config Config

	// Files holds every text file read, sorted by Path. The typed views
	// below point into it; a file appears here exactly once.
	Files []*File
	// Assets are non-Markdown files worth publishing (images, PDFs, audio,
	// video) that notes may embed, sorted by Path. Their bytes are read
	// lazily through ReadAsset.
	Assets []*Asset
	// Ignored lists files that are neither text nor assets (scripts, data
	// in other formats), sorted: listed so nothing vanishes silently.
	Ignored []string
	// NestedVaults are folders holding their own .obsidian/ (a vault inside
	// the workspace); their Markdown files are Notes.
	NestedVaults []string

	Memory        *MemoryIndex    // MEMORY.md (or memory.md); nil when absent
	Daily         []*DailyLog     // memory/YYYY-MM-DD*.md, by date then path
	Topics        []*TopicFile    // L2 topic files, by path
	DreamLog      *DreamLog       // memory/dream-log.md; nil when absent
	Dreams        *DreamsDiary    // DREAMS.md (or dreams.md); nil when absent
	Phases        []*PhaseReport  // memory/dreaming/{light,rem,deep}/DATE.md
	Recall        *RecallStore    // memory/.dreams/short-term-recall.json; nil when absent
	Events        []Event         // memory/.dreams/events.jsonl, in file order
	Meta          *MetaStore      // memory/memory-meta.json; nil when absent
	Heartbeat     *Heartbeat      // memory/heartbeat-state.json; nil when absent
	Archive       []*ArchiveFile  // memory/archive/*.md
	Conversations []*Conversation // archives/<channel>/<group>/, by channel then group
	ArchiveConfig *ArchiveConfig  // archives/archive-config.json; nil when absent
	Bootstrap     []*BootstrapFile
	// Notes are Markdown files that are none of the above ("other notes"):
	// they are rendered as ordinary notes, never dropped.
	Notes []*File
	// Withheld are the private files a read with OmitPrivate left out,
	// sorted by path. Nothing of them is kept but their path and kind, so
	// that a link or pointer to one can be told from a broken one (and
	// shown as plain text), and the object id history knows them by;
	// their paths are never published.
	Withheld []Withheld

	// Diagnostics are the problems met while reading, with file and line,
	// sorted (diag.List.Sort).
	Diagnostics diag.List

	fsys        fs.FS // where assets are read from
	byPath      map[string]*File
	assetByPath map[string]*Asset
	state       *loadState // what Reread needs to read only what changed
}

// Kind says what role a file plays in the workspace.
type Kind string

// File kinds. Every Markdown file has exactly one.
const (
	KindMemory       Kind = "memory"       // MEMORY.md
	KindDaily        Kind = "daily"        // memory/YYYY-MM-DD*.md
	KindTopic        Kind = "topic"        // L2 topic file
	KindDreamLog     Kind = "dream-log"    // memory/dream-log.md
	KindDreams       Kind = "dreams"       // DREAMS.md
	KindPhase        Kind = "phase"        // memory/dreaming/<phase>/DATE.md
	KindArchive      Kind = "archive"      // memory/archive/*.md
	KindConversation Kind = "conversation" // archives/<channel>/<group>/**.md
	KindBootstrap    Kind = "bootstrap"    // USER.md, AGENTS.md, ...
	KindNote         Kind = "note"         // anything else
	KindData         Kind = "data"         // JSON / JSONL state files
)

// File is one text file of the workspace.
type File struct {
	// Path is workspace-relative with forward slashes.
	Path string
	Kind Kind
	// Content is the file as valid UTF-8 with CRLF and lone CR turned into
	// LF, so that line numbers match what an editor shows.
	Content string
	// Size is the size on disk in bytes.
	Size int64
	// ModTime is the modification time on disk. It is used to decide what
	// changed since the last dream, never written into generated output.
	ModTime time.Time
	// Hash is the hex SHA-256 of the bytes on disk.
	Hash string
	// Private is set when the file may never be published (private.go
	// holds the rule). Only a read without OmitPrivate has private files.
	Private bool
}

// Withheld is a private file left out of a workspace read with
// OmitPrivate.
type Withheld struct {
	Path string
	// Kind is the role the file would have had; "" for an asset.
	Kind Kind
	// Blob is the git object id of its bytes (BlobID): history leaves
	// out every earlier version of it, wherever it was ("" when it could
	// not be read).
	Blob string
}

// Asset is a non-Markdown file a note may embed.
type Asset struct {
	Path    string // workspace-relative, forward slashes
	Size    int64
	Hash    string // hex SHA-256 of the bytes
	ModTime time.Time

	source string // path in the file system, symlinks resolved
}

// Section is a heading of a Markdown file, with the entries under it.
type Section struct {
	Heading string // heading text without the leading #s; "" before the first heading
	Level   int
	Line    int // 1-based line of the heading
	Entries []*Entry
}

// EntryShape is how an entry was written.
type EntryShape string

// Entry shapes seen in real MEMORY.md and L2 files.
const (
	ShapeList      EntryShape = "list"         // "- text" or "1. text"
	ShapeBoldTitle EntryShape = "bold-title"   // "**[feedback] Title (04-27)**" + quoted detail lines
	ShapeParagraph EntryShape = "paragraph"    // a plain paragraph
	ShapeKeyValue  EntryShape = "key-value"    // "Key: value"
	ShapeTableRow  EntryShape = "table-row"    // one row of a Markdown table
	ShapeRuleWhy   EntryShape = "rule-why-how" // **Rule:** / **Why:** / **How to apply:**
)

// Entry is one remembered item of MEMORY.md, an L2 topic file or an
// archive file.
type Entry struct {
	File    string // workspace path
	Line    int    // first line, 1-based
	EndLine int    // last line, inclusive
	Section string // heading path, e.g. "People" or "Infra / Hosts"
	Shape   EntryShape
	// Raw is the entry's lines exactly as written.
	Raw string
	// Text is the entry's substance: list markers, bold markers, type tags,
	// promotion metadata ("[score=... source=...]"), HTML comments,
	// "(source: DATE)" notes and "Source:" footers removed; links reduced to
	// their text; whitespace collapsed; nested list items joined with "; ".
	// Rule/Why/How blocks are joined as
	// "Rule. Why: ... How: ..."; a bold title is joined to its detail lines
	// as "Title: detail"; a table row's cells as "a — b — c" (HeadedText
	// names their columns). Navigation phrases ("see memory/x.md") stay.
	Text string
	// Title is the cleaned bold title of a bold-title entry (without type
	// tag and trailing date), "" for other shapes.
	Title string
	// TypeTag is an explicit memory type written on the entry
	// ("[feedback]", "#type/feedback", "type: feedback"); "" when none.
	TypeTag string
	// Tags are inline #tags found in the entry (without '#').
	Tags []string
	// Date is an absolute date written in the entry (partial dates such as
	// "04-27" resolved against the file's date); zero when none.
	Date time.Time
	// Sources are the evidence pointers written on or just above the entry.
	Sources []SourcePointer
	// Promotion holds the numbers of an OpenClaw promotion line
	// ("[score=0.835 recalls=0 avg=0.620 source=...]"), nil when absent.
	Promotion *Promotion
	// Promoted is true when any of the three promotion-line generations
	// marks the entry: the openclaw-memory-promotion comment, the
	// [score=... source=...] suffix, or a "Source: PATH#Lx-Ly" footer with an
	// importance comment.
	Promoted bool
	// Importance is the value of an "<!-- importance: N -->" comment, 0 when absent.
	Importance int
	// Status is a lifecycle word written on the entry ("done", "closed",
	// "archived", "superseded", "active", ...), lower-case; "" when none.
	Status string
	// Rule, Why and How are set for Rule/Why/How entries, and for any
	// entry written with inline "Why:" / "How to apply:" parts.
	Rule, Why, How string
	// Cells are the cleaned cells of a table row, Columns the table's
	// header cells ("" when the table has no header).
	Cells, Columns []string
	// headed is a table row's text with its column headers (HeadedText).
	headed string
}

// PointerKind names the syntax an evidence pointer was written in.
type PointerKind string

// Pointer kinds, in the order DESIGN 3 lists them.
const (
	PointerPromotionComment PointerKind = "promotion-comment" // <!-- openclaw-memory-promotion:memory:PATH:A:B -->
	PointerScoreSource      PointerKind = "score-source"      // [score=... source=PATH:A-B]
	PointerSourceAnchor     PointerKind = "source-anchor"     // Source: PATH#LA-LB
	PointerSourceDate       PointerKind = "source-date"       // (source: 2026-03-31)
	PointerSee              PointerKind = "see"               // see memory/x.md
	PointerDailyNotes       PointerKind = "daily-notes"       // 详见 daily notes 2026-03-31
	PointerWikilink         PointerKind = "wikilink"          // [[x]]
	PointerEvidence         PointerKind = "evidence"          // evidence: memory/x.md:5-7 (DREAMS.md)
	PointerLink             PointerKind = "link"              // [text](memory/x.md), a Markdown link to a workspace file
	PointerPath             PointerKind = "path"              // a bare workspace path: memory/x.md#L3-L5
)

// SourcePointer is an explicit reference from an entry to where it came from.
type SourcePointer struct {
	Kind PointerKind
	// Path is the workspace path pointed at, as written (cleaned, forward
	// slashes). For date pointers it is the daily log path the date names
	// ("memory/2026-03-31.md"); for wikilinks the link target as written.
	Path string
	// StartLine and EndLine are 1-based and inclusive; 0 when the pointer
	// names a whole file or a date.
	StartLine, EndLine int
	// Date is set for date pointers.
	Date time.Time
	// Line is the line of the entry's file where the pointer was written.
	Line int
	// Text is the pointer as written ("Source: memory/x.md#L3-L6").
	Text string
}

// Promotion is the metadata OpenClaw appends to promoted entries.
type Promotion struct {
	Score   float64
	Recalls int
	Avg     float64
}

// MemoryIndex is MEMORY.md parsed into sections and entries.
type MemoryIndex struct {
	File *File
	// Limit is the size header, e.g. "> limit: 200 lines / 25KB | last dream: 2026-03-31"
	// or the Chinese "> 📏 限制：≤ 200 行 / 25KB | 上次整理：2026-03-31".
	Limit    *SizeLimit
	Sections []*Section
	// Pointers are links from MEMORY.md down to L2 files ("see memory/x.md",
	// [[x]]) found anywhere in the file.
	Pointers []SourcePointer
}

// Entries returns every entry of every section, in file order.
func (m *MemoryIndex) Entries() []*Entry {
	if m == nil {
		return nil
	}
	var out []*Entry
	for _, s := range m.Sections {
		out = append(out, s.Entries...)
	}
	return out
}

// SizeLimit is the budget header of MEMORY.md.
type SizeLimit struct {
	Line      int
	MaxLines  int // 0 when not stated
	MaxBytes  int // 0 when not stated
	MaxChars  int // 0 when not stated
	LastDream time.Time
}

// DailyLog is one raw daily log. It is read-only forever.
type DailyLog struct {
	File *File
	Date time.Time // from the file name, UTC midnight
	// Suffix is what follows the date in the file name: "" for the plain
	// form, "0810" for -HHMM, "gateway-move" for -slug.
	Suffix string
	// Session is set when the file starts with "# Session: <timestamp>".
	Session *SessionHeader
	// Sleep are "## Light Sleep" / "## REM Sleep" blocks found inside the
	// log (older inline dreaming); dreams skip them.
	Sleep []Block
	// Items are the candidate lines a dream may read: list items and short
	// paragraphs outside Sleep blocks and session metadata.
	Items []LogItem
}

// SessionHeader is the header of a session file.
type SessionHeader struct {
	Started time.Time
	Key     string            // "- **Session Key**: ..."
	Fields  map[string]string // other "- **Name**: value" lines
	EndLine int               // last line of the header block
}

// Block is a named range of lines.
type Block struct {
	Name      string // "light", "rem", "deep", "diary", ...
	StartLine int    // 1-based, the marker or heading line
	EndLine   int    // inclusive
	Content   string // the lines between the markers
}

// LogItem is one list item or short paragraph of a daily log.
type LogItem struct {
	Line, EndLine int
	Section       string // heading path it sits under
	Text          string // markers removed, whitespace collapsed
	Raw           string
	Tags          []string
}

// TopicFile is a curated L2 topic file (memory/<topic>.md).
type TopicFile struct {
	File     *File
	Topic    string // slug from the file name, e.g. "gateway"
	Title    string // first H1, else the topic
	Sections []*Section
}

// Entries returns every entry of every section, in file order.
func (t *TopicFile) Entries() []*Entry {
	var out []*Entry
	for _, s := range t.Sections {
		out = append(out, s.Entries...)
	}
	return out
}

// DreamLog is memory/dream-log.md.
type DreamLog struct {
	File    *File
	Entries []*DreamLogEntry // in file order
}

// Watermark returns the newest "Consolidated through:" date, else the
// newest entry's heading date, else the zero time.
func (d *DreamLog) Watermark() time.Time {
	if d == nil {
		return time.Time{}
	}
	var through, heading time.Time
	for _, e := range d.Entries {
		if !e.ConsolidatedThrough.IsZero() && e.ConsolidatedThrough.After(through) {
			through = e.ConsolidatedThrough
		}
		if e.Date.After(heading) {
			heading = e.Date
		}
	}
	if !through.IsZero() {
		return through
	}
	return heading
}

// DreamLogEntry is one heading-delimited entry of the dream log.
type DreamLogEntry struct {
	Heading string
	Line    int
	EndLine int
	Date    time.Time // date (and time when given) from the heading
	HasTime bool
	Body    string
	// ConsolidatedThrough is the watermark date, zero when absent.
	ConsolidatedThrough time.Time
	// Fields are "Key: value" (or "- **Key**: value") lines of the body,
	// keys lower-cased ("promoted", "merged", "memory.md", ...).
	Fields map[string]string
	// Links are workspace paths and wikilink targets the entry mentions.
	Links []string
}

// DreamsDiary is DREAMS.md, OpenClaw's built-in dreaming diary.
type DreamsDiary struct {
	File *File
	// Blocks are the <!-- openclaw:dreaming:<name>:start --> ... :end -->
	// blocks by name ("diary", "light", "rem", "deep").
	Blocks []Block
	// Diary holds the entries of the diary block, separated by "---".
	Diary []*DiaryEntry
	// Items are the list items of the light/rem/deep blocks.
	Items []*DreamItem
}

// DiaryEntry is one dated entry of the DREAMS.md diary.
type DiaryEntry struct {
	Line, EndLine int
	Date          time.Time // from "*April 24, 2026 at 3:00 AM GMT+2*"
	DateText      string
	Text          string
	Items         []*DreamItem
}

// DreamItem is a list item in a DREAMS.md block, with its annotations.
type DreamItem struct {
	Block      string // "light", "rem", "deep", "diary"
	Line       int
	Text       string // the item without its annotations
	Confidence float64
	Evidence   []SourcePointer // "evidence: memory/x.md:5-7"
	Recalls    int
	Status     string // "staged", "promoted", ...
}

// PhaseReport is memory/dreaming/{light,rem,deep}/DATE.md.
type PhaseReport struct {
	File  *File
	Phase string // "light", "rem" or "deep"
	Date  time.Time
}

// RecallStore is memory/.dreams/short-term-recall.json, as the memory
// package reads it.
type RecallStore struct {
	File *File
	// Entries are sorted by Key.
	Entries []*memory.RecallRecord
}

// Event is one line of memory/.dreams/events.jsonl.
type Event struct {
	Line int    // line in events.jsonl
	Type string // "memory.recall.recorded", "memory.promotion.applied", "memory.dream.completed", ...
	At   time.Time
	// Query, ResultCount and Results are set for recall events.
	Query       string
	ResultCount int
	Results     []EventResult
	// Fields keeps the event's other top-level fields as decoded JSON.
	Fields map[string]any
}

// EventResult is one search result recorded in a recall event.
type EventResult struct {
	Path      string
	StartLine int
	EndLine   int
	Score     float64
}

// MetaStore is memory/memory-meta.json, as the memory package reads it.
type MetaStore struct {
	File    *File
	Entries []*memory.MetaRecord // in file order
}

// Heartbeat is memory/heartbeat-state.json.
type Heartbeat struct {
	File            *File
	LastDreamAt     time.Time
	LastDreamResult string
	Extra           map[string]any
}

// ArchiveFile is memory/archive/*.md: entries a dream forgot.
type ArchiveFile struct {
	File    *File
	Month   time.Time // from YYYY-MM in the name; zero when the name has none
	Entries []*Entry
}

// Conversation is one archives/<channel>/<group>/ folder.
type Conversation struct {
	Channel string
	Group   string // folder name
	GroupID string // the archive-config.json group id the folder matched, "" when none
	Label   string // from archive-config.json, else Group
	Digest  *File  // DIGEST.md
	Index   *File  // INDEX.md
	// Topics are summaries/topic-<id>.md, sorted by ID.
	Topics []*ConversationTopic
	// Raw are files under raw/, sorted by path.
	Raw []*File
	// Days are the raw files with the messages read from them, sorted by
	// path: the group's timeline and who spoke in it.
	Days []*ConversationDay
	// Other Markdown files in the folder.
	Other []*File
	// Cites are the lines of DIGEST.md that quote a raw message and link
	// its line (the latest decisions `dreamwiki archive` lists), in order.
	Cites []*DigestCite
}

// DigestCite is a line of a group's DIGEST.md that cites a raw message.
type DigestCite struct {
	Line    int              // the line of DIGEST.md
	Day     *ConversationDay // the raw transcript it links
	Message RawMessage       // the message as that transcript has it
	// Topic is the topic the transcript belongs to, nil for none.
	Topic *ConversationTopic
}

// ConversationTopic is one topic of a conversation group: a summary
// (summaries/topic-<id>.md), raw transcripts (raw/topic-<id>/), or both.
type ConversationTopic struct {
	ID   string
	Name string // from archive-config topicNames, else from the summary's H1, else ID
	File *File  // the summary, nil when the topic has raw transcripts only
	// Messages is the message count: the raw transcripts' messages when
	// there are any, else from INDEX.md or the summary, 0 when unknown.
	Messages int
	// Days are the topic's raw files (raw/topic-<id>/<day>.md), by day.
	Days []*ConversationDay
}

// ConversationDay is one raw transcript file and what its message lines
// say.
type ConversationDay struct {
	File  *File
	Topic string // the topic id of raw/topic-<id>/, "" for a file outside a topic folder
	Day   string // YYYY-MM-DD from the file name, "" when it has none
	// Messages counts the message lines (see ParseRawMessage).
	Messages int
	// Senders are who wrote the messages, most messages first, then by name.
	Senders []SenderCount
}

// SenderCount is how many messages one participant wrote.
type SenderCount struct {
	Name     string
	Messages int
}

// ArchiveConfig is archives/archive-config.json.
type ArchiveConfig struct {
	File       *File
	AgentName  string
	Groups     map[string]ArchiveGroup
	TopicNames map[string]map[string]string // group id -> topic id -> name
}

// ArchiveGroup labels one group.
type ArchiveGroup struct {
	Name  string
	Label string
}

// BootstrapFile is USER.md, AGENTS.md, SOUL.md, IDENTITY.md, TOOLS.md or HEARTBEAT.md.
type BootstrapFile struct {
	File *File
	Name string // "USER", "AGENTS", ...
	// Observations are <!-- observed: DATE | status: S --> blocks (USER.md).
	Observations []*Observation
}

// Observation is one observed block of USER.md: the text after an
// "<!-- observed: 2026-07-27 | status: active -->" comment up to the next
// comment, heading or blank line.
type Observation struct {
	Line, EndLine int
	Observed      time.Time
	Status        string // "active", "superseded", ...
	Text          string
}
