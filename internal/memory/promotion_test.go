package memory

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPromote_HandComputed checks DESIGN 5.2 on cases worked out by hand,
// with now = 2026-04-14 12:00 UTC, the default weights (.30 .24 .15 .15 .10
// .06), half-life 14 days and gates minScore .75, minRecall 3,
// minUniqueQueries 3. log1p(10) = ln 11 = 2.397895, log1p(4) = ln 5 =
// 1.609438.
func TestPromote_HandComputed(t *testing.T) {
	tests := []struct {
		name    string
		in      PromotionInput
		cfg     func(*PromotionConfig)
		signals Signals
		score   float64
		failed  []string
	}{
		{
			name: "strong candidate is promoted",
			// relevance = 4.25/max(5,1) = 0.850000; frequency = log1p(5)/log1p(10) = 0.747222;
			// diversity = max(4 queries, 4 days)/5 = 0.800000; recency = exp(-ln2*1/14) = 0.951695;
			// spacing = log1p(4)/log1p(4) = 1.000000; span = 5 days/7 = 0.714286;
			// consolidation = max(0.55*1.000000 + 0.45*0.714286, 1/3) = 0.871429; conceptual = 3/6 = 0.500000;
			// score = .30*0.8500 + .24*0.7472 + .15*0.8000 + .15*0.9517 + .10*0.8714 + .06*0.5000 = 0.814230.
			in:      PromotionInput{RecallCount: 5, TotalScore: 4.25, UniqueQueries: 4, RecallDays: []string{"2026-04-08", "2026-04-10", "2026-04-12", "2026-04-13"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 13, 12, 0, 0, 0, time.UTC), GroundedCount: 1, ConceptTags: 3},
			signals: Signals{0.850000, 0.747222, 0.800000, 0.951695, 0.871429, 0.500000},
			score:   0.814230,
			failed:  nil,
		},
		{
			name: "one query hammered fifty times, on two days",
			// relevance = 45/max(50,1) = 0.900000; frequency = log1p(50)/log1p(10) = 1.639699 -> 1;
			// diversity = max(1 queries, 2 days)/5 = 0.400000; recency = exp(-ln2*0/14) = 1.000000;
			// spacing = log1p(49)/log1p(4) = 2.430677 -> 1; span = 1 day/7 = 0.142857;
			// consolidation = max(0.55*1.000000 + 0.45*0.142857, 0/3) = 0.614286; conceptual = 2/6 = 0.333333;
			// score = .30*0.9000 + .24*1.0000 + .15*0.4000 + .15*1.0000 + .10*0.6143 + .06*0.3333 = 0.801429.
			// The diversity gate takes max(unique queries, recall days) = 2 < 3.
			in:      PromotionInput{RecallCount: 50, TotalScore: 45, UniqueQueries: 1, RecallDays: []string{"2026-04-13", "2026-04-14"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 14, 12, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 2},
			signals: Signals{0.900000, 1.000000, 0.400000, 1.000000, 0.614286, 0.333333},
			score:   0.801429,
			failed:  []string{GateMinUniqueQueries},
		},
		{
			name: "a single lucky recall",
			// relevance = 0.95/max(1,1) = 0.950000; frequency = log1p(1)/log1p(10) = 0.289065;
			// diversity = max(1 queries, 1 days)/5 = 0.200000; recency = exp(-ln2*0/14) = 1.000000;
			// spacing = log1p(0)/log1p(4) = 0.000000; span = 0 days/7 = 0.000000;
			// consolidation = max(0.55*0.000000 + 0.45*0.000000, 0/3) = 0.000000; conceptual = 1/6 = 0.166667;
			// score = .30*0.9500 + .24*0.2891 + .15*0.2000 + .15*1.0000 + .10*0.0000 + .06*0.1667 = 0.544376.
			in:      PromotionInput{RecallCount: 1, TotalScore: 0.95, UniqueQueries: 1, RecallDays: []string{"2026-04-14"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 14, 12, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 1},
			signals: Signals{0.950000, 0.289065, 0.200000, 1.000000, 0.000000, 0.166667},
			score:   0.544376,
			failed:  []string{GateMinScore, GateMinRecall, GateMinUniqueQueries},
		},
		{
			name: "high score, too few recalls",
			// relevance = 2/max(2,1) = 1.000000; frequency = log1p(2)/log1p(10) = 0.458157;
			// diversity = max(2 queries, 2 days)/5 = 0.400000; recency = exp(-ln2*0/14) = 1.000000;
			// spacing = log1p(1)/log1p(4) = 0.430677; span = 13 days/7 = 1.857143 -> 1;
			// consolidation = max(0.55*0.430677 + 0.45*1.000000, 3/3) = 1.000000; conceptual = 6/6 = 1.000000;
			// score = .30*1.0000 + .24*0.4582 + .15*0.4000 + .15*1.0000 + .10*1.0000 + .06*1.0000 = 0.779958.
			in:      PromotionInput{RecallCount: 2, TotalScore: 2.0, UniqueQueries: 2, RecallDays: []string{"2026-04-01", "2026-04-14"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 14, 12, 0, 0, 0, time.UTC), GroundedCount: 3, ConceptTags: 6},
			signals: Signals{1.000000, 0.458157, 0.400000, 1.000000, 1.000000, 1.000000},
			score:   0.779958,
			failed:  []string{GateMinRecall, GateMinUniqueQueries},
		},
		{
			name: "recalled often but long ago",
			// relevance = 4.8/max(6,1) = 0.800000; frequency = log1p(6)/log1p(10) = 0.811508;
			// diversity = max(5 queries, 5 days)/5 = 1.000000; recency = exp(-ln2*60/14) = 0.051271;
			// spacing = log1p(5)/log1p(4) = 1.113283 -> 1; span = 10 days/7 = 1.428571 -> 1;
			// consolidation = max(0.55*1.000000 + 0.45*1.000000, 0/3) = 1.000000; conceptual = 2/6 = 0.333333;
			// score = .30*0.8000 + .24*0.8115 + .15*1.0000 + .15*0.0513 + .10*1.0000 + .06*0.3333 = 0.712452.
			in:      PromotionInput{RecallCount: 6, TotalScore: 4.8, UniqueQueries: 5, RecallDays: []string{"2026-02-03", "2026-02-05", "2026-02-07", "2026-02-10", "2026-02-13"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 2, 13, 12, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 2},
			signals: Signals{0.800000, 0.811508, 1.000000, 0.051271, 1.000000, 0.333333},
			score:   0.712452,
			failed:  []string{GateMinScore},
		},
		{
			name: "passes the counts, misses the score",
			// relevance = 2.8/max(4,1) = 0.700000; frequency = log1p(4)/log1p(10) = 0.671188;
			// diversity = max(3 queries, 3 days)/5 = 0.600000; recency = exp(-ln2*1/14) = 0.951695;
			// spacing = log1p(3)/log1p(4) = 0.861353; span = 2 days/7 = 0.285714;
			// consolidation = max(0.55*0.861353 + 0.45*0.285714, 0/3) = 0.602316; conceptual = 0/6 = 0.000000;
			// score = .30*0.7000 + .24*0.6712 + .15*0.6000 + .15*0.9517 + .10*0.6023 + .06*0.0000 = 0.664071.
			in:      PromotionInput{RecallCount: 4, TotalScore: 2.8, UniqueQueries: 3, RecallDays: []string{"2026-04-11", "2026-04-12", "2026-04-13"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 13, 12, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 0},
			signals: Signals{0.700000, 0.671188, 0.600000, 0.951695, 0.602316, 0.000000},
			score:   0.664071,
			failed:  []string{GateMinScore},
		},
		{
			name: "never recalled",
			// relevance = 0/max(0,1) = 0.000000; frequency = log1p(0)/log1p(10) = 0.000000;
			// diversity = max(0 queries, 0 days)/5 = 0.000000; recency = 0 (never recalled);
			// spacing = log1p(0)/log1p(4) = 0.000000; span = 0 days/7 = 0.000000;
			// consolidation = max(0.55*0.000000 + 0.45*0.000000, 0/3) = 0.000000; conceptual = 0/6 = 0.000000;
			// score = .30*0.0000 + .24*0.0000 + .15*0.0000 + .15*0.0000 + .10*0.0000 + .06*0.0000 = 0.000000.
			in:      PromotionInput{RecallCount: 0, TotalScore: 0, UniqueQueries: 0, RecallDays: nil, FirstRecalled: time.Time{}, LastRecalled: time.Time{}, GroundedCount: 0, ConceptTags: 0},
			signals: Signals{0.000000, 0.000000, 0.000000, 0.000000, 0.000000, 0.000000},
			score:   0.000000,
			failed:  []string{GateMinScore, GateMinRecall, GateMinUniqueQueries},
		},
		{
			name: "grounding fills consolidation",
			// relevance = 2.4/max(3,1) = 0.800000; frequency = log1p(3)/log1p(10) = 0.578130;
			// diversity = max(3 queries, 1 days)/5 = 0.600000; recency = exp(-ln2*0/14) = 1.000000;
			// spacing = log1p(2)/log1p(4) = 0.682606; span = 0 days/7 = 0.000000;
			// consolidation = max(0.55*0.682606 + 0.45*0.000000, 3/3) = 1.000000; conceptual = 2/6 = 0.333333;
			// score = .30*0.8000 + .24*0.5781 + .15*0.6000 + .15*1.0000 + .10*1.0000 + .06*0.3333 = 0.738751.
			in:      PromotionInput{RecallCount: 3, TotalScore: 2.4, UniqueQueries: 3, RecallDays: []string{"2026-04-14"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 14, 12, 0, 0, 0, time.UTC), GroundedCount: 3, ConceptTags: 2},
			signals: Signals{0.800000, 0.578130, 0.600000, 1.000000, 1.000000, 0.333333},
			score:   0.738751,
			failed:  []string{GateMinScore},
		},
		{
			name: "oversized inputs clamp to 1",
			// relevance = 12/max(8,1) = 1.500000 -> 1; frequency = log1p(8)/log1p(10) = 0.916314;
			// diversity = max(9 queries, 2 days)/5 = 1.800000 -> 1; recency = exp(-ln2*0/14) = 1.000000;
			// spacing = log1p(7)/log1p(4) = 1.292030 -> 1; span = 44 days/7 = 6.285714 -> 1;
			// consolidation = max(0.55*1.000000 + 0.45*1.000000, 0/3) = 1.000000; conceptual = 12/6 = 2.000000 -> 1;
			// score = .30*1.0000 + .24*0.9163 + .15*1.0000 + .15*1.0000 + .10*1.0000 + .06*1.0000 = 0.979915.
			in:      PromotionInput{RecallCount: 8, TotalScore: 12, UniqueQueries: 9, RecallDays: []string{"2026-03-01", "2026-04-14"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 14, 12, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 12},
			signals: Signals{1.000000, 0.916314, 1.000000, 1.000000, 1.000000, 1.000000},
			score:   0.979915,
			failed:  nil,
		},
		{
			name: "duplicate and unreadable days are ignored",
			// relevance = 3.6/max(4,1) = 0.900000; frequency = log1p(4)/log1p(10) = 0.671188;
			// diversity = max(4 queries, 2 days)/5 = 0.800000; recency = exp(-ln2*1.16667/14) = 0.943874;
			// spacing = log1p(3)/log1p(4) = 0.861353; span = 3 days/7 = 0.428571;
			// consolidation = max(0.55*0.861353 + 0.45*0.428571, 0/3) = 0.666601; conceptual = 3/6 = 0.500000;
			// score = .30*0.9000 + .24*0.6712 + .15*0.8000 + .15*0.9439 + .10*0.6666 + .06*0.5000 = 0.789326.
			in:      PromotionInput{RecallCount: 4, TotalScore: 3.6, UniqueQueries: 4, RecallDays: []string{"2026-04-10", "2026-04-10", "junk", "2026-04-13T08:00:00Z"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 13, 8, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 3},
			signals: Signals{0.900000, 0.671188, 0.800000, 0.943874, 0.666601, 0.500000},
			score:   0.789326,
			failed:  nil,
		},
		{
			name: "span from first and last recall times",
			// relevance = 3.6/max(4,1) = 0.900000; frequency = log1p(4)/log1p(10) = 0.671188;
			// diversity = max(3 queries, 2 days)/5 = 0.600000; recency = exp(-ln2*0.75/14) = 0.963548;
			// spacing = log1p(3)/log1p(4) = 0.861353; span = 9 days/7 = 1.285714 -> 1;
			// consolidation = max(0.55*0.861353 + 0.45*1.000000, 0/3) = 0.923744; conceptual = 3/6 = 0.500000;
			// score = .30*0.9000 + .24*0.6712 + .15*0.6000 + .15*0.9635 + .10*0.9237 + .06*0.5000 = 0.787992.
			in:      PromotionInput{RecallCount: 4, TotalScore: 3.6, UniqueQueries: 3, RecallDays: nil, FirstRecalled: time.Date(2026, 4, 4, 9, 0, 0, 0, time.UTC), LastRecalled: time.Date(2026, 4, 13, 18, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 3},
			signals: Signals{0.900000, 0.671188, 0.600000, 0.963548, 0.923744, 0.500000},
			score:   0.787992,
			failed:  nil,
		},
		{
			name: "recency falls back to the last recall day",
			// relevance = 3.2/max(4,1) = 0.800000; frequency = log1p(4)/log1p(10) = 0.671188;
			// diversity = max(3 queries, 2 days)/5 = 0.600000; recency = exp(-ln2*2.5/14) = 0.883577;
			// spacing = log1p(3)/log1p(4) = 0.861353; span = 5 days/7 = 0.714286;
			// consolidation = max(0.55*0.861353 + 0.45*0.714286, 1/3) = 0.795173; conceptual = 4/6 = 0.666667;
			// score = .30*0.8000 + .24*0.6712 + .15*0.6000 + .15*0.8836 + .10*0.7952 + .06*0.6667 = 0.743139.
			in:      PromotionInput{RecallCount: 4, TotalScore: 3.2, UniqueQueries: 3, RecallDays: []string{"2026-04-07", "2026-04-12"}, FirstRecalled: time.Time{}, LastRecalled: time.Time{}, GroundedCount: 1, ConceptTags: 4},
			signals: Signals{0.800000, 0.671188, 0.600000, 0.883577, 0.795173, 0.666667},
			score:   0.743139,
			failed:  []string{GateMinScore},
		},
		{
			name: "shorter half-life",
			// relevance = 3.6/max(4,1) = 0.900000; frequency = log1p(4)/log1p(10) = 0.671188;
			// diversity = max(4 queries, 2 days)/5 = 0.800000; recency = exp(-ln2*7/7) = 0.500000;
			// spacing = log1p(3)/log1p(4) = 0.861353; span = 3 days/7 = 0.428571;
			// consolidation = max(0.55*0.861353 + 0.45*0.428571, 0/3) = 0.666601; conceptual = 3/6 = 0.500000;
			// score = .30*0.9000 + .24*0.6712 + .15*0.8000 + .15*0.5000 + .10*0.6666 + .06*0.5000 = 0.722745.
			in:      PromotionInput{RecallCount: 4, TotalScore: 3.6, UniqueQueries: 4, RecallDays: []string{"2026-04-10", "2026-04-13"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 7, 12, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 3},
			cfg:     func(c *PromotionConfig) { c.HalfLifeDays = 7 },
			signals: Signals{0.900000, 0.671188, 0.800000, 0.500000, 0.666601, 0.500000},
			score:   0.722745,
			failed:  []string{GateMinScore},
		},
		{
			name: "lowered gates promote a single recall",
			// relevance = 0.95/max(1,1) = 0.950000; frequency = log1p(1)/log1p(10) = 0.289065;
			// diversity = max(1 queries, 1 days)/5 = 0.200000; recency = exp(-ln2*0/14) = 1.000000;
			// spacing = log1p(0)/log1p(4) = 0.000000; span = 0 days/7 = 0.000000;
			// consolidation = max(0.55*0.000000 + 0.45*0.000000, 0/3) = 0.000000; conceptual = 1/6 = 0.166667;
			// score = .30*0.9500 + .24*0.2891 + .15*0.2000 + .15*1.0000 + .10*0.0000 + .06*0.1667 = 0.544376.
			in:      PromotionInput{RecallCount: 1, TotalScore: 0.95, UniqueQueries: 1, RecallDays: []string{"2026-04-14"}, FirstRecalled: time.Time{}, LastRecalled: time.Date(2026, 4, 14, 12, 0, 0, 0, time.UTC), GroundedCount: 0, ConceptTags: 1},
			cfg:     func(c *PromotionConfig) { c.MinScore, c.MinRecall, c.MinUniqueQueries = 0.5, 1, 1 },
			signals: Signals{0.950000, 0.289065, 0.200000, 1.000000, 0.000000, 0.166667},
			score:   0.544376,
			failed:  nil,
		},
		{
			name: "gates switched off",
			// relevance = 0/max(0,1) = 0.000000; frequency = log1p(0)/log1p(10) = 0.000000;
			// diversity = max(0 queries, 0 days)/5 = 0.000000; recency = 0 (never recalled);
			// spacing = log1p(0)/log1p(4) = 0.000000; span = 0 days/7 = 0.000000;
			// consolidation = max(0.55*0.000000 + 0.45*0.000000, 0/3) = 0.000000; conceptual = 0/6 = 0.000000;
			// score = .30*0.0000 + .24*0.0000 + .15*0.0000 + .15*0.0000 + .10*0.0000 + .06*0.0000 = 0.000000.
			in:      PromotionInput{RecallCount: 0, TotalScore: 0, UniqueQueries: 0, RecallDays: nil, FirstRecalled: time.Time{}, LastRecalled: time.Time{}, GroundedCount: 0, ConceptTags: 0},
			cfg:     func(c *PromotionConfig) { c.MinScore, c.MinRecall, c.MinUniqueQueries = 0, 0, 0 },
			signals: Signals{0.000000, 0.000000, 0.000000, 0.000000, 0.000000, 0.000000},
			score:   0.000000,
			failed:  nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultPromotionConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			d := Promote(tt.in, now, cfg)
			got, want := d.Signals, tt.signals
			if !near(got.Relevance, want.Relevance) || !near(got.Frequency, want.Frequency) ||
				!near(got.Diversity, want.Diversity) || !near(got.Recency, want.Recency) ||
				!near(got.Consolidation, want.Consolidation) || !near(got.Conceptual, want.Conceptual) {
				t.Errorf("signals = %+v\nwant      %+v", got, want)
			}
			if !near(d.Score, tt.score) {
				t.Errorf("score = %.6f, want %.6f", d.Score, tt.score)
			}
			if !slices.Equal(d.Failed, tt.failed) || d.Promote != (len(tt.failed) == 0) {
				t.Errorf("Promote = %v, failed %v; want failed %v", d.Promote, d.Failed, tt.failed)
			}
			if len(d.Reasons) != len(d.Failed) {
				t.Errorf("reasons %q do not match failed gates %v", d.Reasons, d.Failed)
			}
		})
	}
}

func TestPromote_ReasonsSayWhatFailed(t *testing.T) {
	d := Promote(PromotionInput{RecallCount: 1, TotalScore: 0.5, UniqueQueries: 1}, now, DefaultPromotionConfig())
	got := strings.Join(d.Reasons, "; ")
	for _, want := range []string{"score 0.", "< 0.750", "recalls 1 < 3", "unique queries 1 and recall days 0 < 3"} {
		if !strings.Contains(got, want) {
			t.Errorf("reasons %q lack %q", got, want)
		}
	}
}

func TestPromote_SignalsStayInRange(t *testing.T) {
	for _, n := range []int{-3, 0, 1, 2, 1000} {
		for _, total := range []float64{-1, 0, 0.5, 1e9, math.NaN()} {
			in := PromotionInput{RecallCount: n, TotalScore: total, UniqueQueries: n, GroundedCount: n, ConceptTags: n,
				RecallDays: []string{"2026-01-01", "2026-04-14"}, LastRecalled: now.Add(time.Hour)}
			d := Promote(in, now, PromotionConfig{})
			s := d.Signals
			for _, v := range []float64{s.Relevance, s.Frequency, s.Diversity, s.Recency, s.Consolidation, s.Conceptual} {
				if !(v >= 0 && v <= 1) {
					t.Errorf("n=%d total=%v: signal out of range in %+v", n, total, s)
				}
			}
		}
	}
}
