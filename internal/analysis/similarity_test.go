package analysis

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestJaccardAndDice(t *testing.T) {
	set := func(ws ...string) map[string]bool {
		m := map[string]bool{}
		for _, w := range ws {
			m[w] = true
		}
		return m
	}
	a, b := set("mac", "mini", "gateway"), set("mac", "mini", "host", "lan")
	if got, want := Jaccard(a, b), 2.0/5; got != want {
		t.Errorf("Jaccard = %v, want %v", got, want)
	}
	if got, want := Dice(a, b), 4.0/7; got != want {
		t.Errorf("Dice = %v, want %v", got, want)
	}
	if Jaccard(a, set()) != 0 || Dice(set(), set()) != 0 || JaccardSorted([]int{}, []int{}) != 0 {
		t.Error("an empty set is related to nothing")
	}
}

// The sorted form is the same measure: it must agree with the map form.
func TestJaccardSorted_AgreesWithJaccard(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		ma, mb := map[uint32]bool{}, map[uint32]bool{}
		for range rng.IntN(20) {
			ma[rng.Uint32N(30)] = true
		}
		for range rng.IntN(20) {
			mb[rng.Uint32N(30)] = true
		}
		sa, sb := slices.Sorted(maps.Keys(ma)), slices.Sorted(maps.Keys(mb))
		if got, want := JaccardSorted(sa, sb), Jaccard(ma, mb); got != want {
			t.Fatalf("JaccardSorted(%v, %v) = %v, Jaccard %v", sa, sb, got, want)
		}
	}
}
