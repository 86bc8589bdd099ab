// Snippets: the window of a result's text that holds the most distinct
// query terms, with every match marked. Matching uses the same analysis
// as the index, so "Tomás" in the text is marked for the query "tomas",
// and a compound such as E_AUTH_4031 is marked whole.

import { analyzeTokens } from "./analyze";

export interface Piece {
  text: string;
  mark: boolean;
}

const WINDOW = 180; // characters shown
const LEAD = 40; // characters kept before the first match

/** Marks in text the tokens matching terms (or starting with a prefix), as pieces. */
export function highlight(text: string, terms: Set<string>, prefixes: string[]): Piece[] {
  return piecesOf(text, matches(text, terms, prefixes), 0, text.length);
}

/** The best window of text, as pieces, with "…" where it was cut. */
export function snippet(text: string, terms: Set<string>, prefixes: string[]): Piece[] {
  const flat = text.replace(/\s+/g, " ").trim();
  const ms = earlyMatches(flat, terms, prefixes);
  if (flat.length <= WINDOW) return piecesOf(flat, ms, 0, flat.length);
  let bestStart = 0;
  let bestScore = -1;
  for (let i = 0; i < ms.length; i++) {
    const start = Math.max(0, ms[i][0] - LEAD);
    const seen = new Set<string>();
    for (let j = i; j < ms.length && ms[j][1] <= start + WINDOW; j++) seen.add(ms[j][2]);
    if (seen.size > bestScore) {
      bestScore = seen.size;
      bestStart = start;
    }
  }
  let start = bestStart;
  let end = Math.min(flat.length, start + WINDOW);
  // Cut at spaces so words stay whole.
  if (start > 0) {
    const sp = flat.indexOf(" ", start);
    if (sp >= 0 && sp < start + 20) start = sp + 1;
  }
  if (end < flat.length) {
    const sp = flat.lastIndexOf(" ", end);
    if (sp > end - 20) end = sp;
  }
  const out = piecesOf(flat, ms, start, end);
  if (start > 0) out.unshift({ text: "…", mark: false });
  if (end < flat.length) out.push({ text: "…", mark: false });
  return out;
}

const SEGMENT = 600;

/**
 * The matches of text's leading part: analysis is the costly step of
 * showing results, so text is analysed a segment (cut at a space) at a
 * time, stopping once the first match's window is covered and a second
 * term was found or most of the text was read.
 */
function earlyMatches(text: string, terms: Set<string>, prefixes: string[]): [number, number, string][] {
  const out: [number, number, string][] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + SEGMENT);
    if (to < text.length) {
      const sp = text.indexOf(" ", to);
      to = sp < 0 ? text.length : sp;
    }
    for (const m of matches(text.slice(from, to), terms, prefixes)) out.push([m[0] + from, m[1] + from, m[2]]);
    // Enough: two different terms matched (a window with both is the one
    // to show), or one, with the window after it read and a good part of
    // the text searched for a second.
    const distinct = new Set(out.map((m) => m[2])).size;
    if (out.length > 0 && to >= out[0][0] + WINDOW && (distinct >= 2 || to >= 4 * SEGMENT)) break;
    from = to;
  }
  return out;
}

/** Sorted, non-overlapping [start, end, term] ranges of matching tokens. */
function matches(text: string, terms: Set<string>, prefixes: string[]): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (const t of analyzeTokens(text)) {
    if (terms.has(t.term) || prefixes.some((p) => t.term.startsWith(p))) out.push([t.start, t.end, t.term]);
  }
  out.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number, string][] = [];
  for (const m of out) {
    const last = merged[merged.length - 1];
    if (last && m[0] < last[1]) {
      if (m[1] > last[1]) last[1] = m[1];
      continue;
    }
    merged.push([m[0], m[1], m[2]]);
  }
  return merged;
}

function piecesOf(text: string, ms: [number, number, string][], start: number, end: number): Piece[] {
  const out: Piece[] = [];
  let at = start;
  for (const [s, e] of ms) {
    if (e <= start || s >= end) continue;
    const ss = Math.max(s, start);
    const ee = Math.min(e, end);
    if (ss > at) out.push({ text: text.slice(at, ss), mark: false });
    out.push({ text: text.slice(ss, ee), mark: true });
    at = ee;
  }
  if (at < end) out.push({ text: text.slice(at, end), mark: false });
  return out;
}
