package dream

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// State files a dream updates besides the Markdown.
const (
	metaPath      = "memory/memory-meta.json"
	recallPath    = "memory/.dreams/short-term-recall.json"
	eventsPath    = "memory/.dreams/events.jsonl"
	heartbeatPath = "memory/heartbeat-state.json"
	dreamLogPath  = "memory/dream-log.md"
)

// loadMeta reads memory-meta.json for editing. A file that cannot be read
// is reported and left alone: decay then runs on the entries' own dates.
func (p *planner) loadMeta() {
	f := p.ws.FileByPath(metaPath)
	if f == nil {
		p.meta = memory.NewMetaDoc()
		return
	}
	raw := p.rawOf(metaPath, f.Content)
	doc, err := memory.ParseMetaDoc(raw)
	if err != nil {
		p.warn(metaPath, "memory-meta.json cannot be read (%v); decay used the entries' own dates and the file is left alone", err)
		return
	}
	p.meta = doc
	p.before[metaPath] = fileState{hash: f.Hash, data: raw}
}

// rawOf is a file's bytes on disk, or its content when there is no disk.
func (p *planner) rawOf(path, content string) []byte {
	if p.root != "" {
		if b, err := readWorkspaceFile(p.root, path); err == nil {
			return b
		}
	}
	return []byte(content)
}

// metaForPlacements gives every new line its memory-meta.json record and
// links supersession chains both ways (DESIGN 5.4).
func (p *planner) metaForPlacements() {
	if p.meta == nil {
		return
	}
	for _, pl := range p.mem.placements {
		if pl.dropped || pl.cur == nil {
			continue
		}
		c := pl.c
		r := p.meta.Add(c.entryText())
		r.Created = c.evidence[0].Date
		r.Type = c.typ
		r.File = pl.doc.path
		switch {
		case pl.sec != nil:
			r.Section = pl.sec.heading
		case pl.replaceU != nil:
			r.Section = pl.replaceU.sec.heading
		case pl.afterU != nil:
			r.Section = pl.afterU.sec.heading
		}
		r.Structural = pl.cur.structural
		res := memory.Evaluate(memory.Input{Created: r.Created, Structural: r.Structural}, p.now, memory.DefaultParams())
		r.Tier, r.Score = string(res.Tier), res.Score
		pl.cur.meta = r
	}
	for _, o := range p.mem.curated {
		if o.supersededBy == nil || o.meta == nil {
			continue
		}
		var next *memory.MetaRecord
		for _, f := range p.mem.fresh[o.supersededBy] {
			if f.meta != nil && (next == nil || f.file == o.file) {
				next = f.meta
			}
		}
		if next == nil {
			continue
		}
		o.meta.SupersededBy = next.ID
		next.Supersedes = o.meta.ID
	}
}

// stateOutputs renders memory-meta.json, the recall store, the events and
// the heartbeat.
func (p *planner) stateOutputs(out map[string][]byte) {
	if p.meta != nil {
		if p.ws.FileByPath(metaPath) != nil || len(p.meta.Entries) > 0 {
			p.meta.Set("lastDecayAt", p.now.Format(time.RFC3339))
			out[metaPath] = p.meta.Bytes()
		}
	}
	// Promoted ranges are marked in the recall store, and announced in the
	// events log when the workspace keeps one.
	var promoted []*candidate
	for _, pl := range p.mem.placements {
		if pl.index && !pl.dropped {
			promoted = append(promoted, pl.c)
		}
	}
	if p.rec.store != nil && len(promoted) > 0 {
		marked := false
		for _, c := range promoted {
			for _, ev := range c.evidence {
				for _, a := range p.rec.forRange(ev.Path, ev.Line, ev.EndLine) {
					if a.key != "" && p.rec.store.Get(a.key) != nil {
						p.rec.store.MarkPromoted(a.key, p.now)
						marked = true
					}
				}
			}
		}
		if marked {
			out[recallPath] = p.rec.store.Bytes()
		}
	}
	if f := p.ws.FileByPath(eventsPath); f != nil && (len(promoted) > 0 || len(p.sel.inputs) > 0) {
		raw := p.rawOf(eventsPath, f.Content)
		p.before[eventsPath] = fileState{hash: f.Hash, data: raw}
		b := slices.Clone(raw)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		// Records take the shape the log already uses (its time key, the
		// keys all its records carry); a kind of record the log could not
		// hold is left out.
		log := memory.ReadEventLog(raw)
		added := false
		add := func(typ string, fields map[string]any) {
			if rec, ok := log.Record(typ, p.now, fields); ok {
				b, added = append(b, rec...), true
			}
		}
		for _, c := range promoted {
			ev := c.evidence[0]
			add("memory.promotion.applied", map[string]any{
				"path": ev.Path, "startLine": ev.Line, "endLine": ev.EndLine, "target": p.mem.memDoc.path, "engine": "dreamwiki"})
		}
		add("memory.dream.completed", map[string]any{
			"engine": "dreamwiki", "consolidatedThrough": dateOr(p.sel.through, ""), "promoted": p.counts.Promoted,
			"merged": p.counts.Merged, "superseded": p.counts.Superseded, "archived": p.counts.Archived})
		if added {
			out[eventsPath] = b
		}
	}
	var src []byte
	if f := p.ws.FileByPath(heartbeatPath); f != nil {
		src = p.rawOf(heartbeatPath, f.Content)
		p.before[heartbeatPath] = fileState{hash: f.Hash, data: src}
	}
	hb, err := memory.UpdateObject(src,
		memory.Field{Key: "lastDreamAt", Value: p.now.Format(time.RFC3339)},
		memory.Field{Key: "lastDreamResult", Value: p.summary()})
	if err != nil {
		p.warn(heartbeatPath, "heartbeat-state.json is not a JSON object (%v); it is left alone", err)
	} else {
		out[heartbeatPath] = hb
	}
}

// summary is the one-line result the heartbeat and the CLI show.
func (p *planner) summary() string {
	m := p.plan.Memory
	s := fmt.Sprintf("promoted %d (%d into MEMORY.md), merged %d, superseded %d, archived %d",
		p.counts.Promoted, p.counts.Indexed, p.counts.Merged, p.counts.Superseded, p.counts.Archived)
	if m.Before.Chars != m.After.Chars {
		s += fmt.Sprintf("; MEMORY.md %s → %s chars", thousands(m.Before.Chars), thousands(m.After.Chars))
	}
	return s
}

// dreamLogEntry appends the run's entry to memory/dream-log.md (Markdown,
// never JSON): the watermark, inputs with their hashes, counts, MEMORY.md
// sizes, duration, and what was skipped and why.
func (p *planner) dreamLogEntry() {
	if len(p.sel.inputs) == 0 && p.sel.through.IsZero() {
		return // nothing has ever been consolidated: no watermark to record
	}
	var d *mdDoc
	if f := p.ws.FileByPath(dreamLogPath); f != nil {
		raw := p.rawOf(dreamLogPath, f.Content)
		d = newPlainDoc(dreamLogPath, f.Content, raw)
		p.before[dreamLogPath] = fileState{hash: f.Hash, data: raw}
	} else {
		d = newEmptyDoc(dreamLogPath)
		d.lines = []string{"# Dream log", "", "Audit trail of dream runs (Sense → Consolidate → Settle). Newest at the bottom; backups are in .backup/memory-dreams/."}
		d.sections[0].end = len(d.lines)
	}
	p.docs[dreamLogPath] = d

	c := p.counts
	m := p.plan.Memory
	var L []string
	add := func(format string, args ...any) { L = append(L, fmt.Sprintf(format, args...)) }
	add("## %s — dream", p.now.Format("2006-01-02 15:04"))
	add("")
	add("- **Consolidated through**: %s", dateOr(p.sel.through, "—"))
	if n := len(p.sel.inputs); n > 0 {
		var size int64
		for _, in := range p.sel.inputs {
			size += in.File.Size
		}
		add("- **Logs**: %d (%s … %s), %s", n, p.sel.inputs[0].Date.Format(time.DateOnly), p.sel.inputs[n-1].Date.Format(time.DateOnly), kib(size))
	} else {
		add("- **Logs**: 0 (nothing new since %s)", dateOr(p.sel.watermark, "the start"))
	}
	add("- **Promoted**: %d (%d into MEMORY.md)", c.Promoted, c.Indexed)
	add("- **Merged**: %d", c.Merged)
	add("- **Superseded**: %d", c.Superseded)
	add("- **Archived**: %d", c.Archived)
	add("- **MEMORY.md**: %s → %s chars (%d → %d lines), target %s", thousands(m.Before.Chars), thousands(m.After.Chars), m.Before.Lines, m.After.Lines, m.Budget.String())
	add("- **Duration**: %.2f s", p.opts.now().Sub(p.started).Seconds())
	if len(p.sel.inputs) > 0 {
		add("- **Inputs**:")
		for _, in := range p.sel.inputs {
			add("  - %s (%s, sha256 %s)", in.File.Path, kib(in.File.Size), shortHash(in.File.Hash))
		}
	}
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	if p.sel.oversized != "" {
		note("Batch: %s.", p.sel.oversized)
	}
	if n := len(p.sel.deferred); n > 0 {
		note("Deferred %d logs (%s … %s) to the next dream: batch limit of %d logs / %s.", n,
			p.sel.deferred[0].Date.Format(time.DateOnly), p.sel.deferred[n-1].Date.Format(time.DateOnly), p.cfg.Dream.MaxLogs, kib(int64(p.cfg.Dream.MaxBytes)))
	}
	byFile := map[string]int{}
	for _, a := range p.plan.Actions {
		if a.Kind == "promote" {
			byFile[a.File]++
		}
	}
	if len(byFile) > 0 {
		note("Promoted:")
		for _, f := range sortedKeys(byFile) {
			notes = append(notes, fmt.Sprintf("  - %d to %s", byFile[f], f))
		}
	}
	for _, a := range p.plan.Actions {
		switch a.Kind {
		case "supersede":
			note("Superseded in %s: %q → %q.", a.File, shorten(a.Old, 70), shorten(stripDateSuffix(a.Text), 70))
		case "new-topic":
			note("New topic file %s.", a.File)
		}
	}
	if c.Closed > 0 {
		note("Closed %d open items the logs say are done.", c.Closed)
	}
	if c.Archived > 0 {
		note("Archived %d decayed entries to %s.", c.Archived, p.archivePath())
	}
	if c.Sunk > 0 {
		note("MEMORY.md over budget: %d entries moved into L2 files, with pointers.", c.Sunk)
	}
	for _, s := range p.plan.Secrets {
		note("Secret guard: %s:%d holds a secret (%s); redacted, never written to curated memory.", s.File, s.Line, s.Kind)
	}
	if len(p.plan.Skipped) > 0 {
		// Counted by reason, with the first few places of each, so every
		// skipped line can be found; the plan (--dry-run, --json) has all.
		reasons := map[string]int{}
		where := map[string][]string{}
		for _, s := range p.plan.Skipped {
			r := s.Reason
			if k := strings.IndexAny(r, "(:;"); k > 0 {
				r = strings.TrimSpace(r[:k])
			}
			reasons[r]++
			if len(where[r]) < 5 {
				where[r] = append(where[r], fmt.Sprintf("%s:%d", s.File, s.Line))
			}
		}
		note("Skipped %d:", len(p.plan.Skipped))
		for _, r := range sortedKeys(reasons) {
			at := strings.Join(where[r], ", ")
			if reasons[r] > len(where[r]) {
				at += ", …"
			}
			notes = append(notes, fmt.Sprintf("  - %s ×%d: %s", r, reasons[r], at))
		}
	}
	if len(notes) > 0 {
		L = append(L, "")
		for _, n := range notes {
			if strings.HasPrefix(n, "  - ") {
				L = append(L, n) // a sub-item of the note above
			} else {
				L = append(L, "- "+n)
			}
		}
	}
	d.tail = append(d.tail, newBlock(L...))
}

func sortedKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
