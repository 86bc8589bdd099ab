package site

import (
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/graphlayout"

	"github.com/dreamwiki/dreamwiki/vault"
)

// graphDataPath is where the graph's data is written. It is a script, not
// JSON, so the graph also works from file:// (browsers refuse to fetch
// local files but run local scripts). Its name has no hash, so a change
// to one note's links rewrites this file only, not every page.
const graphDataPath = "assets/graph-data.js"

// graphData is the compact graph assets/graph.ts draws: nodes as [title,
// root-relative URL, group index], links as flat pairs of node indexes,
// each unordered pair once, and the global graph's layout as flat x, y
// pairs per node (internal/graphlayout), so a browser only draws it.
type graphData struct {
	Groups []string `json:"groups"`
	Nodes  [][3]any `json:"nodes"`
	Links  []int    `json:"links"`
	XY     []int    `json:"xy,omitempty"`
}

// writeGraphData lays g out and writes it as the script graph.ts reads:
// the JSON in a string given to JSON.parse, which a browser reads several
// times faster than the same data as a JavaScript literal (on a phone, a
// 5,000-note graph's data as a literal held the page for half a second).
func writeGraphData(g graphData, write func(path string, data []byte) error) error {
	g.XY = graphlayout.Layout(len(g.Nodes), g.Links)
	data, err := json.Marshal(g)
	if err != nil {
		return err
	}
	// A JSON string is a JavaScript string literal; Marshal escapes <, >,
	// & and the line separators, so it is safe in any script.
	str, err := json.Marshal(string(data))
	if err != nil {
		return err
	}
	js := make([]byte, 0, len(str)+50)
	js = append(js, "window.dreamwikiGraphData=JSON.parse("...)
	js = append(js, str...)
	js = append(js, ");\n"...)
	return write(graphDataPath, js)
}

// graphGroup is the colour group of a note: its kind. A claim's tier is
// on its page; ten kinds are as many colours as a reader can tell apart.
func (s *site) graphGroup(n *vault.Note, r *reads) string {
	r.note(depListing, n)
	return string(n.Kind)
}

// buildGraph makes the graph of published notes and the links between
// them; links to private notes are not part of it.
func (s *site) buildGraph(r *reads) graphData {
	r.add(depNotes, "")
	idx := make(map[*vault.Note]int, len(s.notes))
	groupIdx := map[string]int{}
	var g graphData
	g.Nodes = make([][3]any, 0, len(s.notes))
	groups := map[string]bool{}
	for _, n := range s.notes {
		groups[s.graphGroup(n, r)] = true
	}
	for name := range groups {
		g.Groups = append(g.Groups, name)
	}
	sort.Strings(g.Groups)
	for i, name := range g.Groups {
		groupIdx[name] = i
	}
	for i, n := range s.notes {
		idx[n] = i
		g.Nodes = append(g.Nodes, [3]any{n.Title, s.url(n, r), groupIdx[s.graphGroup(n, nil)]})
	}
	seen := map[[2]int]bool{}
	for i, n := range s.notes {
		r.note(depTargets, n)
		for _, l := range n.Links {
			j, ok := idx[l.Note]
			if !ok || l.Note == nil || j == i {
				continue
			}
			key := [2]int{min(i, j), max(i, j)}
			if seen[key] {
				continue
			}
			seen[key] = true
			g.Links = append(g.Links, i, j)
		}
	}
	if g.Links == nil {
		g.Links = []int{}
	}
	if g.Groups == nil {
		g.Groups = []string{}
	}
	return g
}

// renderGraph writes the graph's data and the global graph page.
func (s *site) renderGraph(r *reads) error {
	g := s.buildGraph(r)
	r.file(graphDataPath)
	if err := writeGraphData(g, s.write); err != nil {
		return err
	}

	const page = "graph.html"
	d := pageData{Page: pageInfo{Kind: "graph", Title: "Graph",
		Description: "Every published note and the links between them.",
		Breadcrumbs: []link{{Title: "Home", URL: "index.html"}, {Title: "Graph"}}}}
	counts := map[int]int{}
	for _, node := range g.Nodes {
		counts[node[2].(int)]++
	}
	// The legend goes above the graph, largest groups first, so it is in
	// view with it.
	order := make([]int, len(g.Groups))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
	var b strings.Builder
	fmt.Fprintf(&b, `<p class="muted graph-help">%s and %s. Drag to pan, scroll or use + and − to zoom (names appear as you zoom in), find a note by name, click one to open it.</p>`,
		esc(plural(len(g.Nodes), "note")), esc(plural(len(g.Links)/2, "link")))
	b.WriteString(`<ul class="graph-legend" aria-label="Colours: the kind of each note">`)
	for _, i := range order {
		fmt.Fprintf(&b, `<li><i class="g-%s"></i>%s <span class="muted">%d</span></li>`, esc(g.Groups[i]), esc(vault.Kind(g.Groups[i]).Label()), counts[i])
	}
	b.WriteString(`</ul>`)
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	return s.render(page, "graph.html", d, r)
}
