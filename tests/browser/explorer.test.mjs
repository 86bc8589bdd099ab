// The explorer on a generated 1,000-note workspace (issue #24, point 2):
// each page's HTML holds only the branch that leads to it, which works
// without JavaScript and always lists the page itself; with JavaScript any
// folder opens from the tree script the build writes once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binary, fileURL, launch } from './helpers.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const shots = process.env.DREAMWIKI_SHOTS || '';
let browser, site, oldest;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dreamwiki-explorer-'));
  execFileSync('go', ['run', './bench/gen', '-n', '1000', '-out', join(dir, 'ws')], { cwd: repo, stdio: 'inherit' });
  execFileSync(binary, ['build', join(dir, 'ws'), '--quiet', '--out', join(dir, 'out')], { stdio: 'inherit' });
  site = join(dir, 'out', 'site');
  // The oldest daily log: far past the 20 newest the explorer lists.
  oldest = readdirSync(join(site, 'sources', 'daily')).filter((f) => f.endsWith('.html') && f !== 'index.html').sort()[0];
  browser = await launch();
});
after(async () => { await browser?.close(); });

const url = () => fileURL(join(site, 'sources', 'daily', oldest));

test('without JavaScript the explorer shows the page\'s branch, with the page in it', async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1366, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(url());
  const explorer = page.locator('.explorer');
  for (const folder of ['sources', 'sources/daily']) {
    assert.equal(await explorer.locator(`details[data-folder="${folder}"]`).getAttribute('open'), '', `${folder} is open`);
  }
  const here = explorer.locator('a[aria-current="page"]');
  assert.equal(await here.count(), 1);
  assert.equal(await here.getAttribute('href'), oldest);
  assert.ok(await here.isVisible(), 'the current page is visible in the explorer');
  // Other top-level folders are closed links to their pages: none of
  // their notes is in the HTML.
  const notes = explorer.locator('a.folder[href="../../notes/index.html"]');
  assert.ok(await notes.isVisible());
  assert.equal(await explorer.locator('a[href*="notes/people/"]').count(), 0);
  if (shots) await page.screenshot({ path: join(shots, 'explorer-nojs-1366.png') });
  await ctx.close();
});

test('with JavaScript any folder opens from the tree script', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url());
  const explorer = page.locator('.explorer');
  // A folder off the branch opens in place, with its folders and notes;
  // its name still links its page.
  const notes = explorer.locator('li[data-folder="notes"]');
  assert.equal(await notes.locator('> a.folder').getAttribute('href'), '../../notes/index.html');
  await notes.locator('> button.twist').click();
  assert.equal(await notes.locator('> button.twist').getAttribute('aria-expanded'), 'true');
  const people = notes.locator('li[data-folder="notes/people"]');
  await people.waitFor();
  await people.locator('> button.twist').click();
  await people.locator('> ul a[href$=".html"]').first().waitFor();
  assert.ok(await people.locator('> ul > li').count() >= 50, 'notes/people lists its notes');
  assert.match(await people.locator('> ul a').first().evaluate((a) => a.href), /notes\/people\/[^/]+\.html$/);
  // The rest of a long list is a click away, the page itself still marked once.
  const daily = explorer.locator('details[data-folder="sources/daily"] > ul');
  await daily.locator('a.more').click();
  await page.waitForFunction(() => document.querySelectorAll('details[data-folder="sources/daily"] > ul > li').length >= 500);
  assert.equal(await daily.locator('a.more').count(), 0);
  assert.equal(await explorer.locator('a[aria-current="page"]').count(), 1);
  const links = await daily.locator('> li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.equal(new Set(links).size, links.length, 'no note listed twice');
  // The top level's other folders, the same way.
  await explorer.locator('> ul > li[data-folder="claims"] > button.twist').click();
  await explorer.locator('li[data-folder="claims"] > ul a').first().waitFor();
  if (shots) await page.screenshot({ path: join(shots, 'explorer-js-1366.png') });

  await page.addScriptTag({ content: axeSource });
  const problems = await page.evaluate(async () => {
    const r = await window.axe.run(document.querySelector('.explorer'), { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('on a phone the menu opens the same branch', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  await page.goto(url());
  await page.locator('#nav-toggle').click();
  const here = page.locator('.explorer a[aria-current="page"]');
  await here.scrollIntoViewIfNeeded();
  assert.ok(await here.isVisible());
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  if (shots) await page.screenshot({ path: join(shots, 'explorer-js-390.png') });
  await ctx.close();
});
