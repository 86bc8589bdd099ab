package workspace

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Markdown block structure of a line (fences, headings, list items,
// tables, quotes, front matter) is the mdline package's; what follows are
// the workspace's own readings of text built on it.

// keySeparator finds where the key of a "key: value" text ends: at the
// first of the ASCII bytes in ascii or of the full-width colon '：', which
// Chinese text uses. It returns the separator's index and width in bytes;
// the index is -1 when there is none.
func keySeparator(s, ascii string) (at, width int) {
	k := strings.IndexAny(s, ascii)
	if kw := strings.Index(s, "："); kw >= 0 && (k < 0 || kw < k) {
		return kw, len("：")
	}
	return k, 1
}

// collapseSpace collapses runs of white space into single spaces and trims.
func collapseSpace(s string) string {
	need := false
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			if prevSpace {
				need = true
				break
			}
			if c != ' ' {
				need = true
				break
			}
			prevSpace = true
			continue
		}
		if c >= utf8.RuneSelf {
			need = true // possible Unicode spaces: take the slow path
			break
		}
		prevSpace = false
	}
	if !need && !strings.HasSuffix(s, " ") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// sectionStack tracks the heading path above the current line. The first
// heading of a file, when it is an H1, is the file's title and is left out
// of paths: entries under "# MEMORY" / "## People" sit in "People".
type sectionStack struct {
	titleSeen bool
	skipTitle bool
	levels    []int
	texts     []string
}

func (st *sectionStack) push(level int, text string) {
	if !st.titleSeen {
		st.titleSeen = true
		if level == 1 {
			st.skipTitle = true
			return
		}
	}
	for len(st.levels) > 0 && st.levels[len(st.levels)-1] >= level {
		st.levels = st.levels[:len(st.levels)-1]
		st.texts = st.texts[:len(st.texts)-1]
	}
	st.levels = append(st.levels, level)
	st.texts = append(st.texts, text)
}

func (st *sectionStack) path() string { return strings.Join(st.texts, " / ") }

// headingText cleans a heading for display and paths: emphasis and link
// syntax removed.
func headingText(s string) string {
	return collapseSpace(stripInline(s))
}
