package memory

import "time"

// Tier is an entry's place in the decay life cycle.
type Tier string

// The tiers of DESIGN 5.1. Hot, warm and cold follow an entry's age;
// crystallised and archived follow its recalls and score.
const (
	// TierHot is an entry created less than 48 hours ago.
	TierHot Tier = "hot"
	// TierWarm is an entry less than 30 days old.
	TierWarm Tier = "warm"
	// TierCold is an entry 30 days old or more that is still kept.
	TierCold Tier = "cold"
	// TierCrystallised is an entry recalled 20 times or more; it no longer
	// decays and always scores 1.
	TierCrystallised Tier = "crystallised"
	// TierArchived is an entry whose score fell below 0.1 with fewer than two
	// recalls; a dream moves it to memory/archive/YYYY-MM.md.
	TierArchived Tier = "archived"
)

// Params are the decay constants. DefaultParams returns the values from
// DESIGN 5.1; change fields of that value rather than building Params from
// scratch, because a zero field means zero (a zero CrystalliseRecalls would
// crystallise everything). MaxAgeDays is the one exception: a value <= 0
// would divide by zero, so it falls back to 365.
type Params struct {
	// MaxAgeDays is the age at which the base score reaches 0.
	MaxAgeDays float64
	// RecallBoost is added per recall, up to MaxRecallBoost.
	RecallBoost    float64
	MaxRecallBoost float64
	// A recall within NearRecall adds NearBoost; else one within FarRecall
	// adds FarBoost.
	NearRecall time.Duration
	NearBoost  float64
	FarRecall  time.Duration
	FarBoost   float64
	// HotAge and WarmAge are the age limits of the hot and warm tiers.
	// ColdAge documents where base decay reaches zero; an entry older than
	// that stays cold unless it qualifies for archiving.
	HotAge  time.Duration
	WarmAge time.Duration
	ColdAge time.Duration
	// CrystalliseRecalls is the recall count at which an entry crystallises.
	CrystalliseRecalls int
	// An entry is archived when its score is below ArchiveBelow and it has
	// fewer than ArchiveRecalls recalls.
	ArchiveBelow   float64
	ArchiveRecalls int
	// StructuralFloor is the lowest score of a structural entry.
	StructuralFloor float64
}

// DefaultParams returns the constants of DESIGN 5.1.
func DefaultParams() Params {
	const day = 24 * time.Hour
	return Params{
		MaxAgeDays:         365,
		RecallBoost:        0.05,
		MaxRecallBoost:     0.5,
		NearRecall:         7 * day,
		NearBoost:          0.2,
		FarRecall:          30 * day,
		FarBoost:           0.1,
		HotAge:             48 * time.Hour,
		WarmAge:            30 * day,
		ColdAge:            365 * day,
		CrystalliseRecalls: 20,
		ArchiveBelow:       0.1,
		ArchiveRecalls:     2,
		StructuralFloor:    0.3,
	}
}

// Input is what decay needs to know about one entry.
type Input struct {
	// Created is when the entry was first written. A zero Created (older
	// meta files lack it) counts as exactly MaxAgeDays old: base 0, so the
	// entry neither looks new nor sinks below what its recalls earn.
	Created time.Time
	// LastRecalled is the latest recall; zero when never recalled.
	LastRecalled time.Time
	RecallCount  int
	// Structural entries (people, hosts, IP addresses, URLs, references to
	// where credentials live) never score below StructuralFloor and so are
	// never archived; see IsStructural.
	Structural bool
}

// Result is an entry's decay score and tier, with the three parts of the
// score so reports can show why.
type Result struct {
	// Score is clamp(Base+Recall+Recency, 0, 1), raised to the structural
	// floor for structural entries, and 1 for crystallised ones.
	Score float64
	Tier  Tier
	// Base is 1 - daysSinceCreated/MaxAgeDays. It is not clamped on its own
	// (it goes negative after MaxAgeDays), exactly as in the formula.
	Base    float64
	Recall  float64
	Recency float64
}

// Evaluate computes the decay score and tier of one entry at time now.
//
// Times in the future (clock skew between machines) count as now. The tier
// is decided in this order: crystallised (RecallCount >= 20), archived
// (score < 0.1 and fewer than 2 recalls, never for structural entries), then
// hot/warm/cold by age since Created.
func Evaluate(in Input, now time.Time, p Params) Result {
	maxAge := p.MaxAgeDays
	if maxAge <= 0 {
		maxAge = DefaultParams().MaxAgeDays
	}
	age := time.Duration(maxAge * float64(24*time.Hour))
	if !in.Created.IsZero() {
		age = max(now.Sub(in.Created), 0)
	}
	days := age.Hours() / 24

	r := Result{Base: 1 - days/maxAge}
	r.Recall = min(float64(max(in.RecallCount, 0))*p.RecallBoost, p.MaxRecallBoost)
	if !in.LastRecalled.IsZero() {
		switch since := max(now.Sub(in.LastRecalled), 0); {
		case since <= p.NearRecall:
			r.Recency = p.NearBoost
		case since <= p.FarRecall:
			r.Recency = p.FarBoost
		}
	}
	r.Score = clamp01(r.Base + r.Recall + r.Recency)
	if in.Structural {
		r.Score = max(r.Score, p.StructuralFloor)
	}

	switch {
	case in.RecallCount >= p.CrystalliseRecalls:
		r.Tier, r.Score = TierCrystallised, 1
	case !in.Structural && r.Score < p.ArchiveBelow && in.RecallCount < p.ArchiveRecalls:
		r.Tier = TierArchived
	case age < p.HotAge:
		r.Tier = TierHot
	case age < p.WarmAge:
		r.Tier = TierWarm
	default:
		r.Tier = TierCold
	}
	return r
}

// clamp01 limits x to [0, 1]; NaN becomes 0.
func clamp01(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return min(x, 1)
}
