package provenance

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// block is a run of lines Obsidian treats as one block: a list item (with
// its continuation lines), a paragraph, a blockquote or a table. Evidence
// is addressed by block because a block id names a block, not a line.
type block struct {
	Start, End int // 1-based, inclusive
	// Anchorable blocks can carry a "^id" at the end of their last line.
	// Tables, headings and code cannot without changing line numbers.
	Anchorable bool
	// ID is a block id already written at the end of the block, "" when none.
	ID   string
	Text string // the lines joined by spaces, markers removed
	// lines are the block's lines, markers removed, when the block is a
	// paragraph or quote of several lines: each is matched on its own (a
	// transcript is one paragraph of many statements).
	lines []string
}

// piece is the unit evidence is matched on: a whole block, or one line of
// a paragraph or quote block.
type piece struct {
	blk        int // index of the block in its file
	Start, End int
	Text       string
}

// piecesOf splits blocks into pieces.
func piecesOf(blocks []block) []piece {
	out := make([]piece, 0, len(blocks))
	for i, b := range blocks {
		if len(b.lines) < 2 {
			if b.Text != "" {
				out = append(out, piece{blk: i, Start: b.Start, End: b.End, Text: b.Text})
			}
			continue
		}
		for k, l := range b.lines {
			if l != "" {
				out = append(out, piece{blk: i, Start: b.Start + k, End: b.Start + k, Text: l})
			}
		}
	}
	return out
}

type blockKind int

const (
	bkNone blockKind = iota
	bkItem
	bkPara
	bkQuote
	bkTable
)

// fileBlocks splits Markdown content into blocks. Headings, blank lines,
// front matter, fenced code and HTML comments belong to no block. skip
// reports lines that must not be evidence (dream blocks inside a daily
// log, session metadata); it may be nil.
func fileBlocks(lines []string, skip func(line int) bool) []block {
	var out []block
	cur := block{}
	kind := bkNone
	var text strings.Builder
	var parts []string
	flush := func() {
		if kind != bkNone {
			cur.Text = strings.TrimSpace(text.String())
			if (kind == bkPara || kind == bkQuote) && len(parts) > 1 {
				cur.lines = parts
			}
			cur.Anchorable = kind != bkTable
			if cur.Anchorable {
				cur.ID, _ = mdline.BlockID(lines[cur.End-1])
			}
			out = append(out, cur)
		}
		kind = bkNone
		text.Reset()
		parts = nil
	}
	start := func(k blockKind, ln int, t string) {
		flush()
		kind = k
		cur = block{Start: ln, End: ln}
		text.WriteString(t)
		parts = append(parts, t)
	}
	extend := func(ln int, t string) {
		cur.End = ln
		if t != "" {
			text.WriteByte(' ')
			text.WriteString(t)
		}
		parts = append(parts, t)
	}
	var code mdline.Fence
	inComment := false
	for i := mdline.FrontMatterEnd(lines); i < len(lines); i++ {
		ln := i + 1
		raw := lines[i]
		t := strings.TrimSpace(raw)
		if code.Open() {
			code.Code(t) // closes the block at its closing fence
			continue
		}
		if inComment {
			if strings.Contains(t, "-->") {
				inComment = false
			}
			continue
		}
		if skip != nil && skip(ln) {
			flush()
			continue
		}
		switch {
		case t == "":
			flush()
		case code.Code(t): // a fence line opens a code block
			flush()
		case strings.HasPrefix(t, "<!--") && !strings.Contains(t, "-->"):
			flush()
			inComment = true
		case strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->"):
			flush()
		case headingLevel(t) > 0, mdline.ThematicBreak(t):
			flush()
		case mdline.TableRow(t):
			// A table row is its own evidence unit: one row, one fact.
			if txt := tableText(t); txt != "" {
				start(bkTable, ln, txt)
			}
			flush()
		case strings.HasPrefix(t, ">"):
			q := strings.TrimSpace(strings.TrimLeft(t, "> "))
			if kind == bkQuote {
				extend(ln, q)
			} else {
				start(bkQuote, ln, q)
			}
		case isListItem(t):
			it, _ := mdline.ListItem(t)
			start(bkItem, ln, it.Text)
		default:
			if kind == bkItem || kind == bkPara || kind == bkQuote {
				extend(ln, t)
			} else {
				start(bkPara, ln, t)
			}
		}
	}
	flush()
	return out
}

func headingLevel(t string) int {
	level, _ := mdline.Heading(t)
	return level
}

// isListItem reports a list item with text: a marker alone on its line
// starts no evidence.
func isListItem(t string) bool {
	it, ok := mdline.ListItem(t)
	return ok && it.Text != ""
}

// tableText is a table row's cells joined by " | ", without the empty
// cells and the alignment row's dashes.
func tableText(t string) string {
	var keep []string
	for _, c := range mdline.TableCells(t) {
		if c != "" && strings.Trim(c, ":- ") != "" {
			keep = append(keep, c)
		}
	}
	return strings.Join(keep, " | ")
}
