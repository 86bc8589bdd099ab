// Package health scores a memory: one number from 0 to 100 made of named
// parts, each a share from 0 to 1 with its formula below, so a user can
// see which part pulled the score down. It reads a provenance result and
// nothing else; `dreamwiki check` reports it and fails under
// --min-health.
//
// The claims counted ("live" claims) are those a reader of the memory
// acts on: from MEMORY.md and the topic files, neither superseded nor
// archived. Each part is 1 when there is nothing to count.
//
//	freshness    Σ w·[tier is hot, warm or crystallised] / Σ w over live
//	             claims, w = 1 + recalls: memory in use should be recent
//	             or proven.
//	evidence     live claims with at least one piece of evidence / live
//	             claims.
//	agreement    1 − live claims found contested or stale / live claims.
//	permissions  1 − lapsed permissions / permissions, among live claims.
//	budget       MEMORY.md's headroom: 1 up to the target size (by default
//	             80% of the limit), falling linearly to 0 at the limit.
//	duplication  1 − live claims that repeat another word for word / live
//	             claims.
//
// score = 100 × (0.25 freshness + 0.25 evidence + 0.15 agreement +
// 0.10 permissions + 0.15 budget + 0.10 duplication), rounded to a
// whole number.
package health

import (
	"math"
	"slices"

	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// Part is one named part of the score.
type Part struct {
	Name string `json:"name"`
	// Value is the part's share, 0 to 1.
	Value float64 `json:"value"`
	// Weight is the part's weight in the score; the weights add up to 1.
	Weight float64 `json:"weight"`
	// Count and Of are what the share was counted from ("3 of 40
	// claims"); both 0 for budget.
	Count int `json:"count"`
	Of    int `json:"of"`
}

// Health is a memory's score and its parts.
type Health struct {
	Score int    `json:"score"`
	Parts []Part `json:"parts"`
}

// The part names.
const (
	Freshness   = "freshness"
	Evidence    = "evidence"
	Agreement   = "agreement"
	Permissions = "permissions"
	Budget      = "budget"
	Duplication = "duplication"
)

// Of scores the memory res analysed.
func Of(res *provenance.Result) Health {
	var live []*provenance.Claim
	for _, c := range res.Claims {
		if c.Origin != provenance.OriginArchive && c.Status != provenance.StatusSuperseded && c.Status != provenance.StatusArchived {
			live = append(live, c)
		}
	}
	var freshW, allW float64
	var fresh, evidenced, disputed, perms, lapsed, dups int
	for _, c := range live {
		w := 1 + float64(c.Recalls)
		allW += w
		if c.Tier == memory.TierHot || c.Tier == memory.TierWarm || c.Tier == memory.TierCrystallised {
			freshW += w
			fresh++
		}
		if len(c.Evidence) > 0 {
			evidenced++
		}
		if len(c.Contests) > 0 || slices.Contains(c.Findings, "claim-stale") {
			disputed++
		}
		if c.Permission != nil {
			perms++
			if c.Permission.Lapsed {
				lapsed++
			}
		}
		if slices.Contains(c.Findings, "duplicate-entry") {
			dups++
		}
	}
	n := len(live)
	parts := []Part{
		{Name: Freshness, Value: ratio(freshW, allW), Weight: 0.25, Count: fresh, Of: n},
		{Name: Evidence, Value: ratio(float64(evidenced), float64(n)), Weight: 0.25, Count: evidenced, Of: n},
		{Name: Agreement, Value: 1 - ratio0(disputed, n), Weight: 0.15, Count: disputed, Of: n},
		{Name: Permissions, Value: 1 - ratio0(lapsed, perms), Weight: 0.10, Count: lapsed, Of: perms},
		{Name: Budget, Value: headroom(res.Budget), Weight: 0.15},
		{Name: Duplication, Value: 1 - ratio0(dups, n), Weight: 0.10, Count: dups, Of: n},
	}
	var score float64
	for i := range parts {
		parts[i].Value = math.Round(parts[i].Value*1000) / 1000
		score += parts[i].Weight * parts[i].Value
	}
	return Health{Score: int(math.Round(100 * score)), Parts: parts}
}

// ratio is a/b, 1 when there is nothing to count.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 1
	}
	return a / b
}

// ratio0 is a/b, 0 when there is nothing to count.
func ratio0(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// headroom is 1 up to the budget's target size, 0 at its limit and
// beyond, linear between; 1 without a budget.
func headroom(b *provenance.Budget) float64 {
	if b == nil || b.MaxChars <= 0 {
		return 1
	}
	target := min(b.TargetChars, b.MaxChars)
	switch {
	case b.Chars <= target:
		return 1
	case b.Chars >= b.MaxChars:
		return 0
	}
	return float64(b.MaxChars-b.Chars) / float64(b.MaxChars-target)
}
