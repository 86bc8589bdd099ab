package search

import (
	"math"
	"sort"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// The fields a document is indexed in, in the order the static index
// stores their term frequencies and lengths.
const (
	FieldTitle = iota
	FieldAliases
	FieldHeadings
	FieldBody
	NumFields
)

// Params are the ranking knobs of DESIGN 4.3. The static index writes them
// into its metadata so that the browser ranks with exactly the numbers the
// Go side used; the CLI takes them from dreamwiki.toml.
type Params struct {
	// K1 and B are BM25's saturation and length normalisation.
	K1, B float64
	// Boosts weigh each field's term frequency (BM25F): title, aliases,
	// headings, body.
	Boosts [NumFields]float64
	// FuzzyWeight is w in w*fuzzy + (1-w)*bm25.
	FuzzyWeight float64
	// HalfLifeDays is the half-life of the temporal decay of dated notes.
	HalfLifeDays float64
	// MMRLambda trades relevance (1) against diversity (0).
	MMRLambda float64
	// MMRTop is how many of the best candidates MMR re-orders; the rest
	// keep their relevance order after them.
	MMRTop int
	// SupersededPenalty multiplies the relevance of superseded claims, so
	// that they sink even when their successor did not match.
	SupersededPenalty float64
}

// DefaultParams returns the defaults of DESIGN 4.3 (and of dreamwiki.toml's
// [search] table).
func DefaultParams() Params {
	return Params{
		K1:                1.2,
		B:                 0.75,
		Boosts:            [NumFields]float64{3, 3, 1.5, 1},
		FuzzyWeight:       0.3,
		HalfLifeDays:      30,
		MMRLambda:         0.7,
		MMRTop:            30,
		SupersededPenalty: 0.5,
	}
}

// ParamsFromConfig applies the [search] table of dreamwiki.toml to the
// defaults: fuzzy_weight, half_life_days, mmr_lambda and title_boost
// (which boosts aliases too). Zero values keep the defaults.
func ParamsFromConfig(c workspace.SearchConfig) Params {
	p := DefaultParams()
	if c.FuzzyWeight != 0 {
		p.FuzzyWeight = c.FuzzyWeight
	}
	if c.HalfLifeDays != 0 {
		p.HalfLifeDays = c.HalfLifeDays
	}
	if c.MMRLambda != 0 {
		p.MMRLambda = c.MMRLambda
	}
	if c.TitleBoost != 0 {
		p.Boosts[FieldTitle] = c.TitleBoost
		p.Boosts[FieldAliases] = c.TitleBoost
	}
	return p.Sane()
}

// Sane replaces out-of-range knobs (from a hand-edited dreamwiki.toml) by
// their defaults, so that ranking never divides by zero or inverts.
func (p Params) Sane() Params {
	d := DefaultParams()
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	if bad(p.K1) || p.K1 <= 0 {
		p.K1 = d.K1
	}
	if bad(p.B) || p.B < 0 || p.B > 1 {
		p.B = d.B
	}
	for i, b := range p.Boosts {
		if bad(b) || b < 0 {
			p.Boosts[i] = d.Boosts[i]
		}
	}
	if bad(p.FuzzyWeight) || p.FuzzyWeight < 0 || p.FuzzyWeight > 1 {
		p.FuzzyWeight = d.FuzzyWeight
	}
	if bad(p.HalfLifeDays) || p.HalfLifeDays <= 0 {
		p.HalfLifeDays = d.HalfLifeDays
	}
	if bad(p.MMRLambda) || p.MMRLambda < 0 || p.MMRLambda > 1 {
		p.MMRLambda = d.MMRLambda
	}
	if p.MMRTop <= 0 {
		p.MMRTop = d.MMRTop
	}
	if bad(p.SupersededPenalty) || p.SupersededPenalty < 0 || p.SupersededPenalty > 1 {
		p.SupersededPenalty = d.SupersededPenalty
	}
	return p
}

// IDF is BM25's inverse document frequency of a term found in df of n
// documents.
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// BM25F scores one term in one document from its per-field term
// frequencies and lengths: the boosted, length-normalised frequencies are
// summed before BM25's saturation, so a word in the title and the body
// counts once, strongly.
func BM25F(p Params, idf float64, tf *[NumFields]int, length *[NumFields]int, avg *[NumFields]float64) float64 {
	t := 0.0
	for f := 0; f < NumFields; f++ {
		if tf[f] == 0 {
			continue
		}
		norm := 1.0
		if avg[f] > 0 {
			norm = 1 - p.B + p.B*float64(length[f])/avg[f]
		}
		t += p.Boosts[f] * float64(tf[f]) / norm
	}
	if t == 0 {
		return 0
	}
	return idf * t * (p.K1 + 1) / (p.K1 + t)
}

// Decay is the temporal decay factor of a dated note ageDays old: 1 today,
// 0.5 after one half-life. Notes in the future count as today's.
func Decay(ageDays int, halfLife float64) float64 {
	if ageDays <= 0 {
		return 1
	}
	return math.Pow(0.5, float64(ageDays)/halfLife)
}

// Candidate is one document that matched a query, with the raw scores of
// both legs and what decay and supersession need to know about it.
type Candidate struct {
	// Doc identifies the document; ties in score go to the lower Doc.
	Doc int
	// BM25 is the keyword leg's score; Fuzzy the typo-tolerant leg's.
	BM25, Fuzzy float64
	// Age is the document's age in days at the index's evaluation date;
	// negative for evergreen documents (claims, MEMORY.md, topics, notes
	// without a date), which never decay.
	Age int
	// Superseded marks a claim that a newer claim replaced.
	Superseded bool
	// Successors are the Docs of the claims that replaced this one.
	Successors []int
}

// Ranked is one result of Rank.
type Ranked struct {
	Doc int
	// Score is the merged, decayed relevance, in [0, 1].
	Score float64
}

// Rank orders candidates as DESIGN 4.3 says, the same way in the CLI and
// (in assets/search/rank.ts) in the browser:
//
//  1. each leg is normalised by its best score and merged as
//     w*fuzzy + (1-w)*bm25;
//  2. dated documents decay with the half-life, and superseded claims are
//     multiplied by the penalty;
//  3. MMR re-orders the MMRTop best: each pick maximises
//     lambda*relevance - (1-lambda)*(greatest similarity to a pick so far),
//     with relevance divided by the best one; sim(a, b) in [0, 1] is the
//     similarity of two documents;
//  4. a superseded claim that still sits above one of its successors is
//     moved to just below the last of them.
//
// sim may be nil (no diversity).
func Rank(cands []Candidate, p Params, sim func(a, b int) float64) []Ranked {
	p = p.Sane()
	if len(cands) == 0 {
		return nil
	}
	maxB, maxF := 0.0, 0.0
	for _, c := range cands {
		maxB = math.Max(maxB, c.BM25)
		maxF = math.Max(maxF, c.Fuzzy)
	}
	type item struct {
		c   *Candidate
		rel float64
	}
	items := make([]item, len(cands))
	for i := range cands {
		c := &cands[i]
		rel := 0.0
		if maxB > 0 {
			rel += (1 - p.FuzzyWeight) * c.BM25 / maxB
		}
		if maxF > 0 {
			rel += p.FuzzyWeight * c.Fuzzy / maxF
		}
		if c.Age >= 0 {
			rel *= Decay(c.Age, p.HalfLifeDays)
		}
		if c.Superseded {
			rel *= p.SupersededPenalty
		}
		items[i] = item{c, rel}
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].rel != items[j].rel {
			return items[i].rel > items[j].rel
		}
		return items[i].c.Doc < items[j].c.Doc
	})

	out := make([]Ranked, 0, len(items))
	top := min(p.MMRTop, len(items))
	if sim == nil || top < 2 || p.MMRLambda >= 1 {
		for _, it := range items {
			out = append(out, Ranked{it.c.Doc, it.rel})
		}
	} else {
		best := items[0].rel
		if best <= 0 {
			best = 1
		}
		picked := make([]bool, top)
		maxSim := make([]float64, top)
		for len(out) < top {
			pick, pickV := -1, math.Inf(-1)
			for i := 0; i < top; i++ {
				if picked[i] {
					continue
				}
				v := p.MMRLambda*items[i].rel/best - (1-p.MMRLambda)*maxSim[i]
				if v > pickV {
					pick, pickV = i, v
				}
			}
			picked[pick] = true
			out = append(out, Ranked{items[pick].c.Doc, items[pick].rel})
			for i := 0; i < top; i++ {
				if !picked[i] {
					maxSim[i] = math.Max(maxSim[i], clamp01(sim(items[i].c.Doc, items[pick].c.Doc)))
				}
			}
		}
		for _, it := range items[top:] {
			out = append(out, Ranked{it.c.Doc, it.rel})
		}
	}
	return successorsFirst(out, cands)
}

// successorsFirst moves each superseded claim below the last of its
// successors that ranks after it. Claims are visited in their ranked order
// and each moves at most once, so inconsistent chains (A replaced B and B
// replaced A) cannot loop.
func successorsFirst(out []Ranked, cands []Candidate) []Ranked {
	succ := map[int][]int{}
	for _, c := range cands {
		if c.Superseded && len(c.Successors) > 0 {
			succ[c.Doc] = c.Successors
		}
	}
	if len(succ) == 0 {
		return out
	}
	var order []int
	for _, r := range out {
		if _, ok := succ[r.Doc]; ok {
			order = append(order, r.Doc)
		}
	}
	for _, doc := range order {
		at := -1
		for i, r := range out {
			if r.Doc == doc {
				at = i
				break
			}
		}
		last := -1
		for i := at + 1; i < len(out); i++ {
			for _, s := range succ[doc] {
				if out[i].Doc == s {
					last = i
				}
			}
		}
		if last < 0 {
			continue
		}
		moved := out[at]
		copy(out[at:last], out[at+1:last+1])
		out[last] = moved
	}
	return out
}

func clamp01(v float64) float64 {
	switch {
	case math.IsNaN(v) || v < 0:
		return 0
	case v > 1:
		return 1
	}
	return v
}
