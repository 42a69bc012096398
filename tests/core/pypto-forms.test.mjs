// What the compiler prints today (hw-native-sys/pypto at e2d0f78): slots,
// pinned allocations, tiles whose MemRef gives no address, and which dumps
// hold addresses. The fixtures in tests/fixtures/pypto-e2d0f78/ are written
// from the printer's code (its README cites the lines); the figures the
// tests hold them to are the compiler's own (SpaceFootprint::HighWater).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { DumpError } from '../../web/engine/heap.js';
import { contract, dumpWith, generalParser, model, root, run } from '../support/helpers.mjs';

const fixtures = join(root, 'tests', 'fixtures', 'pypto-e2d0f78');
const fixture = (name) => join(fixtures, name);
const read = (name) => readFileSync(fixture(name), 'utf8');
const modelOf = (name) => model(read(name), { dumpName: name });
const fnOf = (m, name) => m.functions.find((f) => f.name === name);
const spaceOf = (fn, name) => [...fn.spaces, ...fn.reserved_only_spaces].find((s) => s.space === name);
const boxOf = (fn, name) => fn.boxes.find((b) => b.name === name);

async function refusal(text, options) {
  try {
    await model(text, options);
  } catch (e) {
    if (e instanceof DumpError) return e;
    throw e;
  }
  assert.fail('the dump was not refused');
}

describe('slots and pinned allocations', () => {
  test('the compiler\'s footprint: a ring, a pinned allocation of constant slots, one of a runtime slot', async () => {
    const fn = fnOf(await modelOf('mk__35_after_AllocateMemoryAddr.py'), 'mk_aiv');
    const vec = spaceOf(fn, 'Vec');
    // HighWater after AllocateMemoryAddr: ring [0, 32768), mem_vec_2, mem_vec_3, pp [49152, 65536), ub [65536, 81920).
    assert.equal(vec.hwm_with_reserved, 81920);
    assert.equal(vec.headroom, 188416 - 81920);
    const t = boxOf(fn, 't__tile');
    assert.deepEqual([t.offset, t.size], [65536, 16384], 'a runtime index may select either slot: both are held');
    assert.deepEqual(t.slots, { count: 2, size: 8192, index: 'i__idx_v0 % 2', runtime: true });
    assert.deepEqual(boxOf(fn, 'p1__tile').slots, { count: 2, size: 8192, index: '1', runtime: false });
    assert.deepEqual([boxOf(fn, 'p1__tile').offset, boxOf(fn, 'p1__tile').size], [57344, 8192]);
    const pinned = fn.reserved.filter((w) => w.kind === 'pinned').map((w) => [w.name, w.base, w.size, w.slot_num, w.slot_size, w.conflict_count]);
    assert.deepEqual(pinned, [['pp', 49152, 16384, 2, 8192, 0], ['ub', 65536, 16384, 2, 8192, 0]]);
    assert.deepEqual(fn.reserved.filter((w) => w.kind === 'ring').map((w) => [w.name, w.slot_num, w.slot_size]),
      [['mk_c2v_slot_buffer', 2, 16384]], 'slot_num as the printer states it (2 by default since 2026-08-17)');
    assert.deepEqual(fn.attrs, { split: 'pl.SplitMode.UP_DOWN', dual_aiv_dispatch: 'True' }, 'pl.func_attr, the first body line');
    assert.ok(fn.boxes.every((b) => !b.conflict && !b.view && !b.window_conflicts), 'a pinned allocation holds its own tiles');
    const allocations = fn.allocations.map((a) => [a.name, a.space, a.size, a.pinned, a.offset, a.tiles]);
    assert.deepEqual(allocations, [
      ['mem_vec_2', 'Vec', 8192, false, 32768, 1], ['pp', 'Vec', 16384, true, 49152, 2],
      ['ub', 'Vec', 16384, true, 65536, 1], ['mem_vec_3', 'Vec', 8192, false, 40960, 2],
    ]);
    assert.deepEqual(fn.skipped, [], 'h__tile (a tpop result) has no MemRef: it lives in the ring');
  });

  test('a double-buffered tile is drawn: 48 KB of Vec, and its Acc space is there', async () => {
    const m = await modelOf('double_buffer__35_after_AllocateMemoryAddr.py');
    const aiv = fnOf(m, 'db_aiv');
    assert.equal(spaceOf(aiv, 'Vec').hwm_with_reserved, 48 * 1024);
    assert.equal(spaceOf(aiv, 'Vec').peak_live, 48 * 1024);
    const aic = fnOf(m, 'db_aic');
    assert.equal(spaceOf(aic, 'Acc').hwm, 32768);
    assert.deepEqual(boxOf(aic, 'acc__tile').slots, { count: 2, size: 16384, index: 'k__idx_v0 % 2', runtime: true });
  });

  test('a pinned allocation counts its unbound slots, as the compiler\'s footprint does', async () => {
    const fn = fnOf(await modelOf('unbound_slot__35_after_AllocateMemoryAddr.py'), 'ring3_aiv');
    const vec = spaceOf(fn, 'Vec');
    assert.equal(vec.hwm, 24576, 'the tiles reach slot 1 only');
    assert.equal(vec.hwm_with_reserved, 32768, 'slot 2 is allocated all the same');
    const pp = fn.allocations.find((a) => a.name === 'pp');
    assert.deepEqual([pp.offset, pp.size, pp.slots], [8192, 24576, { count: 3, size: 8192 }]);
    const window = fn.reserved.find((w) => w.name === 'pp');
    assert.equal(window.one_more_slot_hwm, 40960);
  });

  test('ping and pong of one allocation are two boxes, neither a view nor a conflict', async () => {
    const tile = (name, index) =>
      `${name}: pl.Tile[[32, 64], pl.FP32, pl.MemRef(ub, 4096 + ${index} * 8192, 8192, slots=2)[${index}], pl.Mem.Vec] = pl.tile.load(x)`;
    const m = await model(dumpWith([
      'ub: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 16384, pinned=True)',
      'for i in pl.range(4):',
      `    ${tile('ping', 'i % 2')}`,
      `    ${tile('pong', '(i + 1) % 2')}`,
      '    y: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_vec_9, pl.const(0, pl.INT64), 8192), pl.Mem.Vec] = pl.tile.load(x)',
      '    pl.tile.store(ping, pong, y)',
    ]));
    const fn = m.functions[0];
    assert.deepEqual(fn.boxes.filter((b) => b.slots).map((b) => [b.name, b.offset, b.size, b.slots.index]),
      [['ping', 4096, 16384, 'i % 2'], ['pong', 4096, 16384, '(i + 1) % 2']]);
    assert.ok(fn.boxes.every((b) => !b.view));
    // y, another base at [0, 8192), meets ub's [4096, 20480): a conflict with both slots' boxes and
    // with the allocation; ping and pong conflict with nothing else.
    const y = boxOf(fn, 'y');
    const index = (name) => fn.boxes.findIndex((b) => b.name === name);
    assert.deepEqual(y.conflicts_with, [index('ping'), index('pong')]);
    assert.deepEqual(boxOf(fn, 'ping').conflicts_with, [index('y')]);
    assert.deepEqual(y.window_conflicts, [0], 'another base inside a pinned allocation is a conflict');
    assert.equal(fn.reserved[0].conflict_count, 1);
  });
});

describe('in-place handoffs, as the planners plan them', () => {
  const tile = (name, base, offset, value) =>
    `${name}: pl.Tile[[32, 64], pl.FP32, pl.MemRef(${base}, pl.const(${offset}, pl.INT64), 8192), pl.Mem.Vec] = ${value}`;
  test('an output over the input its statement reads last is reuse in place, not a conflict', async () => {
    const m = await model(dumpWith([
      tile('a', 'mem_vec_1', 0, 'pl.tile.load(x)'),
      tile('b', 'mem_vec_2', 0, 'pl.tile.exp(a)'),
      tile('c', 'mem_vec_3', 8192, 'pl.tile.load(x)'),
      tile('d', 'mem_vec_4', 8192, 'pl.tile.add(\n    b,\n    c)'),
      'pl.tile.store(d, c)',
    ]), { dumpName: '34_after_AllocateMemoryAddr.py' });
    const fn = m.functions[0];
    const at = (name) => fn.boxes.findIndex((b) => b.name === name);
    const a = fn.boxes[at('a')], b = fn.boxes[at('b')];
    assert.deepEqual([a.conflict, b.conflict, a.in_place_to, b.in_place_from], [false, false, at('b'), at('a')]);
    // c is read again after the statement binding d: both live, a real conflict.
    assert.deepEqual([fn.boxes[at('c')].conflict, fn.boxes[at('d')].conflict], [true, true]);
    assert.equal(fn.boxes[at('d')].in_place_from, undefined);
  });
  test('not an input from outside a loop, which the next turn reads again; not where no planner placed the dump', async () => {
    const body = [
      tile('a', 'mem_vec_1', 0, 'pl.tile.load(x)'),
      'for i in pl.range(4):',
      `    ${tile('b', 'mem_vec_2', 4096, 'pl.tile.exp(a)')}`,
      '    pl.tile.store(b, x)',
    ];
    const inLoop = (await model(dumpWith(body), { dumpName: '35_after_AllocateMemoryAddr.py' })).functions[0];
    assert.deepEqual(inLoop.boxes.map((b) => [b.name, b.conflict]), [['a', true], ['b', true]]);
    const straight = [tile('a', 'mem_vec_1', 0, 'pl.tile.load(x)'), tile('b', 'mem_vec_2', 4096, 'pl.tile.exp(a)'), 'pl.tile.store(b, x)'];
    for (const [dumpName, conflict] of [['32_after_InitMemRef.py', true], ['dump.py', true], ['40_after_Simplify.py', false]]) {
      const fn = (await model(dumpWith(straight), { dumpName })).functions[0];
      assert.equal(fn.boxes[0].conflict, conflict, dumpName);
    }
  });
  const handed = (fn) => fn.boxes.map((b) => [b.name, b.conflict, b.in_place_to !== undefined || b.in_place_from !== undefined]);
  const placedModel = async (body) => (await model(dumpWith(body), { dumpName: '34_after_AllocateMemoryAddr.py' })).functions[0];
  test('across a branch: an output bound in `else` over an input bound before the `if` (paged attention\'s online update, DSA)', async () => {
    const fn = await placedModel([
      'for i in pl.range(4):',
      `    ${tile('a', 'mem_vec_1', 0, 'pl.tile.load(x)')}`,
      '    if i == 0:',
      `        ${tile('b', 'mem_vec_2', 8192, 'pl.tile.exp(a)')}`,
      '    else:',
      `        ${tile('c', 'mem_vec_3', 0, 'pl.tile.exp(a)')}`,
      '        pl.tile.store(c, x)',
    ]);
    assert.deepEqual(handed(fn), [['a', false, true], ['c', false, true], ['b', false, false]]);
  });
  test('out of a loop: an accumulator carried by a loop, read once by the statement after it (qwen3 scope3, DSA)', async () => {
    const fn = await placedModel([
      `${tile('acc0', 'mem_vec_1', 0, 'pl.tile.full(x)')}`,
      'for i, (acc_iter,) in pl.range(4, init_values=(acc0,)):',
      `    ${tile('acc1', 'mem_vec_1', 0, 'pl.tile.add(acc_iter, x)')}`,
      `    ${tile('acc_rv', 'mem_vec_1', 0, 'pl.yield_(acc1)')}`,
      `${tile('out', 'mem_vec_2', 0, 'pl.tile.add(acc_rv, x)')}`,
      'pl.tile.store(out, x)',
    ]);
    assert.deepEqual(handed(fn), [['acc0', false, false], ['acc1', false, true], ['out', false, true]]);
  });
  test('never into a loop\'s next turn: an input bound in an outer loop or in a sibling loop is read again', async () => {
    const nested = await placedModel([
      'for i in pl.range(4):',
      `    ${tile('a', 'mem_vec_1', 0, 'pl.tile.load(x)')}`,
      '    for j in pl.range(2):',
      `        ${tile('b', 'mem_vec_2', 0, 'pl.tile.exp(a)')}`,
      '        pl.tile.store(b, x)',
    ]);
    assert.deepEqual(handed(nested), [['a', true, false], ['b', true, false]]);
    const siblings = await placedModel([
      'for i in pl.range(4):',
      `    ${tile('a', 'mem_vec_1', 0, 'pl.tile.load(x)')}`,
      'for j in pl.range(2):',
      `    ${tile('b', 'mem_vec_2', 0, 'pl.tile.exp(a)')}`,
      '    pl.tile.store(b, x)',
    ]);
    assert.deepEqual(handed(siblings), [['a', true, false], ['b', true, false]]);
    const whileLoop = await placedModel([
      tile('a', 'mem_vec_1', 0, 'pl.tile.load(x)'),
      'while x:',
      `    ${tile('b', 'mem_vec_2', 0, 'pl.tile.exp(a)')}`,
      '    pl.tile.store(b, x)',
      'else:',
      `    ${tile('c', 'mem_vec_3', 8192, 'pl.tile.exp(a)')}`,
    ]);
    assert.deepEqual(handed(whileLoop).slice(0, 2), [['a', true, false], ['b', true, false]], 'a `while` loop too');
  });
});

describe('a function\'s attributes, where each printer put them', () => {
  test('`attrs=` of the decorator, then `pl.func_attr({...})` as the first body line; a later call is no prologue', async () => {
    const tile = 'a: pl.Tile[[8, 8], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.load(x)';
    const old = dumpWith([tile]).replace('@pl.function(type=pl.FunctionType.AIV)', '@pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN, "core_num": 5})');
    assert.match(old, /attrs=/);
    assert.deepEqual((await model(old)).functions[0].attrs, { split: 'pl.SplitMode.UP_DOWN', core_num: '5' });
    const now = dumpWith(['pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "windowize": [a, b]})', tile, 'pl.func_attr({"late": 1})']);
    assert.deepEqual((await model(now)).functions[0].attrs, { split: 'pl.SplitMode.LEFT_RIGHT', windowize: '[a, b]' });
  });
});

describe('a tile is never left out in silence', () => {
  test('an offset that is an expression: listed with why, in --check (exit 3) and --summary', async () => {
    const fn = fnOf(await modelOf('double_buffer__35_after_AllocateMemoryAddr.py'), 'db_aiv');
    assert.deepEqual(fn.skipped, [{ name: 's__tile', space: 'Vec', line: 29, reason: 'its offset `n__ssa_v0 * 256` is an expression, not an address' }]);
    const check = run([fixture('double_buffer__35_after_AllocateMemoryAddr.py'), '--check']);
    assert.equal(check.status, 3);
    assert.match(check.stdout, /:29: unplaced tile in db_aiv: Vec 's__tile' is not drawn and not counted: its offset `n__ssa_v0 \* 256` is an expression/);
    assert.match(check.stdout, /^1 problem: conflicts, tiles over capacity or unplaced tiles$/m);
    const summary = run([fixture('double_buffer__35_after_AllocateMemoryAddr.py'), '--summary']);
    assert.equal(summary.status, 0);
    assert.match(summary.stdout, /Not drawn and not counted above:\nfunction +not placed +space +line +why\ndb_aiv +s__tile +Vec +29 +its offset/);
    assert.equal(run([fixture('mk__35_after_AllocateMemoryAddr.py'), '--check']).status, 0);
  });

  test('a MemRef with no address (the author\'s declaration before InitMemRef) is listed, not dropped', async () => {
    const m = await model(dumpWith([
      't: pl.Tile[[32, 64], pl.FP32, pl.MemRef("ub", slots=2)[i % 2], pl.Mem.Vec] = pl.tile.load(x)',
      `u: ${'pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 8192), pl.Mem.Vec]'} = pl.tile.exp(t)`,
      'v: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_vec_1, 0, k), pl.Mem.Vec] = pl.tile.exp(u)',
      'w: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 8192, slots=s)[0], pl.Mem.Vec] = pl.tile.exp(u)',
      'h: pl.Tile[[32, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)',
      'd: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_ddr_1, n * 4, 8192), pl.Mem.DDR] = pl.tile.exp(u)',
    ]));
    const fn = m.functions[0];
    assert.deepEqual(fn.skipped.map((s) => [s.name, s.line, s.reason]), [
      ['t', 8, 'the MemRef gives no address (an allocation the author declared, not yet placed)'],
      ['v', 10, 'its size `k` is not an integer'],
      ['w', 11, 'its slots= `s` is not a positive integer'],
    ], 'no MemRef at all (h) or off-chip memory (d): no tile to list');
    assert.equal(fn.boxes.length, 1);
    // A skipped tile binds its name as any annotation does: t lives from line 8 to its read on 9.
    assert.equal(boxOf(fn, 'u').start, 9);
  });

  test('when no tile has an address the dump is refused, naming the first', async () => {
    const e = await refusal(dumpWith(['t: pl.Tile[[32, 64], pl.FP32, pl.MemRef("ub", slots=2)[i % 2], pl.Mem.Vec] = pl.tile.load(x)']));
    assert.equal(e.kind, 'no_tiles');
    assert.equal(e.line, 8);
    assert.match(e.message, /1 tile of compute functions carries a MemRef without one \(the first, 't' on line 8: the MemRef gives no address/);
  });
});

describe('which dumps hold addresses', () => {
  // Two bases of Vec both start at 0; a view of one sits at 256.
  const body = [
    'a: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(x)',
    'b: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, 256, 256), pl.Mem.Vec] = pl.tile.slice(a)',
    'c: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.exp(a)',
    'd: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.exp(c)',
  ];
  test('written by AllocateMemoryAddr: drawn, whatever planner shared the addresses', async () => {
    const m = await model(dumpWith(body), { dumpName: '34_after_AllocateMemoryAddr.py' });
    assert.deepEqual(m.functions[0].boxes.map((b) => b.name), ['a', 'c', 'b'], 'c and d share a slot and touch: one box');
  });
  test('before it: refused as not allocated yet', async () => {
    const e = await refusal(dumpWith(body), { dumpName: '32_after_InitMemRef.py' });
    assert.equal(e.kind, 'unallocated');
    assert.match(e.message, /the bases of a space all start at offset 0 in kernel, so the dump predates AllocateMemoryAddr/);
  });
  // d reads a again after c takes the bytes of a's base at 0: live tiles of two bases on one byte.
  const meeting = body.map((l) => l.replace('pl.tile.exp(c)', 'pl.tile.exp(c, a)'));
  test('a later pass alone: drawn when its zero offsets put no live tiles of two bases on one byte, in-place handoffs aside', async () => {
    // a is read last where c is bound: c takes over a's bytes in place, as the DSA planner does.
    const fn = (await model(dumpWith(body), { dumpName: '47_after_MaterializeValidShapeSymbols.py' })).functions[0];
    assert.deepEqual(fn.boxes.map((b) => [b.name, b.conflict, b.in_place_to ?? b.in_place_from ?? null]), [['a', false, 1], ['c', false, 0], ['b', false, null]]);
  });
  test('a later pass alone: refused where they meet: ptoas assigned the addresses (memory_planner=PTOAS)', async () => {
    const e = await refusal(dumpWith(meeting), { dumpName: '47_after_MaterializeValidShapeSymbols.py' });
    assert.equal(e.kind, 'unallocated');
    assert.match(e.message, /share bytes while both are live.*memory_planner=PTOAS.*ptoas assigns the addresses.*It can still be drawn by size and lifetime/);
    assert.doesNotMatch(e.message, /--lifetimes/, 'how to draw it is the reader\'s to say: the CLI\'s flag, the page\'s button');
  });
  test('in its build\'s folder, the build says: one that ran AllocateMemoryAddr draws every later pass; a ptoas one none', async () => {
    const drawn = await model(dumpWith(meeting), { dumpName: '47_after_MaterializeValidShapeSymbols.py', planner: 'compiler' });
    assert.deepEqual(drawn.functions[0].boxes.map((b) => [b.name, b.conflict]), [['a', true], ['c', true], ['b', false]], 'drawn, its conflicts shown');
    const e = await refusal(dumpWith(body), { dumpName: '47_after_MaterializeValidShapeSymbols.py', planner: 'ptoas' });
    assert.match(e.message, /its build ran no AllocateMemoryAddr/);
    const before = await refusal(dumpWith(body), { dumpName: '32_after_InitMemRef.py', planner: 'compiler' });
    assert.match(before.message, /predates AllocateMemoryAddr/, 'a pass before it is never placed');
  });
  test('one base elsewhere, in any space: addresses were assigned, as upstream reads it; drawn with its conflicts', async () => {
    const placed = [...body, 'e: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_mat_3, pl.const(512, pl.INT64), 4096), pl.Mem.Mat] = pl.tile.move(d)'];
    for (const dumpName of ['32_after_InitMemRef.py', 'kernel.py']) {
      const m = await model(dumpWith(placed), { dumpName });
      assert.deepEqual(m.functions[0].boxes.map((b) => [b.name, b.conflict]), [['a', true], ['c', true], ['b', false], ['e', false]], dumpName);
    }
  });
  test('every tile at 0 with two bases in a space, in AllocateMemoryAddr\'s dump: drawn (upstream refuses it)', async () => {
    const zero = meeting.map((l) => l.replace('MemRef(mem_vec_1, 256, 256)', 'MemRef(mem_vec_1, 0, 256)'));
    const fn = (await model(dumpWith(zero), { dumpName: '35_after_AllocateMemoryAddr.py' })).functions[0];
    assert.ok(fn.boxes.every((b) => b.offset === 0));
    assert.deepEqual(fn.boxes.filter((b) => b.conflict).map((b) => b.name), ['a', 'c'], 'its conflicts shown, not hidden by a refusal');
    const e = await refusal(dumpWith(zero), { dumpName: '31_after_MemoryReuse.py' });
    assert.equal(e.kind, 'unallocated', 'before it, refused');
  });
});

describe('a build planned by ptoas (memory_planner=PTOAS): no addresses, drawn by lifetime', () => {
  const name = 'mk__47_after_MaterializeValidShapeSymbols.py';
  test('refused by default, saying ptoas assigns the addresses', async () => {
    const e = await refusal(read(name), { dumpName: name });
    assert.equal(e.kind, 'unallocated');
    assert.match(e.message, /memory_planner=PTOAS/);
  });
  test('--lifetimes: the ring from 0, the pinned slots over their tiles\' lines, the least any placement needs', async () => {
    const fn = (await model(read(name), { dumpName: name, lifetimes: true })).functions[0];
    assert.equal(fn.planned, false);
    const vec = spaceOf(fn, 'Vec');
    // On line 18 all is live: the ring 32768, the pinned pipe 16384 (both slots), x 8192 (its half a view), y 8192.
    assert.deepEqual([vec.lower_bound, vec.lower_bound_line, vec.headroom_above_lower_bound], [65536, 18, 188416 - 65536]);
    assert.deepEqual(fn.reserved.map((w) => [w.name, w.kind, w.base, w.size]), [['mk_c2v_slot_buffer', 'ring', 0, 32768]],
      'ptoas makes a pinned allocation a multi-buffer region of its loop: not held for the whole function');
    assert.ok(fn.boxes.every((b) => !b.conflict && !b.window_conflicts), 'the packing overlaps nothing live at once');
    assert.equal(boxOf(fn, 'y__tile').in_place_from, undefined, 'a slot of the pipe hands none of its bytes over');
    assert.equal(boxOf(fn, 'x_half__tile').offset - boxOf(fn, 'x__tile').offset, 4096, 'a view keeps its place in its buffer');
  });
  test('the least any placement needs counts an input read last by a statement as gone when its output is written', async () => {
    // Three 64 KB tiles: c = a + b. Read before written, c may take a's bytes: 128 KB, not 192 KB.
    const t = (n, base, value) => `${n}: pl.Tile[[128, 128], pl.FP32, pl.MemRef(${base}, pl.const(0, pl.INT64), 65536), pl.Mem.Vec] = ${value}`;
    const lines = [t('a', 'mem_vec_1', 'pl.tile.load(x)'), t('b', 'mem_vec_2', 'pl.tile.load(x)'), t('c', 'mem_vec_3', 'pl.tile.add(a, b)'), 'pl.tile.store(c, x)'];
    const fn = (await model(dumpWith(lines), { dumpName: '47_after_MaterializeValidShapeSymbols.py', planner: 'ptoas', lifetimes: true })).functions[0];
    const vec = spaceOf(fn, 'Vec');
    assert.deepEqual([vec.lower_bound, vec.lower_bound_line], [131072, 9]);
    assert.equal(vec.hwm_with_reserved, 131072, 'the packing puts c on a\'s bytes');
    assert.ok(fn.boxes.every((b) => !b.over_capacity && !b.conflict));
    // In a loop, inputs from before it are read again on the next turn: they stay.
    const looped = [lines[0], lines[1], 'for i in pl.range(2):', `    ${lines[2]}`, `    ${lines[3]}`];
    const inLoop = (await model(dumpWith(looped), { dumpName: '47_after_MaterializeValidShapeSymbols.py', planner: 'ptoas', lifetimes: true })).functions[0];
    assert.equal(spaceOf(inLoop, 'Vec').lower_bound, 196608);
  });
  test('the CLI: --lifetimes, and a ptoas build\'s folder is drawn by lifetime and checked by its least', () => {
    const summary = run([fixture(name), '--lifetimes', '--summary']);
    assert.equal(summary.status, 0, summary.stderr);
    assert.match(summary.stdout, /^Placed by ptoas: no dump holds its addresses\. `>=N` is the least any placement needs/);
    assert.match(summary.stdout, /mk_aiv +Vec +>=65536 +188416/);
    const refused = run([fixture(name), '--json']);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /\nnote: give --lifetimes to draw it by size and lifetime\n$/);
    const build = mkdtempSync(join(tmpdir(), 'mm-ptoas-'));
    mkdirSync(join(build, 'passes_dump'));
    copyFileSync(fixture(name), join(build, 'passes_dump', '47_after_MaterializeValidShapeSymbols.py'));
    copyFileSync(fixture(name), join(build, 'passes_dump', '31_after_InitMemRef.py'));
    const folder = run([build, '--json']);
    assert.equal(folder.status, 0, folder.stderr);
    assert.match(folder.stderr, /note: .*47_after_MaterializeValidShapeSymbols\.py: its build ran no AllocateMemoryAddr .*drawn by size and lifetime/);
    assert.equal(JSON.parse(folder.stdout).functions[0].planned, false);
    const check = run([build, '--check']);
    assert.equal(check.status, 0, check.stdout);
  });
});

describe('what only the printer writes is read, and said', () => {
  const vec = (name, base, offset, rest) =>
    `${name}: pl.Tile[[8, 8], pl.FP32, pl.MemRef(${base}, ${offset}, 256), pl.Mem.Vec] = ${rest}`;
  test('`<unsupported IRNode type>`, a keyword op, an empty `with`, `tile_view=`: notes with their lines', async () => {
    const m = await model(dumpWith([
      vec('a', 'mem_vec_1', 'pl.const(0, pl.INT64)', 'pl.tile.load(x)'),
      'v: pl.Tile[[8, 8], pl.FP32, tile_view=pl.TileView(start_offset=<unsupported IRNode type>), pl.MemRef(mem_vec_2, pl.const(256, pl.INT64), 256), pl.Mem.Vec] = pl.tile.and(a, a)',
      'with pl.section():',
      vec('b', 'mem_vec_3', '<unsupported IRNode type>', 'pl.tile.not(v)'),
      'return a',
    ]));
    assert.deepEqual(m.notes.map((n) => n.line), [9, 9, 9, 10, 11, 11]);
    assert.match(m.notes[0].text, /`tile_view=`/);
    assert.match(m.notes[1].text, /<unsupported IRNode type>/);
    assert.match(m.notes[2].text, /keyword after a dot/);
    assert.match(m.notes[3].text, /empty block: read as `pass`/);
    assert.equal(m.note_count, 6);
    const fn = m.functions[0];
    assert.deepEqual(fn.boxes.map((b) => [b.name, b.offset, b.op]), [['a', 0, 'tile.load'], ['v', 256, 'tile.and']]);
    assert.deepEqual(fn.skipped.map((s) => [s.name, s.reason]), [['b', 'its offset `<unsupported IRNode type>` is an expression, not an address']]);
  });

  test('the CLI says each kind once on stderr, with its first line', () => {
    const result = run([join(root, 'tests', 'fixtures', 'corpus', 'real', 'qwen3_32b_decode__13_after_AllocateMemoryAddr.py'), '--check']);
    assert.equal(result.status, 0, result.stdout);
    const notes = result.stderr.trim().split('\n');
    assert.equal(notes.length, 3);
    assert.match(notes[0], /:195: the printer wrote `tile_view=` .* \(6 times from here on\)$/);
    assert.match(notes[2], /:351: the printer wrote an empty block: read as `pass`$/);
  });

  test('the older MemRef form: its space, address, size and the buffer its alloc line names', async () => {
    const m = await model(dumpWith([
      'mem_vec_10: pl.MemRefType = pl.block.alloc(pl.MemorySpace.Vec, 64, 16, 10)',
      'a: pl.Tile[[4, 1], pl.FP32, pl.MemRef(pl.MemorySpace.Vec, 64, 16, 10)] = pl.block.load(x)',
      'b: pl.Tile[[4, 1], pl.FP32, pl.MemRef(pl.MemorySpace.Vec, -1, 16, 11)] = pl.block.load(x)',
      'c: pl.Tensor[[4, 1], pl.FP32, pl.MemRef(pl.MemorySpace.DDR, -1, 16, 12)] = pl.block.store(a)',
    ]));
    const fn = m.functions[0];
    assert.deepEqual(fn.boxes.map((b) => [b.name, b.space, b.base, b.offset, b.size]), [['a', 'Vec', 'mem_vec_10', 64, 16]]);
    assert.deepEqual(fn.skipped.map((s) => [s.name, s.reason]), [['b', 'its address is -1: not assigned yet']]);
    assert.deepEqual(fn.allocations.map((a) => [a.name, a.size, a.offset, a.tiles]), [['mem_vec_10', 16, 64, 1]]);
  });

  test('anything else stays a syntax error, on CPython\'s line', async () => {
    for (const [text, line, message] of [
      ['class C:\npass\n', 2, /expected an indented block after class definition on line 1/],
      ['try:\nx = 1\n', 2, /expected an indented block after 'try' statement on line 1/],
      ['x = <unsupported IRNode>\n', 1, /invalid syntax/],
      ['x = f(tile_view=1)[tensor_views=2]\n', 1, /invalid syntax/],
    ]) {
      const e = await refusal(text);
      assert.equal(e.kind, 'syntax', text);
      assert.equal(e.line, line, text);
      assert.match(e.message, message, text);
    }
  });
});

// Both readers are named here, so the suite is not run again under
// tests/core/general-parser.test.mjs (it would repeat these very checks).
describe('both readers and the independent oracle', { skip: generalParser && 'names both readers itself' }, () => {
  const names = readdirSync(fixtures).filter((n) => n.endsWith('.py')).sort();
  /** The model, or the refusal's kind and line. */
  const outcome = (name, options) => model(read(name), { dumpName: name, ...options })
    .catch((e) => (e instanceof DumpError ? { error: e.kind, line: e.line } : Promise.reject(e)));
  test('the fast path and the general parser give the same model of every fixture', async () => {
    for (const name of names) {
      for (const lifetimes of [false, true]) {
        const fast = await outcome(name, { generalParser: false, lifetimes });
        const general = await outcome(name, { generalParser: true, lifetimes });
        assert.deepEqual(fast, general, name);
      }
    }
  });
  test('the oracle on CPython\'s ast (tests/oracle/model.py) agrees on every contract key', async () => {
    // One python3 process for every fixture.
    const oracle = spawnSync('python3', [join(root, 'tests', 'oracle', 'model.py'), '--batch'],
      { input: JSON.stringify(names.map(fixture)), encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(oracle.status, 0, oracle.stderr);
    const oracles = JSON.parse(oracle.stdout);
    assert.equal(oracles.length, names.length);
    for (const [i, name] of names.entries()) {
      const expected = oracles[i];
      const mine = await outcome(name);
      if (expected.error) assert.equal(mine.error, expected.error, name);
      else assert.deepEqual(contract(mine), contract({ ...expected, dump: name }), name);
    }
  });
});
