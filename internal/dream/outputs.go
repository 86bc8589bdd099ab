package dream

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// State files a dream updates besides the Markdown.
const (
	metaPath      = "memory/memory-meta.json"
	recallPath    = workspace.RecallStorePath
	eventsPath    = workspace.EventsPath
	heartbeatPath = "memory/heartbeat-state.json"
	dreamLogPath  = "memory/dream-log.md"
)

// readMeta reads memory-meta.json for editing; a workspace without one
// gets a new document. A file that cannot be read is reported and left
// alone (nil): decay then runs on the entries' own dates.
func readMeta(ws *workspace.Workspace, files *fileSet, lg *ledger) *memory.MetaDoc {
	f := ws.FileByPath(metaPath)
	if f == nil {
		return memory.NewMetaDoc()
	}
	raw := files.raw(metaPath, f.Content)
	doc, err := memory.ParseMetaDoc(raw)
	if err != nil {
		lg.warn(metaPath, "memory-meta.json cannot be read (%v); decay used the entries' own dates and the file is left alone", err)
		return nil
	}
	files.before[metaPath] = fileState{hash: f.Hash, data: raw}
	return doc
}

// metaForPlacements gives every new line its memory-meta.json record,
// scored at now, and links supersession chains both ways (DESIGN 5.4).
func metaForPlacements(meta *memory.MetaDoc, mem *curatedMemory, now time.Time) {
	if meta == nil {
		return
	}
	for _, pl := range mem.placements {
		if pl.dropped || pl.cur == nil {
			continue
		}
		c := pl.c
		r := meta.Add(c.entryText())
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
		res := memory.Evaluate(memory.Input{Created: r.Created, Structural: r.Structural}, now, memory.DefaultParams())
		r.Tier, r.Score = string(res.Tier), res.Score
		pl.cur.meta = r
	}
	for _, o := range mem.curated {
		if o.supersededBy == nil || o.meta == nil {
			continue
		}
		var next *memory.MetaRecord
		for _, f := range mem.fresh[o.supersededBy] {
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

// indexed are the candidates this run gave a MEMORY.md line: they are
// marked promoted in the recall store and announced in the events log.
func indexed(mem *curatedMemory) []*candidate {
	var out []*candidate
	for _, pl := range mem.placements {
		if pl.index && !pl.dropped {
			out = append(out, pl.c)
		}
	}
	return out
}

// metaOutput is memory-meta.json's new bytes, nil when it cannot be read,
// or when there is none and no entry to record.
func metaOutput(ws *workspace.Workspace, meta *memory.MetaDoc, now time.Time) []byte {
	if meta == nil || ws.FileByPath(metaPath) == nil && len(meta.Entries) == 0 {
		return nil
	}
	meta.Set("lastDecayAt", now.Format(time.RFC3339))
	return meta.Bytes()
}

// recallOutput marks the promoted candidates' ranges in the recall store;
// nil when there is no store or no range of it was promoted.
func recallOutput(rec recalls, promoted []*candidate, now time.Time) []byte {
	if rec.store == nil || len(promoted) == 0 {
		return nil
	}
	marked := false
	for _, c := range promoted {
		for _, ev := range c.evidence {
			for _, a := range rec.forRange(ev.Path, ev.Line, ev.EndLine) {
				if a.key != "" && rec.store.Get(a.key) != nil {
					rec.store.MarkPromoted(a.key, now)
					marked = true
				}
			}
		}
	}
	if !marked {
		return nil
	}
	return rec.store.Bytes()
}

// eventsOutput appends a promotion record for each promoted candidate and
// a dream record to the events log, when the workspace keeps one and the
// dream read or promoted anything. Records take the shape the log already
// uses (its time key, the keys all its records carry); a kind of record
// the log could not hold is left out, and nil means none was added.
func eventsOutput(files *fileSet, promoted []*candidate, sel *selection, index string, c Counts, now time.Time, lg *ledger) []byte {
	f := files.ws.FileByPath(eventsPath)
	if f == nil || len(promoted) == 0 && len(sel.inputs) == 0 {
		return nil
	}
	raw := files.read(f)
	b := slices.Clone(raw)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	log := memory.ReadEventLog(raw)
	added := false
	refused := map[string]bool{}
	add := func(typ string, fields map[string]any) {
		if rec, ok := log.Record(typ, now, fields); ok {
			b, added = append(b, rec...), true
			return
		}
		if refused[typ] {
			return
		}
		refused[typ] = true
		keys, whose := log.Common, "all its records"
		if ks, ok := log.Types[typ]; ok {
			keys, whose = ks, "its "+typ+" records"
		}
		lg.warn(eventsPath, "%s carry the keys %s, which the dream's %s record cannot fill; it wrote no such record, rather than one in a shape the file does not use",
			whose, strings.Join(keys, ", "), typ)
	}
	for _, c := range promoted {
		ev := c.evidence[0]
		add("memory.promotion.applied", map[string]any{
			"path": ev.Path, "startLine": ev.Line, "endLine": ev.EndLine, "target": index, "engine": "dreamwiki"})
	}
	add("memory.dream.completed", map[string]any{
		"engine": "dreamwiki", "consolidatedThrough": dateOr(sel.through, ""), "promoted": c.Promoted,
		"merged": c.Merged, "superseded": c.Superseded, "archived": c.Archived})
	if !added {
		return nil
	}
	return b
}

// heartbeatOutput sets lastDreamAt and lastDreamResult in
// heartbeat-state.json, keeping its other keys; a file that is not a JSON
// object is reported and left alone (nil).
func heartbeatOutput(files *fileSet, summary string, now time.Time, lg *ledger) []byte {
	var src []byte
	if f := files.ws.FileByPath(heartbeatPath); f != nil {
		src = files.read(f)
	}
	hb, err := memory.UpdateObject(src,
		memory.Field{Key: "lastDreamAt", Value: now.Format(time.RFC3339)},
		memory.Field{Key: "lastDreamResult", Value: summary})
	if err != nil {
		lg.warn(heartbeatPath, "heartbeat-state.json is not a JSON object (%v); it is left alone", err)
		return nil
	}
	return hb
}

// summary is the one-line result the heartbeat and the CLI show.
func summary(c Counts, m MemorySize) string {
	if c.Promoted == 0 && c.Indexed == 0 && c.Superseded == 0 && c.Archived == 0 {
		return fmt.Sprintf("nothing passed the gates; %d %s in DREAMS.md", c.Proposals, plural(c.Proposals, "proposal", "proposals"))
	}
	s := fmt.Sprintf("promoted %d (%d into MEMORY.md), merged %d, superseded %d, archived %d",
		c.Promoted, c.Indexed, c.Merged, c.Superseded, c.Archived)
	if c.Proposals > 0 {
		s += fmt.Sprintf("; %d %s in DREAMS.md", c.Proposals, plural(c.Proposals, "proposal", "proposals"))
	}
	if m.Before.Chars != m.After.Chars {
		s += fmt.Sprintf("; MEMORY.md %s → %s chars", thousands(m.Before.Chars), thousands(m.After.Chars))
	}
	return s
}

// dreamLogShape is the shape of the dream log's entries: the language
// they are written in (language; the log's whole text when it has no
// entry yet, English when there is no log) and the level of their
// headings. Paths, hashes and code say nothing about the language and are
// left out of the count.
func dreamLogShape(ws *workspace.Workspace) (lang string, level int) {
	dl := ws.DreamLog
	if dl == nil || dl.File == nil {
		return "en", 2
	}
	var text strings.Builder
	level = 2
	lines := strings.Split(dl.File.Content, "\n")
	for _, e := range dl.Entries {
		text.WriteString(e.Heading + "\n" + e.Body + "\n")
		if e.Line >= 1 && e.Line <= len(lines) {
			if n := len(lines[e.Line-1]) - len(strings.TrimLeft(lines[e.Line-1], "#")); n >= 1 && n <= 6 {
				level = n
			}
		}
	}
	if len(dl.Entries) == 0 {
		text.WriteString(dl.File.Content)
	}
	return language(reNoLanguage.ReplaceAllString(text.String(), " ")), level
}

// reNoLanguage is what says nothing about a text's language: paths, file
// names, code spans, hashes, the names of the files a dream writes.
var reNoLanguage = regexp.MustCompile("`[^`]*`|\\S*[/.]\\S*|\\b[0-9a-f]{8,}\\b|(?i:sha256|MEMORY|KiB|MiB)")

// dreamLogEntry appends the run's entry to memory/dream-log.md (Markdown,
// never JSON), opened in files: nothing when nothing has ever been
// consolidated (there is no watermark to record).
func dreamLogEntry(files *fileSet, entry []string) {
	if entry == nil {
		return
	}
	var d *mdDoc
	if f := files.ws.FileByPath(dreamLogPath); f != nil {
		d = newPlainDoc(dreamLogPath, f.Content, files.read(f))
	} else {
		d = newEmptyDoc(dreamLogPath)
		d.lines = []string{"# Dream log", "", "Audit trail of dream runs (Sense → Consolidate → Settle). Newest at the bottom; backups are in .backup/memory-dreams/."}
		d.sections[0].end = len(d.lines)
	}
	files.docs[dreamLogPath] = d
	d.tail = append(d.tail, newBlock(entry...))
}

// dreamLog is what a dream log entry reports: the batch, the counts,
// MEMORY.md's sizes, how long the dream took and everything the ledger
// holds.
type dreamLog struct {
	started time.Time
	clock   func() time.Time // read when the entry is written, for its duration
	sel     *selection
	dream   workspace.DreamConfig
	counts  Counts
	memory  MemorySize
	archive string // this month's archive file
	actions []Action
	secrets []SecretFinding
	skipped []Skip
	lang    string // the language of the log's entries (dreamLogShape)
	level   int    // the level of their headings
}

// lines are the run's dream log entry: the watermark, inputs with their
// hashes, counts, MEMORY.md sizes, duration, and what was skipped and why.
// nil means there is nothing to record: nothing has ever been
// consolidated.
func (r dreamLog) lines() []string {
	sel := r.sel
	if len(sel.inputs) == 0 && sel.through.IsZero() {
		return nil
	}
	c, m := r.counts, r.memory
	lb, ok := workspace.DreamLogLanguages[r.lang]
	if !ok {
		lb = workspace.DreamLogLanguages["en"]
	}
	var L []string
	add := func(format string, args ...any) { L = append(L, fmt.Sprintf(format, args...)) }
	add("%s %s — %s", strings.Repeat("#", max(r.level, 2)), r.started.Format("2006-01-02 15:04"), lb.Dream)
	add("")
	add("- **%s**: %s", lb.Through, dateOr(sel.through, "—"))
	if n := len(sel.inputs); n > 0 {
		var size int64
		for _, in := range sel.inputs {
			size += in.File.Size
		}
		add("- **%s**: %d (%s … %s), %s", lb.Logs, n, sel.inputs[0].Date.Format(time.DateOnly), sel.inputs[n-1].Date.Format(time.DateOnly), kib(size))
	} else {
		add("- **%s**: "+lb.NothingNew, lb.Logs, dateOr(sel.watermark, "—")) // a watermark is set: lines() returned early without one
	}
	add("- **%s**: "+lb.IntoIndex, lb.Promoted, c.Promoted, c.Indexed)
	add("- **%s**: %d", lb.Merged, c.Merged)
	add("- **%s**: %d", lb.Superseded, c.Superseded)
	add("- **%s**: %d", lb.Archived, c.Archived)
	add("- **MEMORY.md**: "+lb.Size, thousands(m.Before.Chars), thousands(m.After.Chars), m.Before.Lines, m.After.Lines, m.Budget.String())
	add("- **%s**: %.2f s", lb.Duration, r.clock().Sub(r.started).Seconds())
	if len(sel.inputs) > 0 {
		add("- **%s**:", lb.Inputs)
		for _, in := range sel.inputs {
			add("  - %s (%s, sha256 %s)", in.File.Path, kib(in.File.Size), shortHash(in.File.Hash))
		}
	}
	if notes := r.notes(); len(notes) > 0 {
		L = append(L, "")
		for _, n := range notes {
			if strings.HasPrefix(n, "  - ") {
				L = append(L, n) // a sub-item of the note above
			} else {
				L = append(L, "- "+n)
			}
		}
	}
	return L
}

// notes are the entry's remarks: the batch, what went where, and what was
// skipped (counted by reason, with the first few places of each, so every
// skipped line can be found; the plan, --dry-run and --json, has all).
// A note starting "  - " is a sub-item of the one above.
func (r dreamLog) notes() []string {
	if lb, ok := workspace.DreamLogLanguages[r.lang]; ok && r.lang != "en" {
		return r.localNotes(lb)
	}
	sel, c := r.sel, r.counts
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	if sel.oversized != "" {
		note("Batch: %s.", sel.oversized)
	}
	if n := len(sel.deferred); n > 0 {
		note("Deferred %d logs (%s … %s) to the next dream: batch limit of %d days of logs / %s.", n,
			sel.deferred[0].Date.Format(time.DateOnly), sel.deferred[n-1].Date.Format(time.DateOnly), r.dream.MaxLogs, kib(int64(r.dream.MaxBytes)))
	}
	byFile := map[string]int{}
	for _, a := range r.actions {
		if a.Kind == "promote" {
			byFile[a.File]++
		}
	}
	if len(byFile) > 0 {
		note("Promoted:")
		for _, f := range slices.Sorted(maps.Keys(byFile)) {
			notes = append(notes, fmt.Sprintf("  - %d to %s", byFile[f], f))
		}
	}
	for _, a := range r.actions {
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
		note("Archived %d decayed entries to %s.", c.Archived, r.archive)
	}
	for _, s := range r.secrets {
		note("Secret guard: %s:%d holds a secret (%s); redacted, never written to curated memory.", s.File, s.Line, s.Kind)
	}
	if len(r.skipped) > 0 {
		reasons := map[string]int{}
		where := map[string][]string{}
		for _, s := range r.skipped {
			why := s.Reason
			if k := strings.IndexAny(why, "(:;"); k > 0 {
				why = strings.TrimSpace(why[:k])
			}
			reasons[why]++
			if len(where[why]) < 5 {
				where[why] = append(where[why], fmt.Sprintf("%s:%d", s.File, s.Line))
			}
		}
		note("Skipped %d:", len(r.skipped))
		for _, k := range slices.Sorted(maps.Keys(reasons)) {
			at := strings.Join(where[k], ", ")
			if reasons[k] > len(where[k]) {
				at += ", …"
			}
			notes = append(notes, fmt.Sprintf("  - %s ×%d: %s", k, reasons[k], at))
		}
	}
	return notes
}

// localNotes are the notes of an entry in a log written in another
// language than English: the ones its labels can say (what went where,
// what was deferred, secrets, how many lines were skipped and where); the
// plan (--dry-run, --json) has every reason in full.
func (r dreamLog) localNotes(lb workspace.DreamLogLabels) []string {
	var notes []string
	if n := len(r.sel.deferred); n > 0 {
		notes = append(notes, fmt.Sprintf(lb.Deferred, n, r.sel.deferred[0].Date.Format(time.DateOnly), r.sel.deferred[n-1].Date.Format(time.DateOnly)))
	}
	byFile := map[string]int{}
	for _, a := range r.actions {
		if a.Kind == "promote" {
			byFile[a.File]++
		}
	}
	if len(byFile) > 0 {
		notes = append(notes, lb.Promoted+":")
		for _, f := range slices.Sorted(maps.Keys(byFile)) {
			notes = append(notes, "  - "+fmt.Sprintf(lb.PromotedTo, byFile[f], f))
		}
	}
	for _, s := range r.secrets {
		notes = append(notes, fmt.Sprintf(lb.Secret, s.File, s.Line, s.Kind))
	}
	if n := len(r.skipped); n > 0 {
		var at []string
		for _, s := range r.skipped[:min(n, 5)] {
			at = append(at, fmt.Sprintf("%s:%d", s.File, s.Line))
		}
		if n > 5 {
			at = append(at, "…")
		}
		notes = append(notes, fmt.Sprintf(lb.Skipped, n), "  - "+strings.Join(at, ", "))
	}
	return notes
}
