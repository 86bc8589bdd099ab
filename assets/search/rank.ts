// Ranking: the browser twin of internal/search/rank.go, line for line, so
// that a query ranks the same in Go and here (a test runs both on the
// labelled queries and compares). The steps are documented on Rank in Go.

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

export interface Candidate {
  doc: number;
  bm25: number;
  fuzzy: number;
  /** Days old; negative for evergreen documents. */
  age: number;
  superseded: boolean;
  successors: number[];
}

export interface Ranked {
  doc: number;
  score: number;
}

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function bm25f(p: Params, idfv: number, tf: ArrayLike<number>, len: ArrayLike<number>, avg: ArrayLike<number>): number {
  let t = 0;
  for (let f = 0; f < NUM_FIELDS; f++) {
    if (tf[f] === 0) continue;
    let norm = 1;
    if (avg[f] > 0) norm = 1 - p.b + (p.b * len[f]) / avg[f];
    t += (p.boosts[f] * tf[f]) / norm;
  }
  if (t === 0) return 0;
  return (idfv * t * (p.k1 + 1)) / (p.k1 + t);
}

export function decay(age: number, halfLife: number): number {
  if (age <= 0) return 1;
  return Math.pow(0.5, age / halfLife);
}

function clamp01(v: number): number {
  if (!(v >= 0)) return 0;
  return v > 1 ? 1 : v;
}

export function rank(cands: Candidate[], p: Params, sim: ((a: number, b: number) => number) | null): Ranked[] {
  if (cands.length === 0) return [];
  let maxB = 0;
  let maxF = 0;
  for (const c of cands) {
    maxB = Math.max(maxB, c.bm25);
    maxF = Math.max(maxF, c.fuzzy);
  }
  const items = cands.map((c) => {
    let rel = 0;
    if (maxB > 0) rel += ((1 - p.w) * c.bm25) / maxB;
    if (maxF > 0) rel += (p.w * c.fuzzy) / maxF;
    if (c.age >= 0) rel *= decay(c.age, p.halfLife);
    if (c.superseded) rel *= p.superseded;
    return { c, rel };
  });
  items.sort((x, y) => (x.rel !== y.rel ? y.rel - x.rel : x.c.doc - y.c.doc));

  let out: Ranked[] = [];
  const top = Math.min(p.mmrTop, items.length);
  if (sim === null || top < 2 || p.lambda >= 1) {
    out = items.map((it) => ({ doc: it.c.doc, score: it.rel }));
  } else {
    let best = items[0].rel;
    if (best <= 0) best = 1;
    const picked = new Array<boolean>(top).fill(false);
    const maxSim = new Array<number>(top).fill(0);
    while (out.length < top) {
      let pick = -1;
      let pickV = -Infinity;
      for (let i = 0; i < top; i++) {
        if (picked[i]) continue;
        const v = (p.lambda * items[i].rel) / best - (1 - p.lambda) * maxSim[i];
        if (v > pickV) {
          pick = i;
          pickV = v;
        }
      }
      picked[pick] = true;
      out.push({ doc: items[pick].c.doc, score: items[pick].rel });
      for (let i = 0; i < top; i++) {
        if (!picked[i]) maxSim[i] = Math.max(maxSim[i], clamp01(sim(items[i].c.doc, items[pick].c.doc)));
      }
    }
    for (const it of items.slice(top)) out.push({ doc: it.c.doc, score: it.rel });
  }
  return successorsFirst(out, cands);
}

function successorsFirst(out: Ranked[], cands: Candidate[]): Ranked[] {
  const succ = new Map<number, number[]>();
  for (const c of cands) if (c.superseded && c.successors.length > 0) succ.set(c.doc, c.successors);
  if (succ.size === 0) return out;
  const order = out.filter((r) => succ.has(r.doc)).map((r) => r.doc);
  for (const doc of order) {
    const at = out.findIndex((r) => r.doc === doc);
    const ss = succ.get(doc) as number[];
    let last = -1;
    for (let i = at + 1; i < out.length; i++) if (ss.includes(out[i].doc)) last = i;
    if (last < 0) continue;
    const moved = out[at];
    out.splice(at, 1);
    out.splice(last, 0, moved);
  }
  return out;
}
