package site

import (
	"strconv"

	"github.com/dreamwiki/dreamwiki/vault"
)

// memory is what the memory views need, gathered once per build from the
// vault: claims with their cards, dreams, and the numbers the dashboard
// charts.
type memory struct {
	claims []*claimInfo
	byNote map[*vault.Note]*claimInfo
	dreams []*vault.Note // dream notes, newest first
	daily  []*vault.Note // daily logs, oldest first
}

// claimInfo is one published claim as the site reads it.
type claimInfo struct {
	note *vault.Note
	ID   string
	Text string
	// Type is the memory type (user, feedback, project, reference), Tier
	// the decay tier (hot, warm, cold, crystallised, archived), Status
	// current, superseded, contested or archived.
	Type, Tier, Status string
	Decay              float64
	Recalls            int
	Created            string
	LastRecalled       string
	Lapsed             bool
	ExpiresOn          string
	Evidence           []evidenceInfo
	// Chain is the supersession chain the claim belongs to, oldest first;
	// nil when it has none.
	Chain []*claimInfo
	// ChainDates are the dates each step of Chain began, parallel to it.
	ChainDates []string
}

// evidenceInfo is one piece of evidence: a note (usually a daily log),
// the anchor of the exact lines, and what those lines say.
type evidenceInfo struct {
	Note      *vault.Note // nil when the source is not published
	Path      string      // workspace path, e.g. memory/2026-10-21.md
	Anchor    string      // HTML id in the source page, "" for its top
	StartLine int
	EndLine   int
	Excerpt   string
}

// claimView is the claim card of a claim page, with URLs relative to it.
type claimView struct {
	Text, Type, Tier, Status string
	Decay                    float64
	DecayPct                 int
	Recalls                  int
	Created, LastRecalled    string
	Lapsed                   bool
	ExpiresOn                string
	Evidence                 []evidenceView
	Chain                    []chainStep
}

type evidenceView struct {
	Label   string
	URL     string
	Lines   string
	Excerpt string
}

type chainStep struct {
	Date    string
	Text    string
	URL     string
	Current bool
	This    bool
}

// claimView returns the card for a claim note, nil for other notes.
func (s *site) claimView(n *vault.Note, page string) *claimView {
	if s.mem == nil {
		return nil
	}
	c := s.mem.byNote[n]
	if c == nil {
		return nil
	}
	v := &claimView{
		Text: c.Text, Type: c.Type, Tier: c.Tier, Status: c.Status,
		Decay: c.Decay, DecayPct: int(c.Decay*100 + 0.5), Recalls: c.Recalls,
		Created: c.Created, LastRecalled: c.LastRecalled, Lapsed: c.Lapsed, ExpiresOn: c.ExpiresOn,
	}
	if v.DecayPct > 100 {
		v.DecayPct = 100
	} else if v.DecayPct < 0 {
		v.DecayPct = 0
	}
	for _, e := range c.Evidence {
		ev := evidenceView{Label: e.Path, Excerpt: e.Excerpt, Lines: lineRange(e.StartLine, e.EndLine)}
		if e.Note != nil {
			if target, ok := s.pages[e.Note]; ok {
				ev.URL = rel(page, target)
				if e.Anchor != "" {
					ev.URL += "#" + e.Anchor
				}
			}
		}
		v.Evidence = append(v.Evidence, ev)
	}
	for i, step := range c.Chain {
		cs := chainStep{Text: step.Text, Current: step.Status != "superseded", This: step == c}
		if i < len(c.ChainDates) {
			cs.Date = c.ChainDates[i]
		}
		if target, ok := s.pages[step.note]; ok && step != c {
			cs.URL = rel(page, target)
		}
		v.Chain = append(v.Chain, cs)
	}
	return v
}

func lineRange(a, b int) string {
	switch {
	case a <= 0:
		return ""
	case b <= a:
		return "line " + strconv.Itoa(a)
	}
	return "lines " + strconv.Itoa(a) + "–" + strconv.Itoa(b)
}

// collectMemory gathers the memory views' data. Claims come from the
// vault's provenance once it has any; dreams and daily logs are notes.
func (s *site) collectMemory() *memory {
	m := &memory{byNote: map[*vault.Note]*claimInfo{}}
	for _, n := range s.notes {
		switch n.Kind {
		case vault.KindDream:
			m.dreams = append(m.dreams, n)
		case vault.KindDaily:
			m.daily = append(m.daily, n)
		}
	}
	sortNotes(m.dreams)
	m.claims = s.readClaims()
	for _, c := range m.claims {
		m.byNote[c.note] = c
	}
	return m
}
