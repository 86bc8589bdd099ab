// The site under a sub-path, as GitHub Pages serves a project site
// (https://you.github.io/repo/): built with --base-url, every page, asset,
// link and search request stays under the sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, extname, normalize } from 'node:path';
import { buildDemo, launch } from './helpers.mjs';

const prefix = '/team/memory/';
let browser, server, base, root;

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.md': 'text/markdown',
};

before(async () => {
  // The port must be known before the build: the base URL holds it.
  server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404);
      res.end('outside the sub-path');
      return;
    }
    let path = normalize(decodeURIComponent(url.pathname.slice(prefix.length))).replace(/^(\.\.[/\\])+/, '');
    if (path === '.' || path.endsWith('/')) path = join(path, 'index.html');
    try {
      const body = await readFile(join(root, path));
      res.writeHead(200, { 'content-type': types[extname(path)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}${prefix}`;
  root = join(buildDemo(['--base-url', base]), 'site');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('pages, assets, links and search all stay under the sub-path', async () => {
  const page = await browser.newPage();
  const failed = [];
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  // A request the next navigation cancels (the favicon of a page left at
  // once) is aborted, not unanswered; a missing file is a 404 above.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`failed ${r.url()}: ${r.failure()?.errorText}`);
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(base);
  assert.match(await page.title(), /\S/);
  // Follow the first claim link, then back through the header's home link.
  const claim = page.locator('a[href*="claims/"]').first();
  await claim.click();
  await page.waitForLoadState('load');
  assert.ok(page.url().startsWith(base + 'claims/'), `the claim page is under the sub-path: ${page.url()}`);
  await page.locator('#search-input').fill('gateway host');
  await page.locator('#search-results li').first().waitFor();
  const href = await page.locator('#search-results li a').first().getAttribute('href');
  assert.ok(new URL(href, page.url()).href.startsWith(base), `a search result links under the sub-path: ${href}`);
  await page.goto(base + 'graph.html');
  await page.goto(base + 'dashboard.html');
  assert.deepEqual(failed, [], 'every request was answered');
  assert.deepEqual(errors, [], 'no script error');
  await page.close();
});
