package secrets

import "strings"

// A credential in a Markdown table is often named by its column's header
// rather than on its own row:
//
//	| app | App ID | App Secret |
//	|---|---|---|
//	| bot | cli_a5f3c2d1e4b6a7c8 | Xq9fK2mLp4Rt7vWz… |
//
// The row alone names nothing, so a line scanner passes it. Where a label
// (secret, token, key, password, 密钥, 密码, Passwort …) ends a header
// cell, that is a row followed by the table's delimiter row, each body
// cell of its column is read as the label's value: vetted as a password
// under a password label, as gitleaks' generic-api-key value under the
// others. A label in a body row's own first cell ("| App Secret | … |",
// "| password | … |") is read by the generic and password detectors, with
// the cell boundary as the separator (assign.go, password.go).

// tableTriggers registers the column detector on every label keyword.
func tableTriggers() []trigger {
	var ts []trigger
	column := func(password bool) func(*scanner, int, int) bool {
		return func(s *scanner, at, end int) bool { return tableColumn(s, at, end, password) }
	}
	for _, k := range genericKeywords {
		ts = append(ts, trigger{k, column(false)})
	}
	for _, k := range cjkSecretLabels {
		ts = append(ts, trigger{k, column(false)})
	}
	for _, k := range []string{"password", "passwd", "passphrase", "passcode", "passwort", "pwd"} {
		ts = append(ts, trigger{k, column(true)})
	}
	for _, k := range cjkPasswordLabels {
		ts = append(ts, trigger{k, column(true)})
	}
	for _, l := range foreignPasswordLabels {
		for _, k := range caseVariants(l.label) {
			ts = append(ts, trigger{k, column(true)})
		}
	}
	return ts
}

// maxTableRows bounds the body rows read under one header.
const maxTableRows = 512

// tableColumn looks at the label keyword at [at, end): when it ends a
// header cell, the cells of its column are vetted as its values.
func tableColumn(s *scanner, at, end int, password bool) bool {
	t := s.t
	// The cheap test first: the line after the keyword's must be a
	// delimiter row. Every keyword of a line shares the answer.
	if at < s.notHeader {
		return false
	}
	le := lineEnd(t, at, maxLine)
	if le >= len(t) || !delimiterRow(t[le+1:lineEnd(t, le+1, maxLine)]) {
		s.notHeader = le
		return false
	}
	ls, _ := lineStart(t, at, maxLine)
	col, cs, ce := cellAt(t, ls, le, at)
	if col < 0 || !labelEndsCell(t, cs, ce, at, end, password) {
		return false
	}
	row := lineEnd(t, le+1, maxLine) // the end of the delimiter row
	for n := 0; n < maxTableRows && row < len(t); n++ {
		rs := row + 1
		re := lineEnd(t, rs, maxLine)
		if !tableLine(t[rs:re]) {
			return false
		}
		row = re
		vs, ve := cellOf(t, rs, re, col)
		if vs < 0 {
			continue
		}
		vs, ve, quoted := unwrapCell(t, vs, ve)
		if vs >= ve {
			continue
		}
		v := t[vs:ve]
		if password && columnPassword(v, quoted) {
			if s.add(vs, ve, KindPassword, "table-column") {
				return true
			}
		} else if !password && columnSecret(v) {
			if s.add(vs, ve, KindSecret, "table-column") {
				return true
			}
		}
	}
	return false
}

// delimiterRow reports whether line is a table's delimiter row ("|---|:-:|",
// "--- | ---"), after its container markup.
func delimiterRow(line string) bool {
	line = line[containerPrefix(line):]
	if line == "" || line[0] != '|' && line[0] != '-' && line[0] != ':' {
		return false // most lines: decided by their first byte
	}
	dash, pipe := false, false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '-':
			dash = true
		case '|':
			pipe = true
		case ':', ' ', '\t', '\r':
		default:
			return false
		}
	}
	return dash && (pipe || line[0] == '-')
}

// tableLine reports whether line is a row of a table: it holds a cell
// boundary after its container markup.
func tableLine(line string) bool {
	line = strings.TrimSpace(line[containerPrefix(line):])
	return line != "" && strings.IndexByte(line, '|') >= 0
}

// cellBounds returns the offsets of the cell boundaries ('|' not escaped
// as "\|") of the row t[ls:le].
func cellBounds(t string, ls, le int) []int {
	var out []int
	for i := ls; i < le; i++ {
		if t[i] == '|' && (i == ls || t[i-1] != '\\') {
			out = append(out, i)
		}
	}
	return out
}

// rowCells returns where the row t[ls:le]'s cells start (the byte after
// each cell's opening boundary, or the row's content for a row written
// without a leading '|') and end.
func rowCells(t string, ls, le int) (starts, ends []int) {
	bs := cellBounds(t, ls, le)
	if len(bs) == 0 {
		return nil, nil
	}
	cs := ls + containerPrefix(t[ls:le])
	cs = skipBlanks(t, cs)
	if cs < le && t[cs] != '|' {
		starts, ends = append(starts, cs), append(ends, bs[0])
	}
	for k, b := range bs {
		e := le
		if k+1 < len(bs) {
			e = bs[k+1]
		}
		if k+1 == len(bs) && strings.TrimSpace(t[b+1:le]) == "" {
			break // the closing boundary
		}
		starts, ends = append(starts, b+1), append(ends, e)
	}
	return starts, ends
}

// cellAt returns the index and bounds of the cell of row t[ls:le] that
// holds offset at; col is -1 when none does.
func cellAt(t string, ls, le, at int) (col, start, end int) {
	starts, ends := rowCells(t, ls, le)
	for k := range starts {
		if starts[k] <= at && at < ends[k] {
			return k, starts[k], ends[k]
		}
	}
	return -1, 0, 0
}

// cellOf returns the bounds of cell col of row t[ls:le], or -1. It reads
// the row as rowCells does, without building its lists: it runs on every
// body row of a table.
func cellOf(t string, ls, le, col int) (start, end int) {
	s := skipBlanks(t[:le], ls+containerPrefix(t[ls:le]))
	if s < le && t[s] == '|' {
		s++
	}
	for k := 0; ; k++ {
		e := s
		for e < le && (t[e] != '|' || e > ls && t[e-1] == '\\') {
			e++
		}
		if e == le && k > 0 && strings.TrimSpace(t[s:le]) == "" {
			return -1, -1 // after the closing boundary
		}
		if k == col {
			return s, e
		}
		if e >= le {
			return -1, -1
		}
		s = e + 1
	}
}

// unwrapCell trims a cell to its value: blanks, emphasis, and a code span
// or quotes around it (quoted is then set).
func unwrapCell(t string, s, e int) (start, end int, quoted bool) {
	for s < e && (isBlank(t[s]) || t[s] == '*') {
		s++
	}
	for e > s && (isBlank(t[e-1]) || t[e-1] == '*' || t[e-1] == '\r') {
		e--
	}
	if e-s >= 2 && strings.IndexByte("`\"'", t[s]) >= 0 && t[e-1] == t[s] {
		return s + 1, e - 1, true
	}
	return s, e, false
}

// labelEndsCell reports whether the keyword at [at, end) is the label a
// header cell t[cs:ce] ends with: "App Secret", "AppSecret", "API key",
// "token", "密钥", "Password (root)"; not "Keyboard", "Tokens", "Public
// key" or "Secret name".
func labelEndsCell(t string, cs, ce, at, end int, password bool) bool {
	rest := strings.Trim(t[end:ce], " \t*`_:：")
	if p := strings.IndexByte(rest, '('); p == 0 && strings.HasSuffix(rest, ")") {
		rest = ""
	}
	if rest != "" {
		return false
	}
	if at > cs && t[at] < 0x80 && isAlnum(t[at-1]) && !(isLower(t[at-1]) && isUpper(t[at])) {
		return false // "Monkey", "passkey"; but "AppSecret"
	}
	if password {
		return true
	}
	if kw := t[at:end]; len(kw) == 3 && kw[1]|0x20 == 'p' && kw != "api" && kw != "Api" && kw != "API" {
		return false // gitleaks: (?-i:[Aa]pi|API)
	}
	label := strings.Map(func(r rune) rune {
		if r == ' ' {
			return '_'
		}
		return r
	}, strings.Trim(t[cs:end], " \t*`"))
	return !genericAllow().MatchString(label)
}

// columnSecret vets a cell under a secret, token or key column as
// gitleaks' generic-api-key vets a value.
func columnSecret(v string) bool {
	if len(v) < 10 || len(v) > 4096 || lettersOnly(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isWord(c) && strings.IndexByte(".=-+/", c) < 0 {
			return false // a value is one token: no blanks, URLs or prose
		}
	}
	return entropy(v) > 3.5 && !genericStopwordsAuto().contains(v) && !allowed(v) && !notAPassword(v, false)
}

// columnPassword vets a cell under a password column: one word that is not
// a placeholder or a pointer (notAPassword), and not a plain word or a
// short number, which in a table are descriptions ("required", "same").
func columnPassword(v string, quoted bool) bool {
	if strings.ContainsAny(v, " \t") && !quoted || !hasASCIIAlnum(v) || notAPassword(v, quoted) {
		return false
	}
	n := len([]rune(v))
	switch {
	case n < 4, allLetters(v), allDigits(v) && n < 6:
		return false
	}
	return true
}
