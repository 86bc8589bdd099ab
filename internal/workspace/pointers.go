package workspace

import (
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/dates"
)

// dailyPath is the daily log a date pointer names.
func dailyPath(t time.Time) string { return "memory/" + t.Format("2006-01-02") + ".md" }

// maxRefLen bounds a path written in prose; longer runs are no path.
const maxRefLen = 256

var pointerExts = []string{".markdown", ".jsonl", ".json", ".md", ".txt"}

// isPathStop reports the characters that end a path written in prose.
func isPathStop(r rune) bool {
	switch r {
	case ' ', '\t', ',', ';', ')', ']', '>', '<', '|', '"', '\'', '`', '(', '[', '*':
		return true
	}
	if r < utf8.RuneSelf {
		return false
	}
	return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// refAt reads a workspace reference at the start of s: a file path with an
// optional line range ("memory/x.md#L3-L6", "memory/x.md:7-7",
// "memory/x.md:7:7") or a date ("2026-03-31", naming that day's log). n is
// the number of bytes consumed.
func refAt(s string) (p SourcePointer, n int, ok bool) {
	if t, dn, ok := dates.At(s, 0); ok && !continuesName(s[dn:]) {
		return SourcePointer{Path: dailyPath(t), Date: t}, dn, true
	}
	e := 0
	s = window(s, maxRefLen)
	for e < len(s) {
		r, size := utf8.DecodeRuneInString(s[e:])
		if isPathStop(r) && r != '#' {
			break
		}
		e += size
	}
	tok := s[:e]
	if strings.IndexByte(tok, '.') < 0 {
		return SourcePointer{}, 0, false
	}
	k := extEnd(tok)
	if k <= 0 {
		return SourcePointer{}, 0, false
	}
	start, end, m := lineRange(tok[k:])
	p = SourcePointer{Path: cleanPointerPath(tok[:k]), StartLine: start, EndLine: end}
	if p.Path == "" {
		return SourcePointer{}, 0, false
	}
	return p, k + m, true
}

// continuesName reports whether what follows a date makes it part of a
// file name ("2026-04-17.md", "2026-04-17-0810").
func continuesName(rest string) bool {
	if len(rest) < 2 || (rest[0] != '.' && rest[0] != '-' && rest[0] != '_') {
		return false
	}
	c := rest[1]
	return isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// extEnd returns the end of the first known text extension in tok that
// ends the file name, or -1.
func extEnd(tok string) int {
	best := -1
	for _, ext := range pointerExts {
		from := 0
		for {
			j := indexFold(tok[from:], ext)
			if j < 0 {
				break
			}
			j += from
			end := j + len(ext)
			if j > 0 && (end == len(tok) || tok[end] == '#' || tok[end] == ':' || tok[end] == '.' && end+1 == len(tok)) {
				if best < 0 || end < best {
					best = end
				}
				break
			}
			from = j + 1
		}
	}
	return best
}

// lineRange parses "#L3-L6", "#L3-6", "#L3", ":7-7", ":7:7" and ":7".
func lineRange(s string) (start, end, n int) {
	switch {
	case strings.HasPrefix(s, "#L"):
		a, na := leadingInt(s[2:], 9)
		if na == 0 {
			return 0, 0, 0
		}
		n = 2 + na
		start, end = a, a
		if n < len(s) && s[n] == '-' {
			r := s[n+1:]
			r = strings.TrimPrefix(r, "L")
			skip := len(s[n+1:]) - len(r)
			if b, nb := leadingInt(r, 9); nb > 0 {
				end = b
				n += 1 + skip + nb
			}
		}
	case strings.HasPrefix(s, ":"):
		a, na := leadingInt(s[1:], 9)
		if na == 0 {
			return 0, 0, 0
		}
		n = 1 + na
		start, end = a, a
		if n < len(s) && (s[n] == '-' || s[n] == ':') {
			if b, nb := leadingInt(s[n+1:], 9); nb > 0 {
				end = b
				n += 1 + nb
			}
		}
	}
	if end < start {
		start, end = end, start
	}
	return start, end, n
}

// cleanPointerPath normalises a path as written: URL escapes decoded,
// "./" and a trailing sentence period dropped, forward slashes.
func cleanPointerPath(p string) string {
	p = strings.TrimSpace(p)
	p = strings.TrimSuffix(p, ".")
	if strings.Contains(p, "%") {
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if p == "" {
		return ""
	}
	c := path.Clean(p)
	if c == "." {
		return ""
	}
	return c
}

// lineMeta is what one line of an entry carries besides its text.
type lineMeta struct {
	text       string // the line with metadata removed
	ptrs       []SourcePointer
	importance int
	typeTag    string
	status     string
	promo      *Promotion
	promoted   bool
	footerPath bool // a "Source: PATH" footer was found
}

// extractMeta removes metadata from one line of an entry and parses it:
// HTML comments (promotion comments, importance, type, status, source),
// the [score=... source=...] suffix, "(source: ...)" notes and "Source:"
// footers. Navigation pointers (see, [[x]], links, bare paths) are parsed
// but left in the text.
func extractMeta(s string, line int) lineMeta {
	var m lineMeta
	if strings.Contains(s, "<!--") {
		s = m.takeComments(s, line)
	}
	if strings.Contains(s, "=") && strings.Contains(s, "[") {
		s = m.takeScoreBracket(s, line)
	}
	if indexFold(s, "source") >= 0 || strings.Contains(s, "来源") {
		s = m.takeSourceNotes(s, line)
	}
	m.text = s
	m.ptrs = append(m.ptrs, navPointers(s, line)...)
	return m
}

func (m *lineMeta) takeComments(s string, line int) string {
	var cuts []span
	for from := 0; from < len(s); {
		k := strings.Index(s[from:], "<!--")
		if k < 0 {
			break
		}
		k += from
		inner, end := s[k+4:], len(s)
		if e := strings.Index(s[k+4:], "-->"); e >= 0 {
			inner, end = s[k+4:k+4+e], k+4+e+3
		}
		m.comment(strings.TrimSpace(inner), s[k:end], line)
		cuts = append(cuts, span{start: k, end: end})
		from = end
	}
	return spaceCuts(s, cuts)
}

// spaceCuts is cutSpans leaving a space where each span was, so that the
// words on either side stay apart.
func spaceCuts(s string, cuts []span) string {
	if len(cuts) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, c := range cuts {
		if c.start < last {
			continue
		}
		b.WriteString(s[last:c.start])
		b.WriteByte(' ')
		last = c.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// comment parses the inside of an HTML comment found on an entry.
func (m *lineMeta) comment(inner, raw string, line int) {
	const promo = "openclaw-memory-promotion:"
	if strings.HasPrefix(inner, promo) {
		p := parsePromotionRef(inner[len(promo):])
		p.Kind, p.Line, p.Text = PointerPromotionComment, line, raw
		if p.Path != "" {
			m.ptrs = append(m.ptrs, p)
		}
		m.promoted = true
		return
	}
	for _, part := range strings.FieldsFunc(inner, func(r rune) bool { return r == '|' || r == ';' || r == ',' }) {
		k, v, ok := splitKV(part)
		if !ok {
			continue
		}
		switch strings.ToLower(k) {
		case "importance":
			if n, err := strconv.Atoi(v); err == nil {
				m.importance = n
			} else if f, err := strconv.ParseFloat(v, 64); err == nil {
				m.importance = int(f)
			}
		case "type":
			if t, ok := memoryTypes[strings.ToLower(v)]; ok && m.typeTag == "" {
				m.typeTag = t
			}
		case "status":
			if m.status == "" {
				w := strings.ToLower(strings.Fields(v + " x")[0])
				if st, ok := lifecycle[w]; ok {
					w = st
				}
				m.status = w
			}
		case "source", "sources", "evidence":
			for _, p := range refList(v) {
				p.Kind, p.Line, p.Text = sourceKind(p), line, raw
				m.ptrs = append(m.ptrs, p)
			}
		}
	}
}

// parsePromotionRef reads "memory:memory/2026-04-17.md:7:7": a source
// name, a path and a line range, the path possibly holding colons.
func parsePromotionRef(s string) SourcePointer {
	parts := strings.Split(strings.TrimSpace(s), ":")
	var p SourcePointer
	n := len(parts)
	if n >= 2 {
		a, errA := strconv.Atoi(parts[n-2])
		b, errB := strconv.Atoi(parts[n-1])
		if errA == nil && errB == nil {
			p.StartLine, p.EndLine = a, b
			parts = parts[:n-2]
		} else if b, err := strconv.Atoi(parts[n-1]); err == nil {
			p.StartLine, p.EndLine = b, b
			parts = parts[:n-1]
		}
	}
	if len(parts) > 1 && !strings.ContainsAny(parts[0], "/.") {
		parts = parts[1:] // the source name ("memory")
	}
	p.Path = cleanPointerPath(strings.Join(parts, ":"))
	if p.EndLine < p.StartLine {
		p.StartLine, p.EndLine = p.EndLine, p.StartLine
	}
	return p
}

func sourceKind(p SourcePointer) PointerKind {
	if !p.Date.IsZero() {
		return PointerSourceDate
	}
	return PointerSourceAnchor
}

// splitKV splits "key: value" or "key=value".
func splitKV(s string) (string, string, bool) {
	k, width := keySeparator(s, ":=")
	if k <= 0 {
		return "", "", false
	}
	return strings.TrimSpace(s[:k]), strings.TrimSpace(s[k+width:]), true
}

// refList parses a list of references separated by commas, semicolons,
// "、", "and" or spaces, skipping filler words such as "daily notes".
func refList(s string) []SourcePointer {
	ps, _ := refListAt(s)
	return ps
}

// refListAt is refList that also returns how many bytes it consumed: it
// stops at the first word that is neither a reference nor filler.
func refListAt(s string) ([]SourcePointer, int) {
	var out []SourcePointer
	i, consumed := 0, 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == ' ' || r == ',' || r == ';' || r == '、' || r == '，' || r == '；' || r == '\t' || r == '&' {
			i += size
			continue
		}
		if p, n, ok := refAt(s[i:]); ok {
			out = append(out, p)
			i += n
			consumed = i
			continue
		}
		w, wn := leadingWord(s[i:])
		if wn > 0 && fillerWords[strings.ToLower(w)] {
			i += wn
			continue
		}
		break
	}
	return out, consumed
}

var fillerWords = map[string]bool{
	"and": true, "daily": true, "notes": true, "note": true, "log": true, "logs": true, "see": true,
	"also": true, "the": true, "in": true, "详见": true, "每日笔记": true, "日志": true, "和": true,
}

// takeScoreBracket parses and removes "[score=0.835 recalls=0 avg=0.620
// source=memory/2026-04-17.md:7-7]".
func (m *lineMeta) takeScoreBracket(s string, line int) string {
	var cuts []span
	closeAt := nextIndex{s: s, sep: "]"}
	for from := 0; from < len(s); {
		k := strings.IndexByte(s[from:], '[')
		if k < 0 {
			break
		}
		k += from
		from = k + 1
		head := strings.TrimLeft(window(s[k+1:], 16), " ")
		if !(strings.HasPrefix(head, "score=") || strings.HasPrefix(head, "source=") || strings.HasPrefix(head, "recalls=") || strings.HasPrefix(head, "avg=")) {
			continue
		}
		e := closeAt.from(k)
		if e < 0 {
			break
		}
		if e-k > maxBracket {
			continue
		}
		var pr Promotion
		known := false
		for _, tok := range strings.Fields(s[k+1 : e]) {
			key, val, ok := strings.Cut(tok, "=")
			if !ok {
				continue
			}
			switch strings.ToLower(key) {
			case "score":
				pr.Score, _ = strconv.ParseFloat(val, 64)
				known = true
			case "recalls":
				pr.Recalls, _ = strconv.Atoi(val)
				known = true
			case "avg":
				pr.Avg, _ = strconv.ParseFloat(val, 64)
				known = true
			case "source":
				if p, _, ok := refAt(val); ok {
					p.Kind, p.Line, p.Text = PointerScoreSource, line, s[k:e+1]
					m.ptrs = append(m.ptrs, p)
					known = true
				}
			}
		}
		if !known {
			continue
		}
		if m.promo == nil {
			m.promo = &pr
		}
		m.promoted = true
		cuts = append(cuts, span{start: k, end: e + 1})
		from = e + 1
	}
	return cutSpans(s, cuts)
}

// takeSourceNotes parses and removes "(source: 2026-03-31)" notes and
// "Source: memory/x.md#L3-L6" footers. A "Source:" naming no file or date
// ("Source: the user") is left alone.
func (m *lineMeta) takeSourceNotes(s string, line int) string {
	var cuts []span
	latin, cjk := nextIndex{s: s, sep: "source", fold: true}, nextIndex{s: s, sep: "来源"}
	for from := 0; from < len(s); {
		k, labelLen := sourceLabel(s, from, &latin, &cjk)
		if k < 0 {
			break
		}
		from = k + labelLen
		paren := false
		start := k
		if k > 0 && s[k-1] == '(' {
			paren, start = true, k-1
		} else if k >= len("（") && strings.HasSuffix(s[:k], "（") {
			paren, start = true, k-len("（")
		} else if !wordBoundaryBefore(s, k) {
			continue
		}
		body := s[k+labelLen:]
		if paren {
			e := strings.IndexAny(window(body, maxBracket), ")）")
			if e < 0 {
				continue
			}
			ps, _ := refListAt(body[:e])
			if len(ps) == 0 {
				continue
			}
			closeLen := 1
			if strings.HasPrefix(body[e:], "）") {
				closeLen = len("）")
			}
			end := k + labelLen + e + closeLen
			raw := s[start:end]
			for _, p := range ps {
				p.Kind, p.Line, p.Text = sourceKind(p), line, raw
				m.ptrs = append(m.ptrs, p)
			}
			cuts = append(cuts, span{start: start, end: end})
			from = end
			continue
		}
		ps, n := refListAt(body)
		if len(ps) == 0 {
			continue
		}
		end := k + labelLen + n
		raw := strings.TrimSpace(s[start:end])
		for _, p := range ps {
			p.Kind, p.Line, p.Text = sourceKind(p), line, raw
			if p.Date.IsZero() {
				m.footerPath = true
			}
			m.ptrs = append(m.ptrs, p)
		}
		cuts = append(cuts, span{start: start, end: end})
		from = end
	}
	return cutSpans(s, cuts)
}

// sourceLabel finds "source:", "sources:", "source=" (any case) or "来源："
// at or after from, returning its offset and length.
func sourceLabel(s string, from int, latin, cjk *nextIndex) (int, int) {
	for from < len(s) {
		k := latin.from(from)
		c := cjk.from(from)
		if k < 0 && c < 0 {
			return -1, 0
		}
		if c >= 0 && (k < 0 || c < k) {
			j := c + len("来源")
			if strings.HasPrefix(s[j:], "：") {
				return c, j + len("：") - c
			}
			if strings.HasPrefix(s[j:], ":") {
				return c, j + 1 - c
			}
			from = j
			continue
		}
		j := k + len("source")
		if j < len(s) && (s[j] == 's' || s[j] == 'S') {
			j++
		}
		switch {
		case strings.HasPrefix(s[j:], "："):
			return k, j + len("：") - k
		case j < len(s) && s[j] == ':':
			return k, j + 1 - k
		}
		from = j
	}
	return -1, 0
}

// navPointers finds the pointers that stay in the text: "see memory/x.md",
// "详见 daily notes 2026-03-31", [[wikilinks]], [links](memory/x.md) and
// bare workspace paths.
func navPointers(s string, line int) []SourcePointer {
	var found []posPointer
	var covered []bool // bytes already taken by a pointer, allocated on first use
	cover := func(a, b int) {
		if covered == nil {
			covered = make([]bool, len(s))
		}
		for i := a; i < b && i < len(s); i++ {
			covered[i] = true
		}
	}
	inSpan := func(i int) bool { return covered != nil && covered[i] }
	add := func(pos int, p SourcePointer) { found = append(found, posPointer{pos, p}) }

	// [[wikilinks]]
	wikiEnd := nextIndex{s: s, sep: "]]"}
	for from := 0; ; {
		k := strings.Index(s[from:], "[[")
		if k < 0 {
			break
		}
		k += from
		from = k + 2
		c := wikiEnd.from(k + 2)
		if c < 0 {
			break
		}
		if c-k > maxLinkLen {
			continue
		}
		e := c - (k + 2)
		end := c + 2
		from = end
		cover(k, end)
		if k > 0 && s[k-1] == '!' {
			continue // an embed, not evidence
		}
		inner := s[k+2 : k+2+e]
		if i := strings.IndexByte(inner, '|'); i >= 0 {
			inner = inner[:i]
		}
		p := SourcePointer{Kind: PointerWikilink, Line: line, Text: s[k:end]}
		target := inner
		if i := strings.IndexByte(inner, '#'); i >= 0 {
			target = inner[:i]
			p.StartLine, p.EndLine, _ = lineRange(inner[i:])
		}
		p.Path = strings.TrimSpace(target)
		if p.Path != "" {
			add(k, p)
		}
	}
	// [text](path)
	if links := mdLinks(s); links != nil {
		for from := 0; ; {
			k := strings.IndexByte(s[from:], '[')
			if k < 0 {
				break
			}
			k += from
			from = k + 1
			if inSpan(k) || strings.HasPrefix(s[k:], "[[") {
				continue
			}
			l, ok := links[k]
			if !ok {
				continue
			}
			dest, n := linkDest(s, l), l.end-k
			cover(k, k+n)
			from = k + n
			if k > 0 && s[k-1] == '!' || strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") || strings.HasPrefix(dest, "#") {
				continue
			}
			if p, _, ok := refAt(dest); ok && p.Date.IsZero() {
				p.Kind, p.Line, p.Text = PointerLink, line, s[k:k+n]
				add(k, p)
			}
		}
	}
	// see / 详见 / 参见
	for _, kw := range []string{"see", "详见", "参见", "见"} {
		for from := 0; ; {
			var k int
			if kw == "see" {
				k = indexFold(s[from:], kw)
			} else {
				k = strings.Index(s[from:], kw)
			}
			if k < 0 {
				break
			}
			k += from
			from = k + len(kw)
			if inSpan(k) || ((kw == "see" || kw == "见") && !wordBoundaryBefore(s, k)) {
				continue
			}
			j := k + len(kw)
			if kw == "see" && (j >= len(s) || s[j] != ' ' && s[j] != ':') {
				continue
			}
			j = skipFiller(s, j, "also", "the")
			p, n, ok := seeTarget(s[j:])
			if !ok {
				continue
			}
			end := j + n
			p.Line, p.Text = line, s[k:end]
			cover(k, end)
			add(k, p)
			from = end
		}
	}
	// bare workspace paths
	for _, prefix := range []string{"memory/", "archives/", "MEMORY.md", "DREAMS.md"} {
		for from := 0; ; {
			k := strings.Index(s[from:], prefix)
			if k < 0 {
				break
			}
			k += from
			from = k + len(prefix)
			if inSpan(k) {
				continue
			}
			if k > 0 {
				r, _ := utf8.DecodeLastRuneInString(s[:k])
				if !isPathStop(r) && r != ':' && r != '：' && r != '=' {
					continue
				}
			}
			p, n, ok := refAt(s[k:])
			if !ok || !p.Date.IsZero() {
				continue
			}
			p.Kind, p.Line, p.Text = PointerPath, line, s[k:k+n]
			cover(k, k+n)
			add(k, p)
			from = k + n
		}
	}
	if len(found) == 0 {
		return nil
	}
	// In the order they were written.
	sort.SliceStable(found, func(i, j int) bool { return found[i].pos < found[j].pos })
	out := make([]SourcePointer, len(found))
	for i, f := range found {
		out[i] = f.p
	}
	return out
}

// posPointer is a pointer with its byte offset in the line.
type posPointer struct {
	pos int
	p   SourcePointer
}

// skipFiller skips spaces, a colon and the given filler words.
func skipFiller(s string, j int, words ...string) int {
	for {
		for j < len(s) && (s[j] == ' ' || s[j] == ':' || s[j] == '\t') {
			j++
		}
		if strings.HasPrefix(s[j:], "：") {
			j += len("：")
			continue
		}
		moved := false
		for _, w := range words {
			if hasPrefixFold(s[j:], w+" ") {
				j += len(w) + 1
				moved = true
			}
		}
		if !moved {
			return j
		}
	}
}

// seeTarget reads what follows "see": "daily notes 2026-03-31", a date, or
// a path.
func seeTarget(s string) (SourcePointer, int, bool) {
	j := 0
	daily := false
	for _, w := range []string{"daily notes", "daily note", "daily log", "daily logs", "每日笔记", "日志", "日记"} {
		if hasPrefixFold(s, w) {
			j = len(w)
			daily = true
			break
		}
	}
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if strings.HasPrefix(s[j:], "：") {
		j += len("：")
	}
	if t, n, ok := dates.At(s, j); ok && !strings.HasPrefix(s[j+n:], ".md") {
		return SourcePointer{Kind: PointerDailyNotes, Path: dailyPath(t), Date: t}, j + n, true
	}
	if daily {
		return SourcePointer{}, 0, false
	}
	p, n, ok := refAt(s[j:])
	if !ok {
		return SourcePointer{}, 0, false
	}
	p.Kind = PointerSee
	return p, j + n, true
}
