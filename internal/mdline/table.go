package mdline

import "strings"

// TableRow reports a pipe table row. Rows must start with '|': prose with
// a stray pipe is not a table.
func TableRow(trimmed string) bool {
	return len(trimmed) > 1 && trimmed[0] == '|'
}

// TableSeparator reports a header separator row ("|---|:--:|").
func TableSeparator(trimmed string) bool {
	if !TableRow(trimmed) {
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

// TableCells splits a row into trimmed cells, honouring "\|" escapes.
func TableCells(trimmed string) []string {
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
