package graphlayout

import "math"

// quadTree is a Barnes-Hut tree, rebuilt every step without allocating
// once it has grown to size. A cell is a leaf when it holds points
// (point >= 0, the rest chained through next) and internal when it has
// children; coincident points share a leaf.
type quadTree struct {
	cells  []cell
	next   []int32 // next point in the same leaf
	x0, y0 float64
}

// cell is one square of the tree, kept together so a walk reads one
// cache line per cell.
type cell struct {
	x, y  float64 // sums of the positions below, then (after build) their mean
	mass  float64
	size  float64 // squared and divided by theta² after build
	point int32   // first point of a leaf, -1 = none
	child [4]int32
}

func newQuadTree(n int) quadTree {
	return quadTree{cells: make([]cell, 0, max(16, 3*n)), next: make([]int32, n)}
}

func (t *quadTree) cell(size float64) int32 {
	t.cells = append(t.cells, cell{size: size, point: -1, child: [4]int32{-1, -1, -1, -1}})
	return int32(len(t.cells) - 1)
}

func (t *quadTree) build(x, y []float64) {
	t.cells = t.cells[:0]
	minX, minY, maxX, maxY := x[0], y[0], x[0], y[0]
	for i := range x {
		minX, maxX = min(minX, x[i]), max(maxX, x[i])
		minY, maxY = min(minY, y[i]), max(maxY, y[i])
	}
	t.x0, t.y0 = minX, minY
	root := t.cell(max(maxX-minX, maxY-minY, 1) * 1.0001)
	for i := range x {
		t.insert(root, int32(i), x, y)
	}
	for c := range t.cells {
		e := &t.cells[c]
		e.x /= e.mass
		e.y /= e.mass
		e.size = e.size * e.size / theta2
	}
}

func (t *quadTree) insert(c, i int32, x, y []float64) {
	cx, cy := t.x0, t.y0
	for depth := 0; ; depth++ {
		e := &t.cells[c]
		e.mass++
		e.x += x[i]
		e.y += y[i]
		if e.child == [4]int32{-1, -1, -1, -1} {
			p := e.point
			if p == -1 && e.mass == 1 {
				e.point, t.next[i] = i, -1
				return
			}
			if depth > 40 || (p != -1 && x[p] == x[i] && y[p] == y[i]) {
				t.next[i], e.point = p, i
				return
			}
			// Split: the resident points go one level down, then i goes on.
			e.point = -1
			h := e.size / 2
			q := quadrant(x[p] >= cx+h, y[p] >= cy+h)
			d := t.cell(h)
			t.cells[c].child[q] = d
			f := &t.cells[d]
			f.point = p
			for r := p; r != -1; r = t.next[r] {
				f.mass++
				f.x += x[r]
				f.y += y[r]
			}
		}
		e = &t.cells[c]
		h := e.size / 2
		right, down := x[i] >= cx+h, y[i] >= cy+h
		if right {
			cx += h
		}
		if down {
			cy += h
		}
		q := quadrant(right, down)
		d := e.child[q]
		if d == -1 {
			d = t.cell(h)
			t.cells[c].child[q] = d
		}
		c = d
	}
}

func quadrant(right, down bool) int {
	q := 0
	if right {
		q++
	}
	if down {
		q += 2
	}
	return q
}

// force is the repulsion of every other node on node i: a far cell acts
// as one mass at its centre, a near one is opened. It only reads the
// tree, so nodes can be done in parallel; stack is the caller's.
func (t *quadTree) force(i int, x, y []float64, strength float64, stack []int32) (fx, fy float64, _ []int32) {
	xi, yi := x[i], y[i]
	stack = append(stack[:0], 0)
	for len(stack) > 0 {
		e := &t.cells[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		dx, dy := e.x-xi, e.y-yi
		l := float64(dx*dx) + float64(dy*dy)
		if e.point == -1 && e.size < l {
			w := strength * e.mass / max(l, 1)
			fx += float64(dx * w)
			fy += float64(dy * w)
			continue
		}
		if e.point != -1 {
			for p := e.point; p != -1; p = t.next[p] {
				if int(p) == i {
					continue
				}
				ex, ey := x[p]-xi, y[p]-yi
				if ex == 0 && ey == 0 {
					// Coincident nodes: a small push that depends only on i.
					ex = float64((i*7919)%13-6)*1e-3 + 1e-4
					ey = float64((i*104729)%11-5) * 1e-3
				}
				q := float64(ex*ex) + float64(ey*ey)
				if q < 1 {
					q = max(math.Sqrt(q), 1e-3)
				}
				w := strength / q
				fx += float64(ex * w)
				fy += float64(ey * w)
			}
			continue
		}
		for _, d := range e.child {
			if d != -1 {
				stack = append(stack, d)
			}
		}
	}
	return fx, fy, stack
}
