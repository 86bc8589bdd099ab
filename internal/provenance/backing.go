package provenance

import "slices"

// Backing says in a word how well a claim is backed, for the markers the
// site shows beside every entry and for search results. It is read off
// the claim's status and the lint findings recorded for it, so that a
// marker and `dreamwiki check` never disagree.
type Backing string

// The backings, from retired to well supported.
const (
	BackingSuperseded Backing = "superseded"
	BackingArchived   Backing = "archived"
	BackingLapsed     Backing = "lapsed"
	BackingContested  Backing = "contested"
	BackingStale      Backing = "stale"
	BackingNone       Backing = "none" // no evidence
	BackingSupported  Backing = "supported"
)

// Backing returns how well c is backed. Retirement outranks everything (a
// superseded fact is history however well it was supported), then a
// lapsed permission, a contradiction, staleness and a lack of evidence.
func (c *Claim) Backing() Backing {
	switch {
	case c.Status == StatusSuperseded:
		return BackingSuperseded
	case c.Status == StatusArchived:
		return BackingArchived
	case c.Lapsed():
		return BackingLapsed
	case c.Status == StatusContested || slices.Contains(c.Findings, "claim-contested"):
		return BackingContested
	case slices.Contains(c.Findings, "claim-stale"):
		return BackingStale
	case len(c.Evidence) == 0:
		return BackingNone
	}
	return BackingSupported
}
