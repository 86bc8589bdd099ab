package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineRef is one line of one file.
type lineRef struct {
	File string
	Line int // 1-based
	Text string
}

// fate is what a dream did to a workspace, read from the files alone.
type fate struct {
	// What became of the lines curated files held before (isCurated):
	// Moved lines are found word for word in another file; Annotated ones
	// inside a longer line; Rewritten ones as a similar line of the same
	// file; Deleted ones nowhere. Reordered counts lines still in their
	// file whose order among the others changed.
	Moved, Annotated, Rewritten, Deleted, Reordered int
	// OtherAltered counts lines of other Markdown files (dated files,
	// the dream's own logs, notes outside memory/) that were there before
	// and are not now.
	OtherAltered int
	// DatedFiles are dated files (isDated) created, changed or removed;
	// DatedLines the lines added to them.
	DatedFiles []string
	DatedLines int
	// TodosTouched counts to-do lines ("- [ ]", "- [x]") that were there
	// before and are not, word for word, in their file now.
	TodosTouched int
	// EventsOffShape counts records appended to memory/.dreams/events.jsonl
	// whose keys match no record the file held before.
	EventsOffShape int
	// Added are the content lines added to curated files that are not a
	// moved, annotated or rewritten form of a line there before: what the
	// dream promoted into curated memory.
	Added []lineRef
	// Changed lists every file created, changed or removed.
	Changed []string
}

var (
	todoRe    = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]`)
	headingRe = regexp.MustCompile(`^\s{0,3}#{1,6}(\s|$)`)
	ruleRe    = regexp.MustCompile(`^\s*([-*_]\s*){3,}$`)
	tableSep  = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
	commentRe = regexp.MustCompile(`^\s*<!--.*-->\s*$`)
	sourceRe  = regexp.MustCompile(`^\s*(?:[-*+]\s+)?(?:\*\*)?Source(?:\*\*)?:`)
	fenceRe   = regexp.MustCompile("^\\s*(```|~~~)")
)

// isContent says whether a line carries text of its own, as opposed to
// structure (headings, rules, table separators, fences, comments, a bare
// source pointer).
func isContent(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && !headingRe.MatchString(l) && !ruleRe.MatchString(l) && !tableSep.MatchString(l) &&
		!commentRe.MatchString(l) && !sourceRe.MatchString(l) && !fenceRe.MatchString(l)
}

type added struct {
	lineRef
	used bool
}

// measureFate compares two snapshots of one workspace.
func measureFate(before, after *snapshot) *fate {
	f := &fate{}
	var paths []string
	for p := range before.hash {
		paths = append(paths, p)
	}
	for p := range after.hash {
		if _, ok := before.hash[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	type removed struct {
		lineRef
		curated bool
	}
	var gone []removed
	var pool []*added
	byText := map[string][]*added{}
	byFile := map[string][]*added{}
	for _, p := range paths {
		if before.hash[p] == after.hash[p] {
			continue
		}
		f.Changed = append(f.Changed, p)
		if isDated(p) {
			f.DatedFiles = append(f.DatedFiles, p)
		}
		if p == "memory/.dreams/events.jsonl" {
			f.EventsOffShape = eventsOffShape(before.lines[p], after.lines[p])
		}
		if !isMarkdown(p) {
			continue
		}
		b, a := before.lines[p], after.lines[p]
		left := map[string]int{}
		for _, l := range a {
			left[l]++
		}
		for i, l := range b {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if left[l] > 0 {
				left[l]--
				continue
			}
			gone = append(gone, removed{lineRef{p, i + 1, l}, isCurated(p)})
		}
		had := map[string]int{}
		for _, l := range b {
			had[l]++
		}
		for i, l := range a {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if had[l] > 0 {
				had[l]--
				continue
			}
			ad := &added{lineRef: lineRef{p, i + 1, l}}
			pool = append(pool, ad)
			byText[l] = append(byText[l], ad)
			byFile[p] = append(byFile[p], ad)
			if isDated(p) {
				f.DatedLines++
			}
		}
	}
	take := func(c []*added, ok func(*added) bool) *added {
		for _, ad := range c {
			if !ad.used && ok(ad) {
				ad.used = true
				return ad
			}
		}
		return nil
	}
	for _, r := range gone {
		if todoRe.MatchString(r.Text) {
			f.TodosTouched++
		}
		core := norm(r.Text)
		var kind *int
		switch {
		case take(byText[r.Text], func(ad *added) bool { return ad.File != r.File }) != nil:
			kind = &f.Moved
		case utf8.RuneCountInString(core) >= 6 && (take(byFile[r.File], func(ad *added) bool { return strings.Contains(ad.Text, core) }) != nil ||
			take(pool, func(ad *added) bool { return strings.Contains(ad.Text, core) }) != nil):
			kind = &f.Annotated
		case take(byFile[r.File], func(ad *added) bool { return similar(ad.Text, r.Text) }) != nil:
			kind = &f.Rewritten
		default:
			kind = &f.Deleted
		}
		if !r.curated {
			f.OtherAltered++
			continue
		}
		*kind++
	}
	for _, p := range f.Changed {
		if isCurated(p) && before.lines[p] != nil && after.lines[p] != nil {
			f.Reordered += reordered(before.lines[p], after.lines[p])
		}
	}
	for _, ad := range pool {
		if !ad.used && isCurated(ad.File) && isContent(ad.Text) {
			f.Added = append(f.Added, ad.lineRef)
		}
	}
	return f
}

// reordered counts the lines found in both versions of a file whose order
// among the others changed: the lines kept, less their longest common
// subsequence. Files too large for the quadratic count give 0.
func reordered(b, a []string) int {
	inA := map[string]int{}
	for _, l := range a {
		if strings.TrimSpace(l) != "" {
			inA[l]++
		}
	}
	var kb []string
	for _, l := range b {
		if strings.TrimSpace(l) != "" && inA[l] > 0 {
			inA[l]--
			kb = append(kb, l)
		}
	}
	inB := map[string]int{}
	for _, l := range kb {
		inB[l]++
	}
	var ka []string
	for _, l := range a {
		if inB[l] > 0 {
			inB[l]--
			ka = append(ka, l)
		}
	}
	if len(kb)*len(ka) > 40_000_000 {
		return 0
	}
	prev := make([]int32, len(ka)+1)
	cur := make([]int32, len(ka)+1)
	for i := range kb {
		for j := range ka {
			switch {
			case kb[i] == ka[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return len(kb) - int(prev[len(ka)])
}

// eventsOffShape counts appended JSON records whose key set no earlier
// record has.
func eventsOffShape(before, after []string) int {
	shapes := map[string]bool{}
	keys := func(l string) (string, bool) {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(l), &m) != nil {
			return "", false
		}
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return strings.Join(ks, ","), true
	}
	had := map[string]int{}
	for _, l := range before {
		if k, ok := keys(l); ok {
			shapes[k] = true
		}
		had[l]++
	}
	if len(shapes) == 0 {
		return 0 // a new or empty file has no shape to keep
	}
	n := 0
	for _, l := range after {
		if had[l] > 0 {
			had[l]--
			continue
		}
		if k, ok := keys(l); ok && !shapes[k] {
			n++
		}
	}
	return n
}

var (
	listMarkRe = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?`)
	spaceRe    = regexp.MustCompile(`\s+`)
	// annotRe finds what a dream appends to a line it writes: a source
	// pointer, an HTML comment, a block id.
	annotRe = regexp.MustCompile(`\s*(?:<!--.*?-->|\s\^[A-Za-z0-9-]+$)`)
	srcTail = regexp.MustCompile(`\s*(?:\(|\[)?(?:\*\*)?Source(?:\*\*)?:\s*\S.*$`)
)

// norm is a line's text without its list marker, check box and runs of
// space: the form labels are keyed on.
func norm(l string) string {
	l = listMarkRe.ReplaceAllString(l, "")
	return strings.TrimSpace(spaceRe.ReplaceAllString(l, " "))
}

// stripAnnotations removes what a dream appends to a line it writes.
func stripAnnotations(l string) string {
	l = annotRe.ReplaceAllString(l, "")
	return srcTail.ReplaceAllString(l, "")
}

// tokens splits text into words, and CJK text into single characters.
func tokens(s string) map[string]bool {
	out := map[string]bool{}
	var w []rune
	flush := func() {
		if len(w) > 0 {
			out[strings.ToLower(string(w))] = true
			w = w[:0]
		}
	}
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			out[string(r)] = true
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w = append(w, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// similar says whether two lines share at least half their tokens
// (Jaccard), the test for a rewritten line.
func similar(a, b string) bool {
	ta, tb := tokens(a), tokens(b)
	if len(ta) == 0 || len(tb) == 0 {
		return false
	}
	both := 0
	for t := range ta {
		if tb[t] {
			both++
		}
	}
	return float64(both)/float64(len(ta)+len(tb)-both) >= 0.5
}
