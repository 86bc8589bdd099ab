package memory

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// guardedRegexps names every guarded regexp of the package.
func guardedRegexps() map[string]*guarded {
	m := map[string]*guarded{
		"reIPv4": &reIPv4, "reURL": &reURL, "reEmail": &reEmail, "reHostname": &reHostname,
		"reHostLike": &reHostLike, "reSSHTarget": &reSSHTarget, "rePhone": &rePhone, "reHandle": &reHandle,
		"rePersonIs": &rePersonIs, "reMyRoleIs": &reMyRoleIs, "reCredWord": &reCredWord, "reCredPlace": &reCredPlace,
		"reClosed": &reClosed, "reOpen": &reOpen, "reOpenLower": &reOpenLower, "reCJKDone": &reCJKDone,
		"reNegation": &reNegation, "reRevoked": &reRevoked, "reExpiry": &reExpiry,
		"reEntryNoise": &reEntryNoise, "reVerbSep": &reVerbSep, "reArrow": &reArrow,
	}
	for i := range reGrants {
		m[fmt.Sprintf("reGrants[%d]", i)] = &reGrants[i]
	}
	return m
}

// sortedNames gives the map's keys in order, for reproducible runs.
func sortedNames(m map[string]*guarded) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var (
	allGuarded      = guardedRegexps()
	allGuardedNames = sortedNames(allGuarded)
)

var givenForEquivalence = time.Date(2026, 4, 14, 9, 30, 0, 0, time.UTC)

// unguarded returns f's result with every guard off.
func unguarded[T any](f func() T) T {
	guardsOff = true
	defer func() { guardsOff = false }()
	return f()
}

// checkGuards fails t if a guard rejects a text its regexp matches, or if a
// classifier answers differently with its guards off. It adds the
// regexps that matched to matched.
func checkGuards(t *testing.T, text string, matched map[string]int) {
	t.Helper()
	// Several regexps read the lower-cased text; check both forms.
	forms := []string{text}
	if lower := strings.ToLower(text); lower != text {
		forms = append(forms, lower)
	}
	for _, s := range forms {
		folded := fold(s)
		for _, name := range allGuardedNames {
			g := allGuarded[name]
			if !g.re.MatchString(s) {
				continue
			}
			if matched != nil {
				matched[name]++
			}
			if !g.may(s, folded) {
				t.Errorf("%s matches %q but its guard rejects it", name, s)
			}
		}
	}
	if got, want := IsStructural(text), unguarded(func() bool { return IsStructural(text) }); got != want {
		t.Errorf("IsStructural(%q) = %v, unguarded %v", text, got, want)
	}
	if got, want := Lifecycle(text), unguarded(func() Status { return Lifecycle(text) }); got != want {
		t.Errorf("Lifecycle(%q) = %q, unguarded %q", text, got, want)
	}
	type grant struct {
		ok  bool
		exp time.Time
	}
	permission := func() grant {
		ok, exp := Permission(text, givenForEquivalence)
		return grant{ok, exp}
	}
	got, want := permission(), unguarded(permission)
	if ok, exp, wok, wexp := got.ok, got.exp, want.ok, want.exp; ok != wok || !exp.Equal(wexp) {
		t.Errorf("Permission(%q) = %v, %v; unguarded %v, %v", text, ok, exp, wok, wexp)
	}
	subject := func() [3]any {
		s, v, ok := SubjectValue(text)
		return [3]any{s, v, ok}
	}
	if got, want := subject(), unguarded(subject); got != want {
		t.Errorf("SubjectValue(%q) = %q; unguarded %q", text, got, want)
	}
}

// TestFold_MapsEveryCaseVariantOfAGuardLiteralToIt checks what the guards
// of case-insensitive regexps rely on: every rune (?i) matches for a
// literal's rune (its simple case-folding orbit, ſ and the Kelvin sign
// included) folds to that rune, and the literals are already folded.
func TestFold_MapsEveryCaseVariantOfAGuardLiteralToIt(t *testing.T) {
	for _, name := range allGuardedNames {
		g := allGuarded[name]
		if !g.fold {
			continue
		}
		for _, set := range g.need {
			for _, l := range set.all() {
				lit := l.s
				if fold(lit) != lit {
					t.Errorf("%s: literal %q is not folded (%q)", name, lit, fold(lit))
				}
				for _, r := range lit {
					for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
						if got := fold(string(o)); got != string(r) {
							t.Errorf("%s: fold(%q) = %q, want %q", name, string(o), got, string(r))
						}
					}
				}
			}
		}
	}
	// Every letter that (?i)[a-z] matches folds into a-z.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
			if o >= 'a' && o <= 'z' && fold(string(r)) != string(o) {
				t.Errorf("fold(%q) = %q, want %q", string(r), fold(string(r)), string(o))
			}
		}
	}
}

// TestGuards_AllListed checks that the tests check every guarded regexp:
// guardedRegexps lists as many as the package's guard calls.
func TestGuards_AllListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "guard" {
					calls++
				}
			}
			return true
		})
	}
	if calls != len(allGuarded) {
		t.Errorf("the package calls guard %d times, guardedRegexps lists %d regexps", calls, len(allGuarded))
	}
}

// TestGuards_TestData runs every text of the package's tests and testdata
// through the guarded and the unguarded classifiers.
func TestGuards_TestData(t *testing.T) {
	texts := testTexts(t)
	if len(texts) < 200 {
		t.Fatalf("only %d test texts found", len(texts))
	}
	for _, text := range texts {
		checkGuards(t, text, nil)
	}
}

// TestGuards_LiteralsInSentences embeds each guard literal and each
// literal of the patterns, in several cases, in sentences that come close
// to matching.
func TestGuards_LiteralsInSentences(t *testing.T) {
	gs := allGuarded
	r := rand.New(rand.NewSource(3))
	templates := []string{
		"%s", " %s ", "Sam %s", "%s Sam", "- %s: done", "the NAS password %s in 1Password", "my manager %s Sam",
		"Sam is my %s", "ssh %s@host", "%s@example.com", "call %s 555-010-2030", "10.0.0.%s", "%s.example.com",
		"You may %s until Friday", "ok %s deploy", "Gateway host %s the NUC", "status: %s", "(%s)", "[%s]",
		"#%s", "%s — done", "TODO %s", "%s 完了", "未%s", "<!-- %s --> x", "x [score=%s] y", "Source: %s",
		"X → %s", "approved to %s before 2026-05-01", "not %s", "token %s stored in vault",
	}
	seen := map[string]bool{}
	check := func(text string) {
		if !seen[text] && (!sampling() || r.Intn(10) == 0) {
			seen[text] = true
			checkGuards(t, text, nil)
		}
	}
	for _, name := range allGuardedNames {
		g := gs[name]
		lits := patternLiterals(g.re.String())
		for _, set := range g.need {
			for _, l := range set.all() {
				lits = append(lits, l.s)
			}
		}
		// The literals are many: each alone and in a few templates.
		for _, lit := range lits {
			for _, v := range caseVariants(lit) {
				check(v)
				check(fmt.Sprintf(templates[r.Intn(len(templates))], v))
				check(fmt.Sprintf(templates[r.Intn(len(templates))], v))
			}
			for _, v := range splitVariants(lit) {
				check(fmt.Sprintf("Gateway host %s the NUC", v))
			}
		}
	}
}

// TestLiteralSet_InIsContains checks the guards' substring search against
// strings.Contains, on the guard literals and the package's test texts.
func TestLiteralSet_InIsContains(t *testing.T) {
	texts := append(testTexts(t), "", "a", "aa", "ab", "revoked", "xrevoke", "revokedx")
	sets := [][]string{{"a"}, {"ab", "b"}, {"aa", "Ab"}, {"revoked", "é", "ok"}, {"已", "ed", "d"}}
	for _, name := range allGuardedNames {
		for _, set := range allGuarded[name].need {
			var ss []string
			for _, ls := range set.lits {
				for _, l := range ls {
					ss = append(ss, l.s)
					sets = append(sets, []string{l.s})
				}
			}
			sets = append(sets, ss)
		}
	}
	r := rand.New(rand.NewSource(4))
	for _, set := range sets {
		ls := newLiteralSet(set)
		for _, s := range texts {
			checkLiteralSet(t, &ls, set, s)
		}
		// Each literal at the start, the end and inside texts, and
		// broken across the text.
		for _, lit := range set {
			for range 10 {
				s := texts[r.Intn(len(texts))]
				k := r.Intn(len(s) + 1)
				checkLiteralSet(t, &ls, set, s+lit)
				checkLiteralSet(t, &ls, set, lit+s)
				checkLiteralSet(t, &ls, set, s[:k]+lit+s[k:])
				checkLiteralSet(t, &ls, set, lit[:len(lit)-1]+s+lit[1:])
			}
		}
	}
}

// FuzzLiteralSet compares the guards' substring search with
// strings.Contains; lits is split at "|" into the set's literals.
func FuzzLiteralSet(f *testing.F) {
	f.Add("revoked|denied", "the grant was revoked")
	f.Add("ab|b", "aab")
	f.Add("已|了", "已完成")
	f.Fuzz(func(t *testing.T, lits, s string) {
		set := strings.Split(lits, "|")
		if slices.Contains(set, "") {
			return
		}
		ls := newLiteralSet(set)
		checkLiteralSet(t, &ls, set, s)
	})
}

func checkLiteralSet(t *testing.T, ls *literalSet, set []string, s string) {
	t.Helper()
	want := false
	for _, lit := range set {
		want = want || strings.Contains(s, lit)
	}
	if got := ls.in(s); got != want {
		t.Errorf("literals %q in %q = %v, want %v", set, s, got, want)
	}
}

// TestGuards_RandomMatches builds texts from random walks through the
// patterns (so most of them match), embedded in and joined with other
// text, and checks each.
func TestGuards_RandomMatches(t *testing.T) {
	n, tries := 60, 3
	if sampling() {
		n, tries = 12, 1
	}
	gs, names := allGuarded, allGuardedNames
	r := rand.New(rand.NewSource(1))
	matched := map[string]int{}
	for i := 0; i < n; i++ {
		for _, name := range names {
			checkGuards(t, randomText(r, gs[name]), matched)
			other := gs[names[r.Intn(len(names))]]
			checkGuards(t, randomText(r, gs[name])+randomContext(r)+randomText(r, other), matched)
		}
	}
	// Every branch of every alternation, a few times each.
	for _, name := range names {
		re := parse(gs[name])
		for _, a := range alternations(re) {
			for i := range a.Sub {
				for range tries {
					checkGuards(t, walkText(r, re, a, i), matched)
				}
			}
		}
	}
	for _, name := range names {
		if matched[name] < n/4 {
			t.Errorf("%s matched only %d random texts, too few to test its guard", name, matched[name])
		}
	}
}

// sampling reports whether the slow equivalence tests check a sample of
// their inputs only.
func sampling() bool { return testing.Short() || raceEnabled }

// FuzzGuards checks guards and classifiers on any text, seeded with texts
// built from the patterns.
func FuzzGuards(f *testing.F) {
	r := rand.New(rand.NewSource(2))
	for _, name := range allGuardedNames {
		f.Add(randomText(r, allGuarded[name]))
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkGuards(t, text, nil)
	})
}

// all returns the set's literals.
func (ls *literalSet) all() []literal {
	var all []literal
	for _, l := range ls.lits {
		all = append(all, l...)
	}
	return all
}

// testTexts gathers every string literal of the package's test files (and
// each of its lines) and every line of testdata, unquoting fuzz corpus
// values.
func testTexts(t testing.TB) []string {
	t.Helper()
	seen := map[string]bool{}
	var texts []string
	add := func(s string) {
		for _, x := range append([]string{s}, strings.Split(s, "\n")...) {
			if !seen[x] {
				seen[x] = true
				texts = append(texts, x)
			}
		}
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					add(s)
				}
			}
			return true
		})
	}
	err = filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			add(line)
			for _, p := range []string{"string(", "[]byte("} {
				if v, ok := strings.CutPrefix(line, p); ok {
					if s, err := strconv.Unquote(strings.TrimSuffix(v, ")")); err == nil {
						add(s)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

// patternLiterals returns the literal strings in a regexp's syntax tree.
func patternLiterals(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(err)
	}
	var lits []string
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpLiteral {
			lits = append(lits, string(re.Rune))
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re)
	return lits
}

// caseVariants gives s as written, upper-cased, title-cased, and with
// every s and k written as ſ and the Kelvin sign.
func caseVariants(s string) []string {
	exotic := strings.NewReplacer("s", "ſ", "k", "\u212a", "S", "ſ", "K", "\u212a").Replace(s)
	title := s
	if r, n := utf8.DecodeRuneInString(s); n > 0 {
		title = string(unicode.ToUpper(r)) + s[n:]
	}
	return []string{s, strings.ToUpper(s), title, exotic}
}

// splitVariants gives s split at each rune boundary by markup that
// SubjectValue strips ("i~~s", "i<!-- x -->s", "i[score=1]s").
func splitVariants(s string) []string {
	var vs []string
	for i := 1; i < len(s); i++ {
		if utf8.RuneStart(s[i]) {
			for _, m := range []string{"~~", "<!-- x -->", "[score=1]"} {
				vs = append(vs, s[:i]+m+s[i:])
			}
		}
	}
	return vs
}

// randomText is a random walk through g's pattern between random
// context, with some markup inserted at random.
func randomText(r *rand.Rand, g *guarded) string {
	return walkText(r, parse(g), nil, 0)
}

func parse(g *guarded) *syntax.Regexp {
	re, err := syntax.Parse(g.re.String(), syntax.Perl)
	if err != nil {
		panic(err)
	}
	return re
}

// walkText is a random walk through re that takes branch alt of the
// alternation forced (if not nil), between random context.
func walkText(r *rand.Rand, re, forced *syntax.Regexp, alt int) string {
	var b strings.Builder
	if r.Intn(2) == 0 { // some patterns are anchored at the start
		b.WriteString(randomContext(r))
	}
	w := walker{r: r, forced: forced, alt: alt}
	w.sample(re, &b)
	b.WriteString(randomContext(r))
	s := b.String()
	if r.Intn(4) == 0 {
		i := r.Intn(len(s) + 1)
		for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + []string{"~~", "<!-- x -->", "[score=1]", " "}[r.Intn(4)] + s[i:]
	}
	return s
}

// alternations lists the alternation nodes of re.
func alternations(re *syntax.Regexp) []*syntax.Regexp {
	var alts []*syntax.Regexp
	if re.Op == syntax.OpAlternate {
		alts = append(alts, re)
	}
	for _, sub := range re.Sub {
		alts = append(alts, alternations(sub)...)
	}
	return alts
}

var contexts = []string{
	"", "", " ", "- ", "> ", "1. ", "[x] ", "~~", "Sam ", " is ", "my ", ": ", ".", "\n", "\t", "@", "10",
	"é", "ſ", "\u212a", "未", "the ", " until Friday", "(", ")", "**", "x", "\xff",
}

func randomContext(r *rand.Rand) string {
	return contexts[r.Intn(len(contexts))] + contexts[r.Intn(len(contexts))]
}

// walker writes random strings a regexp is likely to match.
type walker struct {
	r      *rand.Rand
	forced *syntax.Regexp // an alternation whose branch alt is always taken
	alt    int
}

func (w walker) sample(re *syntax.Regexp, b *strings.Builder) {
	r := w.r
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				c = randomFold(r, c)
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		i := r.Intn(len(re.Rune)/2) * 2
		lo, hi := re.Rune[i], re.Rune[i+1]
		if hi-lo > 200 && r.Intn(2) == 0 {
			hi = lo + 200 // favour the low, common end of a wide range
		}
		b.WriteRune(lo + rune(r.Int63n(int64(hi-lo)+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteString(contexts[r.Intn(len(contexts))])
	case syntax.OpCapture:
		w.sample(re.Sub[0], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, 3
		case syntax.OpPlus:
			lo, hi = 1, 3
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		if hi < 0 || hi > lo+3 {
			hi = lo + 3
		}
		if lo == 0 && w.forced != nil && contains(re, w.forced) {
			lo = 1
		}
		for n := lo + r.Intn(hi-lo+1); n > 0; n-- {
			w.sample(re.Sub[0], b)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			w.sample(sub, b)
		}
	case syntax.OpAlternate:
		i := r.Intn(len(re.Sub))
		if re == w.forced {
			i = w.alt
		} else if w.forced != nil {
			for j, sub := range re.Sub {
				if contains(sub, w.forced) {
					i = j
				}
			}
		}
		w.sample(re.Sub[i], b)
	}
}

func contains(re, target *syntax.Regexp) bool {
	if re == target {
		return true
	}
	for _, sub := range re.Sub {
		if contains(sub, target) {
			return true
		}
	}
	return false
}

// randomFold picks c or a rune of its case-folding orbit.
func randomFold(r *rand.Rand, c rune) rune {
	orbit := []rune{c}
	for o := unicode.SimpleFold(c); o != c; o = unicode.SimpleFold(o) {
		orbit = append(orbit, o)
	}
	return orbit[r.Intn(len(orbit))]
}
