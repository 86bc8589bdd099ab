package archive_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/archive"
	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/dream"
)

// A workspace and an OpenClaw agents folder: a Telegram forum group with
// two topics and a Discord guild channel, in pi's session format v3.
const sessionsTxtar = `
-- ws/MEMORY.md --
# Memory

- Sam will go with Glacier Instant Retrieval for the NAS backups. Source: archives/telegram/homelab-crew/DIGEST.md
-- ws/archives/archive-config.json --
{
  "agentName": "Juniper",
  "groups": {
    "-1002231457781": { "name": "homelab-crew", "label": "Homelab Crew" },
    "1190287411093045248": { "name": "platform-guild", "label": "Platform Guild" }
  },
  "topicNames": {
    "-1002231457781": { "7": "Backups & NAS" },
    "1190287411093045248": { "1190287598021394452": "#k8s-migration" }
  }
}
-- agents/main/sessions/sessions.json --
{
  "agent:main:telegram:group:-1002231457781:topic:7": { "sessionId": "s7", "updatedAt": 1 },
  "agent:main:telegram:group:-1002231457781:topic:12": { "sessionId": "s12", "updatedAt": 1 },
  "agent:main:discord:channel:1190287598021394452": { "sessionId": "d1", "updatedAt": 1 },
  "agent:main:telegram:dm:5151": { "sessionId": "dm", "updatedAt": 1 }
}
-- agents/main/sessions/s7.jsonl --
{"type":"session","version":3,"id":"s7","timestamp":"2026-11-02T08:50:00.000Z","cwd":"/a"}
{"type":"message","id":"1","parentId":null,"timestamp":"2026-11-02T08:51:00.000Z","message":{"role":"user","content":"[Telegram Homelab Crew id:-1002231457781 topic:7] Rui Costa (1): restic to B2, restore tested in september"}}
{"type":"message","id":"2","parentId":"1","timestamp":"2026-11-02T09:07:00.000Z","message":{"role":"user","content":"[Telegram Homelab Crew id:-1002231457781 topic:7] Sam Okafor (2): ok, we'll go with glacier instant retrieval"}}
{"type":"message","id":"3","parentId":"2","timestamp":"2026-11-03T07:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Restore of one folder from Glacier worked."}]}}
-- agents/main/sessions/s12.jsonl --
{"type":"session","version":3,"id":"s12","timestamp":"2026-11-03T10:00:00.000Z","cwd":"/a"}
{"type":"message","id":"1","parentId":null,"timestamp":"2026-11-03T10:01:00.000Z","message":{"role":"user","content":"[Telegram Homelab Crew id:-1002231457781 topic:12] Marta Sousa (3): pi-hole or adguard?"}}
-- agents/main/sessions/d1.jsonl --
{"type":"session","version":3,"id":"d1","timestamp":"2026-11-18T10:00:00.000Z","cwd":"/a"}
{"type":"message","id":"1","parentId":null,"timestamp":"2026-11-18T10:02:00.000Z","message":{"role":"user","content":"[Discord Platform Guild #k8s-migration] Priya Raman (p): decided: blue-green cutover on Thursday"}}
-- agents/main/sessions/dm.jsonl --
{"type":"session","version":3,"id":"dm","timestamp":"2026-11-18T10:00:00.000Z","cwd":"/a"}
{"type":"message","id":"1","parentId":null,"timestamp":"2026-11-18T10:02:00.000Z","message":{"role":"user","content":"my private dentist appointment"}}
`

func setup(t *testing.T) (root string, opts archive.Options) {
	t.Helper()
	root = buildtest.Workspace(t, sessionsTxtar)
	return root, archive.Options{Workspace: filepath.Join(root, "ws"), Sessions: []string{filepath.Join(root, "agents")}}
}

func run(t *testing.T, opts archive.Options) *archive.Report {
	t.Helper()
	rep, err := archive.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func appendLine(t *testing.T, p, line string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}

func TestArchive_BuildShowsConversationPagesWithNoBrokenLinks(t *testing.T) {
	_, opts := setup(t)
	run(t, opts)
	out := buildtest.BuildWith(t, build.Options{Workspace: opts.Workspace})
	if pages := out.AssertLinksResolve(); pages == 0 {
		t.Fatal("the build wrote no pages")
	}
	conv := "site/sources/conversations/telegram/homelab-crew/"
	out.AssertExists(conv+"index.html", conv+"digest.html", conv+"summaries/topic-7.html", conv+"raw/topic-7/2026-11-02.html",
		"site/sources/conversations/discord/platform-guild/summaries/topic-1190287598021394452.html")
	// The summary's citation lands on the raw line it quotes.
	out.AssertContains(conv+"summaries/topic-7.html", `raw/topic-7/2026-11-02.html#^L4"`, "Backups &amp; NAS")
	out.AssertContains(conv+"raw/topic-7/2026-11-02.html", `id="^L4"`, "we'll go with glacier")
	// Channel, group and topic pages: counts, a timeline by day linking
	// the day's transcripts, and who spoke how often.
	out.AssertContains("site/sources/conversations/telegram/index.html", "Telegram: 4 messages in 1 group, 2026-11-02 → 2026-11-03, from 4 participants.",
		`<a href="../../../sources/conversations/telegram/homelab-crew/index.html">Homelab Crew</a>`)
	out.AssertContains(conv+"index.html", "Homelab Crew, a telegram group: 4 messages in 2 topics", `id="timeline"`, `id="participants"`,
		`<a href="../../../../sources/conversations/telegram/homelab-crew/raw/topic-7/index.html">Backups &amp; NAS</a></td><td class="num">3</td><td>2026-11-02</td><td>2026-11-03</td>`)
	out.AssertContains(conv+"raw/topic-7/index.html", "<h1>Backups &amp; NAS</h1>", "Topic 7 of Homelab Crew (telegram): 3 messages on 2 days, 2026-11-02 → 2026-11-03, from 3 participants.",
		`<tr><td>2026-11-02</td><td class="num">2</td>`, `href="../../../../../../sources/conversations/telegram/homelab-crew/raw/topic-7/2026-11-03.html">transcript</a>`,
		`<tr><td>Juniper</td><td class="num">1</td>`)
	out.AssertContains("site/sources/conversations/discord/platform-guild/index.html", "Priya Raman")
	// A claim backed by a digest line cites it, and the link lands on
	// that line.
	out.AssertMatches("site/claims/sam-will-go-with-glacier-instant-retrieval-for-the-nas.html", `class="internal evidence-link" href="../sources/conversations/telegram/homelab-crew/digest.html#%5ee\d+"`)
	out.AssertNoFileHolds("site", "dentist")
	out.AssertNoFileHolds("vault", "dentist")
}

// A dream reads the messages the digests cite as it reads daily-log
// lines: a decision among them, chosen, is written with a Source pointer
// to its raw line, and the claim's evidence links land on that line. (The
// digest line quoting it is no evidence: it lacks the channel the
// claim's attribution names, and evidence must hold a claim's values.)
func TestArchive_DreamPromotesADigestDecisionAndTheClaimCitesIt(t *testing.T) {
	root, opts := setup(t)
	run(t, opts)
	dreamOn(t, opts.Workspace)
	raw := "archives/discord/platform-guild/raw/topic-1190287598021394452/2026-11-18.md"
	if mem := read(t, filepath.Join(opts.Workspace, "MEMORY.md")); !strings.Contains(mem, "“decided: blue-green cutover on Thursday” (Priya Raman, Platform Guild / #k8s-migration)") ||
		!strings.Contains(mem, "Source: "+raw+"#L3-L3") {
		t.Fatalf("MEMORY.md after the dream:\n%s", mem)
	}
	out := buildtest.BuildWith(t, build.Options{Workspace: opts.Workspace, Out: filepath.Join(root, "dist")})
	out.AssertLinksResolve()
	claim := "site/claims/decided-blue-green-cutover-on-thursday-priya-raman-platform.html"
	out.AssertContains(claim, `evidence-link" href="../sources/conversations/discord/platform-guild/raw/topic-1190287598021394452/2026-11-18.html#%5eL3"`)
}

// A private conversation is no source for a dream, as a private daily log
// is not.
func TestArchive_DreamDoesNotReadAPrivateConversation(t *testing.T) {
	_, opts := setup(t)
	run(t, opts)
	if err := os.WriteFile(filepath.Join(opts.Workspace, "dreamwiki.toml"), []byte(`private = ["archives/discord/**"]`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dreamOn(t, opts.Workspace)
	// The dream finds nothing to write, so it may leave the state files
	// as they were (absent); what it writes must not quote the
	// conversation, its proposals in DREAMS.md included.
	for _, p := range []string{"MEMORY.md", "memory/dream-log.md", "memory/memory-meta.json", "DREAMS.md"} {
		data, err := os.ReadFile(filepath.Join(opts.Workspace, p))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		if text := string(data); strings.Contains(text, "blue-green") || strings.Contains(text, "archives/discord") {
			t.Errorf("%s quotes a private conversation:\n%s", p, text)
		}
	}
}

// dreamOn runs a forced dream over ws on 2026-11-19, with a daily log of
// 2026-11-18 to read, choosing every proposal it makes.
func dreamOn(t *testing.T, ws string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(ws, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "memory", "2026-11-18.md"), []byte("# 2026-11-18\n\n- Quiet day.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A dream writes only what passes its gates or is chosen: these
	// tests choose every proposal, as a person in the Dream dialog would.
	now := func() time.Time { return time.Date(2026, 11, 19, 8, 0, 0, 0, time.UTC) }
	plan, err := dream.NewPlan(context.Background(), ws, dream.Options{Now: now, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range plan.Proposals {
		ids = append(ids, p.ID)
	}
	if _, err := dream.Run(context.Background(), ws, dream.Options{Now: now, Force: true, Choose: ids}, false, nil); err != nil {
		t.Fatal(err)
	}
}

func TestArchive_SecondRunChangesNoFile(t *testing.T) {
	_, opts := setup(t)
	run(t, opts)
	before := snapshot(t, opts.Workspace)
	rep := run(t, opts)
	if rep.Messages != 0 || len(rep.Topics) != 0 {
		t.Fatalf("second run reported %d messages in %d topics, want none", rep.Messages, len(rep.Topics))
	}
	after := snapshot(t, opts.Workspace)
	for p, data := range before {
		if after[p] != data {
			t.Errorf("%s changed on a run with nothing new", p)
		}
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files[p] = read(t, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// After OpenClaw's daily reset the key names a new session; what was
// written to the old transcript after the last run is still archived.
func TestArchive_OldTranscriptOfAMovedKeyIsStillRead(t *testing.T) {
	root, opts := setup(t)
	run(t, opts)
	sessions := filepath.Join(root, "agents", "main", "sessions")
	appendLine(t, filepath.Join(sessions, "s7.jsonl"), `{"type":"message","id":"4","parentId":"3","timestamp":"2026-11-03T23:59:00.000Z","message":{"role":"user","content":"[Telegram Homelab Crew] Rui Costa (1): last words before the reset"}}`)
	if err := os.WriteFile(filepath.Join(sessions, "sessions.json"), []byte(`{"agent:main:telegram:group:-1002231457781:topic:7": {"sessionId": "s7b"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sessions, "s7b.jsonl"), []byte(`{"type":"session","version":3,"id":"s7b","timestamp":"2026-11-04T04:00:00.000Z","cwd":"/a"}
{"type":"message","id":"1","parentId":null,"timestamp":"2026-11-04T08:00:00.000Z","message":{"role":"user","content":"[Telegram Homelab Crew] Marta Sousa (3): morning"}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := run(t, opts)
	if rep.Messages != 2 {
		t.Fatalf("appended %d messages, want 2 (one from each transcript)", rep.Messages)
	}
	raw := filepath.Join(opts.Workspace, "archives/telegram/homelab-crew/raw/topic-7")
	if got := read(t, filepath.Join(raw, "2026-11-03.md")); !strings.Contains(got, "Rui Costa:** last words before the reset ^L4") {
		t.Errorf("the old transcript's new message is missing:\n%s", got)
	}
	if got := read(t, filepath.Join(raw, "2026-11-04.md")); !strings.Contains(got, "Marta Sousa:** morning ^L3") {
		t.Errorf("the new session's message is missing:\n%s", got)
	}
}

// A transcript rewritten shorter (compacted, or restored from a backup)
// is read again, and only messages newer than the last archived are added.
func TestArchive_RewrittenTranscriptAddsOnlyNewerMessages(t *testing.T) {
	root, opts := setup(t)
	run(t, opts)
	p := filepath.Join(root, "agents", "main", "sessions", "s7.jsonl")
	if err := os.WriteFile(p, []byte(`{"type":"session","version":3,"id":"s7","timestamp":"2026-11-02T08:50:00.000Z","cwd":"/a"}
{"type":"message","id":"3","parentId":null,"timestamp":"2026-11-03T07:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Restore of one folder from Glacier worked."}]}}
{"type":"message","id":"5","parentId":"3","timestamp":"2026-11-03T08:00:00.000Z","message":{"role":"assistant","content":"Second restore worked too."}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := run(t, opts)
	if rep.Messages != 1 {
		t.Fatalf("appended %d messages, want 1", rep.Messages)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0].Message, "shorter than when it was last archived") {
		t.Errorf("warnings = %v, want one about the rewritten transcript", rep.Warnings)
	}
	got := read(t, filepath.Join(opts.Workspace, "archives/telegram/homelab-crew/raw/topic-7/2026-11-03.md"))
	if strings.Count(got, "Restore of one folder") != 1 || !strings.Contains(got, "Second restore worked too. ^L4") {
		t.Errorf("raw file after the rewrite:\n%s", got)
	}
}

func TestArchive_DirectChatsAreNeverArchived(t *testing.T) {
	_, opts := setup(t)
	rep := run(t, opts)
	found := false
	for _, s := range rep.Skipped {
		if s.Key == "agent:main:telegram:dm:5151" {
			found = true
		}
	}
	if !found {
		t.Errorf("the direct chat is not reported as skipped: %v", rep.Skipped)
	}
	for p, data := range snapshot(t, filepath.Join(opts.Workspace, "archives")) {
		if strings.Contains(data, "dentist") {
			t.Errorf("%s holds the direct chat", p)
		}
	}
}

func TestArchive_OnlyTheTopicWithNewMessagesIsSummarisedAgain(t *testing.T) {
	root, opts := setup(t)
	run(t, opts)
	appendLine(t, filepath.Join(root, "agents", "main", "sessions", "s12.jsonl"), `{"type":"message","id":"2","parentId":"1","timestamp":"2026-11-03T10:05:00.000Z","message":{"role":"user","content":"[Telegram Homelab Crew] Rui Costa (1): adguard, moved last year"}}`)
	rep := run(t, opts)
	if len(rep.Topics) != 1 || rep.Topics[0].Topic != "12" || !rep.Topics[0].Summarised || rep.Topics[0].Added != 1 {
		t.Fatalf("topics = %+v, want topic 12 alone, +1, summarised", rep.Topics)
	}
	opts.Force = true
	rep = run(t, opts)
	if len(rep.Topics) != 3 {
		t.Errorf("--force summarised %d topics, want all 3", len(rep.Topics))
	}
}

func TestArchive_MissingSessionsFolderIsAnErrorNamingIt(t *testing.T) {
	_, opts := setup(t)
	opts.Sessions = []string{filepath.Join(t.TempDir(), "nowhere")}
	_, err := archive.Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "nowhere does not exist") {
		t.Fatalf("err = %v, want one naming the missing folder", err)
	}
}
