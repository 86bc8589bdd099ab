package workspace

import (
	"reflect"
	"testing"
)

// One MEMORY.md written the way real workspaces mix entry shapes.
const mixedMemory = `
-- MEMORY.md --
# MEMORY

> limit: 200 lines / 25KB | last dream: 2026-03-31

## People
- [user] Jim prefers casual Chinese, works at Amazon, timezone UTC+8
  - lives in Shanghai
  - has two cats
- Gateway host is the Mac mini. Source: memory/2026-04-29.md#L3-L6 <!-- importance: 8 -->

## Feedback

**[feedback] Append, never overwrite (04-27)**
> write overwrites history
> use feishu_doc append

**Rule:** append over write for Feishu docs
**Why:** write overwrites history
**How to apply:** always use feishu_doc append

- [feedback] Lead with the answer. Why: Jim reads on his phone. How to apply: chat replies and summaries.

## Facts
Dev server: user@203.0.113.10
Status: pending

The team ships on Fridays and
reviews on Mondays.

| host | ip |
|------|----|
| gw   | 10.0.0.1 |
| nas  | 10.0.0.2 |

## Promoted
<!-- openclaw-memory-promotion:memory:memory/2026-04-17.md:7:7 -->
- User prefers TypeScript examples. [score=0.835 recalls=0 avg=0.620 source=memory/2026-04-17.md:7-7]
`

func TestMemory_SizeHeaderIsReadAndIsNoEntry(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	lim := ws.Memory.Limit
	if lim == nil {
		t.Fatal("no size header")
	}
	want := SizeLimit{Line: 3, MaxLines: 200, MaxBytes: 25 * 1024, LastDream: date("2026-03-31")}
	if *lim != want {
		t.Errorf("Limit = %+v, want %+v", *lim, want)
	}
	for _, e := range ws.Memory.Entries() {
		if e.Line == 3 {
			t.Errorf("the size header became an entry: %q", e.Text)
		}
	}
}

func TestMemory_ChineseSizeHeader(t *testing.T) {
	ws := loadTxtar(t, "-- MEMORY.md --\n# 记忆\n\n> 📏 限制：≤ 200 行 / 25KB | 上次整理：2026-03-31\n\n## 用户\n- [user] 喜欢简短回答\n")
	want := SizeLimit{Line: 3, MaxLines: 200, MaxBytes: 25 * 1024, LastDream: date("2026-03-31")}
	if ws.Memory.Limit == nil || *ws.Memory.Limit != want {
		t.Fatalf("Limit = %+v, want %+v", ws.Memory.Limit, want)
	}
	e := ws.Memory.Entries()
	if len(e) != 1 || e[0].Text != "喜欢简短回答" || e[0].TypeTag != "user" || e[0].Section != "用户" {
		t.Errorf("entries = %+v", e)
	}
}

func TestMemory_ListItemKeepsNestedContinuationLines(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	e := entryByText(t, ws.Memory.Entries(), "Jim prefers")
	if e.Shape != ShapeList || e.Line != 6 || e.EndLine != 8 {
		t.Errorf("shape %s lines %d-%d, want list 6-8", e.Shape, e.Line, e.EndLine)
	}
	if e.Text != "Jim prefers casual Chinese, works at Amazon, timezone UTC+8; lives in Shanghai; has two cats" {
		t.Errorf("Text = %q", e.Text)
	}
	if e.TypeTag != "user" || e.Section != "People" {
		t.Errorf("TypeTag %q Section %q", e.TypeTag, e.Section)
	}
	if e.Raw != "- [user] Jim prefers casual Chinese, works at Amazon, timezone UTC+8\n  - lives in Shanghai\n  - has two cats" {
		t.Errorf("Raw = %q", e.Raw)
	}
}

func TestMemory_SourceAnchorWithImportanceIsAPromotion(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	e := entryByText(t, ws.Memory.Entries(), "Gateway host")
	if e.Text != "Gateway host is the Mac mini." {
		t.Errorf("Text = %q", e.Text)
	}
	if e.Importance != 8 || !e.Promoted {
		t.Errorf("Importance %d Promoted %v, want 8 true", e.Importance, e.Promoted)
	}
	want := []SourcePointer{{Kind: PointerSourceAnchor, Path: "memory/2026-04-29.md", StartLine: 3, EndLine: 6, Line: 9, Text: "Source: memory/2026-04-29.md#L3-L6"}}
	if !reflect.DeepEqual(e.Sources, want) {
		t.Errorf("Sources = %+v\nwant %+v", e.Sources, want)
	}
}

func TestMemory_BoldTitleWithQuotedDetails(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	e := entryByText(t, ws.Memory.Entries(), "Append, never overwrite")
	if e.Shape != ShapeBoldTitle || e.Line != 13 || e.EndLine != 15 {
		t.Errorf("shape %s lines %d-%d", e.Shape, e.Line, e.EndLine)
	}
	if e.Title != "Append, never overwrite" || e.TypeTag != "feedback" {
		t.Errorf("Title %q TypeTag %q", e.Title, e.TypeTag)
	}
	if e.Text != "Append, never overwrite: write overwrites history use feishu_doc append" {
		t.Errorf("Text = %q", e.Text)
	}
	// "(04-27)" is resolved against the header's last dream, 2026-03-31:
	// April 27 is nearest in 2026.
	if !e.Date.Equal(date("2026-04-27")) {
		t.Errorf("Date = %v", e.Date)
	}
}

func TestMemory_RuleWhyHowBlock(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	e := entryByText(t, ws.Memory.Entries(), "append over write")
	if e.Shape != ShapeRuleWhy || e.Line != 17 || e.EndLine != 19 {
		t.Errorf("shape %s lines %d-%d", e.Shape, e.Line, e.EndLine)
	}
	if e.Rule != "append over write for Feishu docs" || e.Why != "write overwrites history" || e.How != "always use feishu_doc append" {
		t.Errorf("Rule %q Why %q How %q", e.Rule, e.Why, e.How)
	}
	if e.Text != "append over write for Feishu docs. Why: write overwrites history. How: always use feishu_doc append" {
		t.Errorf("Text = %q", e.Text)
	}
}

func TestMemory_InlineWhyHowInAListItem(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	e := entryByText(t, ws.Memory.Entries(), "Lead with the answer")
	if e.Shape != ShapeList || e.TypeTag != "feedback" {
		t.Errorf("shape %s type %q", e.Shape, e.TypeTag)
	}
	if e.Rule != "Lead with the answer" || e.Why != "Jim reads on his phone" || e.How != "chat replies and summaries" {
		t.Errorf("Rule %q Why %q How %q", e.Rule, e.Why, e.How)
	}
}

func TestMemory_KeyValueParagraphAndTableRows(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	entries := ws.Memory.Entries()

	kv := entryByText(t, entries, "Dev server")
	if kv.Shape != ShapeKeyValue || kv.Text != "Dev server: user@203.0.113.10" {
		t.Errorf("key-value: %s %q", kv.Shape, kv.Text)
	}
	st := entryByText(t, entries, "Status")
	if st.Shape != ShapeKeyValue || st.Line != 25 {
		t.Errorf("second key-value line: %s line %d", st.Shape, st.Line)
	}

	p := entryByText(t, entries, "The team ships")
	if p.Shape != ShapeParagraph || p.Line != 27 || p.EndLine != 28 || p.Text != "The team ships on Fridays and reviews on Mondays." {
		t.Errorf("paragraph: %s %d-%d %q", p.Shape, p.Line, p.EndLine, p.Text)
	}

	gw := entryByText(t, entries, "gw")
	if gw.Shape != ShapeTableRow || gw.Line != 32 || gw.Text != "gw — 10.0.0.1" {
		t.Errorf("table row: %s line %d %q", gw.Shape, gw.Line, gw.Text)
	}
	if got := gw.HeadedText(); got != "host: gw; ip: 10.0.0.1" {
		t.Errorf("table row read on its own: %q, want each cell after its header", got)
	}
	if !reflect.DeepEqual(gw.Columns, []string{"host", "ip"}) || !reflect.DeepEqual(gw.Cells, []string{"gw", "10.0.0.1"}) {
		t.Errorf("Columns %q Cells %q", gw.Columns, gw.Cells)
	}
	for _, e := range entries {
		if e.Shape == ShapeTableRow && (e.Text == "host — ip" || e.Line == 31) {
			t.Errorf("header or separator row became an entry: %q", e.Text)
		}
	}
}

func TestMemory_PromotionCommentAttachesToTheNextEntry(t *testing.T) {
	ws := loadTxtar(t, mixedMemory)
	e := entryByText(t, ws.Memory.Entries(), "User prefers TypeScript")
	if e.Text != "User prefers TypeScript examples." {
		t.Errorf("Text = %q", e.Text)
	}
	if !e.Promoted || e.Promotion == nil || *e.Promotion != (Promotion{Score: 0.835, Recalls: 0, Avg: 0.62}) {
		t.Errorf("Promoted %v Promotion %+v", e.Promoted, e.Promotion)
	}
	want := []SourcePointer{
		{Kind: PointerPromotionComment, Path: "memory/2026-04-17.md", StartLine: 7, EndLine: 7, Line: 36,
			Text: "<!-- openclaw-memory-promotion:memory:memory/2026-04-17.md:7:7 -->"},
		{Kind: PointerScoreSource, Path: "memory/2026-04-17.md", StartLine: 7, EndLine: 7, Line: 37,
			Text: "[score=0.835 recalls=0 avg=0.620 source=memory/2026-04-17.md:7-7]"},
	}
	if !reflect.DeepEqual(e.Sources, want) {
		t.Errorf("Sources = %+v\nwant %+v", e.Sources, want)
	}
	if e.Line != 37 {
		t.Errorf("Line = %d; the comment is a pointer, the entry starts on its own line", e.Line)
	}
}

func TestMemory_EvidencePointersOfEveryKind(t *testing.T) {
	ws := loadTxtar(t, `
-- MEMORY.md --
## Index
- Trip booked (source: 2026-03-31)
- Gateway details: see memory/gateway.md
- Gateway runbook: See memory/gateway.md#L3-L5
- Home lab: [[homelab|the lab]]
- 法国行程已订好。详见 daily notes 2026-03-31
- 预算表 详见 memory/2026-03-30.md
- Backups: [notes](memory/backups.md#L2)
- Raw history lives in memory/2026-03-29.md
`)
	type ptr struct {
		Kind       PointerKind
		Path       string
		Start, End int
		Date       string
	}
	got := map[string][]ptr{}
	for _, e := range ws.Memory.Entries() {
		for _, s := range e.Sources {
			d := ""
			if !s.Date.IsZero() {
				d = s.Date.Format("2006-01-02")
			}
			got[e.Text] = append(got[e.Text], ptr{s.Kind, s.Path, s.StartLine, s.EndLine, d})
		}
	}
	want := map[string][]ptr{
		"Trip booked":                                  {{PointerSourceDate, "memory/2026-03-31.md", 0, 0, "2026-03-31"}},
		"Gateway details: see memory/gateway.md":       {{PointerSee, "memory/gateway.md", 0, 0, ""}},
		"Gateway runbook: See memory/gateway.md#L3-L5": {{PointerSee, "memory/gateway.md", 3, 5, ""}},
		"Home lab: the lab":                            {{PointerWikilink, "homelab", 0, 0, ""}},
		"法国行程已订好。详见 daily notes 2026-03-31":            {{PointerDailyNotes, "memory/2026-03-31.md", 0, 0, "2026-03-31"}},
		"预算表 详见 memory/2026-03-30.md":                  {{PointerSee, "memory/2026-03-30.md", 0, 0, ""}},
		"Backups: notes":                               {{PointerLink, "memory/backups.md", 2, 2, ""}},
		"Raw history lives in memory/2026-03-29.md":    {{PointerPath, "memory/2026-03-29.md", 0, 0, ""}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pointers:\n got %v\nwant %v", got, want)
	}
	// MemoryIndex.Pointers lists the navigation pointers of the whole file.
	var nav []string
	for _, p := range ws.Memory.Pointers {
		nav = append(nav, string(p.Kind)+":"+p.Path)
	}
	wantNav := []string{"see:memory/gateway.md", "see:memory/gateway.md", "wikilink:homelab", "daily-notes:memory/2026-03-31.md",
		"see:memory/2026-03-30.md", "link:memory/backups.md", "path:memory/2026-03-29.md"}
	if !equalStrings(nav, wantNav) {
		t.Errorf("Pointers = %q, want %q", nav, wantNav)
	}
}

func TestMemory_TypeTagsInAllForms(t *testing.T) {
	ws := loadTxtar(t, `
-- MEMORY.md --
- [user] one
- [Feedback] two
- three #type/project
- four (type: reference)
- five <!-- type: user -->
- six, no type
`)
	want := map[string]string{"one": "user", "two": "feedback", "three": "project", "four": "reference", "five": "user", "six, no type": ""}
	for _, e := range ws.Memory.Entries() {
		if w, ok := want[e.Text]; !ok || w != e.TypeTag {
			t.Errorf("%q: TypeTag %q, want %q (known text: %v)", e.Text, e.TypeTag, w, ok)
		}
	}
	if n := len(ws.Memory.Entries()); n != len(want) {
		t.Errorf("%d entries, want %d", n, len(want))
	}
}

func TestMemory_LifecycleWordsBecomeStatus(t *testing.T) {
	ws := loadTxtar(t, `
-- MEMORY.md --
- [x] Renew the domain
- [ ] Clean the NUC fan
- ~~Gateway host is nuc-01~~
- Migrate payments-api — done 2026-10-15
- Old VPN setup (archived)
- Gateway on nuc-01. status: superseded
- Kyoto trip [closed]
- The gateway is active and healthy
- DONE: write USER.md
- Move the blog ✅
- 京都旅行 已完成
`)
	want := map[string]string{
		"Renew the domain":       "done",
		"Clean the NUC fan":      "open",
		"Gateway host is nuc-01": "closed",
		"Migrate payments-api":   "done",
		"Old VPN setup":          "archived",
		"Gateway on nuc-01.":     "superseded",
		"Kyoto trip":             "closed",
		"The gateway is active":  "",
		"DONE: write USER.md":    "done",
		"Move the blog":          "done",
		"京都旅行":                   "done",
	}
	entries := ws.Memory.Entries()
	for prefix, status := range want {
		if e := entryByText(t, entries, prefix); e.Status != status {
			t.Errorf("%q: Status %q, want %q", e.Text, e.Status, status)
		}
	}
}

func TestMemory_PartialDatesResolveAgainstTheNewestDailyLogWithoutHeader(t *testing.T) {
	ws := loadTxtar(t, `
-- MEMORY.md --
**[project] Year-end review (12-20)**
> slides ready

**[project] Spring trip (01-03)**
> flights booked
-- memory/2026-01-10.md --
- a day
-- memory/2025-12-01.md --
- an older day
`)
	// The newest daily log is 2026-01-10: 12-20 is nearest last December,
	// 01-03 this January.
	if e := entryByText(t, ws.Memory.Entries(), "Year-end"); !e.Date.Equal(date("2025-12-20")) {
		t.Errorf("12-20 resolved to %v", e.Date)
	}
	if e := entryByText(t, ws.Memory.Entries(), "Spring trip"); !e.Date.Equal(date("2026-01-03")) {
		t.Errorf("01-03 resolved to %v", e.Date)
	}
}

// A year-less date more than a month ahead of the file's date stays in its
// year when that is nearer: MEMORY.md plans as well as remembers. (The
// workspace used to send every date over 31 days ahead a year back, and
// dated this trip 2025-11-13; provenance and dream read it as 2026.)
func TestMemory_PartialDatesTakeTheNearestYear(t *testing.T) {
	ws := loadTxtar(t, `
-- MEMORY.md --
**[project] Kyoto trip (11-13)**
> flights booked
-- memory/2026-10-12.md --
- trip planned
`)
	if e := entryByText(t, ws.Memory.Entries(), "Kyoto"); !e.Date.Equal(date("2026-11-13")) {
		t.Errorf("11-13 resolved to %v, want 2026-11-13", e.Date)
	}
}

func TestMemory_LowerCaseFileNameIsAccepted(t *testing.T) {
	ws := loadTxtar(t, "-- memory.md --\n- one fact\n")
	if ws.Memory == nil || ws.Memory.File.Path != "memory.md" || ws.Memory.File.Kind != KindMemory {
		t.Fatalf("memory.md not read as the index: %+v", ws.Memory)
	}
}

func TestMemory_BothSpellingsPresentKeepsUpperCaseAndWarns(t *testing.T) {
	ws := loadTxtar(t, "-- MEMORY.md --\n- one\n-- memory.md --\n- two\n")
	if ws.Memory.File.Path != "MEMORY.md" {
		t.Errorf("index is %s", ws.Memory.File.Path)
	}
	if got := paths(ws.Notes); !equalStrings(got, []string{"memory.md"}) {
		t.Errorf("Notes = %v", got)
	}
	if len(diagsWith(ws.Diagnostics, "duplicate")) != 1 {
		t.Errorf("diagnostics = %v", ws.Diagnostics)
	}
}

func TestMemory_BoldLabelOverAListIsNoEntry(t *testing.T) {
	ws := loadTxtar(t, `
-- MEMORY.md --
**People**
- Alice runs payments
- Bob runs infra

**[project] Kyoto trip (06-19)**
- 4 people
- budget TBD
`)
	entries := ws.Memory.Entries()
	var texts []string
	for _, e := range entries {
		texts = append(texts, e.Text)
	}
	want := []string{"Alice runs payments", "Bob runs infra", "Kyoto trip: 4 people; budget TBD"}
	if !equalStrings(texts, want) {
		t.Errorf("texts = %q, want %q", texts, want)
	}
}

func TestMemory_CodeBlocksAndFrontMatterAreNoEntries(t *testing.T) {
	ws := loadTxtar(t, "-- MEMORY.md --\n---\ntitle: Memory\n---\n## Tools\n```bash\n- not an entry\n```\n- real entry\n")
	entries := ws.Memory.Entries()
	if len(entries) != 1 || entries[0].Text != "real entry" || entries[0].Line != 8 {
		t.Errorf("entries = %+v", entries[0])
	}
}

// Brackets a call or a type holds are code: cleaning the text keeps them
// (issue #15: "new Date(now.getFullYear(), …)" lost its "()").
func TestMemory_CodeKeepsItsEmptyBrackets(t *testing.T) {
	ws := loadTxtar(t, "-- MEMORY.md --\n- Last day: `new Date(now.getFullYear(), now.getMonth() - 1, 0)`; ids are `string[]` ()\n")
	if e := ws.Memory.Entries()[0]; e.Text != "Last day: new Date(now.getFullYear(), now.getMonth() - 1, 0); ids are string[]" {
		t.Errorf("Text = %q", e.Text)
	}
}

// Inline code is kept as written while the prose around it is cleaned:
// no emphasis, highlight or wikilink syntax is read inside it, and no
// empty bracket in it is taken for a leftover (issue #15).
func TestMemory_InlineCodeIsKeptAsWritten(t *testing.T) {
	ws := loadTxtar(t, "-- MEMORY.md --\n"+
		"- **Init** is `def __init__(self, **kwargs)`; compare with `a == b`, default `items = []`, test `[[ -f x ]]` and `` `x` ``; empty () [[Note|alias]]\n"+
		"| call | default |\n|---|---|\n| `f(**kw)` | `__all__ = []` |\n")
	entries := ws.Memory.Entries()
	if got, want := entries[0].Text, "Init is def __init__(self, **kwargs); compare with a == b, default items = [], test [[ -f x ]] and `x`; empty alias"; got != want {
		t.Errorf("Text = %q\nwant   %q", got, want)
	}
	row := entries[1]
	if row.Text != "f(**kw) — __all__ = []" || row.HeadedText() != "call: f(**kw); default: __all__ = []" ||
		!reflect.DeepEqual(row.Cells, []string{"f(**kw)", "__all__ = []"}) {
		t.Errorf("row: Text %q, HeadedText %q, Cells %q", row.Text, row.HeadedText(), row.Cells)
	}
}

// A bold label ending in a colon introduces its nested items: no "; "
// after the colon ("Stack:; Go" read as a leftover separator).
func TestMemory_BoldLabelWithNestedItems(t *testing.T) {
	ws := loadTxtar(t, "-- MEMORY.md --\n## A\n- **Stack:**\n  - Go\n  - SQLite\n- **Bold** first\n  - then this\n")
	entries := ws.Memory.Entries()
	if entries[0].Text != "Stack: Go; SQLite" || entries[1].Text != "Bold first; then this" {
		t.Errorf("texts %q / %q", entries[0].Text, entries[1].Text)
	}
}

func TestCodeSpans_AsCommonMarkReadsThem(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"a `b` c", []string{"`b`"}},
		{"``a ` b`` and `c`", []string{"``a ` b``", "`c`"}},
		{"an unclosed ` and `x`", []string{"` and `"}},
		{"``` `x` ``", []string{"`x`"}},
		{"none ``here`", nil},
	} {
		var got []string
		for _, sp := range codeSpans(c.in) {
			got = append(got, c.in[sp[0]:sp[1]])
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("codeSpans(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMemory_TextIsCleaned(t *testing.T) {
	ws := loadTxtar(t, "-- MEMORY.md --\n- **Bold** and `code` and [a link](https://example.com) and [[Note|alias]] and  extra   spaces #infra/hosts\n")
	e := ws.Memory.Entries()[0]
	if e.Text != "Bold and code and a link and alias and extra spaces #infra/hosts" {
		t.Errorf("Text = %q", e.Text)
	}
	if !reflect.DeepEqual(e.Tags, []string{"infra/hosts"}) {
		t.Errorf("Tags = %q", e.Tags)
	}
}
