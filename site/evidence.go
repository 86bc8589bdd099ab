package site

import (
	"html/template"
	"regexp"
	"strconv"
	"strings"

	"github.com/dreamwiki/dreamwiki/vault"
)

// evidenceState is what a reader is told about how well a remembered
// entry is backed: the same key (a CSS class and the legend's row) and
// words wherever an entry is shown.
type evidenceState struct {
	Key   string // supported, none, contested, stale, superseded, lapsed, archived
	Label string // the words a screen reader reads
	Help  string // one sentence for the legend and the marker's tooltip
}

// evidenceStates are the states in the order the legend explains them.
var evidenceStates = []evidenceState{
	{"supported", "supported", "Evidence in the workspace (a log line, a pointer or a recall) backs this entry."},
	{"none", "no evidence", "Nothing in the workspace backs this entry: no pointer, recall or log line."},
	{"contested", "contested", "Another entry says otherwise; one of them is wrong."},
	{"stale", "stale", "Newer evidence says otherwise, or it decayed below the archive threshold."},
	{"superseded", "superseded", "A newer fact replaced this one; it is kept as history."},
	{"archived", "archived", "Moved to the archive; no longer part of working memory."},
	{"lapsed", "lapsed", "A permission whose expiry date has passed: ask again before acting on it."},
}

// stateOf is how a claim is backed (provenance.Claim.Backing), in words.
func stateOf(ci *claimInfo) evidenceState {
	key := string(ci.c.Backing())
	for _, st := range evidenceStates {
		if st.Key == key {
			return st
		}
	}
	return evidenceStates[0]
}

// claimLink is the "[[claims/x|claim]]" link the vault appends to every
// entry of MEMORY.md and the topic files, as the Markdown engine renders
// it (markdown.writeInternal).
var claimLink = regexp.MustCompile(`<a class="internal" href="([^"]*)" data-path="(` + vault.ClaimsFolder + `/[^"]+\.md)">claim</a>`)

// markClaims turns each claim link in a rendered note into an evidence
// marker: the claim's state in words, its evidence count, and the
// evidence itself (excerpts linked to their highlighted lines), shown on
// hover or focus by CSS alone so that it works without JavaScript. A
// written "Source: path#Lx-Ly" pointer in the same note becomes a link
// to the lines it names.
func (s *site) markClaims(h string, page string, r *reads) string {
	ms := claimLink.FindAllStringSubmatchIndex(h, -1)
	if len(ms) == 0 {
		return h
	}
	var b strings.Builder
	b.Grow(len(h) + len(ms)*400)
	last := 0
	var pointers []pointer
	for i, m := range ms {
		n := s.v.Note(h[m[4]:m[5]])
		ci := s.mem.byNote[n]
		if ci == nil {
			continue
		}
		b.WriteString(h[last:m[0]])
		last = m[1]
		pointers = s.writeMarker(&b, ci, h[m[2]:m[3]], page, "ev-"+strconv.Itoa(i+1), pointers, r)
	}
	b.WriteString(h[last:])
	return linkPointers(b.String(), pointers)
}

// pointer is the start of a written evidence pointer ("memory/x.md#L",
// followed by "3-L4" in the text) and the URL of the evidence it found.
type pointer struct{ text, url string }

// writeMarker writes one claim's evidence marker and returns pointers
// with the pointers of its evidence added.
func (s *site) writeMarker(b *strings.Builder, ci *claimInfo, href, page, id string, pointers []pointer, r *reads) []pointer {
	// The marker shows the claim note's state and evidence: it is read
	// whole, like an embed.
	r.note(depContent, ci.note)
	evidence := s.evidence(ci, r)
	st := stateOf(ci)
	b.WriteString(`<span class="ev ev-` + st.Key + `">`)
	b.WriteString(`<a class="ev-badge" href="` + href + `" aria-describedby="` + id + `">`)
	b.WriteString(`<span class="ev-dot" aria-hidden="true"></span>` + esc(st.Label))
	if n := len(evidence); n > 0 {
		b.WriteString(`<span class="ev-n"><span class="visually-hidden">, evidence: </span>` + strconv.Itoa(n) + `</span>`)
	}
	b.WriteString(`</a><span class="ev-pop" role="tooltip" id="` + id + `"><span class="ev-help">` + esc(st.Help) + `</span>`)
	for _, e := range evidence {
		if e.Private {
			b.WriteString(`<span class="ev-item">A private note (not published)</span>`)
			continue
		}
		u := rel(page, s.url(e.Note, r))
		if e.Anchor != "" {
			u += "#" + e.Anchor
		}
		where := e.Path
		if r := lineRange(e.StartLine, e.EndLine); r != "" {
			where += ", " + r
		}
		b.WriteString(`<span class="ev-item"><a href="` + esc(u) + `">` + esc(where) + `</a>`)
		if e.Excerpt != "" {
			b.WriteString(` <q>` + esc(e.Excerpt) + `</q>`)
		}
		b.WriteString(`</span>`)
		if e.StartLine > 0 {
			pointers = append(pointers, pointer{e.Path + "#L", u})
		}
	}
	b.WriteString(`</span></span>`)
	return pointers
}

// linkPointers links every written pointer in text (never inside a tag or
// an existing link) that names lines some marker's evidence points to.
func linkPointers(h string, pointers []pointer) string {
	if len(pointers) == 0 {
		return h
	}
	var b strings.Builder
	b.Grow(len(h) + len(pointers)*60)
	inLink := false
	for len(h) > 0 {
		i := strings.IndexByte(h, '<')
		if i < 0 {
			i = len(h)
		}
		text := h[:i]
		if !inLink {
			text = linkPointersInText(text, pointers)
		}
		b.WriteString(text)
		h = h[i:]
		if h == "" {
			break
		}
		j := strings.IndexByte(h, '>')
		if j < 0 {
			j = len(h) - 1
		}
		tag := h[:j+1]
		switch {
		case strings.HasPrefix(tag, "<a ") || tag == "<a>":
			inLink = true
		case tag == "</a>":
			inLink = false
		}
		b.WriteString(tag)
		h = h[j+1:]
	}
	return b.String()
}

func linkPointersInText(text string, pointers []pointer) string {
	if !strings.Contains(text, "#L") {
		return text
	}
	var b strings.Builder
	for {
		k, p := -1, pointer{}
		for _, q := range pointers {
			if i := strings.Index(text, q.text); i >= 0 && (k < 0 || i < k) && digitAt(text, i+len(q.text)) {
				k, p = i, q
			}
		}
		if k < 0 {
			b.WriteString(text)
			return b.String()
		}
		end := k + len(p.text) + lineSpan(text[k+len(p.text):])
		b.WriteString(text[:k] + `<a class="ev-pointer" href="` + esc(p.url) + `">` + text[k:end] + `</a>`)
		text = text[end:]
	}
}

// lineSpan is the length of the "3" or "3-L4" or "3-4" a pointer's "#L"
// is followed by.
func lineSpan(s string) int {
	i := 0
	for digitAt(s, i) {
		i++
	}
	j := i
	if j < len(s) && s[j] == '-' {
		j++
		if j < len(s) && s[j] == 'L' {
			j++
		}
		if digitAt(s, j) {
			for digitAt(s, j) {
				j++
			}
			i = j
		}
	}
	return i
}

// digitAt reports a digit at s[i].
func digitAt(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

// legendFor is the legend for content with evidence markers, nil for
// content without.
func legendFor(content template.HTML) []evidenceState {
	if !strings.Contains(string(content), `<span class="ev ev-`) {
		return nil
	}
	return evidenceStates
}

// backingOf is the evidence marker of a claim note in lists, nil for
// other notes. It is read as the marker alone (depBacking), not the
// claim: a list of 10,000 claims that read each claim's content was
// rendered again at once whenever one of them changed.
func (s *site) backingOf(n *vault.Note, r *reads) *evidenceState {
	ci := s.mem.byNote[n]
	if ci == nil {
		return nil
	}
	r.note(depBacking, n)
	st := stateOf(ci)
	return &st
}
