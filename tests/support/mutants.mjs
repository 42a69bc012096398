// Mutants of real dumps (tests/oracle/mutate.py) read by the core and by
// an oracle written from docs/model.md alone on CPython's own ast
// (tests/oracle/model.py): the same verdict (a syntax error on the same
// line, the same refusal, or valid) and, for valid ones, the same model on
// every key the spec defines: functions, spaces, every box. Where
// MEMORY_MAP_UPSTREAM names the upstream tool (tools/upstream.mjs), the
// mutants are read by it too, and every way it reads one otherwise must be
// a departure docs/model.md §13 lists, which the oracle names. Used by
// tests/core/mutants.test.mjs (a fixed set) and `npm run mutants -- SEED COUNT`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { upstreamTool } from '../../tools/upstream.mjs';
import { asUpstreamConflicts, contract, corpus, generalCli, root } from './helpers.mjs';

// Real dumps (one before AllocateMemoryAddr, one planned by ptoas, one the
// printer wrote as no Python), generated ones (two with in-place handoffs)
// and the compiler's slot forms.
const SOURCES = [
  ...['vector_division', 'gather_state_window', 'norm_rope', 'pa3__12_after_AllocateMemoryAddr', 'diagnose_indexer_weights',
    'qwen3_32b_decode__13_after_AllocateMemoryAddr', 'decode_fwd__30_after_InitMemRef', 'decode_fwd__41_after_MaterializeRuntimeScopes']
    .map((name) => join(corpus, 'real', `${name}.py`)),
  ...['gen1_001__36_after_AllocateMemoryAddr', 'gen1_005__36_after_AllocateMemoryAddr', 'gen1_038__32_after_AllocateMemoryAddr']
    .map((name) => join(corpus, 'generated', `${name}.py`)),
  ...['double_buffer__35_after_AllocateMemoryAddr', 'unbound_slot__35_after_AllocateMemoryAddr', 'mk__47_after_MaterializeValidShapeSymbols']
    .map((name) => join(root, 'tests', 'fixtures', 'pypto-e2d0f78', `${name}.py`)),
];
const READERS = [['fast path', join(root, 'build', 'native', 'memory-map')], ['general parser', generalCli]];

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
  no_tiles: /no compute function|nothing on chip/, unallocated: /AllocateMemoryAddr/, limit: /normalises names|beyond 2\^53|are not supported|largest accepted/,
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

/** The mutants at `paths` read by both of the core's readers and by the
 * oracle (in one process): what differences and upstreamDifferences compare. */
export function readMutants(paths) {
  return { paths, runs: readAll(paths, READERS), oracles: readInPython([join(root, 'tests', 'oracle', 'model.py'), '--batch'], paths) };
}

/** How the core and the oracle disagree on the mutants `read`
 * (readMutants): a list of differences. */
export function differences({ paths, runs, oracles }) {
  return paths.flatMap((path, i) => runs[i].flatMap(({ reader, ours, model }) => compare(`${path.split('/').pop()} (${reader})`, ours, model, oracles[i])));
}

/**
 * How the core (its fast path) and the upstream tool itself
 * (tests/oracle/upstream.py, run as tools/upstream.mjs's `tool` says)
 * disagree on the mutants `read` (readMutants), each difference
 * explained by the departures (docs/model.md §13) the oracle met in that
 * dump, or not.
 * @returns {{ explained: Map<string, number>, unexplained: string[] }}
 *   explained: how many differing mutants each set of departures covers
 */
export function upstreamDifferences({ paths, runs, oracles }, tool) {
  const theirs = readInPython([join(root, 'tests', 'oracle', 'upstream.py'), tool.script], paths,
    { ...tool.env, PYTHONPATH: join(root, 'tools', 'upstream') });
  const explained = new Map();
  const unexplained = [];
  for (const [i, path] of paths.entries()) {
    // In-place handoffs marked back as conflicts: the rest must be upstream's.
    const [{ ours, model }] = runs[i];
    const found = compare(`${path.split('/').pop()} (upstream)`, ours, model && asUpstreamConflicts(model), theirs[i]);
    if (!found.length) continue;
    const departures = oracles[i].departures?.filter((d) => d !== 'handoff').join(', ');
    if (departures) explained.set(departures, (explained.get(departures) ?? 0) + 1);
    else unexplained.push(...found);
  }
  return { explained, unexplained };
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

/** Against the oracle, and against the upstream tool where
 * MEMORY_MAP_UPSTREAM names it: the count of differences not explained. */
function runBatch(seed, count) {
  const paths = makeMutants(seed, count);
  const tool = upstreamTool();
  let bad = 0;
  const explained = new Map();
  for (let i = 0; i < paths.length; i += 500) {
    const batch = readMutants(paths.slice(i, i + 500));
    const found = differences(batch);
    if (tool) {
      const upstream = upstreamDifferences(batch, tool);
      found.push(...upstream.unexplained);
      for (const [departures, n] of upstream.explained) explained.set(departures, (explained.get(departures) ?? 0) + n);
    }
    bad += found.length;
    if (found.length) console.log(found.join('\n'));
  }
  console.log(`${bad} differences in ${paths.length} mutants (seed ${seed}), each read through the fast path and the general parser`);
  if (!tool) console.log('the upstream tool itself: not run (MEMORY_MAP_UPSTREAM unset; tools/upstream.mjs)');
  else {
    const total = [...explained.values()].reduce((a, b) => a + b, 0);
    console.log(`the upstream tool itself reads ${total} of them otherwise, each by departures of docs/model.md §13:`);
    for (const [departures, n] of [...explained].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${departures}`);
  }
  return bad;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [seed = '1', count = '10000'] = process.argv.slice(2);
  process.exitCode = runBatch(Number(seed), Number(count)) ? 1 : 0;
}
