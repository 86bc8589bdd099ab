package secrets

import (
	"regexp"
	"slices"
	"sync"
)

// A rule is a detector written as a regular expression: gitleaks' default
// rules carried over (rules_gitleaks.go) and a few of the guard's own in
// the same form (rules_extra.go). As in gitleaks, a rule's expression runs
// only where one of its keywords occurs; unlike gitleaks, it runs on a few
// bytes around the keyword rather than on the whole text, so ordinary notes
// that mention a keyword cost a comparison, not a scan.
type rule struct {
	id   string
	kind Kind
	// shape says where the pattern runs, relative to a keyword.
	shape ruleShape
	// keywords trigger the rule. They match in any ASCII case when fold is
	// set, and exactly as written otherwise (the pattern is case-sensitive
	// there, as "SK" of Twilio keys is).
	keywords []string
	fold     bool
	// word: the keyword must start a word (the pattern begins with \b).
	word bool
	// lines is how many lines after the keyword's own a tokenNear window
	// spans, for a token written on the line after the keyword that names it.
	lines int
	// continued is how many continuation lines (after a line ending in
	// '\\') a window may span, for commands written over several lines
	// (curl).
	continued int
	// ident, for an assigned rule whose key is more than its keyword,
	// matches the key from the keyword on ("snyk_api_token").
	ident string
	// pattern is the expression: the whole token (tokenAt, tokenNear) or
	// the value (assigned).
	pattern string
	// group selects the secret among the pattern's groups: 0 as gitleaks
	// does (its secretGroup, else the first non-empty group, else the whole
	// match), -1 the whole match.
	group int
	// entropy, when set, is a minimum the secret's Shannon entropy must
	// exceed.
	entropy float64
	// allow matches secrets that are examples, not secrets.
	allow string
	// need, when set, lists lower-case words of which the pattern requires
	// one (in any case); a window without any is not run. For patterns that
	// are costly to run, such as the curl rules' lazy multi-line ones.
	need []string
}

// ruleShape is where a rule's pattern runs.
type ruleShape uint8

const (
	// tokenAt: the token starts with the keyword; the pattern is anchored
	// there and runs to the end of the line.
	tokenAt ruleShape = iota
	// tokenNear: the keyword occurs somewhere in or near the token; the
	// pattern runs over the keyword's line (and lines more).
	tokenNear
	// assigned: the keyword names the key of an assignment (assign.go);
	// the pattern is anchored at the value.
	assigned
)

// ruleState is a rule with its expressions, compiled on its first use so
// a process pays only for the rules its text triggers.
type ruleState struct {
	*rule
	index   int
	once    sync.Once
	re      *regexp.Regexp
	identRe *regexp.Regexp
	allowRe *regexp.Regexp
}

func (r *ruleState) compile() {
	r.once.Do(func() {
		switch r.shape {
		case tokenNear:
			r.re = regexp.MustCompile(r.pattern)
		default:
			r.re = regexp.MustCompile(`^(?:` + r.pattern + `)`)
		}
		if r.ident != "" {
			r.identRe = regexp.MustCompile(`^(?:` + r.ident + `)`)
		}
		if r.allow != "" {
			r.allowRe = regexp.MustCompile(r.allow)
		}
	})
}

// ruleSet is every pattern rule, built once and never written afterwards
// (the compiled expressions are filled in under each rule's sync.Once).
var ruleSet = sync.OnceValue(func() []*ruleState {
	var rs []*ruleState
	for _, table := range [][]rule{gitleaksRules, extraRules} {
		for i := range table {
			rs = append(rs, &ruleState{rule: &table[i], index: len(rs)})
		}
	}
	return rs
})

// ruleTriggers registers every keyword of every pattern rule.
func ruleTriggers() []trigger {
	var ts []trigger
	for _, r := range ruleSet() {
		for _, k := range r.keywords {
			ts = append(ts, trigger{k, r.detector(k)})
		}
	}
	return ts
}

// detector returns the detector for one of the rule's keywords.
func (r *ruleState) detector(keyword string) func(*scanner, int, int) bool {
	return func(s *scanner, at, end int) bool {
		t := s.t
		if !r.fold && t[at:end] != keyword {
			return false
		}
		if r.word && at > 0 && isWord(t[at-1]) {
			return false
		}
		r.compile()
		switch r.shape {
		case tokenAt:
			w := t[at:r.windowEnd(t, at)]
			if !r.needed(w) {
				return false
			}
			m := r.re.FindStringSubmatchIndex(w)
			if m == nil {
				return false
			}
			start, end := secretGroup(m, r.group)
			return r.report(s, at+start, at+end)
		case tokenNear:
			return r.near(s, at)
		default:
			return r.assignedValue(s, at, end)
		}
	}
}

// near runs a tokenNear rule over the lines around the keyword at at, once
// per window.
func (r *ruleState) near(s *scanner, at int) bool {
	t := s.t
	ws, _ := lineStart(t, at, 512)
	we := r.windowEnd(t, at)
	// A keyword inside the rule's last window was looked at with it, so a
	// long line full of keywords costs its length, not its length times
	// its keywords.
	i := slices.IndexFunc(s.scanned, func(w ruleWindow) bool { return w.rule == r.index })
	switch {
	case i < 0:
		s.scanned = append(s.scanned, ruleWindow{r.index, we})
	case at < s.scanned[i].end:
		return false
	default:
		ws = max(ws, s.scanned[i].end-maxToken)
		s.scanned[i].end = we
	}
	if !r.needed(t[ws:we]) {
		return false
	}
	for _, m := range r.re.FindAllStringSubmatchIndex(t[ws:we], -1) {
		start, end := secretGroup(m, r.group)
		if r.report(s, ws+start, ws+end) {
			return true
		}
	}
	return false
}

// needed reports whether window holds one of the rule's needed words.
func (r *ruleState) needed(window string) bool {
	if len(r.need) == 0 {
		return true
	}
	for _, w := range r.need {
		if containsFold(window, w) {
			return true
		}
	}
	return false
}

// maxToken bounds the bytes a token pattern reads: the longest token of
// the carried rules (a PyPI token, "pypi-AgEIcHlwaS5vcmc" and up to 1,000
// characters) and its terminator fit.
const maxToken = 1100

// windowEnd returns the end of the window a pattern runs on from the
// keyword at at. A token ends at the first blank, so a tokenAt window stops
// there (a pattern's end-of-text then stands for its blank terminator); a
// tokenNear window is the keyword's line and r.lines more; a command
// continued over lines runs to its last continuation line.
func (r *ruleState) windowEnd(t string, at int) int {
	switch {
	case r.continued > 0:
		return commandEnd(t, at, r.continued)
	case r.shape == tokenAt:
		return span(t[:min(len(t), at+maxToken)], at, func(c byte) bool { return !isSpace(c) })
	}
	we := lineEnd(t, at, maxLine)
	for n := 0; n < r.lines && we < len(t); n++ {
		we = lineEnd(t, we+1, maxLine)
	}
	return we
}

// assignedValue runs an assigned rule: the key from the keyword at [at,
// end), the assignment, then the pattern anchored at the value, which must
// be properly ended (valueEnd).
func (r *ruleState) assignedValue(s *scanner, at, end int) bool {
	t := s.t
	if r.identRe != nil {
		m := r.identRe.FindStringIndex(t[at:min(len(t), at+96)])
		if m == nil {
			return false
		}
		end = at + m[1]
	}
	_, vs := assignment(t, end)
	if vs < 0 {
		return false
	}
	m := r.re.FindStringIndex(t[vs:lineEnd(t, vs, maxLine)])
	if m == nil || !valueEnd(t, vs+m[1]) {
		return false
	}
	return r.report(s, vs, vs+m[1])
}

// report checks a secret found by the rule against its entropy and the
// allowlists, and records it.
func (r *ruleState) report(s *scanner, start, end int) bool {
	if start >= end {
		return false
	}
	v := s.t[start:end]
	if r.entropy > 0 && entropy(v) <= r.entropy || r.allowRe != nil && r.allowRe.MatchString(v) || allowed(v) {
		return false
	}
	return s.add(start, end, r.kind, r.id)
}

// secretGroup returns the span of the secret in a match's submatch
// indexes: group g when g > 0, the whole match when g < 0, and otherwise
// gitleaks' default, the first non-empty group or the whole match.
func secretGroup(m []int, g int) (start, end int) {
	switch {
	case g < 0:
	case g > 0:
		if 2*g+1 < len(m) && m[2*g] >= 0 {
			return m[2*g], m[2*g+1]
		}
	default:
		for i := 2; i+1 < len(m); i += 2 {
			if m[i] >= 0 && m[i+1] > m[i] {
				return m[i], m[i+1]
			}
		}
	}
	return m[0], m[1]
}
