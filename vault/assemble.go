package vault

import (
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Folders of the generated notes (DESIGN 4.1).
const (
	ClaimsFolder  = "claims"
	DreamsFolder  = "dreams"
	ReportsFolder = "reports"
)

// ClaimPath is the vault path of a claim's note.
func ClaimPath(c *provenance.Claim) string { return ClaimsFolder + "/" + c.Slug + ".md" }

// DreamPath is the vault path of a dream run's note.
func DreamPath(d *provenance.Dream) string { return DreamsFolder + "/" + d.Slug + ".md" }

// Locator returns the vault path of a workspace file, for
// provenance.Options.Locate: where Layout puts it (plain text files become
// notes with ".md" added). Paths the workspace does not have are returned
// as they are.
func Locator(ws *workspace.Workspace) func(string) string {
	return func(p string) string {
		f := ws.FileByPath(p)
		if f == nil {
			return p
		}
		vp := Layout(f)
		if !isMarkdown(f.Path) {
			vp += ".md"
		}
		return vp
	}
}

// Assemble returns every note of the provenance vault: the workspace's
// files placed by Layout, each entry of MEMORY.md, the topic files and the
// archive followed by a link to its claim note and each evidence block
// given its block id; then a note per claim, per dream run and per
// report; and the workspace's assets. With a nil res it is FromWorkspace.
func Assemble(ws *workspace.Workspace, res *provenance.Result) ([]Input, []*Asset) {
	inputs, assets := FromWorkspace(ws)
	if res == nil {
		return inputs, assets
	}
	edits := lineEdits(res)
	for i := range inputs {
		in := &inputs[i]
		if es := edits[in.Source]; es != nil && isMarkdown(in.Source) {
			in.Text = applyEdits(in.Text, es)
		}
	}
	locate := Locator(ws)
	for _, c := range res.Claims {
		inputs = append(inputs, claimInput(c, res, locate))
	}
	for _, d := range res.Dreams {
		inputs = append(inputs, dreamInput(d, res, locate))
	}
	if len(res.Claims) > 0 || res.Budget != nil || len(res.Findings) > 0 {
		// A workspace with no memory files has nothing to report on.
		private := func(p string) bool { f := ws.FileByPath(p); return f != nil && f.Private }
		inputs = append(inputs, reportInputs(res, locate, private)...)
	}
	return inputs, assets
}

// lineEdits are the additions provenance makes to the workspace's files,
// by workspace path and line: links to the claim notes of entries, and
// block ids on evidence.
func lineEdits(res *provenance.Result) map[string]map[int]*lineEdit {
	edits := map[string]map[int]*lineEdit{}
	edit := func(p string, line int) *lineEdit {
		if edits[p] == nil {
			edits[p] = map[int]*lineEdit{}
		}
		e := edits[p][line]
		if e == nil {
			e = &lineEdit{}
			edits[p][line] = e
		}
		return e
	}
	for _, c := range res.Claims {
		e := edit(c.File, c.EndLine)
		e.links = append(e.links, strings.TrimSuffix(ClaimPath(c), ".md"))
	}
	for _, p := range res.AnchoredFiles() {
		for _, an := range res.Anchors(p) {
			edit(p, an.Line).id = an.ID
		}
	}
	return edits
}

// lineEdit is what is added to the end of one line of a source note.
type lineEdit struct {
	links []string // claim notes to link to (targets without .md)
	id    string   // block id to add, "" for none
}

// applyEdits appends claim links and block ids to lines of text. A link
// on a table row goes inside its last cell, with the alias bar escaped as
// tables require; a block id always goes last, where Obsidian reads it.
func applyEdits(text string, edits map[int]*lineEdit) string {
	lines := strings.Split(text, "\n")
	keys := make([]int, 0, len(edits))
	for ln := range edits {
		keys = append(keys, ln)
	}
	sort.Ints(keys)
	for _, ln := range keys {
		if ln < 1 || ln > len(lines) {
			continue
		}
		e := edits[ln]
		line := strings.TrimRight(lines[ln-1], " \t")
		table := strings.HasPrefix(strings.TrimSpace(line), "|")
		var add strings.Builder
		for _, l := range e.links {
			add.WriteString(" [[")
			add.WriteString(l)
			if table {
				add.WriteString(`\|claim]]`)
			} else {
				add.WriteString("|claim]]")
			}
		}
		switch {
		case table && strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`):
			line = strings.TrimRight(line[:len(line)-1], " \t") + add.String() + " |"
		default:
			if id := existingID(line); id != "" {
				// Keep a block id the author wrote at the end, where it must stay.
				line = strings.TrimRight(strings.TrimSuffix(line, "^"+id), " \t") + add.String() + " ^" + id
			} else {
				line += add.String()
				if e.id != "" && !table {
					line += " ^" + e.id
				}
			}
		}
		lines[ln-1] = line
	}
	return strings.Join(lines, "\n")
}

// existingID returns the "^id" a line already ends with.
func existingID(line string) string {
	i := strings.LastIndexByte(line, '^')
	if i < 0 || (i > 0 && line[i-1] != ' ' && line[i-1] != '\t') {
		return ""
	}
	id := line[i+1:]
	if id == "" {
		return ""
	}
	for j := 0; j < len(id); j++ {
		c := id[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return ""
		}
	}
	return id
}

// noteTarget is a wikilink target for a vault path: the path without .md.
func noteTarget(p string) string { return strings.TrimSuffix(p, ".md") }

// displayEscaper swaps what a link's text cannot hold for look-alikes: a
// bar or bracket would end a wikilink, and Quartz shows only what follows
// the last "/" of a link's text, so a slash is written as U+2215 (∕).
// Built once, as building a replacer costs more than using it.
var displayEscaper = strings.NewReplacer("|", "¦", "[", "(", "]", ")", "/", "∕", "\n", " ")

// wikilink writes [[target|display]] (target may end in #heading or
// #^block), swapping characters the display cannot hold; a display that
// Quartz would not read as a wikilink's (wikiText) is written as a
// Markdown link to the same note.
func wikilink(target, display string) string {
	display = displayEscaper.Replace(display)
	if display == "" || display == target {
		return "[[" + target + "]]"
	}
	if !wikiText(display) {
		note, frag, _ := strings.Cut(target, "#")
		return markdownLink(false, display, note+".md"+markdownFragment(frag))
	}
	return "[[" + target + "|" + display + "]]"
}

// Withheld returns the workspace paths of the private files ws was read
// without (workspace.Options.OmitPrivate), for Build and Update.
func Withheld(ws *workspace.Workspace) []string {
	out := make([]string, len(ws.Withheld))
	for i, w := range ws.Withheld {
		out[i] = w.Path
	}
	return out
}
