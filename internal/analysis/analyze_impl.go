package analysis

import (
	"sync"
	"unicode/utf8"
)

// Rune classes. The word classes (clsLower..clsOther) carry the case a
// camelCase boundary needs; the join classes are levels, most major first.
// assets/search/analyze.ts uses the same numbers.
const (
	clsSep    uint8 = iota // dropped, ends words
	clsIgnore              // invisible: folds to nothing, absorbed into the unit before it
	clsLower               // word: lower-case letter
	clsUpper               // word: upper- or title-case letter
	clsDigit               // word: folds to ASCII digits
	clsOther               // word: caseless letter, other number, kept mark
	clsCJK                 // Han, Hiragana, Katakana, Hangul: bigrammed
	clsVoice               // kana voicing mark: composes with the kana before it
	clsJoin1               // / \ @ :
	clsJoin2               // .
	clsJoin3               // _ -
)

// Fold kinds of a runeRange: how the folded form of a rune in the range is
// computed from the rune, the range's start and its arg.
const (
	foldDelta     uint8 = iota // r + arg
	foldString                 // foldStrings[arg]
	foldAltPair                // even offsets are upper case folding to r+1, odd ones lower case folding to r
	foldAltString              // even offsets upper case, odd ones lower case, all folding to foldStrings[arg]
)

// runeRange describes the code points from lo up to the next range's lo.
type runeRange struct {
	lo   rune
	cls  uint8
	kind uint8
	arg  int32
}

const (
	joinLevelCamel = 4 // cut level of a camelCase boundary, below the three joiner levels
	maxJoinLevel   = 5 // above every cut level
)

// asciiClass is the class of each ASCII byte, the hot path of analysis.
var asciiClass = func() (t [128]uint8) {
	for c := range t {
		t[c] = clsSep
		switch {
		case 'a' <= c && c <= 'z':
			t[c] = clsLower
		case 'A' <= c && c <= 'Z':
			t[c] = clsUpper
		case '0' <= c && c <= '9':
			t[c] = clsDigit
		}
	}
	t['/'], t['\\'], t['@'], t[':'] = clsJoin1, clsJoin1, clsJoin1, clsJoin1
	t['.'] = clsJoin2
	t['_'], t['-'] = clsJoin3, clsJoin3
	return t
}()

func isWordClass(c uint8) bool { return c >= clsLower && c <= clsOther }
func isJoinClass(c uint8) bool { return c >= clsJoin1 }
func isDigitByte(c byte) bool  { return '0' <= c && c <= '9' }

// lookupRange finds the index of the range holding a rune, trying hint
// first: text in one script stays in one range for long stretches (all of
// CJK Unified Ideographs is one), and the check saves a binary search.
func lookupRange(r rune, hint int) int {
	if hint+1 < len(runeRanges) && runeRanges[hint].lo <= r && r < runeRanges[hint+1].lo {
		return hint
	}
	lo, hi := 0, len(runeRanges)
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if runeRanges[m].lo <= r {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// classOf returns the class of r in its range e.
func (e *runeRange) classOf(r rune) uint8 {
	if e.kind >= foldAltPair && (r-e.lo)&1 == 1 {
		return clsLower
	}
	return e.cls
}

// appendFold appends the folded form of r, from its range e, to dst.
func (e *runeRange) appendFold(dst []byte, r rune) []byte {
	switch e.kind {
	case foldDelta:
		return utf8.AppendRune(dst, r+e.arg)
	case foldAltPair:
		if (r-e.lo)&1 == 0 {
			r++
		}
		return utf8.AppendRune(dst, r)
	}
	return append(dst, foldStrings[e.arg]...)
}

// foldRune returns the single-rune folded form of r, for CJK and voicing
// marks, whose folds are single runes (TestAnalyzeTablesUpToDate checks).
func (e *runeRange) foldRune(r rune) rune {
	if e.kind == foldDelta {
		return r + e.arg
	}
	x, _ := utf8.DecodeRuneInString(foldStrings[e.arg])
	return x
}

// tokSpan is a token whose term ends at termEnd in the segmenter's buf and
// starts where the term before it ends. Unlike Token it holds no pointer,
// so that the garbage collector neither scans it nor needs write barriers
// while it grows.
type tokSpan struct {
	termEnd    int
	start, end int
	pos        int
}

// unit is one code point of a compound being cut into leaves: where its
// source ends (after the invisible code points it absorbed), where its
// folded form ends in the segmenter's fold, and its class. Units are
// contiguous, so each starts where the one before ends; units[0] of a
// compound is a separator marking where the first one starts.
type unit struct {
	end int
	fb  int
	cls uint8
}

// leaf is a run of units [u0, u1) of a compound, and the level of the cut
// before it.
type leaf struct {
	u0, u1 int
	cut    uint8
}

// cjkRune is one folded rune of a CJK run and its source span.
type cjkRune struct {
	r          rune
	start, end int
}

// segmenter holds the state of one analysis. Its slices are reused from
// compound to compound, and through segmenters from text to text, so that
// analysis allocates per text, not per rune.
type segmenter struct {
	text string
	buf  []byte    // the terms, back to back
	toks []tokSpan // the tokens, with their terms as spans of buf
	pos  int       // position of the next leaf or bigram
	// lastRange is the index of the range of the last non-ASCII rune.
	lastRange int
	// noFastPath makes tests take the general path for every compound, to
	// check that simpleWord agrees with it.
	noFastPath bool
	// words makes a compound give its words (see Words) instead of its
	// tree of joined forms; compounds adds the whole compound before them
	// (see WordsAndCompounds).
	words, compounds bool
	units            []unit
	fold             []byte // folded form of the current compound
	leaves           []leaf
	cjk              []cjkRune
}

// decode returns the class of the code point at i, its size and, for
// non-ASCII, its range (nil for ASCII). Invalid UTF-8 decodes as U+FFFD, a
// separator.
func (s *segmenter) decode(i int) (cls uint8, r rune, size int, e *runeRange) {
	c := s.text[i]
	if c < utf8.RuneSelf {
		return asciiClass[c], rune(c), 1, nil
	}
	r, size = utf8.DecodeRuneInString(s.text[i:])
	s.lastRange = lookupRange(r, s.lastRange)
	e = &runeRanges[s.lastRange]
	return e.classOf(r), r, size, e
}

// segmenters recycles the scratch slices of segmenters. A build analyses
// every note, and without reuse most of the cost of analysis is allocating
// and collecting these slices; callers only get fresh, exactly sized
// results.
var segmenters = sync.Pool{New: func() any { return new(segmenter) }}

// maxPooled bounds the length of the slices a pooled segmenter keeps (in
// elements; bytes for buf and fold are counted in eights), so that one huge
// text does not pin its scratch memory for the rest of the process.
const maxPooled = 1 << 16

func getSegmenter() *segmenter { return segmenters.Get().(*segmenter) }

func (s *segmenter) release() {
	s.text = ""
	s.words, s.compounds = false, false
	if max(cap(s.toks), cap(s.units), cap(s.leaves), cap(s.cjk), cap(s.buf)/8, cap(s.fold)/8) <= maxPooled {
		segmenters.Put(s)
	}
}

// run analyses text into s.toks and s.buf.
func (s *segmenter) run(text string) {
	s.text = text
	s.toks, s.buf, s.pos = s.toks[:0], s.buf[:0], 0
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if cls := asciiClass[c]; isWordClass(cls) {
				i = s.compound(i)
			} else {
				i++
			}
			continue
		}
		cls, _, size, _ := s.decode(i)
		switch {
		case isWordClass(cls):
			i = s.compound(i)
		case cls == clsCJK:
			i = s.cjkRun(i)
		default:
			i += size
		}
	}
}

// terms returns the terms of the last run, sharing one backing string.
func (s *segmenter) terms() []string {
	terms := make([]string, len(s.toks))
	all := string(s.buf)
	from := 0
	for i, t := range s.toks {
		terms[i] = all[from:t.termEnd]
		from = t.termEnd
	}
	return terms
}

// emit appends a term, cut to MaxTermBytes at a rune boundary.
func (s *segmenter) emit(term []byte, start, end, pos int) {
	if len(term) > MaxTermBytes {
		n := MaxTermBytes
		for n > 0 && !utf8.RuneStart(term[n]) {
			n--
		}
		term = term[:n]
	}
	s.buf = append(s.buf, term...)
	s.toks = append(s.toks, tokSpan{termEnd: len(s.buf), start: start, end: end, pos: pos})
}

// compound analyses the compound starting at i (a word character) and
// returns where it ends.
func (s *segmenter) compound(i int) int {
	if !s.noFastPath {
		if end, ok := s.simpleWord(i); ok {
			return end
		}
	}
	text := s.text
	s.units, s.fold = append(s.units[:0], unit{end: i}), s.fold[:0]
	lastWord := 1 // index of the last word unit: joiners after it are pending
scan:
	for j := i; j < len(text); {
		cls, r, size, e := s.decode(j)
		switch {
		case isWordClass(cls) || isJoinClass(cls):
			if e == nil {
				if cls == clsUpper {
					r += 'a' - 'A'
				}
				s.fold = append(s.fold, byte(r))
			} else {
				s.fold = e.appendFold(s.fold, r)
			}
			if isWordClass(cls) {
				lastWord = len(s.units)
			}
			s.units = append(s.units, unit{end: j + size, fb: len(s.fold), cls: cls})
		case cls == clsIgnore:
			s.units[len(s.units)-1].end = j + size
		default:
			break scan
		}
		j += size
	}
	// Joiners after the last word character are not part of the compound.
	s.units = s.units[:lastWord+1]
	s.fold = s.fold[:s.units[lastWord].fb]
	// A t between digits cuts like '.', so that an ISO 8601 timestamp
	// (2026-10-21T08:10:37Z) yields its date.
	for k := 2; k+1 < len(s.units); k++ {
		u, prev := &s.units[k], &s.units[k-1]
		if u.fb-prev.fb == 1 && s.fold[prev.fb] == 't' && prev.cls == clsDigit && s.units[k+1].cls == clsDigit {
			u.cls = clsJoin2
		}
	}
	s.cutLeaves()
	if s.words {
		s.emitWords()
	} else {
		s.emitNode(0, len(s.leaves))
	}
	return s.units[lastWord].end
}

// simpleWord handles the common case of a compound that is one leaf of
// ASCII letters and digits with no camelCase boundary (lower case after
// an optional capital, or no lower case at all) and returns its end. It
// declines (ok false) whenever the general path could cut, fold or extend
// the word differently.
func (s *segmenter) simpleWord(i int) (end int, ok bool) {
	text := s.text
	var lower, upper bool // letters seen after the first byte
	j := i + 1
	for ; j < len(text); j++ {
		c := text[j]
		if c >= utf8.RuneSelf {
			return 0, false
		}
		if c|0x20 == 't' && isDigitByte(text[j-1]) && j+1 < len(text) && isDigitByte(text[j+1]) {
			return 0, false // a t between digits cuts the word
		}
		cls := asciiClass[c]
		if cls == clsLower {
			lower = true
		} else if cls == clsUpper {
			upper = true
		} else if cls != clsDigit {
			break
		}
	}
	if upper && (lower || asciiClass[text[i]] == clsLower) {
		return 0, false
	}
	// A joiner run continues the compound unless an ASCII separator or
	// the end of the text follows it.
	for k := j; k < len(text); k++ {
		c := text[k]
		if c >= utf8.RuneSelf {
			return 0, false
		}
		cls := asciiClass[c]
		if cls == clsSep {
			break
		}
		if !isJoinClass(cls) {
			return 0, false
		}
	}
	a := len(s.buf)
	n := min(j-i, MaxTermBytes) // ASCII: every byte is a rune boundary
	s.buf = append(s.buf, text[i:i+n]...)
	if upper || asciiClass[text[i]] == clsUpper {
		for k := a; k < len(s.buf); k++ {
			if c := s.buf[k]; 'A' <= c && c <= 'Z' {
				s.buf[k] = c + 'a' - 'A'
			}
		}
	}
	s.toks = append(s.toks, tokSpan{termEnd: len(s.buf), start: i, end: j, pos: s.pos})
	s.pos++
	return j, true
}

// cutLeaves cuts the units of the current compound into leaves, at joiner
// runs (level of the most major joiner in the run) and at camelCase
// boundaries (joinLevelCamel).
func (s *segmenter) cutLeaves() {
	u := s.units
	s.leaves = s.leaves[:0]
	cut := uint8(0) // the first leaf has no cut before it
	for k := 1; k < len(u); {
		start := k
		for k++; k < len(u) && isWordClass(u[k].cls); k++ {
			if camelBoundary(u, k) {
				s.leaves = append(s.leaves, leaf{u0: start, u1: k, cut: cut})
				start, cut = k, joinLevelCamel
			}
		}
		s.leaves = append(s.leaves, leaf{u0: start, u1: k, cut: cut})
		cut = maxJoinLevel
		for ; k < len(u) && isJoinClass(u[k].cls); k++ {
			// Join classes are numbered from the most major level up.
			cut = min(cut, u[k].cls-clsJoin1+1)
		}
	}
}

// camelBoundary reports whether a camelCase boundary falls before word
// unit k, whose predecessor is a word unit: lower|Upper, or before the last
// upper-case letter of a run of upper case and digits when two lower-case
// letters follow it (HTTP|Server, v2|Beta, but URLs, IPv6).
func camelBoundary(u []unit, k int) bool {
	if u[k].cls != clsUpper {
		return false
	}
	switch u[k-1].cls {
	case clsLower:
		return true
	case clsUpper, clsDigit:
		return k+2 < len(u) && u[k+1].cls == clsLower && u[k+2].cls == clsLower
	}
	return false
}

// emitNode emits the leaves [a, b) of the current compound: their joined
// form when there is more than one, then, recursively, the parts between
// the most major cuts inside them.
func (s *segmenter) emitNode(a, b int) {
	before, last := &s.units[s.leaves[a].u0-1], &s.units[s.leaves[b-1].u1-1]
	s.emit(s.fold[before.fb:last.fb], before.end, last.end, s.pos)
	if b-a == 1 {
		s.pos++
		return
	}
	major := uint8(maxJoinLevel)
	for k := a + 1; k < b; k++ {
		major = min(major, s.leaves[k].cut)
	}
	from := a
	for k := a + 1; k < b; k++ {
		if s.leaves[k].cut == major {
			s.emitNode(from, k)
			from = k
		}
	}
	s.emitNode(from, b)
}

// emitWords emits the words of the current compound, the runs of leaves
// with only camelCase boundaries between them, after the whole compound
// when s.compounds is set and it has more than one word.
func (s *segmenter) emitWords() {
	emit := func(a, b int) {
		before, last := &s.units[s.leaves[a].u0-1], &s.units[s.leaves[b-1].u1-1]
		s.emit(s.fold[before.fb:last.fb], before.end, last.end, s.pos)
	}
	if s.compounds {
		for _, l := range s.leaves[1:] {
			if l.cut < joinLevelCamel {
				emit(0, len(s.leaves))
				break
			}
		}
	}
	from := 0
	for k := 1; k <= len(s.leaves); k++ {
		if k == len(s.leaves) || s.leaves[k].cut < joinLevelCamel {
			emit(from, k)
			s.pos++
			from = k
		}
	}
}

// cjkRun analyses the run of CJK characters starting at i as bigrams and
// returns where it ends.
func (s *segmenter) cjkRun(i int) int {
	text := s.text
	s.cjk = s.cjk[:0]
	j := i
scan:
	for j < len(text) {
		cls, r, size, e := s.decode(j)
		switch cls {
		case clsCJK:
			x := e.foldRune(r)
			if n := len(s.cjk); n > 0 {
				if c, ok := composeHangul(s.cjk[n-1].r, x); ok {
					s.cjk[n-1].r, s.cjk[n-1].end = c, j+size
					break
				}
			}
			s.cjk = append(s.cjk, cjkRune{r: x, start: j, end: j + size})
		case clsVoice:
			last := &s.cjk[len(s.cjk)-1]
			if c, ok := composeVoiced(last.r, e.foldRune(r)); ok {
				last.r = c
			}
			// A voicing mark that composes with nothing is dropped.
			last.end = j + size
		case clsIgnore:
			s.cjk[len(s.cjk)-1].end = j + size
		default:
			break scan
		}
		j += size
	}
	var pair [2 * utf8.UTFMax]byte
	if len(s.cjk) == 1 {
		c := s.cjk[0]
		s.emit(utf8.AppendRune(pair[:0], c.r), c.start, c.end, s.pos)
		s.pos++
		return j
	}
	for k := 0; k+1 < len(s.cjk); k++ {
		a, b := s.cjk[k], s.cjk[k+1]
		s.emit(utf8.AppendRune(utf8.AppendRune(pair[:0], a.r), b.r), a.start, b.end, s.pos)
		s.pos++
	}
	return j
}

// Conjoining jamo, composed algorithmically (Unicode 15.0, section 3.12).
const (
	hangulSBase, hangulLBase, hangulVBase, hangulTBase = 0xAC00, 0x1100, 0x1161, 0x11A7
	hangulLCount, hangulVCount, hangulTCount           = 19, 21, 28
	hangulSCount                                       = hangulLCount * hangulVCount * hangulTCount
)

// composeHangul composes a leading consonant and a vowel jamo, or an LV
// syllable and a trailing consonant jamo, into a syllable.
func composeHangul(a, b rune) (rune, bool) {
	if l, v := a-hangulLBase, b-hangulVBase; 0 <= l && l < hangulLCount && 0 <= v && v < hangulVCount {
		return hangulSBase + (l*hangulVCount+v)*hangulTCount, true
	}
	if sv, t := a-hangulSBase, b-hangulTBase; 0 <= sv && sv < hangulSCount && sv%hangulTCount == 0 && 0 < t && t < hangulTCount {
		return a + t, true
	}
	return 0, false
}

// composeVoiced composes kana and a voicing mark (U+3099, U+309A).
func composeVoiced(kana, mark rune) (rune, bool) {
	for _, v := range voicedKana {
		if v[0] == kana && v[1] == mark {
			return v[2], true
		}
	}
	return 0, false
}
