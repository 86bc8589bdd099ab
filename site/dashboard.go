package site

import (
	"fmt"
	"html/template"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Orders for charts: tiers from fresh to gone, memory types as DESIGN
// lists them.
var (
	tierOrder = []string{"hot", "warm", "cold", "crystallised", "archived"}
	typeOrder = []string{"user", "feedback", "project", "reference"}
)

// renderDashboard writes dashboard.html: the memory's shape at a glance,
// every chart drawn at build time.
func (s *site) renderDashboard(r *reads) error {
	const page = "dashboard.html"
	d := pageData{Page: pageInfo{Kind: "dashboard", Title: "Dashboard",
		Description: "Claims by tier and type, decay, daily-log activity and the MEMORY.md budget.",
		Breadcrumbs: []link{{Title: "Home", URL: "index.html"}, {Title: "Dashboard"}}}}
	m := s.mem
	d.Slider = s.slider(page, "charts")
	var b strings.Builder
	b.WriteString(`<div class="dashboard">`)

	// Overview.
	b.WriteString(`<section class="panel wide" aria-labelledby="p-overview"><h2 id="p-overview">Overview</h2><div class="stat-row">`)
	stat := func(label string, n int, url string) {
		if url != "" {
			fmt.Fprintf(&b, `<div><span>%s</span><a class="big" href="%s">%s</a></div>`, esc(label), esc(url), thousands(n))
		} else {
			fmt.Fprintf(&b, `<div><span>%s</span><span class="big">%s</span></div>`, esc(label), thousands(n))
		}
	}
	for _, k := range []depKind{depNotes, depClaims, depDaily, depRuns, depTags, depBudget} {
		r.add(k, "")
	}
	stat("Notes", len(s.notes), "")
	stat("Claims", len(m.claims), folderURL(s, "claims", r))
	stat("Daily logs", len(m.daily), folderURL(s, "sources/daily", r))
	stat("Dream runs", len(m.runs), "dreams/journal.html")
	stat("Tags", len(s.tags), "tags/index.html")
	lapsed := 0
	for _, c := range m.claims {
		r.note(depCard, c.note)
		if c.Lapsed {
			lapsed++
		}
	}
	if lapsed > 0 {
		u := ""
		p := vault.ReportsFolder + "/lapsed-permissions.md"
		r.add(depURL, p)
		if n := s.v.Note(p); n != nil {
			u = s.pages[n]
		}
		stat("Lapsed permissions", lapsed, u)
	}
	b.WriteString(`</div></section>`)

	// MEMORY.md budget: one gauge, in the unit of the limit closest to
	// being reached, since that is the one a dream has to respect.
	if res := m.result; res != nil && res.Budget != nil {
		if g := governingLimit(*res.Budget); g.limit > 0 {
			mf := res.Budget
			b.WriteString(`<section class="panel" aria-labelledby="p-budget"><h2 id="p-budget">MEMORY.md budget</h2>`)
			b.WriteString(string(gauge("g-budget", "MEMORY.md size against its budget", g.value, g.target, g.limit, g.unit)))
			fmt.Fprintf(&b, `<p class="muted">The %s limit (%s) is the one closest to being reached. MEMORY.md is %s lines, %s characters, %s bytes.`,
				esc(g.unit), esc(g.from), thousands(mf.Lines), thousands(mf.Chars), thousands(mf.Bytes))
			if mf.Over() {
				b.WriteString(` <strong class="lapsed-mark">Over budget: the next dream will consolidate it.</strong>`)
			}
			b.WriteString(`</p></section>`)
		}
	}

	// Claims.
	if len(m.claims) > 0 {
		tiers := map[string]int{}
		types := map[string]int{}
		buckets := make([]int, 10)
		for _, c := range m.claims {
			tiers[c.Tier]++
			types[c.Type]++
			i := int(c.Decay * 10)
			buckets[min(max(i, 0), 9)]++
		}
		b.WriteString(`<section class="panel" aria-labelledby="p-tier"><h2 id="p-tier">Claims by tier</h2>`)
		b.WriteString(string(barChart("c-tier", "Claims by tier", s.searchBars(page, ordered(tiers, tierOrder, "fill-"), "kind:claim tier:"))))
		b.WriteString(`</section><section class="panel" aria-labelledby="p-type"><h2 id="p-type">Claims by type</h2>`)
		b.WriteString(string(barChart("c-type", "Claims by memory type", s.searchBars(page, ordered(types, typeOrder, "fill-"), "kind:claim type:"))))
		b.WriteString(`</section><section class="panel" aria-labelledby="p-decay"><h2 id="p-decay">Decay scores</h2>`)
		labels := make([]string, 10)
		for i := range labels {
			labels[i] = fmt.Sprintf("%.1f", float64(i)/10)
		}
		b.WriteString(string(histogram("c-decay", "Claims by decay score (0 = forgotten, 1 = fresh or often recalled)", labels, buckets, "")))
		b.WriteString(`<p class="muted">Scores run from 0 (forgotten) to 1. Tiers follow age, so a cold claim (30 days or older) that is still recalled scores high.</p></section>`)
	} else {
		b.WriteString(`<section class="panel" aria-labelledby="p-claims"><h2 id="p-claims">Claims</h2><p class="muted">No claims yet. Claims, their tiers and decay appear here once the workspace's memory entries have been linked to their evidence.</p></section>`)
	}

	// Notes by kind.
	kinds := map[string]int{}
	for _, n := range s.notes {
		kinds[n.Kind.Label()]++
	}
	var kb []bar
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		kb = append(kb, bar{Label: k, Value: kinds[k]})
	}
	sort.SliceStable(kb, func(i, j int) bool { return kb[i].Value > kb[j].Value })
	b.WriteString(`<section class="panel" aria-labelledby="p-kinds"><h2 id="p-kinds">Notes by kind</h2>`)
	b.WriteString(string(barChart("c-kind", "Published notes by kind", s.searchBars(page, kb, "kind:"))))
	b.WriteString(`</section>`)

	// Daily-log activity.
	if cal := s.activityCalendar(page, r); cal != "" {
		b.WriteString(`<section class="panel wide" aria-labelledby="p-activity"><h2 id="p-activity">Daily-log activity</h2>`)
		b.WriteString(string(cal))
		b.WriteString(`<p class="legend" aria-hidden="true">Fewer words <i class="lv0"></i><i class="lv1"></i><i class="lv2"></i><i class="lv3"></i><i class="lv4"></i> more words</p>`)
		b.WriteString(`</section>`)
	}

	// Recent dreams.
	if runs := m.runs; len(runs) > 0 {
		b.WriteString(`<section class="panel" aria-labelledby="p-dreams"><h2 id="p-dreams">Recent dreams</h2><ul class="note-list">`)
		for i := len(runs) - 1; i >= 0 && i >= len(runs)-5; i-- {
			n := runs[i]
			r.note(depRun, n)
			fmt.Fprintf(&b, `<li><a href="dreams/journal.html#%s">%s</a><span class="meta">%s</span></li>`, esc(runID(n)), esc(n.Title), esc(countsLine(runCounts(n.Dream))))
		}
		b.WriteString(`</ul></section>`)
	}
	b.WriteString(`</div>`)
	d.Body = template.HTML(b.String()) //nolint:gosec // escaped above
	return s.render(page, "list.html", d, r)
}

// searchBars links each bar that counts something to the search for it:
// filter and the bar's label, quoted when it holds a space ("Daily log"),
// within the page's own workspace on a team site. Bars of nothing, and
// the "unknown"/"unclassified" remainders no filter names, stay plain.
func (s *site) searchBars(page string, bars []bar, filter string) []bar {
	d := s.siteData(page)
	scope := ""
	if t := s.opts.Team; t != nil && t.Workspace != "" {
		scope = " workspace:" + t.Workspace
	}
	for i, x := range bars {
		if x.Value == 0 || x.Label == "unknown" || x.Label == "unclassified" {
			continue
		}
		v := x.Label
		if strings.ContainsFunc(v, unicode.IsSpace) {
			v = `"` + v + `"`
		}
		bars[i].URL = d.SearchRoot + "search.html?q=" + url.QueryEscape(filter+v+scope)
	}
	return bars
}

// folderURL links a folder's page when the site has that folder.
func folderURL(s *site, dir string, r *reads) string {
	r.add(depFolderTitle, dir)
	if _, ok := s.folders[dir]; ok {
		return dir + "/index.html"
	}
	return ""
}

// ordered returns bars for the keys in order first, then any others
// sorted, with classes prefix+key.
func ordered(m map[string]int, order []string, prefix string) []bar {
	var out []bar
	seen := map[string]bool{}
	for _, k := range order {
		seen[k] = true
		out = append(out, bar{Label: k, Value: m[k], Class: prefix + k})
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !seen[k] {
			label := k
			if label == "" {
				label = "unknown"
			}
			class := ""
			if k == "unclassified" || k == "" {
				class = "fill-archived"
			}
			out = append(out, bar{Label: label, Value: m[k], Class: class})
		}
	}
	return out
}

// activityCalendar draws the daily logs by date, sized by words.
func (s *site) activityCalendar(page string, r *reads) template.HTML {
	days := map[string]calendarDay{}
	var first, last time.Time
	for _, n := range s.mem.daily {
		r.note(depListing, n)
		r.note(depWords, n)
		t, err := time.Parse("2006-01-02", n.Date)
		if err != nil {
			continue
		}
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
		d := days[n.Date]
		words := countWords(n.Doc.Source)
		d.Value += words
		d.Label = plural(d.Value, "word")
		if d.URL == "" {
			d.URL = rel(page, s.url(n, r))
		}
		days[n.Date] = d
	}
	if first.IsZero() {
		return ""
	}
	return calendar("c-cal", "Words written to daily logs per day", days, first, last)
}

func countWords(b []byte) int {
	n := 0
	in := false
	for _, c := range b {
		space := c == ' ' || c == '\n' || c == '\t' || c == '\r'
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}

// budgetLimit is one of MEMORY.md's limits and its size in that unit.
type budgetLimit struct {
	value, target, limit int
	unit, from           string
}

// governingLimit is the limit MEMORY.md is closest to (or furthest over),
// zero when it has none.
func governingLimit(b provenance.Budget) budgetLimit {
	var best budgetLimit
	ratio := -1.0
	consider := func(l budgetLimit) {
		if l.limit <= 0 {
			return
		}
		if r := float64(l.value) / float64(l.limit); r > ratio {
			best, ratio = l, r
		}
	}
	consider(budgetLimit{b.Chars, b.TargetChars, b.MaxChars, "characters", "dreamwiki.toml's max_chars"})
	// The target is a share of the limit; it applies to each unit alike.
	share := func(limit int) int {
		if b.MaxChars <= 0 || b.TargetChars <= 0 {
			return 0
		}
		return limit * b.TargetChars / b.MaxChars
	}
	consider(budgetLimit{b.Lines, share(b.MaxLines), b.MaxLines, "lines", "MEMORY.md's size header"})
	consider(budgetLimit{b.Bytes, share(b.MaxBytes), b.MaxBytes, "bytes", "MEMORY.md's size header"})
	return best
}
