package mdline

// FenceOpen returns the fence character ('`' or '~') and length when
// trimmed opens a fenced code block ("```go", "~~~~"): three or more of
// the character, and for backticks an info string without backticks
// ("```x```" is inline code).
func FenceOpen[T bytestring](trimmed T) (ch byte, n int) {
	if len(trimmed) < 3 || (trimmed[0] != '`' && trimmed[0] != '~') {
		return 0, 0
	}
	c := trimmed[0]
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0
	}
	if c == '`' {
		for i := n; i < len(trimmed); i++ {
			if trimmed[i] == '`' {
				return 0, 0
			}
		}
	}
	return c, n
}

// FenceCloses reports whether trimmed closes a block opened by n of ch: at
// least n of the same character and nothing else but blanks.
func FenceCloses[T bytestring](trimmed T, ch byte, n int) bool {
	k := 0
	for k < len(trimmed) && trimmed[k] == ch {
		k++
	}
	return k >= n && isBlank(trimmed[k:])
}

// Fence follows fenced code blocks through a file read line by line, so
// that headings and markers inside code are not taken for structure. The
// zero Fence is outside code.
type Fence struct {
	ch byte // the fence character of the open block, or 0
	n  int  // its length
}

// Code takes the next line, trimmed of its indentation, and reports
// whether it is code: a fence line, or a line inside a fenced block.
func (f *Fence) Code(trimmed string) bool {
	if f.ch != 0 {
		if FenceCloses(trimmed, f.ch, f.n) {
			f.ch = 0
		}
		return true
	}
	f.ch, f.n = FenceOpen(trimmed)
	return f.ch != 0
}

// Open reports whether a fenced block is open after the lines seen.
func (f *Fence) Open() bool { return f.ch != 0 }

// OpenBlock records that a caller which decides itself where a block may
// open (not in indented code, say) opened one with FenceOpen's result.
func (f *Fence) OpenBlock(ch byte, n int) { f.ch, f.n = ch, n }
