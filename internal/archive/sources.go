package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// session is one transcript and where its messages are archived.
type session struct {
	Path    string // the transcript file
	Format  format
	Key     string // OpenClaw's session key; "" for Claude Code and pi
	Channel string
	GroupID string // the group's id as the key or folder gives it
	Topic   string
}

// skipped is a session that is not archived, and why.
type skipped struct {
	Key, Reason string
}

// DefaultSessionDirs are the transcript folders under home that exist:
// OpenClaw's agents, Claude Code's projects and pi's sessions. When none
// does, it names OpenClaw's, so the error says where it looked.
func DefaultSessionDirs(home string) []string {
	all := []string{
		filepath.Join(home, ".openclaw", "agents"),
		filepath.Join(home, ".claude", "projects"),
		filepath.Join(home, ".pi", "agent", "sessions"),
	}
	var found []string
	for _, d := range all {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return all[:1]
	}
	return found
}

// findSessions lists the sessions under dir: an OpenClaw sessions folder
// (it has sessions.json), an agents folder (<agentId>/sessions/), or a
// folder of project folders holding JSONL transcripts (Claude Code's
// projects, pi's sessions), or one such project folder.
func findSessions(dir string, cfg *workspace.ArchiveConfig) ([]session, []skipped, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil, fmt.Errorf("sessions folder %s does not exist; name another with --sessions", dir)
		}
		return nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, fmt.Errorf("sessions folder %s is not a folder", dir)
	}
	if exists(filepath.Join(dir, "sessions.json")) {
		return openClawSessions(dir, cfg)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var out []session
	var skips []skipped
	agents := false
	for _, e := range entries {
		sd := filepath.Join(dir, e.Name(), "sessions")
		if e.IsDir() && exists(filepath.Join(sd, "sessions.json")) {
			agents = true
			s, k, err := openClawSessions(sd, cfg)
			if err != nil {
				return nil, nil, err
			}
			out, skips = append(out, s...), append(skips, k...)
		}
	}
	if agents {
		return out, skips, nil
	}
	out = append(out, projectSessions(dir, filepath.Base(dir))...)
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, projectSessions(filepath.Join(dir, e.Name()), e.Name())...)
		}
	}
	return out, skips, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sessionEntry is the part of an OpenClaw sessions.json entry read here.
type sessionEntry struct {
	SessionID   string `json:"sessionId"`
	SessionFile string `json:"sessionFile"`
}

// openClawSessions reads sessions.json: session key -> entry.
func openClawSessions(dir string, cfg *workspace.ArchiveConfig) ([]session, []skipped, error) {
	p := filepath.Join(dir, "sessions.json")
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, nil, err
	}
	var store map[string]json.RawMessage
	if err := json.Unmarshal(data, &store); err != nil {
		return nil, nil, fmt.Errorf("%s: not a JSON object of sessions (%s)", p, jsonProblem(err))
	}
	keys := make([]string, 0, len(store))
	for k := range store {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []session
	var skips []skipped
	for _, k := range keys {
		var e sessionEntry
		if json.Unmarshal(store[k], &e) != nil || (e.SessionID == "" && e.SessionFile == "") {
			skips = append(skips, skipped{k, "its sessions.json entry names no session"})
			continue
		}
		channel, group, topic, reason := parseKey(k, cfg)
		if reason != "" {
			skips = append(skips, skipped{k, reason})
			continue
		}
		file := transcriptPath(dir, e, topic)
		if file == "" {
			skips = append(skips, skipped{k, "its transcript " + e.SessionID + ".jsonl is missing"})
			continue
		}
		out = append(out, session{Path: file, Format: formatPi, Key: k, Channel: channel, GroupID: group, Topic: topic})
	}
	return out, skips, nil
}

// transcriptPath finds an entry's transcript: sessionFile when given,
// else <sessionId>.jsonl, or <sessionId>-topic-<thread>.jsonl for a
// Telegram forum topic.
func transcriptPath(dir string, e sessionEntry, topic string) string {
	var cands []string
	if e.SessionFile != "" {
		f := e.SessionFile
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		cands = append(cands, f)
	}
	if e.SessionID != "" && !strings.ContainsAny(e.SessionID, `/\`) {
		cands = append(cands, filepath.Join(dir, e.SessionID+".jsonl"), filepath.Join(dir, e.SessionID+"-topic-"+topic+".jsonl"))
	}
	for _, c := range cands {
		if exists(c) {
			return c
		}
	}
	return ""
}

// mainTopic is the topic of a group or channel without topics.
const mainTopic = "main"

// parseKey reads an OpenClaw session key: agent:<agentId>:<channel>:
// group|channel|room|space:<id>[:topic|thread:<n>]. Direct chats, cron,
// hook and sub-agent sessions have other shapes and are not archived
// (reason says why).
//
// A channel that archive-config.json lists as a topic of a group (Discord
// channels of a guild) is archived as that topic of that group.
func parseKey(key string, cfg *workspace.ArchiveConfig) (channel, group, topic, reason string) {
	parts := strings.Split(key, ":")
	if len(parts) < 5 || parts[0] != "agent" {
		return "", "", "", "not a group or channel session (direct chats, cron and sub-agent sessions are private)"
	}
	rest := parts[2:]
	switch rest[1] {
	case "group", "channel", "room", "space":
	default:
		return "", "", "", "not a group or channel session (direct chats, cron and sub-agent sessions are private)"
	}
	channel, group, topic = rest[0], rest[2], mainTopic
	for i := 3; i+1 < len(rest); i += 2 {
		if rest[i] == "topic" || rest[i] == "thread" {
			topic = rest[i+1]
		}
	}
	if topic == mainTopic && cfg != nil {
		gids := make([]string, 0, len(cfg.TopicNames))
		for gid := range cfg.TopicNames {
			gids = append(gids, gid)
		}
		sort.Strings(gids)
		for _, gid := range gids {
			if _, ok := cfg.TopicNames[gid][group]; ok && gid != group {
				return channel, gid, group, ""
			}
		}
	}
	return channel, group, topic, ""
}

// projectSessions lists the JSONL transcripts directly in dir, a Claude
// Code or pi project folder: each is a topic of the project's group.
func projectSessions(dir, project string) []session {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []session
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f := sniff(p)
		channel := "claude-code"
		if f == formatPi {
			channel = "pi"
		}
		id := strings.TrimSuffix(e.Name(), ".jsonl")
		if _, after, ok := strings.Cut(id, "_"); ok && f == formatPi {
			id = after // pi names files <timestamp>_<uuid>
		}
		if len(id) > 8 {
			id = id[:8]
		}
		group := strings.Trim(project, "-")
		if group == "" {
			group = "root"
		}
		out = append(out, session{Path: p, Format: f, Channel: channel, GroupID: group, Topic: id})
	}
	return out
}

// sniff tells pi's format (its first line is a "session" header) from
// Claude Code's.
func sniff(p string) format {
	f, err := os.Open(p)
	if err != nil {
		return formatClaude
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadSlice('\n')
	var h struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &h) == nil && h.Type == "session" {
		return formatPi
	}
	return formatClaude
}

// roles names the two sides of s: OpenClaw's agent is archive-config's
// agentName; Claude Code's and pi's assistants are named for the tool.
func (s session) roles(lb labels) roles {
	switch {
	case s.Key != "":
		return roles{user: "User", agent: lb.agent()}
	case s.Format == formatClaude:
		return roles{user: "User", agent: "Claude"}
	}
	return roles{user: "User", agent: "pi"}
}
