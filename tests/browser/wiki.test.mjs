// The wiki's reading features in Chromium: callouts fold, hover previews
// appear, the graph draws and navigates (and stays smooth with 5,000
// nodes), claim evidence lands on the highlighted daily-log line, the
// explorer folds away on phones, and axe finds no serious or critical
// accessibility problem on the main kinds of page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync, cpSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDemo, fileURL, launch } from './helpers.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let out, site, browser;
before(async () => {
  out = buildDemo();
  site = join(out, 'site');
  browser = await launch();
});
after(async () => { await browser?.close(); });

async function open(path, options = {}) {
  const page = await browser.newPage(options);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(fileURL(join(site, path)));
  return { page, errors };
}

// claimPages lists the claim pages the build wrote.
function claimPages() {
  const dir = join(site, 'claims');
  return readdirSync(dir).filter((f) => f.endsWith('.html') && !f.endsWith('.preview.html') && f !== 'index.html').sort();
}

test('a folded callout opens on click', async () => {
  const { page, errors } = await open('notes/reading-list.html');
  const callout = page.locator('details.callout[data-callout=quote]');
  assert.equal(await callout.getAttribute('open'), null, 'starts folded');
  assert.equal(await callout.locator('.callout-content').isVisible(), false);
  await callout.locator('summary').click();
  assert.notEqual(await callout.getAttribute('open'), null);
  assert.match(await callout.locator('.callout-content').innerText(), /underlined/);
  // The callout has its type's icon and colour.
  const colour = await callout.locator('summary').evaluate((el) => getComputedStyle(el).color);
  assert.notEqual(colour, await page.evaluate(() => getComputedStyle(document.body).color));
  assert.deepEqual(errors, []);
  await page.close();
});

test('hovering an internal link shows a preview of the note', async () => {
  const { page, errors } = await open('topics/gateway.html');
  const link = page.locator('article .content a.internal[href$="homelab.html"]').first();
  await link.hover();
  const pop = page.locator('.preview-popover');
  await pop.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await pop.innerText(), /Home lab/);
  // Its host table stays a table, and block ids (" ^e3") are not text.
  assert.ok(await pop.locator('table th', { hasText: 'address' }).count() === 1, 'the table is a table');
  assert.ok(await pop.locator('table td', { hasText: '10.0.0.12' }).count() >= 1);
  assert.doesNotMatch(await pop.innerText(), /\^e\d/);
  // The preview is the small fragment, not the whole page.
  assert.equal(await pop.locator('header, nav, footer').count(), 0);
  await page.mouse.move(5, 600);
  await pop.waitFor({ state: 'hidden', timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the global graph draws every note and a click opens one', async () => {
  const { page, errors } = await open('graph.html', { viewport: { width: 1280, height: 900 } });
  await page.waitForFunction(() => window.dreamwikiGraphViews?.[0]?.frames > 0, null, { timeout: 10000 });
  const count = await page.evaluate(() => window.dreamwikiGraphViews[0].nodeCount());
  const notes = JSON.parse(readFileSync(join(site, 'api', 'pages.json'), 'utf8')).pages.length;
  assert.equal(count, notes, 'one node per published note');
  await page.waitForFunction(() => window.dreamwikiGraphViews[0].settled(), null, { timeout: 20000 });
  // Something was drawn: the canvas is not a blank background.
  const inked = await page.evaluate(() => {
    const c = document.querySelector('.graph-box canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const bg = [d[0], d[1], d[2]];
    let n = 0;
    for (let i = 0; i < d.length; i += 16) if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 40) n++;
    return n;
  });
  assert.ok(inked > 200, `graph drew ${inked} sampled pixels`);
  // The nodes are where the build laid them out (graph-data.js's xy),
  // scaled and moved as one: the browser runs no layout of its own.
  const placed = await page.evaluate(() => {
    const v = window.dreamwikiGraphViews[0];
    const xy = window.dreamwikiGraphData.xy;
    let worst = 0;
    const [ax, ay] = v.nodeScreen(0), [bx, by] = v.nodeScreen(1);
    const k = (bx - ax) / (xy[2] - xy[0]);
    for (let i = 0; i < xy.length / 2; i++) {
      const [sx, sy] = v.nodeScreen(i);
      worst = Math.max(worst, Math.abs(sx - ax - k * (xy[2 * i] - xy[0])), Math.abs(sy - ay - k * (xy[2 * i + 1] - xy[1])));
    }
    return { n: xy.length / 2, worst };
  });
  assert.equal(placed.n, count, 'a position per node');
  assert.ok(placed.worst < 0.01, `nodes drawn ${placed.worst}px from the build's layout`);
  // Click the node of the gateway topic.
  const target = await page.evaluate(() => {
    const v = window.dreamwikiGraphViews[0];
    const data = window.dreamwikiGraphData;
    const i = data.nodes.findIndex((n) => n[1] === 'topics/gateway.html');
    const r = document.querySelector('.graph-box canvas').getBoundingClientRect();
    const [x, y] = v.nodeScreen(i);
    return { x: r.left + x, y: r.top + y };
  });
  await page.mouse.click(target.x, target.y);
  await page.waitForURL(/topics\/gateway\.html$/, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a note page loads its local graph only when asked', async () => {
  const { page, errors } = await open('topics/gateway.html', { viewport: { width: 1400, height: 900 } });
  const loaded = () => page.evaluate(() => [...document.scripts].some((s) => s.src.includes('graph')));
  assert.equal(await loaded(), false, 'no graph code on a content page until asked');
  await page.locator('.local-graph button', { hasText: 'Show local graph' }).click();
  await page.waitForFunction(() => window.dreamwikiGraphViews?.[0]?.frames > 0, null, { timeout: 10000 });
  const n = await page.evaluate(() => window.dreamwikiGraphViews[0].nodeCount());
  assert.ok(n >= 3 && n < 100, `local graph has ${n} nodes`);
  await page.locator('.local-graph select').selectOption('2');
  const n2 = await page.evaluate(() => window.dreamwikiGraphViews[0].nodeCount());
  assert.ok(n2 > n, `depth 2 (${n2}) shows more than depth 1 (${n})`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('panning the graph stays above 30 fps with 5,000 nodes', { timeout: 180000 }, async () => {
  // The demo site with the graph data swapped for a 5,000-note graph.
  const big = mkdtempSync(join(tmpdir(), 'dreamwiki-graph-'));
  cpSync(site, big, { recursive: true });
  const n = 5000;
  let seed = 1;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const groups = ['daily', 'tier:cold', 'tier:crystallised', 'tier:hot', 'tier:warm', 'topic'];
  const nodes = Array.from({ length: n }, (_, i) => [`Note ${i}`, `topics/gateway.html`, i % groups.length]);
  const links = [];
  for (let i = 1; i < n; i++) {
    links.push(i, Math.floor(rand() * i));
    if (rand() < 0.6) links.push(i, Math.floor(rand() * n));
  }
  // Positions as the build writes them (a disc as wide as its layout of
  // 5,000 notes): the page only draws.
  const xy = [];
  for (let i = 0; i < n; i++) {
    const r = 12 * Math.sqrt(i + 0.5), a = i * 2.39996;
    xy.push(Math.round(r * Math.cos(a)), Math.round(r * Math.sin(a)));
  }
  writeFileSync(join(big, 'assets', 'graph-data.js'), `window.dreamwikiGraphData=JSON.parse(${JSON.stringify(JSON.stringify({ groups, nodes, links, xy }))});`);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(fileURL(join(big, 'graph.html')));
  await page.waitForFunction(() => window.dreamwikiGraphViews?.[0]?.frames > 0, null, { timeout: 15000 });
  assert.equal(await page.evaluate(() => window.dreamwikiGraphViews[0].nodeCount()), n);
  // The picture is drawn in slices, a frame each; it is whole soon.
  await page.waitForFunction(() => window.dreamwikiGraphViews[0].settled(), null, { timeout: 20000, polling: 100 });
  console.log(`# graph with ${n} nodes: tasks over 50 ms while loading: ${await page.evaluate(() => window.longTasks.join(', ') || 'none')}`);
  // Pan for two seconds: one pointer move per animation frame, counting
  // the frames the browser manages and the ones the graph redrew.
  const result = await page.evaluate(async () => {
    const canvas = document.querySelector('.graph-box canvas');
    const view = window.dreamwikiGraphViews[0];
    const r = canvas.getBoundingClientRect();
    const opts = (x, y) => ({ clientX: r.left + x, clientY: r.top + y, pointerId: 1, bubbles: true, isPrimary: true, pointerType: 'mouse' });
    canvas.setPointerCapture = () => {};
    canvas.dispatchEvent(new PointerEvent('pointerdown', opts(400, 400)));
    const drawn0 = view.frames;
    const start = performance.now();
    let frames = 0;
    let worst = 0;
    let last = start;
    await new Promise((done) => {
      const step = (now) => {
        frames++;
        worst = Math.max(worst, now - last);
        last = now;
        const t = now - start;
        canvas.dispatchEvent(new PointerEvent('pointermove', opts(400 + 200 * Math.sin(t / 300), 400 + 120 * Math.cos(t / 400))));
        if (t < 2000) requestAnimationFrame(step); else done();
      };
      requestAnimationFrame(step);
    });
    const elapsed = performance.now() - start;
    canvas.dispatchEvent(new PointerEvent('pointerup', opts(400, 400)));
    return { fps: (frames * 1000) / elapsed, redraws: view.frames - drawn0, worst, elapsed };
  });
  console.log(`# graph with ${n} nodes: ${result.fps.toFixed(1)} fps panning, ${result.redraws} redraws in ${result.elapsed.toFixed(0)} ms, worst frame ${result.worst.toFixed(1)} ms`);
  assert.ok(result.redraws >= result.fps, 'the graph redrew while panning');
  assert.ok(result.fps >= 30, `panning at ${result.fps.toFixed(1)} fps`);
  await page.close();
});

test('a claim card evidence link lands on the highlighted daily-log line', async () => {
  // The first claim whose card links evidence in a daily log.
  let found = null;
  for (const f of claimPages()) {
    const html = readFileSync(join(site, 'claims', f), 'utf8');
    const m = html.match(/class="internal evidence-link" href="(\.\.\/sources\/daily\/[^"#]+\.html#[^"]+)"/);
    if (m) { found = { file: f, href: m[1].replace(/&amp;/g, '&') }; break; }
  }
  assert.ok(found, 'some claim has daily-log evidence');
  const { page, errors } = await open(`claims/${found.file}`);
  await page.locator(`a.evidence-link[href="${found.href}"]`).first().click();
  await page.waitForURL(/sources\/daily\/.*#/);
  const id = decodeURIComponent(new URL(page.url()).hash.slice(1));
  const target = page.locator(`[id="${id}"]`);
  await target.waitFor();
  assert.match(await target.getAttribute('class') || '', /arrived/);
  const bg = await target.evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'the line is highlighted');
  assert.ok(await target.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }), 'the line is in view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone the explorer folds behind the menu button', async () => {
  const { page, errors } = await open('topics/gateway.html', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const explorer = page.locator('#left');
  assert.equal(await explorer.isVisible(), false);
  await page.locator('#nav-toggle').click();
  assert.equal(await explorer.isVisible(), true);
  assert.equal(await page.locator('#nav-toggle').getAttribute('aria-expanded'), 'true');
  // Nothing is wider than the screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('axe finds no problems at all, in light and dark', async () => {
  const pages = ['index.html', 'sources/daily/2026-10-21.html', 'dashboard.html', 'topics/gateway.html', 'notes/reading-list.html', 'graph.html', 'tags/index.html', 'dreams/journal.html',
    'search.html?q=type%3Aclaim%20gateway'];
  const claims = claimPages();
  assert.ok(claims.length > 0, 'the demo has claim pages');
  pages.push(`claims/${claims[0]}`);
  const problems = [];
  for (const scheme of ['light', 'dark']) {
    for (const p of pages) {
      const [path, query] = p.split('?');
      const { page } = await open(path, { colorScheme: scheme });
      if (query) {
        await page.goto(fileURL(join(site, path)) + '?' + query);
        await page.waitForSelector('.search-results li');
      }
      if (path === 'graph.html') await page.waitForFunction(() => window.dreamwikiGraphViews?.[0]?.frames > 0, null, { timeout: 10000 });
      await page.addScriptTag({ content: axeSource });
      const res = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\n').slice(0, 2).join(' ')) }));
      });
      for (const v of res) {
        problems.push(`${scheme} ${p}: ${v.id} (${v.impact}) ${v.nodes.join(' | ')}`);
      }
      await page.close();
    }
  }
  assert.deepEqual(problems, []);
});

test('printing shows the content alone', async () => {
  const { page, errors } = await open('claims/gateway-host-is-the-mac-mini.html');
  await page.emulateMedia({ media: 'print' });
  for (const sel of ['.site-header', '#left', '.site-footer']) {
    assert.equal(await page.locator(sel).isVisible(), false, `${sel} is hidden in print`);
  }
  assert.equal(await page.locator('.claim-card').isVisible(), true);
  assert.deepEqual(errors, []);
  await page.close();
});
