package graphlayout

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// graphOf is a generated graph with the shape of a workspace's: a few
// hubs (topics) most notes link to, chains of daily logs, and notes that
// link nowhere. It is the same on every call.
func graphOf(n int) []int {
	var links []int
	seed := uint32(1)
	rand := func(k int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % k
	}
	hubs := max(1, n/50)
	for i := hubs; i < n; i++ {
		switch i % 5 {
		case 0, 1:
			links = append(links, i, rand(hubs))
		case 2:
			links = append(links, i, i-1)
		case 3:
			links = append(links, i, rand(i))
		}
	}
	return links
}

func TestLayout_IsTheSameOnEveryRunAndPlacesEveryNode(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 300, 2844} {
		links := graphOf(n)
		a, b := Layout(n, links), Layout(n, links)
		if len(a) != 2*n {
			t.Fatalf("n=%d: %d coordinates, want %d", n, len(a), 2*n)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("n=%d: two layouts of the same graph differ", n)
		}
		seen := map[[2]int]int{}
		for i := range n {
			seen[[2]int{a[2*i], a[2*i+1]}]++
		}
		if n > 1 && len(seen) < n*9/10 {
			t.Errorf("n=%d: only %d distinct positions", n, len(seen))
		}
	}
}

// A force layout's point: linked nodes end up nearer each other than
// nodes picked at random.
func TestLayout_LinkedNodesAreCloserThanOthers(t *testing.T) {
	const n = 600
	links := graphOf(n)
	xy := Layout(n, links)
	dist := func(a, b int) float64 {
		return math.Hypot(float64(xy[2*a]-xy[2*b]), float64(xy[2*a+1]-xy[2*b+1]))
	}
	var linked, other float64
	for k := 0; k < len(links); k += 2 {
		linked += dist(links[k], links[k+1])
		other += dist(links[k], (links[k]*7+13)%n)
	}
	if linked*2 > other {
		t.Errorf("linked nodes are %.0f apart on average, others %.0f", linked/float64(len(links)/2), other/float64(len(links)/2))
	}
}

func TestLayout_IgnoresLinksOutOfRange(t *testing.T) {
	xy := Layout(3, []int{0, 1, 1, 1, 2, 9, -1, 0, 2})
	if len(xy) != 6 {
		t.Fatalf("%d coordinates", len(xy))
	}
}

func BenchmarkLayout(b *testing.B) {
	for _, n := range []int{2844, 10000} {
		links := graphOf(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Layout(n, links)
			}
		})
	}
}
