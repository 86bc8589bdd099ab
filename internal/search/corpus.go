package search

import (
	"fmt"
	"strings"

	"github.com/dreamwiki/dreamwiki/vault"
)

// Doc is one page of the site as search sees it: the static index is made
// of Docs, and so are the page-level facts the CLI attaches to its chunks.
type Doc struct {
	// ID is the vault path ("topics/gateway.md"); supersession refers to
	// documents by it.
	ID string
	// URL is the page's path relative to the site root ("topics/gateway.html").
	URL string
	// Source is the workspace path the note comes from: for a claim the
	// file its entry is in, for a dream run its log; "" for other notes
	// the builder generates.
	Source string
	// Title, Aliases, Headings and Body are the indexed fields. Body is the
	// note's whole plain text.
	Title    string
	Aliases  []string
	Headings []string
	Body     string
	// Kind is the vault kind ("claim", "topic", "daily", ...), the "source
	// kind" filter of the browser.
	Kind string
	// KindLabel is the kind as pages show it ("Daily log").
	KindLabel string
	// Date is the note's date (YYYY-MM-DD), "" when it has none.
	Date string
	// MemoryType ("user", "feedback", "project", "reference"), Tier ("hot",
	// "warm", "cold", "crystallised", "archived") and Status ("current",
	// "superseded", ...) are set on claims.
	MemoryType, Tier, Status string
	// Lapsed marks a permission whose expiry has passed (DESIGN 5.5).
	Lapsed bool
	// Backing is how well a claim is backed (provenance.Backing), for the
	// evidence marker beside a result.
	Backing string
	// ClaimID is the claim's id ("claim.gateway-host-is-the-mac-mini").
	ClaimID string
	// Supersedes names the claims this one replaced, by ClaimID or ID.
	Supersedes []string
	Tags       []string
	// Workspace names the workspace of a team site the note is in (the
	// workspace: filter); "" in a site of one workspace.
	Workspace string
}

// Evergreen reports whether the document is exempt from temporal decay:
// curated memory (claims, MEMORY.md, topic files, profile files) states
// what is true now, whatever its date, and undated notes have no age.
func (d *Doc) Evergreen() bool {
	switch vault.Kind(d.Kind) {
	case vault.KindClaim, vault.KindIndex, vault.KindTopic, vault.KindBootstrap:
		return true
	}
	return d.Date == ""
}

// DocsFromVault describes the given notes (the published ones, for the
// site) for search. url returns a note's page path; notes for which it
// returns "" are left out.
func DocsFromVault(notes []*vault.Note, url func(*vault.Note) string) []Doc {
	docs := make([]Doc, 0, len(notes))
	for _, n := range notes {
		u := url(n)
		if u == "" {
			continue
		}
		docs = append(docs, docFromNote(n, u))
	}
	return docs
}

func docFromNote(n *vault.Note, url string) Doc {
	d := Doc{
		ID:        n.Path,
		URL:       url,
		Source:    n.Source,
		Title:     n.Title,
		Kind:      string(n.Kind),
		KindLabel: n.Kind.Label(),
		Date:      validDate(n.Date),
	}
	if n.Doc != nil {
		d.Aliases = n.Doc.Meta.Aliases
		d.Tags = n.Doc.Tags
		d.Body = n.Doc.PlainText()
		for _, h := range n.Doc.Headings {
			// The title is its own, more strongly boosted field.
			if h.Level == 1 && h.Text == n.Title {
				continue
			}
			d.Headings = append(d.Headings, h.Text)
		}
	}
	claimFacts(n, &d)
	return d
}

// claimFacts fills what ranking and filters need about a claim: from the
// provenance the vault carries, or, for a plain Obsidian vault, from the
// claim front matter of DESIGN 4.1 (memory_type, tier, status, lapsed,
// supersedes), which any note may carry (a topic file with
// "memory_type: feedback" is filtered as feedback too).
func claimFacts(n *vault.Note, d *Doc) {
	if c := n.Claim; c != nil {
		d.ClaimID = c.ID
		if c.MemoryType != "" && c.MemoryType != "unclassified" {
			d.MemoryType = string(c.MemoryType)
		}
		d.Tier, d.Status, d.Lapsed, d.Backing = string(c.Tier), string(c.Status), c.Lapsed(), string(c.Backing())
		d.Supersedes = c.Supersedes()
		if d.Source == "" {
			d.Source = c.File
		}
		return
	}
	if dr := n.Dream; dr != nil && d.Source == "" {
		d.Source = dr.File
	}
	str := func(key string) string {
		if v, ok := n.Props.Get(key).(string); ok {
			return strings.ToLower(strings.TrimSpace(v))
		}
		return ""
	}
	d.MemoryType = str("memory_type")
	if d.MemoryType == "unclassified" {
		d.MemoryType = ""
	}
	d.Tier = str("tier")
	d.Status = str("status")
	switch v := n.Props.Get("lapsed").(type) {
	case bool:
		d.Lapsed = v
	case string:
		d.Lapsed = v == "true"
	}
	for _, s := range stringList(n.Props.Get("supersedes")) {
		if id := wikiTarget(s); id != "" {
			d.Supersedes = append(d.Supersedes, id)
		}
	}
}

func stringList(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []string:
		return x
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
		return out
	}
	return nil
}

// wikiTarget turns "[[claims/x]]", "[[claims/x|Title]]" or "claims/x.md"
// into the vault path "claims/x.md".
func wikiTarget(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "[[")
	s = strings.TrimSuffix(s, "]]")
	if i := strings.IndexAny(s, "|#"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.HasSuffix(s, ".md") {
		s += ".md"
	}
	return s
}

// validDate returns s when it is a YYYY-MM-DD date, else "".
func validDate(s string) string {
	if _, ok := DayNumber(s); ok {
		return s
	}
	return ""
}

// DayNumber is the number of days from 1970-01-01 to a YYYY-MM-DD date.
// It is integer arithmetic (days from civil, proleptic Gregorian) so that
// the browser computes the same ages without time zones.
func DayNumber(s string) (int, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	num := func(t string) (int, bool) {
		v := 0
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return 0, false
			}
			v = v*10 + int(t[i]-'0')
		}
		return v, true
	}
	y, ok1 := num(s[:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, false
	}
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468, true
}
