package site

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/vault"
)

// readClaims reads the claims from the claim notes the vault made from
// provenance (vault.Note.Claim), taking those memo has (and filling it).
func (s *site) readClaims(memo claimMemo) {
	m := s.mem
	for _, n := range s.notes {
		c := n.Claim
		if c == nil {
			continue
		}
		ci := memo[n]
		if ci == nil {
			ci = newClaimInfo(n)
			if memo != nil {
				memo[n] = ci
			}
		}
		m.claims = append(m.claims, ci)
		// Serve mode patches the maps (patchMemory): most are set already.
		if m.byNote[n] != ci {
			m.byNote[n] = ci
		}
		if m.byID[c.ID] != ci {
			m.byID[c.ID] = ci
		}
		if ci.Lapsed && c.Block != "" {
			m.lapsed[c.File] = append(m.lapsed[c.File], c.Block)
		}
	}
}

// newClaimInfo is what pages show of claim note n.
func newClaimInfo(n *vault.Note) *claimInfo {
	c := n.Claim
	ci := &claimInfo{
		note: n, c: c, ID: c.ID, Text: c.Text, Type: string(c.MemoryType), Tier: string(c.Tier), Status: string(c.Status),
		Decay: c.Scores.Decay, Recalls: c.Recalls, Created: day(c.Created.Format("2006-01-02"), c.Created.IsZero()),
		LastRecalled: day(c.LastRecall.Format("2006-01-02"), c.LastRecall.IsZero()), Lapsed: c.Lapsed(),
	}
	if c.Permission != nil && !c.Permission.Expires.IsZero() {
		ci.ExpiresOn = c.Permission.Expires.Format("2006-01-02")
	}
	return ci
}

// lapsedBlocks are the blocks of the entries of a workspace file whose
// claims are lapsed permissions.
func (s *site) lapsedBlocks(file string) []string { return s.mem.lapsed[file] }

// lapsedIDs are the HTML ids, in n's page, of entries whose claims are
// lapsed permissions.
func (s *site) lapsedIDs(n *vault.Note, r *reads) []string {
	if n.Source == "" {
		return nil
	}
	r.add(depSource, n.Source)
	r.add(depLapsed, n.Source)
	if s.mem.bySource[n.Source] != n {
		return nil
	}
	var ids []string
	for _, b := range s.lapsedBlocks(n.Source) {
		if id, ok := n.Doc.Anchor("^" + b); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// evidence is a claim's evidence as the site may show it.
func (s *site) evidence(ci *claimInfo, r *reads) []evidenceInfo {
	out := make([]evidenceInfo, 0, len(ci.c.Evidence))
	for _, e := range ci.c.Evidence {
		out = append(out, s.evidenceOf(e, r))
	}
	return out
}

// evidenceOf is one piece of evidence as the site may show it. Evidence
// in a private note (which provenance gives no path, lines or excerpt)
// shows only that it exists.
func (s *site) evidenceOf(e provenance.Evidence, r *reads) evidenceInfo {
	if e.Private {
		return evidenceInfo{Private: true}
	}
	r.add(depURL, e.Note)
	target := s.v.Note(e.Note)
	if target == nil {
		return evidenceInfo{Private: true}
	}
	ei := evidenceInfo{Note: target, Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Excerpt: e.Excerpt, How: methodWords(e)}
	if e.Block != "" {
		r.anchor(target.Path, "^"+e.Block)
		if id, ok := target.Doc.Anchor("^" + e.Block); ok {
			ei.Anchor = id
		}
	}
	return ei
}

func day(d string, zero bool) string {
	if zero {
		return ""
	}
	return d
}

// methodWords says how a piece of evidence was found.
func methodWords(e provenance.Evidence) string {
	m := string(e.Method)
	switch {
	case e.Method.IsPointer():
		return "written pointer"
	case m == "":
		return ""
	}
	return strings.ReplaceAll(m, "-", " ")
}

// claimView returns the card for a claim note, nil for other notes.
func (s *site) claimView(n *vault.Note, page string, r *reads) *claimView {
	ci := s.mem.byNote[n]
	if ci == nil {
		return nil
	}
	c := ci.c
	v := &claimView{
		Text: ci.Text, Type: ci.Type, Tier: ci.Tier, TierWords: tierWords[ci.Tier], State: stateOf(ci),
		Decay: strconv.FormatFloat(ci.Decay, 'f', 2, 64), DecayPct: min(max(int(ci.Decay*100+0.5), 0), 100), Recalls: ci.Recalls,
		Retired: ci.Status == "superseded" || ci.Status == "archived",
		Created: ci.Created, LastRecalled: ci.LastRecalled, Lapsed: ci.Lapsed, ExpiresOn: ci.ExpiresOn,
		Lifecycle: c.Lifecycle,
		DecayParts: fmt.Sprintf("age %.2f + recalls %.2f + recency %.2f%s", c.Scores.Base, c.Scores.Recall, c.Scores.Recency,
			map[bool]string{true: ", structural (never below 0.3)"}[c.Structural]),
	}
	if v.Type == string(provenance.TypeUnclassified) {
		v.Type = ""
	}
	// Where the entry is written.
	where := fmt.Sprintf("%s, line %d", c.File, c.Line)
	if c.Section != "" {
		where += " (" + c.Section + ")"
	}
	v.Written = link{Title: where}
	if src := s.sourceNote(c.File, r); src != nil {
		v.Written.URL = rel(page, s.url(src, r))
		if c.Block != "" {
			r.anchor(src.Path, "^"+c.Block)
			if id, ok := src.Doc.Anchor("^" + c.Block); ok {
				v.Written.URL += "#" + id
			}
		}
	}
	for _, e := range s.evidence(ci, r) {
		if e.Private {
			v.Evidence = append(v.Evidence, evidenceView{Label: "A private note", How: "not published"})
			continue
		}
		ev := evidenceView{Label: e.Path, Excerpt: e.Excerpt, Lines: lineRange(e.StartLine, e.EndLine), How: e.How}
		ev.URL = rel(page, s.pages[e.Note])
		if e.Anchor != "" {
			ev.URL += "#" + e.Anchor
		}
		v.Evidence = append(v.Evidence, ev)
	}
	v.Why = whyWeBelieve(ci, v.State, v.Evidence)
	v.Chain = s.chainOf(ci, page, r)
	v.Events = s.claimHistory(ci.ID, page, r)
	for _, id := range c.Contests {
		if o := s.claimByID(id, r); o != nil {
			r.note(depTitle, o.note)
			v.Contests = append(v.Contests, link{Title: o.note.Title, URL: rel(page, s.url(o.note, r)), Note: true})
		}
	}
	for _, slug := range c.Dreams {
		p := vault.DreamsFolder + "/" + slug + ".md"
		r.add(depURL, p)
		if dn := s.v.Note(p); dn != nil {
			if u, ok := s.pages[dn]; ok {
				r.note(depTitle, dn)
				v.Dreams = append(v.Dreams, link{Title: dn.Title, URL: rel(page, u), Note: true})
			}
		}
	}
	return v
}

// claimByID is the published claim with an id, nil when there is none;
// r reads its card.
func (s *site) claimByID(id string, r *reads) *claimInfo {
	if slug, ok := strings.CutPrefix(id, "claim."); ok {
		r.add(depCard, vault.ClaimsFolder+"/"+slug+".md")
	}
	ci := s.mem.byID[id]
	if ci != nil {
		r.note(depCard, ci.note)
	}
	return ci
}

// sourceNote is the published note of a workspace file, nil when there is
// none.
func (s *site) sourceNote(file string, r *reads) *vault.Note {
	r.add(depSource, file)
	src := s.mem.bySource[file]
	r.note(depURL, src)
	return src
}

// url is the page of a published note, read by r.
func (s *site) url(n *vault.Note, r *reads) string {
	r.note(depURL, n)
	return s.pages[n]
}

// chainOf returns the supersession timeline a claim belongs to, oldest
// first, leaving out claims that are not published.
func (s *site) chainOf(ci *claimInfo, page string, r *reads) []chainStep {
	res := s.mem.result
	if res == nil || len(ci.c.Chain) == 0 {
		return nil
	}
	// The chains of the provenance result are read with its budget.
	r.add(depBudget, "")
	for _, ch := range res.Chains {
		if !containsString(ch.Claims, ci.ID) {
			continue
		}
		var steps []chainStep
		for i, id := range ch.Claims {
			o := s.claimByID(id, r)
			if o == nil {
				continue
			}
			st := chainStep{note: o.note, Text: o.Text, Current: o.Status != string(provenance.StatusSuperseded) && o.Status != string(provenance.StatusArchived), This: o == ci}
			if i < len(ch.Dates) && !ch.Dates[i].IsZero() {
				st.Date = ch.Dates[i].Format("2006-01-02")
			}
			if o != ci {
				st.URL = rel(page, s.url(o.note, r))
			}
			steps = append(steps, st)
		}
		if len(steps) > 1 {
			return steps
		}
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tierWords are the decay tiers (memory.Tier) in plain words, with what
// each means, for readers who never read DESIGN 5.1.
var tierWords = map[string]words{
	"hot":          {"new", "Written less than 48 hours ago."},
	"warm":         {"recent", "Less than 30 days old."},
	"cold":         {"older", "30 days old or more: it fades unless it is recalled."},
	"crystallised": {"settled", "Recalled 20 times or more, so it no longer fades."},
	"archived":     {"fading out", "Its score fell below 0.1 with fewer than two recalls; the next dream moves it to the archive."},
}

// words is a short label and the sentence that explains it.
type words struct{ Label, Help string }

// whyWeBelieve is the one line at the top of a claim page that says what
// backs it.
func whyWeBelieve(ci *claimInfo, st evidenceState, evidence []evidenceView) string {
	var b strings.Builder
	switch n := len(evidence); {
	case st.Key == "none":
		b.WriteString("Nothing backs this: no pointer, recall or log line in the workspace supports it.")
	case n > 0:
		b.WriteString("Backed by " + plural(n, "piece") + " of evidence")
		latest := ""
		for _, e := range evidence {
			if e.URL != "" && e.Label > latest {
				latest = e.Label
			}
		}
		if latest != "" {
			b.WriteString(", the latest in " + latest)
		}
		b.WriteString(".")
	}
	switch {
	case ci.Recalls > 0 && ci.LastRecalled != "":
		fmt.Fprintf(&b, " Recalled %s, last on %s.", plural(ci.Recalls, "time"), ci.LastRecalled)
	case ci.Recalls > 0:
		fmt.Fprintf(&b, " Recalled %s.", plural(ci.Recalls, "time"))
	}
	if st.Key != "supported" && st.Key != "none" {
		b.WriteString(" " + st.Help)
	}
	return strings.TrimSpace(b.String())
}

// sortRuns orders dream-run notes oldest first.
func sortRuns(ns []*vault.Note) {
	sort.SliceStable(ns, func(i, j int) bool {
		a, b := ns[i].Dream, ns[j].Dream
		if !a.Date.Equal(b.Date) {
			return a.Date.Before(b.Date)
		}
		return a.Slug < b.Slug
	})
}
