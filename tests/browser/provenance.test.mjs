// Provenance a reader can see (issue 16): every remembered entry carries
// an evidence marker whose state is in words, a claim page reads top-down,
// and the same words and colours mean the same everywhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDemo, fileURL, launch } from './helpers.mjs';

let site, browser;
before(async () => { site = join(buildDemo(), 'site'); browser = await launch(); });
after(async () => { await browser?.close(); });

async function open(path, options = {}) {
  const page = await browser.newPage(options);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(fileURL(join(site, path)));
  return { page, errors };
}

const states = ['supported', 'no evidence', 'contested', 'stale', 'superseded', 'archived', 'lapsed'];

for (const path of ['index.html', 'topics/gateway.html']) {
  test(`every entry of ${path} has an evidence marker with its state in words`, async () => {
    const { page, errors } = await open(path);
    const entries = await page.locator('article .content li:has(.ev)').count();
    assert.ok(entries >= 5, `${entries} entries with markers`);
    // No bare "claim" link is left: each became a marker.
    assert.equal(await page.locator('article .content a', { hasText: /^claim$/ }).count(), 0);
    // What a screen reader reads for each marker starts with a state.
    const names = await page.locator('.ev-badge').evaluateAll((els) => els.map((e) => e.textContent.trim()));
    for (const n of names) assert.ok(states.some((s) => n.startsWith(s)), `marker reads "${n}"`);
    // One legend explains them.
    assert.equal(await page.locator('.ev-legend').count(), 1);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the index shows which entries nothing backs, and a contested one', async () => {
  const { page } = await open('index.html');
  const cello = page.locator('li', { hasText: 'learning the cello' });
  assert.match(await cello.locator('.ev-badge').innerText(), /^no evidence$/);
  assert.ok(await page.locator('.ev-contested').count() >= 1);
  // A supported entry says how much evidence it has.
  const sam = page.locator('li', { hasText: 'Staff Engineer, Platform Reliability' }).first();
  assert.match(await sam.locator('.ev-badge').innerText(), /^supported\s*, evidence:\s*1$/, 'read as "supported, evidence: 1"');
  await page.close();
});

test('focusing a marker shows the evidence excerpt, linked to its highlighted line', async () => {
  const { page, errors } = await open('topics/gateway.html');
  const marker = page.locator('li', { hasText: 'Gateway host is the Mac mini' }).first().locator('.ev');
  const pop = marker.locator('.ev-pop');
  assert.equal(await pop.isVisible(), false);
  await marker.locator('.ev-badge').focus();
  assert.equal(await pop.isVisible(), true);
  assert.match(await pop.innerText(), /mac-mini\.lan, 10\.0\.0\.12/);
  // The badge is described by the excerpts for screen readers.
  assert.equal(await marker.locator('.ev-badge').getAttribute('aria-describedby'), await pop.getAttribute('id'));
  // Following the excerpt's link lands on the highlighted log line.
  await pop.locator('a').first().click();
  await page.waitForURL(/sources\/daily\/2026-10-21\.html#/);
  const bg = await page.evaluate(() => getComputedStyle(document.getElementById(decodeURIComponent(location.hash.slice(1)))).backgroundColor);
  assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'the evidence line is highlighted');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a written Source pointer is a link to the lines it names', async () => {
  const { page } = await open('index.html');
  const ptr = page.locator('a.ev-pointer', { hasText: 'memory/2026-10-26.md#L3-L4' });
  assert.equal(await ptr.count(), 1);
  assert.match(await ptr.getAttribute('href'), /^sources\/daily\/2026-10-26\.html#/);
  await page.close();
});

test('a claim page reads top-down: title once, why, evidence, history', async () => {
  const { page, errors } = await open('claims/gateway-host-is-the-mac-mini-mac-mini-lan-10-0-0-12-since.html');
  const text = 'Gateway host is the Mac mini (mac-mini.lan, 10.0.0.12) since 2026-10-21, as the launchd service ai.openclaw.gateway.';
  assert.equal(await page.locator('article h1').innerText(), text, 'the full text is the title');
  const body = await page.locator('main').innerText();
  assert.equal(body.split('Gateway host is the Mac mini').length - 1, 1, 'the claim is said once');
  // In this order: state, why, evidence, history.
  const order = await page.evaluate(() => ['.claim-badges .ev-badge', '.claim-why', '#evidence', '.evidence', '#history', '.claim-stats']
    .map((s) => document.querySelector(s)?.getBoundingClientRect().top ?? -1));
  assert.ok(order.every((y, i) => y >= 0 && (i === 0 || y > order[i - 1])), `order ${order}`);
  assert.match(await page.locator('.claim-why').innerText(), /Why we believe this: Backed by 1 piece of evidence/);
  // The tier is in plain words, explained on focus.
  const tip = page.locator('.claim-badges .tip');
  assert.equal(await tip.locator('.badge').innerText(), 'settled');
  await tip.focus();
  assert.match(await tip.locator('.tip-text').innerText(), /Recalled 20 times or more/);
  assert.equal(await page.locator('body', { hasText: 'crystallised' }).count(), 0, 'no unexplained jargon');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a claim with no evidence is not shown as current', async () => {
  const { page } = await open('index.html');
  await page.locator('li', { hasText: 'learning the cello' }).locator('.ev-badge').click();
  await page.waitForURL(/claims\//);
  assert.equal(await page.locator('.claim-badges .ev-badge').innerText(), 'no evidence');
  assert.equal(await page.locator('.claim-badges', { hasText: 'current' }).count(), 0);
  assert.match(await page.locator('.claim-why').innerText(), /Nothing backs this/);
  await page.close();
});

const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

test('on a phone the header is one row, search sits behind an icon, and no key hints show', async () => {
  for (const path of ['index.html', 'claims/gateway-host-is-the-mac-mini-mac-mini-lan-10-0-0-12-since.html', 'dashboard.html']) {
    const { page, errors } = await open(path, phone);
    const h = await page.locator('.site-header').evaluate((e) => e.getBoundingClientRect().height);
    assert.ok(h <= 64, `${path}: header is ${h}px high`);
    assert.equal(await page.locator('.search-key').isVisible(), false, 'no "/" hint on a touch screen');
    assert.equal(await page.locator('#search-input').isVisible(), false);
    await page.locator('a.search-open').click();
    assert.equal(await page.locator('#search-input').isVisible(), true);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search-input');
    // Opening search leaves the page as it was: the content keeps its width.
    const main = await page.locator('main').evaluate((e) => e.getBoundingClientRect().width);
    assert.ok(main > 300, `${path}: the content is ${main}px wide with search open`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('with JavaScript off no control that needs it shows, and a phone still reaches every folder', async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false, ...phone });
  const page = await ctx.newPage();
  for (const path of ['index.html', 'topics/gateway.html']) {
    await page.goto(fileURL(join(site, path)));
    for (const sel of ['#nav-toggle', '#theme-toggle', '.local-graph']) {
      assert.equal(await page.locator(sel).isVisible(), false, `${path}: ${sel} is hidden`);
    }
    assert.equal(await page.locator('#left').isVisible(), true, `${path}: the explorer is reachable`);
    const folders = await page.locator('nav.explorer :is(a.folder, summary)').evaluateAll((els) => els.filter((e) => e.offsetParent).length);
    assert.ok(folders >= 9, `${path}: ${folders} folders visible`);
  }
  // The search icon is a link to the search page.
  await page.locator('a.search-open').click();
  await page.waitForURL(/search\.html$/);
  assert.equal(await page.locator('#search-input').isVisible(), true);
  await ctx.close();
});

// searchFor opens search.html?q=... and returns the results' kind badges and titles.
async function searchFor(q, options = {}) {
  const { page, errors } = await open('search.html', options);
  await page.goto(fileURL(join(site, 'search.html')) + '?q=' + encodeURIComponent(q));
  await page.waitForFunction(() => /result|No results|Nothing has/.test(document.querySelector('.search-status')?.textContent || ''));
  const rows = await page.locator('.search-results li').evaluateAll((els) => els.map((li) => ({
    title: li.querySelector('.sr-title').textContent, kind: li.querySelector('.sr-badge').textContent })));
  return { page, errors, rows };
}

test('the browser parses queries exactly as `dreamwiki search` does (shared vectors)', async () => {
  const vectors = JSON.parse(readFileSync(new URL('../../testdata/query-syntax.json', import.meta.url), 'utf8'));
  const { page } = await open('search.html');
  await page.waitForFunction(() => window.dreamwikiSearch?.parse);
  const got = await page.evaluate((qs) => qs.map((q) => window.dreamwikiSearch.parse(q)), vectors.map((v) => v.q));
  vectors.forEach((v, i) => {
    const want = {
      words: (v.words || []).map((w) => ({ text: w.text, phrase: !!w.phrase, must: !!w.must, not: !!w.not })),
      filters: (v.filters || []).map((f) => ({ field: f.field, value: f.value, not: !!f.not })),
    };
    assert.deepEqual(got[i], want, `parse(${JSON.stringify(v.q)})`);
  });
  await page.close();
});

test('kind:conversation glacier returns only archived conversations, by name or label', async () => {
  for (const q of ['kind:conversation glacier', 'kind:Conversation glacier']) {
    const { page, errors, rows } = await searchFor(q);
    assert.ok(rows.length >= 2, `${q}: ${rows.length} results`);
    assert.deepEqual([...new Set(rows.map((r) => r.kind))], ['Conversation'], q);
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, rows } = await searchFor('glacier -kind:conversation');
  assert.ok(!rows.some((r) => r.kind === 'Conversation'), 'an excluded kind is left out');
  await page.close();
});

test('type:claim gateway returns only claims, and filters take one row', async () => {
  const { page, errors, rows } = await searchFor('type:claim gateway');
  assert.ok(rows.length >= 5, `${rows.length} results`);
  assert.deepEqual([...new Set(rows.map((r) => r.kind))], ['Claim']);
  // Each claim shows its evidence marker.
  const marks = await page.locator('.search-results .ev-badge').allInnerTexts();
  assert.equal(marks.length, rows.length);
  for (const m of marks) assert.ok(states.includes(m.trim()), `marker "${m}"`);
  const bar = await page.locator('.search-filters').evaluate((e) => e.getBoundingClientRect().height);
  assert.ok(bar < 40, `the filter row is ${bar}px high`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a dashboard bar opens the search for what it counts: kind:"Daily log", a tier of claims', async () => {
  const { page, errors } = await open('dashboard.html');
  const daily = page.locator('#c-kind-t').locator('xpath=..').getByRole('link', { name: /^Daily log: \d+$/ });
  await daily.click();
  await page.waitForFunction(() => /result|notes? ha|Nothing has/.test(document.querySelector('.search-status')?.textContent || ''));
  assert.equal(await page.locator('#search-input').inputValue(), 'kind:"Daily log"');
  const kindOf = (sel) => page.locator(sel).evaluateAll((els) => els.map((li) => li.querySelector('.sr-badge').textContent));
  const kinds = await kindOf('.search-results li');
  assert.ok(kinds.length >= 5, `${kinds.length} results`);
  assert.deepEqual([...new Set(kinds)], ['Daily log']);
  // It says how many there are, and shows the freshest first.
  assert.match(await page.locator('.search-status').innerText(), /^\d+ notes have kind:"Daily log"; the \d+ freshest are shown\.$/);
  await page.goBack();
  const cold = page.getByRole('link', { name: /^cold: \d+$/ });
  await cold.click();
  await page.waitForFunction(() => /result|notes? ha|Nothing has/.test(document.querySelector('.search-status')?.textContent || ''));
  const claims = await kindOf('.search-results li');
  assert.ok(claims.length >= 5, `${claims.length} cold claims`);
  assert.deepEqual([...new Set(claims)], ['Claim']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('exact matches come first, and -word, phrases, tag: and path: filter', async () => {
  let r = await searchFor('gateway host');
  assert.match(r.rows[0].title, /^Gateway host is/);
  assert.match(r.rows[1].title, /^Gateway host is/);
  await r.page.close();
  r = await searchFor('"gateway host" -nuc');
  assert.ok(r.rows.length > 0);
  assert.ok(r.rows.every((x) => !/nuc/i.test(x.title)), 'nothing about nuc');
  await r.page.close();
  r = await searchFor('path:memory/2026-10 gateway');
  assert.ok(r.rows.length > 0 && r.rows.every((x) => x.kind === 'Daily log' && /2026-10/.test(x.title)), JSON.stringify(r.rows));
  await r.page.close();
  r = await searchFor('tag:reliability friday');
  assert.ok(r.rows.length > 0 && r.rows.length < 10, JSON.stringify(r.rows));
  await r.page.close();
  r = await searchFor('type:nonsense gateway');
  assert.equal(r.rows.length, 0);
  assert.match(await r.page.locator('.search-status').innerText(), /Nothing has type:nonsense/);
  await r.page.close();
});

test('dashboard charts are legible and the budget is one number in the unit that governs', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page, errors } = await open('dashboard.html', { viewport });
    const sizes = await page.locator('svg.chart text').evaluateAll((els) => els
      .filter((e) => e.getBoundingClientRect().width > 0)
      .map((e) => parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a));
    assert.ok(sizes.length > 20);
    const small = sizes.filter((s) => s < 12);
    assert.deepEqual(small, [], `${viewport.width}px: labels under 12 px`);
    assert.match(await page.locator('#g-budget-t').textContent(), /: 95 of 200 lines$/);
    assert.match(await page.locator('section[aria-labelledby=p-budget]').innerText(), /lines limit .* closest to being reached/);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the graph names its hubs, names more notes as it zooms in, and finds a note by name', async () => {
  const { page, errors } = await open('graph.html', { viewport: { width: 1280, height: 800 } });
  await page.waitForFunction(() => window.dreamwikiGraphViews?.[0]?.settled(), null, { timeout: 20000 });
  const names = () => page.evaluate(() => window.dreamwikiGraphViews[0].labelled.slice());
  const atFit = await names();
  assert.ok(atFit.length >= 3, `${atFit.length} hub labels at the fitted zoom`);
  // The legend is in view with the graph.
  const legend = await page.locator('.graph-legend').evaluate((e) => e.getBoundingClientRect().bottom);
  assert.ok(legend < 800, `legend ends at ${legend}px`);
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.waitForTimeout(300);
  const zoomed = await names();
  assert.ok(zoomed.length > atFit.length, `${zoomed.length} labels zoomed in, ${atFit.length} before`);
  // Find a note: the view goes to it and names it.
  await page.getByRole('searchbox', { name: 'Find a note in the graph' }).fill('Gateway');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  const named = await page.evaluate(() => window.dreamwikiGraphViews[0].labelled.map((i) => window.dreamwikiGraphViews[0].graphTitle(i)));
  assert.ok(named.includes('Gateway'), `labels: ${named.slice(0, 5)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('small things: a favicon, no empty "Notes" heading on reports, no repeated breadcrumb', async () => {
  const { page, errors } = await open('reports/lint.html');
  assert.equal(await page.locator('link[rel=icon]').getAttribute('href'), '../favicon.svg');
  assert.match(readFileSync(join(site, 'favicon.svg'), 'utf8'), /^<svg /);
  assert.equal(await page.locator('article h2', { hasText: /^Notes$/ }).count(), 0);
  await page.goto(fileURL(join(site, 'reports', 'index.html')));
  const crumbs = await page.locator('nav.breadcrumbs li').allInnerTexts();
  assert.deepEqual(crumbs, ['Home', 'Reports']);
  assert.deepEqual(errors, []);
  await page.close();
});
