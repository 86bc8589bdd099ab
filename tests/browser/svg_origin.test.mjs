// Issue #22, findings 4 and 5, in Chromium: what a workspace's SVG and
// another site's page can make `dreamwiki serve` do. An SVG opened from
// the wiki's address runs no script (it would read a page's token and
// dream); a page of another site may read /api/search, with fetch(no-cors)
// or <img>, but writes no recall event. The wiki's own page, holding the
// token, still does. Built and put on a host that sends no header of its
// own (GitHub Pages), the SVG runs no script either.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { binary, launch } from './helpers.mjs';

// The SVG does what finding 4 did: read a page's token from /, dream,
// and search with the token (a recall event).
const evil = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">
<rect width="120" height="40" fill="teal"/>
<script><![CDATA[
document.documentElement.setAttribute('data-ran', '1');
(async () => {
  const page = await (await fetch('/')).text();
  const token = /data-token="([^"]+)"/.exec(page)[1];
  await fetch('/api/dream?force=1', { method: 'POST', headers: { 'X-Dreamwiki-Token': token } });
  await fetch('/api/search?q=gateway', { headers: { 'X-Dreamwiki-Token': token } });
})();
]]></script>
</svg>
`;

const workspace = {
  'MEMORY.md': '# Memory\n\n## Hosts\n- Gateway host is the Mac mini. Source: memory/2026-10-29.md#L3-L3\n',
  'memory/2026-10-29.md': '# 2026-10-29\n\n- The gateway host is the Mac mini now.\n- We decided: backups run at 02:00 every night.\n',
  'memory/2026-10-30.md': '# 2026-10-30\n\n- Sam asked about the gateway uptime.\n- We decided: backups run at 02:00 every night.\n',
  'memory/2026-10-31.md': '# 2026-10-31\n\n- We decided: backups run at 02:00 every night.\n',
  'notes/drawing.md': '# Drawing\n\n![[diagram.svg]]\n\nOpen [the diagram](diagram.svg) on its own.\n',
  'notes/diagram.svg': evil,
};

let server, base, dir, browser, other;
let stdout = '';

function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(binary, ['serve', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => reject(new Error('the server did not start: ' + stdout)), 120_000);
    p.stdout.on('data', (b) => {
      stdout += b;
      const m = /serving (\S+) at (http:\/\/\S+?)\/?\n/.exec(stdout);
      if (m && !base) {
        clearTimeout(timer);
        base = m[2];
        resolve(p);
      }
    });
    p.stderr.on('data', (b) => process.stderr.write(b));
    p.on('exit', (code) => { if (!base) reject(new Error(`the server exited (${code}): ${stdout}`)); });
  });
}

// The files a search or a dream writes, as they are now ('' when absent).
function written() {
  const out = {};
  for (const p of ['MEMORY.md', 'memory/.dreams/events.jsonl', 'memory/.dreams/short-term-recall.json']) {
    out[p] = existsSync(join(dir, p)) ? readFileSync(join(dir, p), 'utf8') : '';
  }
  return out;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dreamwiki-svg-'));
  for (const [name, text] of Object.entries(workspace)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  server = await startServer();
  browser = await launch();
  // Another site: its page reads the wiki's search API as any page may.
  other = createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>elsewhere</title><body>
<script>
window.done = (async () => {
  const api = ${JSON.stringify(base)} + '/api/search?q=gateway+uptime';
  await fetch(api, { mode: 'no-cors' }).catch(() => {});
  await fetch(api).catch(() => {}); // cors: the answer is unreadable, the request is sent
  await new Promise((resolve) => {
    const img = new Image();
    img.onload = img.onerror = resolve;
    img.src = api + '&n=2';
  });
  return true;
})();
</script></body>`);
  });
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await browser?.close();
  other?.close();
  if (server && server.exitCode === null) server.kill('SIGKILL');
});

// await the search index, as a program would (it writes nothing).
async function searchReady() {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(base + '/api/search?q=gateway');
    if (res.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the search index was not ready');
}

test('an SVG of the workspace, opened from the wiki, runs no script: no /api/ request, no dream', async () => {
  await searchReady();
  const before = written();
  const context = await browser.newContext();
  const api = [];
  context.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) api.push(r.method() + ' ' + r.url()); });
  const page = await context.newPage();
  // Shown in its note's page, with <img>, it is a picture.
  await page.goto(base + '/notes/drawing.html');
  const img = page.locator('img[src*="diagram.svg"]');
  await img.waitFor();
  assert.ok(await img.evaluate((el) => el.complete && el.naturalWidth > 0), 'the note shows the SVG');
  // Opened on its own.
  const res = await page.goto(base + '/notes/diagram.svg');
  assert.equal(res.status(), 200);
  await page.waitForTimeout(2_500); // a dream and a recall would be written by now
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-ran')), null, 'the SVG ran its script');
  assert.deepEqual(api, [], 'the SVG reached the API');
  assert.deepEqual(written(), before, 'MEMORY.md or the recall log changed');
  assert.match(res.headers()['content-security-policy'] || '', /sandbox/);
  await context.close();
});

test('another site reading /api/search (fetch, no-cors, <img>) writes no recall; the wiki\'s own page does', async () => {
  await searchReady();
  const before = written();
  const port = other.address().port;
  // 127.0.0.1 on another port is the same site, another origin;
  // localhost is another site.
  for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
    const page = await browser.newPage();
    // Chromium sends each request and then keeps the answer from the page
    // (CORS, ORB): the server gets all three, and before the fix logged
    // them.
    const sent = [];
    page.on('request', (r) => { if (r.url().includes('/api/search')) sent.push(r.resourceType()); });
    await page.goto(origin + '/');
    assert.equal(await page.evaluate(() => window.done), true);
    assert.deepEqual(sent, ['fetch', 'fetch', 'image'], `${origin}: the searches sent`);
    await page.close();
  }
  await new Promise((r) => setTimeout(r, 2_500)); // past the recall log's settle time
  assert.deepEqual(written(), before, 'searches from another site wrote the recall log');

  // The wiki's own page, with its token, is logged.
  const page = await browser.newPage();
  await page.goto(base + '/');
  const status = await page.evaluate(async () => {
    const res = await fetch('/api/search?q=gateway+uptime', { headers: { 'X-Dreamwiki-Token': document.body.dataset.token } });
    return res.status;
  });
  assert.equal(status, 200);
  const events = join(dir, 'memory/.dreams/events.jsonl');
  for (let i = 0; i < 100 && !(existsSync(events) && readFileSync(events, 'utf8').includes('gateway uptime')); i++) {
    await page.waitForTimeout(100);
  }
  assert.match(readFileSync(events, 'utf8'), /memory\.recall\.recorded.*gateway uptime/);
  await page.close();
});

test('built and served by a host that sends no header of its own, the SVG runs no script', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dreamwiki-svg-site-'));
  execFileSync(binary, ['build', dir, '--quiet', '--out', out], { stdio: 'inherit' });
  const host = createServer((req, res) => {
    const file = join(out, 'site', decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!existsSync(file) || !statSync(file).isFile()) { res.statusCode = 404; res.end(); return; }
    res.setHeader('Content-Type', file.endsWith('.svg') ? 'image/svg+xml' : 'text/html; charset=utf-8');
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${host.address().port}`;
  const page = await browser.newPage();
  const sent = [];
  page.on('request', (r) => { if (r.url() !== site + '/notes/diagram.svg') sent.push(r.url()); });
  const res = await page.goto(site + '/notes/diagram.svg');
  assert.equal(res.status(), 200);
  assert.equal(res.headers()['content-security-policy'], undefined);
  await page.waitForTimeout(1_000);
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-ran')), null, 'the SVG ran its script');
  assert.equal(await page.evaluate(() => document.querySelectorAll('rect').length), 1, 'the drawing is gone');
  assert.deepEqual(sent, []);
  await page.close();
  host.close();
});
