package archive

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

func TestParseKey(t *testing.T) {
	cfg := &workspace.ArchiveConfig{TopicNames: map[string]map[string]string{"guild": {"chan": "#general"}}}
	cases := []struct {
		key, channel, group, topic string
		archived                   bool
	}{
		{"agent:main:telegram:group:-100123:topic:7", "telegram", "-100123", "7", true},
		{"agent:main:telegram:group:-100123", "telegram", "-100123", "main", true},
		{"agent:work:discord:channel:chan", "discord", "guild", "chan", true},
		{"agent:main:discord:channel:other:thread:99", "discord", "other", "99", true},
		{"agent:main:slack:channel:c1", "slack", "c1", "main", true},
		{"agent:main:main", "", "", "", false},
		{"agent:main:dm:5151", "", "", "", false},
		{"agent:main:telegram:dm:5151", "", "", "", false},
		{"agent:main:cron:nightly:run:1", "", "", "", false},
		{"agent:main:subagent:a1b2", "", "", "", false},
		{"global", "", "", "", false},
	}
	for _, c := range cases {
		channel, group, topic, reason := parseKey(c.key, cfg)
		if (reason == "") != c.archived || channel != c.channel || group != c.group || topic != c.topic {
			t.Errorf("parseKey(%q) = %q, %q, %q, %q", c.key, channel, group, topic, reason)
		}
	}
}

func TestOpenClawEnvelope(t *testing.T) {
	cases := []struct{ in, sender, text string }{
		{"[Telegram Crew id:-1 +2m 2026-11-02 08:51 UTC] Rui Costa (4242): hi there\n[message_id: 3]", "Rui Costa", "hi there"},
		{"[Discord Guild #ops] priya: deploy at 5: ok?", "priya", "deploy at 5: ok?"},
		{"[not an envelope", "", "[not an envelope"},
		{"plain text: with a colon", "", "plain text: with a colon"},
		{"[Telegram Crew]\nRui: multi-line header is not one", "", "[Telegram Crew]\nRui: multi-line header is not one"},
	}
	for _, c := range cases {
		sender, text, ok := openClawEnvelope(c.in)
		if ok != (c.sender != "") || sender != c.sender || text != c.text {
			t.Errorf("openClawEnvelope(%q) = %q, %q, %v", c.in, sender, text, ok)
		}
	}
}

// readAll reads a transcript to the end, as a run does.
func readAll(data []byte, f format, tools bool) ([]message, diag.List, int64) {
	var warns diag.List
	tr := &transcript{path: "t.jsonl", format: f, tools: tools, br: bufio.NewReader(bytes.NewReader(data)), warns: &warns, roles: roles{"User", "Agent"}}
	var out []message
	for {
		msgs, err := tr.next()
		if err == io.EOF || errors.Is(err, errIncomplete) {
			return out, warns, tr.offset
		}
		out = append(out, msgs...)
	}
}

func TestTranscript_ToolsAreCollapsedOnlyWhenKept(t *testing.T) {
	data := []byte(`{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}
{"type":"message","id":"1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm\nmore"},{"type":"text","text":"Checking."},{"type":"toolCall","id":"c","name":"bash","arguments":{"command":"ls"}}]}}
{"type":"message","id":"2","parentId":"1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[{"type":"text","text":"a\nb"}],"isError":false}}
{"type":"message","id":"3","parentId":"2","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[{"type":"text","text":"NO_REPLY"}]}}
`)
	msgs, warns, _ := readAll(data, formatPi, false)
	if len(msgs) != 1 || msgs[0].Text != "Checking." || len(warns) != 0 {
		t.Fatalf("without tools: %+v %v", msgs, warns)
	}
	msgs, _, _ = readAll(data, formatPi, true)
	var got []string
	for _, m := range msgs {
		got = append(got, m.Sender+": "+m.Text)
	}
	want := "Agent: Checking.|⚙ thinking: hmm …|⚙ called bash: {\"command\":\"ls\"}|⚙ result of bash: a …"
	if strings.Join(got, "|") != want {
		t.Errorf("with tools:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
}

func TestTranscript_IncompleteLastLineIsLeftForTheNextRun(t *testing.T) {
	done := `{"type":"message","id":"1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"one"}}` + "\n"
	msgs, warns, offset := readAll([]byte(done+`{"type":"message","id":"2"`), formatPi, false)
	if len(msgs) != 1 || offset != int64(len(done)) || len(warns) != 1 || warns[0].Line != 2 {
		t.Errorf("msgs %v, offset %d (want %d), warnings %v", msgs, offset, len(done), warns)
	}
}

// FuzzTranscript: no input makes the reader panic or loop, and what it
// consumes is always whole lines.
func FuzzTranscript(f *testing.F) {
	f.Add([]byte(`{"type":"message","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"[T] a: b"}}`+"\n"), false)
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":[{"type":"text","text":"x"}]}]}}`+"\n{"), true)
	f.Add([]byte("\xff\n{}\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, claude bool) {
		fm := formatPi
		if claude {
			fm = formatClaude
		}
		_, _, offset := readAll(data, fm, true)
		if offset > int64(len(data)) || (offset > 0 && data[offset-1] != '\n') {
			t.Fatalf("offset %d does not end a line", offset)
		}
	})
}

func TestParseRaw_ReadsWhatRawLineWrote(t *testing.T) {
	m := message{Time: time.Date(2026, 1, 2, 8, 5, 0, 0, time.UTC), Sender: "Sam *O* [x]", Text: "ok: we'll go ^L9 with it\nsecond line"}
	l, _, _ := strings.Cut(rawLine(m, 12), "\n")
	got, ok := workspace.ParseRawMessage(l)
	if want := (workspace.RawMessage{Time: "08:05", Sender: "Sam O (x)", Text: "ok: we'll go ^L9 with it", Line: 12}); !ok || got != want {
		t.Errorf("ParseRawMessage(%q) = %+v, %v; want %+v", l, got, ok, want)
	}
	if !isDecision(got.Text) || isDecision("we'llx wellnoted") {
		t.Error("isDecision does not match whole words")
	}
}

func TestSafeName_NeverLeavesTheFolder(t *testing.T) {
	for _, in := range []string{"..", "../../etc", "a/b", `a\b`, "", ".hidden", "-100123", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"} {
		got := safeName(in)
		if got == "" || got == "." || got == ".." || strings.ContainsAny(got, `/\`) || strings.HasPrefix(got, ".") || strings.Contains(got, "4eC39HqLyjWDarjtT1zdp7dc") {
			t.Errorf("safeName(%q) = %q", in, got)
		}
	}
}
