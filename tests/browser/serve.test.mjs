// dreamwiki serve in Chromium: a page shows an edit to its file without a
// manual reload (keeping its scroll position), a broken file shows an
// overlay until it is fixed, and the Dream button plans, applies and links
// the new dream, which the dream journal then shows. Ctrl-C stops the
// server cleanly.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { binary, launch } from './helpers.mjs';

let server, base, dir, browser;
let stdout = '';

// startServer runs `dreamwiki serve --demo --port 0` and waits for the
// line that names the folder and the address.
function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(binary, ['serve', '--demo', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => reject(new Error('the server did not start: ' + stdout)), 120_000);
    p.stdout.on('data', (b) => {
      stdout += b;
      const m = /serving (\S+) at (http:\/\/\S+?)\/?\n/.exec(stdout);
      if (m && !base) {
        clearTimeout(timer);
        dir = m[1];
        base = m[2];
        resolve(p);
      }
    });
    p.stderr.on('data', (b) => process.stderr.write(b));
    p.on('exit', (code) => { if (!base) reject(new Error(`the server exited (${code}): ${stdout}`)); });
  });
}

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) server.kill('SIGKILL');
});

async function open(path) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + '/' + path);
  // The client connects at once; give it a moment to say hello.
  await page.waitForFunction(() => document.body.dataset.serve === '1');
  await page.waitForTimeout(300);
  return { page, errors };
}

function edit(path, change) {
  const file = join(dir, path);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

test('an edit to a note shows on its open page without a reload by hand, at the same scroll position', async () => {
  const { page, errors } = await open('notes/reading-list.html');
  await page.setViewportSize({ width: 900, height: 400 });
  await page.evaluate(() => window.scrollTo(0, 300));
  const y = await page.evaluate(() => window.scrollY);
  assert.ok(y > 100, 'the page scrolls');
  edit('notes/reading-list.md', (s) => s.replace('## Now\n', '## Now\n- *The Dispossessed* — Ursula K. Le Guin. Added while the page was open.\n'));
  await page.waitForFunction(() => document.body.innerText.includes('Added while the page was open'), null, { timeout: 15_000 });
  await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 40, y, { timeout: 5_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a page not touched by an edit does not reload', async () => {
  const { page } = await open('topics/gateway.html');
  await page.evaluate(() => { window.__stayed = true; });
  edit('notes/gift-ideas.md', (s) => s + '\n- A second brush pen.\n');
  await page.waitForTimeout(2_000);
  assert.equal(await page.evaluate(() => window.__stayed), true, 'the page was reloaded');
  await page.close();
});

test('broken front matter shows an overlay naming the file and line, and the fix clears it', async () => {
  const { page } = await open('notes/reading-list.html');
  const before = readFileSync(join(dir, 'notes/reading-list.md'), 'utf8');
  edit('notes/reading-list.md', (s) => s.replace('tags: [reading]', 'tags: [reading'));
  const overlay = page.locator('.dw-overlay');
  await overlay.waitFor({ timeout: 15_000 });
  assert.match(await overlay.innerText(), /notes\/reading-list\.md:\d+/);
  writeFileSync(join(dir, 'notes/reading-list.md'), before);
  await overlay.waitFor({ state: 'detached', timeout: 15_000 });
  await page.close();
});

test('the Dream button plans a dream, applies it and links the new dream, which the journal shows', async () => {
  const { page, errors } = await open('index.html');
  await page.locator('#dw-dream').click();
  const panel = page.locator('dialog.dw-panel');
  await panel.waitFor();
  await panel.locator('.dw-gates').waitFor({ timeout: 60_000 });
  // The demo's last dream may be recent: plan past the gates if they hold.
  const force = panel.locator('button.dw-force');
  if (await force.count()) {
    await force.click();
    await panel.locator('.dw-gates').waitFor({ timeout: 60_000 });
  }
  assert.match(await panel.locator('.dw-summary').first().innerText(), /\S/);
  assert.ok(await panel.locator('details.dw-file').count() > 0, 'the plan shows the files it changes');
  assert.match(await panel.locator('details.dw-file pre.dw-diff').first().textContent(), /^(---|\+\+\+|@@)/m);
  // Nothing passes the demo's gates: what the dream found is proposed,
  // and only what a person ticks is written (#23 rule 1c).
  const proposals = panel.locator('.dw-proposals input[type=checkbox]');
  assert.ok(await proposals.count() > 0, 'the plan lists its proposals to choose from');
  assert.equal(await panel.locator('.dw-groups').count(), 0, 'nothing is written unchosen');
  await proposals.first().check();
  // Diffs are coloured; Apply is in view without scrolling, even with
  // every file's diff open.
  assert.ok(await panel.locator('pre.dw-diff .dw-add').count() > 0, 'added lines are marked');
  await panel.locator('details.dw-file').evaluateAll((ds) => ds.forEach((d) => { d.open = true; }));
  const box = await panel.locator('button.dw-apply').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 800, `Apply at ${JSON.stringify(box)}`);
  const planned = ['Promoted: 1'];
  await panel.locator('button.dw-apply').click();
  const note = panel.locator('a.dw-note').first();
  await panel.locator('a.dw-journal, .dw-error').first().waitFor({ timeout: 120_000 });
  assert.equal(await panel.locator('.dw-error').count(), 0, await panel.innerText());
  await note.waitFor({ timeout: 5_000 });
  assert.ok((await panel.locator('.dw-log li').count()) > 0, 'progress was shown');
  // Afterwards the panel lists what changed, with links to where it went.
  assert.deepEqual(await panel.locator('.dw-changed h4').allInnerTexts(), planned.map((t) => t.replace(/: (\d+)$/, ' ($1)')));
  assert.ok(await panel.locator('.dw-changed li a').count() > 0, 'changes link to their pages');
  const title = await note.innerText();
  await note.click();
  await page.waitForLoadState();
  assert.match(await page.locator('h1').first().innerText(), new RegExp(title.slice(0, 10).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // A second press while nothing runs plans again; the journal shows the dream.
  await page.goto(base + '/dreams/journal.html');
  const today = new Date().toISOString().slice(0, 10);
  assert.match(await page.locator('main').innerText(), new RegExp(today));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Ctrl-C stops the server cleanly', async () => {
  // A server that does not stop is a failure, not a test run that never ends.
  const code = await new Promise((resolve) => {
    const timer = setTimeout(() => { server.kill('SIGKILL'); resolve('still running 20 s after SIGINT'); }, 20_000);
    server.on('exit', (c) => { clearTimeout(timer); resolve(c); });
    server.kill('SIGINT');
  });
  assert.equal(code, 0, stdout);
  assert.match(stdout, /dreamwiki: stopped/);
  rmSync(dir, { recursive: true, force: true });
});
