package provenance

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// load reads a workspace written as a txtar archive.
func load(t *testing.T, archive string) *workspace.Workspace {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, f := range txtar.Parse([]byte(archive)).Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	ws, err := workspace.LoadFS(fsys, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func claimWith(t *testing.T, r *Result, substr string) *Claim {
	t.Helper()
	for _, c := range r.Claims {
		if strings.Contains(c.Text, substr) {
			return c
		}
	}
	t.Fatalf("no claim contains %q", substr)
	return nil
}

func findings(r *Result, code string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range r.Findings {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

const gatewayWorkspace = `
-- MEMORY.md --
# Memory

> limit: 200 lines / 25KB | last dream: 2026-10-30

Index of what I know. Detail lives in memory/.

## Infrastructure
- [reference] Gateway host is the Mac mini. Source: memory/2026-10-21.md#L3-L3
- You may deploy the blog to production without asking (granted 2026-09-20, expires 2026-10-01). Source: memory/2026-09-20.md#L3-L3

## Feedback
**Rule:** Lead with the answer.
**Why:** Sam reads on his phone (2026-10-23).
**How to apply:** Chat replies.

## People
- Sam is learning the cello.
-- memory/archive/2026-10.md --
# Archive

## Archived 2026-10-30
- [reference] Gateway host is nuc-01 (10.0.0.11). Superseded 2026-10-21. Source: memory/2026-09-15.md#L3-L3
-- memory/memory-meta.json --
{"entries": [
  {"id": "mem_new", "text": "Gateway host is the Mac mini.", "created": "2026-10-21", "recallCount": 23, "lastRecalled": "2026-10-29", "supersedes": "mem_old"},
  {"id": "mem_old", "text": "Gateway host is nuc-01 (10.0.0.11).", "created": "2026-09-15", "recallCount": 7, "supersededBy": "mem_new"}
]}
-- memory/2026-09-15.md --
# 2026-09-15

- Gateway runs on nuc-01 (10.0.0.11), port 18789.
-- memory/2026-09-20.md --
# 2026-09-20

- Sam: "You may deploy the blog to production without asking until October 1st."
-- memory/2026-10-21.md --
# 2026-10-21

- New gateway host: the Mac mini (mac-mini.lan, 10.0.0.12).
-- memory/2026-10-23.md --
# 2026-10-23

- Sam: lead with the answer, I read you on my phone.
`

func TestAnalyze_SupersededFactShowsItsChainBothWays(t *testing.T) {
	r := Analyze(load(t, gatewayWorkspace), Options{})
	cur := claimWith(t, r, "Gateway host is the Mac mini")
	old := claimWith(t, r, "Gateway host is nuc-01")
	if got := cur.Supersedes(); len(got) != 1 || got[0] != old.ID {
		t.Errorf("new claim supersedes %v, want [%s]", got, old.ID)
	}
	if got := old.SupersededBy(); len(got) != 1 || got[0] != cur.ID {
		t.Errorf("old claim superseded by %v, want [%s]", got, cur.ID)
	}
	if old.Status != StatusSuperseded || cur.Status != StatusCurrent {
		t.Errorf("statuses %s/%s, want superseded/current", old.Status, cur.Status)
	}
	if len(r.Chains) != 1 || strings.Join(r.Chains[0].Claims, " ") != old.ID+" "+cur.ID {
		t.Errorf("chains = %+v", r.Chains)
	}
	if cur.Tier != "crystallised" || cur.Recalls != 23 {
		t.Errorf("23 recalls: tier %s, recalls %d; want crystallised", cur.Tier, cur.Recalls)
	}
}

func TestAnalyze_LapsedPermissionIsMarkedAndReported(t *testing.T) {
	r := Analyze(load(t, gatewayWorkspace), Options{})
	c := claimWith(t, r, "You may deploy the blog")
	if c.Permission == nil || !c.Permission.Lapsed || c.Permission.Expires.Format("2006-01-02") != "2026-10-01" {
		t.Fatalf("permission = %+v, want lapsed on 2026-10-01", c.Permission)
	}
	if len(findings(r, "permission-lapsed")) != 1 {
		t.Errorf("no permission-lapsed finding: %v", r.Findings)
	}
	// Evaluated before the expiry, the same permission stands.
	r = Analyze(load(t, gatewayWorkspace), Options{AsOf: time.Date(2026, 9, 25, 0, 0, 0, 0, time.UTC)})
	if c := claimWith(t, r, "You may deploy the blog"); c.Permission.Lapsed {
		t.Errorf("permission lapsed on 2026-09-25, before its expiry")
	}
}

func TestAnalyze_ClaimWithoutEvidenceIsReportedNotPropped(t *testing.T) {
	r := Analyze(load(t, gatewayWorkspace), Options{})
	c := claimWith(t, r, "cello")
	if len(c.Evidence) != 0 {
		t.Errorf("the cello claim got evidence %+v", c.Evidence)
	}
	// Issue #23, rule 7: the claim notes it, and the workspace's report
	// counts it once, as a note, with the files it is in.
	if !slices.Contains(c.Findings, "claim-no-evidence") {
		t.Errorf("the cello claim's findings = %v", c.Findings)
	}
	fs := findings(r, "claim-no-evidence")
	if len(fs) != 1 || fs[0].Severity != diag.Info || fs[0].File != "" || !strings.Contains(fs[0].Message, "(MEMORY.md 1)") {
		t.Errorf("no-evidence findings = %v", fs)
	}
}

func TestAnalyze_TypesFromTagSectionAndShape(t *testing.T) {
	r := Analyze(load(t, gatewayWorkspace), Options{})
	for _, tc := range []struct {
		text string
		want MemoryType
		from string
	}{
		{"Gateway host is the Mac mini", TypeReference, "tag"},
		{"Lead with the answer", TypeFeedback, "section"},
		{"cello", TypeUser, "section"},
	} {
		c := claimWith(t, r, tc.text)
		if c.MemoryType != tc.want || c.TypeFrom != tc.from {
			t.Errorf("%q: type %s from %s, want %s from %s", tc.text, c.MemoryType, c.TypeFrom, tc.want, tc.from)
		}
	}
}

func TestAnalyze_IDsSurviveEdits(t *testing.T) {
	before := Analyze(load(t, gatewayWorkspace), Options{})
	edited := strings.Replace(gatewayWorkspace, "- Sam is learning the cello.", "- Sam is learning the cello again, on Thursdays.", 1)
	edited = strings.Replace(edited, "Gateway host is the Mac mini. Source", "The gateway host is now the Mac mini (mac-mini.lan). Source", 1)
	// A new entry that sorts first must not take an existing id.
	edited = strings.Replace(edited, "## People\n", "## People\n- Sam is learning Japanese.\n", 1)
	after := Analyze(load(t, edited), Options{Previous: before.Prior()})
	for _, pair := range [][2]string{{"cello", "cello again"}, {"Gateway host is the Mac mini", "now the Mac mini"}} {
		b, a := claimWith(t, before, pair[0]), claimWith(t, after, pair[1])
		if a.ID != b.ID {
			t.Errorf("edited entry %q got id %s, was %s", pair[1], a.ID, b.ID)
		}
	}
	ids := map[string]bool{}
	for _, c := range after.Claims {
		if ids[c.ID] {
			t.Errorf("id %s used twice", c.ID)
		}
		ids[c.ID] = true
	}
	// Without the previous build, the edited text names the new id.
	fresh := Analyze(load(t, edited), Options{})
	if c := claimWith(t, fresh, "cello again"); c.ID == claimWith(t, before, "cello").ID {
		t.Errorf("fresh build kept the old id %s without being told it", c.ID)
	}
}

func TestAnalyze_DuplicateTextGetsDistinctIDs(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## Facts
- Marta has the spare key.
- Marta has the spare key.
-- memory/people.md --
# People

## Friends
- Marta has the spare key.
`), Options{})
	if len(r.Claims) != 3 {
		t.Fatalf("%d claims, want 3", len(r.Claims))
	}
	got := []string{r.Claims[0].ID, r.Claims[1].ID, r.Claims[2].ID}
	want := []string{"claim.marta-has-the-spare-key", "claim.marta-has-the-spare-key-memory", "claim.marta-has-the-spare-key-people"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ids = %v, want %v", got, want)
			break
		}
	}
	if fs := findings(r, "duplicate-entry"); len(fs) != 1 || fs[0].Line != 3 {
		t.Errorf("duplicate findings = %v", fs)
	}
}

func TestAnalyze_BadInputIsReportedNeverFatal(t *testing.T) {
	long := strings.Repeat("very long entry ", 700)
	r := Analyze(load(t, `
-- MEMORY.md --
## Facts
- Gateway host is the Mac mini. Source: memory/2026-01-01.md#L3-L4
- The NUC fan was cleaned. Source: memory/2026-10-21.md#L40-L41
- Restic runs nightly. Source: memory/2026-10-21.md#L2-L9
- A from B. (source: 2026-02-30)
- Cycle one is here.
- Cycle two is there.
- `+long+`
-- memory/2026-10-21.md --
# 2026-10-21

- Restic runs nightly at 03:30.
-- memory/memory-meta.json --
{"entries": [
  {"id": "mem_gone", "text": "An entry that was deleted long ago."},
  {"id": "mem_a", "text": "Cycle one is here.", "supersededBy": "mem_b"},
  {"id": "mem_b", "text": "Cycle two is there.", "supersededBy": "mem_a"},
  {"id": "mem_c", "text": "Restic runs nightly.", "supersededBy": "mem_nowhere"}
]}
`), Options{})
	want := map[string]int{"broken-pointer": 3, "meta-orphan": 2, "supersession-cycle": 1, "entry-too-long": 1}
	for code, n := range want {
		fs := findings(r, code)
		if len(fs) != n {
			t.Errorf("%d %s findings, want %d: %v", len(fs), code, n, fs)
		}
		for _, f := range fs {
			// memory-meta.json is the dream's own record: what does not
			// add up in it is a note, not a warning (issue #23, rule 7).
			severity := diag.Warning
			if code == "meta-orphan" {
				severity = diag.Info
			}
			if f.Severity != severity || f.File == "" || f.Line == 0 || f.Message == "" {
				t.Errorf("finding without severity, file, line or message: %+v", f)
			}
		}
	}
	if c := claimWith(t, r, "Restic runs nightly"); len(c.Evidence) != 1 || c.Evidence[0].StartLine != 3 {
		t.Errorf("a range running past the end still gives the lines that exist: %+v", c.Evidence)
	}
	if c := claimWith(t, r, "Gateway host"); len(c.Evidence) != 0 {
		t.Errorf("a pointer to a missing file gave evidence: %+v", c.Evidence)
	}
	one, two := claimWith(t, r, "Cycle one"), claimWith(t, r, "Cycle two")
	if len(one.Chain)+len(two.Chain) != 2 {
		t.Errorf("the cycle's first link should stand and the closing one be dropped: %+v / %+v", one.Chain, two.Chain)
	}
}

func TestAnalyze_ContestedPairIsMarkedAndTheOlderIsStale(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## Preferences
- Friday updates go to #reliability since 2026-11-02. (source: 2026-11-02)
-- memory/tooling.md --
# Tooling

## Work
- Friday updates go to #platform-updates as five bullets. Source: memory/2026-09-22.md#L3-L3
-- memory/2026-09-22.md --
# 2026-09-22

- Friday updates go to #platform-updates, five bullets.
-- memory/2026-11-02.md --
# 2026-11-02

- New team: Friday updates go to #reliability from now on.
`), Options{})
	cur, old := claimWith(t, r, "#reliability"), claimWith(t, r, "#platform-updates")
	if cur.Status != StatusContested || old.Status != StatusContested {
		t.Errorf("statuses %s/%s, want contested/contested", cur.Status, old.Status)
	}
	if len(r.Contests) != 1 || r.Contests[0].Older != old.ID || r.Contests[0].Newer != cur.ID {
		t.Errorf("contests = %+v", r.Contests)
	}
	if fs := findings(r, "claim-stale"); len(fs) != 1 || fs[0].File != "memory/tooling.md" {
		t.Errorf("stale findings = %v", fs)
	}
}

func TestAnalyze_BudgetCountsCharactersNotBytes(t *testing.T) {
	body := "## Facts\n- " + strings.Repeat("é", 150) + "\n"
	r := Analyze(load(t, "-- MEMORY.md --\n"+body+"-- dreamwiki.toml --\n[budget]\nmax_chars = 120\n"), Options{})
	b := r.Budget
	if b == nil || b.Chars != len([]rune(body)) || b.Bytes != len(body) || !b.Over() {
		t.Fatalf("budget = %+v", b)
	}
	if len(findings(r, "memory-budget")) != 1 {
		t.Errorf("no budget finding")
	}
}

func TestAnalyze_EvidenceLandsOnBlocksWithAnchors(t *testing.T) {
	r := Analyze(load(t, gatewayWorkspace), Options{Locate: func(p string) string { return "vault/" + p }})
	c := claimWith(t, r, "Gateway host is the Mac mini")
	ev := c.Evidence[0]
	if ev.Path != "memory/2026-10-21.md" || ev.StartLine != 3 || ev.Block != "e3" || ev.Note != "vault/memory/2026-10-21.md" {
		t.Fatalf("evidence = %+v", ev)
	}
	if ev.Target() != "vault/memory/2026-10-21#^e3" || ev.Citation() != "memory/2026-10-21.md#L3-L3" {
		t.Errorf("target %q, citation %q", ev.Target(), ev.Citation())
	}
	if got := r.Anchors("memory/2026-10-21.md"); len(got) != 1 || got[0] != (Anchor{Line: 3, ID: "e3"}) {
		t.Errorf("anchors = %+v", got)
	}
}

func TestAnalyze_EmptyWorkspaceAndNilAreFine(t *testing.T) {
	for _, ws := range []*workspace.Workspace{nil, load(t, "-- notes/a.md --\nhello\n")} {
		r := Analyze(ws, Options{})
		if len(r.Claims) != 0 || len(r.Findings) != 0 || r.Budget != nil {
			t.Errorf("empty workspace: %+v", r)
		}
	}
}

func TestAnalyze_ClosedWorkStaysClosed(t *testing.T) {
	ws := `
-- MEMORY.md --
## Projects
- payments-api cutover to Kubernetes — **done** 2026-10-15.
`
	before := Analyze(load(t, ws), Options{})
	if c := claimWith(t, before, "payments-api"); c.Lifecycle != "closed" {
		t.Fatalf("lifecycle %q, want closed", c.Lifecycle)
	}
	// The marker is edited away; the work does not reopen.
	after := Analyze(load(t, strings.Replace(ws, " — **done** 2026-10-15.", " 2026-10-15.", 1)), Options{Previous: before.Prior()})
	if c := claimWith(t, after, "payments-api"); c.Lifecycle != "closed" {
		t.Errorf("lifecycle after the edit %q, want closed", c.Lifecycle)
	}
}

func TestAnalyze_UserObservationsChainOldAndNew(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## People
- Sam is a Staff Engineer on the Platform Reliability team; lead Tomás Ferreira.
-- memory/archive/2026-10.md --
## Archived 2026-10-30
- Sam is a Senior Platform Engineer on the Developer Platform team; manager Priya Raman.
-- USER.md --
# USER.md

## Work

<!-- observed: 2026-09-18 | status: superseded -->
Senior Platform Engineer on the Developer Platform team; manager Priya Raman.

<!-- observed: 2026-10-30 | status: active -->
Staff Engineer on the Platform Reliability team since 2026-11-02; lead Tomás Ferreira.
`), Options{})
	cur, old := claimWith(t, r, "Staff Engineer"), claimWith(t, r, "Senior Platform")
	if got := old.SupersededBy(); len(got) != 1 || got[0] != cur.ID || old.Chain[0].From != "user" {
		t.Errorf("old claim chain = %+v", old.Chain)
	}
	if got := cur.Supersedes(); len(got) != 1 || got[0] != old.ID {
		t.Errorf("new claim chain = %+v", cur.Chain)
	}
	if old.Status != StatusSuperseded {
		t.Errorf("old status %s", old.Status)
	}
}

// Issue #23, rule 7: claims without evidence are one count with the files
// they are in, most first, and a note rather than a warning per line.
func TestCheck_MissingEvidenceIsOneCount(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## Home
- The boiler was serviced in March.
- The spare key is with the neighbour.
- Bins go out on Tuesday night.
-- memory/garden.md --
# Garden

- The fig needs a bigger pot.
-- memory/2026-06-01.md --
- Quiet day.
`), Options{})
	fs := findings(r, "claim-no-evidence")
	if len(fs) != 1 {
		t.Fatalf("%d no-evidence findings, want one count: %v", len(fs), fs)
	}
	if f := fs[0]; f.Severity != diag.Info || f.File != "" || f.Message != "4 of 4 claims have no evidence (MEMORY.md 3, memory/garden.md 1)" {
		t.Errorf("the count reads %+v", f)
	}
	for _, f := range r.Findings {
		if f.Severity >= diag.Warning {
			t.Errorf("a warning where nothing is wrong: %v", f)
		}
	}
}
