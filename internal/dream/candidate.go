package dream

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

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
	why, how   string // feedback with a reason
	words      []string
	nums       []string // the fact's numbers, for near-duplicate checks
	subject    string
	value      string
	perm       bool
	expires    time.Time
	secrets    []SecretFinding
	evidence   []evidence // this line and its near-duplicates elsewhere
	notes      []string   // what distillation did ("relative dates made absolute")

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
	reReason     = regexp.MustCompile(`(?i)\s*(?:[;,.—–-]\s*)?\b(?:because|reason:|why:)\s+|因为|原因[:：]`)
	reHowCue     = regexp.MustCompile(`(?i)\s*(?:[;,.—–-]\s*)?\bhow(?: to apply)?:\s+`)
	reListMarker = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?`)
)

// boilerplate says why an item is no candidate, or "" when it is one.
func boilerplate(text string) string {
	t := strings.TrimSpace(text)
	lower := strings.ToLower(t)
	// Cheap substring checks guard the patterns: most lines match none.
	head := lower
	if len(head) > 16 {
		head = head[:16]
	}
	switch {
	case strings.ContainsAny(head, ":：") && reTranscript.MatchString(t):
		return "conversation transcript, not a fact"
	case (strings.Contains(lower, "heartbeat") || strings.HasPrefix(lower, "no") || strings.Contains(t, "HEARTBEAT")) && reHeartbeat.MatchString(t):
		return "heartbeat status"
	case (strings.Contains(lower, "dream") || strings.Contains(lower, "consolidated") || strings.Contains(lower, "sleep")) && reDreamBook.MatchString(t):
		return "dream bookkeeping"
	case strings.Contains(lower, "session") && reSessionHdr.MatchString(t):
		return "session metadata"
	case strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？"):
		return "a question, not a fact"
	}
	ws := contentWords(reClock.ReplaceAllString(t, ""))
	if len(ws) < 3 && utf8.RuneCountInString(t) < 16 {
		return "too short to be a fact"
	}
	if len(ws) == 0 {
		return "nothing but markup or numbers"
	}
	return ""
}

// newCandidate reads one daily-log item; skip is set instead when the item
// is no candidate.
func newCandidate(id int, log *workspace.DailyLog, it workspace.LogItem) (*candidate, *Skip) {
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
	if why := boilerplate(it.Text); why != "" {
		return nil, &Skip{File: c.path, Line: it.Line, Text: shorten(redact(it.Text), 80), Reason: why}
	}
	if len(c.secrets) > 0 {
		// A secret can span lines (a private key block) that the item's
		// cleaned text has joined; redact the lines as written and read the
		// text from them, so no part of the value survives.
		red, _ := secrets.Redact(it.Raw)
		t := strings.Join(strings.Fields(red), " ")
		if li := reListMarker.FindString(t); li != "" {
			t = t[len(li):]
		}
		c.text = t
	}
	c.distill()
	if secrets.Contains(c.fact) {
		c.fact = "" // never: the guard is the one hard block on content
	}
	if c.fact == "" {
		return nil, &Skip{File: c.path, Line: it.Line, Text: shorten(redact(it.Text), 80), Reason: "nothing left after removing metadata"}
	}
	c.evidence = []evidence{{Path: c.path, Line: c.line, EndLine: c.endLine, Date: c.date}}
	return c, nil
}

// distill turns the item into the line curated memory will hold.
func (c *candidate) distill() {
	t := c.text
	if s := reMetaBits.ReplaceAllString(t, ""); s != t {
		t = s
		c.notes = append(c.notes, "candidate metadata removed")
	}
	t = strings.TrimSpace(reClock.ReplaceAllString(strings.TrimSpace(t), ""))
	if s, changed := absoluteDates(t, c.date); changed {
		t = s
		c.notes = append(c.notes, "relative dates made absolute")
	}
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

	// Feedback that gives its reason is written as Rule/Why (DESIGN 5.3).
	if c.typ == TypeFeedback {
		if loc := reReason.FindStringIndex(t); loc != nil && loc[0] > 8 {
			rule, rest := strings.TrimSpace(t[:loc[0]]), strings.TrimSpace(t[loc[1]:])
			why, how := rest, ""
			if h := reHowCue.FindStringIndex(rest); h != nil {
				why, how = strings.TrimSpace(rest[:h[0]]), strings.TrimSpace(rest[h[1]:])
			}
			if rule != "" && why != "" {
				c.why = shorten(strings.TrimRight(why, " ."), maxFact)
				c.how = shorten(strings.TrimRight(how, " ."), maxFact)
				t = rule
			}
		}
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
