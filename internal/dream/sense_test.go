package dream

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

func TestAbsoluteDates(t *testing.T) {
	// The log is dated Friday 2026-11-20 (ISO week: Monday 11-16).
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	tests := []struct{ in, want string }{
		{"Sam wants it under 1,000 words by tomorrow.", "Sam wants it under 1,000 words by 2026-11-21."},
		{"Deployed yesterday, checked today.", "Deployed on 2026-11-19, checked on 2026-11-20."},
		{"Tomorrow at 09:00: dentist.", "On 2026-11-21 at 09:00: dentist."},
		{"Cutover tonight.", "Cutover on the evening of 2026-11-20."},
		{"Paged last night at 23:10.", "Paged on the evening of 2026-11-19 at 23:10."},
		{"Next week: SLO dashboard draft.", "In the week of 2026-11-23: SLO dashboard draft."},
		{"Shipped last week.", "Shipped in the week of 2026-11-09."},
		{"Ask Sam next Monday about Restic.", "Ask Sam on 2026-11-23 about Restic."},
		{"Ask again next Friday.", "Ask again on 2026-11-27."},
		{"It broke last Friday.", "It broke on 2026-11-13."},
		{"Review this Wednesday.", "Review on 2026-11-18."},
		{"Demo the coming Monday.", "Demo the on 2026-11-23."},
		{"Renewal due in 3 days.", "Renewal due on 2026-11-23."},
		{"Rotated two weeks ago.", "Rotated on 2026-11-06."},
		{"Budget closes next month; started last year.", "Budget closes in 2026-12; started in 2025."},
		{"The day after tomorrow is the cutover.", "On 2026-11-22 is the cutover."},
		{"Until tomorrow you may deploy.", "Until 2026-11-21 you may deploy."},
		{"Flights: 11-06 → 11-14, arrive 11-07 09:10.", "Flights: 2026-11-06 → 2026-11-14, arrive 2026-11-07 09:10."},
		{"Deadline 01-15 next year.", "Deadline 2027-01-15 in 2027."},
		{"昨天部署了，明天复查。", "2026-11-19部署了，2026-11-21复查。"},
		{"今天张伟：下周一开会，上周完成了。", "2026-11-20张伟：2026-11-23开会，2026-11-09 当周完成了。"},
		{"上个月的账单，去年的合同。", "2026-10的账单，2025年的合同。"},
		{"来週の月曜日にレビュー、昨日は休み。", "2026-11-23にレビュー、2026-11-19は休み。"},
		// Left alone: code, URLs, full dates, ids, times.
		{"Run `deploy --since yesterday` on 2026-11-19.", "Run `deploy --since yesterday` on 2026-11-19."},
		{"See https://example.org/today/tomorrow for PM-2026-031 at 10:30.", "See https://example.org/today/tomorrow for PM-2026-031 at 10:30."},
		{"4/14 migrated; version 1.2-3.", "4/14 migrated; version 1.2-3."},
	}
	for _, tt := range tests {
		got, changed := absoluteDates(tt.in, day)
		if got != tt.want {
			t.Errorf("absoluteDates(%q)\n got  %q\n want %q", tt.in, got, tt.want)
		}
		if changed != (tt.in != tt.want) {
			t.Errorf("absoluteDates(%q) changed = %v", tt.in, changed)
		}
	}
	// A leap day resolves in the leap year nearest the log, though the
	// year before it has none (dates.ResolveYearless).
	if got, _ := absoluteDates("Party on 02-29.", time.Date(2028, 3, 3, 0, 0, 0, 0, time.UTC)); got != "Party on 2028-02-29." {
		t.Errorf("absoluteDates(02-29 in a log of 2028-03-03) = %q, want 2028-02-29", got)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Don't @ Sam in the guild; DM him instead.", TypeFeedback},
		{"Sam on the summary: fewer words next time.", TypeFeedback},
		{"fx-rates cutover done 21:31, 4/14 migrated.", TypeProject},
		{"Deadline for the SLO dashboard is 2026-12-18.", TypeProject},
		{"Argo CD for staging: https://argocd.staging.example", TypeReference},
		{"`E_AUTH_4031` means the deploy token expired.", TypeReference},
		{"Sam prefers aisle seats and loves Kyoto in autumn.", TypeUser},
		{"Aiko's birthday is 03-14; her parents live in Kyoto.", TypeUser},
		{"Batch alerts for 08:00; feedback from Sam.", TypeFeedback},
		{"Something happened.", TypeProject},
	}
	for _, tt := range tests {
		if got := classify(tt.text, "", nil, false); got != tt.want {
			t.Errorf("classify(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
	if got := classify("x", "Preference", nil, false); got != TypeUser {
		t.Errorf("explicit tag: %s", got)
	}
	if got := classify("x", "", []string{"type/feedback"}, false); got != TypeFeedback {
		t.Errorf("tag: %s", got)
	}
}

// logs writes n daily logs, one per day from start, each of size bytes.
func logs(start time.Time, n, lines int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		d := start.AddDate(0, 0, i)
		fmt.Fprintf(&b, "-- memory/%s.md --\n# %s\n\n", d.Format(time.DateOnly), d.Format(time.DateOnly))
		for l := 0; l < lines; l++ {
			fmt.Fprintf(&b, "- Fact %d of day %d about the homelab rack and its cabling plan.\n", l, i)
		}
	}
	return b.String()
}

func TestDream_BatchLimitCutsOnDateBoundariesOldestFirst(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	src := "-- memory/dream-log.md --\n# Dream log\n\n## 2025-12-31 07:00 — dream\n\nConsolidated through: 2025-12-31\n" + logs(start, 40, 2)
	// Two logs on one date must stay together: add a second 2026-02-01 log.
	src += "-- memory/2026-02-01-0810.md --\n# Session: 2026-02-01 08:10:37 UTC\n\n- A second log of the same date about the rack.\n"
	dir := workspaceFrom(t, src)
	pl, err := NewPlan(context.Background(), dir, Options{Now: at("2026-02-15T07:00:00Z"), Force: true})
	if err != nil {
		t.Fatal(err)
	}
	// The limit (32) counts days, not files (#23 rule 4): 2026-01-01 …
	// 2026-02-01 is 32 days and 33 logs, 2026-02-01's two together.
	if len(pl.Inputs) != 33 || pl.Inputs[0].Date != "2026-01-01" {
		t.Fatalf("inputs %d, first %s, through %s", len(pl.Inputs), pl.Inputs[0].Date, pl.Through)
	}
	if pl.Through != "2026-02-01" || len(pl.Deferred) != 8 || pl.Deferred[0].Date != "2026-02-02" {
		t.Errorf("through %s, deferred %d: %+v", pl.Through, len(pl.Deferred), pl.Deferred[:2])
	}

	// A single date over the byte cap is taken whole, and recorded.
	dir = workspaceFrom(t, logs(start, 3, 40))
	pl, err = NewPlan(context.Background(), dir, Options{Now: at("2026-02-15T07:00:00Z"), Force: true, Configure: func(c *workspace.Config) { c.Dream.MaxBytes = 1000 }})
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Inputs) != 1 || len(pl.Deferred) != 2 || len(pl.Notes) != 1 || !strings.Contains(pl.Notes[0], "2026-01-01 alone is 1 logs") {
		t.Errorf("oversized date: inputs %v deferred %d notes %v", pl.Inputs, len(pl.Deferred), pl.Notes)
	}
}

// TestDream_BatchLimitCountsDays: a busy day of many session logs is one
// day of the batch limit; before #23 a 32-log batch covered 2 such days.
func TestDream_BatchLimitCountsDays(t *testing.T) {
	var b strings.Builder
	for day := 1; day <= 3; day++ {
		for s := 0; s < 12; s++ {
			fmt.Fprintf(&b, "-- memory/2026-01-%02d-%02d00.md --\n# Session: 2026-01-%02d %02d:00:00 UTC\n\n- Session %d of day %d about the rack.\n", day, 8+s, day, 8+s, s, day)
		}
	}
	dir := workspaceFrom(t, b.String())
	pl, err := NewPlan(context.Background(), dir, Options{Now: at("2026-02-15T07:00:00Z"), Force: true, Configure: func(c *workspace.Config) { c.Dream.MaxLogs = 2 }})
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Inputs) != 24 || pl.Through != "2026-01-02" || len(pl.Deferred) != 12 || len(pl.Notes) != 0 {
		t.Errorf("inputs %d through %s deferred %d notes %v: want two days of 12 logs", len(pl.Inputs), pl.Through, len(pl.Deferred), pl.Notes)
	}
}

func TestDream_DreamsResumeFromTheWatermarkUntilEveryLogIsRead(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	dir := workspaceFrom(t, logs(start, 70, 1))
	seen := map[string]bool{}
	for run := 0; run < 5; run++ {
		res := dream(t, dir, fmt.Sprintf("2026-03-20T0%d:00:00Z", run))
		for _, in := range res.Plan.Inputs {
			if seen[in.Path] {
				t.Errorf("run %d read %s again", run, in.Path)
			}
			seen[in.Path] = true
		}
		if len(res.Plan.Inputs) == 0 {
			break
		}
	}
	if len(seen) != 70 {
		t.Errorf("read %d of 70 logs", len(seen))
	}
	// A log of the watermark's date that changes is read again.
	log := "memory/2026-03-11.md"
	p := dir + "/" + log
	if err := appendFile(p, "- A late addition about the rack cabling plan and the patch panel.\n"); err != nil {
		t.Fatal(err)
	}
	res := dream(t, dir, "2026-03-20T09:00:00Z")
	if len(res.Plan.Inputs) != 1 || res.Plan.Inputs[0].Path != log || res.Plan.Inputs[0].Reason != "changed since the last dream read it" {
		t.Errorf("inputs after a change: %+v", res.Plan.Inputs)
	}
}

func TestDream_ClosedWorkStaysClosed(t *testing.T) {
	dir := workspaceFrom(t, `
-- memory/projects.md --
# Projects

## Status
- payments-api cutover to Kubernetes — done 2026-10-15 (commit 7c1e4b9). Source: memory/2026-10-15.md#L3-L3
- TODO: move the NUC fan profile to silent mode. Source: memory/2026-10-10.md#L3-L3
-- memory/2026-10-20.md --
# 2026-10-20

- TODO: payments-api cutover to Kubernetes (prep the runbook).
- Set the NUC fan profile to silent mode — done.
`)
	res := dream(t, dir, "2026-10-25T07:00:00Z")
	got := read(t, dir, "memory/projects.md")
	if strings.Contains(got, "prep the runbook") {
		t.Errorf("closed work came back as a TODO:\n%s", got)
	}
	if !strings.Contains(got, "TODO: move the NUC fan profile to silent mode. (done 2026-10-20) Source: memory/2026-10-10.md#L3-L3, memory/2026-10-20.md#L4-L4") {
		t.Errorf("open item not closed:\n%s", got)
	}
	found := false
	for _, s := range res.Plan.Skipped {
		found = found || strings.Contains(s.Reason, "closed work stays closed: memory/projects.md:4")
	}
	if !found {
		t.Errorf("no skip for the reopened work: %+v", res.Plan.Skipped)
	}
}

func TestDream_TopicRouting(t *testing.T) {
	dir := workspaceFrom(t, `
-- memory/kubernetes-migration.md --
# Kubernetes migration

- 14 services move from Nomad to EKS; Karpenter for nodes, Argo CD for deploys. Source: memory/2026-09-17.md#L3-L3
- ledger-worker cutover done with a Helm chart from the library. Source: memory/2026-10-30.md#L3-L3
-- memory/gateway.md --
# Gateway

- The OpenClaw gateway runs as a launchd service on the Mac mini. Source: memory/2026-10-21.md#L4-L4
-- memory/2026-11-02.md --
# 2026-11-02

- Decided: the notifications service migration to EKS goes next; Argo CD syncs it and Karpenter scales its nodes.
- Decision: the new Kubernetes ingress gateway for payments runs beside the old one. [[gateway]]
- Decided: the Kubernetes book club starts Thursday with chapter one about the history of containers.
- Sourdough starter fed at 7; the loaf needs four hours of proofing.
- Sourdough loaf came out flat; more proofing next time, the starter was cold.
- Sourdough: a warmer spot for the starter worked, the loaf rose well.
`)
	res := dream(t, dir, "2026-11-05T07:00:00Z")
	k8s := read(t, dir, "memory/kubernetes-migration.md")
	gw := read(t, dir, "memory/gateway.md")
	if !strings.Contains(k8s, "the notifications service migration to EKS goes next") {
		t.Errorf("a fact naming the topic and sharing its words was not routed to it:\n%s", k8s)
	}
	if !strings.Contains(gw, "the new Kubernetes ingress gateway for payments") {
		t.Errorf("an explicit link routes first:\n%s", gw)
	}
	// A line sharing only the topic's name is about something else: the
	// index keeps it.
	if strings.Contains(k8s, "book club") || !strings.Contains(read(t, dir, "MEMORY.md"), "the Kubernetes book club starts") {
		t.Errorf("a line sharing only the topic's name was routed to it:\n%s\n%s", k8s, read(t, dir, "MEMORY.md"))
	}
	// Notes of one day that share a word make no topic file: they state no
	// decision, preference or rule and stay in the log.
	if _, err := os.Stat(filepath.Join(dir, "memory", "sourdough.md")); err == nil {
		t.Errorf("a topic file was started for a shared word:\n%s", read(t, dir, "memory/sourdough.md"))
	}
	n := 0
	for _, s := range res.Plan.Skipped {
		if strings.Contains(s.Text, "Sourdough") && strings.Contains(s.Reason, "not durable") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("skipped %+v", res.Plan.Skipped)
	}
}

func TestDream_PermissionsGetAnExpiry(t *testing.T) {
	dir := workspaceFrom(t, `
-- memory/blog.md --
# Blog

- The blog deploys to Netlify with hugo --minify from the repo root.
- Renovate opens dependency updates for the blog repo; Netlify builds each one.
-- memory/2026-11-02.md --
# 2026-11-02

- You may deploy the blog to Netlify without asking until Friday.
- You may merge Renovate updates for the Netlify blog build without asking.
-- memory/2026-10-01.md --
# 2026-10-01

- Approved to deploy the blog to Netlify on 2026-10-01 only.
`)
	dream(t, dir, "2026-11-05T07:00:00Z")
	got := read(t, dir, "memory/blog.md")
	for _, want := range []string{
		"You may deploy the blog to Netlify without asking until Friday (2026-11-02). Source:",
		"You may merge Renovate updates for the Netlify blog build without asking (2026-11-02). (permission lapsed 2026-11-02) Source:",
		"Approved to deploy the blog to Netlify on 2026-10-01 only. (permission lapsed 2026-10-01) Source:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestDream_FeedbackWithAReasonIsWrittenAsRuleWhyHow(t *testing.T) {
	dir := workspaceFrom(t, `
-- memory/writing-style.md --
# Writing style

## Feedback
- Summaries are bullets, five at most, for Sam's phone.
-- memory/2026-11-02.md --
# 2026-11-02

- Sam: don't send summaries as paragraphs because he reads them on his phone between meetings. How to apply: bullets for every summary.
`)
	dream(t, dir, "2026-11-05T07:00:00Z")
	got := read(t, dir, "memory/writing-style.md")
	// One list item, so it extends the section's list (a block of bold
	// lines would break it), and the workspace reads it back as Rule/Why.
	want := "- Summaries are bullets, five at most, for Sam's phone.\n- **Rule:** Sam: don't send summaries as paragraphs (2026-11-02). **Why:** he reads them on his phone between meetings. **How to apply:** bullets for every summary. Source: memory/2026-11-02.md#L3-L3\n"
	if !strings.Contains(got, want) {
		t.Errorf("got\n%s", got)
	}
	ws := load(t, dir)
	var e *workspace.Entry
	for _, x := range ws.Topics[0].Entries() {
		if x.Rule != "" {
			e = x
		}
	}
	if e == nil || e.Why != "he reads them on his phone between meetings" {
		t.Errorf("the workspace does not read it back as Rule/Why/How: %+v", e)
	}
}
