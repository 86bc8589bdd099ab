package site

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/vault"
)

// pageContext resolves links for one page. Every href it returns is
// relative to that page, including hrefs inside transcluded notes. r
// records what the page reads.
type pageContext struct {
	s    *site
	page string
	r    *reads
}

// Resolve maps the vault's resolution of a link onto published pages:
// links to private notes become plain text.
func (c pageContext) Resolve(from *markdown.Doc, l *markdown.Link) markdown.Target {
	c.r.note(depLinks, c.s.v.NoteOf(from))
	r, ok := c.s.v.Resolution(l)
	if ok && r.Note != nil && l.Embed {
		// The embed shows the note: its text, and where its own links go.
		c.r.note(depContent, r.Note)
	}
	switch {
	case !ok || r.Broken:
		return markdown.Target{Broken: true}
	case r.Private:
		return markdown.Target{Plain: true}
	case r.Note != nil:
		return markdown.Target{Doc: r.Note.Doc, Path: r.Note.Path, Anchor: r.Anchor}
	case r.Asset != nil:
		return markdown.Target{Path: r.Asset.Path}
	case r.Peer != nil:
		if u, ok := c.s.peerPage(r.Workspace, r.Peer.Path); ok {
			// A page of another workspace: a path from this site's root
			// (see rel), through the team site's.
			return markdown.Target{Path: u, Anchor: r.Anchor}
		}
	}
	return markdown.Target{Broken: true}
}

// peerPage is the page of the note at vault path p of another workspace
// of the team site, as a path from this site's root ("../b/x.html").
func (s *site) peerPage(workspace, p string) (string, bool) {
	if s.opts.Team == nil {
		return "", false
	}
	u, ok := s.opts.Team.Peers[workspace][p]
	if !ok {
		return "", false
	}
	return "../" + workspace + "/" + u, true
}

// Href returns the URL of a resolved target relative to the page.
func (c pageContext) Href(_ *markdown.Doc, t markdown.Target) string {
	u := ""
	if t.Doc != nil {
		n := c.s.v.NoteOf(t.Doc)
		if n == nil {
			return ""
		}
		target := c.s.url(n, c.r)
		if target != c.page {
			u = rel(c.page, target)
		}
	} else if t.Path != "" {
		u = rel(c.page, t.Path)
	}
	if t.Anchor != "" {
		u += "#" + t.Anchor
	}
	if u == "" {
		u = "#"
	}
	return u
}

// TagHref returns the URL of a tag page relative to the page.
func (c pageContext) TagHref(_ *markdown.Doc, tag string) string {
	return rel(c.page, tagPage(tag))
}

// contentHTML renders a note's body for a page, with the touches the
// Markdown engine leaves to the site: heading anchor links and labels on
// task-list checkboxes.
func (s *site) contentHTML(n *vault.Note, page string, r *reads) (template.HTML, error) {
	buf := getBuffer()
	defer putBuffer(buf)
	r.note(depContent, n)
	if err := s.eng.RenderHTML(buf, n.Doc, pageContext{s: s, page: page, r: r}); err != nil {
		return "", fmt.Errorf("rendering %s: %w", n.Path, err)
	}
	h := finishHTML(buf.Bytes())
	for _, id := range s.lapsedIDs(n, r) {
		// Entries granting a permission that has lapsed are marked where
		// they are written (MEMORY.md, topic files).
		attr := ` id="` + template.HTMLEscapeString(id) + `"`
		h = strings.Replace(h, attr, attr+` class="lapsed-claim" title="This permission has lapsed"`, 1)
	}
	h = s.markClaims(h, page, r)
	return template.HTML(h), nil //nolint:gosec // produced by our escaping renderer
}

// noteContent is contentHTML, but for a claim with no notes of a
// person's own, which shows nothing of its generated note but the title:
// only the title is rendered, sparing the parse of the whole note (13,000
// claims at 10,000 notes).
func (s *site) noteContent(n *vault.Note, page string, r *reads) (template.HTML, error) {
	if n.Claim == nil || !noHumanNotes(n.Doc) {
		return s.contentHTML(n, page, r)
	}
	buf := getBuffer()
	defer putBuffer(buf)
	r.note(depContent, n)
	ok, err := s.eng.RenderTitle(buf, n.Doc, pageContext{s: s, page: page, r: r})
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", n.Path, err)
	}
	if !ok {
		return s.contentHTML(n, page, r)
	}
	return template.HTML(finishHTML(buf.Bytes())), nil //nolint:gosec // produced by our escaping renderer
}

// notesHeading is the heading of a generated note's last section, where a
// person may write between the human block's markers.
const notesHeading = "\n## Notes\n"

// noHumanNotes reports a generated note whose "Notes" section, its last,
// holds nothing but the empty human block, so that humanNotes keeps nothing
// of it.
func noHumanNotes(d *markdown.Doc) bool {
	if len(d.Headings) == 0 || bytes.Count(d.Source, []byte(notesHeading)) != 1 {
		return false
	}
	last := d.Headings[len(d.Headings)-1]
	if last.Level != 2 || last.Text != "Notes" {
		return false
	}
	for _, h := range d.Headings[:len(d.Headings)-1] {
		if h.ID == "notes" {
			return false // humanNotes would find this one first
		}
	}
	_, rest, _ := bytes.Cut(d.Source, []byte(notesHeading))
	for line := range bytes.Lines(rest) {
		switch string(bytes.TrimSpace(line)) {
		case "", vault.HumanStart, vault.HumanEnd:
		default:
			return false
		}
	}
	return true
}

// renderNote writes a note's page and its Markdown twin.
func (s *site) renderNote(n *vault.Note, r *reads) error {
	page := s.url(n, r)
	content, err := s.noteContent(n, page, r)
	if err != nil {
		return err
	}
	d := pageData{Page: s.pageInfo(n, page, r)}
	d.Page.TitleHTML, d.Page.Content = splitTitle(content)
	d.Claim = s.claimView(n, page, r)
	d.Conv = s.convViewOf(page, r)
	d.Page.Description = describe(string(d.Page.Content))
	if d.Claim != nil {
		// The title is the claim's full text, said once: the note's own
		// title may be cut short, and the breadcrumbs stop at the folder.
		d.Page.TitleHTML = template.HTML("<h1>" + esc(d.Claim.Text) + "</h1>") //nolint:gosec // escaped
		d.Page.Breadcrumbs = d.Page.Breadcrumbs[:len(d.Page.Breadcrumbs)-1]
		d.Page.Description = clip(d.Claim.Text, 160)
		// The card shows what the generated claim note says; only a
		// person's own notes are kept from its body.
		d.Page.Content = humanNotes(d.Page.Content)
		d.Page.TOC = ""
	}
	if d.Claim == nil && noHumanNotes(n.Doc) {
		// A generated note (a report) whose "Notes" section nobody wrote
		// in ends without it, and its table of contents does not list it.
		if i := strings.LastIndex(string(d.Page.Content), `<h2 id="notes">`); i >= 0 {
			d.Page.Content = d.Page.Content[:i]
			d.Page.TOC = toc(n.Doc.Headings[:len(n.Doc.Headings)-1])
		}
	}
	d.Page.Legend = legendFor(d.Page.Content)
	d.Body = s.dreamChanges(n, page, r)
	if err := s.render(page, "note.html", d, r); err != nil {
		return err
	}
	// The twin doubles as the hover preview's source (ui/preview.ts).
	return s.writeTwin(n, page, r)
}

// writeTwin writes the Markdown twin of n's page.
func (s *site) writeTwin(n *vault.Note, page string, r *reads) error {
	r.file(twinPath(page))
	return s.write(twinPath(page), s.twin(n, page, r))
}

// maxBacklinks caps the backlinks a page lists.
const maxBacklinks = 40

// pageInfo fills what every note page shows around the content.
func (s *site) pageInfo(n *vault.Note, page string, r *reads) pageInfo {
	r.note(depContent, n)
	r.note(depBacklinks, n)
	p := pageInfo{
		Kind:         string(n.Kind),
		KindLabel:    n.Kind.Label(),
		Title:        n.Title,
		MarkdownTwin: path.Base(twinPath(page)),
		Updated:      n.Date,
		Source:       n.Source,
		TOC:          toc(n.Doc.Headings),
		Breadcrumbs:  s.breadcrumbs(page, n.Title, r),
		LocalGraph:   true,
	}
	for _, t := range n.Doc.Tags {
		p.Tags = append(p.Tags, link{Name: t, URL: rel(page, tagPage(t))})
	}
	for _, b := range s.v.Backlinks(n) {
		r.note(depURL, b)
		u, ok := s.pages[b]
		if !ok {
			continue
		}
		// A hub (MEMORY.md, a busy daily log) can have thousands of
		// backlinks; the page lists the first ones and counts the rest, so
		// it stays the size of its own content.
		if len(p.Backlinks) == maxBacklinks {
			p.MoreBacklinks++
			continue
		}
		r.note(depTitle, b)
		p.Backlinks = append(p.Backlinks, link{Title: b.Title, URL: rel(page, u), Note: true})
	}
	return p
}

// humanNotes keeps the "Notes" section of a generated note when a person
// wrote something in it, and nothing otherwise.
func humanNotes(content template.HTML) template.HTML {
	c := string(content)
	i := strings.Index(c, `<h2 id="notes">`)
	if i < 0 {
		return ""
	}
	rest := c[i:]
	body := rest[strings.Index(rest, "</h2>")+len("</h2>"):]
	if strings.TrimSpace(body) == "" {
		return ""
	}
	return template.HTML(rest) //nolint:gosec // cut from our own HTML
}

// splitTitle takes a leading <h1> off rendered content, so the layout
// can show it as the page title with the page's facts under it.
func splitTitle(content template.HTML) (title, rest template.HTML) {
	c := string(content)
	if !strings.HasPrefix(c, "<h1") {
		return "", content
	}
	end := strings.Index(c, "</h1>")
	if end < 0 {
		return "", content
	}
	end += len("</h1>")
	return template.HTML(c[:end]), template.HTML(strings.TrimLeft(c[end:], "\n")) //nolint:gosec // cut from our own HTML
}

// describe is the start of a page's text, for search engines and link
// previews: read off the rendered content (the title already taken off),
// which is cheaper than walking the note again.
func describe(h string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(h) && b.Len() < 400; {
		switch c := h[i]; {
		case c == '<':
			end := strings.IndexByte(h[i:], '>')
			if end < 0 {
				i = len(h)
				continue
			}
			if strings.HasPrefix(h[i+1:], `a class="heading-anchor"`) {
				if close := strings.Index(h[i:], "</a>"); close >= 0 {
					i += close + len("</a>")
					continue
				}
			}
			if isBlockTag(h[i+1 : i+end]) {
				space = true // block boundaries separate words; inline tags do not
			}
			i += end + 1
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			space = true
			i++
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteByte(c)
			i++
		}
	}
	return clip(html.UnescapeString(b.String()), 160)
}

// isBlockTag reports whether a tag (without its angle brackets) opens or
// closes a block, or is a line break.
func isBlockTag(tag string) bool {
	tag = strings.TrimPrefix(tag, "/")
	if i := strings.IndexAny(tag, " \t\n/"); i >= 0 {
		tag = tag[:i]
	}
	switch tag {
	case "p", "li", "ul", "ol", "div", "br", "tr", "td", "th", "table", "blockquote", "pre", "details", "summary",
		"h1", "h2", "h3", "h4", "h5", "h6", "hr", "section", "dd", "dt":
		return true
	}
	return false
}

// clip cuts s to at most n runes at a word boundary, with an ellipsis.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// description is the first ~160 characters of the note's text, for
// search engines and link previews.
func description(d *markdown.Doc) string {
	t := strings.Join(strings.Fields(d.PlainText()), " ")
	t = strings.TrimPrefix(t, d.Title)
	t = strings.TrimSpace(t)
	if len([]rune(t)) > 160 {
		r := []rune(t)[:157]
		t = strings.TrimSpace(string(r)) + "…"
	}
	return t
}

// toc renders headings of levels 2 to 4 as nested lists.
func toc(hs []markdown.Heading) template.HTML {
	var items []markdown.Heading
	for _, h := range hs {
		if h.Level >= 2 && h.Level <= 4 {
			items = append(items, h)
		}
	}
	if len(items) < 2 {
		return ""
	}
	var b strings.Builder
	depth := 0
	base := items[0].Level
	for _, h := range items {
		if h.Level < base {
			base = h.Level
		}
	}
	for i, h := range items {
		level := h.Level - base + 1
		switch {
		case level > depth:
			for ; depth < level; depth++ {
				b.WriteString("<ol>")
				if depth+1 < level {
					b.WriteString("<li>")
				}
			}
		case level < depth:
			for ; depth > level; depth-- {
				b.WriteString("</li></ol>")
			}
			b.WriteString("</li>")
		default:
			if i > 0 {
				b.WriteString("</li>")
			}
		}
		fmt.Fprintf(&b, `<li><a href="#%s">%s</a>`, template.HTMLEscapeString(h.ID), template.HTMLEscapeString(h.Text))
	}
	for ; depth > 0; depth-- {
		b.WriteString("</li></ol>")
	}
	return template.HTML(b.String()) //nolint:gosec // every piece is escaped above
}

// breadcrumbs links the home page and each folder above the page.
func (s *site) breadcrumbs(page, title string, r *reads) []link {
	if page == "index.html" {
		return nil
	}
	crumbs := []link{{Title: "Home", URL: rel(page, "index.html")}}
	dir := folderOf(page)
	if dir != "" {
		parts := strings.Split(dir, "/")
		for i := range parts {
			f := strings.Join(parts[:i+1], "/")
			title := parts[i]
			r.add(depFolderTitle, f)
			if fo := s.folders[f]; fo != nil {
				title = fo.Title
			}
			crumbs = append(crumbs, link{Title: title, URL: rel(page, f+"/index.html")})
		}
	}
	if last := crumbs[len(crumbs)-1]; len(crumbs) > 1 && last.Title == title {
		crumbs = crumbs[:len(crumbs)-1] // a folder's own page: "Reports", not "Reports / Reports"
	}
	return append(crumbs, link{Title: title})
}
