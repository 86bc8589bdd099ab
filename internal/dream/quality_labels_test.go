package dream

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// The hand labels of one quality workspace (testdata/quality/NAME.labels,
// format in testdata/quality/README.md). Every label names a line by file
// and a substring that occurs in exactly one line of that file, so an edit
// of a workspace cannot silently move a label onto another line: a label
// that matches no line, or several, fails the test.

// qLabels are the labels of one workspace.
type qLabels struct {
	name string
	// now is the dream's clock; claims are judged at its date.
	now time.Time
	// index is the workspace's own index file ("MEMORY.md",
	// "memory/MEMORY.md"): creating another one is a stub.
	index string
	// topics are the names (slugs) a new topic file may have.
	topics []string

	durable        []*qDurable
	claims         []*qClaim
	contradictions [][2]qRef
	supersedes     []qSupersede
	counts         []qRef
	closed         []qRef
}

// qRef is a line named by a label.
type qRef struct {
	file, text string
	line       int // 1-based, resolved against the workspace before the dream
	at         int // line of the labels file, for messages
}

func (r qRef) String() string { return fmt.Sprintf("%s:%d (%q)", r.file, r.line, r.text) }

// qDurable is a daily-log line worth promoting.
type qDurable struct {
	qRef
	// fact groups lines that state the same fact (a fact repeated on
	// several days); recall counts facts, not lines.
	fact string
	// into are the existing topic files the fact belongs in; a promoted
	// line placed in any other existing topic file is misfiled. The index
	// and new topic files are judged elsewhere (junk topics).
	into []string
}

// qClaim is a line of curated memory judged as a claim.
type qClaim struct {
	qRef
	real bool
	// from are the daily logs the claim came from: evidence in one of them
	// is right evidence.
	from []string
}

// qSupersede is a daily-log line that replaces a curated line.
type qSupersede struct{ new, old qRef }

var reLabelKey = regexp.MustCompile(`^([a-z]+)=(.*)$`)

// parseQLabels reads a labels file and resolves every line it names
// against the workspace archive.
func parseQLabels(name, src string, ws *txtar.Archive) (*qLabels, error) {
	files := map[string]string{}
	for _, f := range ws.Files {
		files[f.Name] = string(f.Data)
	}
	l := &qLabels{name: name}
	seen := map[string]int{} // file:line -> labels line, so no line is labelled twice
	var errs []string
	fail := func(at int, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s.labels:%d: %s", name, at, fmt.Sprintf(format, args...)))
	}
	ref := func(at int, file, text string, once bool) (qRef, bool) {
		r := qRef{file: strings.TrimSpace(file), text: strings.TrimSpace(text), at: at}
		content, ok := files[r.file]
		if !ok {
			fail(at, "no file %s in the workspace", r.file)
			return r, false
		}
		if r.text == "" {
			fail(at, "empty text for %s", r.file)
			return r, false
		}
		var hits []int
		for i, line := range strings.Split(content, "\n") {
			if strings.Contains(line, r.text) {
				hits = append(hits, i+1)
			}
		}
		switch len(hits) {
		case 0:
			fail(at, "%q matches no line of %s", r.text, r.file)
			return r, false
		case 1:
			r.line = hits[0]
		default:
			fail(at, "%q matches lines %v of %s; make it unique", r.text, hits, r.file)
			return r, false
		}
		if once {
			key := fmt.Sprintf("%s:%d", r.file, r.line)
			if prev, dup := seen[key]; dup {
				fail(at, "%s line %d is already labelled at line %d", r.file, r.line, prev)
				return r, false
			}
			seen[key] = at
		}
		return r, true
	}
	for i, raw := range strings.Split(src, "\n") {
		at := i + 1
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, " | ")
		for j := range fields {
			fields[j] = strings.TrimSpace(fields[j])
		}
		// Options (key=value) follow the positional fields.
		pos, opts := fields, map[string]string{}
		for len(pos) > 0 {
			m := reLabelKey.FindStringSubmatch(pos[len(pos)-1])
			if m == nil {
				break
			}
			opts[m[1]] = m[2]
			pos = pos[:len(pos)-1]
		}
		kind, args := pos[0], pos[1:]
		want := map[string]int{"now": 1, "index": 1, "topics": 1, "durable": 2, "real": 2, "junk": 2,
			"contradiction": 4, "supersede": 4, "count": 2, "closed": 2}
		n, known := want[kind]
		if !known {
			fail(at, "unknown label %q", kind)
			continue
		}
		if len(args) != n {
			fail(at, "%s takes %d fields separated by \" | \", got %d", kind, n, len(args))
			continue
		}
		allowed := map[string][]string{"durable": {"fact", "into"}, "real": {"from"}}[kind]
		for k := range opts {
			if !slices.Contains(allowed, k) {
				fail(at, "%s takes no option %q", kind, k)
			}
		}
		switch kind {
		case "now":
			t, err := time.Parse(time.RFC3339, args[0])
			if err != nil {
				fail(at, "now: %v", err)
			}
			l.now = t.UTC()
		case "index":
			l.index = args[0]
		case "topics":
			l.topics = strings.Fields(args[0])
		case "durable":
			if r, ok := ref(at, args[0], args[1], true); ok {
				d := &qDurable{qRef: r, fact: opts["fact"], into: strings.Fields(opts["into"])}
				if d.fact == "" {
					d.fact = fmt.Sprintf("%s:%d", r.file, r.line)
				}
				l.durable = append(l.durable, d)
			}
		case "real", "junk":
			if r, ok := ref(at, args[0], args[1], true); ok {
				l.claims = append(l.claims, &qClaim{qRef: r, real: kind == "real", from: strings.Fields(opts["from"])})
			}
		case "contradiction":
			a, ok1 := ref(at, args[0], args[1], false)
			b, ok2 := ref(at, args[2], args[3], false)
			if ok1 && ok2 {
				l.contradictions = append(l.contradictions, [2]qRef{a, b})
			}
		case "supersede":
			a, ok1 := ref(at, args[0], args[1], false)
			b, ok2 := ref(at, args[2], args[3], false)
			if ok1 && ok2 {
				l.supersedes = append(l.supersedes, qSupersede{new: a, old: b})
			}
		case "count", "closed":
			if r, ok := ref(at, args[0], args[1], false); ok {
				if kind == "count" {
					l.counts = append(l.counts, r)
				} else {
					l.closed = append(l.closed, r)
				}
			}
		}
	}
	if l.now.IsZero() {
		errs = append(errs, name+".labels: no \"now\" label (the dream's clock)")
	}
	if l.index == "" {
		errs = append(errs, name+".labels: no \"index\" label (the workspace's index file)")
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return l, nil
}

// statedCount reads the count a heading states: the number in brackets
// ("Capabilities (5)", "无SOP（11个）", "MCP 서버 (7개)"), else its last
// number.
func statedCount(heading string) (int, bool) {
	if m := reBracketCount.FindStringSubmatch(heading); m != nil {
		n, err := strconv.Atoi(m[1])
		return n, err == nil
	}
	ms := reAnyNumber.FindAllString(heading, -1)
	if len(ms) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(ms[len(ms)-1])
	return n, err == nil
}

var (
	reBracketCount = regexp.MustCompile(`[(（]\s*(\d+)`)
	reAnyNumber    = regexp.MustCompile(`\d+`)
)
