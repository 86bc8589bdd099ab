package dream

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// basic is a small workspace that exercises most decisions: a fact that
// replaces an older one, a fact for an existing topic, a TODO the log
// closes, boilerplate, a relative date and candidate metadata.
const basic = `
-- MEMORY.md --
# MEMORY.md

> limit: 200 lines / 25KB | last dream: 2026-04-01

## People
- [user] Sam is a platform engineer in Lisbon. (source: 2026-03-20)

## Infrastructure
- Gateway host is the NUC. Source: memory/2026-03-20.md#L3-L3
- Home lab details: see memory/homelab.md

## Projects
- [project] TODO: renew the okafor.dev domain (source: 2026-03-25)
-- memory/homelab.md --
# Home lab

## Hosts
- NAS is nas-01 at 10.0.0.20, Synology, backs up nightly to S3. Source: memory/2026-03-20.md#L4-L4
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
- 21:30 heartbeat: all green.
- Aiko's birthday dinner is tomorrow at 19:00.
- confidence: 0.62 status: staged
-- memory/2026-04-03.md --
# Session: 2026-04-03 08:10:37 UTC

- **Session Key**: agent:main:telegram:direct:1
- **Source**: telegram

## Light Sleep
- candidate: Gateway host is the Mac mini [score=0.81 recalls=2]

## Notes
- Reminder: nas-01 at 10.0.0.20 is the Synology NAS; it backs up nightly to S3.
`

func TestDream_BasicDecisions(t *testing.T) {
	dir := workspaceFrom(t, basic)
	res := dream(t, dir, "2026-04-05T07:00:00Z")
	mem := read(t, dir, "MEMORY.md")
	arch := read(t, dir, "memory/archive/2026-04.md")
	home := read(t, dir, "memory/homelab.md")

	// Supersession (DESIGN 5.4): the new fact takes the old one's place in
	// MEMORY.md; the old one is archived, marked, with both dates.
	if !strings.Contains(mem, "Gateway host is now the Mac mini (2026-04-02). Source: memory/2026-04-02.md#L3-L3") || strings.Contains(mem, "Gateway host is the NUC") {
		t.Errorf("MEMORY.md supersession:\n%s", mem)
	}
	if !strings.Contains(arch, "Gateway host is the NUC. (superseded 2026-04-02 by: Gateway host is now the Mac mini; since 2026-03-20) Source: memory/2026-03-20.md#L3-L3") {
		t.Errorf("archive:\n%s", arch)
	}
	// Routing by vocabulary into the existing topic.
	if !strings.Contains(home, "- The Zigbee2MQTT dongle on the NUC needs the by-id path, not /dev/ttyUSB0 (2026-04-02). Source: memory/2026-04-02.md#L4-L4") {
		t.Errorf("homelab.md:\n%s", home)
	}
	// A near-duplicate merges its evidence into the entry already kept.
	if !strings.Contains(home, "Source: memory/2026-03-20.md#L4-L4, memory/2026-04-03.md#L10-L10") {
		t.Errorf("merge:\n%s", home)
	}
	// The TODO is its author's (#23 rule 2): the log that seems to finish
	// it is reported, neither ticking it nor added beside it.
	if !strings.Contains(mem, "\n- [project] TODO: renew the okafor.dev domain (source: 2026-03-25)\n") || strings.Contains(mem, "Renewed") {
		t.Errorf("to-do:\n%s", mem)
	}
	if !slices.ContainsFunc(res.Plan.Skipped, func(s Skip) bool { return strings.Contains(s.Reason, "may finish the to-do at MEMORY.md:") }) {
		t.Errorf("the closing line is not reported: %+v", res.Plan.Skipped)
	}
	// The size header moves.
	if !strings.Contains(mem, "last dream: 2026-04-05") {
		t.Errorf("header:\n%s", mem)
	}
	// Skipped with reasons: boilerplate, metadata, sleep blocks; the
	// birthday dinner is one evening's plan, not a standing fact.
	reasons := map[string]bool{}
	for _, s := range res.Plan.Skipped {
		reasons[s.Reason] = true
	}
	for _, want := range []string{"heartbeat status", "dreaming phase output inside a daily log, not a fact", "nothing left after removing metadata"} {
		if !reasons[want] {
			t.Errorf("no skip %q in %+v", want, res.Plan.Skipped)
		}
	}
	var birthday *Skip
	for i, s := range res.Plan.Skipped {
		if strings.Contains(s.Text, "birthday") {
			birthday = &res.Plan.Skipped[i]
		}
	}
	if birthday == nil || !strings.Contains(birthday.Text, "on 2026-04-03 at 19:00") || !strings.Contains(birthday.Reason, "not durable") {
		t.Errorf("birthday: %+v", birthday)
	}
	// The dream log records the watermark and the inputs with hashes.
	log := read(t, dir, "memory/dream-log.md")
	for _, want := range []string{"## 2026-04-05 07:00 — dream", "- **Consolidated through**: 2026-04-03", "  - memory/2026-04-02.md (", "sha256 ", "- **Superseded**: 1"} {
		if !strings.Contains(log, want) {
			t.Errorf("dream log lacks %q:\n%s", want, log)
		}
	}
	// memory-meta.json links the chain both ways.
	meta, err := memory.ParseMetaDoc([]byte(read(t, dir, "memory/memory-meta.json")))
	if err != nil {
		t.Fatal(err)
	}
	var oldR, newR *memory.MetaRecord
	for _, r := range meta.Entries {
		switch {
		case strings.HasPrefix(r.Text, "Gateway host is the NUC"):
			oldR = r
		case strings.HasPrefix(r.Text, "Gateway host is now the Mac mini") && r.File == "MEMORY.md":
			newR = r
		}
	}
	if oldR == nil || newR == nil || oldR.SupersededBy != newR.ID || newR.Supersedes != oldR.ID || oldR.File != "memory/archive/2026-04.md" {
		t.Errorf("meta chain: old %+v new %+v", oldR, newR)
	}
}

func TestDream_GatesHoldWithoutForceButNeverSkipTheLock(t *testing.T) {
	dir := workspaceFrom(t, basic)
	before := snapshot(t, dir)
	res, err := Run(context.Background(), dir, Options{Now: at("2026-04-05T07:00:00Z")}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || res.Plan.Ready {
		t.Fatalf("applied although the session gate failed: %+v", res.Plan.Gates)
	}
	if g := res.Plan.Gates[1]; g.Name != "session" || g.Passed || !strings.Contains(g.Detail, "2 new days of daily logs") {
		t.Errorf("session gate: %+v", g)
	}
	if g := res.Plan.Gates[0]; g.Name != "time" || !g.Passed {
		t.Errorf("time gate: %+v", g)
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Error("a dream held back by its gates wrote files")
	}
	// The time gate: one day after the last dream.
	res, _ = Run(context.Background(), dir, Options{Now: at("2026-04-02T07:00:00Z")}, true, nil)
	if g := res.Plan.Gates[0]; g.Passed || !strings.Contains(g.Detail, "1.00 days") {
		t.Errorf("time gate: %+v", g)
	}
	// --force skips both gates but not a held lock.
	l, err := acquireLock(dir, lockTimeout(nil), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	_, err = Run(context.Background(), dir, Options{Now: at("2026-04-05T07:00:00Z"), Force: true}, false, nil)
	var le *LockedError
	if !errors.As(err, &le) || le.Owner.PID != os.Getpid() {
		t.Fatalf("forced dream with the lock held: %v", err)
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Error("a locked-out dream wrote files")
	}
}

func TestDream_DryRunWritesNothingAndShowsTheDiff(t *testing.T) {
	dir := demoCopy(t)
	before := snapshot(t, dir)
	// Every proposal chosen, so the plan has lines to write and show: a
	// dry run with a choice writes nothing either.
	now := "2026-11-21T08:00:00Z"
	res, err := Run(context.Background(), dir, Options{Now: at(now), Force: true, Choose: chooseAll(t, dir, now)}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Error("dry run changed the workspace")
	}
	if _, err := os.Stat(filepath.Join(dir, ".dreamwiki")); err == nil {
		t.Error("dry run created .dreamwiki/")
	}
	pl := res.Plan
	if len(pl.Actions) == 0 || len(pl.Files) == 0 {
		t.Fatalf("empty plan: %+v", pl)
	}
	d := pl.Diff()
	for _, want := range []string{"--- a/memory/dream-log.md", "+++ b/memory/dream-log.md", "+## 2026-11-21 08:00 — dream", "@@ "} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q", want)
		}
	}
	for _, a := range pl.Actions {
		if a.Reason == "" || a.Kind == "" {
			t.Errorf("action without kind or reason: %+v", a)
		}
		if a.Kind == "promote" && (a.Scores == nil || a.Scores.Promotion == nil) {
			t.Errorf("promotion without scores: %+v", a)
		}
	}
}

func TestDream_DailyLogsUntouchedAndEveryChangeBackedUp(t *testing.T) {
	dir := demoCopy(t)
	before := snapshot(t, dir)
	res := dream(t, dir, "2026-11-21T08:00:00Z")
	after := snapshot(t, dir)
	ws := load(t, dir)
	for _, d := range ws.Daily {
		if sha(before[d.File.Path]) != sha(after[d.File.Path]) {
			t.Errorf("%s changed", d.File.Path)
		}
	}
	if len(ws.Daily) == 0 {
		t.Fatal("no daily logs")
	}
	if res.Backup == "" || !strings.HasPrefix(res.Backup, ".backup/memory-dreams/20261121-0800") {
		t.Fatalf("backup folder %q", res.Backup)
	}
	changed := 0
	for path, old := range before {
		if after[path] == old {
			continue
		}
		changed++
		b, err := os.ReadFile(filepath.Join(dir, res.Backup, filepath.FromSlash(path)+".bak"))
		if err != nil {
			t.Errorf("%s changed without a backup: %v", path, err)
			continue
		}
		if string(b) != old {
			t.Errorf("backup of %s does not hold the old bytes", path)
		}
	}
	if changed == 0 || changed != len(slices.DeleteFunc(slices.Clone(res.Written), func(p string) bool { _, ok := before[p]; return !ok })) {
		t.Errorf("changed %d files, wrote %v", changed, res.Written)
	}
	for path := range after {
		if _, ok := before[path]; !ok && !slices.Contains(res.Written, path) {
			t.Errorf("unexpected new file %s", path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, LockPath)); err == nil {
		t.Error("the lock was left behind")
	}
}

func TestDream_SecondForcedDreamChangesNoCuratedFile(t *testing.T) {
	for _, name := range []string{"demo", "basic"} {
		t.Run(name, func(t *testing.T) {
			dir := demoCopy(t)
			now := "2026-11-21T08:00:00Z"
			if name == "basic" {
				dir, now = workspaceFrom(t, basic), "2026-04-05T07:00:00Z"
			}
			dream(t, dir, now)
			first := snapshot(t, dir)
			for _, again := range []string{now, strings.Replace(now, "T0", "T1", 1)} {
				res := dream(t, dir, again)
				second := snapshot(t, dir)
				for path, b := range first {
					if (path == "MEMORY.md" || writableTopic(path)) && second[path] != b {
						t.Errorf("%s changed on a dream without new logs:\n%s", path, unifiedDiff(path, []byte(b), []byte(second[path]), false))
					}
				}
				for path := range second {
					if _, ok := first[path]; !ok && (path == "MEMORY.md" || writableTopic(path)) {
						t.Errorf("%s created on a dream without new logs", path)
					}
				}
				if res.Plan.Counts.Promoted != 0 || len(res.Plan.Inputs) != 0 {
					t.Errorf("second dream: %+v inputs %v", res.Plan.Counts, res.Plan.Inputs)
				}
			}
		})
	}
}

func TestDream_DistilledLinesOnly(t *testing.T) {
	dir := workspaceFrom(t, `
-- MEMORY.md --
# MEMORY.md
-- memory/homelab.md --
# Home lab

- nas-01 is the Synology NAS at 10.0.0.20 in the hallway cupboard. Source: memory/2026-04-01.md#L3-L3
- The UPS in the hallway cupboard protects nas-01 and the router. Source: memory/2026-04-01.md#L4-L4
-- memory/2026-04-08.md --
# Session: 2026-04-08 08:10:37 UTC

- **Session Key**: agent:main:telegram:direct:1

## Notes
- The UPS battery for nas-01 in the hallway cupboard was replaced; confidence: 0.91 status: staged evidence: memory/2026-04-08.md:9-9
- nas-01 hallway cupboard UPS: runtime is now 40 minutes [score=0.835 recalls=3 avg=0.620 source=memory/2026-04-08.md:10-10]
- Decided: `+strings.Repeat("The NAS nas-01 in the hallway cupboard runs Synology DSM and its UPS keeps it alive through short power cuts. ", 3)+`
- user: can you check the UPS on nas-01 in the hallway cupboard
`)
	res := dream(t, dir, "2026-04-10T07:00:00Z")
	added := addedLines(res.Plan)
	if len(added) == 0 {
		t.Fatal("nothing was promoted")
	}
	promoted := 0
	for _, l := range added {
		if strings.Contains(l, "Source: memory/2026-04-08.md") {
			promoted++
		}
		for _, bad := range []string{"confidence:", "status: staged", "[score=", "Session:", "Session Key", "user:"} {
			if strings.Contains(l, bad) {
				t.Errorf("line holds %q: %s", bad, l)
			}
		}
		if n := len([]rune(l)); n > MaxLine {
			t.Errorf("line of %d characters: %s", n, l)
		}
	}
	if promoted < 3 {
		t.Errorf("promoted %d lines:\n%s", promoted, strings.Join(added, "\n"))
	}
}

func TestDream_NeverWritesASecretIntoCuratedMemory(t *testing.T) {
	samples := map[secrets.Kind]string{
		secrets.KindPrivateKey:     "-----BEGIN OPENSSH PRIVATE KEY-----\n  b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n  -----END OPENSSH PRIVATE KEY-----",
		secrets.KindAWSKey:         "AKIAIOSFODNN7REALKEY",
		secrets.KindAWSSecretKey:   "aws_secret_access_key = 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",
		secrets.KindAPIKey:         "sk-proj-Q2hhbmdlTWVQbGVhc2VUaGlzSXNOb3RSZWFs1234",
		secrets.KindGitHubToken:    "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
		secrets.KindSlackToken:     "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
		secrets.KindGoogleKey:      "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
		secrets.KindJWT:            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		secrets.KindBearer:         "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c",
		secrets.KindURLCredentials: "postgres://deploy:Sup3rS3cretPw@db.staging.tessellate.example:5432/app",
		secrets.KindPassword:       "password: hunter2-but-longer",
		secrets.KindWebhookURL:     "https://hooks.slack.com/services/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",
		secrets.KindSecret:         "API token: 7c4e9a1f3b8d2e6a0c5f9b3d7e1a4c8f2b6d0e3a",
	}
	var log strings.Builder
	log.WriteString("# 2026-04-08\n\n")
	services := []string{"gateway", "NAS share", "router admin", "backup job", "Grafana board", "Vault unseal", "CI runner", "wiki bot", "VPN peer", "DNS updater", "MQTT broker", "media server"}
	for i, k := range secrets.Kinds() {
		if secrets.Contains(samples[k]) == false {
			t.Fatalf("sample for %s is not detected", k)
		}
		log.WriteString("- The staging deploy credential for the homelab " + services[i%len(services)] + " (" + string(k) + ") is kept here: " + samples[k] + "\n")
	}
	dir := workspaceFrom(t, `
-- MEMORY.md --
# MEMORY.md

## Infrastructure
- The homelab gateway admin password: correcthorsebattery
-- memory/homelab.md --
# Home lab

- The homelab gateway deploy credential lives in 1Password (Homelab vault).
- The staging deploy credential for the homelab gateway rotates every 90 days.
-- memory/2026-04-08.md --
`+log.String())
	res := dream(t, dir, "2026-04-10T07:00:00Z")
	for path, content := range snapshot(t, dir) {
		if _, _, daily := workspace.DailyLogPath(path); daily {
			continue
		}
		if path == "MEMORY.md" {
			// The one it had is kept (TestDream_ASecretAlreadyInCuratedMemoryIsKeptAndReported).
			content = strings.Replace(content, "- The homelab gateway admin password: correcthorsebattery\n", "", 1)
		}
		if f := secrets.Scan(content); len(f) > 0 {
			t.Errorf("%s holds a secret: %v", path, f)
		}
	}
	found := map[string]bool{}
	for _, s := range res.Plan.Secrets {
		found[s.File] = true
		if s.Line == 0 {
			t.Errorf("finding without a line: %+v", s)
		}
	}
	if !found["memory/2026-04-08.md"] || !found["MEMORY.md"] {
		t.Errorf("secret report: %+v", res.Plan.Secrets)
	}
	kinds := map[secrets.Kind]bool{}
	for _, s := range res.Plan.Secrets {
		kinds[s.Kind] = true
	}
	for _, k := range secrets.Kinds() {
		if !kinds[k] {
			t.Errorf("%s not reported", k)
		}
	}
	// The facts themselves are kept, with the values redacted (near
	// duplicates once redacted merge into one entry).
	if n := strings.Count(read(t, dir, "memory/homelab.md"), "[REDACTED:"); n < 4 {
		t.Errorf("expected the facts with redacted values in the topic file, found %d placeholders:\n%s", n, read(t, dir, "memory/homelab.md"))
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestDream_SameInputSameBytes(t *testing.T) {
	a, b := demoCopy(t), demoCopy(t)
	dream(t, a, "2026-11-21T08:00:00Z")
	dream(t, b, "2026-11-21T08:00:00Z")
	sa, sb := snapshot(t, a), snapshot(t, b)
	if len(sa) != len(sb) {
		t.Fatalf("%d files vs %d", len(sa), len(sb))
	}
	for p, c := range sa {
		if sb[p] != c {
			t.Errorf("%s differs between two identical dreams", p)
		}
	}
}

func TestDream_MetaRecordsForExistingEntries(t *testing.T) {
	dir := workspaceFrom(t, `
-- MEMORY.md --
# MEMORY.md

## Tooling
- The staging deploy token expires 2027-01-07; reminder on 2026-12-28.
- The staging deploy token was rotated on 2026-10-09 (expires 2027-01-07). Source: memory/2026-10-09.md#L3-L3

## Feedback

**[feedback] Nothing after 22:00 (10-27)**
> I woke Sam at 23:10; batch everything that isn't a P1 for 08:00.
-- memory/memory-meta.json --
{"entries": [{"id": "mem_title", "text": "Nothing after 22:00 (10-27)", "created": "2026-10-27", "recallCount": 4}]}
`)
	dream(t, dir, "2026-11-21T08:00:00Z")
	meta, err := memory.ParseMetaDoc([]byte(read(t, dir, "memory/memory-meta.json")))
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Entries) != 3 {
		t.Fatalf("%d records: %+v", len(meta.Entries), meta.Entries)
	}
	// A date the entry mentions in the future is not when it was written:
	// without a source, the entry stays undated (its record says when it
	// was first seen, which its decay counts from); with one, it is dated
	// by its source.
	for _, r := range meta.Entries {
		if strings.Contains(r.Text, "reminder") && (!r.Created.IsZero() || r.FirstSeen.Format("2006-01-02") != "2026-11-21" || r.Tier != "hot") {
			t.Errorf("created %+v", r)
		}
	}
	if r := meta.ByID("mem_title"); r.RecallCount != 4 || r.File != "MEMORY.md" {
		t.Errorf("the title-only record was not matched: %+v", r)
	}
	for _, r := range meta.Entries {
		if strings.Contains(r.Text, "rotated") && r.Created.Format("2006-01-02") != "2026-10-09" {
			t.Errorf("created from the source: %+v", r)
		}
		if r.Created.After(at("2026-11-21T08:00:00Z")()) {
			t.Errorf("created in the future: %+v", r)
		}
	}
}
