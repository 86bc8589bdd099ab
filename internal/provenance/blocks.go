package provenance

import (
	"strings"
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
				cur.ID = trailingID(lines[cur.End-1])
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
	fence := ""
	inComment := false
	i0 := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for j := 1; j < len(lines); j++ {
			if t := strings.TrimSpace(lines[j]); t == "---" || t == "..." {
				i0 = j + 1
				break
			}
		}
	}
	for i := i0; i < len(lines); i++ {
		ln := i + 1
		raw := lines[i]
		t := strings.TrimSpace(raw)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
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
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			flush()
			fence = t[:3]
		case strings.HasPrefix(t, "<!--") && !strings.Contains(t, "-->"):
			flush()
			inComment = true
		case strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->"):
			flush()
		case isHeading(t), isRule(t):
			flush()
		case strings.HasPrefix(t, "|"):
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
			start(bkItem, ln, stripListMarker(t))
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

func isHeading(t string) bool {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	return n > 0 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

func isRule(t string) bool {
	if len(t) < 3 {
		return false
	}
	c := t[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != c && t[i] != ' ' {
			return false
		}
	}
	return true
}

// isListItem reports "- x", "* x", "+ x", "1. x", "1) x".
func isListItem(t string) bool {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && '0' <= t[i] && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && (t[i+1] == ' ' || t[i+1] == '\t')
}

// stripListMarker removes the list marker and a task checkbox.
func stripListMarker(t string) string {
	if t[0] == '-' || t[0] == '*' || t[0] == '+' {
		t = t[1:]
	} else {
		i := strings.IndexAny(t, ".)")
		t = t[i+1:]
	}
	t = strings.TrimSpace(t)
	if len(t) >= 3 && t[0] == '[' && t[2] == ']' && strings.ContainsRune(" xX", rune(t[1])) {
		t = strings.TrimSpace(t[3:])
	}
	return t
}

func tableText(t string) string {
	cells := strings.Split(strings.Trim(t, "|"), "|")
	var keep []string
	for _, c := range cells {
		c = strings.TrimSpace(c)
		if c != "" && strings.Trim(c, ":- ") != "" {
			keep = append(keep, c)
		}
	}
	return strings.Join(keep, " | ")
}

// trailingID returns the "^id" at the end of a line, "" when none. It
// follows the rule of the markdown package: the caret starts the line or
// follows a blank, and the id is letters, digits and dashes.
func trailingID(line string) string {
	t := strings.TrimRight(line, " \t")
	i := len(t)
	for i > 0 && isIDByte(t[i-1]) {
		i--
	}
	if i == len(t) || i == 0 || t[i-1] != '^' {
		return ""
	}
	if i-1 > 0 && t[i-2] != ' ' && t[i-2] != '\t' {
		return ""
	}
	return t[i:]
}

func isIDByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-'
}

// splitLines splits content into lines without their "\n".
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}
