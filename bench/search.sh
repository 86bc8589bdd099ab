#!/usr/bin/env bash
# Measures dreamwiki's static search against Pagefind on the same generated
# site, in headless Chromium, and what the index costs the build.
#
#   bench/search.sh              # 10,000 notes, 5 cold runs per query
#   N=1000 RUNS=3 bench/search.sh
#
# For each query (rare, mid-frequency, common, very common, two words) and
# each engine, in a fresh browser context (empty cache) on a page that has
# not loaded any search code yet, through each engine's JS API
# (window.dreamwikiSearch.search, Pagefind's pagefind.js):
#   bytes  everything the server sent from the query to results with the
#          fragments of the first 8 (the dropdown's size): for dreamwiki
#          the search bundle, metadata, shards and fragments; for Pagefind
#          pagefind.js, its worker, WebAssembly, entry, metadata, index
#          chunks and fragments (counted by the server, so requests from
#          Pagefind's web worker count too)
#   cold   milliseconds for the same, median of RUNS
#   warm   milliseconds for the query again once its files are loaded,
#          median of 20
# dreamwiki's search field is also timed (cold: typing into a fresh page
# until results with highlighted snippets are on screen; warm: the same
# once loaded), which adds snippets and DOM work to the engine's time.
# The server gzips text responses, as static hosts do; both engines get it.
#
# Pagefind indexes the same note pages (api/pages.json lists them) with
# --root-selector main, so it sees the content dreamwiki indexes and not
# the navigation around it.
#
# Build cost: the median time of `dreamwiki build` over RUNS_BUILD runs, and
# BenchmarkWriteStatic (the static index alone) on the same workspace; the
# index's share is writeStatic / (build - writeStatic).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-10000}
RUNS=${RUNS:-5}
RUNS_BUILD=${RUNS_BUILD:-3}
WORK=${WORK:-$(mktemp -d /tmp/dreamwiki-search-bench-XXXX)}
echo "work folder: $WORK"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
command -v chromium >/dev/null || { as_root apt-get update -qq; as_root apt-get install -y -qq --no-install-recommends chromium >/dev/null; }
(cd tests/browser && [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund --loglevel=error)
if [ ! -x "$WORK/pf/node_modules/.bin/pagefind" ]; then
  mkdir -p "$WORK/pf"
  (cd "$WORK/pf" && npm init -y >/dev/null && npm install pagefind --no-audit --no-fund --loglevel=error >/dev/null)
fi

go build -o "$WORK/dreamwiki" ./cmd/dreamwiki
[ -d "$WORK/ws" ] || go run ./bench/gen -n "$N" -out "$WORK/ws"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Build time, and the static index's own time on the same workspace.
# RUNS_BUILD=0 builds once and skips the timing (to re-measure queries).
: > "$WORK/build.txt"
for i in $(seq "$(( RUNS_BUILD > 0 ? RUNS_BUILD : 1 ))"); do
  rm -rf "$WORK/out"
  start=$(date +%s.%N)
  "$WORK/dreamwiki" build "$WORK/ws" --out "$WORK/out" --quiet
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >> "$WORK/build.txt"
done
build_s=$(median < "$WORK/build.txt")
if [ "$RUNS_BUILD" -gt 0 ]; then
  ws_ns=$(DREAMWIKI_BENCH_WS="$WORK/ws" go test ./internal/search/staticindex -run '^$' -bench WriteStatic -benchtime "${RUNS_BUILD}x" -timeout 2h |
    awk '/^BenchmarkWriteStatic/ {print $3}')
  ws_s=$(awk -v n="$ws_ns" 'BEGIN { printf "%.3f", n / 1e9 }')
fi

# Pagefind on the same note pages (indexed once per work folder).
SITE="$WORK/out/site"
if [ ! -f "$WORK/_pagefind/pagefind.js" ]; then
  rm -rf "$WORK/pfsite" "$WORK/_pagefind"
  node -e '
    const fs = require("fs"), path = require("path");
    const [site, dst] = process.argv.slice(1);
    for (const p of JSON.parse(fs.readFileSync(path.join(site, "api/pages.json"))).pages) {
      fs.mkdirSync(path.dirname(path.join(dst, p.url)), { recursive: true });
      fs.copyFileSync(path.join(site, p.url), path.join(dst, p.url));
    }' "$SITE" "$WORK/pfsite"
  pf_start=$(date +%s.%N)
  "$WORK/pf/node_modules/.bin/pagefind" --site "$WORK/pfsite" --root-selector main --output-path "$WORK/_pagefind" --quiet
  awk -v a="$pf_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }' > "$WORK/pagefind-time.txt"
fi
pf_s=$(cat "$WORK/pagefind-time.txt")
ln -sfn "$WORK/_pagefind" "$SITE/_pagefind"
cat > "$SITE/bench-pagefind.html" <<'HTML'
<!doctype html><meta charset="utf-8"><title>Pagefind bench</title><p>Pagefind</p>
HTML

cat > "$WORK/measure.mjs" <<'JS'
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, extname, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const [site, runs] = [process.argv[2], Number(process.argv[3])];
const queries = [
  ['rare', 'note-3141'], ['mid-frequency', 'hello'], ['common', 'oncall'],
  ['very common', 'gateway'], ['two words', 'gateway kyoto'],
];
const text = new Set(['.html', '.js', '.css', '.json', '.md', '.txt', '.xml', '.svg']);
const mime = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };
let sent = 0; // bytes sent (bodies and status line and headers)
const server = createServer(async (req, res) => {
  const p = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  try {
    let body = await readFile(join(site, p.endsWith('/') ? p + 'index.html' : p));
    const headers = { 'content-type': mime[extname(p)] || 'application/octet-stream', 'cache-control': 'max-age=3600' };
    if (text.has(extname(p)) && /gzip/.test(req.headers['accept-encoding'] || '')) {
      body = gzipSync(body, { level: 6 });
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = body.length;
    sent += body.length + 17 + Object.entries(headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 2);
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });

const ours = {
  url: base + 'index.html',
  cold: async (q) => {
    const t0 = performance.now();
    const form = document.querySelector('form.site-search');
    await new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = (document.body.dataset.root || '') + form.dataset.searchJs;
      s.onload = resolve;
      s.onerror = reject;
      document.head.append(s);
    });
    const r = await window.dreamwikiSearch.search(q, { limit: 8 });
    if (r.length === 0) throw new Error('no results for ' + q);
    return performance.now() - t0;
  },
  warm: async (q) => {
    const t0 = performance.now();
    await window.dreamwikiSearch.search(q, { limit: 8 });
    return performance.now() - t0;
  },
};
const oursUI = {
  url: base + 'index.html',
  cold: async (q) => {
    const done = new Promise((resolve) => {
      const ok = () => document.querySelector('#search-results li');
      const mo = new MutationObserver(() => { if (ok()) { mo.disconnect(); resolve(); } });
      mo.observe(document.body, { subtree: true, childList: true });
    });
    const t0 = performance.now();
    const input = document.getElementById('search-input');
    input.focus();
    input.value = q;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await done;
    return performance.now() - t0;
  },
  warm: async (q) => {
    const input = document.getElementById('search-input');
    const list = document.getElementById('search-results');
    const settle = (pred) => new Promise((resolve) => {
      if (pred()) return resolve();
      const mo = new MutationObserver(() => { if (pred()) { mo.disconnect(); resolve(); } });
      mo.observe(list.parentElement, { subtree: true, childList: true, characterData: true });
    });
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await settle(() => list.children.length === 0 && /Type to search/.test(document.querySelector('.search-status').textContent));
    const t0 = performance.now();
    input.value = q;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await settle(() => list.children.length > 0);
    return performance.now() - t0;
  },
};
const pagefind = {
  url: base + 'bench-pagefind.html',
  cold: async (q) => {
    const t0 = performance.now();
    const pf = await import('/_pagefind/pagefind.js');
    await pf.init();
    const s = await pf.search(q);
    const r = await Promise.all(s.results.slice(0, 8).map((x) => x.data()));
    if (r.length === 0) throw new Error('no results for ' + q);
    window.__pf = pf;
    return performance.now() - t0;
  },
  warm: async (q) => {
    const t0 = performance.now();
    const s = await window.__pf.search(q);
    await Promise.all(s.results.slice(0, 8).map((r) => r.data()));
    return performance.now() - t0;
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
async function measure(eng, q) {
  const colds = [];
  let bytes = 0;
  let page;
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext();
    page = await ctx.newPage();
    await page.goto(eng.url);
    await page.waitForLoadState('networkidle');
    sent = 0;
    colds.push(await page.evaluate(eng.cold, q));
    await page.waitForLoadState('networkidle');
    bytes = sent;
    if (i < runs - 1) await ctx.close();
  }
  const warms = [];
  for (let i = 0; i < 20; i++) warms.push(await page.evaluate(eng.warm, q));
  await page.context().close();
  return { bytes, cold: median(colds), warm: median(warms) };
}
const rows = [];
for (const [label, q] of queries) {
  rows.push({ label, q, dw: await measure(ours, q), pf: await measure(pagefind, q), ui: await measure(oursUI, q) });
}
await browser.close();
server.close();
const kb = (b) => (b / 1024).toFixed(1);
console.log('| query | | dreamwiki KB | Pagefind KB | ratio | dreamwiki cold ms | Pagefind cold ms | dreamwiki warm ms | Pagefind warm ms | search field cold / warm ms |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.label} | \`${r.q}\` | ${kb(r.dw.bytes)} | ${kb(r.pf.bytes)} | ${(r.dw.bytes / r.pf.bytes).toFixed(2)} | ` +
    `${r.dw.cold.toFixed(0)} | ${r.pf.cold.toFixed(0)} | ${r.dw.warm.toFixed(1)} | ${r.pf.warm.toFixed(1)} | ${r.ui.cold.toFixed(0)} / ${r.ui.warm.toFixed(1)} |`);
}
const bad = rows.filter((r) => r.dw.bytes > 0.5 * r.pf.bytes || r.dw.cold > r.pf.cold || r.dw.warm > 5);
console.log(bad.length === 0 ? 'targets met: bytes <= 50% of Pagefind, cold <= Pagefind, warm <= 5 ms'
  : 'targets missed for: ' + bad.map((r) => r.label).join(', '));
JS
ln -sfn "$PWD/tests/browser/node_modules" "$WORK/node_modules"

echo
echo "$N notes; $(node -e 'console.log(require(process.argv[1]).pages.length)' "$SITE/api/pages.json") note pages indexed by both"
node "$WORK/measure.mjs" "$SITE" "$RUNS"
echo
if [ "$RUNS_BUILD" -gt 0 ]; then
  printf 'dreamwiki build           %7.2f s (median of %s)\n' "$build_s" "$RUNS_BUILD"
  printf '  of which static index   %7.2f s (BenchmarkWriteStatic), %.1f%% on top of the rest of the build\n' "$ws_s" \
    "$(awk -v w="$ws_s" -v b="$build_s" 'BEGIN { printf "%.1f", 100 * w / (b - w) }')"
fi
printf 'Pagefind indexing         %7.2f s (for reference)\n' "$pf_s"
printf 'index on disk             dreamwiki %s (with file:// twins), Pagefind %s\n' \
  "$(du -sh "$SITE/search" | cut -f1)" "$(du -shL "$SITE/_pagefind" | cut -f1)"
