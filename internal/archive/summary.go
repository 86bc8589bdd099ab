package archive

import (
	"bufio"
	"container/heap"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// cite is one raw message a summary quotes.
type cite struct {
	File   string `json:"file"` // raw file, relative to the group folder
	Line   int    `json:"line"`
	Day    string `json:"day"`
	Time   string `json:"time"`
	Sender string `json:"sender"`
	Text   string `json:"text"`
}

// ref is the citation as text (path#Lline, as provenance writes them)
// and its link target from a file in dir ("" or "summaries"): the
// line's block id.
func (c cite) ref(fromSummaries bool) string {
	target := c.File
	if fromSummaries {
		target = "../" + target
	}
	return fmt.Sprintf("[%s#L%d](%s#^L%d)", c.File, c.Line, target, c.Line)
}

func (c cite) quote(fromSummaries bool) string {
	return fmt.Sprintf("%s %s **%s**: “%s” (%s)", c.Day, c.Time, c.Sender, mdEscape(clip(c.Text, 200)), c.ref(fromSummaries))
}

// mdEscape keeps a quoted message from opening links, embeds or
// emphasis inside a summary line.
var mdEscaper = strings.NewReplacer("[", `\[`, "]", `\]`, "*", `\*`, "_", `\_`, "`", "'", "<", "&lt;", "|", `\|`)

func mdEscape(s string) string { return mdEscaper.Replace(s) }

// decisionPhrases mark a message that settles something.
var decisionPhrases = []string{
	"decided", "decision", "agreed", "agree", "let's", "we will", "we'll", "i'll", "going with", "go with",
	"plan is", "doing that", "settled", "switch to", "switched to", "switching to", "move to", "moved to",
	"moving to", "chose", "picked", "approved", "noted", "will do", "from now on",
}

// isDecision reports whether text holds a decision phrase as whole words.
func isDecision(text string) bool {
	lower := strings.ToLower(text)
	for _, p := range decisionPhrases {
		for from := 0; ; {
			k := strings.Index(lower[from:], p)
			if k < 0 {
				break
			}
			k += from
			end := k + len(p)
			if (k == 0 || !isWordByte(lower[k-1])) && (end == len(lower) || !isWordByte(lower[end])) {
				return true
			}
			from = k + 1
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '\''
}

// score ranks a message for the key messages: decisions first, then
// messages with numbers, links or questions, of a readable length.
func score(text string, decision bool) float64 {
	s := 0.0
	if decision {
		s += 3
	}
	if strings.ContainsAny(text, "0123456789") {
		s++
	}
	if strings.Contains(text, "://") {
		s++
	}
	if strings.Contains(text, "?") {
		s += 0.5
	}
	if w := len(strings.Fields(text)); w >= 6 && w <= 80 {
		s++
	} else if w < 3 {
		s -= 2
	}
	return s
}

type scored struct {
	score float64
	seq   int
	c     cite
}

// topK keeps the k best messages; ties go to the earlier one.
type topK []scored

func (h topK) Len() int { return len(h) }
func (h topK) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].seq > h[j].seq
}
func (h topK) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *topK) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *topK) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

const (
	keyMessages = 8
	decisions   = 8
	timelineMax = 30
)

// summariseTopic reads a topic's raw files, one line at a time, and
// writes its extractive summary: participants, timeline, decisions and
// key messages, each quoting and citing the raw line it comes from.
//
// abstract, when not nil, gets the topic's latest messages and returns a
// section to put before the extractive ones ("" to leave it out).
func summariseTopic(dir, groupTitle, name string, t *topicState, abstract func(recent []cite) string) (string, []cite, error) {
	days := slices.Sorted(maps.Keys(t.Days))
	var best topK
	var decided, recent []cite
	seq := 0
	for _, day := range days {
		rel := rawPath(t.Topic, day)
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			m, ok := workspace.ParseRawMessage(sc.Text())
			if !ok || m.Line == 0 {
				continue
			}
			seq++
			c := cite{File: rel, Line: m.Line, Day: day, Time: m.Time, Sender: m.Sender, Text: m.Text}
			if abstract != nil {
				recent = append(recent, c)
				if len(recent) > llmMessages {
					recent = recent[1:]
				}
			}
			decision := isDecision(c.Text)
			if decision {
				decided = append(decided, c)
				if len(decided) > decisions {
					decided = decided[1:]
				}
			}
			heap.Push(&best, scored{score(c.Text, decision), seq, c})
			if best.Len() > keyMessages {
				heap.Pop(&best)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return "", nil, fmt.Errorf("%s: %w", rel, err)
		}
	}
	sort.Slice(best, func(i, j int) bool { return best[i].seq < best[j].seq })

	var b strings.Builder
	fmt.Fprintf(&b, "# %s — summary\n\n", name)
	first, last := "", ""
	if len(days) > 0 {
		first, last = days[0], days[len(days)-1]
	}
	fmt.Fprintf(&b, "Topic %s of %s (%s). %s, %s → %s. An extractive summary written by `dreamwiki archive`: every line quotes and cites the raw message it comes from.\n", t.Topic, groupTitle, t.Channel, messages(t.Messages), first, last)
	if abstract != nil && len(recent) > 0 {
		b.WriteString(abstract(recent))
	}
	b.WriteString("\n## Participants\n\n")
	for _, p := range workspace.SortSenders(t.Participants) {
		fmt.Fprintf(&b, "- %s — %s\n", p.Name, messages(p.Messages))
	}
	b.WriteString("\n## Timeline\n\n")
	shown := days
	if len(shown) > timelineMax {
		fmt.Fprintf(&b, "- %d earlier days, %s → %s: see INDEX.md\n", len(shown)-timelineMax, shown[0], shown[len(shown)-timelineMax-1])
		shown = shown[len(shown)-timelineMax:]
	}
	for _, d := range shown {
		fmt.Fprintf(&b, "- [%s](../%s) — %s\n", d, rawPath(t.Topic, d), messages(t.Days[d]))
	}
	if len(decided) > 0 {
		b.WriteString("\n## Decisions\n\n")
		for _, c := range decided {
			b.WriteString("- " + c.quote(true) + "\n")
		}
	}
	if len(best) > 0 {
		b.WriteString("\n## Key messages\n\n")
		for _, s := range best {
			b.WriteString("- " + s.c.quote(true) + "\n")
		}
	}
	return b.String(), decided, nil
}

// groupTopic is a topic with its display name, for the group's files.
type groupTopic struct {
	name string
	t    *topicState
}

// digest is the group's DIGEST.md: its topics, who is there, and the
// latest decisions across topics, each citing its raw line.
func digest(title, channel, groupID string, topics []groupTopic) string {
	var b strings.Builder
	total, first, last := 0, "", ""
	people := map[string]int{}
	var all []cite
	for _, gt := range topics {
		total += gt.t.Messages
		days := slices.Sorted(maps.Keys(gt.t.Days))
		if len(days) > 0 {
			if first == "" || days[0] < first {
				first = days[0]
			}
			if d := days[len(days)-1]; d > last {
				last = d
			}
		}
		for p, n := range gt.t.Participants {
			people[p] += n
		}
		all = append(all, gt.t.Decisions...)
	}
	fmt.Fprintf(&b, "# %s — digest\n\n", title)
	fmt.Fprintf(&b, "%s group %s: %s in %d topics, %s → %s. Written by `dreamwiki archive` from the topic summaries.\n", channel, groupID, messages(total), len(topics), first, last)
	b.WriteString("\n## Topics\n\n")
	for _, gt := range topics {
		days := slices.Sorted(maps.Keys(gt.t.Days))
		fmt.Fprintf(&b, "- [%s](summaries/topic-%s.md) — %s, last %s\n", mdEscape(gt.name), gt.t.Topic, messages(gt.t.Messages), days[len(days)-1])
	}
	b.WriteString("\n## Who's here\n\n")
	for _, p := range workspace.SortSenders(people) {
		fmt.Fprintf(&b, "- %s — %s\n", p.Name, messages(p.Messages))
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Day != all[j].Day {
			return all[i].Day > all[j].Day
		}
		return all[i].Time > all[j].Time
	})
	if len(all) > decisions {
		all = all[:decisions]
	}
	if len(all) > 0 {
		b.WriteString("\n## Latest decisions\n\n")
		for _, c := range all {
			b.WriteString("- " + c.quote(false) + "\n")
		}
	}
	return b.String()
}

// index is the group's INDEX.md: a table of topics with message counts,
// which the workspace reader reads counts from, and the raw files.
func index(title, channel, groupID string, topics []groupTopic) string {
	var b strings.Builder
	people := map[string]int{}
	last := ""
	for _, gt := range topics {
		for p, n := range gt.t.Participants {
			people[p] += n
		}
		if d := slices.Sorted(maps.Keys(gt.t.Days)); len(d) > 0 && d[len(d)-1] > last {
			last = d[len(d)-1]
		}
	}
	fmt.Fprintf(&b, "# %s — topic index\n\n", title)
	fmt.Fprintf(&b, "%s group %s. Participants: %s. Archived through %s.\n\n", channel, groupID, strings.Join(byCount(people), ", "), last)
	b.WriteString("| topic id | name | messages | first | last | summary |\n|---|---|---|---|---|---|\n")
	for _, gt := range topics {
		days := slices.Sorted(maps.Keys(gt.t.Days))
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | [topic-%s](summaries/topic-%s.md) |\n", gt.t.Topic, mdEscape(gt.name), gt.t.Messages, days[0], days[len(days)-1], gt.t.Topic, gt.t.Topic)
	}
	b.WriteString("\n## Raw transcripts\n\n")
	for _, gt := range topics {
		var links []string
		for _, d := range slices.Sorted(maps.Keys(gt.t.Days)) {
			links = append(links, fmt.Sprintf("[%s](%s)", d, rawPath(gt.t.Topic, d)))
		}
		fmt.Fprintf(&b, "- %s: %s\n", mdEscape(gt.name), strings.Join(links, ", "))
	}
	return b.String()
}

// byCount orders names by count, most first, then by name.
func byCount(m map[string]int) []string {
	senders := workspace.SortSenders(m)
	out := make([]string, len(senders))
	for i, p := range senders {
		out[i] = p.Name
	}
	return out
}

// messages is "1 message" or "n messages".
func messages(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}
