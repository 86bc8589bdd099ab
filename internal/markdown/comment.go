package markdown

import (
	"bytes"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// Obsidian comments: %%hidden%% inline, or
//
//	%%
//	hidden lines
//	%%
//
// They are cut out of the source before goldmark sees it (a comment can
// span blocks, which no inline or block parser could express), keeping
// every newline so line numbers still match the file. Cutting rather than
// blanking with spaces matters: "%%todo%% Text" after a blank line would
// otherwise become an indented code block.
//
// Comment markers inside code spans and fenced or indented code are text.
// An unclosed %% is text too: one stray %% must not hide the rest of a
// published note.

var commentMark = []byte("%%")

// stripComments removes comments from src in place (in a copy when src
// is shared) and returns the shortened slice. src must use "\n" line
// endings.
func stripComments(src []byte, shared bool) []byte {
	if bytes.Index(src, commentMark) < 0 {
		return src
	}
	if shared {
		src = bytes.Clone(src)
	}
	s := commentScanner{src: src, prevBlank: true}
	return s.run()
}

type commentScanner struct {
	src []byte
	w   int // write position; always <= the read position

	inFence    bool
	fenceChar  byte
	fenceLen   int
	inIndented bool
	prevBlank  bool
	inList     bool
	// noCloser[n] = p: no closing run of n backticks exists before p (the
	// end of the paragraph searched last). It keeps pathological inputs
	// full of unmatched backticks linear.
	noCloser map[int]int
}

func (s *commentScanner) emit(b []byte) {
	s.w += copy(s.src[s.w:], b)
}

func (s *commentScanner) run() []byte {
	src := s.src
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		next := min(end+1, len(src))
		line := src[i:end]
		blank := isBlankLine(line)
		switch {
		case s.inFence:
			if s.closesFence(line) {
				s.inFence = false
			}
			s.emit(src[i:next])
			i = next
		case blank:
			s.emit(src[i:next])
			i = next
		case indentWidth(line) >= 4 && (s.inIndented || s.prevBlank) && !s.inList:
			s.inIndented = true
			s.emit(src[i:next])
			i = next
		default:
			s.inIndented = false
			content, item := stripContainerPrefix(line)
			if item {
				s.inList = true
			} else if s.prevBlank && indentWidth(line) == 0 {
				s.inList = false
			}
			if c, n := mdline.FenceOpen(content); n > 0 {
				s.inFence, s.fenceChar, s.fenceLen = true, c, n
				s.emit(src[i:next])
				i = next
			} else {
				i = s.inline(i)
			}
		}
		s.prevBlank = blank
	}
	return src[:s.w]
}

// inline copies text from i to the end of its line, skipping code spans
// and cutting comments; both may run over several lines. It returns the
// position after the last newline consumed.
func (s *commentScanner) inline(i int) int {
	src := s.src
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			s.emit(src[i : i+1])
			return i + 1
		case c == '\\' && i+1 < len(src) && src[i+1] != '\n':
			s.emit(src[i : i+2])
			i += 2
		case c == '`':
			n := 1
			for i+n < len(src) && src[i+n] == '`' {
				n++
			}
			if cl := s.closingTicks(i+n, n); cl >= 0 {
				s.emit(src[i : cl+n])
				i = cl + n
			} else {
				s.emit(src[i : i+n])
				i += n
			}
		case c == '%' && i+1 < len(src) && src[i+1] == '%':
			k := bytes.Index(src[i+2:], commentMark)
			if k < 0 {
				s.emit(src[i : i+2])
				i += 2
				continue
			}
			cend := i + 2 + k + 2
			for _, b := range src[i:cend] {
				if b == '\n' {
					s.src[s.w] = '\n'
					s.w++
				}
			}
			i = cend
		default:
			j := i + 1
			for j < len(src) && src[j] != '\n' && src[j] != '\\' && src[j] != '`' && src[j] != '%' {
				j++
			}
			s.emit(src[i:j])
			i = j
		}
	}
	return i
}

// closingTicks finds a run of exactly n backticks at or after from and
// before the end of the paragraph (a blank line), or returns -1.
func (s *commentScanner) closingTicks(from, n int) int {
	src := s.src
	if p, ok := s.noCloser[n]; ok && from < p {
		return -1
	}
	for i := from; i < len(src); {
		switch src[i] {
		case '`':
			j := i
			for j < len(src) && src[j] == '`' {
				j++
			}
			if j-i == n {
				return i
			}
			i = j
		case '\n':
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if j >= len(src) || src[j] == '\n' {
				s.remember(n, j)
				return -1
			}
			i = j
		default:
			i++
		}
	}
	s.remember(n, len(src))
	return -1
}

func (s *commentScanner) remember(n, p int) {
	if s.noCloser == nil {
		s.noCloser = make(map[int]int)
	}
	s.noCloser[n] = p
}

func (s *commentScanner) closesFence(line []byte) bool {
	content, _ := stripContainerPrefix(line)
	return mdline.FenceCloses(content, s.fenceChar, s.fenceLen)
}

// stripContainerPrefix drops indentation, blockquote markers and list
// markers from the start of a line, reporting whether it had a list marker.
func stripContainerPrefix(line []byte) (content []byte, listItem bool) {
	k := 0
	for {
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k >= len(line) {
			break
		}
		switch c := line[k]; {
		case c == '>':
			k++
			continue
		case c == '-' || c == '*' || c == '+':
			if k+1 == len(line) || line[k+1] == ' ' || line[k+1] == '\t' {
				k++
				listItem = true
				continue
			}
		case c >= '0' && c <= '9':
			j := k
			for j < len(line) && j-k < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j < len(line) && (line[j] == '.' || line[j] == ')') &&
				(j+1 == len(line) || line[j+1] == ' ' || line[j+1] == '\t') {
				k = j + 1
				listItem = true
				continue
			}
		}
		break
	}
	return line[k:], listItem
}

func indentWidth(line []byte) int {
	w := 0
	for _, c := range line {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

func isBlankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}
