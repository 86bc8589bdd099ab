package mdline

import "strings"

// Item is a list marker at the start of a trimmed line.
type Item struct {
	// MarkerLen is the length in bytes of the marker and the blanks after
	// it: where the item's content starts, which continuation lines are
	// indented to.
	MarkerLen int
	// Task is ' ' or 'x' for "[ ]" and "[x]" task items, else 0.
	Task byte
	// Text is the item's text after marker and checkbox.
	Text string
}

// ListItem recognises "- ", "* ", "+ ", "1. ", "1) " (up to nine digits),
// and a marker alone on its line.
func ListItem(trimmed string) (Item, bool) {
	if trimmed == "" {
		return Item{}, false
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
			return Item{}, false
		}
		n++
	default:
		return Item{}, false
	}
	if n < len(trimmed) && trimmed[n] != ' ' && trimmed[n] != '\t' {
		return Item{}, false
	}
	rest := strings.TrimLeft(trimmed[n:], " \t")
	it := Item{MarkerLen: len(trimmed) - len(rest), Text: rest}
	if len(rest) >= 3 && rest[0] == '[' && rest[2] == ']' && (len(rest) == 3 || rest[3] == ' ' || rest[3] == '\t') {
		switch rest[1] {
		case ' ':
			it.Task = ' '
		case 'x', 'X':
			it.Task = 'x'
		}
		if it.Task != 0 {
			it.Text = strings.TrimLeft(rest[3:], " \t")
		}
	}
	return it, true
}
