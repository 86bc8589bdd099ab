package analysis

import (
	"unicode/utf8"
)

// Version identifies the analysis rules below. Anything that stores
// terms (static shards, the bleve index) records it and rebuilds when it
// changes; assets/search/analyze.ts exports the same number. Bump it with
// every change to the rules or to analyze_tables.go.
const Version = 1

// MaxTermBytes is the longest term, in UTF-8 bytes, that analysis emits.
// Longer terms are cut at the last rune boundary that fits, so that a
// query for a long identifier, hash or URL cuts it the same way and still
// matches. 64 bytes holds a SHA-256 in hex.
const MaxTermBytes = 64

// Token is one term of an analysed text, with where it came from.
type Token struct {
	// Term is the folded term, at most MaxTermBytes long.
	Term string
	// Start and End are the byte offsets of the term's source in the
	// analysed text, for highlighting: text[Start:End] is what the reader
	// sees (before folding, with any absorbed invisible code points).
	Start, End int
	// Pos is the term's word position, for phrase queries. Leaves and CJK
	// bigrams count 0, 1, 2, ...; the joined forms of a compound share the
	// position of their first leaf (see Analyze).
	Pos int
}

// Analyze returns the terms of text, in order, as AnalyzeTokens does.
//
// The rules, shared with assets/search/analyze.ts and pinned by
// testdata/analysis.json (a change to any of them is a change of
// Version):
//
// Folding. Each code point is folded on its own, by tables derived from
// Unicode 15.0 (analyze_tables.go; see analyze_gen_test.go): simple case
// folding (lower case of the upper case: Σ ς σ all give σ); decomposition
// (canonical everywhere, compatibility as well in Latin, punctuation,
// letterlike and number forms, enclosed alphanumerics, ligatures and
// full/half-width forms: Ａ→a, ﬁ→fi, ²→2, ①→1, Ⅻ→xii); removal of the
// diacritic marks this leaves behind (combining diacritics, Hebrew points,
// Arabic harakat; not the marks of Indic and other scripts, which spell
// different words); letters that do not decompose are mapped to what a
// reader types (ł→l, ø→o, đ ð→d, ß→ss, æ→ae, œ→oe, þ→th, ı→i, ħ→h, ...),
// while the Cyrillic letters й ї ў ѓ ќ, which have keys of their own, are
// not decomposed (ё is: it is commonly written е); decimal digits of every script become ASCII digits (٣→3). CJK is never
// decomposed, only half-width forms are widened (ｶﾀｶﾅ→カタカナ). Code points
// that are default-ignorable (soft hyphen, ZWJ, ZWNJ, variation selectors,
// bidi controls) or Arabic tatweel are invisible: they never split a word
// and fold to nothing. U+200B ZERO WIDTH SPACE separates words.
//
// Classes. After folding, a code point is a word character (letters,
// numbers and the combining marks that were kept), a CJK character (letters
// of the Han, Hiragana, Katakana and Hangul scripts, plus ー and the kana
// repeat marks), a joiner (/ \ @ : then . then _ - and their full-width
// forms and ‐ ‑), or a separator (everything else: spaces, punctuation,
// symbols, emoji, code points unassigned in Unicode 15.0, invalid UTF-8).
// Separators are dropped.
//
// Compounds. A compound is a maximal run of word characters and joiners
// that starts and ends with a word character: W+ (J+ W+)*. Joiners at its
// edges are separators ("end." gives "end"). A compound is cut into leaves
// at its joiners and at camelCase boundaries, with four levels, most major
// first: 1 at a joiner run containing / \ @ or :, 2 at one containing . ,
// 3 at one containing only _ or -, 4 at a camelCase boundary. A camelCase
// boundary falls before an upper-case letter that follows a lower-case
// letter (camel|Case, mac|OS), and before the last upper-case letter of a
// run of upper-case letters or digits when two lower-case letters follow
// it (HTTP|Server, HTTP2|Response, 3D|Model; but URLs, IPv6, 2FA stay
// whole). Letter-digit transitions are not boundaries (sha256, v1). A t
// between two digits cuts at level 2, so that an ISO 8601 timestamp
// (2026-10-21T08:10:37Z) yields its date.
//
// A compound with one leaf is one term. Otherwise Analyze emits the whole
// compound, then recursively each part between the most major cuts inside
// it that has more than one leaf, then the leaves, in pre-order (ordered by
// Start, longer first). Joiners stay in joined forms:
//
//	E_AUTH_4031           e_auth_4031 e auth 4031
//	10.0.0.1:8080         10.0.0.1:8080 10.0.0.1 10 0 0 1 8080
//	memory/2026-10-21.md  memory/2026-10-21.md memory 2026-10-21.md 2026-10-21 2026 10 21 md
//	getUserName           getusername get user name
//
// Leaves take consecutive positions; a joined form takes the position of
// its first leaf, as a synonym of it. So a phrase query analysed with the
// same rules lines up with the document either way.
//
// CJK. A maximal run of CJK characters is emitted as overlapping bigrams
// (東京タワー: 東京 京タ タワ ワー), one position each, as bleve's cjk
// analyzer does; a run of one character is a unigram. Runs split from
// adjacent word characters (Go言語: go 言語). Inside a run, kana followed by
// a combining voicing mark (U+3099, U+309A, ﾞ, ﾟ) is composed (か+゙→が) and
// conjoining Hangul jamo are composed into syllables, so text in NFD (as
// macOS file names are) analyses like NFC text. A bigram index has no
// unigrams: a query side that wants single-character CJK queries to match
// must look them up as prefixes of bigram terms.
//
// Terms are cut to MaxTermBytes. There are no stop words and no stemming:
// an agent's memory is full of identifiers, and predictable matching
// beats recall of inflections there.
func Analyze(text string) []string {
	s := getSegmenter()
	defer s.release()
	s.run(text)
	return s.terms()
}

// AnalyzeTokens returns the tokens of text, following the rules of Analyze.
// Tokens are ordered by Start, then by End descending; the terms of one
// call share one backing string.
func AnalyzeTokens(text string) []Token {
	s := getSegmenter()
	defer s.release()
	s.run(text)
	toks := make([]Token, len(s.toks))
	all := string(s.buf)
	from := 0
	for i, t := range s.toks {
		tk := &toks[i]
		tk.Term = all[from:t.termEnd]
		tk.Start, tk.End, tk.Pos = t.start, t.end, t.pos
		from = t.termEnd
	}
	return toks
}

// EachTerm calls fn with each term of text, in the order of Analyze. The
// term is scratch memory, valid only during the call: fn copies what it
// keeps. It serves callers that count terms (the static index counts every
// term of every note) and would otherwise allocate a string per term only
// to look it up.
func EachTerm(text string, fn func(term []byte)) {
	s := getSegmenter()
	defer s.release()
	s.run(text)
	from := 0
	for _, t := range s.toks {
		fn(s.buf[from:t.termEnd])
		from = t.termEnd
	}
}

// CJKUnigram reports whether a term is one character of the CJK blocks
// (U+2E80 and up). Analyze gives such a term only for a CJK run of one
// character, and a bigram index holds the character only inside bigrams,
// so a query looks it up as a prefix of bigram terms.
func CJKUnigram(term string) bool {
	r, n := utf8.DecodeRuneInString(term)
	return n == len(term) && r >= 0x2E80
}
