package site

import (
	"strconv"

	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/vault"
)

// memory is what the memory views need, gathered once per build from the
// vault and its provenance: claims with their notes, dream runs, daily
// logs, and the notes each workspace file became.
type memory struct {
	claims []*claimInfo // published claims, in provenance order
	byNote map[*vault.Note]*claimInfo
	byID   map[string]*claimInfo
	// runs are dream-run notes (n.Dream set), oldest first; dreams every
	// other note of kind dream, newest first.
	runs   []*vault.Note
	dreams []*vault.Note
	daily  []*vault.Note // daily logs
	// bySource maps a workspace path to its published note.
	bySource map[string]*vault.Note
	// resourced are the workspace paths whose note a serve-mode update may
	// have changed (see patchMemory); nil: any.
	resourced map[string]bool
	// lapsed are, per workspace file, the blocks of entries whose claim is
	// a lapsed permission, so their pages can mark them.
	lapsed map[string][]string
	result *provenance.Result
}

// claimInfo is one published claim as pages show it: a function of its
// note alone, so serve mode keeps it as long as the note (claimMemo). What
// it says of other notes (where its evidence is, and whether that is
// published) is read when a page renders (evidenceOf).
type claimInfo struct {
	note *vault.Note
	c    *provenance.Claim
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
}

// evidenceInfo is one piece of evidence: the note (usually a daily log),
// the HTML id of the exact lines, and what those lines say.
type evidenceInfo struct {
	Note      *vault.Note // nil when the source is not published
	Path      string      // workspace path, e.g. memory/2026-10-21.md
	Anchor    string      // HTML id in the source page, "" for its top
	StartLine int
	EndLine   int
	Excerpt   string
	How       string // how it was found, in words
	// Private evidence is in a note that is not published: nothing about
	// it is shown but that it exists.
	Private bool
}

// claimView is the claim card of a claim page, with URLs relative to it.
type claimView struct {
	Text, Type, Tier string
	TierWords        words
	// State is how well the claim is backed, as its markers say; Why says
	// it in a sentence.
	State                 evidenceState
	Why                   string
	Decay                 string // 0.00 to 1.00, formatted here: a template's printf is a slow reflective call
	DecayPct              int
	DecayParts            string
	Retired               bool // superseded or archived
	Recalls               int
	Created, LastRecalled string
	Lapsed                bool
	ExpiresOn             string
	Lifecycle             string
	Written               link
	Evidence              []evidenceView
	Chain                 []chainStep
	// Events are what happened to the claim from one point of the
	// memory's history to the next (Options.History), oldest first.
	Events   []link
	Contests []link
	Dreams   []link
}

type evidenceView struct {
	Label   string
	URL     string
	Lines   string
	How     string
	Excerpt string
}

type chainStep struct {
	note    *vault.Note
	Date    string
	Text    string
	URL     string
	Current bool
	This    bool
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

// gather lists the dream runs, the other dream notes and the daily logs
// of notes, and maps each workspace path that remap accepts to the last
// note (by path) made from it.
func (m *memory) gather(notes []*vault.Note, remap func(source string) bool) {
	for _, n := range notes {
		if n.Source != "" && remap(n.Source) {
			m.bySource[n.Source] = n
		}
		switch {
		case n.Dream != nil:
			m.runs = append(m.runs, n)
		case n.Kind == vault.KindDream:
			m.dreams = append(m.dreams, n)
		case n.Kind == vault.KindDaily:
			m.daily = append(m.daily, n)
		}
	}
	sortNotes(m.dreams)
	sortRuns(m.runs)
}

// collectMemory gathers the memory views' data. memo, when not nil, keeps
// each claim note's claimInfo between serve mode's updates: a note never
// changes, so neither does what is made of it alone.
func (s *site) collectMemory(memo claimMemo) *memory {
	m := &memory{
		byNote: map[*vault.Note]*claimInfo{}, byID: map[string]*claimInfo{},
		bySource: map[string]*vault.Note{}, lapsed: map[string][]string{},
		result: s.v.Provenance,
	}
	m.gather(s.notes, func(string) bool { return true })
	s.mem = m
	s.readClaims(memo)
	return m
}

// claimMemo maps claim notes to what readClaims made of them.
type claimMemo map[*vault.Note]*claimInfo
