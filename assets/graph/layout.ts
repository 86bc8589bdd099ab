// Where a view's nodes are. The global graph comes laid out by the build
// (internal/graphlayout), so it is only drawn: Fixed. A local graph (the
// notes near one page) is small and laid out here, live: Simulation, a
// force-directed layout after d3-force's model (links pull like springs,
// every node repels every other through a Barnes-Hut quadtree, so a tick
// costs O(n log n), and a weak pull keeps components near the centre),
// the same model and constants as the build's. Positions start on a
// sunflower spiral, so a layout is the same on every load.

import { Graph } from "./data";

/** Layout is what a view reads: positions, and whether they still move. */
export interface Layout {
  readonly n: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly running: boolean;
  alpha: number;
  tick(): void;
}

/** Fixed is a layout computed beforehand: it never moves. */
export class Fixed implements Layout {
  readonly n: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly running = false;
  alpha = 0;

  constructor(xy: Float64Array) {
    const n = (this.n = xy.length / 2);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      this.x[i] = xy[2 * i];
      this.y[i] = xy[2 * i + 1];
    }
  }

  tick(): void {}
}

const theta2 = 0.81; // Barnes-Hut accuracy (theta 0.9), squared
const charge = -30;
const linkDistance = 30;
const gravity = 0.04;
const velocityDecay = 0.6;
const alphaMin = 0.002;
const alphaDecay = 1 - Math.pow(alphaMin, 1 / 300);

export class Simulation implements Layout {
  readonly n: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  private vx: Float64Array;
  private vy: Float64Array;
  private links: Int32Array;
  private strength: Float64Array;
  private bias: Float64Array;
  private tree: QuadTree;
  alpha = 1;
  /** Fixed node (being dragged), -1 for none. */
  fixed = -1;

  constructor(g: Graph) {
    const n = (this.n = g.nodes.length);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    const golden = Math.PI * (3 - Math.sqrt(5));
    for (let i = 0; i < n; i++) {
      const r = 10 * Math.sqrt(0.5 + i);
      this.x[i] = r * Math.cos(i * golden);
      this.y[i] = r * Math.sin(i * golden);
    }
    this.links = g.links;
    const m = g.links.length / 2;
    this.strength = new Float64Array(m);
    this.bias = new Float64Array(m);
    for (let k = 0; k < m; k++) {
      const a = g.degree[g.links[2 * k]];
      const b = g.degree[g.links[2 * k + 1]];
      this.strength[k] = 1 / Math.max(1, Math.min(a, b));
      this.bias[k] = a / (a + b || 1);
    }
    this.tree = new QuadTree(n);
  }

  get running(): boolean { return this.alpha >= alphaMin; }

  /** reheat restarts a settled layout gently (after a node was dragged). */
  reheat(alpha = 0.3): void { this.alpha = Math.max(this.alpha, alpha); }

  tick(): void {
    const { n, x, y, vx, vy, links, alpha } = this;
    for (let k = 0; k < links.length / 2; k++) {
      const s = links[2 * k];
      const t = links[2 * k + 1];
      if (s === t) continue;
      let dx = x[t] + vx[t] - x[s] - vx[s] || 1e-6;
      let dy = y[t] + vy[t] - y[s] - vy[s] || 1e-6;
      let l = Math.sqrt(dx * dx + dy * dy);
      l = ((l - linkDistance) / l) * alpha * this.strength[k];
      dx *= l;
      dy *= l;
      const b = this.bias[k];
      vx[t] -= dx * b;
      vy[t] -= dy * b;
      vx[s] += dx * (1 - b);
      vy[s] += dy * (1 - b);
    }
    this.tree.build(x, y, n);
    for (let i = 0; i < n; i++) this.tree.apply(i, x, y, vx, vy, charge * alpha);
    for (let i = 0; i < n; i++) {
      vx[i] -= x[i] * gravity * alpha;
      vy[i] -= y[i] * gravity * alpha;
      if (i === this.fixed) { vx[i] = vy[i] = 0; continue; }
      x[i] += vx[i] *= velocityDecay;
      y[i] += vy[i] *= velocityDecay;
    }
    this.alpha += (0 - this.alpha) * alphaDecay;
  }
}

/** QuadTree is a Barnes-Hut tree in flat arrays, rebuilt every tick
 * without allocating. Coincident points share a leaf through next[]. */
class QuadTree {
  private child: Int32Array; // 4 per cell, -1 = none
  private point: Int32Array; // first point of a leaf, -1 = internal or empty
  private next: Int32Array; // next point in the same leaf
  private mass: Float64Array;
  private mx: Float64Array;
  private my: Float64Array;
  private size: Float64Array;
  private cells = 0;
  private stack: Int32Array;

  constructor(n: number) {
    const cap = Math.max(16, 8 * n);
    this.child = new Int32Array(4 * cap);
    this.point = new Int32Array(cap);
    this.next = new Int32Array(Math.max(1, n));
    this.mass = new Float64Array(cap);
    this.mx = new Float64Array(cap);
    this.my = new Float64Array(cap);
    this.size = new Float64Array(cap);
    this.stack = new Int32Array(4 * 64 + 16);
  }

  private cell(size: number): number {
    if (this.cells === this.point.length) this.grow();
    const c = this.cells++;
    this.child.fill(-1, 4 * c, 4 * c + 4);
    this.point[c] = -1;
    this.mass[c] = this.mx[c] = this.my[c] = 0;
    this.size[c] = size;
    return c;
  }

  private grow(): void {
    const cap = this.point.length * 2;
    const g = <T extends Int32Array | Float64Array>(a: T, k = 1): T => {
      const b = new (a.constructor as { new (n: number): T })(cap * k);
      b.set(a);
      return b;
    };
    this.child = g(this.child, 4);
    this.point = g(this.point);
    this.mass = g(this.mass);
    this.mx = g(this.mx);
    this.my = g(this.my);
    this.size = g(this.size);
  }

  private x0 = 0;
  private y0 = 0;

  build(x: Float64Array, y: Float64Array, n: number): void {
    this.cells = 0;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      if (x[i] < minX) minX = x[i];
      if (x[i] > maxX) maxX = x[i];
      if (y[i] < minY) minY = y[i];
      if (y[i] > maxY) maxY = y[i];
    }
    const size = Math.max(maxX - minX, maxY - minY, 1) * 1.0001;
    this.x0 = minX;
    this.y0 = minY;
    const root = this.cell(size);
    for (let i = 0; i < n; i++) this.insert(root, i, x, y);
  }

  private insert(root: number, i: number, x: Float64Array, y: Float64Array): void {
    let c = root;
    let cx = this.x0, cy = this.y0;
    for (let depth = 0; ; depth++) {
      this.mass[c] += 1;
      this.mx[c] += x[i];
      this.my[c] += y[i];
      const isLeaf = this.child[4 * c] === -1 && this.child[4 * c + 1] === -1 && this.child[4 * c + 2] === -1 && this.child[4 * c + 3] === -1;
      if (isLeaf) {
        const p = this.point[c];
        if (p === -1 && this.mass[c] === 1) { this.point[c] = i; this.next[i] = -1; return; }
        if (depth > 40 || (p !== -1 && x[p] === x[i] && y[p] === y[i])) {
          this.next[i] = this.point[c];
          this.point[c] = i;
          return;
        }
        // Split: push the resident point one level down, then go on.
        this.point[c] = -1;
        const h = this.size[c] / 2;
        const q = (x[p] >= cx + h ? 1 : 0) + (y[p] >= cy + h ? 2 : 0);
        const d = this.cell(h);
        this.child[4 * c + q] = d;
        this.point[d] = p; // with any points chained to it
        for (let r = p; r !== -1; r = this.next[r]) {
          this.mass[d] += 1;
          this.mx[d] += x[r];
          this.my[d] += y[r];
        }
      }
      const h = this.size[c] / 2;
      const right = x[i] >= cx + h;
      const down = y[i] >= cy + h;
      const q = (right ? 1 : 0) + (down ? 2 : 0);
      if (right) cx += h;
      if (down) cy += h;
      let d = this.child[4 * c + q];
      if (d === -1) {
        d = this.cell(h);
        this.child[4 * c + q] = d;
      }
      c = d;
    }
  }

  /** apply adds the repulsion of every other node on node i. */
  apply(i: number, x: Float64Array, y: Float64Array, vx: Float64Array, vy: Float64Array, strength: number): void {
    const xi = x[i], yi = y[i];
    let top = 0;
    this.stack[top++] = 0;
    while (top > 0) {
      const c = this.stack[--top];
      const m = this.mass[c];
      if (m === 0) continue;
      const dx = this.mx[c] / m - xi;
      const dy = this.my[c] / m - yi;
      let l = dx * dx + dy * dy;
      const s = this.size[c];
      const leaf = this.point[c] !== -1;
      if (!leaf && s * s / theta2 < l) {
        if (l < 1) l = 1;
        const w = (strength * m) / l;
        vx[i] += dx * w;
        vy[i] += dy * w;
        continue;
      }
      if (leaf) {
        for (let p = this.point[c]; p !== -1; p = this.next[p]) {
          if (p === i) continue;
          let ex = x[p] - xi, ey = y[p] - yi;
          if (ex === 0 && ey === 0) { ex = ((i * 7919) % 13 - 6) * 1e-3 + 1e-4; ey = ((i * 104729) % 11 - 5) * 1e-3; }
          let q = ex * ex + ey * ey;
          if (q < 1) q = Math.sqrt(q) || 1e-3;
          const w = strength / q;
          vx[i] += ex * w;
          vy[i] += ey * w;
        }
        continue;
      }
      if (top + 4 > this.stack.length) {
        const s2 = new Int32Array(this.stack.length * 2);
        s2.set(this.stack);
        this.stack = s2;
      }
      for (let k = 0; k < 4; k++) {
        const d = this.child[4 * c + k];
        if (d !== -1) this.stack[top++] = d;
      }
    }
  }
}
