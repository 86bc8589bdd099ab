package memory

import (
	"fmt"
	"math"
	"time"
)

// PromotionInput is what the deep phase knows about one short-term recall
// candidate; the fields mirror an entry of memory/.dreams/short-term-recall.json.
type PromotionInput struct {
	// RecallCount is the number of times a search returned the entry.
	RecallCount int
	// DailyCount is the number of times the dreaming's daily ingestion
	// found the entry (OpenClaw's dailyCount). A recall and a daily
	// ingestion are both signals: n = RecallCount + DailyCount, as
	// OpenClaw's deep phase counts them.
	DailyCount int
	// TotalScore is the sum of the search scores of those recalls, so
	// TotalScore/RecallCount is the average relevance.
	TotalScore float64
	// UniqueQueries is the number of distinct queries that found the entry
	// (distinct queryHashes). The diversity gate takes the larger of it and
	// the distinct recall days, as OpenClaw's deep phase does: one query
	// hammered on one day stays narrow, the same question asked on several
	// days is spaced use.
	UniqueQueries int
	// RecallDays are the calendar days ("YYYY-MM-DD"; a longer timestamp is
	// cut to its date) on which the entry was recalled. Duplicates and
	// unreadable values are ignored.
	RecallDays []string
	// FirstRecalled and LastRecalled bound the recalls in time. The span
	// falls back to their calendar dates (UTC) when RecallDays is empty.
	FirstRecalled time.Time
	LastRecalled  time.Time
	// GroundedCount is how many recalls were confirmed against the source
	// (groundedCount).
	GroundedCount int
	// ConceptTags is the number of concept tags derived for the entry.
	ConceptTags int
}

// Signals are the six promotion signals of DESIGN 5.2, each in [0, 1].
type Signals struct {
	// Relevance = TotalScore / signalCount, signalCount = max(n, 1).
	Relevance float64
	// Frequency = log1p(n) / log1p(10): 10 recalls saturate it.
	Frequency float64
	// Diversity = max(UniqueQueries, distinct recall days) / 5.
	Diversity float64
	// Recency = exp(-ln2 * ageDays / HalfLifeDays), ageDays being the days
	// since LastRecalled (else the latest recall day); 0 when never recalled.
	Recency float64
	// Consolidation = max(0.55*spacing + 0.45*span, grounded/3), where
	// spacing = log1p(n-1)/log1p(4), span = days/7, days = whole days from
	// the first to the last recall day, grounded = GroundedCount. spacing and
	// span are each clamped to [0, 1] before they are combined.
	Consolidation float64
	// Conceptual = ConceptTags / 6.
	Conceptual float64
}

// Weights weigh the signals into one score.
type Weights struct {
	Relevance, Frequency, Diversity, Recency, Consolidation, Conceptual float64
}

// The names of the promotion gates, as reported in Decision.Failed.
const (
	GateMinScore         = "minScore"
	GateMinRecall        = "minRecall"
	GateMinUniqueQueries = "minUniqueQueries"
)

// PromotionConfig holds the weights and gates of the deep phase. Start from
// DefaultPromotionConfig. A gate set to zero (or below) always passes.
type PromotionConfig struct {
	Weights          Weights
	MinScore         float64
	MinRecall        int
	MinUniqueQueries int
	// HalfLifeDays is the recency half-life; <= 0 falls back to 14.
	HalfLifeDays float64
}

// DefaultPromotionConfig returns the weights and gates of DESIGN 5.2.
func DefaultPromotionConfig() PromotionConfig {
	return PromotionConfig{
		Weights: Weights{
			Relevance:     0.30,
			Frequency:     0.24,
			Diversity:     0.15,
			Recency:       0.15,
			Consolidation: 0.10,
			Conceptual:    0.06,
		},
		MinScore:         0.75,
		MinRecall:        3,
		MinUniqueQueries: 3,
		HalfLifeDays:     14,
	}
}

// Decision is the deep phase's verdict on one candidate.
type Decision struct {
	Signals Signals
	// Score is the weighted sum of the signals.
	Score float64
	// Promote is true when every gate passed.
	Promote bool
	// Failed names the gates that failed (GateMinScore, GateMinRecall,
	// GateMinUniqueQueries), in that order; Reasons says the same in words
	// for dream plans ("recalls 2 < 3").
	Failed  []string
	Reasons []string
}

// Promote scores a candidate and applies the gates. All three gates must
// pass: the score alone can be gamed by one query repeated fifty times,
// which minUniqueQueries catches, and a single lucky recall is held back by
// minRecall.
func Promote(in PromotionInput, now time.Time, cfg PromotionConfig) Decision {
	s := signals(in, now, cfg)
	w := cfg.Weights
	d := Decision{
		Signals: s,
		Score: w.Relevance*s.Relevance + w.Frequency*s.Frequency + w.Diversity*s.Diversity +
			w.Recency*s.Recency + w.Consolidation*s.Consolidation + w.Conceptual*s.Conceptual,
	}
	if cfg.MinScore > 0 && d.Score < cfg.MinScore {
		d.Failed = append(d.Failed, GateMinScore)
		d.Reasons = append(d.Reasons, fmt.Sprintf("score %.3f < %.3f", d.Score, cfg.MinScore))
	}
	if n := signalCount(in); cfg.MinRecall > 0 && n < cfg.MinRecall {
		d.Failed = append(d.Failed, GateMinRecall)
		d.Reasons = append(d.Reasons, fmt.Sprintf("recalls %d < %d", n, cfg.MinRecall))
	}
	if days, _, _ := recallDays(in); cfg.MinUniqueQueries > 0 && max(in.UniqueQueries, days) < cfg.MinUniqueQueries {
		d.Failed = append(d.Failed, GateMinUniqueQueries)
		d.Reasons = append(d.Reasons, fmt.Sprintf("unique queries %d and recall days %d < %d", in.UniqueQueries, days, cfg.MinUniqueQueries))
	}
	d.Promote = len(d.Failed) == 0
	return d
}

// signals computes the six signals; see the Signals fields for formulas.
func signals(in PromotionInput, now time.Time, cfg PromotionConfig) Signals {
	n := signalCount(in)
	days, first, last := recallDays(in)

	var s Signals
	s.Relevance = clamp01(in.TotalScore / float64(max(n, 1)))
	s.Frequency = clamp01(math.Log1p(float64(n)) / math.Log1p(10))
	s.Diversity = clamp01(float64(max(in.UniqueQueries, days)) / 5)

	half := cfg.HalfLifeDays
	if half <= 0 {
		half = DefaultPromotionConfig().HalfLifeDays
	}
	if lr := in.LastRecalled; !lr.IsZero() || !last.IsZero() {
		if lr.IsZero() {
			lr = last
		}
		age := max(now.Sub(lr), 0).Hours() / 24
		s.Recency = clamp01(math.Exp(-math.Ln2 * age / half))
	}

	spacing := clamp01(math.Log1p(float64(max(n-1, 0))) / math.Log1p(4))
	var spanDays float64
	if !first.IsZero() {
		spanDays = last.Sub(first).Hours() / 24
	}
	span := clamp01(spanDays / 7)
	s.Consolidation = clamp01(max(0.55*spacing+0.45*span, float64(max(in.GroundedCount, 0))/3))
	s.Conceptual = clamp01(float64(max(in.ConceptTags, 0)) / 6)
	return s
}

// signalCount is n: the recalls and daily ingestions of an entry.
func signalCount(in PromotionInput) int {
	return max(in.RecallCount, 0) + max(in.DailyCount, 0)
}

// recallDays returns the number of distinct recall days and the first and
// last of them (midnight UTC). Without usable RecallDays it falls back to
// the dates of FirstRecalled and LastRecalled, counting one day per distinct
// date.
func recallDays(in PromotionInput) (n int, first, last time.Time) {
	seen := map[time.Time]bool{}
	for _, d := range in.RecallDays {
		if len(d) > 10 {
			d = d[:10]
		}
		t, err := time.Parse(time.DateOnly, d)
		if err != nil || seen[t] {
			continue
		}
		seen[t] = true
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	if len(seen) > 0 {
		return len(seen), first, last
	}
	date := func(t time.Time) time.Time {
		y, m, d := t.UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	switch f, l := in.FirstRecalled, in.LastRecalled; {
	case !f.IsZero() && !l.IsZero():
		first, last = date(f), date(l)
		if last.Before(first) {
			first, last = last, first
		}
		if first.Equal(last) {
			return 1, first, last
		}
		return 2, first, last
	case !f.IsZero():
		return 1, date(f), date(f)
	case !l.IsZero():
		return 1, date(l), date(l)
	}
	return 0, time.Time{}, time.Time{}
}
