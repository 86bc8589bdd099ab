package secrets

import "strings"

// An assignment is "<key> <operator> <value>" around a keyword in the key:
// "api_token = …", "API token: …", `"client_secret": "…"`, "ADAFRUIT_KEY=…".
// assignment reads it the way gitleaks' generic and semi-generic rules do,
// without their regular expression:
//
//	KEYWORD [ \t\w.-]{0,20} [\s'"]{0,3} OPERATOR [`'"\s=]{0,5} VALUE
//
// with OPERATOR one of = > :{1,3}= || : => ?= and ",". Markdown adds four
// things gitleaks' source-code shapes lack, so they are accepted too:
// emphasis and code spans around the key or the value ("**API token:**
// `…`"), the full-width colon of CJK text ("令牌：…"), a table cell
// boundary ("| API token | … |") and the prose copula ("the API token is
// …"). It returns where the operator starts and the value starts, or -1.
func assignment(t string, kwEnd int) (op, value int) {
	lim := min(len(t), kwEnd+64)
	// The rest of the key: up to 20 of [ \t\w.-], in which a blank-bounded
	// "is" is the prose operator.
	j := kwEnd
	for j < lim && j-kwEnd < 20 && (isWord(t[j]) || t[j] == '.' || t[j] == '-' || isBlank(t[j])) {
		if j > kwEnd && isBlank(t[j-1]) && (strings.HasPrefix(t[j:], "is ") || strings.HasPrefix(t[j:], "is\t")) {
			return j, skipBlanks(t, j+2)
		}
		j++
	}
	for n := 0; n < 4 && j < lim && (isSpace(t[j]) || t[j] == '\'' || t[j] == '"' || t[j] == '*' || t[j] == '`'); n++ {
		j++
	}
	op = j
	switch {
	case j >= lim:
		return -1, -1
	case strings.HasPrefix(t[j:], "=>"), strings.HasPrefix(t[j:], "?="), strings.HasPrefix(t[j:], "||"):
		j += 2
	case t[j] == ':':
		k := span(t[:min(lim, j+3)], j, func(c byte) bool { return c == ':' })
		if k < lim && t[k] == '=' {
			k++
		}
		j = k
	case t[j] == '=' || t[j] == '>' || t[j] == ',':
		j++
	case strings.HasPrefix(t[j:], "："):
		j += len("：")
	case strings.HasPrefix(t[j:], "是"), strings.HasPrefix(t[j:], "为"), strings.HasPrefix(t[j:], "為"):
		j += 3
	case t[j] == '|' && tableRow(t, j):
		j++
	default:
		return -1, -1
	}
	for n := 0; n < 5 && j < len(t); n++ {
		switch {
		case isSpace(t[j]) || strings.IndexByte("`'\"=*", t[j]) >= 0:
			j++
		case strings.HasPrefix(t[j:], "\u3000"):
			j += len("\u3000")
		default:
			return op, j
		}
	}
	return op, j
}

// tableRow reports whether the '|' at i is a cell boundary of a Markdown
// table row: the row starts with '|' after its container markup.
func tableRow(t string, i int) bool {
	ls, _ := lineStart(t, i, 256)
	line := t[ls:i]
	return strings.HasPrefix(line[containerPrefix(line):], "|")
}

// valueEnd reports whether the value ending at e is properly ended: by the
// end of the text or line, a blank, a quote or backtick, ';' (gitleaks'
// terminators) or, in Markdown, emphasis, a table cell, a closing bracket,
// a comma, CJK punctuation or a sentence's full stop.
func valueEnd(t string, e int) bool {
	if e >= len(t) {
		return true
	}
	switch c := t[e]; {
	case isSpace(c) || strings.IndexByte("`'\";*|,)]}<&", c) >= 0:
		return true
	case c == '.':
		return e+1 == len(t) || isSpace(t[e+1])
	case c == '\\':
		return e+1 < len(t) && (t[e+1] == 'n' || t[e+1] == 'r')
	case c >= 0x80:
		return cjkPunct(t[e:])
	}
	return false
}

// cjkPunct reports whether s starts with CJK punctuation or a full-width
// form ("，", "。", "）", "：").
func cjkPunct(s string) bool {
	if len(s) < 3 {
		return false
	}
	r := rune(s[0]&0x0f)<<12 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f)
	return s[0]&0xf0 == 0xe0 && (r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xff65)
}
