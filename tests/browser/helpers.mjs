// Shared set-up for the browser tests: build the demo with the binary
// scripts/test.sh compiled, and launch Debian's Chromium.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const binary = process.env.DREAMWIKI_BIN || join(here, '.bin', 'dreamwiki');

// buildDemo builds the embedded demo into a fresh folder and returns it.
export function buildDemo(extraArgs = []) {
  const out = mkdtempSync(join(tmpdir(), 'dreamwiki-browser-'));
  execFileSync(binary, ['build', '--demo', '--quiet', '--out', out, ...extraArgs], { stdio: 'inherit' });
  return out;
}

export function fileURL(path) {
  return pathToFileURL(path).href;
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--allow-file-access-from-files'],
  });
}
