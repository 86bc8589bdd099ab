package build

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
	"github.com/dreamwiki/dreamwiki/vault"
)

// memoryViews gives the site the workspace facts its memory views show
// and the vault does not carry: MEMORY.md's size against its budget,
// conversation message counts, and the dream log's runs. They are plain
// values, so the site still never reads the workspace.
func memoryViews(ws *workspace.Workspace, so *site.Options) {
	cfg := ws.Config
	if m := ws.Memory; m != nil && m.File != nil {
		c := m.File.Content
		so.Memory = site.MemoryFile{
			Chars: utf8.RuneCountInString(c), Bytes: len(c), Lines: strings.Count(strings.TrimSuffix(c, "\n"), "\n") + 1,
			BudgetChars: cfg.Budget.MaxChars, TargetChars: cfg.Budget.TargetChars(),
			MaxLines: cfg.Budget.MaxLines, MaxBytes: cfg.Budget.MaxBytes,
		}
		if l := m.Limit; l != nil {
			if so.Memory.MaxLines == 0 {
				so.Memory.MaxLines = l.MaxLines
			}
			if so.Memory.MaxBytes == 0 {
				so.Memory.MaxBytes = l.MaxBytes
			}
		}
	}
	for _, c := range ws.Conversations {
		sc := site.Conversation{Channel: c.Channel, Group: c.Group, Label: c.Label}
		if c.Digest != nil {
			sc.Digest = vault.Layout(c.Digest)
		}
		if c.Index != nil {
			sc.Index = vault.Layout(c.Index)
		}
		for _, t := range c.Topics {
			st := site.ConversationTopic{Name: t.Name, Messages: t.Messages}
			if t.File != nil {
				st.Path = vault.Layout(t.File)
			}
			sc.Topics = append(sc.Topics, st)
		}
		so.Conversations = append(so.Conversations, sc)
	}
	if d := ws.DreamLog; d != nil {
		for _, e := range d.Entries {
			so.Dreams = append(so.Dreams, dreamRun(d.File, e))
		}
	}
}

// dreamCountKeys are the dream-log fields counted, in the order shown.
var dreamCountKeys = []string{"promoted", "merged", "superseded", "pruned", "archived"}

// sizeChange reads "1,204 → 3,318 chars (22 → 58 lines)".
var sizeChange = regexp.MustCompile(`([\d,.]+)\s*(?:→|->)\s*([\d,.]+)\s*(?:chars|characters)`)

func dreamRun(f *workspace.File, e *workspace.DreamLogEntry) site.DreamRun {
	r := site.DreamRun{Title: e.Heading, Line: e.Line, Note: vault.Layout(f), Logs: e.Fields["logs"]}
	if !e.Date.IsZero() {
		r.Date = e.Date.Format("2006-01-02")
		if e.HasTime {
			r.Time = e.Date.Format("15:04")
		}
	}
	if !e.ConsolidatedThrough.IsZero() {
		r.Through = e.ConsolidatedThrough.Format("2006-01-02")
	}
	for _, k := range dreamCountKeys {
		v, ok := e.Fields[k]
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.Fields(v + " ")[0]))
		if err != nil {
			continue
		}
		r.Counts = append(r.Counts, site.DreamCount{What: strings.ToUpper(k[:1]) + k[1:], N: n})
	}
	if m := sizeChange.FindStringSubmatch(e.Fields["memory.md"]); m != nil {
		r.MemoryBefore = atoiLoose(m[1])
		r.MemoryAfter = atoiLoose(m[2])
	}
	for _, line := range strings.Split(e.Body, "\n") {
		t := strings.TrimSpace(line)
		if item, ok := strings.CutPrefix(t, "- "); ok && !strings.HasPrefix(item, "**") {
			r.Notes = append(r.Notes, item)
		} else if len(r.Notes) > 0 && t != "" && !strings.HasPrefix(t, "-") && strings.HasPrefix(line, "  ") {
			r.Notes[len(r.Notes)-1] += " " + t // a wrapped list item
		}
	}
	return r
}

// atoiLoose reads "1,204" or "1.204" as 1204.
func atoiLoose(s string) int {
	n, _ := strconv.Atoi(strings.NewReplacer(",", "", ".", "").Replace(s))
	return n
}
