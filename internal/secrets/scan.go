package secrets

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// candidate is one raw detection before overlaps are resolved.
type candidate struct {
	start, end int
	kind       Kind
	rule       string
}

// scanner holds the state of one pass over a text. It is created per call,
// so Scan, Redact and Contains are safe for concurrent use.
type scanner struct {
	t     string
	first bool // stop at the first detection (Contains)
	found []candidate
	// joined is set on the scanner of two lines joined into one (split.go),
	// which must not look for split secrets again.
	joined bool
	// scanned holds, for the tokenNear rules that ran, the end of the last
	// window each ran on, so a rule runs once per window however many of
	// its keywords the window holds. Few rules run on one text, so a list
	// is searched.
	scanned []ruleWindow
	// notHeader is the end of the last line the table detector found is
	// no table header, so the other keywords of that line cost nothing.
	notHeader int
	// unescaped is set on the scanner of a text with its Markdown escapes
	// removed (escape.go), which must not remove them again.
	unescaped bool
}

// ruleWindow is where a rule's last window ended.
type ruleWindow struct{ rule, end int }

// add records a detection and reports whether the scan should stop.
func (s *scanner) add(start, end int, k Kind, rule string) bool {
	s.found = append(s.found, candidate{start, end, k, rule})
	return s.first
}

// A trigger is a keyword and the detector that looks at the text around
// each of its occurrences (at and end delimit the keyword). A detector
// reports whether the scan should stop. Detectors register their triggers
// here (goldmark's way: a table of small handlers, not one state machine),
// and the automaton finds every trigger's keyword in one pass.
type trigger struct {
	keyword string
	detect  func(s *scanner, at, end int) bool
}

// guard is the compiled set of triggers, built on first use and never
// written afterwards.
type guard struct {
	auto     *automaton
	triggers []trigger
}

var (
	guardOnce sync.Once
	guardSet  *guard
)

// theGuard returns the guard, building it on first use. (A function
// rather than a sync.OnceValue variable: the split detector scans joined
// lines with the guard it belongs to, which a variable's initializer
// cannot refer to.)
func theGuard() *guard {
	guardOnce.Do(func() { guardSet = buildGuard() })
	return guardSet
}

func buildGuard() *guard {
	var ts []trigger
	ts = append(ts, tokenTriggers()...)
	ts = append(ts, privateKeyTriggers()...)
	ts = append(ts, urlTriggers()...)
	ts = append(ts, passwordTriggers()...)
	ts = append(ts, commandTriggers()...)
	ts = append(ts, genericTriggers()...)
	ts = append(ts, ruleTriggers()...)
	ts = append(ts, splitTriggers()...)
	ts = append(ts, tableTriggers()...)
	ts = append(ts, headerTriggers()...)
	return compileGuard(ts)
}

// compileGuard builds the automaton of the triggers' keywords.
func compileGuard(ts []trigger) *guard {
	kw := make([]string, len(ts))
	for i, t := range ts {
		kw[i] = t.keyword
	}
	return &guard{auto: newAutomaton(kw), triggers: ts}
}

// run is the single pass. Every byte costs one table lookup; only where a
// keyword ends does a detector look further, and most of them give up
// after a comparison or two.
func (s *scanner) run() {
	g := theGuard()
	g.auto.scan(s.t, func(id, start, end int) bool {
		return g.triggers[id].detect(s, start, end)
	})
	if !s.unescaped && !(s.first && len(s.found) > 0) {
		s.runUnescaped()
	}
}

// findings resolves overlaps and turns candidates into Findings.
func (s *scanner) findings() []Finding { return resolve(s.t, s.found) }

// resolve sorts candidates (in place), merges overlaps and turns them into
// Findings with line, column and preview.
func resolve(t string, c []candidate) []Finding {
	if len(c) == 0 {
		return nil
	}
	slices.SortFunc(c, func(a, b candidate) int {
		if a.start != b.start {
			return a.start - b.start
		}
		if a.end != b.end {
			return b.end - a.end // longer first
		}
		if d := priority(a.kind) - priority(b.kind); d != 0 {
			return d
		}
		return strings.Compare(a.rule, b.rule)
	})
	merged := []candidate{c[0]}
	for _, x := range c[1:] {
		last := &merged[len(merged)-1]
		if x.start >= last.end {
			merged = append(merged, x)
			continue
		}
		// Overlap: keep one finding covering both so that no byte of
		// either secret survives redaction.
		last.end = max(last.end, x.end)
	}
	out := make([]Finding, 0, len(merged))
	line, lineStart, pos := 1, 0, 0
	for _, m := range merged {
		// Findings are sorted, so line numbers are counted incrementally.
		seg := t[pos:m.start]
		if n := strings.Count(seg, "\n"); n > 0 {
			line += n
			lineStart = pos + strings.LastIndexByte(seg, '\n') + 1
		}
		pos = m.start
		out = append(out, Finding{
			Kind:    m.kind,
			Rule:    m.rule,
			Line:    line,
			Col:     utf8.RuneCountInString(t[lineStart:m.start]) + 1,
			Start:   m.start,
			End:     m.end,
			Preview: preview(m.kind, t[m.start:m.end]),
		})
	}
	return out
}

// priority orders kinds for identical spans, as listed in Kinds.
func priority(k Kind) int {
	if i := slices.Index(kinds[:], k); i >= 0 {
		return i
	}
	return len(kinds)
}

// preview masks a secret value for display: the public prefix of its
// format and, for values of 20 characters or more, the last four. Kinds
// whose values are chosen by people (passwords) or have no public prefix
// show nothing at all.
func preview(k Kind, v string) string {
	const ell = "…"
	var prefix string
	switch k {
	case KindPassword, KindURLCredentials, KindAWSSecretKey, KindPrivateKey, KindSecret, KindPhone, KindEmail, KindAddress:
		return ell
	case KindAWSKey, KindGoogleKey:
		prefix = v[:min(4, len(v))]
	case KindJWT:
		prefix = "eyJ"
		if !strings.HasPrefix(v, prefix) {
			prefix = ""
		}
	default:
		prefix = publicPrefix(v)
	}
	if len(v) >= 20 && utf8.ValidString(v[len(v)-4:]) && !strings.Contains(v[len(v)-4:], "\n") {
		return prefix + ell + v[len(v)-4:]
	}
	return prefix + ell
}

// publicPrefix is the part of a token that names its format rather than
// holding its secret: up to and including the last '_', '-' or '.' in the
// first twelve bytes ("sk_live_", "glpat-", "SG.", "github_pat_",
// "sk-proj-"). The first segment must be one to six letters of one case,
// as vendor prefixes are, so that a token with no prefix ("8f2c41e9-a7b3-…")
// shows none of its characters.
func publicPrefix(v string) string {
	first := span(v, 0, isLower)
	if first == 0 {
		first = span(v, 0, isUpper)
	}
	if first == 0 || first > 6 || first == len(v) || strings.IndexByte("_-.", v[first]) < 0 {
		return ""
	}
	end := first + 1
	for i := end; i < len(v) && i < 12; i++ {
		switch c := v[i]; {
		case c == '_' || c == '-' || c == '.':
			end = i + 1
		case !isAlnum(c):
			return v[:end]
		}
	}
	return v[:end]
}
