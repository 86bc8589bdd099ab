package dream

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// Line shapes: what a daily-log line is when it is no fact. Real logs are
// mostly machine output and bookkeeping (health checks every few hours,
// counters, cron results, file paths, commit hashes, transcripts, to-dos,
// questions), in every language the agent writes. Each shape is a small
// test on the line's form, never a list of words from one workspace; the
// first that matches says why the line is left out.

// logLine is a daily-log item as the shape tests read it.
type logLine struct {
	raw     string // as written, first line, list marker kept
	body    string // raw without list marker, checkbox, quote marker or leading clock
	text    string // the workspace's cleaned text, leading clock removed
	lower   string // text, lower-case
	key     string // "Gateway" in "Gateway: running": a short label before a colon
	value   string // what follows the label ("" without one)
	section string // the heading path the line sits under
}

// lineShape is one kind of line that is no fact.
type lineShape struct {
	reason string
	is     func(l *logLine) bool
}

// noiseShapes are tried in order. The to-do shape is not among them: an
// open item still closes or reopens work (decide.go), so it is told apart
// later, by isTodo.
var noiseShapes = []lineShape{
	{"nothing left after removing metadata", func(l *logLine) bool { return l.text == "" || l.body == "" }},
	{"conversation transcript, not a fact", func(l *logLine) bool { return reTranscript.MatchString(l.body) }},
	{"heartbeat status", func(l *logLine) bool { return reHeartbeat.MatchString(l.text) }},
	{"dream bookkeeping", func(l *logLine) bool { return reDreamBook.MatchString(l.text) }},
	{"session metadata", func(l *logLine) bool { return reSessionHdr.MatchString(l.raw) }},
	{"a question, not a fact", isQuestion},
	{"a table row (inspection or report output)", func(l *logLine) bool { return mdline.TableRow(l.body) }},
	{"machine output (a [tag] line)", func(l *logLine) bool { return machineTag(l.body) }},
	{"a label and one value (a path, hash, id or name), not a fact", labelAndToken},
	{"a single word, path, hash or link", func(l *logLine) bool { return oneToken(l.text) }},
	{"a commit line", func(l *logLine) bool { return reHashStart.MatchString(l.value) }},
	{"a status or counter line", isStatus},
	{"narrative paragraph, not one fact", isNarrative},
}

// maxNarrative is the longest list item read as one fact, in characters
// (the workspace's limit for a paragraph item); a paragraph that is not a
// list item is read as one fact up to MaxLine. Longer prose is a story of
// the day (the log keeps it), not a line of memory.
const maxNarrative = 500

func isNarrative(l *logLine) bool {
	n := utf8.RuneCountInString(l.text)
	return n > maxNarrative || n > MaxLine && !isListLine(strings.TrimSpace(l.raw))
}

var (
	// reLabel is a short label before a colon (see labelWords), markup
	// allowed around it.
	reLabel     = regexp.MustCompile(`^\**([^:：*\n]{1,40}?)\**\s*[:：]\**\s+|^\**([^:：*\n]{1,40}?)\**\s*：\**\s*`)
	reHashStart = regexp.MustCompile(`^(?:[0-9a-f]{7,40})(?:\s|$)`)
	// reMachineTag is a lower-case bracketed tag opening a line, as cron
	// jobs and scripts write them ("[cron]", "[train]", "[warn]").
	reMachineTag = regexp.MustCompile(`^\[[a-z][a-z0-9_.-]{1,15}\]`)
	reQuestion   = regexp.MustCompile(`[?？]\s*(?:\)|）)?\s*$`)
	// reStatusWord marks a line reporting how something ran.
	reStatusWord = regexp.MustCompile(`(?i)\b(?:ok|running|stopped|down|healthy|unhealthy|passed|failed|failing|succeeded|successful(?:ly)?|completed|synced|errors?|warnings?)\b|成功|失败|失敗|完成|正常|异常|異常|完了|성공|실패|완료|정상|✅|❌|⚠️`)
	reStatusHead = regexp.MustCompile(`(?i)heartbeat|health[ -]?check|\bcron\b|\bstatus\b|\bmonitor|心跳|巡检|巡檢|定时任务|定時|ハートビート|死活|점검|하트비트`)
)

// readLine prepares a daily-log item for the shape tests.
func readLine(raw, text, section string) *logLine {
	first, _, _ := strings.Cut(raw, "\n")
	l := &logLine{raw: first, section: section}
	l.body = stripListMarker(first)
	l.body = strings.TrimSpace(reClock.ReplaceAllString(l.body, ""))
	l.body = strings.TrimSpace(stripMetaBits(l.body))
	l.text = strings.TrimSpace(reClock.ReplaceAllString(strings.TrimSpace(stripMetaBits(text)), ""))
	l.lower = strings.ToLower(l.text)
	if !strings.ContainsAny(l.body, ":：") {
		return l
	}
	if m := reLabel.FindStringSubmatch(l.body); m != nil {
		k := strings.TrimSpace(m[1] + m[2])
		if labelWords(k) {
			l.key = k
			l.value = strings.TrimSpace(strings.Trim(l.body[len(m[0]):], "* "))
		}
	}
	return l
}

// labelWords reports a plausible label: up to six words, or up to twelve
// CJK characters, with a letter in it (not "10" of "10:30").
func labelWords(k string) bool {
	if k == "" || strings.IndexFunc(k, unicode.IsLetter) < 0 {
		return false
	}
	if cjkRunes(k) > 0 {
		return utf8.RuneCountInString(k) <= 12
	}
	return len(strings.Fields(k)) <= 6
}

// noiseOf says why a daily-log item is no fact, or "" when it may be one.
func noiseOf(l *logLine) string {
	for _, s := range noiseShapes {
		if s.is(l) {
			return s.reason
		}
	}
	return ""
}

func isQuestion(l *logLine) bool {
	return reQuestion.MatchString(l.text) || reQuestion.MatchString(l.body)
}

func machineTag(body string) bool {
	m := reMachineTag.FindString(body)
	return m != "" && normType(strings.Trim(m, "[]")) == ""
}

// labelAndToken: "Commit: 50e70b0", "Topic: nightly", "File: C:\Users\…",
// "proof: docs/x.md", "保存先: /data/…" — a label and one token (or a
// further label and one token: "周报已发：File: C:\…").
func labelAndToken(l *logLine) bool {
	if l.key == "" {
		return false
	}
	v := l.value
	if inner := readLine(v, v, ""); inner.key != "" {
		v = inner.value
	}
	return oneToken(v)
}

// oneToken reports text that is a single token: a path, a hash, a URL, an
// id or one word, markup aside.
func oneToken(s string) bool {
	s = strings.Trim(strings.TrimSpace(s), "`*_.,;。")
	if s == "" {
		return true
	}
	if len(strings.Fields(s)) > 1 {
		// A path may hold blanks only when it is clearly one ("C:\Program Files\…").
		return false
	}
	return cjkRunes(s) < 4
}

// isStatus: a line that reports measurements or how something ran rather
// than stating a fact. It holds two numbers or more and no more words than
// numbers ("Messages: 0 user, 23 assistant", "Disk C: 62% used, D: 40%"),
// or opens with a status word and holds a number and a few words at most
// ("Gateway: running (pid 4104), uptime 63h", "Backup: Successfully
// completed (41.5 GB in 14m)"), or it sits under a heartbeat or cron
// heading with a label and no sentence of its own ("**微信**：无新消息").
func isStatus(l *logLine) bool {
	part := l.text
	if l.key != "" {
		part = l.value
	}
	nums, words := numbersAndWords(part)
	switch {
	case nums >= 2 && nums >= words:
		return true
	case nums >= 1 && words <= 4 && opensWithStatus(part):
		return true
	case l.key != "" && words <= 4 && reStatusHead.MatchString(l.section):
		return true
	}
	return false
}

// opensWithStatus reports text whose first word says how something ran.
func opensWithStatus(s string) bool {
	loc := reStatusWord.FindStringIndex(s)
	return loc != nil && strings.TrimSpace(strings.Trim(s[:loc[0]], "*_`:：-")) == ""
}

// numbersAndWords counts the tokens of s that are measurements (they open
// with a digit, after a currency sign or the like: "62%", "41.5", "€400",
// "63h"), and its words: letter runs of two or more (stop words left out),
// names with digits ("nas-01", "ZD421") included, CJK text counting one
// word per two characters.
//
// It splits s itself rather than with analysis.Words, which answers
// another question (which terms two texts share): analysis cuts
// compounds at their joiners and gives CJK as overlapping bigrams, so
// "41.5 GB" would hold two numbers, "nas-01" a word and a number, and
// "无新消息" three words where a reader sees one measurement, one name
// and about two words. These counts decide whether a line reports
// measurements or states something (isStatus), so the tokens here are
// the blank- and comma-separated fields a reader sees; only the stop
// words are shared (memory.StopWord is analysis's list plus log words).
func numbersAndWords(s string) (nums, words int) {
	cjk := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;，；、()（）[]「」", r)
	}) {
		if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(f, "€$£¥+-~≈<>#*`")); unicode.IsDigit(r) {
			nums++
			continue
		}
		if n := cjkRunes(f); n > 0 {
			cjk += n
			continue
		}
		w := strings.ToLower(strings.Trim(f, ".:：*`'\"!"))
		if utf8.RuneCountInString(w) >= 2 && strings.IndexFunc(w, unicode.IsLetter) >= 0 && !memory.StopWord(w) {
			words++
		}
	}
	return nums, words + (cjk+1)/2
}

// cjkRunes counts the Han, kana and Hangul characters of s.
func cjkRunes(s string) int {
	n := 0
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			n++
		}
	}
	return n
}

// reTodo finds an open item: a checkbox, or a line opening with a to-do
// label (TODO, Next, Follow-up, Pending, 下一步, 待办, やること, 次：,
// 할 일, Pendiente, …) or with "remind … to".
var reTodo = regexp.MustCompile(`(?i)^(?:\[ \]|(?:todo|to-do|fixme|next(?: steps?)?|follow[- ]?ups?|action items?|pending|open question|reminder|pendiente|por hacer|à faire|a faire|offen|下一步|下步|待办|待確認|待确认|待定|待处理|后续|次|やること|todo|할 ?일|다음 할 일|후속)\s*(?:\([^)]*\))?\s*[:：]|remind\s+\S+(?:\s+\S+)?\s+to\b)`)

// isTodo reports an open to-do or reminder: it says what is still to be
// done, not what is true.
func isTodo(raw string) bool {
	first, _, _ := strings.Cut(raw, "\n")
	t := unquote(strings.TrimSpace(first))
	if it, ok := mdline.ListItem(t); ok {
		if it.Task != 0 {
			return it.Task == ' '
		}
		t = it.Text
	}
	return reTodo.MatchString(t)
}
