// A clean install stays clean: npm writes back the lockfile as committed,
// and no dependency's install script waits for approval (npm prints a
// warning for each on every fresh `npm install`). esbuild's postinstall
// only checks and links the binary its optional @esbuild/<platform>
// package already holds, so package.json denies it (allowScripts) and the
// build runs without it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { root } from '../support/helpers.mjs';

const npm = (args, cwd) => spawnSync('npm', args, { cwd, encoding: 'utf8' });

test('npm writes back the committed package-lock.json byte for byte', () => {
  const work = mkdtempSync(join(tmpdir(), 'mm-lock-'));
  try {
    for (const name of ['package.json', 'package-lock.json']) copyFileSync(join(root, name), join(work, name));
    const run = npm(['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], work);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(join(work, 'package-lock.json'), 'utf8'), readFileSync(join(root, 'package-lock.json'), 'utf8'));
    assert.doesNotMatch(run.stderr, /npm warn/i);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('no dependency\'s install script is left unreviewed', () => {
  const run = npm(['install-scripts', 'ls'], root);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^No packages with unreviewed install scripts/);
});
