// The query syntax of `dreamwiki search` (internal/search/memsearch/
// query.go), parsed the same way in the browser: testdata/query-syntax.json
// holds vectors both parsers must agree on. Any input is a valid query;
// text that looks like syntax but is not (10.0.0.12:8080, a lone quote) is
// searched as text.
//
//   gateway host       words; results match any, best when they match all
//   "gateway host"     a phrase: the words in this order (required)
//   +gateway -nuc      a required word, an excluded word
//   type:feedback      a filter: type, tier, tag, kind (or source), status,
//   path:memory/       path and date (these two as prefixes), workspace (a
//   workspace:alpha    team site's); -type:x excludes
//   kind:"daily log"   a quoted value may hold spaces

import { analyze } from "./analyze";

export interface QueryWord {
  text: string;
  phrase: boolean;
  must: boolean;
  not: boolean;
}

export interface FieldClause {
  field: string;
  value: string;
  not: boolean;
}

export interface ParsedQuery {
  words: QueryWord[];
  filters: FieldClause[];
}

const FIELDS = new Set(["type", "tier", "tag", "kind", "source", "status", "path", "date", "workspace"]);

/** Bounds the work a pasted wall of text can cause (maxQueryClauses in Go). */
const MAX_CLAUSES = 32;

// Go's unicode.IsSpace (Unicode White_Space): JavaScript's \s adds U+FEFF
// and lacks U+0085.
const isSpace = (c: string): boolean => /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(c);

/** parseQuery is parseQuery of query.go, rune for rune. */
export function parseQuery(s: string): ParsedQuery {
  const pq: ParsedQuery = { words: [], filters: [] };
  const rs = Array.from(s);
  let i = 0;
  while (i < rs.length && pq.words.length + pq.filters.length < MAX_CLAUSES) {
    while (i < rs.length && isSpace(rs[i])) i++;
    if (i >= rs.length) break;
    let must = false;
    let not = false;
    if ((rs[i] === "+" || rs[i] === "-") && i + 1 < rs.length && !isSpace(rs[i + 1])) {
      must = rs[i] === "+";
      not = rs[i] === "-";
      i++;
    }
    if (rs[i] === '"') {
      let j = i + 1;
      while (j < rs.length && rs[j] !== '"') j++;
      const text = rs.slice(i + 1, j).join("");
      i = j + 1;
      if (analyze(text).length > 0) pq.words.push({ text, phrase: true, must, not });
      continue;
    }
    const quoted = quotedFilter(rs, i);
    if (quoted) {
      pq.filters.push({ field: quoted.field, value: quoted.value, not });
      i = quoted.next;
      continue;
    }
    let j = i;
    while (j < rs.length && !isSpace(rs[j])) j++;
    const tok = rs.slice(i, j).join("");
    i = j;
    const colon = tok.indexOf(":");
    if (colon >= 0) {
      const name = tok.slice(0, colon).toLowerCase();
      const value = trimQuotes(tok.slice(colon + 1));
      if (FIELDS.has(name) && tok.length > colon + 1 && value !== "") {
        pq.filters.push({ field: name, value, not });
        continue;
      }
    }
    if (analyze(tok).length === 0) continue; // punctuation only
    pq.words.push({ text: tok, phrase: false, must, not });
  }
  return pq;
}

/** quotedFilter is quotedFilter of query.go: field:"two words". */
function quotedFilter(rs: string[], i: number): { field: string; value: string; next: number } | null {
  let j = i;
  while (j < rs.length && rs[j] !== ":" && !isSpace(rs[j])) j++;
  const field = rs.slice(i, j).join("").toLowerCase();
  if (j + 1 >= rs.length || rs[j] !== ":" || rs[j + 1] !== '"' || !FIELDS.has(field)) return null;
  let k = j + 2;
  while (k < rs.length && rs[k] !== '"') k++;
  const value = trimSpace(rs.slice(j + 2, k).join(""));
  if (value === "") return null;
  return { field, value, next: k + 1 };
}

// Go's strings.TrimSpace: Unicode White_Space at both ends.
function trimSpace(s: string): string {
  const rs = Array.from(s);
  let a = 0;
  let b = rs.length;
  while (a < b && isSpace(rs[a])) a++;
  while (b > a && isSpace(rs[b - 1])) b--;
  return rs.slice(a, b).join("");
}

function trimQuotes(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s[a] === '"') a++;
  while (b > a && s[b - 1] === '"') b--;
  return s.slice(a, b);
}

/** What the index can tell about the documents, to read filters against. */
export interface Vocabulary {
  kinds: { value: string; label: string }[];
  types: string[];
  tiers: string[];
}

/** The fields of a result's fragment a plan reads (engine.Fragment). */
export interface Shown {
  t: string;
  k: string;
  d?: string;
  m?: string;
  r?: string;
  s?: string;
  p?: string;
  g?: string[];
  w?: string;
  x: string;
}

/** A parsed query as the engine runs it. */
export interface Plan {
  /** The words and phrases to score; "" when the query is only filters. */
  text: string;
  kinds: string[];
  types: string[];
  tiers: string[];
  /** Set when a result's fragment must be read to keep or drop it. */
  keep: ((f: Shown) => boolean) | null;
  /** Filters naming values the index does not have ("type:x"). */
  unknown: string[];
  /** The words of the query in order, for putting exact matches first. */
  exact: string[];
  /**
   * Set when the kind, type and tier lists say all the filters do (each
   * names a value the index has, none excludes): keep then drops
   * nothing the engine keeps, so the engine's count is the answer's.
   */
  indexOnly: boolean;
}

/**
 * planQuery turns a parsed query into engine filters (kind, type, tier)
 * and a test of each shown result for what only its fragment knows
 * (path, date, tag, status, workspace, exclusions, phrases and required
 * words).
 * type: also names a note type ("type: claim" in the vault's front
 * matter), so type:claim is kind:claim unless a memory type is called so.
 */
export function planQuery(pq: ParsedQuery, v: Vocabulary): Plan {
  const p: Plan = { text: "", kinds: [], types: [], tiers: [], keep: null, unknown: [], exact: [], indexOnly: true };
  const tests: ((f: Shown) => boolean)[] = [];
  const kindOf = (value: string): { value: string; label: string } | undefined =>
    v.kinds.find((k) => k.value === value || k.label.toLowerCase() === value);
  for (const c of pq.filters) {
    const val = c.field === "path" || c.field === "date" ? c.value : c.value.toLowerCase();
    let test: ((f: Shown) => boolean) | null = null;
    switch (c.field) {
      case "type": {
        const k = kindOf(val);
        if (v.types.includes(val)) {
          if (!c.not) p.types.push(val);
          test = (f) => f.m === val;
        } else if (k) {
          if (!c.not) p.kinds.push(k.value);
          test = (f) => f.k === k.label;
        }
        break;
      }
      case "kind":
      case "source": {
        const k = kindOf(val);
        if (k) {
          if (!c.not) p.kinds.push(k.value);
          test = (f) => f.k === k.label;
        }
        break;
      }
      case "tier":
        if (v.tiers.includes(val)) {
          if (!c.not) p.tiers.push(val);
          test = (f) => f.r === val;
        }
        break;
      case "tag":
        test = (f) => (f.g || []).some((t) => t.toLowerCase() === val);
        break;
      case "status":
        test = (f) => (f.s || "") === val;
        break;
      case "path":
        test = (f) => (f.p || "").startsWith(val);
        break;
      case "date":
        test = (f) => (f.d || "").startsWith(val);
        break;
      case "workspace":
        test = (f) => (f.w || "") === val;
        break;
    }
    const byIndex = !c.not && (c.field === "kind" || c.field === "source" || c.field === "type" || c.field === "tier");
    if (test === null || !byIndex) p.indexOnly = false;
    if (test === null) {
      // A value no document has: as in the CLI, a required one matches
      // nothing and an excluded one excludes nothing.
      p.unknown.push(c.field + ":" + c.value);
      if (!c.not) tests.push(() => false);
      continue;
    }
    const t = test;
    tests.push(c.not ? (f) => !t(f) : t);
  }
  const scored: string[] = [];
  for (const w of pq.words) {
    const terms = analyze(w.text);
    if (!w.not) {
      scored.push(w.text);
      p.exact.push(...terms);
    }
    if (w.not) tests.push((f) => !containsRun(termsOf(f), terms, w.phrase));
    else if (w.phrase || w.must) tests.push((f) => containsRun(termsOf(f), terms, w.phrase));
  }
  // Two values of one list are a union to the engine, both to keep.
  if (pq.words.length > 0 || p.kinds.length > 1 || p.types.length > 1 || p.tiers.length > 1) p.indexOnly = false;
  p.text = scored.join(" ");
  if (tests.length > 0) p.keep = (f) => tests.every((t) => t(f));
  return p;
}

const termCache = new WeakMap<Shown, string[]>();

/** The analysed terms of a result's title and text. */
function termsOf(f: Shown): string[] {
  let t = termCache.get(f);
  if (!t) {
    t = analyze(f.t + "\n" + f.x);
    termCache.set(f, t);
  }
  return t;
}

/** containsRun: every term of want in have, next to each other when phrase. */
export function containsRun(have: string[], want: string[], phrase: boolean): boolean {
  if (want.length === 0) return true;
  if (!phrase) return want.every((w) => have.includes(w));
  outer: for (let i = 0; i + want.length <= have.length; i++) {
    for (let j = 0; j < want.length; j++) if (have[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * exactFirst orders results that hold the query's words as a phrase first
 * (those whose title holds it before those whose text does: a claim that
 * says "Gateway host is…" answers "gateway host" more exactly than one that
 * quotes it in its evidence), keeping the ranking otherwise.
 */
export function exactFirst<T>(items: T[], shown: (x: T) => Shown, exact: string[]): T[] {
  if (exact.length < 2) return items;
  const level = items.map((x) => {
    const f = shown(x);
    if (containsRun(analyze(f.t), exact, true)) return 2;
    return containsRun(termsOf(f), exact, true) ? 1 : 0;
  });
  return items.map((x, i) => ({ x, i })).sort((a, b) => level[b.i] - level[a.i] || a.i - b.i).map((e) => e.x);
}
