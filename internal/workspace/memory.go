package workspace

import (
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// parseMemory reads MEMORY.md. Partial dates are resolved against the size
// header's last-dream date, else fallback (the newest daily log); byFallback
// reports that one was resolved against fallback (or, without one, the
// file's time).
func parseMemory(f *File, fallback time.Time) (m *MemoryIndex, byFallback bool) {
	lines := mdline.Split(f.Content)
	m = &MemoryIndex{File: f}
	skip := map[int]bool{}
	m.Limit = sizeHeader(lines, skip)
	ref, own := fallback, false
	if m.Limit != nil && !m.Limit.LastDream.IsZero() {
		ref, own = m.Limit.LastDream, true
	}
	if ref.IsZero() {
		ref = dates.Day(f.ModTime)
	}
	start := mdline.FrontMatterEnd(lines)
	var byRef bool
	m.Sections, byRef = parseEntryLinesRef(f.Path, lines[start:], start+1, ref, skip)
	m.Pointers = filePointers(lines, start)
	return m, byRef && !own
}

// filePointers collects the navigation pointers (see, [[x]], links, bare
// paths) written anywhere in a file outside code blocks.
func filePointers(lines []string, start int) []SourcePointer {
	var out []SourcePointer
	var code mdline.Fence
	for i := start; i < len(lines); i++ {
		s := lines[i]
		if _, off := mdline.Indent(s); code.Code(s[off:]) {
			continue
		}
		if !strings.Contains(s, "memory/") && !strings.Contains(s, "[[") && !strings.Contains(s, "](") &&
			indexFold(s, "see") < 0 && !strings.Contains(s, "见") && !strings.Contains(s, "archives/") && !strings.Contains(s, ".md") {
			continue
		}
		out = append(out, navPointers(s, i+1)...)
	}
	return out
}

// sizeHeader finds the budget header among the first lines of MEMORY.md:
// "> limit: 200 lines / 25KB | last dream: 2026-03-31" or
// "> 📏 限制：≤ 200 行 / 25KB | 上次整理：2026-03-31", possibly spread over
// consecutive quote lines. Its lines are added to skip.
func sizeHeader(lines []string, skip map[int]bool) *SizeLimit {
	const scan = 30
	for i := 0; i < len(lines) && i < scan; i++ {
		t := strings.TrimSpace(lines[i])
		if !isHeaderLine(t) {
			continue
		}
		lim := &SizeLimit{Line: i + 1}
		j := i
		for ; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if j > i && (!strings.HasPrefix(t, ">") || !isHeaderLine(t) && !hasDreamDate(t)) {
				break
			}
			readLimits(t, lim)
			skip[j+1] = true
		}
		if lim.MaxLines == 0 && lim.MaxBytes == 0 && lim.MaxChars == 0 && lim.LastDream.IsZero() {
			for k := i; k < j; k++ {
				delete(skip, k+1)
			}
			continue
		}
		return lim
	}
	return nil
}

// isHeaderLine reports a quote or comment line that names a limit.
func isHeaderLine(t string) bool {
	if !strings.HasPrefix(t, ">") && !strings.HasPrefix(t, "<!--") {
		return false
	}
	return indexFold(t, "limit") >= 0 || strings.Contains(t, "限制") || indexFold(t, "budget") >= 0 ||
		strings.Contains(t, "上限") || indexFold(t, "last dream") >= 0 || strings.Contains(t, "上次整理")
}

func hasDreamDate(t string) bool {
	return indexFold(t, "last dream") >= 0 || strings.Contains(t, "上次整理") || indexFold(t, "last consolidat") >= 0
}

// readLimits reads "200 lines", "25KB", "16000 chars" and a date.
func readLimits(t string, lim *SizeLimit) {
	if d, i, _ := firstDate(t); i >= 0 && lim.LastDream.IsZero() {
		lim.LastDream = d
	}
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) || i > 0 && (isDigit(t[i-1]) || t[i-1] == '-' || t[i-1] == '.') {
			continue
		}
		j := i
		for j < len(t) && (isDigit(t[j]) || t[j] == ',' || t[j] == '.') {
			j++
		}
		numText := strings.ReplaceAll(t[i:j], ",", "")
		v, err := strconv.ParseFloat(numText, 64)
		if err != nil {
			continue
		}
		k := j
		for k < len(t) && t[k] == ' ' {
			k++
		}
		unit := t[k:]
		switch {
		case hasPrefixFold(unit, "lines") || hasPrefixFold(unit, "line") || strings.HasPrefix(unit, "行"):
			lim.MaxLines = int(v)
		case hasPrefixFold(unit, "kib") || hasPrefixFold(unit, "kb") || hasPrefixFold(unit, "k ") || unit == "k" || unit == "K":
			lim.MaxBytes = int(v * 1024)
		case hasPrefixFold(unit, "mib") || hasPrefixFold(unit, "mb"):
			lim.MaxBytes = int(v * 1024 * 1024)
		case hasPrefixFold(unit, "bytes") || hasPrefixFold(unit, "b ") || unit == "B" || unit == "b" || strings.HasPrefix(unit, "字节"):
			lim.MaxBytes = int(v)
		case hasPrefixFold(unit, "chars") || hasPrefixFold(unit, "characters") || strings.HasPrefix(unit, "字符") || strings.HasPrefix(unit, "字"):
			lim.MaxChars = int(v)
		}
		i = j - 1
	}
}
