// Memory over time in Chromium: the time slider on the home page
// (MEMORY.md) and the dashboard steps back through the dreams and shows
// the index and the charts as they stood then; it works from the
// keyboard, its data loads only when it is first touched, and with
// JavaScript off the dated snapshot pages are plain links. axe finds no
// problem on the pages of the history.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildDemo, fileURL, launch } from './helpers.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const shots = process.env.DREAMWIKI_SHOTS || '';

let site, browser;
before(async () => {
  site = join(buildDemo(), 'site');
  browser = await launch();
});
after(async () => { await browser?.close(); });

async function open(path, options = {}) {
  const page = await browser.newPage(options);
  const errors = [];
  const fetched = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => fetched.push(r.url()));
  await page.goto(fileURL(join(site, path)));
  return { page, errors, fetched };
}

test('the slider shows MEMORY.md as it stood at an earlier dream', async () => {
  const { page, errors, fetched } = await open('index.html');
  const slider = page.getByLabel('Show memory as of');
  assert.equal(await slider.isVisible(), true);
  assert.equal(await slider.getAttribute('aria-valuetext'), 'Now');
  const content = page.locator('article > .content');
  // The 30 October dream promoted the quiet hours: they are in MEMORY.md
  // now, and were not before it.
  assert.match(await content.innerText(), /quiet hours/);
  assert.ok(!fetched.some((u) => u.includes('history/')), 'nothing of the history loads before the slider is touched');

  await slider.focus();
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('.time-slider')?.dataset.at === '2026-09-22');
  assert.match(await slider.getAttribute('aria-valuetext'), /^Dream 2026-09-22 07:00: \d+ claims, health \d+$/);
  assert.match(await page.locator('#ts-status').innerText(), /Dream 2026-09-22/);
  assert.doesNotMatch(await content.innerText(), /quiet hours/);
  assert.ok(fetched.some((u) => u.endsWith('history/index.json')), 'the slider fetched its data');
  // Links in the earlier index still lead to pages of the site.
  for (const href of await content.locator('a[href]').evaluateAll((as) => as.map((a) => a.href))) {
    assert.ok(!href.includes('/history/'), `${href} points into the snapshot folder`);
  }
  if (shots) await page.screenshot({ path: join(shots, 'slider-home-earliest.png') });

  // Step forward with the arrow keys to the 30 October dream, then back
  // to now.
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('.time-slider')?.dataset.at === '2026-10-30');
  assert.match(await content.innerText(), /quiet hours/);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#ts-status')?.textContent === 'Now');
  assert.match(await content.innerText(), /quiet hours/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the dashboard slider swaps the charts for those of the point', async () => {
  const { page, errors } = await open('dashboard.html');
  const slider = page.getByLabel('Show memory as of');
  await slider.focus();
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('.time-slider')?.dataset.at === '2026-09-22');
  const board = page.locator('article > .dashboard');
  assert.equal(await board.locator('#s-c-tier-t').count(), 1, 'the tier chart as it stood then');
  assert.equal(await board.locator('#c-tier-t').count(), 0);
  if (shots) await page.screenshot({ path: join(shots, 'slider-dashboard-earliest.png'), fullPage: false });
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#ts-status')?.textContent === 'Now');
  assert.equal(await board.locator('#c-tier-t').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('with JavaScript off the snapshot pages are plain links', async () => {
  const { page } = await open('index.html', { javaScriptEnabled: false });
  assert.equal(await page.locator('.ts-control').isVisible(), false, 'no slider that cannot work');
  await page.locator('.ts-links summary').click();
  const link = page.getByRole('link', { name: 'Dream 2026-10-30 07:00' });
  await link.click();
  await page.waitForURL(/history\/2026-10-30-0700\/memory\.html$/);
  assert.match(await page.locator('article h1').first().innerText(), /MEMORY\.md as of Dream 2026-10-30 07:00/);
  assert.match(await page.locator('#as-of-index').innerText(), /quiet hours/);
  await page.getByRole('link', { name: 'What this dream changed' }).click();
  await page.waitForURL(/dreams\/2026-10-30-0700\.html$/);
  assert.match(await page.locator('.dream-diff').innerText(), /added/);
  if (shots) await page.screenshot({ path: join(shots, 'dream-page.png'), fullPage: true });
  await page.close();
});

test('axe finds no problems on the pages of the history, in light and dark', async () => {
  const pages = ['index.html', 'dashboard.html', 'changes.html', 'history/2026-10-30-0700/memory.html', 'dreams/2026-10-30-0700.html'];
  const problems = [];
  for (const scheme of ['light', 'dark']) {
    for (const p of pages) {
      const { page } = await open(p, { colorScheme: scheme });
      if (p === 'index.html') {
        // With an earlier index in place.
        await page.getByLabel('Show memory as of').focus();
        await page.keyboard.press('Home');
        await page.waitForFunction(() => document.querySelector('.time-slider')?.dataset.at === '2026-09-22');
      }
      await page.addScriptTag({ content: axeSource });
      const res = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\n').slice(0, 2).join(' ')) }));
      });
      for (const v of res) problems.push(`${scheme} ${p}: ${v.id} (${v.impact}) ${v.nodes.join(' | ')}`);
      await page.close();
    }
  }
  assert.deepEqual(problems, []);
});
