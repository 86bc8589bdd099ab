package memory

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
)

// guarded is a regexp with literals that every match of it contains. Most
// entries match none of the classifiers' patterns, and looking for a few
// substrings costs far less than a regexp scan that finds nothing, so the
// regexp only runs on texts that hold its literals.
type guarded struct {
	re *regexp.Regexp
	// need holds sets of literals: every match contains a literal of each
	// set, so a text lacking all literals of any one set cannot match.
	need []literalSet
	// fold is set when part of re is case-insensitive: need is then
	// lower-case and is looked for in fold(text) instead of text.
	fold bool
}

// guard compiles pattern and pairs it with need (see guarded). The
// literals of a partly case-insensitive pattern must be lower-case.
func guard(pattern string, need [][]string) guarded {
	g := guarded{re: regexp.MustCompile(pattern), fold: hasFoldCase(pattern)}
	for _, set := range need {
		g.need = append(g.need, newLiteralSet(set))
	}
	return g
}

func hasFoldCase(pattern string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		panic(err)
	}
	var walk func(*syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		if re.Flags&syntax.FoldCase != 0 {
			return true
		}
		for _, sub := range re.Sub {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	return walk(re)
}

// guardsOff makes every guard pass, so that tests and benchmarks can run
// each classifier with and without its guards.
var guardsOff bool

// may reports false only if g.re cannot match text. folded is fold(text),
// or of a text that text is part of, or "" to have may fold text itself
// if it needs to.
func (g *guarded) may(text, folded string) bool {
	if guardsOff {
		return true
	}
	if g.fold {
		if folded == "" {
			folded = fold(text)
		}
		text = folded
	}
	for i := range g.need {
		if !g.need[i].in(text) {
			return false
		}
	}
	return true
}

// match is g.re.MatchString(text), skipped where it cannot match.
func (g *guarded) match(text, folded string) bool {
	return g.may(text, folded) && g.re.MatchString(text)
}

// literalSet finds any of its literals in a text. Each literal is looked
// for by its rarest byte, its anchor: strings.Contains looks by the first
// byte, and stalls on texts full of it ("revoked" among many r's). The
// literals sharing an anchor are compared together wherever it occurs, so
// a set costs a scan per distinct anchor, however many literals it has.
type literalSet struct {
	anchors []byte
	lits    [][]literal // lits[i] are the literals anchored by anchors[i]
}

// literal is a string and the index of its anchor.
type literal struct {
	s  string
	at int
}

// commonBytes are the most common bytes of notes, most common first.
const commonBytes = " etaoinsrhldcumfpgwybv.,k-"

func rarity(c byte) int {
	switch i := strings.IndexByte(commonBytes, c); {
	case i >= 0:
		return i
	case c >= 0x80 && c < 0xC0:
		return 0 // inside every non-ASCII character
	}
	return len(commonBytes)
}

func newLiteralSet(ss []string) literalSet {
	var ls literalSet
	for _, s := range ss {
		if s == "" {
			panic("memory: empty guard literal")
		}
		at := 0
		for i := 1; i < len(s); i++ {
			if rarity(s[i]) > rarity(s[at]) {
				at = i
			}
		}
		k := bytes.IndexByte(ls.anchors, s[at])
		if k < 0 {
			k = len(ls.anchors)
			ls.anchors = append(ls.anchors, s[at])
			ls.lits = append(ls.lits, nil)
		}
		ls.lits[k] = append(ls.lits[k], literal{s, at})
	}
	return ls
}

// in reports whether any of the literals occurs in s.
func (ls *literalSet) in(s string) bool {
	for k, c := range ls.anchors {
		for i := 0; ; i++ {
			j := strings.IndexByte(s[i:], c)
			if j < 0 {
				break
			}
			i += j
			for _, l := range ls.lits[k] {
				if start := i - l.at; start >= 0 && strings.HasPrefix(s[start:], l.s) {
					return true
				}
			}
		}
	}
	return false
}

// fold lower-cases s for the guards of case-insensitive patterns, so that
// every letter (?i) matches for a lower-case literal becomes that literal.
// strings.ToLower does so for all but ſ (long s), which (?i) matches for s
// but which is already lower-case; the Kelvin sign it does map to k.
func fold(s string) string {
	s = strings.ToLower(s)
	if strings.Contains(s, "ſ") {
		s = strings.ReplaceAll(s, "ſ", "s")
	}
	return s
}

// Building blocks of literal sets.
var (
	digits  = strings.Split("0123456789", "")
	letters = strings.Split("abcdefghijklmnopqrstuvwxyz", "")
	blanks  = []string{" ", "\t", "\n", "\f", "\r"} // what \s matches
)

// joined returns every prefix followed by every suffix, as the literals
// of `\s+(?:is|was)` are joined(blanks, "is", "was").
func joined(prefixes []string, suffixes ...string) []string {
	var ls []string
	for _, p := range prefixes {
		for _, s := range suffixes {
			ls = append(ls, p+s)
		}
	}
	return ls
}
