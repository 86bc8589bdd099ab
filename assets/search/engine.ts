// The query engine over the static index: the browser twin of
// internal/search/staticindex/reader_test.go, which documents each step. It fetches
// the metadata once, then per query only the dictionary shards of the
// query's terms (plus a trigram shard for a term that matches nothing),
// and fragments only for the results shown.

import { analyzeTokens, ANALYSIS_VERSION } from "./analyze";
import { CorruptIndex, FrontDecoder, LENGTH_TABLE, Reader, cmp, decodeUTF8, lowerBound, openEnvelope, runeCount } from "./codec";
import { NUM_FIELDS, Candidates, Params, idf, rank } from "./rank";

/** Format of the static index this engine reads (staticindex.Format in Go). */
export const STATIC_FORMAT = 2;

/** Documents per fragment file (fragmentGroup in staticindex/write.go). */
const FRAGMENT_GROUP = 8;

/** Returns the bytes of a file of the search folder, by name without extension ("meta", "ID/t3"). */
export type Loader = (name: string) => Promise<Uint8Array>;

interface Header {
  format: number;
  analysis: number;
  id: string;
  docs: number;
  asOf: number;
  avg: number[];
  params: Params;
  shards: string[];
  trigrams: number[];
  kinds: string[];
  labels: Record<string, string>;
  types: string[];
  tiers: string[];
}

export interface Query {
  text: string;
  kinds?: string[];
  types?: string[];
  tiers?: string[];
  limit?: number;
}

export interface Hit {
  doc: number;
  score: number;
}

/** Hits, and the dictionary terms the query matched, for highlighting. */
export interface Result {
  hits: Hit[];
  /** Terms matched exactly, as completions or as corrections. */
  terms: string[];
  /** Query terms that match as prefixes (the word being typed, CJK characters). */
  prefixes: string[];
}

export interface Fragment {
  t: string; // title
  u: string; // URL from the site root
  k: string; // kind label
  d?: string; // date
  m?: string; // memory type
  r?: string; // tier
  s?: string; // status
  l?: boolean; // lapsed permission
  e?: string; // how well a claim is backed (provenance.Backing)
  p?: string; // workspace path
  g?: string[]; // tags
  w?: string; // workspace of a team site
  x: string; // text
}

const FLAG_DECAYS = 1;
const FLAG_SUPERSEDED = 2;

const MAX_QUERY_UNITS = 32;
const MAX_COMPLETIONS = 16;
const MAX_PREFIX_SHARDS = 4;
const MAX_CORRECTIONS = 3;
const MIN_DICE = 0.3;
const MIN_TYPO_LEN = 4;
const MAX_TYPO_KEY = 20;

interface DictShard {
  terms: string[];
  df: number[];
  off: number[];
  post: Uint8Array;
  decoded: Map<number, Postings>;
}

interface Postings {
  docs: Int32Array;
  /**
   * The term's BM25F score in each document: it depends only on the index,
   * so it is computed once, when the postings are first read.
   */
  scores: Float64Array;
}

interface TriShard {
  terms: string[];
  df: number[];
  grams: string[];
  lists: number[][];
}

interface Unit {
  term: string;
  weight: number;
  prefix: boolean;
  /** Units of the compounds this is a part of; null when it stands alone (queryUnit in Go). */
  containers: number[] | null;
}

interface Variant {
  shard: number;
  index: number;
  weight: number;
}

export class Engine {
  private shards = new Map<number, Promise<DictShard>>();
  private tris = new Map<number, Promise<TriShard | null>>();
  private frags = new Map<number, Promise<Fragment>>();
  private groups = new Map<number, Promise<Uint8Array[]>>();
  private lengths: Int32Array;
  /** Per document and field, BM25's length normalisation 1 - b + b*len/avg. */
  private norms: Float64Array;
  /** Per document, the decay factor of its age (1 for evergreen documents). */
  private decay: Float64Array;
  private date: Int32Array;
  private succ = new Map<number, number[]>();
  private sims = new Map<number, number>();

  private constructor(
    private load: Loader,
    readonly h: Header,
    private kind: Uint8Array,
    private typ: Uint8Array,
    private tier: Uint8Array,
    private flags: Uint8Array,
    r: Reader,
    lens: Uint8Array[],
  ) {
    const n = h.docs;
    this.lengths = new Int32Array(n * NUM_FIELDS);
    for (let d = 0; d < n; d++) for (let f = 0; f < NUM_FIELDS; f++) this.lengths[d * NUM_FIELDS + f] = LENGTH_TABLE[lens[f][d]];
    this.date = new Int32Array(n);
    let prev = 0;
    for (let d = 0; d < n; d++) {
      if (flags[d] & FLAG_DECAYS) {
        const v = r.uvarint();
        prev += v % 2 === 1 ? -(v + 1) / 2 : v / 2;
        this.date[d] = prev;
      }
    }
    const p = h.params;
    this.norms = new Float64Array(n * NUM_FIELDS);
    this.decay = new Float64Array(n).fill(1);
    for (let d = 0; d < n; d++) {
      for (let f = 0; f < NUM_FIELDS; f++) {
        this.norms[d * NUM_FIELDS + f] = h.avg[f] > 0 ? 1 - p.b + (p.b * this.lengths[d * NUM_FIELDS + f]) / h.avg[f] : 1;
      }
      if (flags[d] & FLAG_DECAYS) {
        const age = h.asOf - this.date[d];
        this.decay[d] = age <= 0 ? 1 : Math.pow(0.5, age / p.halfLife);
      }
    }
    prev = 0;
    for (let i = 0, c = r.int(n * n); i < c; i++) {
      const old = prev + r.int(n);
      const nw = r.int(n - 1);
      prev = old;
      const list = this.succ.get(old) || [];
      list.push(nw);
      this.succ.set(old, list);
    }
    prev = 0;
    for (let i = 0, c = r.int(n * n); i < c; i++) {
      const a = prev + r.int(n);
      const b = a + r.int(n);
      this.sims.set(a * n + b, r.byte() / 255);
      prev = a;
    }
  }

  /** Reads the metadata; throws CorruptIndex when it is missing or broken. */
  static async open(load: Loader): Promise<Engine> {
    const b = await openEnvelope(await load("meta"), "meta");
    const r = new Reader(b, "meta");
    const head = r.bytes(r.int(b.length));
    let h: Header;
    try {
      h = JSON.parse(decodeUTF8(head)) as Header;
    } catch {
      throw new CorruptIndex("meta header is not JSON");
    }
    if (h.format !== STATIC_FORMAT || h.analysis !== ANALYSIS_VERSION) {
      throw new CorruptIndex(`format ${h.format}/${h.analysis}, this page reads ${STATIC_FORMAT}/${ANALYSIS_VERSION}`);
    }
    const n = h.docs;
    const cols = [r.bytes(n), r.bytes(n), r.bytes(n), r.bytes(n)];
    const lens: Uint8Array[] = [];
    for (let f = 0; f < NUM_FIELDS; f++) lens.push(r.bytes(n));
    return new Engine(load, h, cols[0], cols[1], cols[2], cols[3], r, lens);
  }

  private async file(name: string): Promise<Uint8Array> {
    const full = this.h.id + "/" + name;
    return openEnvelope(await this.load(full), full);
  }

  /** The source kinds present, with their labels, for the filter. */
  kinds(): { value: string; label: string }[] {
    return this.h.kinds.map((k) => ({ value: k, label: this.h.labels[k] || k }));
  }

  types(): string[] {
    return this.h.types;
  }

  tiers(): string[] {
    return this.h.tiers;
  }

  fragment(doc: number): Promise<Fragment> {
    let p = this.frags.get(doc);
    if (!p) {
      p = (async () => {
        if (!(doc >= 0 && doc < this.h.docs)) throw new CorruptIndex("no document " + doc);
        const b = (await this.group(Math.floor(doc / FRAGMENT_GROUP)))[doc % FRAGMENT_GROUP];
        if (!b) throw new CorruptIndex("fragment " + doc + " is not in its file");
        try {
          return JSON.parse(decodeUTF8(b)) as Fragment;
        } catch {
          throw new CorruptIndex("fragment " + doc + " is not JSON");
        }
      })();
      p.catch(() => this.frags.delete(doc));
      this.frags.set(doc, p);
    }
    return p;
  }

  /** The fragments of group g, each as bytes; fetched once. */
  private group(g: number): Promise<Uint8Array[]> {
    let p = this.groups.get(g);
    if (!p) {
      p = this.file("f" + g).then((b) => {
        const r = new Reader(b, "fragments " + g);
        const out: Uint8Array[] = [];
        while (r.off < b.length) out.push(r.bytes(r.int(b.length)));
        return out;
      });
      p.catch(() => this.groups.delete(g));
      this.groups.set(g, p);
    }
    return p;
  }

  private shardOf(term: string): number {
    let lo = 0;
    let hi = this.h.shards.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(this.h.shards[mid], term) > 0) hi = mid;
      else lo = mid + 1;
    }
    return Math.max(lo - 1, 0);
  }

  private dict(i: number): Promise<DictShard> {
    let p = this.shards.get(i);
    if (!p) {
      p = (async () => {
        const name = "t" + i;
        const b = await this.file(name);
        const r = new Reader(b, name);
        const n = r.int(b.length);
        const sh: DictShard = { terms: new Array(n), df: new Array(n), off: new Array(n + 1), post: b, decoded: new Map() };
        sh.off[0] = 0;
        const fd = new FrontDecoder();
        for (let t = 0; t < n; t++) {
          sh.terms[t] = fd.next(r);
          sh.df[t] = r.int(this.h.docs);
          sh.off[t + 1] = sh.off[t] + r.int(b.length);
        }
        sh.post = b.subarray(r.off);
        if (sh.off[n] > sh.post.length) r.fail();
        return sh;
      })();
      p.catch(() => this.shards.delete(i));
      this.shards.set(i, p);
    }
    return p;
  }

  private postings(sh: DictShard, v: Variant): Postings {
    const cached = sh.decoded.get(v.index);
    if (cached) return cached;
    const df = sh.df[v.index];
    const r = new Reader(sh.post.subarray(sh.off[v.index], sh.off[v.index + 1]), "t" + v.shard);
    const docs = new Int32Array(df);
    const scores = new Float64Array(df);
    const p = this.h.params;
    const b = p.boosts;
    const k1 = p.k1;
    const idfv = idf(this.h.docs, df);
    const norms = this.norms;
    let doc = 0;
    for (let i = 0; i < df; i++) {
      const delta = r.int(this.h.docs);
      doc = i === 0 ? delta : doc + delta;
      const c = r.byte();
      let body = c & 15;
      let head = (c >> 4) & 3;
      if (body === 15) body += r.int(1 << 30);
      if (head === 3) head += r.int(1 << 30);
      if (doc >= this.h.docs) r.fail();
      docs[i] = doc;
      // BM25F of rank.go, unrolled over the four fields (the same
      // operations in the same order, so the same doubles).
      const tf = [(c >> 6) & 1, c >> 7, head, body];
      const o = doc * NUM_FIELDS;
      let t = 0;
      for (let f = 0; f < NUM_FIELDS; f++) if (tf[f] !== 0) t += (b[f] * tf[f]) / norms[o + f];
      scores[i] = t === 0 ? 0 : (idfv * t * (k1 + 1)) / (k1 + t);
    }
    const out = { docs, scores };
    sh.decoded.set(v.index, out);
    return out;
  }

  private async lookup(u: Unit): Promise<{ vs: Variant[]; shards: Map<number, DictShard> }> {
    const shards = new Map<number, DictShard>();
    const out: Variant[] = [];
    if (this.h.shards.length === 0) return { vs: out, shards };
    const first = this.shardOf(u.term);
    let sh = await this.dict(first);
    shards.set(first, sh);
    let i = lowerBound(sh.terms, u.term);
    if (i < sh.terms.length && sh.terms[i] === u.term) {
      out.push({ shard: first, index: i, weight: 1 });
      i++;
    }
    if (!u.prefix) return { vs: out, shards };
    const comps: { v: Variant; term: string; df: number }[] = [];
    const qn = runeCount(u.term);
    for (let k = first; k < this.h.shards.length && k < first + MAX_PREFIX_SHARDS; k++) {
      if (k > first) {
        if (!this.h.shards[k].startsWith(u.term)) break;
        sh = await this.dict(k);
        shards.set(k, sh);
        i = 0;
      }
      for (; i < sh.terms.length && sh.terms[i].startsWith(u.term); i++) {
        comps.push({ v: { shard: k, index: i, weight: qn / runeCount(sh.terms[i]) }, term: sh.terms[i], df: sh.df[i] });
      }
      if (i < sh.terms.length) break;
    }
    comps.sort((a, b) => (a.df !== b.df ? b.df - a.df : cmp(a.term, b.term)));
    for (let j = 0; j < comps.length && j < MAX_COMPLETIONS; j++) out.push(comps[j].v);
    return { vs: out, shards };
  }

  private tri(key: number): Promise<TriShard | null> {
    let p = this.tris.get(key);
    if (!p) {
      p = (async () => {
        if (!this.h.trigrams.includes(key)) return null;
        const name = "g" + key;
        const b = await this.file(name);
        const r = new Reader(b, name);
        const n = r.int(b.length);
        const t: TriShard = { terms: new Array(n), df: new Array(n), grams: [], lists: [] };
        const fd = new FrontDecoder();
        for (let i = 0; i < n; i++) {
          t.terms[i] = fd.next(r);
          t.df[i] = r.int(this.h.docs);
        }
        const g = r.int(b.length);
        const gd = new FrontDecoder();
        for (let i = 0; i < g; i++) {
          t.grams.push(gd.next(r));
          const c = r.int(n);
          const list = new Array<number>(c);
          let prev = 0;
          for (let j = 0; j < c; j++) {
            let v = r.int(n);
            if (j > 0) v += prev;
            if (v >= n) r.fail();
            list[j] = prev = v;
          }
          t.lists.push(list);
        }
        return t;
      })();
      p.catch(() => this.tris.delete(key));
      this.tris.set(key, p);
    }
    return p;
  }

  private async corrections(term: string): Promise<{ term: string; dice: number }[]> {
    const n = typoLength(term);
    if (n < MIN_TYPO_LEN) return [];
    const t = await this.tri(Math.min(n, MAX_TYPO_KEY));
    if (t === null) return [];
    const qg = trigrams(term);
    const count = new Map<number, number>();
    for (const g of qg) {
      const i = lowerBound(t.grams, g);
      if (i < t.grams.length && t.grams[i] === g) for (const ti of t.lists[i]) count.set(ti, (count.get(ti) || 0) + 1);
    }
    const limit = n <= 5 ? 1 : 2;
    const out: { term: string; dice: number; dist: number; df: number }[] = [];
    for (const [ti, c] of count) {
      const cand = t.terms[ti];
      if (cand === term) continue;
      const dice = (2 * c) / (qg.length + trigrams(cand).length);
      if (dice < MIN_DICE) continue;
      const d = osaDistance(term, cand, limit);
      if (d <= limit) out.push({ term: cand, dice, dist: d, df: t.df[ti] });
    }
    out.sort((a, b) => (a.dist !== b.dist ? a.dist - b.dist : a.dice !== b.dice ? b.dice - a.dice : a.df !== b.df ? b.df - a.df : cmp(a.term, b.term)));
    return out.slice(0, MAX_CORRECTIONS);
  }

  /**
   * Adds to acc, for every document of the variants, weight times the best
   * of their weighted BM25F scores (scoreVariants in Go), and appends the
   * documents not seen before to the candidates. best is all zeros on entry
   * and on return.
   */
  private scoreVariants(vs: Variant[], shards: Map<number, DictShard>, weight: number, acc: Float64Array): void {
    const sc = this.scratch as Scratch;
    const { best, seen, touched, cands } = sc;
    let nt = 0;
    for (const v of vs) {
      const ps = this.postings(shards.get(v.shard) as DictShard, v);
      const docs = ps.docs;
      const scores = ps.scores;
      const w = v.weight;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i];
        const x = w * scores[i];
        if (x > best[doc]) {
          if (best[doc] === 0) touched[nt++] = doc;
          best[doc] = x;
        }
      }
    }
    for (let i = 0; i < nt; i++) {
      const doc = touched[i];
      acc[doc] += weight * best[doc];
      best[doc] = 0;
      if (!seen[doc]) {
        seen[doc] = 1;
        cands[sc.ncands++] = doc;
      }
    }
  }

  // Scratch for scoring, reused by every query: scoring runs without an
  // await, so two queries never share them at once.
  private scratch: Scratch | null = null;

  /** Runs a query; rejects with CorruptIndex when a needed file is missing or broken. */
  async search(q: Query): Promise<Result> {
    const limit = q.limit && q.limit > 0 ? q.limit : 10;
    const n = this.h.docs;
    const units = queryUnits(q.text);
    const terms = new Set<string>();
    // The steps of Reader.Search in Go. First every file the query
    // needs: compounds (in parallel), parts where no compound matched,
    // corrections where nothing matched.
    type Found = { vs: Variant[]; shards: Map<number, DictShard>; typo: boolean };
    const looked: (Found | null)[] = await Promise.all(units.map(async (u) => (u.containers === null ? { ...(await this.lookup(u)), typo: false } : null)));
    for (let k = 0; k < units.length; k++) {
      const u = units[k];
      if (u.containers !== null) {
        if (u.containers.some((c) => looked[c] !== null && !(looked[c] as Found).typo && (looked[c] as Found).vs.length > 0)) continue;
        looked[k] = { ...(await this.lookup(u)), typo: false };
      }
      const l = looked[k] as Found;
      if (l.vs.length > 0) continue;
      const cvs: Variant[] = [];
      const cshards = new Map<number, DictShard>();
      for (const c of await this.corrections(u.term)) {
        const s = this.shardOf(c.term);
        const sh = await this.dict(s);
        cshards.set(s, sh);
        const i = lowerBound(sh.terms, c.term);
        if (i < sh.terms.length && sh.terms[i] === c.term) cvs.push({ shard: s, index: i, weight: c.dice });
      }
      looked[k] = { vs: cvs, shards: cshards, typo: true };
    }

    // Then scoring and ranking, synchronously: the exact leg sums in unit
    // order, the typo leg adds the corrections after it.
    if (this.scratch === null || this.scratch.bm.length !== n) {
      this.scratch = newScratch(n);
    }
    const sc = this.scratch;
    const { bm, fz, seen, cands } = sc;
    sc.ncands = 0;
    const typoUnits: number[] = [];
    for (let k = 0; k < units.length; k++) {
      const l = looked[k];
      if (l === null) continue;
      for (const v of l.vs) terms.add((l.shards.get(v.shard) as DictShard).terms[v.index]);
      if (l.typo) typoUnits.push(k);
      else this.scoreVariants(l.vs, l.shards, units[k].weight, bm);
    }
    let legs = bm;
    if (typoUnits.length > 0) {
      legs = fz;
      for (let i = 0; i < sc.ncands; i++) fz[cands[i]] = bm[cands[i]];
      for (const k of typoUnits) {
        const l = looked[k] as Found;
        this.scoreVariants(l.vs, l.shards, units[k].weight, fz);
      }
    }
    // Candidates in the order first seen: ties are broken by document
    // number, so their order does not matter.
    const keep = this.filter(q);
    const c = sc.set;
    let m = 0;
    for (let i = 0; i < sc.ncands; i++) {
      const doc = cands[i];
      if (keep !== null && !keep(doc)) continue;
      c.doc[m] = doc;
      c.bm25[m] = bm[doc];
      c.fuzzy[m] = legs[doc];
      c.decay[m] = this.decay[doc];
      c.superseded[m] = this.flags[doc] & FLAG_SUPERSEDED ? 1 : 0;
      m++;
    }
    const set: Candidates = {
      n: m, doc: c.doc, bm25: c.bm25, fuzzy: c.fuzzy, decay: c.decay, superseded: c.superseded,
      successors: (doc) => this.succ.get(doc),
      isCandidate: (doc) => seen[doc] === 1 && (keep === null || keep(doc)),
    };
    const ranked = rank(set, this.h.params, (a, b) => (a < b ? this.sims.get(a * n + b) : this.sims.get(b * n + a)) || 0, limit, sc.rel);
    for (let i = 0; i < sc.ncands; i++) {
      const doc = cands[i];
      bm[doc] = 0;
      fz[doc] = 0;
      seen[doc] = 0;
    }
    return { hits: ranked, terms: Array.from(terms), prefixes: units.filter((u) => u.prefix).map((u) => u.term) };
  }

  /**
   * The documents q's kind, type and tier filters keep, freshest first
   * (by decay, then document order), at most q.limit of them: what a
   * query of filters alone lists (a dashboard bar's link). total counts
   * them all; without such a filter there are none.
   */
  browse(q: Query): { hits: Hit[]; total: number } {
    const keep = this.filter(q);
    if (keep === null) return { hits: [], total: 0 };
    const docs: number[] = [];
    for (let d = 0; d < this.h.docs; d++) if (keep(d)) docs.push(d);
    docs.sort((a, b) => this.decay[b] - this.decay[a] || a - b);
    const limit = q.limit && q.limit > 0 ? q.limit : 10;
    return { hits: docs.slice(0, limit).map((doc) => ({ doc, score: this.decay[doc] })), total: docs.length };
  }

  /** The predicate of q's filters, null when it filters nothing (filter in Go). */
  private filter(q: Query): ((doc: number) => boolean) | null {
    const set = (values: string[] | undefined, vocab: string[]): Set<number> | null => {
      const m = new Set<number>();
      for (const v of values || []) {
        const i = vocab.indexOf(v);
        if (i >= 0) m.add(i + 1);
      }
      return m.size > 0 ? m : null;
    };
    const kinds = set(q.kinds, this.h.kinds);
    const types = set(q.types, this.h.types);
    const tiers = set(q.tiers, this.h.tiers);
    if (kinds === null && types === null && tiers === null) return null;
    return (doc) =>
      (kinds === null || kinds.has(this.kind[doc])) &&
      (types === null || types.has(this.typ[doc])) &&
      (tiers === null || tiers.has(this.tier[doc]));
  }
}

/** Buffers of one document-count's size that scoring reuses. */
interface Scratch {
  bm: Float64Array;
  fz: Float64Array;
  best: Float64Array;
  seen: Uint8Array;
  touched: Int32Array;
  cands: Int32Array;
  ncands: number;
  set: { doc: Int32Array; bm25: Float64Array; fuzzy: Float64Array; decay: Float64Array; superseded: Uint8Array };
  rel: Float64Array;
}

function newScratch(n: number): Scratch {
  return {
    bm: new Float64Array(n), fz: new Float64Array(n), best: new Float64Array(n), seen: new Uint8Array(n),
    touched: new Int32Array(n), cands: new Int32Array(n), ncands: 0,
    set: { doc: new Int32Array(n), bm25: new Float64Array(n), fuzzy: new Float64Array(n), decay: new Float64Array(n), superseded: new Uint8Array(n) },
    rel: new Float64Array(n),
  };
}

/** The units of a query (queryUnits in Go). */
export function queryUnits(text: string): Unit[] {
  const toks = analyzeTokens(text);
  const top = toks.map((t, i) => !toks.some((o, j) => j !== i && o.start <= t.start && o.end >= t.end && o.end - o.start > t.end - t.start));
  const units: Unit[] = [];
  const at = new Map<string, number>();
  const unitOf = new Array<number>(toks.length).fill(-1);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    let containers: number[] | null = null;
    if (!top[i]) {
      containers = [];
      for (let j = 0; j < i; j++) {
        const o = toks[j];
        if (top[j] && o.start <= t.start && o.end >= t.end && unitOf[j] >= 0) containers.push(unitOf[j]);
      }
    }
    const u: Unit = { term: t.term, weight: top[i] ? 1 : 0.5, prefix: t.end === text.length || isCJKUnigram(t.term), containers };
    const k = at.get(u.term);
    if (k !== undefined) {
      unitOf[i] = k;
      const prev = units[k];
      prev.weight = Math.max(prev.weight, u.weight);
      prev.prefix = prev.prefix || u.prefix;
      prev.containers = top[i] || prev.containers === null ? null : prev.containers.concat(containers as number[]);
      continue;
    }
    if (units.length === MAX_QUERY_UNITS) continue;
    unitOf[i] = units.length;
    at.set(u.term, units.length);
    units.push(u);
  }
  return units;
}

function isCJKUnigram(t: string): boolean {
  const cp = t.codePointAt(0) as number;
  return t.length > 0 && t.length === (cp > 0xffff ? 2 : 1) && cp >= 0x2e80;
}

/** Length in characters of a typo-eligible term, 0 otherwise (typoEligible in Go). */
function typoLength(t: string): number {
  let n = 0;
  for (const ch of t) {
    const r = ch.codePointAt(0) as number;
    if (!((r >= 0x61 && r <= 0x7a) || (r >= 0xc0 && r < 0x2000 && !(r >= 0x1100 && r < 0x1200)))) return 0;
    n++;
  }
  return n;
}

/** Distinct trigrams of " "+t+" ", sorted by code point. */
export function trigrams(t: string): string[] {
  const rs = Array.from(" " + t + " ");
  const seen = new Set<string>();
  for (let i = 0; i + 3 <= rs.length; i++) seen.add(rs[i] + rs[i + 1] + rs[i + 2]);
  return Array.from(seen).sort(cmp);
}

/** Optimal string alignment distance in characters, capped at limit+1. */
export function osaDistance(a: string, b: string, limit: number): number {
  const ra = Array.from(a);
  const rb = Array.from(b);
  const d = ra.length - rb.length;
  if (d > limit || -d > limit) return limit + 1;
  let prev2 = new Array<number>(rb.length + 1).fill(0);
  let prev = new Array<number>(rb.length + 1);
  let cur = new Array<number>(rb.length + 1).fill(0);
  for (let j = 0; j <= rb.length; j++) prev[j] = j;
  for (let i = 1; i <= ra.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= rb.length; j++) {
      const cost = ra[i - 1] === rb[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && ra[i - 1] === rb[j - 2] && ra[i - 2] === rb[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > limit) return limit + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[rb.length];
}
