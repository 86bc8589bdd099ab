// Search in the browser: results as you type with highlights, filters,
// keyboard navigation, typos, deep links, file://, what a query fetches,
// and a broken index that must not break the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, cp, writeFile, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, extname, normalize } from 'node:path';
import { buildDemo, fileURL, launch } from './helpers.mjs';

let out, browser, server, base;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.bin': 'application/octet-stream', '.md': 'text/markdown',
};

// serve answers files under root; /broken/ serves a copy whose index the
// tests damage.
function serve(root) {
  return new Promise((resolve) => {
    const s = createServer(async (req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      try {
        const body = await readFile(join(root, path.endsWith('/') ? path + 'index.html' : path));
        res.writeHead(200, { 'content-type': types[extname(path)] || 'application/octet-stream' });
        res.end(body);
      } catch {
        res.writeHead(404);
        res.end('not found');
      }
    });
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

before(async () => {
  out = buildDemo();
  browser = await launch();
  server = await serve(out);
  base = `http://127.0.0.1:${server.address().port}/site/`;
});
after(async () => {
  await browser?.close();
  server?.close();
});

async function openPage(url, opts = {}) {
  const page = await browser.newPage(opts);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

const results = (page) => page.locator('#search-results li');

test('typing shows highlighted results; a filter narrows them; the keyboard opens one', async () => {
  const { page, errors } = await openPage(base + 'index.html');
  await page.locator('#search-input').fill('gateway host');
  await results(page).first().waitFor();
  assert.ok(await results(page).count() >= 3);
  const marks = await page.locator('#search-results mark').allInnerTexts();
  assert.ok(marks.some((m) => /gateway/i.test(m)) && marks.some((m) => /host/i.test(m)), `highlights: ${marks}`);

  // Filter on daily logs: every result is a daily log.
  await page.locator('.search-filters button', { hasText: 'Daily log' }).click();
  await page.waitForFunction(() => {
    const metas = [...document.querySelectorAll('#search-results .sr-meta')];
    return metas.length > 0 && metas.every((m) => m.textContent.startsWith('Daily log'));
  });

  // Down, Down, Enter opens the second result.
  const href = await results(page).nth(1).locator('a').getAttribute('href');
  await page.locator('#search-input').press('ArrowDown');
  await page.locator('#search-input').press('ArrowDown');
  assert.equal(await results(page).nth(1).locator('a').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#search-input').getAttribute('aria-activedescendant'), 'search-result-1');
  await page.locator('#search-input').press('Enter');
  await page.waitForURL((u) => u.href.endsWith(href.replace(/^(\.\.\/)*/, '')));
  assert.deepEqual(errors, []);
});

test('a typo still finds the page', async () => {
  const { page } = await openPage(base + 'topics/people.html');
  await page.locator('#search-input').fill('gatway');
  await results(page).first().waitFor();
  const titles = await page.locator('#search-results .sr-title').allInnerTexts();
  assert.ok(titles.slice(0, 3).includes('Gateway'), `titles: ${titles}`);
  assert.match(await page.locator('#search-results mark').first().innerText(), /gateway/i);
});

test('/ and Ctrl-K focus the search field', async () => {
  const { page } = await openPage(base + 'topics/gateway.html');
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'search-input');
  await page.locator('#search-input').blur();
  await page.keyboard.press('Control+k');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'search-input');
});

test('a one-word query fetches the metadata, one dictionary shard and the fragment files of the shown results; a typo adds one trigram shard', async () => {
  for (const [word, trigramShards] of [['gateway', 0], ['gatway', 1]]) {
    const page = await browser.newPage();
    const fetched = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.includes('/site/search/')) fetched.push(u.pathname.replace(/.*\/site\/search\//, ''));
    });
    await page.goto(base + 'index.html');
    await page.locator('#search-input').fill(word);
    await results(page).first().waitFor();
    await page.waitForLoadState('networkidle');
    const shown = await results(page).count();
    const kinds = { meta: 0, t: 0, g: 0, f: 0, other: [] };
    for (const f of fetched) {
      const m = /^(?:meta\.bin|[0-9a-f]+\/([tgf])\d+\.bin)$/.exec(f);
      if (!m) kinds.other.push(f);
      else if (!m[1]) kinds.meta++;
      else kinds[m[1]]++;
    }
    // Fragments come 8 documents to a file: one file per shown result at
    // most, fewer when results share one.
    const groups = kinds.f;
    assert.ok(groups >= 1 && groups <= shown, `${word}: ${groups} fragment files for ${shown} results`);
    assert.equal(new Set(fetched).size, fetched.length, `${word}: a file fetched twice: ${fetched.join(' ')}`);
    assert.deepEqual({ ...kinds, f: 0 }, { meta: 1, t: 1, g: trigramShards, f: 0, other: [] }, `${word}: fetched ${fetched.join(' ')}`);
    await page.close();
  }
});

test('search.html is a deep link, keeps filters in the URL, and says which it ignored', async () => {
  const { page } = await openPage(base + 'search.html?q=gateway&kind=topic');
  await results(page).first().waitFor();
  const metas = await page.locator('#search-results .sr-meta').allInnerTexts();
  assert.ok(metas.length > 0 && metas.every((m) => m.startsWith('Topic')), `metas: ${metas}`);
  assert.equal(await page.locator('.search-filters button[data-kind="topic"]').getAttribute('aria-pressed'), 'true');
  await page.locator('#search-input').fill('nuc-01');
  await page.waitForFunction(() => location.search.includes('q=nuc-01') && location.search.includes('kind=topic'));

  await page.goto(base + 'search.html?q=gateway&type=bogus&tier=nonsense');
  await results(page).first().waitFor();
  assert.match(await page.locator('.search-status').innerText(), /Unknown filter ignored: type=bogus, tier=nonsense/);
});

test('the search page explains itself with JavaScript off', async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(base + 'search.html?q=gateway');
  assert.match(await page.locator('main').innerText(), /needs JavaScript/);
  await ctx.close();
});

test('search works from file://', async () => {
  const { page, errors } = await openPage(fileURL(join(out, 'site', 'sources', 'daily', '2026-10-08.html')));
  await page.locator('#search-input').fill('E_AUTH_4031');
  await results(page).first().waitFor();
  assert.match(await page.locator('#search-results mark').first().innerText(), /E_AUTH_4031/);
  await page.locator('#search-input').fill('京都');
  await page.waitForFunction(() => [...document.querySelectorAll('#search-results mark')].some((m) => m.textContent.includes('京都')));
  assert.deepEqual(errors, []);
});

test('odd queries do not break anything', async () => {
  const { page, errors } = await openPage(base + 'index.html');
  const input = page.locator('#search-input');
  await input.fill('?!…—');
  await page.waitForFunction(() => /No searchable words/.test(document.querySelector('.search-status')?.textContent || ''));
  await input.fill('a.*b[(|');
  await page.waitForFunction(() => /result/.test(document.querySelector('.search-status')?.textContent || ''));
  await input.fill('gateway host nuc-01 '.repeat(520)); // about 10 KB
  await results(page).first().waitFor();
  await input.fill('');
  await page.waitForFunction(() => /Type to search/.test(document.querySelector('.search-status')?.textContent || ''));
  assert.deepEqual(errors, []);
});

test('a corrupted or missing index says search is unavailable and the page still works', async () => {
  const broken = join(out, 'broken');
  await rm(broken, { recursive: true, force: true });
  await cp(join(out, 'site'), broken, { recursive: true });
  const [id] = (await readdir(join(broken, 'search'))).filter((n) => /^[0-9a-f]+$/.test(n));
  for (const f of await readdir(join(broken, 'search', id))) {
    if (/^t\d+\.(bin|js)$/.test(f)) await writeFile(join(broken, 'search', id, f), 'garbage');
  }
  const { page, errors } = await openPage(base.replace(/site\/$/, 'broken/') + 'topics/gateway.html');
  await page.locator('#search-input').fill('gateway');
  await page.waitForFunction(() => /Search is unavailable/.test(document.querySelector('.search-status')?.textContent || ''));
  assert.match(await page.locator('article').innerText(), /Mac mini/);
  await page.locator('article a.internal').first().click();
  await page.waitForLoadState();

  await rm(join(broken, 'search', 'meta.bin'));
  await page.goto(base.replace(/site\/$/, 'broken/') + 'index.html');
  await page.locator('#search-input').fill('gateway');
  await page.waitForFunction(() => /Search is unavailable/.test(document.querySelector('.search-status')?.textContent || ''));
  assert.deepEqual(errors, []);
});

test('axe finds no serious or critical problems with results open, in both themes', async () => {
  const problems = [];
  for (const scheme of ['light', 'dark']) {
    for (const url of ['index.html', 'search.html?q=gateway&kind=topic']) {
      const { page } = await openPage(base + url, { colorScheme: scheme });
      if (url === 'index.html') await page.locator('#search-input').fill('gateway host');
      await results(page).first().waitFor();
      await page.locator('#search-input').press('ArrowDown');
      await page.addScriptTag({ content: axeSource });
      const res = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
      });
      for (const v of res) {
        if (v.impact === 'serious' || v.impact === 'critical') problems.push(`${scheme} ${url}: ${v.id} (${v.impact}) ${v.nodes.join(' | ')}`);
      }
      await page.close();
    }
  }
  assert.deepEqual(problems, []);
});
