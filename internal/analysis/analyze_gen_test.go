package analysis

// This file derives the rune tables of the analysis (analyze_tables.go and
// the generated block of assets/search/analyze.ts) from the Unicode tables
// of the Go toolchain (package unicode) and golang.org/x/text/unicode/norm.
// It is a test, not a go:generate program, so that the derivation is
// checked on every test run: TestAnalyzeTablesUpToDate fails when the
// committed tables no longer match their definition here.
//
// Regenerate with:
//
//	go test ./internal/analysis -run TestAnalyzeTablesUpToDate -update-analysis

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// updateAnalysis is not called -update so that it cannot clash with the
// golden-file flag of other tests in this package.
var updateAnalysis = flag.Bool("update-analysis", false, "rewrite analyze_tables.go, the table block of assets/search/analyze.ts and the tokens of testdata/analysis.json")

const (
	tablesGoFile = "analyze_tables.go"
	tablesTSFile = "../../assets/search/analyze.ts"
	tsBeginMark  = "// BEGIN GENERATED TABLES (go test ./internal/analysis -run TestAnalyzeTablesUpToDate -update-analysis)"
	tsEndMark    = "// END GENERATED TABLES"
)

// ignorableRanges are invisible code points: Unicode's
// Default_Ignorable_Code_Point (DerivedCoreProperties 15.0) without U+200B
// ZERO WIDTH SPACE, which Thai, Khmer and Japanese text use as a word
// separator, plus U+0640 ARABIC TATWEEL, which only stretches a word.
// They never split a word (soft hyphen, ZWJ and ZWNJ occur inside words).
var ignorableRanges = [][2]rune{
	{0x00AD, 0x00AD}, {0x034F, 0x034F}, {0x061C, 0x061C}, {0x0640, 0x0640},
	{0x115F, 0x1160}, {0x17B4, 0x17B5}, {0x180B, 0x180F}, {0x200C, 0x200F},
	{0x202A, 0x202E}, {0x2060, 0x206F}, {0x3164, 0x3164}, {0xFE00, 0xFE0F},
	{0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3},
	{0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
}

// diacriticRanges are the blocks whose combining marks are diacritics to
// fold away: the general combining diacritics, Cyrillic titlo, Hebrew
// points and cantillation, Arabic harakat and Quranic marks. Marks of other
// scripts (Indic vowel signs, Thai tone marks, ...) spell different words
// and are kept.
var diacriticRanges = [][2]rune{
	{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05C7}, {0x0610, 0x061A},
	{0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06ED}, {0x1AB0, 0x1AFF},
	{0x1DC0, 0x1DFF}, {0x20D0, 0x20FF}, {0xFE20, 0xFE2F},
}

// compatRanges are the blocks whose compatibility decompositions (NFKD) are
// applied: Latin and its phonetic extensions (ĳ, ǆ, ſ, ʰ), general
// punctuation, super- and subscripts, letterlike symbols, number forms and
// enclosed alphanumerics (², ℌ, Ⅻ, ①), alphabetic presentation forms (ﬁ)
// and half- and full-width forms. Elsewhere only canonical decompositions
// (NFD) apply: compatibility forms of other blocks (Arabic presentation
// forms, CJK compatibility ideographs, mathematical alphanumerics) are rare
// in notes and would triple the size of the tables shipped to browsers.
var compatRanges = [][2]rune{
	{0x0000, 0x052F}, {0x1D00, 0x1EFF}, {0x2000, 0x24FF}, {0xFB00, 0xFB4F},
	{0xFF00, 0xFFEF},
}

// letterFolds maps case-folded letters that have no Unicode decomposition
// to the ASCII a reader would type for them (as Lucene's ASCIIFoldingFilter
// does). Keys are looked up before and after decomposition.
var letterFolds = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d",
	'þ': "th", 'ħ': "h", 'ŧ': "t", 'ŀ': "l", 'ŉ': "n", 'ƀ': "b", 'ƒ': "f",
	'ǥ': "g", 'ɨ': "i", 'ɍ': "r", 'ʉ': "u", 'ȼ': "c", 'ɇ': "e", 'ɉ': "j",
	'ƚ': "l", 'ɏ': "y", 'ƶ': "z", 'ȥ': "z", 'ȷ': "j",
	// Unicode hyphens join like '-' ("ERR‐502").
	'\u2010': "-", '\u2011': "-",
	// These Cyrillic letters decompose, but they are letters of their own
	// with their own keys, not accented ones: й is not и. (ё is folded: it
	// is commonly written е.)
	'й': "й", 'ї': "ї", 'ў': "ў", 'ѓ': "ѓ", 'ќ': "ќ",
}

func inRanges(r rune, rs [][2]rune) bool {
	for _, x := range rs {
		if x[0] <= r && r <= x[1] {
			return true
		}
	}
	return false
}

func isDiacritic(r rune) bool {
	return inRanges(r, diacriticRanges) && (unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc))
}

// caseFold is simple (one rune to one rune) case folding: the lower case of
// the upper case, so that every member of a case orbit (σ ς Σ, k K K, s ſ S)
// folds to one rune. TestAnalyzeTablesUpToDate checks the orbit property.
func caseFold(r rune) rune {
	return unicode.ToLower(unicode.ToUpper(r))
}

func isCJKRune(r rune) bool {
	if r == 0x30FC || (0x3031 <= r && r <= 0x3035) {
		// Prolonged sound mark and kana repeat marks are script Common but
		// belong inside Japanese words ("コーヒー").
		return true
	}
	if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// digitValue returns the value of a decimal digit (Nd). Unicode encodes
// every decimal digit set as ten contiguous code points starting at zero.
func digitValue(r rune) (int, bool) {
	if !unicode.IsDigit(r) {
		return 0, false
	}
	for _, rg := range unicode.Nd.R16 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10, true
		}
	}
	return 0, false
}

// deriveRune defines the analysis of one code point: its class and its
// folded form. See the package documentation of Analyze for the rules.
func deriveRune(r rune) (cls uint8, fold string) {
	switch {
	case r >= 0xD800 && r <= 0xDFFF, r > unicode.MaxRune:
		return clsSep, ""
	case r < 0x80:
		switch {
		case 'A' <= r && r <= 'Z':
			return clsUpper, string(r + 'a' - 'A')
		case 'a' <= r && r <= 'z':
			return clsLower, string(r)
		case '0' <= r && r <= '9':
			return clsDigit, string(r)
		}
		if c := joinClass(r); c != clsSep {
			return c, string(r)
		}
		return clsSep, ""
	case inRanges(r, ignorableRanges), isDiacritic(r):
		return clsIgnore, ""
	case r == 0x3099 || r == 0x309A:
		return clsVoice, string(r)
	case 0xAC00 <= r && r <= 0xD7A3:
		// Hangul syllables are left composed: decomposing them to jamo
		// would bigram jamo instead of syllables.
		return clsCJK, string(r)
	}
	var out []rune
	if s, ok := letterFolds[caseFold(r)]; ok {
		out = []rune(s)
	} else if isCJKRune(r) {
		// CJK is not decomposed: stripping U+3099 from が would turn it
		// into か. Only half-width forms are widened (ｶﾀｶﾅ -> カタカナ).
		if inRanges(r, [][2]rune{{0xFF00, 0xFFEF}}) {
			return clsCJK, norm.NFKC.String(string(r))
		}
		return clsCJK, string(r)
	} else {
		form := norm.NFD
		if inRanges(r, compatRanges) {
			form = norm.NFKD
		}
		for _, x := range form.String(string(caseFold(r))) {
			if isDiacritic(x) {
				continue
			}
			x = caseFold(x)
			if s, ok := letterFolds[x]; ok {
				out = append(out, []rune(s)...)
				continue
			}
			if v, ok := digitValue(x); ok {
				x = rune('0' + v)
			}
			out = append(out, x)
		}
	}
	fold = string(out)
	switch {
	case len(out) == 0:
		return clsIgnore, ""
	case len(out) == 1 && out[0] < 0x80:
		if c, _ := deriveRune(out[0]); c >= clsJoin1 {
			return c, fold
		}
	case len(out) == 1 && (out[0] == 0x3099 || out[0] == 0x309A):
		return clsVoice, fold
	}
	if !isWordRune(out[0]) {
		return clsSep, ""
	}
	for _, x := range out {
		if !isWordRune(x) || isCJKRune(x) {
			// A compatibility form that mixes in punctuation or spaces
			// (½, ⑴, ﷺ) is a separator, not a word.
			return clsSep, ""
		}
	}
	switch {
	case allRunes(fold, func(x rune) bool { return '0' <= x && x <= '9' }):
		return clsDigit, fold
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return clsUpper, fold
	case unicode.IsLower(r):
		return clsLower, fold
	}
	return clsOther, fold
}

// isWordRune reports whether r belongs in words: letters, numbers and the
// combining marks that are not folded away (Indic vowel signs spell words).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

func joinClass(r rune) uint8 {
	switch r {
	case '/', '\\', '@', ':':
		return clsJoin1
	case '.':
		return clsJoin2
	case '_', '-':
		return clsJoin3
	}
	return clsSep
}

func allRunes(s string, f func(rune) bool) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !f(r) {
			return false
		}
	}
	return true
}

// derivedTables is the whole code space as ranges of equal class and
// equal fold pattern.
type derivedTables struct {
	ranges  []runeRange
	strs    []string
	voiced  [][3]rune // kana, mark, composed
	version string
}

func deriveTables() derivedTables {
	var t derivedTables
	t.version = unicode.Version
	strIndex := map[string]int{}
	str := func(s string) int32 {
		i, ok := strIndex[s]
		if !ok {
			i = len(t.strs)
			t.strs = append(t.strs, s)
			strIndex[s] = i
		}
		return int32(i)
	}
	n := int(unicode.MaxRune) + 1
	classes := make([]uint8, n)
	folds := make([]string, n)
	for r := range rune(n) {
		classes[r], folds[r] = deriveRune(r)
		if classes[r] == clsSep || classes[r] == clsIgnore {
			folds[r] = ""
		}
	}
	single := func(r rune) (rune, bool) {
		x, size := utf8.DecodeRuneInString(folds[r])
		return x, size > 0 && size == len(folds[r])
	}
	// runLen counts the code points from lo on that match pattern p.
	runLen := func(lo rune, p func(r rune) bool) int {
		k := 0
		for r := lo; int(r) < n && p(r); r++ {
			k++
		}
		return k
	}
	for lo := rune(0); int(lo) < n; {
		cls, fold := classes[lo], folds[lo]
		x0, one := single(lo)
		best := runeRange{lo: lo, cls: cls, kind: foldString}
		bestLen := runLen(lo, func(r rune) bool { return classes[r] == cls && folds[r] == fold })
		if fold == "" || one {
			delta := x0 - lo
			if fold == "" {
				delta = 0
			}
			if k := runLen(lo, func(r rune) bool {
				x, ok := single(r)
				return classes[r] == cls && (fold == "" && folds[r] == "" || ok && x-r == delta)
			}); k >= bestLen {
				best, bestLen = runeRange{lo: lo, cls: cls, kind: foldDelta, arg: delta}, k
			}
		}
		if cls == clsUpper {
			alt := func(r rune) uint8 {
				if (r-lo)%2 == 0 {
					return clsUpper
				}
				return clsLower
			}
			if k := runLen(lo, func(r rune) bool {
				x, ok := single(r)
				want := r
				if alt(r) == clsUpper {
					want = r + 1
				}
				return classes[r] == alt(r) && ok && x == want
			}); k > bestLen {
				best, bestLen = runeRange{lo: lo, cls: cls, kind: foldAltPair}, k
			}
			if k := runLen(lo, func(r rune) bool { return classes[r] == alt(r) && folds[r] == fold }); k > bestLen {
				best, bestLen = runeRange{lo: lo, cls: cls, kind: foldAltString}, k
			}
		}
		if best.kind == foldString || best.kind == foldAltString {
			best.arg = str(fold)
		}
		t.ranges = append(t.ranges, best)
		lo += rune(bestLen)
	}
	for k := rune(0x3040); k <= 0x30FF; k++ {
		for _, m := range []rune{0x3099, 0x309A} {
			c := []rune(norm.NFC.String(string([]rune{k, m})))
			if len(c) == 1 {
				t.voiced = append(t.voiced, [3]rune{k, m, c[0]})
			}
		}
	}
	return t
}

// renderGoTables renders analyze_tables.go.
func renderGoTables(d derivedTables) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by analyze_gen_test.go from Unicode " + d.version + "; DO NOT EDIT.\n")
	b.WriteString("// Regenerate: go test ./internal/analysis -run TestAnalyzeTablesUpToDate -update-analysis\n\n")
	b.WriteString("package analysis\n\n")
	b.WriteString("// tablesUnicodeVersion is the Unicode version the tables were derived from.\n")
	fmt.Fprintf(&b, "const tablesUnicodeVersion = %q\n\n", d.version)
	b.WriteString("// runeRanges partitions the code space into ranges of one class and one\n// fold pattern, sorted by lo.\n")
	b.WriteString("var runeRanges = [...]runeRange{\n")
	for i, r := range d.ranges {
		if i%4 == 0 {
			b.WriteString("\t")
		}
		fmt.Fprintf(&b, "{0x%04X, %d, %d, %d},", r.lo, r.cls, r.kind, r.arg)
		if i%4 == 3 || i == len(d.ranges)-1 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	b.WriteString("}\n\n")
	b.WriteString("// foldStrings are the folded forms of foldString and foldAltString ranges.\n")
	b.WriteString("var foldStrings = [...]string{\n")
	for _, x := range d.strs {
		fmt.Fprintf(&b, "\t%+q,\n", x)
	}
	b.WriteString("}\n\n")
	b.WriteString("// voicedKana lists kana, voicing mark and their composition (NFC).\n")
	b.WriteString("var voicedKana = [...][3]rune{\n")
	for i, v := range d.voiced {
		if i%4 == 0 {
			b.WriteString("\t")
		}
		fmt.Fprintf(&b, "{0x%04X, 0x%04X, 0x%04X},", v[0], v[1], v[2])
		if i%4 == 3 || i == len(d.voiced)-1 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		panic(err)
	}
	return src
}

// tsDigits is the alphabet of the varints in the TypeScript tables: the
// first 32 characters end a number, the last 32 continue it, 5 bits each,
// most significant first.
const tsDigits = "0123456789abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&*"

func appendVarint(b []byte, v uint32) []byte {
	var groups []byte
	for {
		groups = append(groups, byte(v&31))
		v >>= 5
		if v == 0 {
			break
		}
	}
	for i := len(groups) - 1; i >= 0; i-- {
		g := groups[i]
		if i > 0 {
			g += 32
		}
		b = append(b, tsDigits[g])
	}
	return b
}

func zigzag(v int32) uint32 { return uint32(v<<1) ^ uint32(v>>31) }

// renderTSTables renders the generated block of analyze.ts: the same
// tables, as compact strings decoded once when the module loads.
func renderTSTables(d derivedTables) string {
	var enc []byte
	prev := rune(0)
	for _, r := range d.ranges {
		enc = appendVarint(enc, uint32(r.lo-prev))
		enc = appendVarint(enc, uint32(r.cls)*4+uint32(r.kind))
		if r.kind != foldAltPair {
			enc = appendVarint(enc, zigzag(r.arg))
		}
		prev = r.lo
	}
	var b strings.Builder
	b.WriteString(tsBeginMark + "\n")
	fmt.Fprintf(&b, "// Derived from Unicode %s by internal/analysis/analyze_gen_test.go.\n", d.version)
	fmt.Fprintf(&b, "/** The Unicode version the tables were derived from. */\nexport const TABLES_UNICODE_VERSION = %q;\n", d.version)
	b.WriteString("// Ranges: varints (see VARINT_DIGITS) of lo delta, class*4+kind, and arg (zigzag) unless kind is ALT_PAIR.\n")
	b.WriteString("const RANGES =\n")
	const width = 100
	for i := 0; i < len(enc); i += width {
		sep := " +\n"
		if i+width >= len(enc) {
			sep = ";\n"
		}
		fmt.Fprintf(&b, "  %q%s", enc[i:min(i+width, len(enc))], sep)
	}
	b.WriteString("// Fold strings, joined by '|'.\n")
	fmt.Fprintf(&b, "const FOLD_STRINGS = %s;\n", tsString(strings.Join(d.strs, "|")))
	b.WriteString("// Voicing compositions: pairs of kana and kana + U+3099, then pairs of kana and kana + U+309A.\n")
	var voiced, semi strings.Builder
	for _, v := range d.voiced {
		w := &voiced
		if v[1] == 0x309A {
			w = &semi
		}
		w.WriteRune(v[0])
		w.WriteRune(v[2])
	}
	fmt.Fprintf(&b, "const VOICED = %s;\n", tsString(voiced.String()))
	fmt.Fprintf(&b, "const SEMI_VOICED = %s;\n", tsString(semi.String()))
	b.WriteString(tsEndMark)
	return b.String()
}

// tsString quotes s for TypeScript, escaping everything but printable
// ASCII so that the source survives any editor.
func tsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7F:
			b.WriteRune(r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			fmt.Fprintf(&b, "\\u{%X}", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkDerivation checks the properties the analysis relies on.
func checkDerivation(t *testing.T, d derivedTables) {
	t.Helper()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		cls, fold := deriveRune(r)
		switch {
		case cls == clsCJK || cls == clsVoice:
			if utf8.RuneCountInString(fold) != 1 {
				t.Errorf("U+%04X: CJK and voicing folds must be one rune, got %+q", r, fold)
			}
		case isJoinClass(cls):
			if len(fold) != 1 {
				t.Errorf("U+%04X: joiners must fold to an ASCII joiner, got %+q", r, fold)
			}
		case isWordClass(cls):
			if strings.Contains(fold, "|") {
				t.Errorf("U+%04X: fold %+q contains the TypeScript string separator", r, fold)
			}
			// Folding is idempotent: a folded term analyses to itself.
			for _, x := range fold {
				if c, f := deriveRune(x); !isWordClass(c) || f != string(x) {
					t.Errorf("U+%04X folds to %+q, but U+%04X in it folds to %+q (class %d)", r, fold, x, f, c)
				}
			}
			// Every member of a case orbit folds alike.
			for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
				if c, f := deriveRune(o); isWordClass(c) && f != fold {
					t.Errorf("U+%04X folds to %+q but U+%04X of its case orbit to %+q", r, fold, o, f)
				}
			}
		}
	}
	var digitSets [][2]uint32
	for _, rg := range unicode.Nd.R16 {
		digitSets = append(digitSets, [2]uint32{uint32(rg.Lo), uint32(rg.Hi)})
	}
	for _, rg := range unicode.Nd.R32 {
		digitSets = append(digitSets, [2]uint32{rg.Lo, rg.Hi})
	}
	for _, rg := range digitSets {
		if (rg[1]-rg[0]+1)%10 != 0 {
			t.Errorf("decimal digits U+%04X..U+%04X are not whole sets of ten", rg[0], rg[1])
		}
	}
}

// TestAnalyzeTablesUpToDate derives the tables again and compares them with
// analyze_tables.go and the generated block of analyze.ts.
func TestAnalyzeTablesUpToDate(t *testing.T) {
	if unicode.Version != tablesUnicodeVersion || norm.Version != tablesUnicodeVersion {
		if !*updateAnalysis {
			t.Skipf("this toolchain has Unicode %s (norm %s), the tables are from %s: -update-analysis adopts it (and needs a new Version)",
				unicode.Version, norm.Version, tablesUnicodeVersion)
		}
	}
	d := deriveTables()
	checkDerivation(t, d)
	goSrc := renderGoTables(d)
	tsBlock := renderTSTables(d)
	ts, err := os.ReadFile(tablesTSFile)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(ts), tsBeginMark)
	_, after, ok2 := strings.Cut(rest, tsEndMark)
	if !ok1 || !ok2 {
		t.Fatalf("%s: no generated block between %q and %q", tablesTSFile, tsBeginMark, tsEndMark)
	}
	newTS := before + tsBlock + after
	if *updateAnalysis {
		if err := os.WriteFile(tablesGoFile, goSrc, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tablesTSFile, []byte(newTS), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if cur, err := os.ReadFile(tablesGoFile); err != nil || !bytes.Equal(cur, goSrc) {
		t.Errorf("%s is out of date (%v); run with -update-analysis", tablesGoFile, err)
	}
	if string(ts) != newTS {
		t.Errorf("%s: the generated tables are out of date; run with -update-analysis", filepath.Base(tablesTSFile))
	}
}
