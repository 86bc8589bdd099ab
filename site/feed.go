package site

import (
	"encoding/xml"
	"sort"
	"strings"
)

// feedPath is the Atom feed of dreams and new claims.
const feedPath = "feed.xml"

// feedLimit caps the feed; readers want what is new.
const feedLimit = 50

type atomFeed struct {
	XMLName xml.Name    `xml:"feed"`
	NS      string      `xml:"xmlns,attr"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomAuthor  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title    string       `xml:"title"`
	ID       string       `xml:"id"`
	Updated  string       `xml:"updated"`
	Link     atomLink     `xml:"link"`
	Category atomCategory `xml:"category"`
	Summary  string       `xml:"summary,omitempty"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

// writeFeed writes feed.xml: dream runs and claims, newest first, dated
// by the input (a run's date, a claim's creation), never by the clock.
// Links are absolute with a base URL and relative to the feed without.
func (s *site) writeFeed() error {
	abs := func(p string) string {
		p, frag, _ := strings.Cut(p, "#")
		if frag != "" {
			frag = "#" + frag
		}
		return s.opts.BaseURL + escapePath(p) + frag
	}
	id := func(p string) string {
		if s.opts.BaseURL != "" {
			return abs(p)
		}
		return "urn:dreamwiki:" + strings.TrimPrefix(abs(p), s.opts.BaseURL)
	}
	var entries []atomEntry
	for _, n := range s.mem.runs {
		p := s.pages[n]
		entries = append(entries, atomEntry{
			Title: n.Title + ": " + countsLine(runCounts(n.Dream)), ID: id(p), Updated: atomDate(n.Dream.Date.Format("2006-01-02")),
			Link: atomLink{Href: abs(p)}, Category: atomCategory{Term: "dream"}, Summary: strings.TrimSpace(description(n.Doc) + " " + s.historyCounts(n.Dream.Slug)),
		})
	}
	for _, c := range s.mem.claims {
		if c.Created == "" {
			continue
		}
		p := s.pages[c.note]
		entries = append(entries, atomEntry{
			Title: c.Text, ID: id(p), Updated: atomDate(c.Created),
			Link: atomLink{Href: abs(p)}, Category: atomCategory{Term: "claim"},
			Summary: strings.TrimSpace(c.Type + " · " + c.Tier),
		})
	}
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].Updated != entries[j].Updated {
			return entries[i].Updated > entries[j].Updated
		}
		return entries[i].ID < entries[j].ID
	})
	if len(entries) > feedLimit {
		entries = entries[:feedLimit]
	}
	updated := atomDate(s.opts.AsOf)
	if len(entries) > 0 {
		updated = entries[0].Updated
	}
	f := atomFeed{
		NS: "http://www.w3.org/2005/Atom", Title: s.opts.Title + ": dreams and new claims",
		ID: id(feedPath), Updated: updated,
		Links:   []atomLink{{Rel: "self", Type: "application/atom+xml", Href: abs(feedPath)}, {Rel: "alternate", Type: "text/html", Href: abs("index.html")}},
		Author:  atomAuthor{Name: s.opts.Title},
		Entries: entries,
	}
	out, err := xml.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	return s.write(feedPath, append([]byte(xml.Header), append(out, '\n')...))
}

// atomDate turns YYYY-MM-DD into an RFC 3339 time at midnight UTC; with
// no date it gives the epoch, which keeps the feed valid and stable.
func atomDate(d string) string {
	if len(d) < 10 {
		return "1970-01-01T00:00:00Z"
	}
	return d[:10] + "T00:00:00Z"
}
