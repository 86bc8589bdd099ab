package site

import (
	"fmt"
	"html/template"
	"path"
	"sort"
	"strings"
)

// Conversation is one archived conversation group (DESIGN 3,
// archives/<channel>/<group>/), with vault paths of its notes.
type Conversation struct {
	Channel, Group, Label string
	// Digest and Index are vault paths, "" when absent.
	Digest, Index string
	Topics        []ConversationTopic
	// Days are the group's raw transcripts outside any topic folder
	// (older archivers wrote raw/<date>.md).
	Days []ConversationDay
}

// ConversationTopic is one topic of a conversation.
type ConversationTopic struct {
	ID, Name string
	Path     string // vault path of the summary, "" when there is none
	// Messages is the message count, 0 when unknown.
	Messages int
	// Days are the topic's raw transcripts, by day.
	Days []ConversationDay
}

// ConversationDay is one raw transcript.
type ConversationDay struct {
	Day      string // YYYY-MM-DD, "" when its name has no date
	Path     string // vault path
	Messages int
	// Senders are who wrote its messages, most messages first.
	Senders []Sender
}

// Sender is how many messages one participant wrote.
type Sender struct {
	Name     string
	Messages int
}

// conversationsDir is the folder of the conversation archives, whose
// page this view replaces with a digest of every channel and group.
const conversationsDir = "sources/conversations"

// convPage is a folder of the archives that a conversation page takes
// over: a channel's, a group's, or a topic's raw transcripts.
type convPage struct {
	channel string
	conv    *Conversation      // nil for a channel
	topic   *ConversationTopic // nil for a channel or group
}

// convPages maps page-space folders to the conversation pages that
// replace their folder listings. The folders follow the vault paths the
// notes have (see urlBase), so they are found from names alone.
func (s *site) convPages() map[string]convPage {
	s.convOnce.Do(func() {
		s.convDirs = map[string]convPage{}
		for i := range s.opts.Conversations {
			c := &s.opts.Conversations[i]
			s.convDirs[slugPath(conversationsDir+"/"+c.Channel)] = convPage{channel: c.Channel}
			s.convDirs[groupDir(c)] = convPage{channel: c.Channel, conv: c}
			for j := range c.Topics {
				if t := &c.Topics[j]; len(t.Days) > 0 {
					s.convDirs[slugPath(path.Dir(t.Days[0].Path))] = convPage{channel: c.Channel, conv: c, topic: t}
				}
			}
		}
	})
	return s.convDirs
}

func groupDir(c *Conversation) string {
	return slugPath(conversationsDir + "/" + c.Channel + "/" + c.Group)
}

// convTitle is the title of a conversation folder: the channel, the
// group's label or the topic's name; "" for other folders.
func (s *site) convTitle(dir string) string {
	cp, ok := s.convPages()[dir]
	switch {
	case !ok:
		return ""
	case cp.topic != nil:
		return cp.topic.Name
	case cp.conv != nil:
		return groupLabel(cp.conv)
	}
	return titleCase(cp.channel)
}

func groupLabel(c *Conversation) string {
	if c.Label != "" {
		return c.Label
	}
	return c.Group
}

// renderConversations writes the conversations folder page as a digest:
// per channel and group, the digest and index notes and each topic with
// its message count.
func (s *site) renderConversations(r *reads) error {
	if len(s.opts.Conversations) == 0 {
		return nil
	}
	page := conversationsDir + "/index.html"
	d := pageData{Page: pageInfo{Kind: "conversations", KindLabel: "Folder", Title: "Conversations",
		Description: "Archived conversations by channel, group and topic, with message counts.",
		Breadcrumbs: s.breadcrumbs(page, "Conversations", r)}}
	var b strings.Builder
	channel := ""
	total := 0
	for i := range s.opts.Conversations {
		total += groupMessages(&s.opts.Conversations[i])
	}
	fmt.Fprintf(&b, `<p class="muted">%s in %s.</p>`, esc(plural(total, "message")), esc(plural(len(s.opts.Conversations), "group")))
	for i := range s.opts.Conversations {
		c := &s.opts.Conversations[i]
		if c.Channel != channel {
			channel = c.Channel
			fmt.Fprintf(&b, `<h2>%s</h2>`, s.convDirLink(page, slugPath(conversationsDir+"/"+channel), titleCase(channel), r))
		}
		label := groupLabel(c)
		fmt.Fprintf(&b, `<h3>%s</h3><p>`, s.convDirLink(page, groupDir(c), label, r))
		var links []string
		for _, x := range []struct{ title, path string }{{"Digest", c.Digest}, {"Index", c.Index}} {
			if u := s.notePageURL(page, x.path, r); u != "" {
				links = append(links, fmt.Sprintf(`<a class="internal" href="%s">%s</a>`, esc(u), x.title))
			}
		}
		b.WriteString(strings.Join(links, " · "))
		b.WriteString(`</p>`)
		if len(c.Topics) == 0 {
			continue
		}
		sum := 0
		fmt.Fprintf(&b, `<table class="conv-table"><caption class="visually-hidden">Topics of %s</caption><thead><tr><th scope="col">Topic</th><th scope="col" class="num">Messages</th></tr></thead><tbody>`, esc(label))
		for j := range c.Topics {
			t := &c.Topics[j]
			sum += t.Messages
			name := esc(t.Name)
			if u := s.notePageURL(page, t.Path, r); u != "" {
				name = fmt.Sprintf(`<a class="internal" href="%s">%s</a>`, esc(u), name)
			}
			msgs := "unknown"
			if t.Messages > 0 {
				msgs = thousands(t.Messages)
			}
			fmt.Fprintf(&b, `<tr><td>%s</td><td class="num">%s</td></tr>`, name, msgs)
		}
		fmt.Fprintf(&b, `</tbody><tfoot><tr><th scope="row">All topics</th><td class="num">%s</td></tr></tfoot></table>`, thousands(sum))
	}
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	r.add(depFolder, conversationsDir)
	if f := s.folders[conversationsDir]; f != nil {
		d.List.Groups = s.folderGroups(page, f, false, r)
	}
	return s.render(page, "list.html", d, r)
}

// convDirLink links title to the page of a conversation folder, or is
// title alone when the folder has no page.
func (s *site) convDirLink(page, dir, title string, r *reads) string {
	r.add(depFolder, folderOf(dir))
	if s.folders[dir] == nil {
		return esc(title)
	}
	return fmt.Sprintf(`<a href="%s">%s</a>`, esc(rel(page, dir+"/index.html")), esc(title))
}

// groupMessages counts a group's messages: its topics' and those of its
// raw transcripts outside topics.
func groupMessages(c *Conversation) int {
	n := 0
	for _, t := range c.Topics {
		n += t.Messages
	}
	for _, d := range c.Days {
		n += d.Messages
	}
	return n
}

// convView is what a conversation page shows.
type convView struct {
	Summary string
	Links   []link
	// Rows are the groups of a channel or the topics of a group.
	RowsTitle, RowHead string
	Rows               []convRow
	Total              string
	Timeline           []convDay
	Participants       []convSender
}

type convRow struct {
	Title, URL, Messages, First, Last string
	Summary                           *link
}

type convDay struct {
	Day      string
	Messages string
	Bar      int // percent of the busiest day
	Links    []link
}

type convSender struct {
	Name     string
	Messages string
	Bar      int // percent of the most active participant
}

// dayRef is a raw transcript with the label its links carry on a
// timeline.
type dayRef struct {
	day   *ConversationDay
	label string
}

// renderConvPage writes the page of a conversation folder: a channel, a
// group or a topic, with message counts, a timeline by day and the
// participants, then the folder's listing.
func (s *site) renderConvPage(dir string, cp convPage, r *reads) error {
	page := dir + "/index.html"
	r.add(depFolder, dir)
	v, kind := s.convView(page, cp, r)
	title := s.convTitle(dir)
	d := pageData{Page: pageInfo{Kind: "conversation", KindLabel: kind, Title: title,
		Description: v.Summary, Breadcrumbs: s.breadcrumbs(page, title, r)}, Conv: v}
	if f := s.folders[dir]; f != nil {
		// A topic's transcripts are all on its timeline; other folders
		// list their notes and sub-folders as a folder page does.
		d.List.Groups = s.folderGroups(page, f, cp.topic != nil, r)
	}
	return s.render(page, "conversation.html", d, r)
}

// convViewOf is the conversation view of a note's page when the note
// holds the page of a conversation folder (a group's INDEX.md is its
// folder's index.html), nil otherwise.
func (s *site) convViewOf(page string, r *reads) *convView {
	if path.Base(page) != "index.html" {
		return nil
	}
	cp, ok := s.convPages()[folderOf(page)]
	if !ok {
		return nil
	}
	v, _ := s.convView(page, cp, r)
	return v
}

// convView is what the page at page shows of the conversation folder cp,
// and the kind of folder it is.
func (s *site) convView(page string, cp convPage, r *reads) (*convView, string) {
	v := &convView{}
	var refs []dayRef
	kind := "Channel"
	switch {
	case cp.topic != nil:
		kind = "Topic"
		t := cp.topic
		for i := range t.Days {
			refs = append(refs, dayRef{&t.Days[i], "transcript"})
		}
		v.Links = s.convLinks(page, r, "Summary", t.Path, "Digest", cp.conv.Digest, "Index", cp.conv.Index)
		v.Summary = fmt.Sprintf("Topic %s of %s (%s): %s", t.ID, groupLabel(cp.conv), cp.channel, spanText(t.Messages, "on "+plural(len(t.Days), "day"), refs))
	case cp.conv != nil:
		kind = "Group"
		c := cp.conv
		v.RowsTitle, v.RowHead = "Topics", "Topic"
		for i := range c.Topics {
			t := &c.Topics[i]
			row := convRow{Title: t.Name, Messages: countText(t.Messages)}
			if len(t.Days) > 0 {
				row.URL = rel(page, slugPath(path.Dir(t.Days[0].Path))+"/index.html")
				row.First, row.Last = dayRange(t.Days)
			}
			if u := s.notePageURL(page, t.Path, r); u != "" {
				row.Summary = &link{Title: "summary", URL: u}
			}
			v.Rows = append(v.Rows, row)
			for j := range t.Days {
				refs = append(refs, dayRef{&t.Days[j], t.Name})
			}
		}
		for i := range c.Days {
			refs = append(refs, dayRef{&c.Days[i], "transcript"})
		}
		v.Links = s.convLinks(page, r, "Digest", c.Digest, "Index", c.Index)
		v.Summary = fmt.Sprintf("%s, a %s group: %s", groupLabel(c), cp.channel, spanText(groupMessages(c), "in "+plural(len(c.Topics), "topic"), refs))
		v.Total = thousands(groupMessages(c))
	default:
		v.RowsTitle, v.RowHead = "Groups", "Group"
		total, groups := 0, 0
		for i := range s.opts.Conversations {
			c := &s.opts.Conversations[i]
			if c.Channel != cp.channel {
				continue
			}
			groups++
			n := groupMessages(c)
			total += n
			var days []ConversationDay
			for _, t := range c.Topics {
				for j := range t.Days {
					refs = append(refs, dayRef{&t.Days[j], groupLabel(c) + " · " + t.Name})
				}
				days = append(days, t.Days...)
			}
			for j := range c.Days {
				refs = append(refs, dayRef{&c.Days[j], groupLabel(c)})
			}
			days = append(days, c.Days...)
			row := convRow{Title: groupLabel(c), Messages: countText(n)}
			if s.folders[groupDir(c)] != nil {
				row.URL = rel(page, groupDir(c)+"/index.html")
			}
			row.First, row.Last = dayRange(days)
			if u := s.notePageURL(page, c.Digest, r); u != "" {
				row.Summary = &link{Title: "digest", URL: u}
			}
			v.Rows = append(v.Rows, row)
		}
		v.Summary = fmt.Sprintf("%s: %s", titleCase(cp.channel), spanText(total, "in "+plural(groups, "group"), refs))
		v.Total = thousands(total)
	}
	v.Timeline = s.timeline(page, refs, r)
	v.Participants = participants(refs)
	return v, kind
}

// convLinks links the notes of pairs (title, vault path) that have pages
// other than page itself.
func (s *site) convLinks(page string, r *reads, pairs ...string) []link {
	var out []link
	self := rel(page, page)
	for i := 0; i+1 < len(pairs); i += 2 {
		if u := s.notePageURL(page, pairs[i+1], r); u != "" && u != self {
			out = append(out, link{Title: pairs[i], URL: u})
		}
	}
	return out
}

// timeline adds the transcripts up by day, oldest first, each day
// linking its transcripts; transcripts without a date come last.
func (s *site) timeline(page string, refs []dayRef, r *reads) []convDay {
	byDay := map[string]*convDay{}
	counts := map[string]int{}
	var days []string
	for _, ref := range refs {
		cd := byDay[ref.day.Day]
		if cd == nil {
			cd = &convDay{Day: ref.day.Day}
			if cd.Day == "" {
				cd.Day = "undated"
			}
			byDay[ref.day.Day] = cd
			days = append(days, ref.day.Day)
		}
		counts[ref.day.Day] += ref.day.Messages
		if u := s.notePageURL(page, ref.day.Path, r); u != "" {
			cd.Links = append(cd.Links, link{Title: ref.label, URL: u, Meta: countText(ref.day.Messages)})
		}
	}
	sort.Slice(days, func(i, j int) bool {
		if (days[i] == "") != (days[j] == "") {
			return days[j] == ""
		}
		return days[i] < days[j]
	})
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	out := make([]convDay, 0, len(days))
	for _, day := range days {
		cd := byDay[day]
		cd.Messages = thousands(counts[day])
		cd.Bar = share(counts[day], most)
		out = append(out, *cd)
	}
	return out
}

// participants adds up who wrote the messages of refs, most first.
func participants(refs []dayRef) []convSender {
	counts := map[string]int{}
	for _, ref := range refs {
		for _, p := range ref.day.Senders {
			counts[p.Name] += p.Messages
		}
	}
	names := make([]string, 0, len(counts))
	most := 0
	for name, n := range counts {
		names = append(names, name)
		most = max(most, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	out := make([]convSender, len(names))
	for i, name := range names {
		out[i] = convSender{Name: name, Messages: thousands(counts[name]), Bar: share(counts[name], most)}
	}
	return out
}

// share is n as a whole percentage of most.
func share(n, most int) int {
	if most == 0 {
		return 0
	}
	return n * 100 / most
}

// dayRange is the first and last dated day of days.
func dayRange(days []ConversationDay) (first, last string) {
	for _, d := range days {
		if d.Day == "" {
			continue
		}
		if first == "" || d.Day < first {
			first = d.Day
		}
		last = max(last, d.Day)
	}
	return first, last
}

// spanText says how many messages there are (and where, in words), over
// which days, from how many participants.
func spanText(messages int, where string, refs []dayRef) string {
	var days []ConversationDay
	people := map[string]bool{}
	for _, ref := range refs {
		days = append(days, *ref.day)
		for _, p := range ref.day.Senders {
			people[p.Name] = true
		}
	}
	out := plural(messages, "message") + " " + where
	if first, last := dayRange(days); first != "" {
		out += ", " + first + " → " + last
	}
	if len(people) > 0 {
		out += ", from " + plural(len(people), "participant")
	}
	return out + "."
}

func countText(n int) string {
	if n == 0 {
		return "unknown"
	}
	return thousands(n)
}

// notePageURL is the page of the note at a vault path, relative to page;
// "" when the note is missing or private.
func (s *site) notePageURL(page, vaultPath string, r *reads) string {
	if vaultPath == "" {
		return ""
	}
	r.add(depURL, vaultPath)
	n := s.v.Note(vaultPath)
	if n == nil {
		return ""
	}
	target, ok := s.pages[n]
	if !ok {
		return ""
	}
	return rel(page, target)
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
