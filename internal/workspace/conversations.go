package workspace

import (
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// convFile is a file under archives/<channel>/<group>/.
type convFile struct {
	file         *File
	channel, grp string
	rest         string // path inside the group folder
}

// buildConversations groups archive files by channel and group, labels them
// from archive-config.json and reads message counts from INDEX.md.
func buildConversations(files []convFile, cfg *ArchiveConfig) []*Conversation {
	byKey := map[string]*Conversation{}
	var keys []string
	for _, cf := range files {
		key := cf.channel + "/" + cf.grp
		c := byKey[key]
		if c == nil {
			c = &Conversation{Channel: cf.channel, Group: cf.grp, Label: cf.grp}
			c.GroupID, c.Label = groupLabel(cfg, cf.grp)
			byKey[key] = c
			keys = append(keys, key)
		}
		rest := cf.rest
		lower := strings.ToLower(rest)
		switch {
		case lower == "digest.md":
			c.Digest = cf.file
		case lower == "index.md":
			c.Index = cf.file
		case strings.HasPrefix(rest, "raw/"):
			c.Raw = append(c.Raw, cf.file)
			if isMarkdown(rest) {
				c.Days = append(c.Days, readDay(cf.file, rest))
			}
		case strings.HasPrefix(rest, "summaries/") && strings.HasPrefix(path.Base(rest), "topic-") && isMarkdown(rest):
			id := strings.TrimPrefix(strings.TrimSuffix(path.Base(rest), path.Ext(rest)), "topic-")
			c.Topics = append(c.Topics, &ConversationTopic{ID: id, File: cf.file})
		default:
			if isMarkdown(rest) {
				c.Other = append(c.Other, cf.file)
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := byKey[keys[i]], byKey[keys[j]]
		if a.Channel != b.Channel {
			return a.Channel < b.Channel
		}
		return a.Group < b.Group
	})
	out := make([]*Conversation, 0, len(keys))
	for _, k := range keys {
		c := byKey[k]
		topicDays(c)
		sort.SliceStable(c.Topics, func(i, j int) bool { return naturalLess(c.Topics[i].ID, c.Topics[j].ID) })
		var counts map[string]int
		if c.Index != nil {
			counts = indexCounts(c.Index.Content)
		}
		for _, t := range c.Topics {
			t.Name = topicName(cfg, c, t)
			n, ok := counts[t.ID]
			switch {
			case len(t.Days) > 0:
				// The raw lines are the messages themselves; the index
				// and summary only say how many there were when written.
				t.Messages = 0
				for _, d := range t.Days {
					t.Messages += d.Messages
				}
			case ok:
				t.Messages = n
			case t.File != nil:
				t.Messages = summaryCount(t.File.Content)
			}
		}
		c.Cites = digestCites(c)
		out = append(out, c)
	}
	return out
}

// rawCite finds a link to a raw transcript's line, as `dreamwiki archive`
// cites one: "](raw/topic-7/2026-11-02.md#^L6)".
var rawCite = regexp.MustCompile(`\]\((raw/[^()#\s]+\.md)#\^L(\d+)\)`)

// digestCites reads the lines of c's DIGEST.md that cite a raw message,
// each with the message its transcript holds at that line; a citation of
// a transcript or line that is not there is left out.
func digestCites(c *Conversation) []*DigestCite {
	if c.Digest == nil {
		return nil
	}
	dir := path.Dir(c.Digest.Path)
	days := map[string]*ConversationDay{}
	for _, d := range c.Days {
		days[d.File.Path] = d
	}
	topics := map[string]*ConversationTopic{}
	for _, t := range c.Topics {
		topics[t.ID] = t
	}
	var out []*DigestCite
	for i, l := range mdline.Split(c.Digest.Content) {
		m := rawCite.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		d := days[path.Join(dir, m[1])]
		n, err := strconv.Atoi(m[2])
		if d == nil || err != nil {
			continue
		}
		for _, rl := range mdline.Split(d.File.Content) {
			if msg, ok := ParseRawMessage(rl); ok && msg.Line == n {
				out = append(out, &DigestCite{Line: i + 1, Day: d, Message: msg, Topic: topics[d.Topic]})
				break
			}
		}
	}
	return out
}

// topicDays gives each topic its raw days, making a topic of a raw
// topic folder that has no summary yet.
func topicDays(c *Conversation) {
	sort.SliceStable(c.Days, func(i, j int) bool { return c.Days[i].File.Path < c.Days[j].File.Path })
	byID := map[string]*ConversationTopic{}
	for _, t := range c.Topics {
		byID[t.ID] = t
	}
	for _, d := range c.Days {
		if d.Topic == "" {
			continue
		}
		t := byID[d.Topic]
		if t == nil {
			t = &ConversationTopic{ID: d.Topic}
			byID[d.Topic] = t
			c.Topics = append(c.Topics, t)
		}
		t.Days = append(t.Days, d)
	}
}

// readDay reads a raw transcript at rest (its path inside the group
// folder): its topic and day from the path, its messages and senders
// from its lines.
func readDay(f *File, rest string) *ConversationDay {
	d := &ConversationDay{File: f}
	if id, ok := strings.CutPrefix(path.Dir(rest), "raw/topic-"); ok && !strings.Contains(id, "/") {
		d.Topic = id
	}
	if date, _, ok := dailyName(path.Base(rest)); ok {
		d.Day = date.Format("2006-01-02")
	}
	senders := map[string]int{}
	for _, l := range mdline.Split(f.Content) {
		if m, ok := ParseRawMessage(l); ok {
			d.Messages++
			senders[m.Sender]++
		}
	}
	d.Senders = SortSenders(senders)
	return d
}

// SortSenders lists message counts by sender, most messages first, then
// by name.
func SortSenders(counts map[string]int) []SenderCount {
	out := make([]SenderCount, 0, len(counts))
	for name, n := range counts {
		out = append(out, SenderCount{Name: name, Messages: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Messages != out[j].Messages {
			return out[i].Messages > out[j].Messages
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// RawMessage is one message line of a raw transcript.
type RawMessage struct {
	Time   string // HH:MM
	Sender string
	Text   string
	// Line is the block id's number (^L<line>), 0 when the line has none.
	Line int
}

// ParseRawMessage reads a message line of a raw transcript as
// `dreamwiki archive` writes it, "- **[HH:MM] Sender:** text ^L<line>",
// or without the list marker and block id as older archivers did.
// Tool lines ("- *[HH:MM] tool:* ...") and continuation lines are not
// messages.
func ParseRawMessage(l string) (RawMessage, bool) {
	rest, found := strings.CutPrefix(l, "- **[")
	if !found {
		if rest, found = strings.CutPrefix(l, "**["); !found {
			return RawMessage{}, false
		}
	}
	if len(rest) < 8 || rest[2] != ':' || rest[5:7] != "] " {
		return RawMessage{}, false
	}
	m := RawMessage{Time: rest[:5]}
	m.Sender, rest, found = strings.Cut(rest[7:], ":** ")
	if !found || m.Sender == "" {
		return RawMessage{}, false
	}
	m.Text = rest
	if k := strings.LastIndex(rest, " ^L"); k >= 0 {
		if n, err := strconv.Atoi(rest[k+3:]); err == nil && n > 0 {
			m.Text, m.Line = rest[:k], n
		}
	}
	return m, true
}

// groupLabel finds the config group a folder names, by id or by name.
func groupLabel(cfg *ArchiveConfig, folder string) (id, label string) {
	if cfg == nil || cfg.Groups == nil {
		return "", folder
	}
	pick := func(id string, g ArchiveGroup) (string, string) {
		switch {
		case g.Label != "":
			return id, g.Label
		case g.Name != "":
			return id, g.Name
		}
		return id, folder
	}
	if g, ok := cfg.Groups[folder]; ok {
		return pick(folder, g)
	}
	ids := make([]string, 0, len(cfg.Groups))
	for id := range cfg.Groups {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if g := cfg.Groups[id]; g.Name == folder {
			return pick(id, g)
		}
	}
	return "", folder
}

func topicName(cfg *ArchiveConfig, c *Conversation, t *ConversationTopic) string {
	if cfg != nil && cfg.TopicNames != nil {
		for _, gid := range []string{c.GroupID, c.Group} {
			if names, ok := cfg.TopicNames[gid]; ok && names[t.ID] != "" {
				return names[t.ID]
			}
		}
	}
	if t.File == nil {
		return t.ID
	}
	for _, l := range mdline.Split(t.File.Content) {
		if level, text := mdline.Heading(strings.TrimSpace(l)); level == 1 {
			return headingText(text)
		}
	}
	return t.ID
}

// indexCounts reads message counts per topic id from INDEX.md: a table
// with a topic column and a messages column, or lines like
// "- [General](summaries/topic-1.md) — 42 messages".
func indexCounts(content string) map[string]int {
	counts := map[string]int{}
	var cols []string
	for _, l := range mdline.Split(content) {
		t := strings.TrimSpace(l)
		if mdline.TableSeparator(t) {
			continue
		}
		if mdline.TableRow(t) {
			cells := cleanCells(mdline.TableCells(t))
			if cols == nil && !rowHasNumber(cells) {
				cols = cells
				continue
			}
			id := ""
			n, haveN := -1, false
			for i, cell := range cells {
				head := ""
				if i < len(cols) {
					head = strings.ToLower(cols[i])
				}
				if tid := topicRef(cell); tid != "" && id == "" {
					id = tid
				}
				if isCountColumn(head) {
					if v, ok := leadingNumber(cell); ok {
						n, haveN = v, true
					}
				}
				if id == "" && (head == "id" || head == "topic id" || head == "#" || head == "topic") {
					if _, err := strconv.Atoi(strings.TrimPrefix(cell, "#")); err == nil {
						id = strings.TrimPrefix(cell, "#")
					}
				}
			}
			if id != "" && haveN {
				counts[id] = n
			}
			continue
		}
		cols = nil
		id := topicRef(t)
		if id == "" {
			continue
		}
		if n, ok := messageCount(t); ok {
			counts[id] = n
		}
	}
	return counts
}

func rowHasNumber(cells []string) bool {
	for _, c := range cells {
		if _, ok := leadingNumber(c); ok {
			return true
		}
	}
	return false
}

func isCountColumn(h string) bool {
	return strings.Contains(h, "message") || strings.Contains(h, "msgs") || h == "count" || strings.Contains(h, "消息")
}

// topicRef finds "topic-<id>" in s.
func topicRef(s string) string {
	k := strings.Index(s, "topic-")
	if k < 0 {
		return ""
	}
	j := k + len("topic-")
	e := j
	for e < len(s) && (isDigit(s[e]) || s[e] == '_' || s[e] == '-' || 'a' <= s[e] && s[e] <= 'z' || 'A' <= s[e] && s[e] <= 'Z') {
		e++
	}
	return strings.TrimSuffix(s[j:e], "-")
}

// messageCount finds "42 messages", "42 msgs", "messages: 42" or "42 条".
func messageCount(s string) (int, bool) {
	lower := strings.ToLower(s)
	for _, w := range []string{" messages", " message", " msgs", " msg", " 条", "条"} {
		if k := strings.Index(lower, w); k > 0 {
			j := k
			for j > 0 && (isDigit(lower[j-1]) || lower[j-1] == ',') {
				j--
			}
			if j < k {
				if v, err := strconv.Atoi(strings.ReplaceAll(lower[j:k], ",", "")); err == nil {
					return v, true
				}
			}
		}
	}
	for _, w := range []string{"messages:", "message count:", "messages ="} {
		if k := strings.Index(lower, w); k >= 0 {
			if v, ok := leadingNumber(strings.TrimSpace(lower[k+len(w):])); ok {
				return v, true
			}
		}
	}
	return 0, false
}

func leadingNumber(s string) (int, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", ""))
	n, k := leadingInt(s, 12)
	return n, k > 0
}

// summaryCount reads a message count written in a topic summary.
func summaryCount(content string) int {
	lines := mdline.Split(content)
	for i, l := range lines {
		if i > 40 {
			break
		}
		if n, ok := messageCount(l); ok {
			return n
		}
	}
	return 0
}

// naturalLess orders "2" before "10" and otherwise compares as strings.
func naturalLess(a, b string) bool {
	ai, errA := strconv.Atoi(a)
	bi, errB := strconv.Atoi(b)
	switch {
	case errA == nil && errB == nil:
		if ai != bi {
			return ai < bi
		}
	case errA == nil:
		return true
	case errB == nil:
		return false
	}
	return a < b
}

func isMarkdown(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown"
}
