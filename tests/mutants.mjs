// Mutants of real dumps (tests/oracle/mutate.py) read by the core and by
// CPython (tests/oracle/lifetimes.py): the same verdict (a syntax error on
// the same line, or valid) and, for valid ones, every box's lifetime as
// the model's rules give it from Python's own ast. Used by
// tests/mutants.test.mjs (a fixed set) and `npm run mutants -- SEED COUNT`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { corpus, root } from './helpers.mjs';

const SOURCES = ['vector_division', 'gather_state_window', 'norm_rope', 'pa3__12_after_AllocateMemoryAddr', 'diagnose_indexer_weights']
  .map((name) => join(corpus, 'real', `${name}.py`));
const READERS = [['fast path', join(root, 'build', 'native', 'memory-map')], ['general parser', join(root, 'build', 'general', 'memory-map')]];

/** Writes `count` mutants made with `seed`; their paths. */
export function makeMutants(seed, count) {
  const dir = mkdtempSync(join(tmpdir(), 'mm-mutants-'));
  const made = spawnSync('python3', [join(root, 'tests', 'oracle', 'mutate.py'), String(seed), String(count), dir, ...SOURCES], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  return readdirSync(dir).sort().map((name) => join(dir, name));
}

const SYNTAX = /^error: [^\n]*?:(\d+): /;

/** How the core and CPython disagree on the mutants at `paths`: a list of
 * differences (CPython's side read in one process). */
export function differences(paths) {
  const runs = paths.map((path) => READERS.map(([reader, cli]) => {
    const ours = spawnSync(cli, [path, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return { reader, ours, model: ours.status === 0 ? JSON.parse(ours.stdout) : null };
  }));
  const read = spawnSync('python3', [join(root, 'tests', 'oracle', 'lifetimes.py'), '--batch'], {
    input: JSON.stringify(paths.map((path, i) => ({ path, model: runs[i][0].model }))), encoding: 'utf8', maxBuffer: 1 << 28,
  });
  if (read.status !== 0) throw new Error(read.stderr);
  const oracles = JSON.parse(read.stdout);
  return paths.flatMap((path, i) => runs[i].flatMap(({ reader, ours, model }) => compare(`${path.split('/').pop()} (${reader})`, ours, model, oracles[i])));
}

function compare(where, ours, model, oracle) {
  const found = [];
  if (oracle.syntax) {
    const line = SYNTAX.exec(ours.stderr)?.[1];
    if (model) found.push(`${where}: CPython refuses it on line ${oracle.syntax.line} (${oracle.syntax.message}); the core reads it`);
    else if (Number(line) !== oracle.syntax.line) found.push(`${where}: CPython line ${oracle.syntax.line} (${oracle.syntax.message}); ours ${ours.stderr.trim()}`);
  } else if (oracle.invalid) {
    if (model) found.push(`${where}: CPython refuses it (${oracle.invalid}); the core reads it`);
  } else if (!model) {
    // Valid Python the core refuses for what it is (no tiles, a NFKC-unstable name): no syntax error.
    if (/invalid syntax|never closed|indent|unterminated|unmatched|invalid character/.test(ours.stderr)) found.push(`${where}: valid Python; ours ${ours.stderr.trim()}`);
  } else {
    model.functions.forEach((fn, f) => fn.boxes.forEach((box, b) => {
      const expected = oracle.functions[f]?.boxes[b];
      if (!expected || box.start !== expected[0] || box.end !== expected[1])
        found.push(`${where}: ${fn.name} ${box.name} lives ${box.start}-${box.end}, by Python's ast ${expected?.join('-')}`);
    }));
  }
  return found;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [seed = '1', count = '10000'] = process.argv.slice(2);
  const paths = makeMutants(Number(seed), Number(count));
  let bad = 0;
  for (let i = 0; i < paths.length; i += 500) {
    const found = differences(paths.slice(i, i + 500));
    bad += found.length;
    if (found.length) console.log(found.join('\n'));
  }
  console.log(`${bad} differences in ${paths.length} mutants (seed ${seed}), each read through the fast path and the general parser`);
  process.exitCode = bad ? 1 : 0;
}
