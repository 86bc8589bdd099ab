package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/diag"
)

// format is the shape of a transcript file.
type format int

const (
	// formatPi is pi's session format (version 3), which OpenClaw writes:
	// a "session" header, then "message", "model_change", "custom",
	// "session_info" … entries, each a JSON line.
	formatPi format = iota
	// formatClaude is Claude Code's transcript: "user" and "assistant"
	// lines holding an Anthropic message, with "summary", "system" and
	// bookkeeping lines between them.
	formatClaude
)

// message is one archivable line of a conversation.
type message struct {
	Time   time.Time
	Sender string
	Text   string
	// Tool marks a collapsed tool call, tool result or thinking block,
	// written only with Options.IncludeTools and never counted or
	// summarised as a message.
	Tool bool
}

// roles name who speaks when a transcript does not say.
type roles struct {
	user, agent string
}

// transcript streams the complete lines of one transcript from a byte
// offset. It holds one line in memory at a time.
type transcript struct {
	path   string // as shown in warnings
	format format
	roles  roles
	tools  bool
	br     *bufio.Reader
	offset int64 // after the last complete line consumed
	line   int   // number of the last line consumed
	last   time.Time
	title  string // a session name, when the transcript gives one
	warns  *diag.List
}

// errIncomplete is returned for a final line with no newline yet: a
// session still being written. It is read on a later run, once complete.
var errIncomplete = errors.New("incomplete final line")

// next returns the messages of the next line, io.EOF after the last
// complete line, or errIncomplete.
func (t *transcript) next() ([]message, error) {
	var buf []byte
	for {
		chunk, err := t.br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(bytes.TrimSpace(buf)) == 0 {
				return nil, io.EOF
			}
			t.warns.Warnf("transcript", t.path, t.line+1, "the last line is incomplete (a session still being written?); it is archived once it ends")
			return nil, errIncomplete
		}
		if err != nil {
			return nil, err
		}
		break
	}
	t.line++
	t.offset += int64(len(buf))
	line := bytes.TrimSpace(buf)
	if len(line) == 0 {
		return nil, nil
	}
	if !utf8.Valid(line) {
		t.warns.Warnf("transcript", t.path, t.line, "the line is not valid UTF-8; it was skipped")
		return nil, nil
	}
	var msgs []message
	var err error
	if t.format == formatClaude {
		msgs, err = t.claudeLine(line)
	} else {
		msgs, err = t.piLine(line)
	}
	if err != nil {
		t.warns.Warnf("transcript", t.path, t.line, "%v; the line was skipped", err)
		return nil, nil
	}
	return msgs, nil
}

// block is a content block of either format.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"` // pi toolCall
	Input     json.RawMessage `json:"input"`     // Claude tool_use
	Content   json.RawMessage `json:"content"`   // Claude tool_result
}

type piEntry struct {
	Type      string     `json:"type"`
	Timestamp string     `json:"timestamp"`
	Name      string     `json:"name"` // session_info
	Message   *piMessage `json:"message"`
}

type piMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolName   string          `json:"toolName"`
	Command    string          `json:"command"` // bashExecution
	StopReason string          `json:"stopReason"`
	Timestamp  int64           `json:"timestamp"` // Unix ms
}

// piTypes are the entry types of pi's session format version 3 that hold
// nothing to archive besides what piLine reads.
var piTypes = map[string]bool{
	"session": true, "message": true, "model_change": true, "thinking_level_change": true,
	"compaction": true, "branch_summary": true, "custom": true, "custom_message": true,
	"label": true, "session_info": true,
}

func (t *transcript) piLine(line []byte) ([]message, error) {
	var e piEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, fmt.Errorf("not a JSON entry (%s)", jsonProblem(err))
	}
	if !piTypes[e.Type] {
		return nil, fmt.Errorf("unknown entry type %q", e.Type)
	}
	at := t.when(e.Timestamp, 0)
	switch e.Type {
	case "session_info":
		if e.Name != "" {
			t.title = e.Name
		}
		return nil, nil
	case "message":
	default:
		return nil, nil
	}
	m := e.Message
	if m == nil {
		return nil, errors.New(`a "message" entry without a message`)
	}
	if e.Timestamp == "" {
		at = t.when("", m.Timestamp)
	}
	switch m.Role {
	case "user":
		return t.spoken(at, t.roles.user, m.Content, true)
	case "assistant":
		return t.spoken(at, t.roles.agent, m.Content, false)
	case "toolResult":
		return t.toolLine(at, "result of "+m.ToolName, contentText(m.Content)), nil
	case "bashExecution":
		return t.toolLine(at, "ran", m.Command), nil
	case "custom", "branchSummary", "compactionSummary":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown message role %q", m.Role)
}

type claudeEntry struct {
	Type        string `json:"type"`
	Timestamp   string `json:"timestamp"`
	IsSidechain bool   `json:"isSidechain"`
	IsMeta      bool   `json:"isMeta"`
	Summary     string `json:"summary"`
	Message     *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// claudeTypes are Claude Code's line types with nothing to archive.
var claudeTypes = map[string]bool{
	"user": true, "assistant": true, "summary": true, "system": true,
	"file-history-snapshot": true, "queue-operation": true, "progress": true,
	"custom-title": true,
}

func (t *transcript) claudeLine(line []byte) ([]message, error) {
	var e claudeEntry
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, fmt.Errorf("not a JSON entry (%s)", jsonProblem(err))
	}
	if !claudeTypes[e.Type] {
		return nil, fmt.Errorf("unknown entry type %q", e.Type)
	}
	if e.Type == "summary" && e.Summary != "" {
		t.title = e.Summary
	}
	// Sidechains are sub-agent conversations and meta lines are the
	// client's own notes: neither is something a person said.
	if (e.Type != "user" && e.Type != "assistant") || e.IsSidechain || e.IsMeta || e.Message == nil {
		return nil, nil
	}
	at := t.when(e.Timestamp, 0)
	if e.Type == "user" {
		return t.spoken(at, t.roles.user, e.Message.Content, false)
	}
	return t.spoken(at, t.roles.agent, e.Message.Content, false)
}

// spoken turns a message's content (a string or blocks) into its text
// and, with tools kept, collapsed lines for tool calls, tool results and
// thinking. envelope reads the sender from an OpenClaw group envelope.
func (t *transcript) spoken(at time.Time, sender string, content json.RawMessage, envelope bool) ([]message, error) {
	var texts []string
	var out []message
	var s string
	if json.Unmarshal(content, &s) == nil {
		texts = append(texts, s)
	} else {
		var blocks []block
		if err := json.Unmarshal(content, &blocks); err != nil {
			return nil, fmt.Errorf("message content is neither text nor blocks (%s)", jsonProblem(err))
		}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "thinking":
				out = append(out, t.toolLine(at, "thinking", b.Thinking)...)
			case "toolCall":
				out = append(out, t.toolLine(at, "called "+b.Name, string(b.Arguments))...)
			case "tool_use":
				out = append(out, t.toolLine(at, "called "+b.Name, string(b.Input))...)
			case "tool_result":
				out = append(out, t.toolLine(at, "tool result", contentText(b.Content))...)
			}
		}
	}
	text := strings.TrimSpace(strings.Join(texts, "\n"))
	if envelope {
		if who, rest, ok := openClawEnvelope(text); ok {
			sender, text = who, rest
		}
	}
	if text != "" && !silent(text) {
		out = append([]message{{Time: at, Sender: sender, Text: text}}, out...)
	}
	return out, nil
}

// silent reports OpenClaw's reply tokens that mean "nothing to say".
func silent(text string) bool { return text == "NO_REPLY" || text == "HEARTBEAT_OK" }

// toolLine is a collapsed tool line, when tools are kept: what happened
// and the first line of its text, clipped.
func (t *transcript) toolLine(at time.Time, what, detail string) []message {
	if !t.tools {
		return nil
	}
	first, _, more := strings.Cut(strings.TrimSpace(detail), "\n")
	first = clip(first, 120)
	if more {
		first += " …"
	}
	return []message{{Time: at, Sender: "⚙ " + what, Text: first, Tool: true}}
}

// contentText is the text of a string or of text blocks.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// when is an entry's time: its ISO timestamp, else a Unix-ms one, else
// the previous entry's (a transcript's lines are in order).
func (t *transcript) when(iso string, ms int64) time.Time {
	if iso != "" {
		if at, err := time.Parse(time.RFC3339Nano, iso); err == nil {
			t.last = at.UTC()
			return t.last
		}
		t.warns.Warnf("transcript", t.path, t.line, "timestamp %q is not RFC 3339; the previous entry's time was used", clip(iso, 40))
	}
	if ms > 0 {
		t.last = time.UnixMilli(ms).UTC()
	}
	return t.last
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s at byte %d", se.Error(), se.Offset)
	}
	return err.Error()
}

// clip shortens s to n runes, with an ellipsis when it was longer.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// openTranscript opens path for reading from offset.
func openTranscript(path string, offset int64) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if offset > 0 {
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}
