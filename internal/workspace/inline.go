package workspace

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Inline constructs are looked for within a bounded window, so that no
// line, however long and however many brackets it holds, costs more than
// linear time.
const (
	maxLinkLen   = 1024 // [[target|alias]], [text](dest)
	maxBracket   = 512  // [score=... source=...]
	maxTagWindow = 20   // [feedback]
)

// window is s cut to at most n bytes, for bounded searches of ASCII
// delimiters.
func window(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// nextIndex answers "where is the next sep at or after i" for a scan
// that asks at increasing positions, searching each byte at most once.
type nextIndex struct {
	s, sep string
	fold   bool // sep is lower-case ASCII; match ignoring ASCII case
	pos    int  // last answer; -1 when there is none left
	known  bool
}

func (n *nextIndex) from(i int) int {
	if n.known && (n.pos < 0 || n.pos >= i) {
		return n.pos
	}
	n.known = true
	if i > len(n.s) {
		n.pos = -1
		return -1
	}
	var k int
	if n.fold {
		k = indexFold(n.s[i:], n.sep)
	} else {
		k = strings.Index(n.s[i:], n.sep)
	}
	if k < 0 {
		n.pos = -1
	} else {
		n.pos = i + k
	}
	return n.pos
}

// mdLink is a "[text](dest)" span: s[open+1:close] is the text and
// s[close+2:end-1] the destination.
type mdLink struct{ close, end int }

// mdLinks finds the Markdown links of s in one pass, keyed by the offset
// of their '['. Brackets nest; backslash escapes are honoured.
func mdLinks(s string) map[int]mdLink {
	if !strings.Contains(s, "](") {
		return nil
	}
	out := map[int]mdLink{}
	var stack []int
	paren := nextIndex{s: s, sep: ")"}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			stack = append(stack, i)
		case ']':
			if len(stack) == 0 {
				continue
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if i+1 < len(s) && s[i+1] == '(' && i-open <= maxLinkLen {
				if e := paren.from(i + 2); e >= 0 && e-i <= maxLinkLen {
					out[open] = mdLink{close: i, end: e + 1}
				}
			}
		}
	}
	return out
}

// linkDest is the destination of a link: "<dest>" or the first word.
func linkDest(s string, l mdLink) string {
	inner := strings.TrimSpace(s[l.close+2 : l.end-1])
	if strings.HasPrefix(inner, "<") {
		if k := strings.IndexByte(inner, '>'); k > 0 {
			return inner[1:k]
		}
	}
	if k := strings.IndexAny(inner, " \t"); k >= 0 {
		return inner[:k]
	}
	return inner
}

// stripInline reduces inline Markdown to its text: wikilinks and links to
// their display text, images to their alt text, autolinks to their URL, and
// emphasis, strikethrough, highlight and code markers removed.
func stripInline(s string) string {
	if !strings.ContainsAny(s, "[*_~=`<") {
		return s
	}
	links := mdLinks(s)
	wikiEnd := nextIndex{s: s, sep: "]]"}
	angle := nextIndex{s: s, sep: ">"}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '!' && strings.HasPrefix(s[i+1:], "[["):
			i++ // embed: keep the target name
		case c == '[' && strings.HasPrefix(s[i:], "[["):
			end := wikiEnd.from(i + 2)
			if end < 0 || end-i > maxLinkLen {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(wikiDisplay(s[i+2 : end]))
			i = end + 2
		case c == '!' && i+1 < len(s) && s[i+1] == '[' && links != nil:
			if _, ok := links[i+1]; ok {
				i++ // image: keep the alt text
				continue
			}
			b.WriteByte(c)
			i++
		case c == '[' && links != nil:
			l, ok := links[i]
			if !ok {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(s[i+1 : l.close])
			i = l.end
		case c == '<' && (strings.HasPrefix(s[i:], "<http://") || strings.HasPrefix(s[i:], "<https://")):
			end := angle.from(i)
			if end < 0 || end-i > maxLinkLen {
				b.WriteByte(c)
				i++
				continue
			}
			b.WriteString(s[i+1 : end])
			i = end + 1
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
// target, else the fragment.
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
	var cuts []span
	// [type]
	for from := 0; from < len(s); {
		k := strings.IndexByte(s[from:], '[')
		if k < 0 {
			break
		}
		k += from
		from = k + 1
		end := strings.IndexByte(window(s[k:], maxTagWindow), ']')
		if end < 0 || strings.HasPrefix(s[k:], "[[") {
			continue
		}
		word := strings.ToLower(strings.TrimSpace(s[k+1 : k+end]))
		if t, ok := memoryTypes[word]; ok && (k+end+1 >= len(s) || s[k+end+1] != '(') {
			cuts = append(cuts, span{k, k + end + 1, t})
			from = k + end + 1
		}
	}
	// #type/x
	for from := 0; ; {
		k := strings.Index(s[from:], "#type/")
		if k < 0 {
			break
		}
		k += from
		j := k + len("#type/")
		e := j
		for e < len(s) && isTagByte(s[e]) {
			e++
		}
		from = e
		if !wordBoundaryBefore(s, k) {
			continue
		}
		t := memoryTypes[strings.ToLower(s[j:e])]
		cuts = append(cuts, span{k, e, t})
	}
	// type: x
	for from := 0; ; {
		k := indexFold(s[from:], "type")
		if k < 0 {
			break
		}
		k += from
		from = k + 4
		j, e, ok := fieldValue(s, k, "type")
		if !ok {
			continue
		}
		if t, ok := memoryTypes[strings.ToLower(s[j:e])]; ok {
			cuts = append(cuts, span{k, e, t})
			from = e
		}
	}
	if len(cuts) == 0 {
		return "", s
	}
	sort.SliceStable(cuts, func(i, j int) bool { return cuts[i].start < cuts[j].start })
	typ := ""
	for _, c := range cuts {
		if c.val != "" {
			typ = c.val
			break
		}
	}
	return typ, cutSpans(s, cuts)
}

// span is a byte range of a line to cut, with what was read from it.
type span struct {
	start, end int
	val        string
}

// cutSpans returns s without the given spans (sorted by start; overlaps
// are merged), in one pass.
func cutSpans(s string, cuts []span) string {
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, c := range cuts {
		if c.start < last {
			if c.end > last {
				last = c.end
			}
			continue
		}
		b.WriteString(s[last:c.start])
		last = c.end
	}
	b.WriteString(s[last:])
	return b.String()
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
	for _, sp := range codeSpans(s) {
		n := backtickRun(s, sp[0])
		for i := sp[0] + n; i < sp[1]-n; i++ {
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

// fieldValue finds the value of a written field such as "status: done",
// "type=project" or "status：done" whose key starts at k in s. The key must
// begin a word and be followed by ':', '=' or a full-width '：', then any
// spaces; the value is the run of tag characters after them, stopping at '/'.
// ok is false when s[k:] is not such a field.
func fieldValue(s string, k int, key string) (start, end int, ok bool) {
	if !wordBoundaryBefore(s, k) {
		return 0, 0, false
	}
	j := k + len(key)
	if j < len(s) && (s[j] == ':' || s[j] == '=') {
		j++
	} else if strings.HasPrefix(s[j:], "：") {
		j += len("：")
	} else {
		return 0, 0, false
	}
	for j < len(s) && s[j] == ' ' {
		j++
	}
	e := j
	for e < len(s) && isTagByte(s[e]) && s[e] != '/' {
		e++
	}
	return j, e, true
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
		j, e, ok := fieldValue(s, k, "status")
		if !ok {
			continue
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
		for _, w := range finalWords {
			if indexFold(s, "**"+w+"**") >= 0 {
				return finalStates[w]
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

// finalWords are the keys of finalStates in a fixed order, so that text
// with two markers always gives the same status.
var finalWords = []string{"done", "closed", "archived", "superseded", "resolved", "completed", "cancelled", "canceled",
	"obsolete", "deprecated", "expired", "lapsed", "wontfix", "snoozed", "snowed"}

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
// empty by metadata removal. Brackets right after a name are code, not
// leftovers ("now.getMonth()", "string[]"), and stay.
func tidyText(s string) string {
	s = collapseSpace(s)
	for _, empty := range []string{"()", "[]", "（）", "( )", "[ ]"} {
		if strings.Contains(s, empty) {
			s = dropEmpty(s, empty)
			s = collapseSpace(s)
		}
	}
	s = strings.TrimRight(s, " —–-|,;·")
	s = strings.TrimLeft(s, " —–|,;·:")
	return strings.TrimSpace(s)
}

// dropEmpty removes the empty brackets that do not follow a letter, digit,
// underscore or closing bracket.
func dropEmpty(s, empty string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, empty)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		code := i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_)]>", r))
		b.WriteString(s[:i])
		if code {
			b.WriteString(empty)
		}
		s = s[i+len(empty):]
	}
}
