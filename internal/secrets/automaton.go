package secrets

// automaton finds every occurrence of a fixed set of keywords in one pass
// over a text (Aho-Corasick). It is the guard's prefilter, as in gitleaks:
// nothing more expensive than a table lookup happens at a byte unless a
// keyword ends there. Unlike gitleaks it never lower-cases a copy of the
// text: ASCII letters of either case fall into the same byte class, so a
// keyword matches in any ASCII case and the detector behind it checks the
// case it needs.
type automaton struct {
	// class maps a byte to its column in delta; bytes that occur in no
	// keyword share column 0.
	class [256]uint8
	width int
	// delta is the transition table, one row of width columns per state.
	// An entry holds the next state's row offset (state*width), negated
	// with ^ when a keyword ends in that state, so the scan loop tests one
	// sign bit per byte.
	delta []int32
	// ends lists, per state, the keywords (indexes into the slice given to
	// newAutomaton) that end there, including those ending in a suffix.
	ends [][]int32
	// lens holds each keyword's length, to turn an end into a start.
	lens []int32
}

// fold lower-cases an ASCII letter and leaves every other byte alone.
func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// newAutomaton builds the automaton for keywords. Empty keywords are
// ignored; duplicates are reported under each of their indexes.
func newAutomaton(keywords []string) *automaton {
	a := &automaton{lens: make([]int32, len(keywords))}
	for _, k := range keywords {
		for i := 0; i < len(k); i++ {
			c := fold(k[i])
			if a.class[c] == 0 {
				a.width++
				a.class[c] = uint8(a.width)
			}
		}
	}
	a.width++ // column 0
	for c := 'A'; c <= 'Z'; c++ {
		a.class[c] = a.class[c+('a'-'A')]
	}

	// The trie, with -1 for a missing child.
	child := func() []int32 {
		row := make([]int32, a.width)
		for i := range row {
			row[i] = -1
		}
		return row
	}
	trie := [][]int32{child()}
	var out [][]int32
	out = append(out, nil)
	for id, k := range keywords {
		a.lens[id] = int32(len(k))
		if k == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(k); i++ {
			c := a.class[k[i]]
			if trie[s][c] < 0 {
				trie[s][c] = int32(len(trie))
				trie = append(trie, child())
				out = append(out, nil)
			}
			s = trie[s][c]
		}
		out[s] = append(out[s], int32(id))
	}

	// Breadth-first: each state's failure link is the longest proper
	// suffix that is also a trie state; its transitions and outputs are
	// inherited from there.
	n := len(trie)
	fail := make([]int32, n)
	next := make([][]int32, n)
	next[0] = make([]int32, a.width)
	queue := []int32{}
	for c := 0; c < a.width; c++ {
		if s := trie[0][c]; s >= 0 {
			next[0][c] = s
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		out[s] = append(out[s], out[fail[s]]...)
		next[s] = make([]int32, a.width)
		for c := 0; c < a.width; c++ {
			if t := trie[s][c]; t >= 0 {
				fail[t] = next[fail[s]][c]
				next[s][c] = t
				queue = append(queue, t)
			} else {
				next[s][c] = next[fail[s]][c]
			}
		}
	}

	a.ends = out
	a.delta = make([]int32, n*a.width)
	for s := 0; s < n; s++ {
		for c := 0; c < a.width; c++ {
			t := next[s][c]
			v := t * int32(a.width)
			if len(out[t]) > 0 {
				v = ^v
			}
			a.delta[s*a.width+c] = v
		}
	}
	return a
}

// contains reports whether text holds any keyword.
func (a *automaton) contains(text string) bool {
	row := int32(0)
	for i := 0; i < len(text); i++ {
		row = a.delta[row+int32(a.class[text[i]])]
		if row < 0 {
			return true
		}
	}
	return false
}
