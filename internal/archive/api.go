package archive

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/atomicfile"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/llmchat"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Options says what to archive and where.
type Options struct {
	// Workspace is the agent workspace; archives/ is written inside it.
	Workspace string
	// Sessions are transcript folders (see findSessions); empty means
	// DefaultSessionDirs of the user's home.
	Sessions []string
	// Channel and Group narrow the run: a channel name, and a group id or
	// folder name.
	Channel, Group string
	// IncludeTools keeps tool calls, tool results and thinking in raw/,
	// one collapsed line each.
	IncludeTools bool
	// Force rewrites every summary, digest and index.
	Force bool
	// LLM, when set, adds a model's summary to each topic summary written
	// (see llm.go); the extractive sections stay.
	LLM *llmchat.Config
}

// Report is what a run did.
type Report struct {
	Topics   []TopicReport `json:"topics"`
	Skipped  []Skipped     `json:"skipped,omitempty"`
	Warnings diag.List     `json:"warnings,omitempty"`
	// Messages is the number of messages appended, all topics together.
	Messages int `json:"messages"`
}

// TopicReport is one topic that was written.
type TopicReport struct {
	Path       string `json:"path"` // the group folder, workspace-relative
	Topic      string `json:"topic"`
	Name       string `json:"name"`
	Added      int    `json:"added"`
	Messages   int    `json:"messages"`
	Summarised bool   `json:"summarised"`
}

// Skipped is an OpenClaw session that is not archived, and why.
type Skipped struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// readConfig reads archives/archive-config.json, if there is one.
func readConfig(ws string) (*workspace.ArchiveConfig, diag.List, error) {
	data, err := os.ReadFile(filepath.Join(ws, "archives", "archive-config.json"))
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	cfg, d := workspace.ReadArchiveConfig(string(data))
	return cfg, d, nil
}

// sessions finds every session of opts, narrowed by channel and group.
func sessions(opts Options, lb labels) ([]session, []Skipped, error) {
	var all []session
	var skips []Skipped
	for _, dir := range opts.Sessions {
		s, k, err := findSessions(dir, lb.cfg)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, s...)
		for _, x := range k {
			skips = append(skips, Skipped(x))
		}
	}
	var out []session
	for _, s := range all {
		// Channel and topic become folder and file names: an id from a
		// transcript must never name a path outside archives/.
		s.Channel, s.Topic = safeName(s.Channel), safeName(s.Topic)
		if opts.Channel != "" && s.Channel != opts.Channel {
			continue
		}
		if opts.Group != "" && s.GroupID != opts.Group && lb.folder(s.GroupID) != opts.Group {
			continue
		}
		out = append(out, s)
	}
	return out, skips, nil
}

// Run archives every new message of opts's transcripts, then rewrites
// the summaries of topics that got new messages and the digest and index
// of their groups.
func Run(ctx context.Context, opts Options) (*Report, error) {
	cfg, cdiags, err := readConfig(opts.Workspace)
	if err != nil {
		return nil, err
	}
	lb := labels{cfg}
	rep := &Report{Warnings: cdiags}
	found, skips, err := sessions(opts, lb)
	if err != nil {
		return nil, err
	}
	rep.Skipped = skips
	st, err := loadState(opts.Workspace)
	if err != nil {
		return nil, err
	}
	// A run killed after saving its state is finished before this one
	// reads a transcript: its watermarks already count its messages.
	if err := st.finishRenames(opts.Workspace); err != nil {
		return nil, err
	}
	// Transcripts read before and no longer named by sessions.json (their
	// key moved on to a new session) are read again for what was added
	// after the last run.
	seen := map[string]bool{}
	for _, s := range found {
		seen[s.Path] = true
	}
	for _, p := range sortedFiles(st.Files) {
		f := st.Files[p]
		if seen[p] || (opts.Channel != "" && f.Channel != opts.Channel) || (opts.Group != "" && f.GroupID != opts.Group && lb.folder(f.GroupID) != opts.Group) {
			continue
		}
		if exists(p) {
			found = append(found, session{Path: p, Format: f.Format, Key: f.Key, Channel: f.Channel, GroupID: f.GroupID, Topic: f.Topic})
		}
	}

	raw := newRawFiles()
	added := map[string]int{}
	for _, s := range found {
		if err := ctx.Err(); err != nil {
			raw.abort()
			return nil, err
		}
		n, err := archiveSession(s, st, lb, opts.Workspace, opts.IncludeTools, raw, &rep.Warnings)
		if err != nil {
			raw.abort()
			return nil, err
		}
		if n > 0 {
			added[topicKey(s.Channel, lb.folder(s.GroupID), s.Topic)] += n
			rep.Messages += n
		}
	}
	// The state with the new watermarks and the renames that go with them
	// is saved first: from then on the run is done, even if it is killed
	// before the renames are, as the next run makes them.
	if st.Renames, err = raw.finish(opts.Workspace); err != nil {
		raw.abort()
		return nil, err
	}
	if err := st.save(opts.Workspace); err != nil {
		raw.abort()
		return nil, err
	}
	if err := st.finishRenames(opts.Workspace); err != nil {
		return nil, err
	}
	if err := summarise(ctx, opts, st, lb, added, rep); err != nil {
		return nil, err
	}
	return rep, st.save(opts.Workspace)
}

func topicKey(channel, folder, topic string) string { return channel + "/" + folder + "/" + topic }

func sortedFiles(m map[string]*fileState) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// archiveSession appends a transcript's new messages to raw files and
// returns how many it appended.
func archiveSession(s session, st *state, lb labels, ws string, tools bool, raw *rawFiles, warns *diag.List) (int, error) {
	fs := st.Files[s.Path]
	if fs == nil {
		fs = &fileState{Format: s.Format, Key: s.Key, Channel: s.Channel, GroupID: s.GroupID, Topic: s.Topic}
		st.Files[s.Path] = fs
	}
	info, err := os.Stat(s.Path)
	if err != nil {
		return 0, err
	}
	// after is zero unless the transcript was rewritten: then only what
	// is newer than the last message archived is added again.
	var after time.Time
	if info.Size() < fs.Offset {
		after = fs.Last
		warns.Warnf("transcript", s.Path, 0, "the transcript is shorter than when it was last archived; it is read again from the start, and only messages after %s are added", fs.Last.Format("2006-01-02 15:04:05"))
		fs.Offset, fs.Line = 0, 0
	} else if info.Size() == fs.Offset {
		return 0, nil
	}
	f, err := openTranscript(s.Path, fs.Offset)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	folder := lb.folder(s.GroupID)
	key := topicKey(s.Channel, folder, s.Topic)
	ts := st.Topics[key]
	if ts == nil {
		ts = &topicState{Channel: s.Channel, Folder: folder, GroupID: s.GroupID, Topic: s.Topic,
			Days: map[string]int{}, Lines: map[string]int{}, Participants: map[string]int{}}
		st.Topics[key] = ts
	}
	t := &transcript{path: s.Path, format: s.Format, tools: tools, br: bufio.NewReaderSize(f, 256<<10),
		offset: fs.Offset, line: fs.Line, last: fs.Last, warns: warns,
		roles: s.roles(lb)}
	dir := groupDir(ws, s.Channel, folder)
	n := 0
	for {
		msgs, err := t.next()
		if err == io.EOF || errors.Is(err, errIncomplete) {
			break
		}
		if err != nil {
			return n, fmt.Errorf("%s:%d: %w", s.Path, t.line+1, err)
		}
		for _, m := range msgs {
			if !after.IsZero() && !m.Time.After(after) {
				continue
			}
			m.Text = redacted(m.Text)
			m.Sender = redacted(m.Sender)
			day := m.Time.Format("2006-01-02")
			rel := rawPath(s.Topic, day)
			target := filepath.Join(dir, filepath.FromSlash(rel))
			lines, ok := ts.Lines[rel]
			if !ok {
				// A raw file the state does not know (the state file was
				// moved aside) is appended to after its last line.
				lines = countLines(target)
			}
			heading := ""
			if lines == 0 {
				heading = fmt.Sprintf("# %s — %s (topic %s) — %s\n\n", lb.title(s.GroupID), lb.topic(s.GroupID, ts), s.Topic, day)
				lines = 2
			}
			text := rawLine(m, lines+1)
			if err := raw.appendTo(target, heading, text); err != nil {
				return n, err
			}
			ts.Lines[rel] = lines + strings.Count(text, "\n")
			if !m.Tool {
				ts.Days[day]++
				ts.Participants[m.Sender]++
				ts.Messages++
				n++
			}
		}
		fs.Offset, fs.Line = t.offset, t.line
		if t.title != "" && ts.Title == "" {
			ts.Title = redacted(t.title)
		}
	}
	if !t.last.IsZero() && t.last.After(fs.Last) {
		fs.Last = t.last
	}
	if t.title != "" {
		ts.Title = redacted(t.title)
	}
	return n, nil
}

// summarise rewrites the summaries of topics with new messages (all with
// Force, and any whose summary is missing), then the digest and index of
// every group touched.
func summarise(ctx context.Context, opts Options, st *state, lb labels, added map[string]int, rep *Report) error {
	groups := map[string][]*topicState{}
	var gkeys []string
	for _, k := range sortedTopics(st.Topics) {
		t := st.Topics[k]
		if t.Messages == 0 {
			continue
		}
		if opts.Channel != "" && t.Channel != opts.Channel {
			continue
		}
		if opts.Group != "" && t.GroupID != opts.Group && t.Folder != opts.Group {
			continue
		}
		g := path.Join(t.Channel, t.Folder)
		if groups[g] == nil {
			gkeys = append(gkeys, g)
		}
		groups[g] = append(groups[g], t)
	}
	for _, g := range gkeys {
		topics := groups[g]
		dir := groupDir(opts.Workspace, topics[0].Channel, topics[0].Folder)
		title := lb.title(topics[0].GroupID)
		changed := opts.Force
		var gts []groupTopic
		for _, t := range topics {
			name := lb.topic(t.GroupID, t)
			gts = append(gts, groupTopic{name, t})
			sumPath := filepath.Join(dir, "summaries", "topic-"+safeName(t.Topic)+".md")
			redo := opts.Force || t.Summarised != t.Messages || !exists(sumPath)
			k := topicKey(t.Channel, t.Folder, t.Topic)
			if added[k] > 0 || redo {
				rep.Topics = append(rep.Topics, TopicReport{Path: filepath.ToSlash(filepath.Join("archives", g)), Topic: t.Topic, Name: name, Added: added[k], Messages: t.Messages, Summarised: redo})
			}
			if !redo {
				continue
			}
			changed = true
			var abstract func([]cite) string
			if opts.LLM != nil {
				abstract = func(recent []cite) string {
					section, why := abstractive(ctx, opts.LLM, name, recent)
					if why != "" {
						rep.Warnings.Warnf("llm", path.Join("archives", g, "summaries", "topic-"+t.Topic+".md"), 0, "the model's summary was not used (%s); the summary is extractive", why)
					}
					return section
				}
			}
			text, dec, err := summariseTopic(dir, title, name, t, abstract)
			if err != nil {
				return err
			}
			if err := atomicfile.Write(sumPath, []byte(text)); err != nil {
				return err
			}
			t.Summarised, t.Decisions = t.Messages, dec
		}
		if !changed && exists(filepath.Join(dir, "DIGEST.md")) && exists(filepath.Join(dir, "INDEX.md")) {
			continue
		}
		gid := topics[0].GroupID
		if err := atomicfile.Write(filepath.Join(dir, "DIGEST.md"), []byte(digest(title, topics[0].Channel, gid, gts))); err != nil {
			return err
		}
		if err := atomicfile.Write(filepath.Join(dir, "INDEX.md"), []byte(index(title, topics[0].Channel, gid, gts))); err != nil {
			return err
		}
	}
	return nil
}

func sortedTopics(m map[string]*topicState) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := m[out[i]], m[out[j]]
		if a.Channel+"/"+a.Folder != b.Channel+"/"+b.Folder {
			return a.Channel+"/"+a.Folder < b.Channel+"/"+b.Folder
		}
		return workspace.TopicLess(a.Topic, b.Topic)
	})
	return out
}

// Discovered is one group the transcripts hold, for --discover.
type Discovered struct {
	Channel string            `json:"channel"`
	GroupID string            `json:"group"`
	Folder  string            `json:"folder"`
	Label   string            `json:"label"`
	Topics  []DiscoveredTopic `json:"topics"`
}

// DiscoveredTopic is one topic and its messages (tool lines not counted).
type DiscoveredTopic struct {
	Topic    string `json:"topic"`
	Name     string `json:"name"`
	Messages int    `json:"messages"`
	First    string `json:"first,omitempty"`
	Last     string `json:"last,omitempty"`
}

// Discover lists the channels, groups and topics of opts's transcripts
// with their message counts, writing nothing.
func Discover(ctx context.Context, opts Options) ([]Discovered, []Skipped, diag.List, error) {
	cfg, warns, err := readConfig(opts.Workspace)
	if err != nil {
		return nil, nil, nil, err
	}
	lb := labels{cfg}
	found, skips, err := sessions(opts, lb)
	if err != nil {
		return nil, nil, nil, err
	}
	byGroup := map[string]*Discovered{}
	byTopic := map[string]*DiscoveredTopic{}
	topicsOf := map[string][]string{}
	var order []string
	for _, s := range found {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		gk := s.Channel + "/" + s.GroupID
		if byGroup[gk] == nil {
			byGroup[gk] = &Discovered{Channel: s.Channel, GroupID: s.GroupID, Folder: lb.folder(s.GroupID), Label: lb.title(s.GroupID)}
			order = append(order, gk)
		}
		tk := gk + "/" + s.Topic
		dt := byTopic[tk]
		if dt == nil {
			dt = &DiscoveredTopic{Topic: s.Topic}
			byTopic[tk] = dt
			topicsOf[gk] = append(topicsOf[gk], tk)
		}
		title, err := countSession(s, lb, dt, &warns)
		if err != nil {
			return nil, nil, nil, err
		}
		dt.Name = lb.topic(s.GroupID, &topicState{Topic: s.Topic, Title: redacted(title)})
	}
	sort.Strings(order)
	out := make([]Discovered, 0, len(order))
	for _, k := range order {
		g := byGroup[k]
		for _, tk := range topicsOf[k] {
			g.Topics = append(g.Topics, *byTopic[tk])
		}
		sort.Slice(g.Topics, func(i, j int) bool { return workspace.TopicLess(g.Topics[i].Topic, g.Topics[j].Topic) })
		out = append(out, *g)
	}
	return out, skips, warns, nil
}

// countSession adds a transcript's messages to dt.
func countSession(s session, lb labels, dt *DiscoveredTopic, warns *diag.List) (string, error) {
	f, err := openTranscript(s.Path, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	t := &transcript{path: s.Path, format: s.Format, br: bufio.NewReaderSize(f, 256<<10), warns: warns, roles: s.roles(lb)}
	for {
		msgs, err := t.next()
		if err == io.EOF || errors.Is(err, errIncomplete) {
			return t.title, nil
		}
		if err != nil {
			return "", err
		}
		for _, m := range msgs {
			dt.Messages++
			day := m.Time.Format("2006-01-02")
			if dt.First == "" || day < dt.First {
				dt.First = day
			}
			if day > dt.Last {
				dt.Last = day
			}
		}
	}
}

// countLines is the number of lines of the file at p, 0 when it is missing.
func countLines(p string) int {
	f, err := os.Open(p)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	br := bufio.NewReader(f)
	for {
		_, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return n
		}
		n++
	}
}
