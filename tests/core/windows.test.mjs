// What holds the space: reserved windows, imports, uses and idle spans,
// headroom (docs/model.md). Rules on hand-written dumps through the
// WebAssembly core, and every corpus dump against an independent recount
// made by CPython's own ast (tests/oracle/recount.py).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { boxesByName, corpusDumps, dumpWith, generalParser, model, root, run, tileType } from '../support/helpers.mjs';

const vec = (name, base, offset, size, rest = '= pl.tile.load(x)') => `${name}: ${tileType('Vec', base, offset, size)} ${rest}`;
const mat = (name, base, offset, size) => `${name}: ${tileType('Mat', base, offset, size)} = pl.tile.load(x)`;
const reserve = (args, target = 'ring: pl.Scalar[pl.INT32] = ') => `${target}pl.system.reserve_buffer(${args})`;
const space = (fn, name) => [...fn.spaces, ...fn.reserved_only_spaces].find((s) => s.space === name);

describe('reserved windows', () => {
  test('keywords in any order, either quote, a plain or pl.const base', async () => {
    const forms = [
      "name='ring', size=4096, base=0",
      'base=0, name="ring", size=4096',
      "size=4096, base=pl.const(0, pl.INT64), name='ring'",
      "base=-0, size=0x1000, name='ri' 'ng'",
    ];
    for (const args of forms) {
      const m = await model(dumpWith([reserve(args), vec('t', 'mem_vec_1', 4096, 1024)]));
      const [w] = m.functions[0].reserved;
      assert.deepEqual([w.name, w.space, w.base, w.size, w.line, w.placed], ['ring', 'Vec', 0, 4096, 8, true], args);
    }
  });

  test('the consuming core\'s space: Mat in AIC, Vec in AIV and InCore functions', async () => {
    for (const [type, expected] of [['AIC', 'Mat'], ['AIV', 'Vec'], ['InCore', 'Vec']]) {
      const m = await model(dumpWith([reserve("name='r', size=64, base=0"), vec('t', 'mem_vec_1', 64, 64)], { type }));
      assert.equal(m.functions[0].reserved[0].space, expected, type);
    }
  });

  test('a plain assignment and an expression statement reserve too; other calls do not', async () => {
    const m = await model(dumpWith([
      reserve("name='a', size=64, base=0", 'x = '),
      reserve("name='b', size=64, base=64", ''),
      "y = reserve_buffer(name='c', size=64, base=128)", // a bare name: no `pl.system.`
      "z = [pl.system.reserve_buffer(name='d', size=64, base=192)]", // not the whole value
      vec('t', 'mem_vec_1', 256, 64),
    ]));
    assert.deepEqual(m.functions[0].reserved.map((w) => [w.name, w.bound ?? null]), [['a', 'x'], ['b', null]]);
  });

  test('a base that is not an integer is listed, not drawn, with a note', async () => {
    const m = await model(dumpWith([reserve("name='later', size=8192, base=AUTO"), vec('t', 'mem_vec_1', 0, 64)]));
    const fn = m.functions[0];
    assert.deepEqual([fn.reserved[0].base, fn.reserved[0].placed], [null, false]);
    assert.match(fn.reserved[0].note, /base is not assigned yet/);
    assert.equal(space(fn, 'Vec').reserved_bytes, 0);
    assert.equal(space(fn, 'Vec').peak_live, 64);
  });

  test('counts in liveness on every line: HWM, peak live and fragmentation with the window', async () => {
    const m = await model(dumpWith([
      reserve("name='ring', size=32768, base=0"),
      'pl.system.aiv_initialize_pipe(ring, dir_mask=3, slot_size=8192)',
      vec('a', 'mem_vec_1', 32768, 4096),
      'y = a',
      vec('b', 'mem_vec_2', 36864, 4096),
    ]));
    const fn = m.functions[0];
    const vecSpace = space(fn, 'Vec');
    assert.deepEqual(
      [vecSpace.hwm, vecSpace.hwm_with_reserved, vecSpace.peak_live, vecSpace.fragmentation, vecSpace.reserved_bytes],
      [40960, 40960, 36864, 4096, 32768],
    );
    assert.equal(vecSpace.headroom, 188416 - 40960);
    assert.deepEqual(vecSpace.peak_reserved, [0]);
    assert.deepEqual(vecSpace.live[0], [fn.src_start, 32768]);
    const [w] = fn.reserved;
    assert.deepEqual([w.slot_size, w.slot_num, w.one_more_slot_hwm, w.one_more_slot_fits], [8192, 4, 40960 + 8192, true]);
  });

  test('a window in a space without tiles gets a space of its own', async () => {
    const m = await model(dumpWith([reserve("name='ring', size=8192, base=0"), vec('t', 'mem_vec_1', 0, 64)], { type: 'AIC' }));
    const fn = m.functions[0];
    assert.deepEqual(fn.spaces.map((s) => s.space), ['Vec']);
    assert.deepEqual(fn.reserved_only_spaces.map((s) => [s.space, s.hwm_with_reserved, s.limit, s.peak_live, s.tiles]),
      [['Mat', 8192, 524288, 8192, 0]]);
  });

  test('a tile sharing a window\'s bytes is a conflict, whatever its lines', async () => {
    const m = await model(dumpWith([reserve("name='ring', size=4096, base=0"), vec('low', 'mem_vec_1', 2048, 4096), vec('high', 'mem_vec_2', 8192, 64)]));
    const fn = m.functions[0];
    const boxes = boxesByName(m);
    assert.deepEqual([boxes.low.window_conflicts, boxes.low.window_conflict_count], [[0], 1]);
    assert.equal(boxes.high.window_conflicts, undefined);
    assert.equal(boxes.low.conflict, false, 'model.md\'s conflict stays between boxes');
    assert.deepEqual([fn.reserved[0].conflicts_with, fn.reserved[0].conflict_count], [[fn.boxes.indexOf(boxes.low)], 1]);
  });

  test('windows in an AIC and an AIV function, with imports naming the peer', async () => {
    const text = [
      'import pypto.language as pl',
      '@pl.program',
      'class P:',
      '    @pl.function(type=pl.FunctionType.AIC)',
      '    def cube(self):',
      "        v2c: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='v2c', size=32768, base=0)",
      "        c2v_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='c2v', peer_func='vector')",
      '        pl.system.aic_initialize_pipe(c2v_import, v2c, dir_mask=3, slot_size=8192)',
      `        m: ${tileType('Mat', 'mem_mat_1', 32768, 1024)} = pl.tile.load(x)`,
      '    @pl.function(type=pl.FunctionType.AIV)',
      '    def vector(self):',
      "        v2c_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(peer_func='cube', name=\"v2c\")",
      "        c2v: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='c2v', size=16384, base=0)",
      '        pl.system.aiv_initialize_pipe(c2v, v2c_import, dir_mask=3, slot_size=4096, slot_num=2)',
      `        v: ${tileType('Vec', 'mem_vec_1', 16384, 1024)} = pl.tile.load(x)`,
      '',
    ].join('\n');
    const m = await model(text);
    const [cube, vector] = m.functions;
    assert.deepEqual(cube.reserved.map((w) => [w.name, w.space, w.slot_size, w.slot_num]), [['v2c', 'Mat', 8192, 4]]);
    assert.deepEqual(cube.imports, [{ name: 'c2v', peer: 'vector', line: 7 }]);
    assert.deepEqual(vector.reserved.map((w) => [w.name, w.space, w.slot_size, w.slot_num]), [['c2v', 'Vec', 4096, 2]]);
    assert.deepEqual(vector.imports, [{ name: 'v2c', peer: 'cube', line: 12 }]);
  });

  test('windows sharing bytes: the union is reserved, the later one by base is flagged', async () => {
    const m = await model(dumpWith([
      reserve("name='a', size=8192, base=4096", 'a = '),
      reserve("name='b', size=8192, base=0", 'b = '),
      vec('t', 'mem_vec_1', 16384, 64),
    ]));
    const fn = m.functions[0];
    assert.deepEqual(fn.reserved.map((w) => w.overlaps_reserved ?? null), [1, null]);
    assert.equal(space(fn, 'Vec').reserved_bytes, 12288);
  });

  test('a size beyond 2^53 is refused with its line', async () => {
    await assert.rejects(model(dumpWith([reserve("name='r', size=9007199254740993, base=0"), vec('t', 'mem_vec_1', 0, 64)])),
      (e) => e.kind === 'limit' && e.line === 8 && /beyond 2\^53/.test(e.message));
  });
});

describe('uses and idle spans', () => {
  test('a tile used on one line has no idle span', async () => {
    const m = await model(dumpWith([vec('once', 'mem_vec_1', 0, 64)]));
    const b = m.functions[0].boxes[0];
    assert.deepEqual([b.uses, b.idle, b.idle_bytes_lines], [[8], null, 0]);
  });

  test('uses are every binding line and read line; idle is the longest gap, the first when equal', async () => {
    const m = await model(dumpWith([
      vec('t', 'mem_vec_1', 0, 64), // 8
      'a = 1', // 9
      'b = f(t)', // 10
      'c = 1', 'd = 1', // 11-12
      'e = g(t,', '      t)', // 13-14: t read on both lines
      'h = 1', 'i = 1', // 15-16
      'j = t', // 17
    ]));
    const b = m.functions[0].boxes[0];
    assert.deepEqual(b.uses, [8, 10, 13, 14, 17]);
    assert.deepEqual(b.idle, [11, 12]);
    assert.equal(b.idle_bytes_lines, 64 * 2);
  });

  test('a merged alias brings its uses; a multi-line binding uses all its lines', async () => {
    const m = await model(dumpWith([
      vec('a', 'mem_vec_1', 0, 64), // 8
      'x = a', // 9
      'y = 1', 'z = 1', // 10-11
      `b: ${tileType('Vec', 'mem_vec_1', 0, 64)} = pl.tile.add(a,`, // 12: a read, b bound
      '    a)', // 13
      'w = b', // 14
    ]));
    const [box] = m.functions[0].boxes;
    assert.deepEqual([box.name, box.aliases], ['a', ['b']]);
    assert.deepEqual(box.uses, [8, 9, 12, 13, 14]);
    assert.deepEqual(box.idle, [10, 11]);
  });
});

describe('the command line', () => {
  const ring = dumpWith([
    reserve("name='ring', size=32768, base=0"),
    'pl.system.aiv_initialize_pipe(ring, dir_mask=3, slot_size=8192)',
    vec('a', 'mem_vec_1', 32768, 160000),
    'y = a',
  ]);
  const write = (text) => {
    const file = join(mkdtempSync(join(tmpdir(), 'mm-windows-')), 'ring.py');
    writeFileSync(file, text);
    return file;
  };

  test('--summary shows reserved bytes, headroom, the ring and its next slot', () => {
    const out = run([write(ring), '--summary']).stdout;
    const [head, row] = out.split('\n');
    assert.match(head, /hwm +capacity +usage +reserved +headroom +peak live/);
    assert.match(row, /^kernel +Vec +192768 +188416 +102\.3% +32768 +-4352 /);
    assert.match(out, /ring +0\.\.32768 +4 x 8192 B +hwm 200960 of 188416: does not fit/);
  });

  test('--check says what the window takes of a space a tile overflows', () => {
    const result = run([write(ring), '--check']);
    assert.equal(result.status, 3);
    assert.match(result.stdout, /over capacity in kernel: Vec 'a' .* lies outside the capacity 0\.\.188416 \(reserved windows take 32768 B of it: 'ring'\)/);
  });
});

// The general parser's reading of the corpus is held to the fast path's
// byte for byte (tests/core/fast-path.test.mjs), so the recount is checked
// once, not again under tests/core/general-parser.test.mjs.
describe('an independent recount (CPython\'s ast) agrees on every corpus dump', { skip: generalParser && 'read by the fast path only: tests/core/fast-path.test.mjs holds the general parser to it' }, () => {
  const dumps = corpusDumps().filter(({ expected }) => !JSON.parse(readFileSync(expected, 'utf8')).error);
  /** Every dump's model and its recount, from one python3 process for all. */
  let recounted;
  const recountAll = () => (recounted ??= (async () => {
    const models = [];
    for (const { dump, name } of dumps) models.push(await model(readFileSync(dump), { dumpName: name.split('/').pop() }));
    const oracle = spawnSync('python3', [join(root, 'tests', 'oracle', 'recount.py'), '--batch'], {
      input: JSON.stringify(dumps.map(({ dump }, i) => ({ dump, model: models[i] }))), encoding: 'utf8', maxBuffer: 256 << 20,
    });
    assert.equal(oracle.status, 0, `python3 tests/oracle/recount.py --batch failed: ${oracle.error ?? oracle.stderr}`);
    const recounts = JSON.parse(oracle.stdout);
    assert.equal(recounts.length, dumps.length);
    return models.map((m, i) => ({ m, recount: recounts[i] }));
  })());
  for (const [i, { name }] of dumps.entries()) {
    test(name, async () => {
      const { m, recount } = (await recountAll())[i];
      m.functions.forEach((fn, f) => {
        const want = recount[f];
        // The recount's keys of each window; `bound` is left out of the JSON when there is none.
        const windows = fn.reserved.map((w, i) => Object.fromEntries(Object.keys(want.reserved[i] ?? {}).map((k) => [k, w[k] ?? null])));
        assert.deepEqual(windows, want.reserved, `${fn.name}: reserved`);
        assert.deepEqual(fn.imports, want.imports, `${fn.name}: imports`);
        for (const s of [...fn.spaces, ...fn.reserved_only_spaces]) {
          assert.deepEqual({ reserved_bytes: s.reserved_bytes, hwm_with_reserved: s.hwm_with_reserved, headroom: s.headroom },
            want.spaces[s.space], `${fn.name}.${s.space}`);
        }
        assert.equal(fn.statements, want.statements, `${fn.name}: statements`);
        fn.boxes.forEach((b, i) => assert.deepEqual({ uses: b.uses, idle: b.idle, idle_bytes_lines: b.idle_bytes_lines, statements: b.statements },
          want.boxes[i], `${fn.name}.${b.name}`));
      });
    });
  }
});
