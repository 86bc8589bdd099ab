// Ranking: the browser twin of internal/search/rank.go, so that a query
// ranks the same in Go and here (a test runs both on the labelled queries
// and compares). The steps are documented on Rank in Go; BM25F and the
// decay factors are computed in engine.ts, with the same operations.

export const NUM_FIELDS = 4; // title, aliases, headings, body
export const FIELD_TITLE = 0;
export const FIELD_ALIASES = 1;
export const FIELD_HEADINGS = 2;
export const FIELD_BODY = 3;

export interface Params {
  k1: number;
  b: number;
  boosts: number[];
  w: number;
  halfLife: number;
  lambda: number;
  mmrTop: number;
  superseded: number;
}

/**
 * The candidates of a query, as parallel arrays of which the first n
 * count (a query can match tens of thousands of documents; objects per
 * candidate would be most of the work), in any order. decay is the factor
 * for the document's age, 1 for evergreen ones.
 */
export interface Candidates {
  n: number;
  doc: Int32Array;
  bm25: Float64Array;
  fuzzy: Float64Array;
  decay: Float64Array;
  superseded: Uint8Array;
  /** The documents that replaced doc, when it is a superseded claim. */
  successors: (doc: number) => number[] | undefined;
  /** Whether a document is among the candidates at all. */
  isCandidate: (doc: number) => boolean;
}

export interface Ranked {
  doc: number;
  score: number;
}

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

function clamp01(v: number): number {
  if (!(v >= 0)) return 0;
  return v > 1 ? 1 : v;
}

/**
 * The first limit results of Rank in rank.go, computed from the best
 * candidates only: MMR re-orders the mmrTop best, and each superseded
 * claim that moves below its successor lets one more candidate up, so the
 * best mmrTop + limit + (number of superseded candidates) decide the
 * first limit places exactly as sorting all of them would.
 */
export function rank(c: Candidates, p: Params, sim: ((a: number, b: number) => number) | null, limit: number, relBuf?: Float64Array): Ranked[] {
  const n = c.n;
  if (n === 0) return [];
  let maxB = 0;
  let maxF = 0;
  let moving = 0;
  for (let i = 0; i < n; i++) {
    maxB = Math.max(maxB, c.bm25[i]);
    maxF = Math.max(maxF, c.fuzzy[i]);
    if (c.superseded[i] && (c.successors(c.doc[i])?.length || 0) > 0) moving++;
  }
  const rel = relBuf && relBuf.length >= n ? relBuf : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let r = 0;
    if (maxB > 0) r += ((1 - p.w) * c.bm25[i]) / maxB;
    if (maxF > 0) r += (p.w * c.fuzzy[i]) / maxF;
    r *= c.decay[i];
    if (c.superseded[i]) r *= p.superseded;
    rel[i] = r;
  }
  const before = (a: number, b: number): boolean => (rel[a] !== rel[b] ? rel[a] > rel[b] : c.doc[a] < c.doc[b]);
  const window = Math.min(n, p.mmrTop + limit + moving);
  const items = topK(n, window, before);

  let out: Ranked[] = [];
  const top = Math.min(p.mmrTop, items.length);
  if (sim === null || top < 2 || p.lambda >= 1) {
    out = items.map((i) => ({ doc: c.doc[i], score: rel[i] }));
  } else {
    let best = rel[items[0]];
    if (best <= 0) best = 1;
    const picked = new Array<boolean>(top).fill(false);
    const maxSim = new Array<number>(top).fill(0);
    while (out.length < top) {
      let pick = -1;
      let pickV = -Infinity;
      for (let i = 0; i < top; i++) {
        if (picked[i]) continue;
        const v = (p.lambda * rel[items[i]]) / best - (1 - p.lambda) * maxSim[i];
        if (v > pickV) {
          pick = i;
          pickV = v;
        }
      }
      picked[pick] = true;
      out.push({ doc: c.doc[items[pick]], score: rel[items[pick]] });
      for (let i = 0; i < top; i++) {
        if (!picked[i]) maxSim[i] = Math.max(maxSim[i], clamp01(sim(c.doc[items[i]], c.doc[items[pick]])));
      }
    }
    for (const i of items.slice(top)) out.push({ doc: c.doc[i], score: rel[i] });
  }
  return successorsFirst(out, c, n > window).slice(0, limit);
}

/** The indexes of the k first of n items in the order before gives, sorted. */
function topK(n: number, k: number, before: (a: number, b: number) => boolean): number[] {
  if (k >= n) {
    const all = Array.from({ length: n }, (_, i) => i);
    return all.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }
  // A heap of the k best so far, worst at the root.
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean => before(b, a);
  const up = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < heap.length && worse(heap[l], heap[w])) w = l;
      if (r < heap.length && worse(heap[r], heap[w])) w = r;
      if (w === i) return;
      [heap[i], heap[w]] = [heap[w], heap[i]];
      i = w;
    }
  };
  for (let i = 0; i < n; i++) {
    if (heap.length < k) {
      heap.push(i);
      up(heap.length - 1);
    } else if (before(i, heap[0])) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}

/**
 * successorsFirst of rank.go on the ranked window. A successor that is a
 * candidate but not in the window ranks below the whole window, so a claim
 * it replaced leaves the window (truncated says the window is not all).
 */
function successorsFirst(out: Ranked[], c: Candidates, truncated: boolean): Ranked[] {
  const moving = new Set<number>();
  for (let i = 0; i < c.n; i++) if (c.superseded[i] && (c.successors(c.doc[i])?.length || 0) > 0) moving.add(c.doc[i]);
  if (moving.size === 0) return out;
  const order = out.filter((r) => moving.has(r.doc)).map((r) => r.doc);
  for (const doc of order) {
    const at = out.findIndex((r) => r.doc === doc);
    if (at < 0) continue;
    const ss = c.successors(doc) as number[];
    let last = -1;
    for (let i = at + 1; i < out.length; i++) if (ss.includes(out[i].doc)) last = i;
    const outside = truncated && ss.some((s) => c.isCandidate(s) && !out.some((r) => r.doc === s));
    if (outside) {
      out.splice(at, 1);
      continue;
    }
    if (last < 0) continue;
    const moved = out[at];
    out.splice(at, 1);
    out.splice(last, 0, moved);
  }
  return out;
}
