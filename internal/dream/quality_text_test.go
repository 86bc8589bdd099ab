package dream

import (
	"regexp"
	"strings"
	"unicode"
)

// Line-level Markdown reading for the quality harness. The harness judges
// the engine, so it reads structure with its own small rules instead of
// the engine's parser: a bug in the engine's reading must not hide the
// damage it causes.

// qStruct says which human structure a line of a Markdown file belongs
// to. A line can be in none.
type qStruct struct {
	code    bool // a fence line or inside a fenced block
	table   bool // a table row
	ordered bool // an item of a numbered list, or a line continuing one
	list    int  // list block id (0: not in a list), for closed lists
}

var (
	reQListItem = regexp.MustCompile(`^(\s*)([-*+]|\d+[.)])(\s+|$)`)
	reQOrdered  = regexp.MustCompile(`^\s*\d+[.)](\s+|$)`)
	reQHeading  = regexp.MustCompile(`^\s{0,3}#{1,6}\s`)
	reQFence    = regexp.MustCompile("^\\s*(```+|~~~+)")
)

// qStructures classifies every line of a Markdown file. A list runs from
// an item through its continuation lines and the items after it (blank
// lines between items included, as in a loose list) until a heading, a
// table, a fence, a paragraph at the margin after a blank line, or an item
// of the other kind (bullet / number) at the margin.
func qStructures(lines []string) []qStruct {
	out := make([]qStruct, len(lines))
	fence := ""
	listID, inList, ordered := 0, false, false
	end := func() { inList, ordered = false, false }
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			out[i].code = true
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if m := reQFence.FindStringSubmatch(l); m != nil {
			out[i].code = true
			fence = m[1][:3]
			end()
			continue
		}
		margin := !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t")
		afterBlank := i > 0 && strings.TrimSpace(lines[i-1]) == ""
		switch {
		case t == "":
			continue
		case reQHeading.MatchString(l):
			end()
		case strings.HasPrefix(t, "|") && strings.Count(t, "|") >= 2:
			out[i].table = true
			end()
		case reQListItem.MatchString(l):
			num := reQOrdered.MatchString(l)
			if !inList || margin && num != ordered {
				listID++
				ordered = num
			}
			inList = true
			out[i] = qStruct{list: listID, ordered: ordered}
		case inList && (!margin || !afterBlank):
			out[i] = qStruct{list: listID, ordered: ordered}
		default:
			end()
		}
	}
	return out
}

// qSection returns the lines [from, to) of the section a heading at line
// h (0-based) opens: up to the next heading of any level.
func qSection(lines []string, h int) (from, to int) {
	to = len(lines)
	for i := h + 1; i < len(lines); i++ {
		if reQHeading.MatchString(lines[i]) {
			to = i
			break
		}
	}
	return h + 1, to
}

// qListLength is how many things a section lists: its items at the
// margin, or, when it has none, the data rows of its table.
func qListLength(lines []string, from, to int) int {
	items, rows, header := 0, 0, false
	for i := from; i < to; i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case reQListItem.MatchString(l) && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t"):
			items++
		case strings.HasPrefix(t, "|"):
			if !header {
				header = true // the header row; the separator row is skipped below
				continue
			}
			if strings.Trim(t, "|-: ") == "" {
				continue
			}
			rows++
		}
	}
	if items > 0 {
		return items
	}
	return rows
}

// qCodeSpans lists the code of a Markdown file exactly as written: each
// fenced block (fences included) and each inline backtick span outside
// fences.
func qCodeSpans(content string) []string {
	var out []string
	lines := strings.Split(content, "\n")
	fence, start := "", 0
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				out = append(out, strings.Join(lines[start:i+1], "\n"))
				fence = ""
			}
			continue
		}
		if m := reQFence.FindStringSubmatch(l); m != nil {
			fence, start = m[1][:3], i
			continue
		}
		out = append(out, qInlineCode(l)...)
	}
	if fence != "" { // an unclosed fence runs to the end of the file
		out = append(out, strings.Join(lines[start:], "\n"))
	}
	return out
}

// qInlineCode finds the backtick spans of one line: a run of n backticks
// up to the next run of exactly n.
func qInlineCode(l string) []string {
	var out []string
	for i := 0; i < len(l); {
		n := qTicks(l, i)
		if n == 0 {
			i++
			continue
		}
		closeAt := -1
		for j := i + n; j < len(l) && closeAt < 0; {
			switch m := qTicks(l, j); {
			case m == 0:
				j++
			case m == n:
				closeAt = j
			default:
				j += m
			}
		}
		if closeAt < 0 {
			i += n
			continue
		}
		out = append(out, l[i:closeAt+n])
		i = closeAt + n
	}
	return out
}

// qTicks is the length of the run of backticks at l[i:].
func qTicks(l string, i int) int {
	n := 0
	for i+n < len(l) && l[i+n] == '`' {
		n++
	}
	return n
}

// qDiff aligns two versions of a file by their longest common
// subsequence of lines. keep[j] is the line of a that line j of b keeps,
// or -1 for a line the new version added.
func qDiff(a, b []string) (keep []int) {
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	keep = make([]int, m)
	i, j := 0, 0
	for j < m {
		switch {
		case i < n && a[i] == b[j]:
			keep[j] = i
			i++
			j++
		case i < n && lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			keep[j] = -1
			j++
		}
	}
	return keep
}

var (
	reQISODate = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
	// Words a distilled line may add around a fact without changing it.
	qFrameWords = map[string]bool{"rule": true, "why": true, "how": true, "to": true, "apply": true, "source": true,
		"user": true, "feedback": true, "project": true, "reference": true, "done": true, "expires": true}
)

// qTokens are the words of a text for the grounding check: lower-case
// letter and digit runs (at least two characters), Han runs as character
// bigrams, ISO dates left out (a distilled line adds the log's date).
func qTokens(s string) map[string]bool {
	s = reQISODate.ReplaceAllString(strings.ToLower(s), " ")
	out := map[string]bool{}
	var run []rune
	flush := func() {
		if len(run) == 0 {
			return
		}
		if unicode.Is(unicode.Han, run[0]) {
			if len(run) == 1 {
				out[string(run)] = true
			}
			for i := 0; i+1 < len(run); i++ {
				out[string(run[i:i+2])] = true
			}
		} else if len(run) >= 2 && !qFrameWords[string(run)] {
			out[string(run)] = true
		}
		run = run[:0]
	}
	for _, r := range s {
		han := unicode.Is(unicode.Han, r)
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !word || len(run) > 0 && han != unicode.Is(unicode.Han, run[0]) {
			flush()
		}
		if word {
			run = append(run, r)
		}
	}
	flush()
	return out
}
