package secrets

import (
	"math"
	"strings"
)

// Character classes. ASCII only: every format the guard knows is ASCII, and
// a byte >= 0x80 (part of a multi-byte character) counts as a separator.

func isAlnum(c byte) bool { return isLower(c) || isUpper(c) || isDigit(c) }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWord is the \w class of RE2: letters, digits and '_'.
func isWord(c byte) bool { return isAlnum(c) || c == '_' }

// isURLSafe is the base64url alphabet, used by JWTs, OpenAI and Google keys.
func isURLSafe(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

// isBase64 is the standard base64 alphabet with padding.
func isBase64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' }

// isBlank is a space or a tab (never a newline).
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isSpace is RE2's \s: blanks, newlines, form feed and vertical tab.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// wordStart reports whether position i starts a word: "task-list" holds
// "sk-" but not at a word start, and a hash never starts with "AKIA"
// mid-run.
func wordStart(t string, i int) bool { return i == 0 || !isAlnum(t[i-1]) }

// span returns the end of the run of bytes from i that satisfy ok.
func span(t string, i int, ok func(byte) bool) int {
	for i < len(t) && ok(t[i]) {
		i++
	}
	return i
}

// skipBlanks skips spaces and tabs (never newlines).
func skipBlanks(t string, j int) int {
	for j < len(t) && isBlank(t[j]) {
		j++
	}
	return j
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFold(s[:len(prefix)], prefix)
}

// containsFold is strings.Contains ignoring ASCII case; sub must be
// lower-case and non-empty.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if fold(s[i]) == sub[0] && equalFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// maxLine bounds how far a detector looks along a line. Bounding every
// look-around keeps a text that is one enormous line linear to scan.
const maxLine = 4096

// lineEnd returns the offset of the first newline at or after i, looking at
// most limit bytes ahead (or the end of that window).
func lineEnd(t string, i, limit int) int {
	w := t[i:min(len(t), i+limit)]
	if e := strings.IndexByte(w, '\n'); e >= 0 {
		return i + e
	}
	return i + len(w)
}

// lineStart returns the offset just after the last newline before i, looking
// at most limit bytes back. ok is false when the window holds no newline and
// does not reach the start of the text.
func lineStart(t string, i, limit int) (start int, ok bool) {
	w := max(0, i-limit)
	if b := strings.LastIndexByte(t[w:i], '\n'); b >= 0 {
		return w + b + 1, true
	}
	return w, w == 0
}

// containerPrefix returns the length of the Markdown container markup that
// starts line: indentation, blockquote markers and list markers ("- ",
// "* ", "+ ", "1. ", "2) "), in any nesting. A secret that continues on the
// next line of a list item or a quote continues after this prefix, and
// redaction keeps it so the list or quote stays intact.
func containerPrefix(line string) int {
	i := 0
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ' || c == '\t' || c == '>':
			i++
		case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && isBlank(line[i+1]):
			i += 2
		case isDigit(c):
			j := span(line, i, isDigit)
			if j-i > 9 || j+1 >= len(line) || line[j] != '.' && line[j] != ')' || !isBlank(line[j+1]) {
				return i
			}
			i = j + 2
		default:
			return i
		}
	}
	return i
}

// entropy is the Shannon entropy of s in bits per byte, as gitleaks
// computes it for its rules' entropy thresholds.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// looksRandom reports whether a token is plausibly machine-generated rather
// than words joined by punctuation ("2024-annual-report-v2"): it needs letters
// and digits and one unbroken alphanumeric run of 12 or more, and either all
// three character classes or a length of 32 or more (hex ids, for example).
func looksRandom(v string) bool {
	var lower, upper, digit bool
	run, longest := 0, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLower(c):
			lower = true
		case isUpper(c):
			upper = true
		case isDigit(c):
			digit = true
		default:
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	if !digit || !(lower || upper) || longest < 12 {
		return false
	}
	return (lower && upper) || len(v) >= 32
}
