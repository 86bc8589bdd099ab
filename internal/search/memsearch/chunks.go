package memsearch

import (
	"regexp"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Chunk is one searchable piece of a workspace file for the CLI and serve
// mode: a run of blocks (paragraphs, list items, tables, code) under one
// heading, with the lines it spans, so that a result cites the lines an
// agent should read (memory_search's path#Lx-Ly).
type Chunk struct {
	// Path is the workspace path, forward slashes.
	Path string
	// StartLine and EndLine are 1-based and inclusive, in the workspace file.
	StartLine, EndLine int
	// Title is the note's title, Heading the heading path above the chunk
	// ("Infrastructure / Hosts").
	Title, Heading string
	// TitleLine and HeadingLine are the lines of the title (H1) and of the
	// innermost heading, 0 when none: a match there is cited from there.
	TitleLine, HeadingLine int
	// Text is the chunk's lines as the workspace read them.
	Text string
	// Kind, Date and Tags come from the note.
	Kind string
	Date string
	Tags []string
	// Types, Tiers and Status describe the memory entries in the chunk:
	// explicit type tags ("[feedback]") and, for claims, their type, tier
	// and status.
	Types, Tiers []string
	Status       string
	Lapsed       bool
}

// ID is the chunk's document id in the index: its citation.
func (c *Chunk) ID() string { return Citation(c.Path, c.StartLine, c.EndLine) }

// Evergreen reports whether the chunk is exempt from decay (as Doc.Evergreen).
func (c *Chunk) Evergreen() bool {
	d := search.Doc{Kind: c.Kind, Date: c.Date}
	return d.Evergreen()
}

// maxChunkLines cuts blocks longer than this (a long transcript
// paragraph) into several chunks.
const maxChunkLines = 12

// Chunks cuts every Markdown file of the workspace into chunks. The text
// is the workspace's own, so that citations and snippets are the lines an
// agent will read with `dreamwiki get`; what the vault knows about a file
// (its kind, title, date, and the claims made from its entries) labels
// the chunks. A workspace read for publishing (build.Load) has its
// secrets redacted and no private files, so neither can be indexed.
func Chunks(ws *workspace.Workspace, v *vault.Vault) []Chunk {
	notes := map[string]*vault.Note{}
	claims := map[string][]*provenance.Claim{}
	if v != nil {
		for _, n := range v.Notes {
			switch {
			case n.Claim != nil:
				claims[n.Claim.File] = append(claims[n.Claim.File], n.Claim)
			case n.Dream != nil || n.Source == "":
			default:
				notes[n.Source] = n
			}
		}
	}
	var out []Chunk
	for _, f := range ws.Files {
		n := notes[f.Path]
		if n == nil {
			continue // not a note: data files, or Markdown the vault left out
		}
		cs := chunkText(n, f.Content)
		annotate(cs, claims[f.Path])
		out = append(out, cs...)
	}
	return out
}

// annotate gives each chunk the type, tier and status of the claims whose
// entries it overlaps, so that type:, tier: and status: filters and the
// superseded and lapsed labels work on workspace lines.
func annotate(cs []Chunk, claims []*provenance.Claim) {
	for i := range cs {
		c := &cs[i]
		types := map[string]bool{}
		for _, t := range c.Types {
			types[t] = true
		}
		tiers := map[string]bool{}
		n, superseded := 0, 0
		for _, cl := range claims {
			end := max(cl.EndLine, cl.Line)
			if cl.Line > c.EndLine || end < c.StartLine {
				continue
			}
			n++
			if t := string(cl.MemoryType); t != "" && t != "unclassified" && !types[t] {
				types[t] = true
				c.Types = append(c.Types, t)
			}
			if t := string(cl.Tier); t != "" && !tiers[t] {
				tiers[t] = true
				c.Tiers = append(c.Tiers, t)
			}
			if cl.Status == provenance.StatusSuperseded {
				superseded++
			}
			c.Lapsed = c.Lapsed || cl.Lapsed()
		}
		switch {
		case n > 0 && superseded == n:
			c.Status = string(provenance.StatusSuperseded)
		case n > 0:
			c.Status = string(provenance.StatusCurrent)
		}
	}
}

// typeTag finds explicit memory types written on entries: "[feedback]",
// "#type/feedback", "type: feedback".
var typeTag = regexp.MustCompile(`(?i)\[(user|feedback|project|reference)\]|#type/(user|feedback|project|reference)\b|\btype:\s*(user|feedback|project|reference)\b`)

// chunkText cuts a workspace file's text into chunks labelled from its
// note.
func chunkText(n *vault.Note, text string) []Chunk {
	lines := mdline.Split(text)
	body := mdline.FrontMatterEnd(lines)
	base := Chunk{Path: n.Source, Title: n.Title, Kind: string(n.Kind)}
	if _, ok := search.DayNumber(n.Date); ok {
		base.Date = n.Date
	}
	fileType := ""
	if n.Doc != nil {
		base.Tags = n.Doc.Tags
		if t, ok := n.Doc.Meta.Fields["type"].(string); ok {
			fileType = strings.ToLower(strings.TrimSpace(t))
		}
	}

	var out []Chunk
	type heading struct {
		text string
		line int
	}
	var heads []heading
	var cur []int // line indexes of the chunk being built
	flush := func() {
		if len(cur) == 0 {
			return
		}
		c := base
		c.StartLine, c.EndLine = cur[0]+1, cur[len(cur)-1]+1
		// The note's title is indexed with its first chunk only, and the
		// heading path leaves out the H1: a file's every chunk matching
		// its title would drown the one chunk that says more.
		if len(out) > 0 {
			c.Title = ""
		} else if len(heads) > 0 && heads[0].text == n.Title {
			c.TitleLine = heads[0].line
		}
		var hs []string
		for i, h := range heads {
			if i > 0 || h.text != n.Title {
				hs = append(hs, h.text)
			}
		}
		c.Heading = strings.Join(hs, " / ")
		if len(heads) > 0 {
			c.HeadingLine = heads[len(heads)-1].line
		}
		var parts []string
		for _, i := range cur {
			parts = append(parts, lines[i])
		}
		c.Text = strings.Join(parts, "\n")
		seen := map[string]bool{}
		if fileType != "" {
			c.Types = append(c.Types, fileType)
			seen[fileType] = true
		}
		for _, m := range typeTag.FindAllStringSubmatch(c.Text, -1) {
			t := strings.ToLower(m[1] + m[2] + m[3])
			if !seen[t] {
				seen[t] = true
				c.Types = append(c.Types, t)
			}
		}
		out = append(out, c)
		cur = nil
	}
	var code mdline.Fence
	prevTable := false
	for i := body; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		if code.Open() {
			cur = append(cur, i)
			code.Code(trim)
			switch {
			case !code.Open():
				flush() // the closing fence ends the chunk
			case len(cur) >= 2*maxChunkLines:
				flush() // a long code block is cut anyway
			}
			continue
		}
		if code.Code(trim) {
			flush()
			cur = append(cur, i)
			continue
		}
		switch level, text := mdline.Heading(trim); {
		case level > 0:
			flush()
			if level > len(heads)+1 {
				level = len(heads) + 1
			}
			heads = append(heads[:level-1], heading{text, i + 1})
			prevTable = false
			continue
		case trim == "" || strings.HasPrefix(trim, "<!--") && strings.HasSuffix(trim, "-->"):
			// Blank lines and whole-line comments (promotion markers)
			// separate blocks and are never part of one.
			flush()
			prevTable = false
			continue
		}
		// A chunk is one block: a list item with its continuation lines,
		// a paragraph (a bold title with its quoted detail lines), a
		// table, a code block. An agent's memory is a list of entries,
		// and citing the entry that matched is the point.
		table := mdline.TableRow(trim)
		if len(cur) > 0 && (isItemStart(line) || table != prevTable || len(cur) >= maxChunkLines) {
			flush()
		}
		prevTable = table
		cur = append(cur, i)
	}
	flush()
	return out
}

// isItemStart reports whether a line starts a top-level list item.
func isItemStart(line string) bool {
	_, ok := mdline.ListItem(line) // an indented line is no marker
	return ok
}
