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
	// lapsedBlocks are, per note, the HTML ids of entries whose claim is
	// a lapsed permission, so pages can mark them.
	lapsedBlocks map[*vault.Note][]string
	result       *provenance.Result
}

// claimInfo is one published claim and the published notes around it.
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
	Evidence           []evidenceInfo
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
	Contests              []link
	Dreams                []link
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

// collectMemory gathers the memory views' data.
func (s *site) collectMemory() *memory {
	m := &memory{
		byNote: map[*vault.Note]*claimInfo{}, byID: map[string]*claimInfo{},
		bySource: map[string]*vault.Note{}, lapsedBlocks: map[*vault.Note][]string{},
		result: s.v.Provenance,
	}
	for _, n := range s.notes {
		if n.Source != "" {
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
	s.mem = m
	s.readClaims()
	return m
}
