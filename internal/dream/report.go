package dream

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// WriteText prints the plan for a person: gates, inputs, every action with
// its reason and scores, what was skipped and why, the secret guard's
// findings, MEMORY.md's size against its budget, and the files that change.
func (pl *Plan) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	where := pl.Workspace
	if where == "" {
		where = "(in memory)"
	}
	p("dream plan for %s at %s", where, pl.Now.Format("2006-01-02 15:04 MST"))
	p("gates:")
	for _, g := range pl.Gates {
		state := "ok"
		switch {
		case !g.Passed && g.Forced:
			state = "forced"
		case !g.Passed:
			state = "held"
		}
		p("  %-8s %-6s %s", g.Name, state, g.Detail)
	}
	if !pl.Ready {
		p("  → the dream would not run now; --force skips the time and session gates")
	}
	switch n := len(pl.Inputs); {
	case n == 0:
		p("inputs: none new since %s", orDash(pl.Watermark))
	default:
		var size int64
		for _, in := range pl.Inputs {
			size += in.Bytes
		}
		p("inputs: %d logs (%s … %s), %s; consolidated through %s", n, pl.Inputs[0].Date, pl.Inputs[n-1].Date, kib(size), pl.Through)
		for _, in := range pl.Inputs {
			p("  %s  %s", in.Path, in.Reason)
		}
	}
	if n := len(pl.Deferred); n > 0 {
		p("deferred: %d logs (%s … %s): %s", n, pl.Deferred[0].Date, pl.Deferred[n-1].Date, pl.Deferred[0].Reason)
	}
	for _, n := range pl.Notes {
		p("note: %s", n)
	}
	if len(pl.Actions) > 0 {
		p("actions:")
		for _, a := range pl.Actions {
			p("  %-10s %s", a.Kind, a.File)
			if a.Old != "" {
				p("             was: %s", a.Old)
			}
			if a.Text != "" {
				p("             %s", a.Text)
			}
			p("             why: %s", a.Reason)
			if s := a.Scores; s != nil && s.Promotion != nil {
				ps := s.Promotion
				p("             promotion %.3f (relevance %.2f, frequency %.2f, diversity %.2f, recency %.2f, consolidation %.2f, concepts %.2f)%s",
					ps.Score, ps.Relevance, ps.Frequency, ps.Diversity, ps.Recency, ps.Consolidation, ps.Conceptual, gateNote(ps))
			}
			if s := a.Scores; s != nil && s.Decay != nil {
				d := s.Decay
				p("             decay %.3f %s (base %.3f + recalls %.2f + recency %.2f)", d.Score, d.Tier, d.Base, d.Recall, d.Recency)
			}
		}
	}
	if len(pl.Proposals) > 0 {
		// The ids are what `dream --choose` takes; without them here a
		// person would have to read them out of the diary's diff or JSON.
		p("proposals (written only when chosen: dreamwiki dream --choose ID,ID):")
		for _, pr := range pl.Proposals {
			p("  %s  score %.2f  %s", pr.ID, pr.Score, redact(shorten(oneLine(pr.Text), 160)))
			from := "from " + strings.Join(pr.Source, ", ")
			if len(pr.Cues) > 0 {
				from += "; " + strings.Join(pr.Cues, "; ")
			}
			p("              %s", from)
		}
	}
	if len(pl.Skipped) > 0 {
		p("skipped:")
		for _, s := range pl.Skipped {
			p("  %s:%d  %s — %s", s.File, s.Line, s.Text, s.Reason)
		}
	}
	if len(pl.Secrets) > 0 {
		p("secret guard:")
		for _, s := range pl.Secrets {
			p("  %s:%d  %s — %s", s.File, s.Line, s.Kind, s.Action)
		}
	}
	m := pl.Memory
	p("MEMORY.md: %s → %s chars (%d → %d lines), target %s", thousands(m.Before.Chars), thousands(m.After.Chars), m.Before.Lines, m.After.Lines, m.Budget)
	if len(pl.Files) == 0 {
		p("files: nothing would change")
	} else {
		p("files:")
		for _, f := range pl.Files {
			p("  %-6s %s", f.Change, f.Path)
		}
	}
	for _, d := range pl.Diagnostics {
		p("%s: %s", d.Severity, d.Error())
	}
	p("summary: %s", pl.Summary)
}

func gateNote(ps *PromotionScores) string {
	if ps.Promote {
		return ", gates passed"
	}
	return "; " + strings.Join(ps.Failed, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "the start"
	}
	return s
}

// WriteText prints what a dream did.
func (r *Result) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	if r.StaleLock != nil {
		p("%s", r.StaleLock.Reason)
	}
	if r.Recovered != nil {
		r.Recovered.WriteText(w)
	}
	pl := r.Plan
	if pl == nil {
		return
	}
	if !r.Applied {
		var held []string
		for _, g := range pl.Gates {
			if !g.Passed && !g.Forced {
				held = append(held, g.Name+": "+g.Detail)
			}
		}
		p("no dream: %s; --force runs it anyway", strings.Join(held, "; "))
		return
	}
	p("dreamed: %s", pl.Summary)
	if pl.Through != "" {
		p("  consolidated through %s (%d logs read, %d deferred)", pl.Through, len(pl.Inputs), len(pl.Deferred))
	}
	m := pl.Memory
	p("  MEMORY.md %s → %s chars (%d → %d lines), target %s", thousands(m.Before.Chars), thousands(m.After.Chars), m.Before.Lines, m.After.Lines, m.Budget)
	for _, f := range pl.Files {
		p("  %-6s %s", f.Change, f.Path)
	}
	if r.Backup != "" {
		p("  backups in %s", r.Backup)
	}
	for _, s := range pl.Secrets {
		p("  secret guard: %s:%d %s — %s", s.File, s.Line, s.Kind, s.Action)
	}
	for _, d := range pl.Diagnostics {
		p("  %s: %s", d.Severity, d.Error())
	}
}

// WriteText prints what a recovery put back and what it left alone.
func (r *Recovery) WriteText(w io.Writer) {
	fmt.Fprintf(w, "put back %d %s an interrupted dream (%s) was writing", len(r.Restored), plural(len(r.Restored), "file", "files"), r.Run)
	if len(r.Restored) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(r.Restored, ", "))
	}
	fmt.Fprintln(w)
	for _, c := range r.Kept {
		fmt.Fprintf(w, "  %s\n", c)
	}
}

// WriteText prints the tier table: entries per tier, then one line per
// entry (lowest score first).
func (r *DecayResult) WriteText(w io.Writer, now time.Time) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("decay at %s: %d entries, %d changed tier", now.Format("2006-01-02 15:04 MST"), len(r.Rows), r.Changed)
	for _, t := range []memory.Tier{memory.TierHot, memory.TierWarm, memory.TierCold, memory.TierCrystallised, memory.TierArchived} {
		p("  %-13s %d", t, r.Tiers[t])
	}
	if r.Untracked > 0 {
		p("  (%d entries have no record yet; the next dream adds them)", r.Untracked)
	}
	if len(r.Rows) == 0 {
		return
	}
	p("")
	p("%-14s %-13s %6s %7s %-10s %s", "ID", "TIER", "SCORE", "RECALLS", "CREATED", "TEXT")
	rows := append([]memory.TierRow(nil), r.Rows...)
	// Stable order: lowest score first, then by id, so what is about to
	// fade is on top.
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && (rows[j].Score < rows[j-1].Score || rows[j].Score == rows[j-1].Score && rows[j].ID < rows[j-1].ID); j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	for _, row := range rows {
		tier := string(row.Tier)
		if string(row.Was) != tier {
			tier += "*"
		}
		created := "—"
		if !row.Created.IsZero() {
			created = row.Created.Format(time.DateOnly)
		}
		p("%-14s %-13s %6.3f %7d %-10s %s", row.ID, tier, row.Score, row.Recalls, created, shorten(strings.ReplaceAll(row.Text, "\n", " "), 60))
	}
	if r.Changed > 0 {
		p("* tier changed")
	}
	if r.Tiers[memory.TierArchived] > 0 {
		p("%d archived entries move to memory/archive/ at the next dream", r.Tiers[memory.TierArchived])
	}
}
