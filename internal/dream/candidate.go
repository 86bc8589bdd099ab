package dream

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// MaxLine is the longest line a dream writes into curated memory, in
// characters. Longer facts are cut at a sentence (or word) boundary; the
// whole text stays in the daily log the Source pointer names.
const MaxLine = 300

// maxFact is the budget of the fact itself on a distilled line, leaving
// room for the date and the Source pointer.
const maxFact = 200

// candidate is one fact a daily log offers the dream.
type candidate struct {
	id      int
	path    string // the daily log
	date    time.Time
	line    int
	endLine int
	section string
	raw     string
	text    string // the item as the workspace cleaned it

	fact       string // distilled: one line, absolute dates, no metadata, secrets redacted
	typ        string
	structural bool
	tags       []string
	status     memory.Status
	why, how   string // the reason and the way to apply it, when the line gives them
	words      []string
	// marker is the kind of durable statement the line makes ("decision",
	// "preference", "rule", ...; see durable.go), "" for none.
	marker    string
	todo      bool // an open to-do or reminder: never promoted as a fact
	temporary bool // a short-lived arrangement ("for the rest of February")
	// byModel is set for a fact the LLM distilled (llm.go), modelFile to
	// the file it chose ("index" or a topic file); modelSkip for a line a
	// checked answer kept no fact from.
	byModel   bool
	modelFile string
	modelSkip bool
	// chosen is set for a line a person or an agent chose (Options.Choose)
	// or wrote from cited lines (Options.Rewrites): by saying so, in
	// chosenBy. proposed is set for a line the dream leaves to a choice,
	// with the cues that make it worth one (durable.go).
	chosen   bool
	chosenBy string
	proposed bool
	cues     []string
	nums     []string // the fact's numbers, for near-duplicate checks
	subject  string
	value    string
	perm     bool
	expires  time.Time
	secrets  []SecretFinding
	evidence []evidence // this line and its near-duplicates elsewhere
	notes    []string   // what distillation did ("relative dates made absolute")

	// Set while deciding.
	routeNote     string     // why no topic took it
	permNote      string     // "(expires 2026-12-31)"
	closedOn      time.Time  // a later line of the batch finished it
	supersededBy  *candidate // a later line of the batch replaced it
	supersedeNote string
}

// evidence is a line range of a daily log a fact came from.
type evidence struct {
	Path    string    `json:"path"`
	Line    int       `json:"line"`
	EndLine int       `json:"endLine"`
	Date    time.Time `json:"-"`
}

func (e evidence) String() string { return fmt.Sprintf("%s#L%d-L%d", e.Path, e.Line, e.EndLine) }

// SecretFinding is a credential found in an input line: reported with file
// and line, never with its value.
type SecretFinding struct {
	File   string       `json:"file"`
	Line   int          `json:"line"`
	Kind   secrets.Kind `json:"kind"`
	Action string       `json:"action"` // "redacted"
}

func (s SecretFinding) String() string {
	return fmt.Sprintf("%s:%d: %s %s", s.File, s.Line, s.Kind, s.Action)
}

// Skip is a line the dream read and left out, with the reason.
type Skip struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

var (
	reTranscript = regexp.MustCompile(`(?i)^(?:user|assistant|system|human|ai|bot|model)\s*[:：]`)
	reHeartbeat  = regexp.MustCompile(`(?i)\bheartbeat\b.*\b(?:all green|ok|nothing|no (?:alerts|news|changes))\b|HEARTBEAT_OK|^nothing to report|^no (?:updates|news|changes)\b`)
	reDreamBook  = regexp.MustCompile(`(?i)\bdream(?:ing)?\s+(?:cycle|run|log)|\bconsolidated through\b|\bbuilt-in dreaming\b|\bdream-log\b|\blight sleep\b|\brem sleep\b`)
	reMetaBits   = regexp.MustCompile(`(?i)\s*\[score=[^\]]*\]|\s*\b(?:confidence|recalls|importance)\s*[:=]\s*[\d.]+%?|\s*\bstatus\s*[:=]\s*(?:staged|promoted|candidate|pending-review)\b|\s*\bevidence\s*[:=]\s*\S+`)
	reClock      = regexp.MustCompile(`^(?:~|at\s+)?\d{1,2}[:h]\d{2}(?:\s*(?:am|pm|UTC|JST|WET|WEST))?\s*(?:[-–—:]\s*)?`)
	reSessionHdr = regexp.MustCompile(`(?i)#\s*session:|\*\*session (?:key|id)\*\*`)
	// reReason opens the reason of a sentence: "…, because …".
	reReason = regexp.MustCompile(`(?i)\s*(?:[;,.—–-]\s*)?\b(?:because|reason:|why:|porque|ya que)\s+|[，,]?\s*(?:因为|因為|由于|由於|原因[:：])`)
	// reReasonEnd closes a sentence that is a reason, in the languages
	// that put the cue last: "…ため。", "…때문이다."
	reReasonEnd = regexp.MustCompile(`(?:ため|ので|から|때문(?:이다|임|에)?)[。.]?$`)
	reHowCue    = regexp.MustCompile(`(?i)\s*(?:[;,.—–-]\s*)?\bhow(?: to apply)?:\s+`)
	// reBlockLabel reads the labelled lines of a what/why block.
	reBlockLabel = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(what|why|how(?: to apply)?|next|proof|evidence|source|ref|todo)\s*[:：]\s*`)
)

// newCandidate reads one daily-log item, with the secrets of its file
// (fs, nil when unknown); skip is set instead when the item is no
// candidate.
func newCandidate(id int, log *workspace.DailyLog, it workspace.LogItem, fs *fileSecrets) (*candidate, *Skip) {
	c := &candidate{id: id, path: log.File.Path, date: log.Date, line: it.Line, endLine: it.EndLine,
		section: it.Section, raw: it.Raw, text: it.Text, tags: it.Tags}
	if c.endLine < c.line {
		c.endLine = c.line
	}
	// The guard reads the lines as written, so findings carry true line
	// numbers even when the item spans several.
	for _, f := range secrets.Scan(it.Raw) {
		c.secrets = append(c.secrets, SecretFinding{File: c.path, Line: it.Line + f.Line - 1, Kind: f.Kind, Action: "redacted"})
	}
	// The guard also reads them in their file, which finds what the item
	// alone hides (a table row's value named by the table's header).
	alone := len(c.secrets)
	inFile := fs.in(c.path, c.line, c.endLine)
	if len(inFile) > alone {
		c.secrets = inFile
	}
	text := redact(it.Text)
	skip := func(why string) (*candidate, *Skip) {
		return nil, &Skip{File: c.path, Line: it.Line, Text: shorten(text, 80), Reason: why}
	}
	// A secret can span lines (a private key block); the lines are read
	// redacted, so no part of a value survives into anything below.
	raw := it.Raw
	if len(inFile) > alone {
		r, ok := fs.redactedRaw(it.Raw, it.Line)
		if !ok {
			text = "(a line holding a secret)"
			return skip("holds a secret the guard found in its file's context; it is left out")
		}
		raw = r
		c.text = strings.Join(strings.Fields(stripListMarker(raw)), " ")
		text = c.text
	} else if len(c.secrets) > 0 {
		raw = redact(raw)
		c.text = strings.Join(strings.Fields(stripListMarker(raw)), " ")
	}
	l := readLine(raw, c.text, it.Section)
	if why := noiseOf(l); why != "" {
		return skip(why)
	}
	if ws := contentWords(l.text); len(ws) == 0 {
		return skip("nothing but markup or numbers")
	} else if len(ws) < 3 && utf8.RuneCountInString(l.text) < 16 {
		return skip("too short to be a fact")
	}
	c.todo = isTodo(raw)
	c.temporary = reTemporary.MatchString(l.text)
	main, why, how, block := factParts(raw)
	c.distill(main, why, how)
	if secrets.Contains(c.fact) {
		c.fact = "" // never: the guard is the one hard block on content
	}
	if c.fact == "" {
		return skip("nothing left after removing metadata")
	}
	kind, typ := markerOf(main + " " + why)
	if block {
		kind, typ = "decision", TypeProject
	}
	c.marker = kind
	if typ != "" && c.typ == TypeProject && len(c.tags) == 0 {
		c.typ = typ // the statement's form says more than the word votes' default
	}
	c.evidence = []evidence{{Path: c.path, Line: c.line, EndLine: c.endLine, Date: c.date}}
	return c, nil
}

// stripListMarker drops what opens a list item or a quote line, as mdline
// reads them: quote markers, a list marker and its task checkbox.
func stripListMarker(s string) string {
	t := unquote(strings.TrimSpace(s))
	if it, ok := mdline.ListItem(t); ok {
		return it.Text
	}
	return t
}

// unquote drops the blockquote markers opening a trimmed line.
func unquote(t string) string {
	for {
		q, ok := mdline.Quote(t)
		if !ok {
			return t
		}
		t = strings.TrimSpace(q)
	}
}

// factParts reads an item's lines as written (Markdown, code spans and
// all): the fact, and its reason and way to apply when a what/why block
// gives them. Labelled lines the fact does not need (next, proof) are left
// out; other continuation lines join the fact. block reports a what/why
// block, a recorded decision.
func factParts(raw string) (main, why, how string, block bool) {
	lines := strings.Split(raw, "\n")
	var parts []string
	labels := map[string]bool{}
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if i == 0 {
			t = stripListMarker(t)
		}
		m := reBlockLabel.FindStringSubmatch(t)
		if m == nil {
			if t != "" {
				parts = append(parts, t)
			}
			continue
		}
		label, rest := strings.ToLower(m[1]), strings.TrimSpace(t[len(m[0]):])
		labels[label] = true
		switch {
		case label == "what":
			parts = append(parts, rest)
		case label == "why":
			why = rest
		case strings.HasPrefix(label, "how"):
			how = rest
		case i == 0:
			parts = append(parts, t) // a line that opens with "next:" is a to-do, read as written
		}
	}
	return strings.Join(parts, " "), why, how, labels["what"] && labels["why"]
}

// distill turns the item's text into the line curated memory will hold:
// the text as written (Markdown and code spans kept), without candidate
// metadata or a leading clock, relative dates made absolute, secrets
// redacted; a reason the line gives becomes its Why.
func (c *candidate) distill(main, why, how string) {
	t := main
	if s := stripMetaBits(t); s != t {
		t = s
		c.notes = append(c.notes, "candidate metadata removed")
	}
	t = strings.TrimSpace(reClock.ReplaceAllString(strings.TrimSpace(t), ""))
	dates := func(s string) string {
		if a, changed := absoluteDates(s, c.date); changed {
			c.notes = append(c.notes, "relative dates made absolute")
			return a
		}
		return s
	}
	t, why, how = dates(t), dates(why), dates(how)
	if s, found := secrets.Redact(t); len(found) > 0 {
		t = s
		if len(c.secrets) == 0 {
			for _, f := range found {
				c.secrets = append(c.secrets, SecretFinding{File: c.path, Line: c.line, Kind: f.Kind, Action: "redacted"})
			}
		}
		c.notes = append(c.notes, "secret redacted")
	}
	t = strings.Join(strings.Fields(t), " ")
	t = strings.TrimLeft(t, "-–—:;,. ")
	t = strings.TrimRight(t, "-–—:;, ")
	if t == "" {
		return
	}
	c.status = memory.Lifecycle(t)
	c.structural = memory.IsStructural(t)
	c.typ = classify(t, "", c.tags, c.structural)
	c.words = contentWords(t)
	c.subject, c.value, _ = memory.SubjectValue(t)
	c.perm, c.expires = memory.Permission(t, c.date)

	// A line that gives its reason is written as Rule/Why (DESIGN 5.3).
	if why == "" {
		t, why, how = splitReason(t)
	}
	if why != "" {
		c.why = shorten(strings.TrimRight(why, " .。"), maxFact)
		c.how = shorten(strings.TrimRight(how, " .。"), maxFact)
	}
	if utf8.RuneCountInString(t) > maxFact {
		t = cutSentences(t, maxFact)
		c.notes = append(c.notes, "shortened; the full text is in the log")
	}
	if !reISODate.MatchString(t) && !c.date.IsZero() {
		t = withDate(t, c.date)
	}
	c.fact = t
	c.nums = numbers(t)
}

// stripMetaBits removes candidate metadata (score brackets, confidence,
// status, evidence fields); the pattern runs only on lines that may hold
// some.
func stripMetaBits(s string) string {
	lower := strings.ToLower(s)
	for _, lit := range []string{"[score=", "confidence", "recalls", "importance", "status", "evidence"} {
		if strings.Contains(lower, lit) {
			return reMetaBits.ReplaceAllString(s, "")
		}
	}
	return s
}

// reasonCues are in every line reReason can split (a cheap test first).
var reasonCues = []string{"because", "reason:", "why:", "porque", "ya que", "因为", "因為", "由于", "由於", "原因"}

// splitReason splits "rule, because why. How to apply: how" (and the
// reason sentence that closes a Japanese or Korean line) into its parts;
// a line without a reason comes back whole.
func splitReason(t string) (rule, why, how string) {
	lower := strings.ToLower(t)
	if !slices.ContainsFunc(reasonCues, func(c string) bool { return strings.Contains(lower, c) }) {
		if sents := splitSentences(t); len(sents) > 1 && reReasonEnd.MatchString(sents[len(sents)-1]) {
			return strings.Join(sents[:len(sents)-1], " "), sents[len(sents)-1], ""
		}
		return t, "", ""
	}
	if loc := reReason.FindStringIndex(t); loc != nil && loc[0] > 8 {
		rule, rest := strings.TrimSpace(t[:loc[0]]), strings.TrimSpace(t[loc[1]:])
		why = rest
		if h := reHowCue.FindStringIndex(rest); h != nil {
			why, how = strings.TrimSpace(rest[:h[0]]), strings.TrimSpace(rest[h[1]:])
		}
		if rule != "" && why != "" {
			return rule, why, how
		}
	}
	if sents := splitSentences(t); len(sents) > 1 && reReasonEnd.MatchString(sents[len(sents)-1]) {
		return strings.Join(sents[:len(sents)-1], " "), sents[len(sents)-1], ""
	}
	return t, "", ""
}

// cutSentences keeps whole sentences up to limit characters; when the first
// sentence alone is longer, it is cut at a word boundary with "…".
func cutSentences(s string, limit int) string {
	var b strings.Builder
	n := 0
	for _, sent := range splitSentences(s) {
		k := utf8.RuneCountInString(sent)
		if n > 0 && n+1+k > limit {
			break
		}
		if n == 0 && k > limit {
			return shorten(sent, limit)
		}
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(sent)
		n += k
	}
	return b.String()
}

// splitSentences splits after ". ", "! ", "? ", "。", "！", "？".
func splitSentences(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		end := false
		switch r {
		case '。', '！', '？':
			end = true
		case '.', '!', '?':
			end = i+1 == len(rs) || rs[i+1] == ' '
		}
		if end {
			out = append(out, strings.TrimSpace(string(rs[start:i+1])))
			start = i + 1
		}
	}
	if rest := strings.TrimSpace(string(rs[start:])); rest != "" {
		out = append(out, rest)
	}
	return out
}

// shorten cuts s to at most limit characters at a word boundary, adding "…".
func shorten(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	rs := []rune(s)
	cut := limit - 1
	for i := cut; i > limit/2; i-- {
		if rs[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(rs[:cut]), " ,;:") + "…"
}

// redact is secrets.Redact without the findings.
func redact(s string) string {
	out, _ := secrets.Redact(s)
	return out
}
