package workspace

import (
	"strconv"
	"strings"
)

// Inline code is kept byte for byte in an entry's text: removing markup
// ("**", "__", "==", "[[…]]") and the brackets metadata removal leaves
// empty would otherwise change it ("def __init__(self, **kwargs)" read
// "def init(self, kwargs)", "items = []" read "items ="). The cleaning
// steps run on the text with each code span replaced by a token, and the
// code is put back (without its backticks) at the end.

// codeSpans returns the byte ranges [start, end) of the inline code spans
// of s, backticks included, as CommonMark reads them: a run of n
// backticks opens a span that the next run of exactly n closes; a run
// that no run closes is literal text.
func codeSpans(s string) [][2]int {
	var out [][2]int
	// unclosed[n]: a run of n backticks found no closer, so no later run
	// of n has one either (it would have closed the first): each length
	// is searched for once.
	var unclosed map[int]bool
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := backtickRun(s, i)
		end := -1
		if !unclosed[n] {
			for j := i + n; j < len(s); {
				k := strings.IndexByte(s[j:], '`')
				if k < 0 {
					break
				}
				k += j
				m := backtickRun(s, k)
				if m == n {
					end = k + m
					break
				}
				j = k + m
			}
		}
		if end < 0 {
			if unclosed == nil {
				unclosed = map[int]bool{}
			}
			unclosed[n] = true
			i += n
			continue
		}
		out = append(out, [2]int{i, end})
		i = end
	}
	return out
}

func backtickRun(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// codeText is what a code span shows: its content, line breaks read as
// blanks, one blank stripped from each end when both ends have one.
func codeText(span string) string {
	n := backtickRun(span, 0)
	c := strings.ReplaceAll(span[n:len(span)-n], "\n", " ")
	if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " ") != "" {
		c = c[1 : len(c)-1]
	}
	return c
}

// Tokens stand for code while text is cleaned: private-use runes no
// Markdown syntax and no tidying step touches.
const (
	codeOpen  = '\uE000'
	codeClose = '\uE001'
)

// codeKeeper holds the code taken out of one entry's texts.
type codeKeeper struct {
	code []string
}

// hide replaces each code span of s with a token. Text that already holds
// a token rune is left as it is (its code is then cleaned like prose).
func (k *codeKeeper) hide(s string) string {
	if strings.IndexByte(s, '`') < 0 || strings.ContainsRune(s, codeOpen) {
		return s
	}
	spans := codeSpans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteRune(codeOpen)
		b.WriteString(strconv.Itoa(k.index(codeText(s[sp[0]:sp[1]]))))
		b.WriteRune(codeClose)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// index is the number of code c, the same for the same code, so that a
// title and a body that quote it still compare equal.
func (k *codeKeeper) index(c string) int {
	for i, x := range k.code {
		if x == c {
			return i
		}
	}
	k.code = append(k.code, c)
	return len(k.code) - 1
}

// show puts the code back in place of its tokens.
func (k *codeKeeper) show(s string) string {
	if len(k.code) == 0 || !strings.ContainsRune(s, codeOpen) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexRune(s, codeOpen)
		if i < 0 {
			break
		}
		from := i + len(string(codeOpen))
		j := strings.IndexRune(s[from:], codeClose)
		if j < 0 {
			break
		}
		j += from
		n, err := strconv.Atoi(s[from:j])
		if err != nil || n < 0 || n >= len(k.code) {
			b.WriteString(s[:from])
			s = s[from:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(k.code[n])
		s = s[j+len(string(codeClose)):]
	}
	b.WriteString(s)
	return b.String()
}

// inlineText is s without inline markup, blanks collapsed, code as
// written: a table cell.
func (k *codeKeeper) inlineText(s string) string {
	return collapseSpace(stripInline(k.hide(s)))
}

// plainText is s as an entry's text: inline markup removed, tidied (see
// tidyText), code as written.
func plainText(s string) string {
	var k codeKeeper
	return k.show(tidyText(stripInline(k.hide(s))))
}
