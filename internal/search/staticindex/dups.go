package staticindex

import (
	"math"
	"sort"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// MMR needs the similarity of any two candidates, but the browser knows
// nothing of a document's text before it fetches its fragment, which it
// does only for shown results. So the build finds the pairs of documents
// that are near-duplicates (Jaccard similarity of their body terms at
// least dupThreshold) and the metadata lists them with their similarity;
// every other pair counts as dissimilar. Near-duplicates are rare, so the
// list is short, and they are exactly the pairs MMR exists to separate.
//
// Candidate pairs come from MinHash with banding (dupBands bands of
// dupRows hashes: pairs at 0.5 are found with probability 0.8, at 0.6 with
// 0.95), then are verified exactly.
//
// Only distinctive terms count: a term in more than dupMaxDF documents
// (or a fiftieth of them, when that is more) is left out of the sets, so
// that the boilerplate every claim note shares, or a small vocabulary,
// does not make unrelated notes look alike. A document keeps at most
// dupPerDoc neighbours, its closest.
const (
	dupThreshold = 0.5
	dupMaxDF     = 16
	dupPerDoc    = 4
	dupBands     = 12
	dupRows      = 3
	// dupBucketMax skips buckets of more documents than this: a corpus
	// written from a tiny vocabulary (generated benchmarks) puts thousands
	// of documents in one bucket, and pairing them all would be quadratic.
	dupBucketMax = 32
)

type simPair struct {
	a, b int
	sim  byte // similarity * 255, rounded
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func (ix *staticIndex) nearDuplicates() []simPair {
	const k = dupBands * dupRows
	n := len(ix.docs)
	maxDF := max(dupMaxDF, n/50)
	sets := make([][]uint32, n)
	for d, set := range ix.bodySet {
		for _, t := range set {
			if ix.df[t] <= maxDF {
				sets[d] = append(sets[d], t)
			}
		}
	}
	sigs := make([][k]uint64, n)
	for d, set := range sets {
		for i := range sigs[d] {
			sigs[d][i] = math.MaxUint64
		}
		for _, t := range set {
			h := splitmix(uint64(t))
			for i := 0; i < k; i++ {
				// Cheap independent-enough hashes: one mix, then a
				// per-function multiply and shift.
				v := (h ^ uint64(i)*0x9e3779b97f4a7c15) * 0xff51afd7ed558ccd
				v ^= v >> 33
				if v < sigs[d][i] {
					sigs[d][i] = v
				}
			}
		}
	}
	seen := map[uint64]bool{}
	var pairs []simPair
	buckets := map[uint64][]int32{}
	for band := 0; band < dupBands; band++ {
		clear(buckets)
		for d := 0; d < n; d++ {
			if len(sets[d]) == 0 {
				continue
			}
			key := uint64(band) + 1
			for r := 0; r < dupRows; r++ {
				key = splitmix(key ^ sigs[d][band*dupRows+r])
			}
			buckets[key] = append(buckets[key], int32(d))
		}
		for _, docs := range buckets {
			if len(docs) < 2 || len(docs) > dupBucketMax {
				continue
			}
			for i := 0; i < len(docs); i++ {
				for j := i + 1; j < len(docs); j++ {
					a, b := int(docs[i]), int(docs[j])
					pk := uint64(a)<<32 | uint64(b)
					if seen[pk] {
						continue
					}
					seen[pk] = true
					if s := analysis.JaccardSorted(sets[a], sets[b]); s >= dupThreshold {
						pairs = append(pairs, simPair{a, b, byte(math.Round(s * 255))})
					}
				}
			}
		}
	}
	byPair := func(p []simPair) func(i, j int) bool {
		return func(i, j int) bool {
			if p[i].a != p[j].a {
				return p[i].a < p[j].a
			}
			return p[i].b < p[j].b
		}
	}
	// Closest first (ties by pair), each document taking dupPerDoc.
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].sim != pairs[j].sim {
			return pairs[i].sim > pairs[j].sim
		}
		return byPair(pairs)(i, j)
	})
	taken := map[int]int{}
	kept := pairs[:0]
	for _, p := range pairs {
		if taken[p.a] < dupPerDoc && taken[p.b] < dupPerDoc {
			taken[p.a]++
			taken[p.b]++
			kept = append(kept, p)
		}
	}
	sort.Slice(kept, byPair(kept))
	return kept
}
