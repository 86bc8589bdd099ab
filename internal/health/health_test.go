package health

import (
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

func claim(tier memory.Tier, recalls int, evidence bool, findings ...string) *provenance.Claim {
	c := &provenance.Claim{Status: provenance.StatusCurrent, Origin: provenance.OriginIndex, Tier: tier, Recalls: recalls, Findings: findings}
	if evidence {
		c.Evidence = []provenance.Evidence{{Path: "memory/2026-03-01.md"}}
	}
	return c
}

func TestOf_EachPartFollowsItsFormula(t *testing.T) {
	perm := claim(memory.TierCold, 0, true, "permission-lapsed")
	perm.Permission = &provenance.Permission{Lapsed: true}
	superseded := claim(memory.TierHot, 50, false)
	superseded.Status = provenance.StatusSuperseded
	res := &provenance.Result{
		Claims: []*provenance.Claim{
			claim(memory.TierHot, 3, true),                     // w 4, fresh
			claim(memory.TierCold, 0, false, "claim-stale"),    // w 1
			claim(memory.TierWarm, 0, true, "duplicate-entry"), // w 1, fresh
			perm,       // w 1
			superseded, // not live: counts nowhere
		},
		Budget: &provenance.Budget{Chars: 18000, MaxChars: 20000, TargetChars: 16000},
	}
	h := Of(res)
	want := map[string]float64{
		Freshness:   0.714, // (4+1)/(4+1+1+1)
		Evidence:    0.75,  // 3 of 4
		Agreement:   0.75,  // 1 stale of 4
		Permissions: 0,     // 1 lapsed of 1
		Budget:      0.5,   // halfway from the target to the limit
		Duplication: 0.75,  // 1 of 4
	}
	for _, p := range h.Parts {
		if p.Value != want[p.Name] {
			t.Errorf("%s = %v, want %v", p.Name, p.Value, want[p.Name])
		}
	}
	// 100 × (0.25·0.714 + 0.25·0.75 + 0.15·0.75 + 0.10·0 + 0.15·0.5 + 0.10·0.75)
	if h.Score != 63 { // 62.85
		t.Errorf("score %d, want 63", h.Score)
	}
}

func TestOf_EmptyMemoryIsHealthy(t *testing.T) {
	if h := Of(&provenance.Result{}); h.Score != 100 {
		t.Errorf("score %d for an empty memory, want 100", h.Score)
	}
}
