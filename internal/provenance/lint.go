package provenance

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// maxEntryChars is the size past which an entry is reported: an entry that
// long is a pasted document, not a remembered fact.
const maxEntryChars = 10000

// lint reports what does not add up. Every finding is a warning with the
// file and line to fix.
func (a *analyzer) lint() {
	byID := a.res.byID
	type fileNorm struct{ file, norm string }
	firstNorm := make(map[fileNorm]*Claim, len(a.claims))
	unsupported := map[string]int{} // claims without evidence, by file
	curatedClaims := 0
	for _, c := range a.claims {
		curated := c.Origin != OriginArchive
		if curated {
			curatedClaims++
		}
		if curated && len(c.Evidence) == 0 {
			// Noted on the claim (its note and the vault's report list
			// it), counted once for the workspace: most hand-written
			// lines have no log line behind them, and a warning for each
			// drowned the problems worth fixing.
			c.Findings = append(c.Findings, "claim-no-evidence")
			unsupported[c.File]++
		}
		if curated && len(c.Contests) > 0 {
			for _, id := range c.Contests {
				other := byID[id]
				a.claimFinding(c, "claim-contested", "keep the right one, or record the change with `dreamwiki supersede`",
					"%q contradicts %s:%d (%q)", clip(c.Title, 60), other.File, other.Line, clip(other.Title, 60))
			}
		}
		if c.Permission != nil && c.Permission.Lapsed && c.Status != StatusSuperseded && c.Origin != OriginArchive {
			a.claimFinding(c, "permission-lapsed", "ask again before acting on it; renew it with a new date or move it to the archive",
				"permission %q lapsed on %s", clip(c.Title, 60), c.Permission.Expires.Format("2006-01-02"))
		}
		// A string has no more runes than bytes: most entries are told
		// short by their length alone.
		if raw := entryRaw(c); len(raw) >= maxEntryChars {
			if n := utf8.RuneCountInString(raw); n >= maxEntryChars {
				a.claimFinding(c, "entry-too-long", "move the detail into a topic file and keep one line here",
					"entry is %d characters long; an entry is one fact, not a document", n)
			}
		}
		if curated {
			key := fileNorm{c.File, a.norm(c)}
			if first := firstNorm[key]; first != nil {
				a.claimFinding(c, "duplicate-entry", "remove one of them", "entry repeats line %d word for word", first.Line)
			} else {
				firstNorm[key] = c
			}
		}
	}
	for _, ct := range a.res.Contests {
		old, cur := byID[ct.Older], byID[ct.Newer]
		if latest(old).Before(latest(cur)) && old.Origin != OriginArchive {
			a.claimFinding(old, "claim-stale", "update or remove it",
				"%q looks stale: %s:%d says otherwise and has newer evidence (%s)", clip(old.Title, 60), cur.File, cur.Line, latest(cur).Format("2006-01-02"))
		}
	}
	for _, c := range a.claims {
		if c.Origin != OriginArchive && c.Tier == "archived" && c.Status == StatusCurrent && !c.Created.IsZero() {
			a.claimFinding(c, "claim-stale", "a dream would archive it; recall it or let it go",
				"%q decayed to %.2f with %d recalls, below the archive threshold", clip(c.Title, 60), c.Scores.Decay, c.Recalls)
		}
	}
	if len(unsupported) > 0 {
		a.findings.Add(noEvidenceSummary(unsupported, curatedClaims))
	}
	if a.ws.Meta != nil && !a.withheldEntries() {
		for _, m := range a.ws.Meta.Entries {
			if m.ID != "" && a.claimOfMID[m.ID] == nil {
				a.findings.Add(metaOrphan(a.ws.Meta.File.Path, a.metaLine(m.ID), "remove it, or restore the entry it describes",
					"memory-meta.json entry %s (%q) matches no entry of MEMORY.md, the topic files or the archive", m.ID, clip(m.Text, 60)))
			}
		}
	}
	if b := a.res.Budget; b != nil {
		line := 1
		if a.ws.Memory.Limit != nil && a.ws.Memory.Limit.Line > 0 {
			line = a.ws.Memory.Limit.Line
		}
		hint := "move detail into topic files and keep MEMORY.md an index"
		if b.MaxChars > 0 && b.Chars > b.MaxChars {
			a.finding("memory-budget", b.File, line, hint, "MEMORY.md is %d characters, over its budget of %d", b.Chars, b.MaxChars)
		}
		if b.MaxLines > 0 && b.Lines > b.MaxLines {
			a.finding("memory-budget", b.File, line, hint, "MEMORY.md is %d lines, over its limit of %d", b.Lines, b.MaxLines)
		}
		if b.MaxBytes > 0 && b.Bytes > b.MaxBytes {
			a.finding("memory-budget", b.File, line, hint, "MEMORY.md is %d bytes, over its limit of %d", b.Bytes, b.MaxBytes)
		}
	}
}

// maxFilesListed is how many files the no-evidence count names.
const maxFilesListed = 10

// noEvidenceSummary is the one finding about claims without evidence: how
// many of the curated claims have none, and where, most first. It is a
// note, not a warning: a fact the user wrote by hand needs no log line
// behind it, and `check --strict` fails on problems, not on this.
func noEvidenceSummary(byFile map[string]int, total int) diag.Diagnostic {
	files := make([]string, 0, len(byFile))
	n := 0
	for f, k := range byFile {
		files = append(files, f)
		n += k
	}
	sort.Slice(files, func(i, j int) bool {
		if byFile[files[i]] != byFile[files[j]] {
			return byFile[files[i]] > byFile[files[j]]
		}
		return files[i] < files[j]
	})
	var parts []string
	for i, f := range files {
		if i == maxFilesListed {
			parts = append(parts, fmt.Sprintf("and %d more files", len(files)-maxFilesListed))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", f, byFile[f]))
	}
	return diag.Diagnostic{Severity: diag.Info, Code: "claim-no-evidence",
		Message: fmt.Sprintf("%d of %d claims have no evidence (%s)", n, total, strings.Join(parts, ", ")),
		Hint:    "a Source: pointer to the log a line came from gives it evidence; the vault's claims-without-evidence report lists them"}
}

// metaOrphan is a finding about memory-meta.json, the dream's own record
// of the lines it wrote: a note, never a warning, since the user did not
// write it and a dream keeps it.
func metaOrphan(file string, line int, hint, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Info, Code: "meta-orphan", File: file, Line: line, Message: sprintf(format, args...), Hint: hint}
}

// withheldEntries reports whether a private file that can hold entries
// (MEMORY.md, a topic file, the archive) was left out of the workspace.
// memory-meta.json then describes entries nobody may see, and its text
// is not published: an entry that matches no claim may be one of them
// (it is not reported as an orphan, which would quote it), and claims'
// ids are made from their own text.
func (a *analyzer) withheldEntries() bool {
	for _, w := range a.ws.Withheld {
		if w.Kind == workspace.KindMemory || w.Kind == workspace.KindTopic || w.Kind == workspace.KindArchive {
			return true
		}
	}
	return false
}

func entryRaw(c *Claim) string {
	if c.Entry != nil {
		return c.Entry.Raw
	}
	return c.Text
}

// anchorsAndNotes fills Evidence.Note and lists the block ids the vault
// must add to source files.
func (a *analyzer) anchorsAndNotes() {
	need := map[string]map[int]Anchor{}
	located := map[string]string{} // Locate is called once per path
	fix := func(ev *Evidence) {
		ev.Note = ev.Path
		if a.opts.Locate != nil {
			note, ok := located[ev.Path]
			if !ok {
				note = a.opts.Locate(ev.Path)
				located[ev.Path] = note
			}
			ev.Note = note
		}
		if ev.Block == "" {
			return
		}
		src := a.sources[ev.Path]
		if src == nil {
			return
		}
		i := src.blockAt(ev.StartLine)
		if i < 0 || src.blocks[i].ID != "" || !src.blocks[i].Anchorable {
			return
		}
		b := src.blocks[i]
		if "e"+itoa(b.Start) != ev.Block {
			return
		}
		if need[ev.Path] == nil {
			need[ev.Path] = map[int]Anchor{}
		}
		need[ev.Path][b.End] = Anchor{Line: b.End, ID: ev.Block}
	}
	var (
		file     string
		fileSeen bool
		src      *source
		fileNeed map[int]Anchor
	)
	for _, c := range a.claims {
		for i := range c.Evidence {
			fix(&c.Evidence[i])
		}
		// The entry's own block, for the link back from the claim note.
		// A file's claims come one after another: its source and anchors
		// are looked up when the file changes, not for each claim.
		if c.File != file || !fileSeen {
			file, fileSeen, src, fileNeed = c.File, true, a.sourceOf(c.File), need[c.File]
		}
		if src != nil {
			if i := src.blockAt(c.EndLine); i >= 0 && src.blocks[i].Anchorable {
				b := src.blocks[i]
				c.Block = b.ID
				if c.Block == "" {
					c.Block = "e" + itoa(b.Start)
					if fileNeed == nil {
						fileNeed = need[c.File] // evidence in the file may have made it since
					}
					if fileNeed == nil {
						fileNeed = map[int]Anchor{}
						need[c.File] = fileNeed
					}
					fileNeed[b.End] = Anchor{Line: b.End, ID: c.Block}
				}
			}
		}
	}
	for _, d := range a.res.Dreams {
		for i := range d.Items {
			for j := range d.Items[i].Evidence {
				fix(&d.Items[i].Evidence[j])
			}
		}
	}
	for p, m := range need {
		list := make([]Anchor, 0, len(m))
		for _, an := range m {
			list = append(list, an)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].Line < list[j].Line })
		a.res.anchors[p] = list
	}
}

// hidePrivateExcerpts empties the excerpts of evidence in private files:
// a public claim, and a dream's item, shows where its evidence is, never
// what a private note says.
func (a *analyzer) hidePrivateExcerpts() {
	for _, c := range a.claims {
		for i := range c.Evidence {
			if ev := &c.Evidence[i]; ev.Private && !c.Private {
				ev.Excerpt = ""
			}
		}
	}
	for _, d := range a.res.Dreams {
		for i := range d.Items {
			for j := range d.Items[i].Evidence {
				if ev := &d.Items[i].Evidence[j]; ev.Private {
					ev.Excerpt = ""
				}
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func runeCount(s string) int { return utf8.RuneCountInString(s) }
