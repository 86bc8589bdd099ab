package workspace

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stripInline reduces inline Markdown to its text: wikilinks and links to
// their display text, images to their alt text, autolinks to their URL, and
// emphasis, strikethrough, highlight and code markers removed.
func stripInline(s string) string {
	if !strings.ContainsAny(s, "[*_~=`<") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '!' && strings.HasPrefix(s[i+1:], "[["):
			i++ // embed: keep the target name
		case c == '[' && strings.HasPrefix(s[i:], "[["):
			end := strings.Index(s[i+2:], "]]")
			if end < 0 {
				b.WriteByte(c)
				i++
				continue
			}
			inner := s[i+2 : i+2+end]
			b.WriteString(wikiDisplay(inner))
			i += 2 + end + 2
		case c == '[' || (c == '!' && i+1 < len(s) && s[i+1] == '['):
			start := i
			if c == '!' {
				start++
			}
			text, consumed, ok := mdLinkAt(s[start:])
			if !ok {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(text)
			i = start + consumed
		case c == '<' && (strings.HasPrefix(s[i:], "<http://") || strings.HasPrefix(s[i:], "<https://")):
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(s[i+1 : i+end])
			i += end + 1
		case (c == '*' || c == '_' || c == '~' || c == '=') && i+1 < len(s) && s[i+1] == c:
			i += 2
		case c == '`':
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// wikiDisplay is what Obsidian shows for [[inner]]: the alias, else the
// target without its folder-less fragment marker.
func wikiDisplay(inner string) string {
	if k := strings.IndexByte(inner, '|'); k >= 0 {
		return strings.TrimSpace(inner[k+1:])
	}
	if k := strings.IndexByte(inner, '#'); k >= 0 {
		t, frag := inner[:k], strings.TrimLeft(inner[k+1:], "^")
		if t == "" {
			return frag
		}
		return strings.TrimSpace(t)
	}
	return strings.TrimSpace(inner)
}

// mdLinkAt parses "[text](dest)" at the start of s.
func mdLinkAt(s string) (text string, consumed int, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return "", 0, false
	}
	depth := 0
	close := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				close = i
			}
		}
		if close >= 0 {
			break
		}
	}
	if close < 0 || close+1 >= len(s) || s[close+1] != '(' {
		return "", 0, false
	}
	end := strings.IndexByte(s[close+1:], ')')
	if end < 0 {
		return "", 0, false
	}
	return s[1:close], close + 1 + end + 1, true
}

// mdLinkDest returns the destination of "[text](dest "title")".
func mdLinkDest(s string) (text, dest string, consumed int, ok bool) {
	text, consumed, ok = mdLinkAt(s)
	if !ok {
		return
	}
	inner := s[len(text)+3 : consumed-1]
	inner = strings.TrimSpace(inner)
	if strings.HasPrefix(inner, "<") {
		if k := strings.IndexByte(inner, '>'); k > 0 {
			inner = inner[1:k]
		}
	} else if k := strings.IndexAny(inner, " \t"); k >= 0 {
		inner = inner[:k]
	}
	return text, inner, consumed, true
}

// indexFold is strings.Index for an ASCII lower-case needle, ignoring
// ASCII case in s.
func indexFold(s, lower string) int {
	n := len(lower)
	if n == 0 {
		return 0
	}
	first := lower[0]
	for i := 0; i+n <= len(s); i++ {
		c := s[i]
		if c|0x20 != first && c != first {
			continue
		}
		match := true
		for j := 1; j < n; j++ {
			d := s[i+j]
			if 'A' <= d && d <= 'Z' {
				d += 'a' - 'A'
			}
			if d != lower[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; lower is
// lower-case.
func hasPrefixFold(s, lower string) bool {
	return len(s) >= len(lower) && indexFold(s[:len(lower)], lower) == 0
}

// wordBoundaryBefore reports whether s[i] starts a word: it is at the start
// or follows a character that is not a letter or digit.
func wordBoundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
}

// memoryTypes maps the written forms of the four memory types.
var memoryTypes = map[string]string{
	"user": "user", "feedback": "feedback", "project": "project", "reference": "reference",
	"ref": "reference",
	"用户":  "user", "反馈": "feedback", "项目": "project", "参考": "reference",
}

// takeTypeTags removes "[feedback]"-style tags, "#type/x" and "type: x"
// from s, returning the first type found and s without them.
func takeTypeTags(s string) (string, string) {
	typ := ""
	// [type]
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '[')
		if k < 0 {
			break
		}
		k += i
		end := strings.IndexByte(s[k:], ']')
		if end < 0 || end > 16 || strings.HasPrefix(s[k:], "[[") {
			i = k + 1
			continue
		}
		word := strings.ToLower(strings.TrimSpace(s[k+1 : k+end]))
		if t, ok := memoryTypes[word]; ok && (k+end+1 >= len(s) || s[k+end+1] != '(') {
			if typ == "" {
				typ = t
			}
			s = s[:k] + s[k+end+1:]
			i = k
			continue
		}
		i = k + 1
	}
	// #type/x
	for {
		k := strings.Index(s, "#type/")
		if k < 0 || !wordBoundaryBefore(s, k) {
			break
		}
		j := k + len("#type/")
		e := j
		for e < len(s) && isTagByte(s[e]) {
			e++
		}
		if t, ok := memoryTypes[strings.ToLower(s[j:e])]; ok && typ == "" {
			typ = t
		}
		s = s[:k] + s[e:]
	}
	// type: x
	for from := 0; ; {
		k := indexFold(s[from:], "type")
		if k < 0 {
			break
		}
		k += from
		from = k + 4
		if !wordBoundaryBefore(s, k) {
			continue
		}
		j := k + 4
		if j < len(s) && (s[j] == ':' || s[j] == '=') {
			j++
		} else if strings.HasPrefix(s[j:], "：") {
			j += len("：")
		} else {
			continue
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		e := j
		for e < len(s) && isTagByte(s[e]) && s[e] != '/' {
			e++
		}
		t, ok := memoryTypes[strings.ToLower(s[j:e])]
		if !ok {
			continue
		}
		if typ == "" {
			typ = t
		}
		s = s[:k] + s[e:]
		from = k
	}
	return typ, s
}

func isTagByte(c byte) bool {
	return c == '_' || c == '-' || c == '/' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= utf8.RuneSelf
}

// findTags returns the inline #tags of s (without '#'), in order,
// deduplicated. Code spans and link targets are not searched.
func findTags(s string) []string {
	if strings.IndexByte(s, '#') < 0 {
		return nil
	}
	if strings.IndexByte(s, '`') >= 0 {
		s = blankCodeSpans(s)
	}
	var tags []string
	for i := 0; i < len(s); i++ {
		if s[i] != '#' {
			continue
		}
		if i > 0 {
			p := s[i-1]
			if p != ' ' && p != '\t' && p != '(' && p != ',' && p != '>' {
				r, _ := utf8.DecodeLastRuneInString(s[:i])
				if !unicode.IsSpace(r) && !unicode.IsPunct(r) || p == '/' || p == '#' || p == ']' || p == '.' {
					continue
				}
			}
		}
		j := i + 1
		digitsOnly := true
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == '_' || r == '-' || r == '/' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
				if !unicode.IsDigit(r) {
					digitsOnly = false
				}
				j += size
				continue
			}
			break
		}
		tag := strings.TrimRight(s[i+1:j], "/-")
		if tag == "" || digitsOnly {
			continue
		}
		dup := false
		for _, t := range tags {
			if t == tag {
				dup = true
				break
			}
		}
		if !dup {
			tags = append(tags, tag)
		}
		i = j - 1
	}
	return tags
}

// blankCodeSpans replaces the content of `code spans` with spaces, keeping
// byte offsets.
func blankCodeSpans(s string) string {
	b := []byte(s)
	in := false
	for i := range b {
		if b[i] == '`' {
			in = !in
			continue
		}
		if in {
			b[i] = ' '
		}
	}
	return string(b)
}

// lifecycle maps written lifecycle words to Entry.Status values.
var lifecycle = map[string]string{
	"done": "done", "closed": "closed", "archived": "archived", "superseded": "superseded",
	"active": "active", "open": "open", "resolved": "resolved", "completed": "done", "complete": "done",
	"cancelled": "cancelled", "canceled": "cancelled", "obsolete": "obsolete", "deprecated": "deprecated",
	"snoozed": "snoozed", "snowed": "snoozed", "paused": "paused", "blocked": "blocked", "wontfix": "wontfix",
	"expired": "expired", "lapsed": "expired", "pending": "pending", "todo": "open", "staged": "staged",
	"promoted": "promoted", "contested": "contested", "current": "current",
	"已完成": "done", "完成": "done", "已关闭": "closed", "已归档": "archived", "已废弃": "superseded", "已取消": "cancelled",
}

// takeStatusField removes "status: x" from s and returns x (lower-case).
func takeStatusField(s string) (string, string) {
	for from := 0; ; {
		k := indexFold(s[from:], "status")
		if k < 0 {
			return "", s
		}
		k += from
		from = k + 6
		if !wordBoundaryBefore(s, k) {
			continue
		}
		j := k + 6
		if j < len(s) && (s[j] == ':' || s[j] == '=') {
			j++
		} else if strings.HasPrefix(s[j:], "：") {
			j += len("：")
		} else {
			continue
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		e := j
		for e < len(s) && (isTagByte(s[e]) && s[e] != '/') {
			e++
		}
		w := strings.ToLower(strings.Trim(s[j:e], "*_-"))
		if w == "" {
			continue
		}
		st := w
		if v, ok := lifecycle[w]; ok {
			st = v
		}
		return st, s[:k] + s[e:]
	}
}

// lifecycleWord finds a lifecycle marker written in the text: "✅", a
// bracketed "(done)" / "[closed 2026-04-01]", a bold "**done**", a leading
// "DONE:", a word after a dash, arrow or full stop ("— done 2026-10-20",
// "→ superseded", ". Superseded 2026-10-21 by ..."), "#status/done" or "#done", or a Chinese marker ("已完成").
func lifecycleWord(s string) string {
	if strings.Contains(s, "✅") || strings.Contains(s, "✔") {
		return "done"
	}
	if k := strings.Index(s, "#status/"); k >= 0 {
		j := k + len("#status/")
		e := j
		for e < len(s) && isTagByte(s[e]) {
			e++
		}
		if v, ok := lifecycle[strings.ToLower(s[j:e])]; ok {
			return v
		}
	}
	for _, w := range []string{"#done", "#closed", "#archived", "#superseded"} {
		if k := strings.Index(s, w); k >= 0 && (k+len(w) == len(s) || !isTagByte(s[k+len(w)])) {
			return w[1:]
		}
	}
	for _, open := range []string{"(", "[", "（", "【"} {
		for from := 0; ; {
			k := strings.Index(s[from:], open)
			if k < 0 {
				break
			}
			k += from + len(open)
			from = k
			if v := firstLifecycleWord(s[k:]); v != "" {
				return v
			}
		}
	}
	if strings.Contains(s, "**") {
		for w, st := range finalStates {
			if indexFold(s, "**"+w+"**") >= 0 {
				return st
			}
		}
	}
	if v, n := leadingWord(s); v != "" && n < len(s) {
		rest := strings.TrimLeft(s[n:], " ")
		if strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "：") {
			if st, ok := finalStates[strings.ToLower(v)]; ok {
				return st
			}
		}
	}
	for _, sep := range []string{"—", "–", " - ", "→", "->", ": ", "|", ". "} {
		for from := 0; ; {
			k := strings.Index(s[from:], sep)
			if k < 0 {
				break
			}
			from = k + from + len(sep)
			rest := strings.TrimLeft(s[from:], " *_")
			w, n := leadingWord(rest)
			st, ok := finalStates[strings.ToLower(w)]
			if !ok {
				continue
			}
			after := strings.TrimLeft(rest[n:], "*_")
			if after == "" || strings.ContainsRune(".,;:!)]）", rune(after[0])) ||
				after[0] == ' ' && len(after) > 1 && (isDigit(after[1]) || after[1] == '(') {
				return st
			}
		}
	}
	for _, w := range []string{"已完成", "已关闭", "已归档", "已废弃", "已取消"} {
		if strings.Contains(s, w) {
			return lifecycle[w]
		}
	}
	return ""
}

// finalStates are the lifecycle words that mark work as finished or
// replaced; they are recognised even outside brackets, after a dash.
var finalStates = map[string]string{
	"done": "done", "closed": "closed", "archived": "archived", "superseded": "superseded",
	"resolved": "resolved", "completed": "done", "cancelled": "cancelled", "canceled": "cancelled",
	"obsolete": "obsolete", "deprecated": "deprecated", "expired": "expired", "lapsed": "expired",
	"wontfix": "wontfix", "snoozed": "snoozed", "snowed": "snoozed",
}

// firstLifecycleWord returns the lifecycle status when s starts with a
// lifecycle word followed by a closing bracket, a colon or a date:
// "done)", "closed 2026-04-01]". "(open source)" is not a status.
func firstLifecycleWord(s string) string {
	w, n := leadingWord(s)
	if w == "" {
		return ""
	}
	st, ok := lifecycle[strings.ToLower(w)]
	if !ok {
		return ""
	}
	if n >= len(s) {
		return ""
	}
	switch s[n] {
	case ')', ']', ':':
		return st
	case ' ':
		// "(closed 2026-04-01)"
		if n+1 < len(s) && s[n+1] >= '0' && s[n+1] <= '9' {
			return st
		}
		return ""
	}
	if strings.HasPrefix(s[n:], "）") || strings.HasPrefix(s[n:], "】") || strings.HasPrefix(s[n:], "：") {
		return st
	}
	return ""
}

// leadingWord returns the run of letters at the start of s.
func leadingWord(s string) (string, int) {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !unicode.IsLetter(r) {
			break
		}
		n += size
	}
	return s[:n], n
}

// isStruckThrough reports text wholly wrapped in ~~...~~.
func isStruckThrough(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) > 4 && strings.HasPrefix(s, "~~") && strings.HasSuffix(s, "~~") && !strings.Contains(s[2:len(s)-2], "~~")
}

// tidyText collapses white space and removes brackets and separators left
// empty by metadata removal.
func tidyText(s string) string {
	s = collapseSpace(s)
	for _, empty := range []string{"()", "[]", "（）", "( )", "[ ]"} {
		if strings.Contains(s, empty) {
			s = strings.ReplaceAll(s, empty, "")
			s = collapseSpace(s)
		}
	}
	s = strings.TrimRight(s, " —–-|,;·")
	s = strings.TrimLeft(s, " —–|,;·:")
	return strings.TrimSpace(s)
}
