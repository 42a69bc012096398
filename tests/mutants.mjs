// Mutants of real dumps (tests/oracle/mutate.py) read by the core and by
// an oracle written from docs/model.md alone on CPython's own ast
// (tests/oracle/model.py): the same verdict (a syntax error on the same
// line, the same refusal, or valid) and, for valid ones, the same model on
// every key the spec defines: functions, spaces, every box. Used by
// tests/mutants.test.mjs (a fixed set) and `npm run mutants -- SEED COUNT`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { contract, corpus, root } from './helpers.mjs';

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
// The refusals the core names in its message, by the oracle's kind.
const REFUSED = {
  no_tiles: /no compute function/, unallocated: /AllocateMemoryAddr/, limit: /normalises names|beyond 2\^53|are not supported|largest accepted/,
  encoding: /./, invalid: /./,
};

/** Each reader's run of the CLI on each of `paths`. */
function readAll(paths, readers) {
  return paths.map((path) => readers.map(([reader, cli]) => {
    const ours = spawnSync(cli, [path, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return { reader, ours, model: ours.status === 0 ? JSON.parse(ours.stdout) : null };
  }));
}

/** A Python reader's results for `paths`, read in one process. */
function readInPython(args, paths, env = {}) {
  const read = spawnSync('python3', args, {
    input: JSON.stringify(paths), encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env },
  });
  if (read.status !== 0) throw new Error(read.stderr);
  return JSON.parse(read.stdout);
}

/** How the core and the oracle disagree on the mutants at `paths`: a list
 * of differences (the oracle read in one process). */
export function differences(paths) {
  const runs = readAll(paths, READERS);
  const oracles = readInPython([join(root, 'tests', 'oracle', 'model.py'), '--batch'], paths);
  return paths.flatMap((path, i) => runs[i].flatMap(({ reader, ours, model }) => compare(`${path.split('/').pop()} (${reader})`, ours, model, oracles[i])));
}

/** How the core and the upstream tool itself (tests/oracle/upstream.py,
 * where MEMORY_MAP_UPSTREAM names it) disagree on `paths`. */
export function upstreamDifferences(paths, tool) {
  const runs = readAll(paths, READERS.slice(0, 1));
  const theirs = readInPython([join(root, 'tests', 'oracle', 'upstream.py'), tool.script], paths,
    { ...tool.env, PYTHONPATH: join(root, 'tools', 'upstream') });
  return paths.flatMap((path, i) => runs[i].flatMap(({ ours, model }) => compare(`${path.split('/').pop()} (upstream)`, ours, model, theirs[i])));
}

function compare(where, ours, model, oracle) {
  if (oracle.error === 'syntax') {
    const line = SYNTAX.exec(ours.stderr)?.[1];
    if (model) return [`${where}: CPython refuses it on line ${oracle.line} (${oracle.message}); the core reads it`];
    if (Number(line) !== oracle.line) return [`${where}: CPython line ${oracle.line} (${oracle.message}); ours ${ours.stderr.trim()}`];
    return [];
  }
  if (oracle.error) {
    if (model) return [`${where}: the oracle refuses it (${oracle.error}: ${oracle.message ?? oracle.functions}); the core reads it`];
    if (!REFUSED[oracle.error].test(ours.stderr)) return [`${where}: the oracle refuses it as ${oracle.error}; ours ${ours.stderr.trim()}`];
    return [];
  }
  if (!model) return [`${where}: valid, modelled by the oracle; ours ${ours.stderr.trim()}`];
  return describe(where, contract(model), contract(oracle));
}

/** The first difference of each function between two contracts. */
function describe(where, ours, expected) {
  const json = (value) => JSON.stringify(value);
  if (json(ours.functions.map((f) => f.name)) !== json(expected.functions.map((f) => f.name)))
    return [`${where}: functions ${ours.functions.map((f) => f.name)}, the oracle's ${expected.functions.map((f) => f.name)}`];
  return ours.functions.flatMap((fn, f) => {
    const other = expected.functions[f];
    const key = Object.keys(fn).find((k) => k !== 'boxes' && json(fn[k]) !== json(other[k]));
    if (key) return [`${where}: ${fn.name} ${key} ${json(fn[key]).slice(0, 100)}, the oracle's ${json(other[key]).slice(0, 100)}`];
    const b = fn.boxes.findIndex((box, i) => json(box) !== json(other.boxes[i]));
    if (b < 0 && fn.boxes.length === other.boxes.length) return [];
    const [mine, theirs] = [fn.boxes[b] ?? {}, other.boxes[b] ?? {}];
    const keys = Object.keys({ ...mine, ...theirs }).filter((k) => json(mine[k]) !== json(theirs[k]));
    return [`${where}: ${fn.name} box ${b} ${mine.name ?? theirs.name}: ${keys.map((k) => `${k} ${json(mine[k])}, the oracle's ${json(theirs[k])}`).join('; ')}`];
  });
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
