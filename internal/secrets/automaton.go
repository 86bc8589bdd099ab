package secrets

// automaton finds every occurrence of a fixed set of keywords in one pass
// over a text (Aho-Corasick). It is the guard's prefilter, as in gitleaks:
// nothing more expensive than a table lookup happens at a byte unless a
// keyword may end there. Unlike gitleaks it never lower-cases a copy of the
// text: ASCII letters of either case fall into the same byte class, so a
// keyword matches in any ASCII case and the detector behind it checks the
// case it needs.
//
// The table is kept small enough for the CPU's first-level cache, since
// each byte's lookup waits for the one before: the automaton runs on the
// first few bytes of each keyword only (prefixes short enough for 16-bit
// entries), and the rest of a keyword is compared where a prefix ends.
type automaton struct {
	// class maps a byte to its column in delta; bytes that occur in no
	// keyword prefix share column 0.
	class [256]uint8
	width int
	// delta is the transition table, one row of width columns per state,
	// holding the next state's row offset (state*width). States where a
	// prefix ends are numbered last, so "row >= final" tells them apart.
	delta []uint16
	final uint16
	// ends lists, per state from final on, the keywords (indexes into
	// keywords) whose prefix ends there, including those ending in a suffix.
	ends [][]int32
	// keywords and prefix: each keyword, and the length of its prefix in
	// the table.
	keywords []string
	prefix   []int32
}

// fold lower-cases an ASCII letter and leaves every other byte alone.
func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// equalFold reports whether s and t are equal ignoring ASCII case.
func equalFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if fold(s[i]) != fold(t[i]) {
			return false
		}
	}
	return true
}

// newAutomaton builds the automaton for keywords. Empty keywords are
// ignored; duplicates are reported under each of their indexes.
func newAutomaton(keywords []string) *automaton {
	// The longest prefixes whose table fits 16-bit offsets.
	for n := 8; ; n-- {
		if a := buildAutomaton(keywords, n); a != nil || n == 1 {
			return a
		}
	}
}

// buildAutomaton builds the automaton on prefixes of at most n bytes, or
// returns nil when its table does not fit 16-bit offsets.
func buildAutomaton(keywords []string, n int) *automaton {
	a := &automaton{keywords: keywords, prefix: make([]int32, len(keywords))}
	for i, k := range keywords {
		a.prefix[i] = int32(min(len(k), n))
		for j := 0; j < int(a.prefix[i]); j++ {
			c := fold(k[j])
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
	out := [][]int32{nil}
	for id, k := range keywords {
		if k == "" {
			continue
		}
		s := int32(0)
		for j := 0; j < int(a.prefix[id]); j++ {
			c := a.class[k[j]]
			if trie[s][c] < 0 {
				trie[s][c] = int32(len(trie))
				trie = append(trie, child())
				out = append(out, nil)
			}
			s = trie[s][c]
		}
		out[s] = append(out[s], int32(id))
	}
	states := len(trie)
	if states*a.width > 1<<16 {
		return nil
	}

	// Breadth-first: each state's failure link is the longest proper
	// suffix that is also a trie state; its transitions and outputs are
	// inherited from there.
	fail := make([]int32, states)
	next := make([][]int32, states)
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

	// Renumber: states without outputs first, then those with.
	order := make([]int32, 0, states)
	for s := range states {
		if len(out[s]) == 0 {
			order = append(order, int32(s))
		}
	}
	a.final = uint16(len(order) * a.width)
	for s := range states {
		if len(out[s]) > 0 {
			order = append(order, int32(s))
			a.ends = append(a.ends, out[s])
		}
	}
	number := make([]int32, states)
	for i, s := range order {
		number[s] = int32(i)
	}
	a.delta = make([]uint16, states*a.width)
	for i, s := range order {
		for c := 0; c < a.width; c++ {
			a.delta[i*a.width+c] = uint16(int(number[next[s][c]]) * a.width)
		}
	}
	return a
}

// scan calls hit for every occurrence of a keyword in text, in the order
// the occurrences end, until hit returns true.
func (a *automaton) scan(text string, hit func(id, start, end int) bool) {
	// Locals, so the loop keeps them in registers across hit's calls.
	delta, class, final := a.delta, &a.class, a.final
	row := uint16(0)
	for i := 0; i < len(text); i++ {
		row = delta[int(row)+int(class[text[i]])]
		if row < final {
			continue
		}
		for _, id := range a.ends[int(row-final)/a.width] {
			start := i + 1 - int(a.prefix[id])
			kw := a.keywords[id]
			end := start + len(kw)
			if end > len(text) || len(kw) > int(a.prefix[id]) && !equalFold(text[start:end], kw) {
				continue
			}
			if hit(int(id), start, end) {
				return
			}
		}
	}
}

// contains reports whether text holds any keyword.
func (a *automaton) contains(text string) bool {
	found := false
	a.scan(text, func(int, int, int) bool {
		found = true
		return true
	})
	return found
}
