// Comparing two dumps (`--diff OLD NEW`, docs/cli.md; the comparison's
// rules and JSON in docs/model.md): real pairs of the corpus, and copies of
// real dumps edited here, each change reported exactly; checked against a
// recount in this file from the two models alone.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { corpus, dumpWith, root, run, tileType } from '../support/helpers.mjs';

const passes = join(corpus, 'cases', 'decode_fwd', 'passes_dump');
const dump35 = join(passes, '35_after_DeriveCallDirections.py');
const dump41 = join(passes, '41_after_MaterializeRuntimeScopes.py');
const work = mkdtempSync(join(tmpdir(), 'mm-diff-'));
let written = 0;

function write(text, name = `${written++}_after_AllocateMemoryAddr.py`) {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

const json = (args) => {
  const result = run(args);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
};
const modelOf = (path) => json([path, '--json']);
const diffOf = (a, b) => json(['--diff', a, b, '--json']);

/** The comparison recounted from the two models: functions by name, boxes
 * by a name they share (their own first, then aliases), else by kind (the
 * name less the compiler's counters, space, shape, dtype, op) in order;
 * an old box left over whose name a new box holds joined its run. */
function recount(oldModel, newModel) {
  const functions = [];
  const oldByName = new Map();
  for (const fn of oldModel.functions) if (!oldByName.has(fn.name)) oldByName.set(fn.name, fn);
  const seen = new Set();
  for (const fn of newModel.functions) {
    const before = oldByName.get(fn.name);
    if (before) seen.add(fn.name);
    functions.push({ name: fn.name, tiles: before ? tiles(before, fn) : fn.boxes.map((b) => ({ name: b.name, changes: ['added'] })) });
  }
  for (const fn of oldModel.functions) {
    if (!seen.has(fn.name)) functions.push({ name: fn.name, tiles: fn.boxes.map((b) => ({ name: b.name, changes: ['removed'] })) });
  }
  return functions;
}

/** A tile's name less the compiler's counters (docs/model.md §15): an
 * inlining counter, an SSA version, the instance numbers at its end. */
export const stem = (name) => name.replace(/(_\d+)+$/, (m, _, at) => (at > 0 ? '' : m))
  .replace(/inline\d+/g, 'inline').replace(/_v\d+(?=_|$)/g, '_v');
const kindOf = (box) => [stem(box.name), box.space, box.shape.join(','), box.dtype, box.op].join('|');

function tiles(before, after) {
  const owner = new Map();
  before.boxes.forEach((box, i) => {
    for (const name of [box.name, ...box.aliases]) if (!owner.has(name)) owner.set(name, i);
  });
  const matched = new Set();
  const match = after.boxes.map((box) => [box.name, ...box.aliases].map((n) => owner.get(n)).find((x) => x !== undefined));
  match.forEach((i) => i !== undefined && matched.add(i));
  after.boxes.forEach((box, j) => {
    if (match[j] !== undefined) return;
    const i = before.boxes.findIndex((b, k) => !matched.has(k) && kindOf(b) === kindOf(box));
    if (i >= 0) {
      match[j] = i;
      matched.add(i);
    }
  });
  const changesOf = (was, box) => {
    const changes = [];
    if (was.space !== box.space || was.base !== box.base || was.offset !== box.offset) changes.push('moved');
    if (was.size !== box.size) changes.push('resized');
    if (box.statements > was.statements) changes.push('longer');
    if (box.statements < was.statements) changes.push('shorter');
    return changes;
  };
  const out = [];
  after.boxes.forEach((box, j) => {
    if (match[j] === undefined) return out.push({ name: box.name, changes: ['added'] });
    const changes = changesOf(before.boxes[match[j]], box);
    if (changes.length) out.push({ name: box.name, changes });
  });
  const newOwner = new Map();
  after.boxes.forEach((box, j) => {
    for (const name of [box.name, ...box.aliases]) if (!newOwner.has(name)) newOwner.set(name, j);
  });
  before.boxes.forEach((box, i) => { // joined a new box's run
    if (matched.has(i)) return;
    const j = [box.name, ...box.aliases].map((n) => newOwner.get(n)).find((x) => x !== undefined);
    if (j === undefined) return;
    matched.add(i);
    const changes = changesOf(box, after.boxes[j]);
    if (changes.length) out.push({ name: after.boxes[j].name, changes });
  });
  before.boxes.forEach((box, i) => {
    if (!matched.has(i)) out.push({ name: box.name, changes: ['removed'] });
  });
  return out;
}

const changedTiles = (diff) => diff.functions.map((f) => ({ name: f.name, tiles: f.tiles.map((t) => ({ name: t.name, changes: t.changes })) }));

/** Sets the offset and/or size of `tile`'s MemRef where `fn` binds it. */
function editTile(text, fn, tile, { offset, size }) {
  const lines = text.split('\n');
  const at = lines.findIndex((l, i) => i >= fn.src_start - 1 && i < fn.src_end && l.trimStart().startsWith(`${tile}: pl.Tile[`));
  assert.ok(at >= 0, `${tile} is bound in ${fn.name}`);
  lines[at] = lines[at].replace(/pl\.MemRef\((\w+), pl\.const\((-?\d+), pl\.INT64\), (\d+)\)/, (_, base, o, s) =>
    `pl.MemRef(${base}, pl.const(${offset ?? o}, pl.INT64), ${size ?? s})`);
  return lines.join('\n');
}

describe('real pairs from the corpus', () => {
  test('35 vs 41: the bytes are the same, lifetimes counted in statements, as recounted', () => {
    const diff = diffOf(dump35, dump41);
    assert.deepEqual(changedTiles(diff), recount(modelOf(dump35), modelOf(dump41)).map((f) => ({ name: f.name, tiles: f.tiles })));
    for (const f of diff.functions) {
      for (const s of f.spaces) assert.equal(s.hwm_change, 0, `${f.name}.${s.space}`);
      for (const t of f.tiles) assert.ok(!t.changes.includes('moved') && !t.changes.includes('resized'), `${f.name}.${t.name}`);
    }
    assert.deepEqual(diff.counts.functions, { changed: 8, unchanged: 30, added: 0, removed: 0 });
    assert.equal(diff.regressions, 0);
    // Lines shift between the two dumps; statements are what is compared.
    const fa = diff.functions.find((f) => f.name === 'fa_fused_aiv');
    assert.equal(fa.status, 'unchanged');
  });

  test('every pass pair of the case folder agrees with the recount', () => {
    const names = ['32_after_AllocateMemoryAddr.py', '35_after_DeriveCallDirections.py', '40_after_Simplify.py', dump41.split('/').pop()];
    for (let i = 0; i + 1 < names.length; i++) {
      const a = join(passes, names[i]);
      const b = join(passes, names[i + 1]);
      assert.deepEqual(changedTiles(diffOf(a, b)), recount(modelOf(a), modelOf(b)), `${names[i]} -> ${names[i + 1]}`);
    }
  });

  test('two identical dumps: every function unchanged, nothing to report, --check passes', () => {
    const diff = diffOf(dump41, dump41);
    assert.ok(diff.functions.every((f) => f.status === 'unchanged' && f.tiles.length === 0 && f.anomalies.length === 0));
    assert.equal(diff.functions.length, 38);
    const check = run(['--diff', dump41, dump41, '--check']);
    assert.equal(check.status, 0);
    assert.match(check.stdout, /^no memory regression in 38 functions/);
  });

  test('folders resolve like the single path: a passes_dump/ and its case folder', () => {
    const folder = run(['--diff', passes, join(corpus, 'cases', 'decode_fwd')]);
    assert.equal(folder.status, 0, folder.stderr);
    assert.match(folder.stdout, /^old: 32_after_AllocateMemoryAddr\.py \(Ascend910B\)\nnew: 32_after_AllocateMemoryAddr\.py \(Ascend910B\)\n/);
    const pass = run(['--diff', passes, passes, '-p', 'Simplify']);
    assert.match(pass.stdout, /^old: 40_after_Simplify\.py/);
  });
});

describe('edited copies of a real dump', () => {
  const real = readFileSync(dump41, 'utf8');
  const base = write(real);
  const m = modelOf(base);
  const silu = m.functions.find((f) => f.name === 'silu');
  // Boxes of one tile each: an edit of its binding moves all of it.
  const lone = silu.boxes.filter((b) => b.aliases.length === 0);
  const first = lone[0];
  const second = lone.reduce((a, b) => (b.offset > a.offset ? b : a)); // the highest: growing it overlaps none

  test('a tile moved to another offset', () => {
    const moved = write(editTile(real, silu, first.name, { offset: first.offset + 64 }));
    const diff = diffOf(base, moved);
    const f = diff.functions.find((x) => x.name === 'silu');
    assert.equal(f.status, 'changed');
    const t = f.tiles.find((x) => x.name === first.name);
    assert.deepEqual(t.changes, ['moved']);
    assert.equal(t.old.offset, first.offset);
    assert.equal(t.new.offset, first.offset + 64);
    assert.deepEqual(changedTiles(diff), recount(m, modelOf(moved)));
    assert.equal(diff.functions.filter((x) => x.status === 'changed').length, 1);
  });

  test('a size grown past the capacity: over capacity appears, the HWM grows, --check fails', () => {
    const grown = write(editTile(real, silu, second.name, { size: 200000 }));
    const diff = diffOf(base, grown);
    const f = diff.functions.find((x) => x.name === 'silu');
    assert.deepEqual(f.tiles.find((x) => x.name === second.name).changes, ['resized']);
    const vec = f.spaces.find((s) => s.space === 'Vec');
    assert.equal(vec.new.hwm_with_reserved, second.offset + 200000);
    assert.equal(vec.hwm_change, second.offset + 200000 - vec.old.hwm_with_reserved);
    assert.ok(f.anomalies.some((a) => a.change === 'appeared' && a.kind === 'over_capacity'));
    const check = run(['--diff', base, grown, '--check']);
    assert.equal(check.status, 3);
    assert.match(check.stdout, /^new: .*:\d+: over capacity in silu: Vec '/m);
    assert.match(check.stdout, /: high-water mark grew in silu: Vec \d+ -> \d+ \(\+\d+ B, \+[\d.]+%\)$/m);
    assert.match(check.stdout, /^2 regressions: 1 new conflict or tile over capacity, 1 high-water mark grew$/m);
    // The other way round nothing grew and the anomaly is gone.
    const back = run(['--diff', grown, base, '--check']);
    assert.equal(back.status, 0);
    assert.ok(diffOf(grown, base).functions.find((x) => x.name === 'silu').anomalies.every((a) => a.change === 'gone'));
  });

  test('a tile renamed in one function: removed and added', () => {
    const lines = real.split('\n');
    const word = new RegExp(`\\b${first.name}\\b`, 'g');
    for (let i = silu.src_start - 1; i < silu.src_end; i++) lines[i] = lines[i].replace(word, `${first.name}_renamed`);
    const renamed = write(lines.join('\n'));
    const diff = diffOf(base, renamed);
    const f = diff.functions.find((x) => x.name === 'silu');
    assert.deepEqual(f.tiles.map((t) => [t.name, t.changes]), [[`${first.name}_renamed`, ['added']], [first.name, ['removed']]]);
    assert.equal(f.tiles[0].old, null);
    assert.equal(f.tiles[1].new, null);
    assert.deepEqual(changedTiles(diff), recount(m, modelOf(renamed)));
  });

  test('a function removed, and added the other way round', () => {
    const lines = real.split('\n');
    const start = silu.src_start - 1;
    const without = write([...lines.slice(0, start), ...lines.slice(silu.src_end)].join('\n'));
    const diff = diffOf(base, without);
    const f = diff.functions.find((x) => x.name === 'silu');
    assert.equal(f.status, 'removed');
    assert.equal(f.new, null);
    assert.equal(f.tiles.length, silu.boxes.length);
    // It stays where it was among the others.
    const names = diff.functions.map((x) => x.name);
    assert.deepEqual(names, m.functions.map((x) => x.name));
    assert.equal(diffOf(without, base).functions.find((x) => x.name === 'silu').status, 'added');
    assert.equal(run(['--diff', base, without, '--check']).status, 0, 'a removed function is no regression');
  });
});

describe('two builds of one program, by the compiler', () => {
  const fixtures = join(root, 'tests', 'fixtures', 'compiler-e2d0f78');
  const wide = (build) => join(fixtures, 'wide', build);

  test('another compile of qwen3_decode counts its inlining otherwise: every tile matched by what it is, none added', () => {
    // The driver's case and the wide run compiled it in another order: w_chunk_inline85__tile is w_chunk_inline50__tile.
    const a = join(fixtures, 'whole', 'qwen3_decode', '35_after_AllocateMemoryAddr.py');
    const b = wide('ex.models.qwen3_jit.qwen3_decode__qwen3_decode__pypto');
    const diff = diffOf(a, b);
    assert.deepEqual([diff.counts.tiles.added, diff.counts.tiles.removed], [0, 0]);
    assert.ok(diff.counts.tiles.matched_by_kind >= 100, `${diff.counts.tiles.matched_by_kind}`);
    assert.deepEqual(diff.counts.functions, { changed: 0, unchanged: 13, added: 0, removed: 0 });
    const pairs = diff.functions.flatMap((f) => f.pairs);
    assert.equal(pairs.filter((p) => p[2] === 'kind').length, diff.counts.tiles.matched_by_kind);
    assert.match(run(['--diff', a, b]).stdout, /\n\d+ tiles matched by what they are \(name less the compiler's counters, space, shape, dtype, op, in order\)/);
    assert.deepEqual(changedTiles(diff), recount(modelOf(a), modelOf(b)).map((f) => ({ name: f.name, tiles: f.tiles })));
  });

  test('the default and the DSA planner: tiles matched by name, runs one planner joins not removed, as recounted', () => {
    for (const program of ['ex.models.qwen3_jit.qwen3_decode__qwen3_decode', 'ex.models.04_paged_attention__build_paged_attention_program', 'ops.test_fillpad__FillpadMaxProgram']) {
      const [a, b] = [wide(`${program}__pypto`), wide(`${program}__dsa`)];
      const diff = diffOf(a, b);
      assert.deepEqual(changedTiles(diff), recount(modelOf(a), modelOf(b)).map((f) => ({ name: f.name, tiles: f.tiles })), program);
    }
    // rmsnorm: DSA puts t__tile_6 in t__tile_5's run (one base): it joined, it is not gone.
    const diff = diffOf(wide('ex.models.qwen3_jit.qwen3_decode__qwen3_decode__pypto'), wide('ex.models.qwen3_jit.qwen3_decode__qwen3_decode__dsa'));
    const rms = diff.functions.find((f) => f.name === 'rmsnorm');
    assert.ok(!rms.tiles.some((t) => t.name === 't__tile_6' && t.changes.includes('removed')));
    assert.equal(diff.counts.tiles.matched_by_kind, 0, 'one compile: the same counters');
  });

  test('the stem: inlining and SSA counters and instance numbers go, the rest of the name stays', () => {
    assert.deepEqual(['w_chunk_inline82__tile_Right_1', 'oi_tile__ssa_v0', 'acc__iter_v1', 't__row_major_tmp_v21', 'tile_mn0_1', 'x2', 'q_v', 'p_1'].map(stem),
      ['w_chunk_inline__tile_Right', 'oi_tile__ssa_v', 'acc__iter_v', 't__row_major_tmp_v', 'tile_mn0', 'x2', 'q_v', 'p']);
  });
});

describe('hand-written pairs', () => {
  const tile = (name, base, offset, size) => `${name}: ${tileType('Vec', base, offset, size)} = pl.tile.create()`;

  test('a new conflict appears: named with both tiles, --check exits 3', () => {
    const a = write(dumpWith([tile('a', 'mem_vec_1', 0, 512), tile('b', 'mem_vec_2', 512, 512), 'return a, b']));
    const b = write(dumpWith([tile('a', 'mem_vec_1', 0, 512), tile('b', 'mem_vec_2', 256, 512), 'return a, b']));
    const diff = diffOf(a, b);
    const [anomaly] = diff.functions[0].anomalies;
    assert.equal(anomaly.change, 'appeared');
    assert.equal(anomaly.kind, 'conflict');
    assert.match(anomaly.text, /conflict in kernel: Vec 'a' .* shares bytes with 'b' .* while both are live$/);
    const check = run(['--diff', a, b, '--check']);
    assert.equal(check.status, 3);
    assert.match(check.stdout, /^new: .*:9: conflict in kernel: Vec 'a'/m);
  });

  test('a merged alias matches: a box found by the name of a tile merged into it', () => {
    // Old: a, then a2 in the same slot right after (merged, alias a2).
    // New: only a2 is there, one line longer: it matches the old box.
    const a = write(dumpWith([tile('a', 'mem_vec_1', 0, 512), `a2: ${tileType('Vec', 'mem_vec_1', 0, 512)} = pl.tile.muls(a, 2.0)`, 'return a2']));
    const b = write(dumpWith(['x = 1', tile('a2', 'mem_vec_1', 0, 512), 'return a2']));
    const diff = diffOf(a, b);
    const f = diff.functions[0];
    assert.deepEqual(f.pairs, [[0, 0, 'name']]);
    assert.deepEqual(f.tiles.map((t) => [t.name, t.changes]), [['a2', ['shorter']]]);
    assert.equal(f.tiles[0].old.name, 'a');
    assert.equal(f.tiles[0].old.statements, 3);
    assert.equal(f.tiles[0].new.statements, 2);
  });

  test('the report: one line per unchanged function, tables for a changed one, the counts', () => {
    const a = write(dumpWith([tile('a', 'mem_vec_1', 0, 512), 'return a']));
    const b = write(dumpWith([tile('a', 'mem_vec_1', 512, 1024), 'return a']));
    const result = run(['--diff', a, b]);
    assert.equal(result.status, 0);
    const lines = result.stdout.split('\n');
    assert.match(lines[0], /^old: \d+_after_AllocateMemoryAddr\.py \(Ascend910B, assumed\)$/);
    assert.equal(lines[3], 'kernel (AIV): changed');
    assert.match(lines[5], /^ {2}Vec +512 -> 1536 {2}\+1024 \(\+200\.0%\) {2}512 -> 1024 {2}0\.3% -> 0\.8% +0$/);
    assert.match(result.stdout, / {2}a +moved, resized {2}Vec mem_vec_1 \[0, 512\), 2 statements {2}Vec mem_vec_1 \[512, 1536\), 2 statements\n/);
    assert.match(lines.at(-2), /^1 function: 1 changed, 0 unchanged, 0 added, 0 removed; tiles: 1 moved, 1 resized, 0 longer, 0 shorter, 0 added, 0 removed; conflicts and over capacity: 0 appeared, 0 gone; high-water marks: 1 grew, 0 shrank$/);
  });
});

describe('outputs, refusals and usage', () => {
  const ok = write(dumpWith([`a: ${tileType('Vec', 'mem_vec_1', 0, 512)} = pl.tile.create()`, 'return a']));

  test('either side refused: exit 1, the side named, nothing written', () => {
    const broken = write('def f(:\n');
    const out = join(work, 'never.html');
    for (const [args, side] of [[[broken, ok], 'old'], [[ok, broken], 'new']]) {
      const result = run(['--diff', ...args, '-o', out]);
      assert.equal(result.status, 1);
      assert.match(result.stderr, new RegExp(`^error: .*:1: .* \\(the ${side} side of --diff\\)\\n$`));
      assert.equal(result.stdout, '');
      assert.ok(!existsSync(out));
    }
    const missing = run(['--diff', join(work, 'missing.py'), ok]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /missing\.py: No such file or directory \(the old side of --diff\)/);
  });

  test('-o writes a compare page holding both models and the comparison', () => {
    const other = write(dumpWith([`a: ${tileType('Vec', 'mem_vec_1', 64, 512)} = pl.tile.create()`, 'return a']));
    const out = join(work, 'compare.html');
    const result = run(['--diff', ok, other, '-o', out]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `wrote ${out}\n`);
    const page = readFileSync(out, 'utf8');
    const data = JSON.parse(page.match(/<script id="memory-map-data" type="application\/json">([\s\S]*?)<\/script>/)[1]);
    assert.deepEqual(Object.keys(data), ['old', 'new', 'diff']);
    assert.equal(data.old.functions[0].boxes[0].offset, 0);
    assert.equal(data.new.functions[0].boxes[0].offset, 64);
    assert.ok(data.new.functions[0].source.length > 0, 'the page shows both sources');
    assert.deepEqual(data.diff.functions[0].tiles[0].changes, ['moved']);
  });

  test('--json to a file; standard input for one side; usage errors', () => {
    const out = join(work, 'diff.json');
    assert.equal(run(['--diff', ok, ok, '--json', '-o', out]).status, 0);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).counts.functions.unchanged, 1);
    const piped = run(['--diff', '-', ok, '--json'], { input: readFileSync(ok) });
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(JSON.parse(piped.stdout).old.dump, 'stdin');
    assert.equal(run(['--diff', '-', '-']).status, 2);
    assert.equal(run(['--diff', ok, ok, '--summary']).status, 2);
    assert.equal(run(['--diff', ok, ok, '--json', '--check']).status, 2);
    assert.equal(run(['--diff', ok]).status, 2);
  });
});

test('a case folder with its own .pto gives each side its backend', () => {
  const make = (arch) => {
    const dir = mkdtempSync(join(work, 'case-'));
    mkdirSync(join(dir, 'passes_dump'));
    mkdirSync(join(dir, 'ptoas'));
    writeFileSync(join(dir, 'passes_dump', '9_after_AllocateMemoryAddr.py'), readFileSync(dump41));
    writeFileSync(join(dir, 'ptoas', 'k.pto'), `module attributes {pto.target_arch = "${arch}"}`);
    return dir;
  };
  const diff = diffOf(make('a2a3'), make('a5'));
  assert.equal(diff.old.backend.name, 'Ascend910B');
  assert.equal(diff.new.backend.name, 'Ascend950');
  const vec = diff.functions.find((f) => f.name === 'silu').spaces.find((s) => s.space === 'Vec');
  assert.deepEqual([vec.old.limit, vec.new.limit, vec.changed], [188416, 245760, true]);
});

describe('the page\'s reading of a comparison (web/model/diff.js)', async () => {
  const { anomalyChange, boxIndex, changeNotes, changeStops, compareSummary, hwmChange, shownFunctions, sideLabels } = await import('../../web/model/diff.js');
  const tile = (name, base, offset, size) => `${name}: ${tileType('Vec', base, offset, size)} = pl.tile.create()`;
  const a = write(dumpWith([tile('a', 'mem_vec_1', 0, 512), tile('b', 'mem_vec_2', 512, 512), 'return a, b']));
  const b = write(dumpWith([tile('a', 'mem_vec_1', 1024, 512), tile('c', 'mem_vec_3', 512, 512), 'return a, c']));
  const diff = diffOf(a, b);
  const [fn] = diff.functions;

  test('counterparts and changes by box index, on each side', () => {
    const index = boxIndex(fn);
    const newBoxes = modelOf(b).functions[0].boxes.map((x) => x.name);
    const oldBoxes = modelOf(a).functions[0].boxes.map((x) => x.name);
    const aNew = newBoxes.indexOf('a');
    const aOld = oldBoxes.indexOf('a');
    assert.equal(index.toOld.get(aNew), aOld);
    assert.equal(index.toNew.get(aOld), aNew);
    assert.deepEqual(index.newChange.get(newBoxes.indexOf('c')).changes, ['added']);
    assert.deepEqual(index.oldChange.get(oldBoxes.indexOf('b')).changes, ['removed']);
  });

  test('notes, the pill\'s change, the summary and the stops of N', () => {
    const moved = fn.tiles.find((t) => t.name === 'a');
    assert.deepEqual(changeNotes(moved), ['moved: Vec mem_vec_1 [0, 512) → Vec mem_vec_1 [1024, 1536)']);
    const vec = hwmChange(fn.spaces[0]);
    assert.deepEqual([vec.text, vec.changeText, vec.level], ['1 KB → 1.5 KB', '+512 B (+50.0%)', 'grew']);
    assert.deepEqual(compareSummary(diff).largest, [{ space: 'Vec', fn: 'kernel', change: 512 }]);
    assert.deepEqual(changeStops(diff).map((s) => [s.side, s.label]), [
      ['new', 'kernel: c added'], ['new', 'kernel: a moved'], ['old', 'kernel: b removed'], // box order: by offset
    ]);
    assert.deepEqual(shownFunctions(diffOf(a, a), 'changed'), []);
  });

  test('a smaller high-water mark with a conflict that appeared: the card\'s head counts it', () => {
    // b moves onto a's bytes while both live: 512 B less, and a conflict.
    const apart = write(dumpWith([tile('a', 'mem_vec_1', 0, 512), tile('b', 'mem_vec_2', 1024, 512), 'return a, b']));
    const onto = write(dumpWith([tile('a', 'mem_vec_1', 0, 512), tile('b', 'mem_vec_2', 256, 512), 'return a, b']));
    const [worse] = diffOf(apart, onto).functions;
    assert.equal(hwmChange(worse.spaces[0]).level, 'shrank');
    assert.deepEqual(anomalyChange(worse), { appeared: 1, gone: 0 });
    assert.deepEqual(anomalyChange(diffOf(onto, apart).functions[0]), { appeared: 0, gone: 1 });
    assert.deepEqual(anomalyChange(fn), { appeared: 0, gone: 0 });
  });

  test('two sides of one name are told apart: the shortest path suffix that differs, else size, time, old and new', () => {
    const name = '12_after_AllocateMemoryAddr.py';
    assert.deepEqual(sideLabels({ name: '9_after_A.py', size: 1 }, { name: '10_after_B.py', size: 2 }), ['9_after_A.py', '10_after_B.py']);
    assert.deepEqual(sideLabels({ name, path: `build_a/case/passes_dump/${name}` }, { name, path: `build_b/case/passes_dump/${name}` }),
      [`build_a/case/passes_dump/${name}`, `build_b/case/passes_dump/${name}`]);
    assert.deepEqual(sideLabels({ name, path: `v1/passes_dump/${name}` }, { name, path: `x/v2/passes_dump/${name}` }),
      [`v1/passes_dump/${name}`, `v2/passes_dump/${name}`]);
    assert.deepEqual(sideLabels({ name, path: `passes_dump/${name}` }, { name, path: `old/passes_dump/${name}` }),
      [`passes_dump/${name}`, `old/passes_dump/${name}`], 'one path the tail of the other');
    // The same path (one file twice), or a path on one side only: what the files say.
    assert.deepEqual(sideLabels({ name, path: `a/${name}`, size: 48128 }, { name, path: `a/${name}`, size: 49152 }),
      [`${name} (47 KB)`, `${name} (48 KB)`]);
    assert.deepEqual(sideLabels({ name, path: `a/${name}`, size: 100 }, { name, size: 200 }), [`${name} (100 B)`, `${name} (200 B)`]);
    const [old, neu] = sideLabels({ name, size: 100, modified: Date.UTC(2026, 7, 21, 10, 2) }, { name, size: 100, modified: Date.UTC(2026, 7, 21, 11, 2) });
    assert.notEqual(old, neu);
    assert.ok(old.startsWith(`${name} (`) && neu.startsWith(`${name} (`), `${old} | ${neu}`);
    assert.deepEqual(sideLabels({ name, size: 100 }, { name, size: 100 }), [`${name} (old)`, `${name} (new)`]);
    assert.deepEqual(sideLabels({ name }, { name }), [`${name} (old)`, `${name} (new)`]);
  });
});

test('the page\'s comparison, each side read a function at a time, is the command line\'s: both models and the diff', async () => {
  const { loadCore } = await import('../support/helpers.mjs');
  const { analyzeSideJson, compareSidesJson } = await import('../../web/engine/core.js');
const { parseModel, parseSplitModel } = await import('../../web/engine/model-json.js');
  const core = await loadCore();
  // Copied out of the case: no .pto beside them for the command line to read.
  const [oldPath, newPath] = ['32_after_AllocateMemoryAddr.py', '41_after_MaterializeRuntimeScopes.py']
    .map((n) => write(readFileSync(join(passes, n), 'utf8'), n));
  // As the page's two workers and engine.js read them.
  const read = (path) => {
    const bytes = readFileSync(path);
    const { json, side } = analyzeSideJson(core, bytes, { dumpName: path.split('/').pop(), withoutSource: true, split: true, splitHeads: true });
    return { model: parseSplitModel(json, bytes), side };
  };
  const [a, b] = [read(oldPath), read(newPath)];
  const data = { old: a.model, new: b.model, diff: parseModel(compareSidesJson(core, a.side, b.side)) };
  assert.equal(data.old.lazy.heads + data.new.lazy.heads + data.old.lazy.parsed + data.new.lazy.parsed, 0);
  const heads = ['box_count', 'source_bytes', 'body', 'names'];
  const plain = (model) => JSON.parse(JSON.stringify({ ...model, functions: model.functions.map((fn) => Object.fromEntries(Object.entries(fn).filter(([k]) => !heads.includes(k)))) }));
  assert.deepEqual(plain(data.old), json([oldPath, '--json']));
  assert.deepEqual(plain(data.new), json([newPath, '--json']));
  assert.deepEqual(data.diff, diffOf(oldPath, newPath));
});

describe('a comparison read on two cores (the page\'s two workers)', () => {
  const generated = join(corpus, 'generated');
  const reserve = (name, size, base) => `${name}: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='${name}', size=${size}, base=${base})`;
  const vec = (name, base, offset, size) => `${name}: ${tileType('Vec', base, offset, size)} = pl.tile.load(x)`;
  // Windows that conflict with a tile and overlap each other on one side only.
  const windowsOld = dumpWith([reserve('ring', 4096, 0), reserve('peer', 1024, 8192), vec('t', 'mem_vec_1', 4096, 1024)]);
  const windowsNew = dumpWith([reserve('ring', 4096, 0), reserve('peer', 1024, 2048), vec('t', 'mem_vec_1', 2048, 1024)]);
  const pairs = [
    ['35 → 41 of decode_fwd', readFileSync(dump35), readFileSync(dump41)],
    ['conflicts gone', readFileSync(join(generated, 'gen1_013__32_after_AllocateMemoryAddr.py')), readFileSync(dump41)],
    ['conflicts appeared', readFileSync(join(generated, 'gen1_004__36_after_AllocateMemoryAddr.py')),
      readFileSync(join(generated, 'gen1_014__36_after_AllocateMemoryAddr.py'))],
    ['windows', Buffer.from(windowsOld), Buffer.from(windowsNew)],
  ];

  test('each side read on its own, then the two sides compared: the one-call comparison', async () => {
    const { loadCore } = await import('../support/helpers.mjs');
    const { analyzeDumpJson, analyzeSideJson, compareDumpsJson, compareSidesJson } = await import('../../web/engine/core.js');
const { parseModel } = await import('../../web/engine/model-json.js');
    const core = await loadCore();
    const text = (bytes) => new TextDecoder().decode(bytes);
    for (const [label, oldBytes, newBytes] of pairs) {
      const options = (i) => ({ dumpName: `${i}_after_AllocateMemoryAddr.py`, withoutSource: true, split: true });
      const whole = compareDumpsJson(core, { bytes: oldBytes, ...options(1) }, { bytes: newBytes, ...options(2) },
        { withoutSource: true });
      const expected = JSON.parse(text(whole)).diff;
      const [a, b] = [analyzeSideJson(core, oldBytes, options(1)), analyzeSideJson(core, newBytes, options(2))];
      // The model's JSON is analyzeDumpJson's, byte for byte.
      assert.equal(text(a.json), text(analyzeDumpJson(core, oldBytes, options(1))), label);
      const diff = parseModel(compareSidesJson(core, a.side, b.side));
      assert.deepEqual(diff, expected, label);
      if (label === 'windows') assert.ok(diff.functions[0].anomalies.some((x) => x.kind === 'window_overlap'), 'the pair shows a window overlap');
      if (label.startsWith('conflicts')) assert.ok(diff.counts.anomalies.appeared + diff.counts.anomalies.gone > 0, label);
    }
  });

  test('a refused dump has no side; bytes that are not a side are refused, never misread', async () => {
    const { loadCore } = await import('../support/helpers.mjs');
    const { analyzeSideJson, compareSidesJson } = await import('../../web/engine/core.js');
const { parseModel } = await import('../../web/engine/model-json.js');
    const core = await loadCore();
    const refused = analyzeSideJson(core, Buffer.from('def broken(:\n'), { dumpName: 'x.py' });
    assert.equal(refused.side, null);
    assert.throws(() => parseModel(refused.json), /invalid syntax|expected/);
    const { side } = analyzeSideJson(core, readFileSync(dump41), { dumpName: '41.py' });
    const bad = [
      side.subarray(0, side.length - 1), // cut short
      Buffer.concat([side, Buffer.from([0])]), // a byte too many
      Buffer.from(side).fill(0x7f, 10, 14), // the dump's name longer than the bytes
      (() => { const b = Buffer.from(side); b[0] ^= 1; return b; })(), // another format
      Buffer.alloc(0),
    ];
    for (const [i, bytes] of bad.entries()) {
      assert.throws(() => parseModel(compareSidesJson(core, side, bytes)), /not a side/, `case ${i}`);
      assert.throws(() => parseModel(compareSidesJson(core, bytes, side)), /not a side/, `case ${i}, old`);
    }
    // Every count cut to the bytes: a count claiming more than fits is refused before allocating.
    for (let at = 10; at < Math.min(side.length, 4000); at += 37) {
      const b = Buffer.from(side);
      b.writeUInt32LE(0xfffffff0, at);
      const result = JSON.parse(new TextDecoder().decode(compareSidesJson(core, b, side)));
      assert.ok(result.error || result.functions, `offset ${at}`);
    }
  });
});
