// The demo site opens from file://, its links work, and it reads without JavaScript.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildDemo, fileURL, launch } from './helpers.mjs';

let out, browser;
before(async () => { out = buildDemo(); browser = await launch(); });
after(async () => { await browser?.close(); });

test('home page shows the demo memory and three links can be followed', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(fileURL(join(out, 'site', 'index.html')));
  assert.match(await page.title(), /Juniper/);
  assert.match(await page.locator('article .content').innerText(), /Sam Okafor/);

  // 1: from the memory index to an L2 topic by its wikilink.
  await page.locator('article .content a.internal[href="topics/people.html"]').first().click();
  await page.waitForURL(/topics\/people\.html$/);
  assert.equal(await page.locator('article h1').first().innerText(), 'People');
  assert.equal(await page.locator('article h1').count(), 1, 'one h1 per page');

  // 2: back home through the breadcrumbs.
  await page.locator('nav.breadcrumbs a', { hasText: 'Home' }).click();
  await page.waitForURL(/site\/index\.html$/);

  // 3: from the memory index to another topic.
  await page.locator('article .content a.internal[href="topics/homelab.html"]').first().click();
  await page.waitForURL(/topics\/homelab\.html$/);
  assert.match(await page.locator('article .content').innerText(), /nuc-01|Mac mini/);
  await page.goBack();

  // 4: the explorer opens a folder listing.
  await page.locator('nav.explorer a.folder', { hasText: 'Topics' }).click();
  await page.waitForURL(/index\.html$/);
  assert.ok((await page.locator('ul.note-list li').count()) >= 8);
  assert.deepEqual(errors, []);
});

test('dark mode can be toggled and is remembered', async () => {
  const page = await browser.newPage({ colorScheme: 'light' });
  await page.goto(fileURL(join(out, 'site', 'index.html')));
  const toggle = page.locator('#theme-toggle');
  await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(bg, 'rgb(253, 253, 252)');
});

test('pages read with JavaScript off', async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(fileURL(join(out, 'site', 'topics', 'gateway.html')));
  assert.match(await page.locator('article .content').innerText(), /Mac mini/);
  // The callout in the reading list folds with <details>, no script needed.
  await page.goto(fileURL(join(out, 'site', 'notes', 'reading-list.html')));
  assert.ok((await page.locator('.callout').count()) > 0);
  await ctx.close();
});
