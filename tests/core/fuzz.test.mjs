// libFuzzer on the core (clang, ASan + UBSan): a fixed number of runs on a
// fixed seed inside npm test (npm run fuzz runs longer), and every
// regression input in tests/fixtures/fuzz/ replayed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { corpus, root } from '../support/helpers.mjs';

const fuzzer = join(root, 'build', 'asan', 'fuzz_model');
const regressions = join(root, 'tests', 'fixtures', 'fuzz');

const clean = (result) => {
  const output = `${result.stdout}${result.stderr}`;
  assert.equal(result.status, 0, output.slice(-2000));
  assert.doesNotMatch(output, /ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY:/);
  return output;
};

test('every regression input runs clean', () => {
  const inputs = readdirSync(regressions).filter((f) => f.endsWith('.bin')).map((f) => join(regressions, f));
  assert.ok(inputs.length > 0);
  clean(spawnSync(fuzzer, inputs, { encoding: 'utf8' }));
});

// A fixed seed and a fixed number of runs: the same inputs on every run
// (npm run fuzz runs for as long as it is given).
const RUNS = 6000;

test(`${RUNS} fuzzing runs on a fixed seed find nothing`, { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'mm-fuzz-'));
  const seeds = join(work, 'seeds');
  mkdirSync(join(work, 'found'));
  cpSync(join(corpus, 'generated'), seeds, { recursive: true, filter: (p) => !p.endsWith('.json') });
  cpSync(regressions, seeds, { recursive: true, filter: (p) => !p.endsWith('.md') });
  cpSync(join(root, 'tests', 'fixtures', 'pypto-e2d0f78'), seeds, { recursive: true, filter: (p) => !p.endsWith('.md') });
  const result = spawnSync(fuzzer, ['-seed=1', `-runs=${RUNS}`, '-max_len=16384', '-timeout=10', '-rss_limit_mb=2048',
    `-dict=${join(root, 'tests', 'fuzz', 'python.dict')}`, `-artifact_prefix=${work}/`, '-print_final_stats=1', join(work, 'found'), seeds],
  { encoding: 'utf8', cwd: work, env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1' } });
  const output = clean(result);
  const runs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(output)?.[1] ?? 0);
  assert.ok(runs >= RUNS, `only ${runs} executions`);
});
