package workspace

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The helpers below recognise the Markdown block structure line by line,
// with prefix checks only: they run on every line of every parsed file.

// splitLines splits normalised content into lines without their "\n". A
// final newline does not start an extra empty line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// indentOf returns the indentation width of s (a tab counts as 4 columns)
// and the byte offset of its first non-blank character.
func indentOf(s string) (width, off int) {
	for off < len(s) {
		switch s[off] {
		case ' ':
			width++
		case '\t':
			width += 4 - width%4
		default:
			return width, off
		}
		off++
	}
	return width, off
}

// headingOf returns the level and text of an ATX heading ("## Text ##"), or
// 0 when trimmed (the line without leading blanks) is no heading. "#tag" is
// a tag, not a heading.
func headingOf(trimmed string) (int, string) {
	n := 0
	for n < len(trimmed) && trimmed[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0, ""
	}
	if n < len(trimmed) && trimmed[n] != ' ' && trimmed[n] != '\t' {
		return 0, ""
	}
	text := strings.TrimSpace(trimmed[n:])
	// A closing sequence of #s preceded by a space is not part of the text.
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		text = strings.TrimSpace(t)
	}
	return n, text
}

// isThematicBreak reports a line of three or more '-', '*' or '_' (spaces
// allowed between).
func isThematicBreak(trimmed string) bool {
	if len(trimmed) < 3 {
		return false
	}
	c := trimmed[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(trimmed); i++ {
		switch trimmed[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// fenceOf returns the fence character and length when trimmed opens or
// closes a fenced code block ("```go", "~~~").
func fenceOf(trimmed string) (byte, int) {
	if len(trimmed) < 3 || (trimmed[0] != '`' && trimmed[0] != '~') {
		return 0, 0
	}
	c := trimmed[0]
	n := 0
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0
	}
	if c == '`' && strings.IndexByte(trimmed[n:], '`') >= 0 {
		return 0, 0 // an inline code span, not a fence
	}
	return c, n
}

// keySeparator finds where the key of a "key: value" text ends: at the
// first of the ASCII bytes in ascii or of the full-width colon '：', which
// Chinese text uses. It returns the separator's index and width in bytes;
// the index is -1 when there is none.
func keySeparator(s, ascii string) (at, width int) {
	k := strings.IndexAny(s, ascii)
	if kw := strings.Index(s, "："); kw >= 0 && (k < 0 || kw < k) {
		return kw, len("：")
	}
	return k, 1
}

// fenceTracker follows fenced code blocks through a file read line by line,
// so that headings and markers inside code are not taken for structure. A
// block closes at the next fence of the same character.
type fenceTracker struct {
	open byte // the fence character of the open block, or 0
}

// skip reports whether the trimmed line is a fence line or lies inside a
// fenced code block, updating the tracker as it goes.
func (f *fenceTracker) skip(trimmed string) bool {
	if c, _ := fenceOf(trimmed); c != 0 {
		if f.open == 0 {
			f.open = c
		} else if c == f.open {
			f.open = 0
		}
		return true
	}
	return f.open != 0
}

// listItem describes a list marker at the start of a (left-trimmed) line.
type listItem struct {
	markerLen int    // bytes of marker and the following blank
	task      byte   // ' ' or 'x' for "[ ]" / "[x]" task items, else 0
	rest      string // the item text after marker and checkbox
}

// listItemOf recognises "- ", "* ", "+ ", "1. ", "1) " (and a marker alone
// on its line).
func listItemOf(trimmed string) (listItem, bool) {
	if trimmed == "" {
		return listItem{}, false
	}
	n := 0
	switch c := trimmed[0]; {
	case c == '-' || c == '*' || c == '+':
		n = 1
	case c >= '0' && c <= '9':
		for n < len(trimmed) && n < 9 && trimmed[n] >= '0' && trimmed[n] <= '9' {
			n++
		}
		if n >= len(trimmed) || (trimmed[n] != '.' && trimmed[n] != ')') {
			return listItem{}, false
		}
		n++
	default:
		return listItem{}, false
	}
	if n < len(trimmed) && trimmed[n] != ' ' && trimmed[n] != '\t' {
		return listItem{}, false
	}
	rest := strings.TrimLeft(trimmed[n:], " \t")
	li := listItem{markerLen: len(trimmed) - len(rest), rest: rest}
	if len(rest) >= 3 && rest[0] == '[' && rest[2] == ']' && (len(rest) == 3 || rest[3] == ' ' || rest[3] == '\t') {
		switch rest[1] {
		case ' ':
			li.task = ' '
		case 'x', 'X':
			li.task = 'x'
		}
		if li.task != 0 {
			li.rest = strings.TrimLeft(rest[3:], " \t")
		}
	}
	return li, true
}

// isTableRow reports a pipe table row. Rows must start with '|': prose
// with a stray pipe is not a table.
func isTableRow(trimmed string) bool {
	return len(trimmed) > 1 && trimmed[0] == '|'
}

// isTableSeparator reports a header separator row ("|---|:--:|").
func isTableSeparator(trimmed string) bool {
	if !isTableRow(trimmed) {
		return false
	}
	dash := false
	for i := 0; i < len(trimmed); i++ {
		switch trimmed[i] {
		case '-':
			dash = true
		case '|', ':', ' ', '\t':
		default:
			return false
		}
	}
	return dash
}

// tableCells splits a row into trimmed cells, honouring "\|" escapes.
func tableCells(trimmed string) []string {
	s := strings.TrimSpace(trimmed)
	s = strings.TrimPrefix(s, "|")
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, "\\|") {
		s = s[:len(s)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '|':
			cur.WriteByte('|')
			i++
		case s[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// quoteText strips one level of blockquote marker, reporting whether the
// line was a quote.
func quoteText(trimmed string) (string, bool) {
	if !strings.HasPrefix(trimmed, ">") {
		return "", false
	}
	s := trimmed[1:]
	if strings.HasPrefix(s, " ") {
		s = s[1:]
	}
	return s, true
}

// frontMatterEnd returns the number of lines taken by a YAML front matter
// block at the start of lines, 0 when there is none.
func frontMatterEnd(lines []string) int {
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t") != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(lines[i], " \t"); t == "---" || t == "..." {
			return i + 1
		}
	}
	return 0
}

// collapseSpace collapses runs of white space into single spaces and trims.
func collapseSpace(s string) string {
	need := false
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			if prevSpace {
				need = true
				break
			}
			if c != ' ' {
				need = true
				break
			}
			prevSpace = true
			continue
		}
		if c >= utf8.RuneSelf {
			need = true // possible Unicode spaces: take the slow path
			break
		}
		prevSpace = false
	}
	if !need && !strings.HasSuffix(s, " ") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// sectionStack tracks the heading path above the current line. The first
// heading of a file, when it is an H1, is the file's title and is left out
// of paths: entries under "# MEMORY" / "## People" sit in "People".
type sectionStack struct {
	titleSeen bool
	skipTitle bool
	levels    []int
	texts     []string
}

func (st *sectionStack) push(level int, text string) {
	if !st.titleSeen {
		st.titleSeen = true
		if level == 1 {
			st.skipTitle = true
			return
		}
	}
	for len(st.levels) > 0 && st.levels[len(st.levels)-1] >= level {
		st.levels = st.levels[:len(st.levels)-1]
		st.texts = st.texts[:len(st.texts)-1]
	}
	st.levels = append(st.levels, level)
	st.texts = append(st.texts, text)
}

func (st *sectionStack) path() string { return strings.Join(st.texts, " / ") }

// headingText cleans a heading for display and paths: emphasis and link
// syntax removed.
func headingText(s string) string {
	return collapseSpace(stripInline(s))
}
