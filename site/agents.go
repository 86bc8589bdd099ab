package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/vault"
)

// Outputs for agents: llms.txt (what is here and where), llms-full.txt
// (the memory's Markdown in one file), and JSON under api/. Every one is
// made from published notes only, with links to private notes dropped.

// llmsSectionLimit caps each section of llms.txt; api/pages.json lists
// every page.
const llmsSectionLimit = 200

// llmsFullLimit caps llms-full.txt, which an agent reads whole: curated
// memory comes first, raw logs after, until the cap.
const llmsFullLimit = 16 << 20

// kindOrder is the order agents should read notes in: curated memory
// first, raw sources last.
var kindOrder = []vault.Kind{vault.KindIndex, vault.KindClaim, vault.KindTopic, vault.KindBootstrap,
	vault.KindDream, vault.KindReport, vault.KindNote, vault.KindDaily, vault.KindConversation, vault.KindArchive}

var kindSection = map[vault.Kind]string{
	vault.KindIndex: "Memory index", vault.KindClaim: "Claims", vault.KindTopic: "Topics", vault.KindBootstrap: "Profile",
	vault.KindDream: "Dreams", vault.KindReport: "Reports", vault.KindNote: "Other notes", vault.KindDaily: "Daily logs",
	vault.KindConversation: "Conversations", vault.KindArchive: "Archive",
}

// notesByKind groups published notes by kind in kindOrder; any kind not
// listed there comes last.
func (s *site) notesByKind() [][]*vault.Note {
	pos := map[vault.Kind]int{}
	for i, k := range kindOrder {
		pos[k] = i
	}
	groups := make([][]*vault.Note, len(kindOrder)+1)
	for _, n := range s.notes {
		i, ok := pos[n.Kind]
		if !ok {
			i = len(kindOrder)
		}
		groups[i] = append(groups[i], n)
	}
	for _, g := range groups {
		sortNotes(g)
	}
	return groups
}

// writeLLMs writes llms.txt and llms-full.txt (https://llmstxt.org).
func (s *site) writeLLMs() error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", s.opts.Title)
	fmt.Fprintf(&b, "> An AI agent's memory, published by dreamwiki: %s", plural(len(s.notes), "note"))
	if len(s.mem.claims) > 0 {
		fmt.Fprintf(&b, ", %s with evidence", plural(len(s.mem.claims), "claim"))
	}
	if s.opts.AsOf != "" {
		fmt.Fprintf(&b, ", as of %s", s.opts.AsOf)
	}
	b.WriteString(".\n\n")
	if s.inSection() {
		fmt.Fprintf(&b, "Workspace: %s, one of the workspaces of [%s](../llms.txt); every entry of api/ names it.\n\n", s.opts.Team.Workspace, mdText(s.opts.Team.Title))
	}
	b.WriteString("Every page `x.html` has a Markdown twin `x.md` beside it, with links between twins. ")
	b.WriteString("Claims name their evidence as workspace paths with line ranges (`memory/2026-04-14.md#L10-L12`). ")
	b.WriteString("Machine-readable: [api/pages.json](api/pages.json) lists every page, [api/claims.json](api/claims.json) every claim with evidence, tier, decay and supersession chain.\n")
	groups := s.notesByKind()
	for i, g := range groups {
		if len(g) == 0 {
			continue
		}
		title := "Other"
		if i < len(kindOrder) {
			title = kindSection[kindOrder[i]]
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		for j, n := range g {
			if j == llmsSectionLimit {
				fmt.Fprintf(&b, "- …and %d more in [api/pages.json](api/pages.json)\n", len(g)-j)
				break
			}
			fmt.Fprintf(&b, "- [%s](%s)", mdText(n.Title), escapePath(twinPath(s.pages[n])))
			if c := s.mem.byNote[n]; c != nil {
				fmt.Fprintf(&b, ": %s, %s, decay %.2f", orUnknown(c.Type), orUnknown(c.Tier), c.Decay)
				if c.Status != "" && c.Status != "current" {
					fmt.Fprintf(&b, ", %s", c.Status)
				}
				if c.Lapsed {
					b.WriteString(", lapsed")
				}
			} else if n.Date != "" {
				fmt.Fprintf(&b, ": %s", n.Date)
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString("\n## Optional\n\n")
	b.WriteString("- [llms-full.txt](llms-full.txt): the Markdown of every note in one file, curated memory first\n")
	b.WriteString("- [Atom feed](feed.xml): dreams and new claims\n")
	b.WriteString("- [Sitemap](sitemap.xml)\n")
	if err := s.write("llms.txt", []byte(b.String())); err != nil {
		return err
	}

	var full bytes.Buffer
	// Sized once, near its final size: grown by doubling, a 16 MB file
	// costs twice that again in copies.
	size := 0
	for _, n := range s.notes {
		size += len(n.Doc.Source) + 256
	}
	full.Grow(min(size+size/4, llmsFullLimit+1024)) // twins run longer than their sources
	fmt.Fprintf(&full, "# %s\n\n", s.opts.Title)
	full.WriteString("The Markdown twin of every published note, curated memory first. Each note starts with a line `<!-- page: x.md -->` naming its twin.\n")
	for _, g := range groups {
		for _, n := range g {
			if n.Kind == vault.KindReport {
				continue // lint dashboards are about the memory, not memory; api/claims.json has their data
			}
			twin := s.fullTwin(n)
			if full.Len()+len(twin) > llmsFullLimit {
				full.WriteString("\n<!-- llms-full.txt stops here to stay readable; llms.txt and api/pages.json list every page. -->\n")
				return s.write("llms-full.txt", full.Bytes())
			}
			fmt.Fprintf(&full, "\n<!-- page: %s -->\n", twinPath(s.pages[n]))
			full.Write(twin)
		}
	}
	return s.write("llms-full.txt", full.Bytes())
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// mdText escapes what would end a Markdown link's text.
func mdText(s string) string { return mdTextEscaper.Replace(s) }

// Replacers are built once: building one costs more than using it.
var mdTextEscaper = strings.NewReplacer(`[`, `\[`, `]`, `\]`, "\n", " ")

// pageJSON is one entry of api/pages.json.
type pageJSON struct {
	// Workspace names the workspace in a team site.
	Workspace string   `json:"workspace,omitempty"`
	URL       string   `json:"url"`
	Markdown  string   `json:"markdown"`
	Title     string   `json:"title"`
	Kind      string   `json:"kind"`
	Date      string   `json:"date,omitempty"`
	Source    string   `json:"source,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	Claim     string   `json:"claim,omitempty"`
	Links     []string `json:"links,omitempty"`
}

// claimJSON is one entry of api/claims.json.
type claimJSON struct {
	// Workspace names the workspace in a team site.
	Workspace    string         `json:"workspace,omitempty"`
	ID           string         `json:"id"`
	Text         string         `json:"text"`
	Type         string         `json:"type"`
	Tier         string         `json:"tier"`
	Decay        float64        `json:"decay"`
	Recalls      int            `json:"recalls"`
	Status       string         `json:"status"`
	Lapsed       bool           `json:"lapsed,omitempty"`
	Created      string         `json:"created,omitempty"`
	LastRecalled string         `json:"last_recalled,omitempty"`
	URL          string         `json:"url"`
	Markdown     string         `json:"markdown"`
	Evidence     []evidenceJSON `json:"evidence"`
	Chain        []string       `json:"chain,omitempty"`
}

type evidenceJSON struct {
	// Private evidence is in an unpublished note: only its existence shows.
	Private   bool   `json:"private,omitempty"`
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Citation  string `json:"citation,omitempty"`
	URL       string `json:"url,omitempty"`
	Excerpt   string `json:"excerpt,omitempty"`
}

// writeAPI writes api/pages.json and api/claims.json. URLs are relative
// to the site root.
func (s *site) writeAPI() error {
	pages := make([]pageJSON, 0, len(s.notes))
	for _, n := range s.notes {
		p := s.pages[n]
		pj := pageJSON{Workspace: s.workspace(), URL: p, Markdown: twinPath(p), Title: n.Title, Kind: string(n.Kind), Date: n.Date, Source: n.Source, Tags: n.Doc.Tags}
		if c := s.mem.byNote[n]; c != nil {
			pj.Claim = c.ID
		}
		seen := map[string]bool{}
		for _, r := range n.Links {
			if r.Note == nil || r.Note == n {
				continue
			}
			if u, ok := s.pages[r.Note]; ok && !seen[u] {
				seen[u] = true
				pj.Links = append(pj.Links, u)
			}
		}
		sort.Strings(pj.Links)
		pages = append(pages, pj)
	}
	if err := writeJSONList(s, "api/pages.json", "pages", pages); err != nil {
		return err
	}
	claims := make([]claimJSON, 0, len(s.mem.claims))
	for _, c := range s.mem.claims {
		p := s.pages[c.note]
		cj := claimJSON{Workspace: s.workspace(), ID: c.ID, Text: c.Text, Type: c.Type, Tier: c.Tier, Decay: c.Decay, Recalls: c.Recalls, Status: c.Status,
			Lapsed: c.Lapsed, Created: c.Created, LastRecalled: c.LastRecalled, URL: p, Markdown: twinPath(p), Evidence: []evidenceJSON{}}
		for _, e := range s.evidence(c, nil) {
			if e.Private {
				cj.Evidence = append(cj.Evidence, evidenceJSON{Private: true})
				continue
			}
			ej := evidenceJSON{Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Citation: citation(e), Excerpt: e.Excerpt}
			if e.Note != nil {
				if u, ok := s.pages[e.Note]; ok {
					ej.URL = u
					if e.Anchor != "" {
						ej.URL += "#" + e.Anchor
					}
				}
			}
			cj.Evidence = append(cj.Evidence, ej)
		}
		cj.Chain = s.chainIDs(c)
		claims = append(claims, cj)
	}
	return writeJSONList(s, "api/claims.json", "claims", claims)
}

// workspace is the workspace's name in a team site's section, "" else.
func (s *site) workspace() string {
	if s.inSection() {
		return s.opts.Team.Workspace
	}
	return ""
}

// citation is the memory_search style reference: path#Lx-Ly.
func citation(e evidenceInfo) string {
	switch {
	case e.StartLine <= 0:
		return e.Path
	case e.EndLine > e.StartLine:
		return fmt.Sprintf("%s#L%d-L%d", e.Path, e.StartLine, e.EndLine)
	}
	return fmt.Sprintf("%s#L%d", e.Path, e.StartLine)
}

// writeJSONList writes {"<key>": items, "site": <title>} as indented
// JSON, key must sort before "site" (the order encoding/json gives a map's
// keys). Items are encoded one at a time into the output, so no other copy
// of a document of tens of megabytes is made.
func writeJSONList[T any](s *site, name, key string, items []T) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", " ")
	fmt.Fprintf(&b, "{\n %q: [", key)
	for i, item := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		if err := enc.Encode(item); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode ends with a newline
	}
	if len(items) > 0 {
		b.WriteString("\n ")
	}
	b.WriteString("],\n \"site\": ")
	enc.SetIndent("", "")
	if err := enc.Encode(s.opts.Title); err != nil {
		return err
	}
	b.WriteString("}\n")
	return s.write(name, b.Bytes())
}

// chainIDs are the published claims of c's supersession chain, oldest
// first; nil when c is in none.
func (s *site) chainIDs(c *claimInfo) []string {
	if s.mem.result == nil || len(c.c.Chain) == 0 {
		return nil
	}
	for _, ch := range s.mem.result.Chains {
		if !containsString(ch.Claims, c.ID) {
			continue
		}
		var ids []string
		for _, id := range ch.Claims {
			if s.mem.byID[id] != nil {
				ids = append(ids, id)
			}
		}
		return ids
	}
	return nil
}
