// Package graphlayout places the nodes of the site's graph once, at build
// time, so a reader's browser only draws them. It is a force-directed
// layout after d3-force's model (links pull like springs, every node
// repels every other through a Barnes-Hut quadtree, a weak pull keeps
// components near the centre), run for a fixed number of steps from a
// fixed start: the same graph gives the same positions on every build.
// It knows nothing of notes or pages; it takes a node count and links.
package graphlayout

import (
	"math"
	"runtime"
	"sync"
)

// The model's constants, the same as assets/graph/layout.ts uses for the
// local graphs a page lays out in the browser.
const (
	theta2        = 1.44 // Barnes-Hut accuracy (theta 1.2), squared
	charge        = -30.0
	linkDistance  = 30.0
	gravity       = 0.04
	velocityDecay = 0.6
	alphaMin      = 0.002
	// Steps is how many steps a layout of a few thousand linked nodes
	// runs: alpha decays from 1 to alphaMin over them, as in d3-force.
	Steps = 300
	// nodeSteps caps the work (linked nodes × steps): a larger graph
	// takes fewer, longer strides, at least minSteps, so 20,000 linked
	// notes cost a build about as much as 3,000 do.
	nodeSteps = 600_000
	minSteps  = 30
)

// steps is how many steps a layout of n linked nodes runs.
func steps(n int) int {
	return max(minSteps, min(Steps, nodeSteps/max(n, 1)))
}

// Layout returns the position of each of n nodes as flat x, y pairs of
// whole layout units (a link is about 30 long), centred on 0, 0. links
// holds flat pairs of node indexes; pairs out of range are ignored. The
// result depends only on n and links (no randomness, no clock), so a
// build that writes it is byte-identical to the last one.
func Layout(n int, links []int) []int {
	xy := make([]int, 2*n)
	if n == 0 {
		return xy
	}
	// Only linked nodes take part in the simulation; notes that link
	// nowhere (most of a real workspace's daily logs, say) would only
	// repel each other into a disc, which placing them does for free.
	linked := make([]int, n) // node -> index in the simulation + 1
	var ids []int
	for k := 0; k+1 < len(links); k += 2 {
		a, b := links[k], links[k+1]
		if a < 0 || b < 0 || a >= n || b >= n || a == b {
			continue
		}
		for _, v := range [2]int{a, b} {
			if linked[v] == 0 {
				ids = append(ids, v)
				linked[v] = len(ids)
			}
		}
	}
	pairs := make([]int, 0, len(links))
	for k := 0; k+1 < len(links); k += 2 {
		a, b := links[k], links[k+1]
		if a < 0 || b < 0 || a >= n || b >= n || a == b {
			continue
		}
		pairs = append(pairs, linked[a]-1, linked[b]-1)
	}
	x, y := make([]float64, n), make([]float64, n)
	radius := 0.0
	if len(ids) > 0 {
		s := newSim(len(ids), pairs)
		steps := steps(len(ids))
		alphaDecay := 1 - math.Pow(alphaMin, 1/float64(steps))
		for range steps {
			s.tick()
			s.alpha += (0 - s.alpha) * alphaDecay
		}
		var cx, cy float64
		for i := range ids {
			cx += s.x[i]
			cy += s.y[i]
		}
		cx /= float64(len(ids))
		cy /= float64(len(ids))
		for i, v := range ids {
			x[v], y[v] = s.x[i]-cx, s.y[i]-cy
			radius = max(radius, math.Hypot(x[v], y[v]))
		}
		radius += linkDistance
	}
	// The unlinked nodes fill a ring around the linked ones, evenly (a
	// sunflower spiral again), about as far apart as linked ones.
	golden := math.Pi * (3 - math.Sqrt(5))
	const spacing = linkDistance * 0.6
	k := 0
	for v := range n {
		if linked[v] != 0 {
			continue
		}
		// The ring's area grows by spacing² per node.
		r := math.Sqrt(float64(radius*radius) + float64(k)*spacing*spacing/math.Pi)
		x[v] = r * math.Cos(float64(k)*golden)
		y[v] = r * math.Sin(float64(k)*golden)
		k++
	}
	for v := range n {
		xy[2*v] = int(math.Round(x[v]))
		xy[2*v+1] = int(math.Round(y[v]))
	}
	return xy
}

type sim struct {
	n        int
	x, y     []float64
	vx, vy   []float64
	links    []int32
	strength []float64
	bias     []float64
	alpha    float64
	tree     quadTree
	workers  int
}

func newSim(n int, pairs []int) *sim {
	s := &sim{n: n, alpha: 1,
		x: make([]float64, n), y: make([]float64, n),
		vx: make([]float64, n), vy: make([]float64, n)}
	// Start on a sunflower spiral: spread out evenly, and the same every time.
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range n {
		r := 10 * math.Sqrt(0.5+float64(i))
		s.x[i] = r * math.Cos(float64(i)*golden)
		s.y[i] = r * math.Sin(float64(i)*golden)
	}
	degree := make([]int, n)
	for k := 0; k+1 < len(pairs); k += 2 {
		a, b := pairs[k], pairs[k+1]
		if a < 0 || b < 0 || a >= n || b >= n || a == b {
			continue
		}
		s.links = append(s.links, int32(a), int32(b))
		degree[a]++
		degree[b]++
	}
	m := len(s.links) / 2
	s.strength = make([]float64, m)
	s.bias = make([]float64, m)
	for k := range m {
		a, b := degree[s.links[2*k]], degree[s.links[2*k+1]]
		s.strength[k] = 1 / float64(max(1, min(a, b)))
		s.bias[k] = float64(a) / float64(a+b)
	}
	s.tree = newQuadTree(n)
	// Small graphs are not worth the goroutines.
	s.workers = min(runtime.GOMAXPROCS(0), max(1, n/500))
	return s
}

// tick is one step: springs, repulsion, gravity, then velocities move
// the nodes. The explicit float64 conversions keep the compiler from
// fusing multiply-adds, so every platform computes the same numbers.
func (s *sim) tick() {
	x, y, vx, vy, alpha := s.x, s.y, s.vx, s.vy, s.alpha
	for k := 0; k < len(s.links); k += 2 {
		a, b := s.links[k], s.links[k+1]
		dx := float64(x[b]+vx[b]) - float64(x[a]+vx[a])
		dy := float64(y[b]+vy[b]) - float64(y[a]+vy[a])
		if dx == 0 {
			dx = 1e-6
		}
		if dy == 0 {
			dy = 1e-6
		}
		l := math.Sqrt(float64(dx*dx) + float64(dy*dy))
		l = (l - linkDistance) / l * alpha * s.strength[k/2]
		dx *= l
		dy *= l
		bias := s.bias[k/2]
		vx[b] -= float64(dx * bias)
		vy[b] -= float64(dy * bias)
		vx[a] += float64(dx * (1 - bias))
		vy[a] += float64(dy * (1 - bias))
	}
	s.tree.build(x, y)
	// Repulsion is most of the work; each worker takes every workers-th
	// node and writes only its own, so the result does not depend on
	// how many there are.
	var wg sync.WaitGroup
	for w := range s.workers {
		wg.Go(func() {
			var stack []int32
			for i := w; i < s.n; i += s.workers {
				var fx, fy float64
				fx, fy, stack = s.tree.force(i, x, y, charge*alpha, stack)
				vx[i] += fx
				vy[i] += fy
			}
		})
	}
	wg.Wait()
	for i := range s.n {
		vx[i] -= float64(x[i] * gravity * alpha)
		vy[i] -= float64(y[i] * gravity * alpha)
		vx[i] *= velocityDecay
		vy[i] *= velocityDecay
		x[i] += vx[i]
		y[i] += vy[i]
	}
}
