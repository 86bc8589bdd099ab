package site

// readClaims reads the published claims from the vault's provenance. The
// provenance stage (internal/provenance) is not in the vault yet, so there
// are none; the memory views show what they can without them.
func (s *site) readClaims() []*claimInfo { return nil }
