package dream

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Replacements. A fact replaces a curated one only when the log says so:
// it names the old value it replaces ("switched from VS Code to Zed",
// "保留期从 14 天改成 30 天", "3%에서 2.5%로", "del 18 al 25"), or it gives a
// subject curated memory already holds a different value for, as a change
// or a correction ("Gateway host is now the Mac mini", "远程桌面端口改成了
// 53389", "The right expression for X is …"). Lines that merely share a
// label ("Decision:", "下一步：", "역할:") replace nothing.

// reFromTo finds "from A to B" and its forms in other languages; the old
// value is the text before the cue, read back a few tokens at most.
var reFromTo = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bfrom\s+(.{1,40}?)\s+to\s`),
	regexp.MustCompile(`从\s*(.{1,20}?)\s*(?:改成|改为|改為|换成|換成|改到|调到|調到|涨到|漲到|降到|减到|減到|增加到|延长到|延長到|变成|變成)`),
	regexp.MustCompile(`(?i)\b(?:pasa|pasó|cambia|cambió|sube|subió|baja|bajó)\s+de\s+(.{1,40}?)\s+a\s`),
	regexp.MustCompile(`(\S+(?:\s\S+){0,2}?)\s*から\s*\S+\s*(?:に|へ)(?:変更|延長|移行|変わ)`),
	regexp.MustCompile(`(\S+(?:\s\S+){0,2}?)에서\s+\S+(?:\s\S+)?(?:으로|로)\s`),
}

// reChangeTo is a change stated without the old value: the subject is the
// clause right before the cue ("…，远程桌面端口改成了 53389").
var reChangeTo = regexp.MustCompile(`(?i)([^\s,，;；。、:：][^,，;；。、:：]{0,30}?)\s*(?:改成了?|改为|改為|换成了?|換成了?|に変更|(?:으로|로) 변경|switched to|changed to|moved to)\s*(\S)`)

// reCorrection is a correction: "the right/correct X is".
var reCorrection = regexp.MustCompile(`(?i)\bthe (?:right|correct|proper|actual) (.{3,80}?) (?:is|are)\b`)

// oldValues are the values a change statement says it replaces, each read
// back one to three tokens from its cue (so "모델을 Claude Sonnet에서" offers
// "Sonnet", "Claude Sonnet" and "모델을 Claude Sonnet").
func oldValues(text string) []string {
	var out []string
	for _, re := range reFromTo {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			v := strings.TrimSpace(m[1])
			fs := strings.Fields(v)
			for k := 1; k <= len(fs) && k <= 3; k++ {
				if s := strings.Trim(strings.Join(fs[len(fs)-k:], " "), "`*\"'()（）"); meaningfulValue(s) {
					out = append(out, s)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// meaningfulValue: a value worth finding in curated memory has a letter
// or a digit and two characters at least.
func meaningfulValue(s string) bool {
	return len([]rune(s)) >= 2 && strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// changedSubjects are the subjects a change or correction statement gives
// a new value for without naming the old one, normalised as labels are.
func changedSubjects(text string) []string {
	var out []string
	for _, m := range reChangeTo.FindAllStringSubmatch(text, -1) {
		out = append(out, normLabel(m[1]))
	}
	for _, m := range reCorrection.FindAllStringSubmatch(text, -1) {
		out = append(out, normLabel(m[1]))
	}
	return out
}

// normLabel compares labels: lower-case, markup and blanks dropped.
func normLabel(s string) string {
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), "*_`\"'"))
	return strings.Join(strings.Fields(s), " ")
}

// replaced finds the curated entries a durable change statement replaces
// (see above): entries that hold a value it names as the old one and share
// a word of its subject, or whose label is the subject it changes (a
// correction's subject may name the label in more words: "the right
// expression for the last day of the previous month" corrects "Last day
// of the previous month:"). Entries in closed structures (numbered lists,
// tables, code, counted lists), holding a secret, already replaced, or
// from a newer log are left alone.
func (m *curatedMemory) replaced(c *candidate) []*curated {
	if c.marker != "change" && c.marker != "decision" && c.marker != "correction" {
		return nil
	}
	// A fact the LLM worded is matched by its lines' words too.
	olds := oldValues(c.fact + "\n" + c.raw)
	subjects := changedSubjects(c.fact + "\n" + c.raw)
	if len(olds) == 0 && len(subjects) == 0 {
		return nil
	}
	var out []*curated
	for _, o := range m.curated {
		if o.isGone() || o.superseded() || o.pointer || o.table || o.pinned() || o.cand == c || o.u != nil && o.u.doc.closedUnit(o.u) {
			continue
		}
		if !o.date.IsZero() && o.date.After(c.date) {
			continue // an older log never overrides a newer fact
		}
		if holdsOldValue(o, c, olds) || labelledBy(o, subjects, c.marker == "correction") {
			out = append(out, o)
		}
	}
	return out
}

// holdsOldValue reports an entry holding one of the old values: a value of
// two words or more ("VS Code") names the thing itself; a shorter one must
// come with a word of the candidate's subject the entry shares (a time of
// "01:00", or "Google", alone says nothing).
func holdsOldValue(o *curated, c *candidate, olds []string) bool {
	text := strings.ToLower(o.text)
	for _, v := range olds {
		lv := strings.ToLower(v)
		if !strings.Contains(text, lv) {
			continue
		}
		if len(strings.Fields(v)) >= 2 {
			return true
		}
		vw := contentWords(v)
		for _, w := range c.words {
			if !slices.Contains(vw, w) && !genericWords[w] && slices.Contains(o.words, w) {
				return true
			}
		}
	}
	return false
}

// labelledBy reports an entry whose label ("Ollama model" of "Ollama model:
// llama3.1:8b") is one of the subjects; loose lets a subject hold the
// label's words among more (a correction names what it corrects at
// length).
func labelledBy(o *curated, subjects []string, loose bool) bool {
	if o.e == nil || len(subjects) == 0 {
		return false
	}
	label := normLabel(readLine(o.e.Raw, o.e.Raw, "").key)
	if label == "" {
		return false
	}
	for _, s := range subjects {
		switch {
		case s == label, strings.HasSuffix(s, label) && cjkRunes(label) >= 2:
			return true
		case loose && len(strings.Fields(label)) >= 3 && strings.Contains(s, label):
			return true
		}
	}
	return false
}
