// A team site (issue 20): from a workspace's page, the search field
// searches every workspace; each result names its workspace, and
// workspace:NAME keeps one. Links into another workspace open its page.
// Served (dreamwiki serve A B), an edit in one workspace shows on its open
// page without a reload by hand, and there is no Dream button.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { binary, fileURL, launch } from './helpers.mjs';

const workspaces = {
  'alpha/MEMORY.md': '# Memory\n\n- The alpha gateway runs on the Mac mini.\n- The beta runbook is [[beta:runbook]].\n',
  'alpha/memory/gateway.md': '# Gateway\n\nThe alpha gateway restarts at night.\n',
  'beta/MEMORY.md': '# Memory\n\n- The beta gateway is a Raspberry Pi.\n',
  'beta/memory/runbook.md': '# Runbook\n\nRestart the beta gateway with systemctl.\n',
};

let browser, site, dir;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dreamwiki-team-'));
  for (const [name, text] of Object.entries(workspaces)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  execFileSync(binary, ['build', join(dir, 'alpha'), join(dir, 'beta'), '--quiet', '--out', join(dir, 'dist')], { stdio: 'inherit' });
  site = join(dir, 'dist', 'site');
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function search(page, q) {
  await page.locator('#search-input').fill(q);
  await page.locator('#search-results li').first().waitFor();
  return page.evaluate(() => [...document.querySelectorAll('#search-results li a')].map((a) => ({
    href: a.getAttribute('href'),
    workspace: a.querySelector('.sr-workspace')?.textContent,
  })));
}

test('a workspace page searches every workspace, and workspace: keeps one', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(fileURL(join(site, 'alpha', 'index.html')));

  const all = await search(page, 'gateway');
  const found = new Set(all.map((r) => r.workspace));
  assert.deepEqual([...found].sort(), ['alpha', 'beta'], JSON.stringify(all));
  // Result links are relative to this page, into either section.
  assert.ok(all.some((r) => r.href.startsWith('../beta/')), JSON.stringify(all));

  await page.locator('#search-input').fill('');
  const beta = await search(page, 'gateway workspace:beta');
  assert.ok(beta.length > 0);
  assert.deepEqual([...new Set(beta.map((r) => r.workspace))], ['beta'], JSON.stringify(beta));
  const notBeta = await search(page, 'gateway -workspace:beta');
  assert.deepEqual([...new Set(notBeta.map((r) => r.workspace))], ['alpha'], JSON.stringify(notBeta));

  // The keyboard opens the first result's page.
  const target = notBeta[0].href;
  await page.locator('#search-input').press('ArrowDown');
  await page.locator('#search-input').press('Enter');
  await page.waitForURL((u) => u.href.endsWith(target.replace(/^(\.\.\/)+/, '')));
  assert.deepEqual(errors, []);
  await page.close();
});

test('[[beta:runbook]] opens beta\'s runbook; the team home lists both', async () => {
  const page = await browser.newPage();
  await page.goto(fileURL(join(site, 'alpha', 'index.html')));
  await page.locator('.content a', { hasText: 'beta:runbook' }).click();
  await page.waitForURL(/\/beta\/topics\/runbook\.html$/);
  assert.match(await page.locator('h1').first().innerText(), /Runbook/);
  await page.locator('a.team-home').click();
  await page.waitForURL(/\/site\/index\.html$/);
  assert.equal(await page.locator('.cards li').count(), 2);
  await page.close();
});

test('served, an edit in one workspace shows on its open page by itself; no Dream button', async () => {
  const server = spawn(binary, ['serve', join(dir, 'alpha'), join(dir, 'beta'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  try {
    const base = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the team server did not start: ' + out)), 120_000);
      server.stdout.on('data', (b) => {
        out += b;
        const m = /serving a team site of \d+ workspaces at (http:\/\/\S+?)\/?\n/.exec(out);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      });
      server.stderr.on('data', (b) => process.stderr.write(b));
      server.on('exit', (code) => reject(new Error(`the team server exited (${code}): ${out}`)));
    });
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base + '/alpha/index.html');
    await page.waitForFunction(() => document.body.dataset.serve === '1');
    await page.waitForTimeout(300); // the client says hello
    assert.equal(await page.locator('#dw-dream').count(), 0, 'a team site has nothing to dream');
    appendFileSync(join(dir, 'alpha', 'MEMORY.md'), '- The alpha backups run at 02:00, written while the page was open.\n');
    await page.waitForFunction(() => document.body.innerText.includes('written while the page was open'), null, { timeout: 60_000 });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.kill('SIGINT');
  }
});
