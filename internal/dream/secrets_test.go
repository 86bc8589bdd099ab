package dream

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// withSecrets is a workspace whose curated memory already holds secrets
// (as a real one held "格式密码：912530"), and whose new log has one more,
// next to ordinary work for a dream: a fact that changes, a new fact, a
// TODO that gets done.
const withSecrets = `
-- MEMORY.md --
# MEMORY.md

> limit: 200 lines / 25KB | last dream: 2026-04-01

## Infrastructure
- 格式密码：912530
- Router admin password: tr0ub4dor&3 (set 2026-03-01)
- Gateway host is the NUC. Source: memory/2026-03-20.md#L3-L3
- Home lab details: see memory/homelab.md

## Projects
- [project] TODO: renew the okafor.dev domain (source: 2026-03-25)
-- memory/homelab.md --
# Home lab

## Hosts
- NAS is nas-01 at 10.0.0.20, Synology, backs up nightly to S3. Source: memory/2026-03-20.md#L4-L4
- The NAS admin login is sam, password: hunter2-but-longer
- Zigbee2MQTT runs on the NUC with the SONOFF dongle. Source: memory/2026-03-21.md#L3-L3
-- memory/dream-log.md --
# Dream log

## 2026-04-01 07:00 — dream

Consolidated through: 2026-03-31
-- memory/2026-03-20.md --
# 2026-03-20

- Gateway host is the NUC.
- NAS is nas-01 at 10.0.0.20, Synology, backs up nightly to S3.
-- memory/2026-04-02.md --
# 2026-04-02

- Gateway host is now the Mac mini.
- The Zigbee2MQTT dongle on the NUC needs the by-id path, not /dev/ttyUSB0.
- Renewed the okafor.dev domain for two years — done.
- New router admin password: n3w-r0uter-pass-2026
- The NAS admin login is sam, password: hunter2-but-longer
`

// rawSecrets are the values withSecrets holds.
var rawSecrets = []string{"912530", "tr0ub4dor&3", "hunter2-but-longer", "n3w-r0uter-pass-2026"}

// TestDream_ASecretAlreadyInCuratedMemoryIsKeptAndReported is DESIGN 5.6
// and issue #13's third defect: a dream never rewrites a line of curated
// memory to redact it (a real workspace lost "格式密码：912530" that way).
// The lines stay byte for byte, each is reported with file and line, the
// dream still does its other work, and nothing new it writes (the state
// files, the dream log, the new facts) holds a secret.
func TestDream_ASecretAlreadyInCuratedMemoryIsKeptAndReported(t *testing.T) {
	dir := workspaceFrom(t, withSecrets)
	kept := map[string][]string{
		"MEMORY.md":         {"- 格式密码：912530", "- Router admin password: tr0ub4dor&3 (set 2026-03-01)"},
		"memory/homelab.md": {"- The NAS admin login is sam, password: hunter2-but-longer"},
	}
	res := dream(t, dir, "2026-04-05T07:00:00Z")

	for path, lines := range kept {
		content := read(t, dir, path)
		for _, l := range lines {
			if !strings.Contains(content, "\n"+l+"\n") {
				t.Errorf("%s lost the line %q:\n%s", path, l, content)
			}
		}
	}
	want := map[string]bool{"MEMORY.md:6": false, "MEMORY.md:7": false, "memory/homelab.md:5": false}
	for _, s := range res.Plan.Secrets {
		if s.Action == keptSecret {
			want[s.File+":"+itoa(s.Line)] = true
		}
	}
	for at, ok := range want {
		if !ok {
			t.Errorf("%s not reported: %+v", at, res.Plan.Secrets)
		}
	}
	var out strings.Builder
	res.Plan.WriteText(&out)
	if !strings.Contains(out.String(), "  MEMORY.md:6  password — left as it is: a dream never rewrites a line of curated memory") {
		t.Errorf("the plan does not report the kept secret:\n%s", out.String())
	}

	// The other work was done.
	c := res.Plan.Counts
	if c.Superseded != 1 || c.Closed != 0 || c.Promoted < 2 {
		t.Errorf("counts %+v", c)
	}
	mem := read(t, dir, "MEMORY.md")
	if !strings.Contains(mem, "Gateway host is now the Mac mini") || strings.Contains(mem, "(done 2026-04-02)") {
		t.Errorf("MEMORY.md:\n%s", mem)
	}
	// Nothing new holds a secret: the kept lines are the only ones.
	for path, content := range snapshot(t, dir) {
		if _, _, daily := workspace.DailyLogPath(path); daily {
			continue
		}
		for _, l := range kept[path] {
			content = strings.Replace(content, l, "", 1)
		}
		if f := secrets.Scan(content); len(f) > 0 {
			t.Errorf("%s gained a secret: %v\n%s", path, f, content)
		}
	}

	// A second dream matches the kept lines to their memory-meta.json
	// records (no new ones) and leaves them alone again.
	res = dream(t, dir, "2026-04-05T09:00:00Z")
	if res.Plan.Counts.Tracked != 0 {
		t.Errorf("the second dream tracked %d entries again", res.Plan.Counts.Tracked)
	}
	if read(t, dir, "MEMORY.md") != mem {
		t.Error("the second dream changed MEMORY.md")
	}
}

// TestDream_ASecretLineNeverMovesForTheBudget: a MEMORY.md far over its
// budget keeps every line, the one holding a secret too (moving it would
// copy the value; redacting it would lose it). Since #23 no line of the
// author's moves for the budget at all.
func TestDream_ASecretLineNeverMovesForTheBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("# MEMORY.md\n\n## Notes\n- 格式密码：912530\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "- Note %d about the homelab rack and its cabling plan.\n", i)
	}
	dir := workspaceFrom(t, "-- MEMORY.md --\n"+b.String())
	res, err := Run(t.Context(), dir, Options{Now: at("2026-03-10T07:00:00Z"), Force: true, Configure: func(c *workspace.Config) {
		c.Budget.MaxChars = 10 // everything that can move must
	}}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan.Memory.After != res.Plan.Memory.Before {
		t.Fatalf("MEMORY.md changed: %+v", res.Plan.Memory)
	}
	if mem := read(t, dir, "MEMORY.md"); !strings.Contains(mem, "\n- 格式密码：912530\n") {
		t.Errorf("the secret line moved:\n%s", mem)
	}
	for path, content := range snapshot(t, dir) {
		if path != "MEMORY.md" && strings.Contains(content, "912530") {
			t.Errorf("%s got a copy of the secret", path)
		}
	}
}

// TestDream_APlanHoldsNoSecret: everything a dry run shows (the text, the
// diff, the JSON the CLI and the server send) is redacted, though curated
// memory and the logs hold secrets and the diff's context lines pass by
// them.
func TestDream_APlanHoldsNoSecret(t *testing.T) {
	dir := workspaceFrom(t, withSecrets)
	// Every proposal chosen, so the plan edits the files that hold the
	// secrets and its diff passes by them.
	now := "2026-04-05T07:00:00Z"
	res, err := Run(context.Background(), dir, Options{Now: at(now), Force: true, Choose: chooseAll(t, dir, now)}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	res.Plan.WriteText(&text)
	text.WriteString(res.Plan.Diff())
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Plan.Diff(), "[REDACTED:password]") {
		t.Errorf("the diff shows no redacted line; the test does not test much:\n%s", res.Plan.Diff())
	}
	for _, out := range []string{text.String(), string(js)} {
		for _, v := range rawSecrets {
			if strings.Contains(out, v) {
				t.Errorf("the plan shows %q:\n%s", v, out)
			}
		}
	}
}

// TestRecall_WritesNoSecretIntoTheRecallLogs: a recall whose query and
// match hold a secret (an agent searched for a password) logs the event,
// counts the recall and moves the entry's decay, with the query, the
// snippet and the entry text redacted in every file, and the curated line
// it matched untouched.
func TestRecall_WritesNoSecretIntoTheRecallLogs(t *testing.T) {
	dir := workspaceFrom(t, withSecrets)
	dream(t, dir, "2026-04-05T07:00:00Z") // gives every entry a record
	mem := read(t, dir, "MEMORY.md")
	os.MkdirAll(filepath.Join(dir, "memory/.dreams"), 0o755)
	os.WriteFile(filepath.Join(dir, eventsPath), nil, 0o644)

	res, err := Recall(context.Background(), dir, "router admin password: tr0ub4dor&3", "Router admin password: tr0ub4dor&3",
		Options{Now: at("2026-04-06T10:00:00Z")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) == 0 || res.Entries[0].Recalls != 1 {
		t.Fatalf("the recall was not counted: %+v", res)
	}
	js, _ := json.Marshal(res)
	for _, f := range []string{eventsPath, recallPath, metaPath} {
		content := read(t, dir, f)
		if !strings.Contains(content, "[REDACTED:password]") && f != metaPath {
			t.Errorf("%s holds no redacted text; the test does not test much:\n%s", f, content)
		}
		for _, v := range rawSecrets {
			if strings.Contains(content, v) {
				t.Errorf("%s holds %q:\n%s", f, v, content)
			}
			if strings.Contains(string(js), v) {
				t.Errorf("the recall's result holds %q: %s", v, js)
			}
		}
	}
	if read(t, dir, "MEMORY.md") != mem {
		t.Error("the recall changed MEMORY.md")
	}
}

// TestSupersede_RefusesALineHoldingASecret: superseding would rewrite the
// line; the command says what to do instead and changes nothing.
func TestSupersede_RefusesALineHoldingASecret(t *testing.T) {
	dir := workspaceFrom(t, withSecrets)
	before := snapshot(t, dir)
	_, err := Supersede(context.Background(), dir, "Router admin password", "The router admin password is in 1Password",
		Options{Now: at("2026-04-06T10:00:00Z")}, 0)
	if err == nil || err.Error() != "MEMORY.md:7 holds a secret, and a line holding one is never rewritten (its value would be lost); move the secret to a password manager, edit the line by hand, then supersede it" {
		t.Fatalf("got %v", err)
	}
	if !mapsEqual(before, snapshot(t, dir)) {
		t.Error("a refused supersede changed files")
	}
}

// TestDream_APlanOverARedactedReadNeverLosesASecret: serve mode keeps the
// workspace as the site reads it, secrets replaced by placeholders, and
// plans its dreams over it. A curated file planned from that text would
// be written back with the placeholders in place of the values; the audit
// leaves such a file alone, and says so, while the rest of the dream goes
// on.
func TestDream_APlanOverARedactedReadNeverLosesASecret(t *testing.T) {
	dir := workspaceFrom(t, withSecrets)
	load := func() *workspace.Workspace {
		ws, err := workspace.Load(dir, workspace.Options{Redact: true, OmitPrivate: true})
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	// A person in the serve dialog chooses every proposal the redacted
	// plan shows (its ids), so the dream has lines to write into the
	// curated files that hold the secrets.
	opts := Options{Now: at("2026-04-05T07:00:00Z"), Force: true}
	shown, err := PlanWorkspace(context.Background(), load(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range shown.Proposals {
		opts.Choose = append(opts.Choose, p.ID)
	}
	if len(opts.Choose) == 0 {
		t.Fatal("the redacted plan proposes nothing; the test does not test much")
	}
	pl, err := PlanWorkspace(context.Background(), load(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pl.Files {
		if f.Path == "MEMORY.md" || f.Path == "memory/homelab.md" {
			t.Errorf("%s would be written from redacted text:\n%s", f.Path, f.Diff)
		}
	}
	refused := map[string]bool{}
	for _, d := range pl.Diagnostics {
		if strings.Contains(d.Message, "would lose the secret value") {
			refused[d.File] = true
		}
	}
	if !refused["MEMORY.md"] {
		t.Errorf("MEMORY.md not reported: %v", pl.Diagnostics)
	}
	if _, err := Apply(context.Background(), pl, nil); err != nil {
		t.Fatal(err)
	}
	for _, s := range rawSecrets[:3] {
		if !strings.Contains(read(t, dir, "MEMORY.md")+read(t, dir, "memory/homelab.md"), s) {
			t.Errorf("the value %q is gone", s)
		}
	}
}

// withTableSecrets is a log whose credentials are named only by their
// table's header (issue #22: a real workspace's Feishu app secret reached
// a claim page, a dream page and memory-meta.json that way), next to a
// fact worth promoting.
const withTableSecrets = `
-- MEMORY.md --
# MEMORY.md

## Bots
- The alert bot posts to the ops group.
-- memory/2026-04-02.md --
# 2026-04-02

- [project] The alert bot moved to Feishu; the WeChat account sends the shop's order notices.

| 名称 | App ID | App Secret |
|---|---|---|
| 告警 | cli_a5f3c2d1e4b6a7c8 | uTucnfGoMeTlRwS0pqKbU4b73vh3vY9f |

| 公众号 | AppID | 密钥 |
|---|---|---|
| 店铺 | wx8a1c3e5f7b9d2c4e | a9cf2dcb65a355766176abc4312bb3df |
`

// TestDream_ASecretNamedByItsTableHeaderIsNeverCopied: the guard reads a
// log's items in their file, so a table row's value named by the header
// above it is redacted in everything the dream writes (memory-meta.json,
// DREAMS.md, curated memory, the dream log) and shows (the plan).
func TestDream_ASecretNamedByItsTableHeaderIsNeverCopied(t *testing.T) {
	values := []string{"uTucnfGoMeTlRwS0pqKbU4b73vh3vY9f", "a9cf2dcb65a355766176abc4312bb3df"}
	dir := workspaceFrom(t, withTableSecrets)
	plan, err := Run(context.Background(), dir, Options{Now: at("2026-04-05T07:00:00Z"), Force: true}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	plan.Plan.WriteText(&text)
	js, _ := json.Marshal(plan)
	if !strings.Contains(text.String(), "[REDACTED:secret]") {
		t.Errorf("the plan shows no redacted row; the test does not test much:\n%s", text.String())
	}
	dream(t, dir, "2026-04-05T07:00:00Z")
	outputs := snapshot(t, dir)
	outputs["(the plan)"] = text.String() + plan.Plan.Diff() + string(js)
	for path, content := range outputs {
		if _, _, daily := workspace.DailyLogPath(path); daily {
			continue
		}
		for _, v := range values {
			if strings.Contains(content, v) {
				t.Errorf("%s holds %q:\n%s", path, v, content)
			}
		}
	}
}

// TestDream_ACuratedTableSecretIsNotRecordedInMemoryMeta: a dream records
// each curated entry in memory-meta.json; a MEMORY.md table row whose
// value its header names (a WeChat AppSecret) is recorded with the value
// redacted, and the line itself is left as it is.
func TestDream_ACuratedTableSecretIsNotRecordedInMemoryMeta(t *testing.T) {
	const value = "a9cf2dcb65a355766176abc4312bb3df"
	dir := workspaceFrom(t, `
-- MEMORY.md --
# MEMORY.md

## Accounts

| 公众号 | AppID | AppSecret |
|---|---|---|
| 店铺通知 | wx8a1c3e5f7b9d2c4e | `+value+` |

- The shop's order notices go out through the WeChat account.
`)
	dream(t, dir, "2026-04-05T07:00:00Z")
	if mem := read(t, dir, "MEMORY.md"); !strings.Contains(mem, value) {
		t.Errorf("the dream rewrote the curated line holding the secret:\n%s", mem)
	}
	meta := read(t, dir, "memory/memory-meta.json")
	if strings.Contains(meta, value) {
		t.Errorf("memory-meta.json holds the AppSecret:\n%s", meta)
	}
	if !strings.Contains(meta, "wx8a1c3e5f7b9d2c4e — [REDACTED:secret]") {
		t.Errorf("memory-meta.json does not record the row redacted:\n%s", meta)
	}
}

// TestChoose_AnEarlierDreamsProposalIsGuardedAsTheDreamGuardsIt: a
// proposal chosen after its dream (its log is behind the watermark now,
// and read again for the choice: loggedCandidate) is guarded as a line of
// the batch is: a chosen line holding a password is written redacted,
// and no value of the log (the table rows' values named by their headers
// included) reaches anything the dream writes. (The write audit redacts
// a new secret too, so this checks the outcome, not which guard caught
// it.)
func TestChoose_AnEarlierDreamsProposalIsGuardedAsTheDreamGuardsIt(t *testing.T) {
	values := []string{"uTucnfGoMeTlRwS0pqKbU4b73vh3vY9f", "a9cf2dcb65a355766176abc4312bb3df", "n3w-r0uter-pass-2026"}
	dir := workspaceFrom(t, withTableSecrets+"\n- The router admin password changed; new router admin password: n3w-r0uter-pass-2026\n")
	first, err := Run(context.Background(), dir, Options{Now: at("2026-04-05T07:00:00Z"), Force: true}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range first.Plan.Proposals {
		ids = append(ids, p.ID)
	}
	if len(ids) < 2 {
		t.Fatalf("the dream proposed %d lines, want the bot's move and the password change: %+v", len(ids), first.Plan.Skipped)
	}
	later, err := Run(context.Background(), dir, Options{Now: at("2026-04-06T07:00:00Z"), Force: true, Choose: ids}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(later.Plan.Inputs) != 0 || later.Plan.Counts.Promoted+later.Plan.Counts.Indexed < 2 {
		t.Fatalf("the choice was not read from a log behind the watermark, or not written: inputs %+v, counts %+v", later.Plan.Inputs, later.Plan.Counts)
	}
	if !strings.Contains(read(t, dir, "MEMORY.md"), "new router admin password: [REDACTED:password]") {
		t.Errorf("the chosen password change is not written redacted:\n%s", read(t, dir, "MEMORY.md"))
	}
	for path, content := range snapshot(t, dir) {
		if _, _, daily := workspace.DailyLogPath(path); daily {
			continue
		}
		for _, v := range values {
			if strings.Contains(content, v) {
				t.Errorf("%s holds %q:\n%s", path, v, content)
			}
		}
	}
}
