package memory

import (
	"math"
	"testing"
	"time"
)

const day = 24 * time.Hour

// now is the fixed clock of every test in this package.
var now = time.Date(2026, 4, 14, 12, 0, 0, 0, time.UTC)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TestEvaluate_HandComputed checks the DESIGN 5.1 formula on cases worked
// out by hand: base = 1 - days/365, recall = min(n*0.05, 0.5), recency =
// 0.2 within 7 days, 0.1 within 30, score = clamp(sum, 0, 1).
func TestEvaluate_HandComputed(t *testing.T) {
	tests := []struct {
		name                  string
		in                    Input
		base, recall, recency float64
		score                 float64
		tier                  Tier
	}{
		// 1h old: base = 1 - (1/24)/365 = 0.99988584; score the same.
		{"new entry", Input{Created: now.Add(-time.Hour)}, 0.99988584, 0, 0, 0.99988584, TierHot},
		// 10d: base = 1 - 10/365 = 0.97260274; 3 recalls = 0.15; recalled 2d ago = 0.2;
		// sum = 1.32260274 -> clamped to 1.
		{"recent and recalled clamps to 1", Input{Created: now.Add(-10 * day), LastRecalled: now.Add(-2 * day), RecallCount: 3}, 0.97260274, 0.15, 0.2, 1, TierWarm},
		// 100d: base = 1 - 100/365 = 0.72602740.
		{"never recalled, 100 days", Input{Created: now.Add(-100 * day)}, 0.72602740, 0, 0, 0.72602740, TierCold},
		// 200d: base = 1 - 200/365 = 0.45205479; 4 recalls = 0.2; 20d ago = 0.1;
		// score = 0.75205479.
		{"recalled within the month", Input{Created: now.Add(-200 * day), LastRecalled: now.Add(-20 * day), RecallCount: 4}, 0.45205479, 0.2, 0.1, 0.75205479, TierCold},
		// 340d: base = 1 - 340/365 = 0.06849315 < 0.1 with 0 recalls -> archived.
		{"faded and never recalled is archived", Input{Created: now.Add(-340 * day)}, 0.06849315, 0, 0, 0.06849315, TierArchived},
		// 340d: base 0.06849315 + 1 recall 0.05 (60d ago, no recency) = 0.11849315 >= 0.1 -> kept.
		{"one recall keeps it above 0.1", Input{Created: now.Add(-340 * day), LastRecalled: now.Add(-60 * day), RecallCount: 1}, 0.06849315, 0.05, 0, 0.11849315, TierCold},
		// 360d: base = 1 - 360/365 = 0.01369863 + 0.05 = 0.06369863 < 0.1, 1 recall < 2 -> archived.
		{"one old recall is not enough", Input{Created: now.Add(-360 * day), LastRecalled: now.Add(-100 * day), RecallCount: 1}, 0.01369863, 0.05, 0, 0.06369863, TierArchived},
		// 400d: base = 1 - 400/365 = -0.09589041 + 2 recalls 0.1 = 0.00410959 < 0.1,
		// but 2 recalls is not < 2 -> kept, cold.
		{"two recalls are never archived", Input{Created: now.Add(-400 * day), LastRecalled: now.Add(-90 * day), RecallCount: 2}, -0.09589041, 0.1, 0, 0.00410959, TierCold},
		// 400d: base -0.09589041 + 10 recalls (0.5, capped) + 3d ago 0.2 = 0.60410959.
		{"past max age, kept alive by recalls", Input{Created: now.Add(-400 * day), LastRecalled: now.Add(-3 * day), RecallCount: 10}, -0.09589041, 0.5, 0.2, 0.60410959, TierCold},
		// 400d structural: base -0.09589041 -> clamp 0 -> floor 0.3; never archived.
		{"structural floor", Input{Created: now.Add(-400 * day), Structural: true}, -0.09589041, 0, 0, 0.3, TierCold},
		// 20d structural: base = 1 - 20/365 = 0.94520548, above the floor.
		{"structural above the floor", Input{Created: now.Add(-20 * day), Structural: true}, 0.94520548, 0, 0, 0.94520548, TierWarm},
		// 300d: base = 1 - 300/365 = 0.17808219 + 25*0.05=1.25 capped 0.5 + 40d ago 0
		// = 0.67808219, but 25 >= 20 recalls -> crystallised, score 1.
		{"crystallised never decays", Input{Created: now.Add(-300 * day), LastRecalled: now.Add(-40 * day), RecallCount: 25}, 0.17808219, 0.5, 0, 1, TierCrystallised},
		// 250d: base = 1 - 250/365 = 0.31506849 + 15*0.05=0.75 capped 0.5 + 8d ago 0.1
		// = 0.91506849.
		{"recall boost is capped at 0.5", Input{Created: now.Add(-250 * day), LastRecalled: now.Add(-8 * day), RecallCount: 15}, 0.31506849, 0.5, 0.1, 0.91506849, TierCold},
		// 300d: base 0.17808219 + 0.05 + exactly 7d ago 0.2 (<= 7d) = 0.42808219.
		{"recalled exactly 7 days ago", Input{Created: now.Add(-300 * day), LastRecalled: now.Add(-7 * day), RecallCount: 1}, 0.17808219, 0.05, 0.2, 0.42808219, TierCold},
		// Same, 7d+1s ago: recency 0.1; 0.17808219 + 0.05 + 0.1 = 0.32808219.
		{"recalled just over 7 days ago", Input{Created: now.Add(-300 * day), LastRecalled: now.Add(-7*day - time.Second), RecallCount: 1}, 0.17808219, 0.05, 0.1, 0.32808219, TierCold},
		// 300d: recalled exactly 30d ago: 0.1; 30d+1s: 0. 0.17808219 + 0.05 + 0 = 0.22808219.
		{"recalled just over 30 days ago", Input{Created: now.Add(-300 * day), LastRecalled: now.Add(-30*day - time.Second), RecallCount: 1}, 0.17808219, 0.05, 0, 0.22808219, TierCold},
		// Unknown creation counts as 365d: base 0 + 3*0.05 + 1d ago 0.2 = 0.35.
		{"unknown creation date", Input{LastRecalled: now.Add(-day), RecallCount: 3}, 0, 0.15, 0.2, 0.35, TierCold},
		// Created 1h in the future (clock skew) counts as age 0: base 1.
		{"future creation counts as now", Input{Created: now.Add(time.Hour)}, 1, 0, 0, 1, TierHot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Evaluate(tt.in, now, DefaultParams())
			if !near(r.Base, tt.base) || !near(r.Recall, tt.recall) || !near(r.Recency, tt.recency) {
				t.Errorf("parts = %.8f + %.8f + %.8f, want %.8f + %.8f + %.8f", r.Base, r.Recall, r.Recency, tt.base, tt.recall, tt.recency)
			}
			if !near(r.Score, tt.score) || r.Tier != tt.tier {
				t.Errorf("Evaluate = %.8f %s, want %.8f %s", r.Score, r.Tier, tt.score, tt.tier)
			}
		})
	}
}

func TestEvaluate_TierBoundaries(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want Tier
	}{
		{"47 hours is hot", Input{Created: now.Add(-47 * time.Hour)}, TierHot},
		{"exactly 48 hours is warm", Input{Created: now.Add(-48 * time.Hour)}, TierWarm},
		{"49 hours is warm", Input{Created: now.Add(-49 * time.Hour)}, TierWarm},
		{"29 days is warm", Input{Created: now.Add(-29 * day)}, TierWarm},
		{"exactly 30 days is cold", Input{Created: now.Add(-30 * day)}, TierCold},
		{"31 days is cold", Input{Created: now.Add(-31 * day)}, TierCold},
		{"364 days is cold", Input{Created: now.Add(-364 * day), RecallCount: 2}, TierCold},
		{"19 recalls is not crystallised", Input{Created: now.Add(-100 * day), RecallCount: 19}, TierCold},
		{"20 recalls crystallises", Input{Created: now.Add(-100 * day), RecallCount: 20}, TierCrystallised},
		{"a new entry with 20 recalls is crystallised, not hot", Input{Created: now.Add(-time.Hour), RecallCount: 20}, TierCrystallised},
		// base = 1 - 329/365 = 0.09863014 < 0.1 -> archived; 328 days: 0.10136986 -> cold.
		{"score just under 0.1 archives", Input{Created: now.Add(-329 * day)}, TierArchived},
		{"score just over 0.1 stays", Input{Created: now.Add(-328 * day)}, TierCold},
		{"structural entries are never archived", Input{Created: now.Add(-3650 * day), Structural: true}, TierCold},
	}
	for _, tt := range tests {
		if got := Evaluate(tt.in, now, DefaultParams()).Tier; got != tt.want {
			t.Errorf("%s: tier = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestEvaluate_StructuralNeverBelowFloor(t *testing.T) {
	for d := 0; d <= 2000; d += 50 {
		r := Evaluate(Input{Created: now.Add(-time.Duration(d) * day), Structural: true}, now, DefaultParams())
		if r.Score < 0.3 || r.Tier == TierArchived {
			t.Errorf("structural entry at %d days: %.3f %s", d, r.Score, r.Tier)
		}
	}
}

func TestEvaluate_ScoreStaysInRangeForAnyInput(t *testing.T) {
	for _, n := range []int{-5, 0, 1, 19, 20, 1 << 30} {
		for _, d := range []time.Duration{-1000 * day, 0, 1, 400 * day, 1 << 62} {
			r := Evaluate(Input{Created: now.Add(-d), LastRecalled: now.Add(-d / 2), RecallCount: n}, now, DefaultParams())
			if r.Score < 0 || r.Score > 1 || math.IsNaN(r.Score) {
				t.Errorf("n=%d age=%v: score %v", n, d, r.Score)
			}
		}
	}
}

func TestEvaluate_NonPositiveMaxAgeFallsBackToDefault(t *testing.T) {
	p := DefaultParams()
	p.MaxAgeDays = 0
	got := Evaluate(Input{Created: now.Add(-100 * day)}, now, p)
	want := Evaluate(Input{Created: now.Add(-100 * day)}, now, DefaultParams())
	if got != want {
		t.Errorf("MaxAgeDays 0: %+v, want %+v", got, want)
	}
}
