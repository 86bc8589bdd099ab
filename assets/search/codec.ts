// The byte-level pieces of the static index format: the browser twin of
// internal/search/staticindex/codec.go (read that file for the layout).

/** Thrown for any file that does not decode: the UI then says search is unavailable. */
export class CorruptIndex extends Error {
  constructor(what: string) {
    super("search index: " + what);
    this.name = "CorruptIndex";
  }
}

/** Opens an envelope: a codec byte (0 raw, 1 raw DEFLATE), then the payload. */
export async function openEnvelope(file: Uint8Array, name: string): Promise<Uint8Array> {
  if (file.length === 0) throw new CorruptIndex(name + " is empty");
  const payload = file.subarray(1);
  if (file[0] === 0) return payload;
  if (file[0] !== 1) throw new CorruptIndex(name + " has an unknown codec");
  if (typeof DecompressionStream === "undefined") throw new CorruptIndex("this browser cannot inflate " + name);
  try {
    const stream = new Blob([payload as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    throw new CorruptIndex(name + " does not inflate");
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** Decodes varints and strings; any overrun throws CorruptIndex. */
export class Reader {
  off = 0;
  constructor(readonly b: Uint8Array, readonly name: string) {}

  fail(): never {
    throw new CorruptIndex(this.name + " is corrupted");
  }

  uvarint(): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.off >= this.b.length) this.fail();
      const c = this.b[this.off++];
      v += (c & 0x7f) * scale;
      if (c < 0x80) return v;
      scale *= 128;
    }
    return this.fail();
  }

  /** A varint that must lie in [0, limit]. */
  int(limit: number): number {
    const v = this.uvarint();
    if (v > limit) this.fail();
    return v;
  }

  byte(): number {
    if (this.off >= this.b.length) this.fail();
    return this.b[this.off++];
  }

  bytes(n: number): Uint8Array {
    if (n < 0 || this.off + n > this.b.length) this.fail();
    const s = this.b.subarray(this.off, this.off + n);
    this.off += n;
    return s;
  }
}

/** Reads a front-coded sorted list of UTF-8 strings. */
export class FrontDecoder {
  private prev = new Uint8Array(0);

  next(r: Reader): string {
    const n = r.int(this.prev.length);
    const rest = r.bytes(r.int(r.b.length));
    const s = new Uint8Array(n + rest.length);
    s.set(this.prev.subarray(0, n));
    s.set(rest, n);
    this.prev = s;
    return utf8.decode(s);
  }
}

export function decodeUTF8(b: Uint8Array): string {
  return utf8.decode(b);
}

/** Decoded field lengths: exact below 64, then growing by a sixteenth per step (lengthTable in Go). */
export const LENGTH_TABLE: Int32Array = (() => {
  const t = new Int32Array(256);
  for (let v = 0; v < 256; v++) t[v] = v < 64 ? v : t[v - 1] + Math.max(1, t[v - 1] >> 4);
  return t;
})();

/**
 * Compares strings by code point, which is the UTF-8 byte order the Go
 * side sorted terms in (plain < compares UTF-16 code units, which puts
 * U+E000..U+FFFF after astral characters).
 */
export function cmp(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      x = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
      y = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
      return x - y;
    }
  }
  return a.length - b.length;
}

/** The first index i of sorted xs with xs[i] >= x (code point order). */
export function lowerBound(xs: string[], x: string): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(xs[mid], x) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of code points of s. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}
