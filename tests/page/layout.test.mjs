// The page's pure functions (web/model/layout.js, web/model/folder.js) in Node.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { casesInTree, chooseInFolder } from '../../web/engine/core.js';
import { casesOf, olderFirst, pathsOf, poolNames, resolveCase } from '../../web/model/folder.js';
import {
  MIN_LANE, anchorAfterZoom, baseFactor, clampSplit, formatBytes, formatZoom, layoutLanes, mentionRanges, stepZoom, usage, defaultSplit, linesInView, exportLines, elideToMention,
} from '../../web/model/layout.js';
import { dumpWith, loadCore, run, tileType } from '../support/helpers.mjs';

describe('layout', () => {
  const spaces = [{ space: 'Mat', hwm: 4096, limit: 524288 }, { space: 'Left', hwm: 1024, limit: 65536 }];

  test('the factor fills the width unless the narrowest lane would be under 72 px', () => {
    assert.equal(baseFactor([524288, 65536], 1180), 1180 / 589824);
    const tight = baseFactor([524288, 65536], 300);
    assert.equal(65536 * tight, MIN_LANE);
  });

  test('lanes share one factor: widths are in the ratio of their spans; hidden ones are left out', () => {
    const { lanes, width } = layoutLanes(spaces, { axis: 'limit', factor: 0.001 });
    assert.deepEqual(lanes.map((l) => [l.space, l.left, l.width]), [['Mat', 0, 524.288], ['Left', 524.288, 65.536]]);
    assert.ok(Math.abs(width - 589.824) < 1e-9);
    assert.deepEqual(layoutLanes(spaces, { axis: 'used', factor: 1, hidden: new Set(['Mat']) }).lanes.map((l) => l.width), [1024]);
  });

  test('zoom steps by 1.6 within 0.2×–64×, and the byte under the pointer stays', () => {
    assert.equal(stepZoom(1, 1), 1.6);
    assert.equal(stepZoom(60, 1), 64);
    assert.equal(stepZoom(0.25, -1), 0.2);
    assert.deepEqual([formatZoom(1), formatZoom(1.6), formatZoom(2.56), formatZoom(64)], ['1×', '1.6×', '2.56×', '64×']);
    const before = layoutLanes(spaces, { factor: 0.001 });
    const after = layoutLanes(spaces, { factor: 0.0016 });
    const x = 524.288 + 32.768; // the middle of Left
    assert.equal(anchorAfterZoom(x, before, after), 524.288 * 1.6 + 32.768 * 1.6);
  });

  test('splitter widths stay within 140–2400 px', () => {
    assert.deepEqual([clampSplit(10), clampSplit(500.4), clampSplit(9999)], [140, 500, 2400]);
  });

  test('bytes, usage and mentions', () => {
    assert.deepEqual([formatBytes(512), formatBytes(1536), formatBytes(188416), formatBytes(4480), formatBytes(1048576)],
      ['512 B', '1.5 KB', '184 KB', '4.38 KB', '1 MB']);
    assert.deepEqual(usage({ usage_permille: 950 }), { fraction: 0.95, percent: '95.0%', level: 'alert', alert: true, sparse: false });
    assert.deepEqual(usage({ usage_permille: 949 }), { fraction: 0.949, percent: '94.9%', level: 'warn', alert: false, sparse: false });
    assert.deepEqual([799, 800].map((p) => usage({ usage_permille: p }).level), ['ok', 'warn'], 'the colour agrees with the figure');
    assert.deepEqual([249, 250, 0].map((p) => usage({ usage_permille: p }).sparse), [true, false, false], 'under a quarter; an unused space is not offered a fit');
    assert.deepEqual(usage({ usage_permille: null }), { fraction: 0, percent: '–', level: 'ok', alert: false, sparse: false }, 'no capacity');
    assert.deepEqual(mentionRanges('t__tile = f(t__tile_1, t__tile) # t__tile', ['t__tile', 't__tile_1']),
      [[0, 7], [12, 21], [23, 30], [34, 41]]);
  });
});

describe('usage as the core shows it (wasm/output/figures.c)', () => {
  test('to the nearest tenth; 100.0 % only when full, 0.0 % only when empty; the same in --summary, the JSON and the page', () => {
    // Vec holds 188416 bytes on the default backend.
    const cases = [[49152, '26.1%'], [188384, '99.9%'], [188416, '100.0%'], [188448, '100.1%'], [32, '0.1%'], [16384, '8.7%']];
    for (const [bytes, shown] of cases) {
      const dir = mkdtempSync(join(tmpdir(), 'mm-usage-'));
      const dump = join(dir, '32_after_AllocateMemoryAddr.py');
      writeFileSync(dump, dumpWith([`t: ${tileType('Vec', 'm', 0, bytes)} = f()`, 'y = t']));
      const space = JSON.parse(run([dump, '--json']).stdout).functions[0].spaces[0];
      assert.equal(usage(space).percent, shown, `${bytes} B of 188416`);
      assert.match(run([dump, '--summary']).stdout, new RegExp(`\\s${shown.replace('.', '\\.')}\\s`), `--summary, ${bytes} B`);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('folder resolution', () => {
  const entry = (path) => ({ path, file: null });
  const files = ['case/passes_dump/9_after_AllocateMemoryAddr.py', 'case/passes_dump/10_after_AllocateMemoryAddr.py',
    'case/passes_dump/00_frontend.py', 'case/passes_dump/12_after_Simplify.py', 'case/ptoas/b.pto', 'case/ptoas/a.pto',
    'case/other/11_after_AllocateMemoryAddr.py'].map(entry);

  /** The folder resolved as the page does: the core finds the case and chooses among its dumps. */
  const resolve = async (entries, pass) => {
    const core = await loadCore();
    const { cases: [kase] } = casesOf(entries, casesInTree(core, pathsOf(entries)));
    return resolveCase(kase, chooseInFolder(core, poolNames(kase), { pass, folder: 'case' }));
  };

  test('the highest-numbered dump of the pass, numerically, inside passes_dump/', async () => {
    const { dump, pto, passes } = await resolve(files);
    assert.equal(dump.path, 'case/passes_dump/10_after_AllocateMemoryAddr.py');
    assert.deepEqual(pto.map((p) => p.path), ['case/ptoas/a.pto', 'case/ptoas/b.pto']);
    assert.deepEqual(passes, ['AllocateMemoryAddr', 'Simplify']);
    const older = async (x, y) => olderFirst({ name: x }, { name: y }, chooseInFolder(await loadCore(), [x, y])).map((d) => d.name);
    assert.deepEqual(await older('10_after_B.py', '9_after_A.py'), ['9_after_A.py', '10_after_B.py'], 'numbers as numbers');
    assert.deepEqual(await older('x.py', '3_after_A.py'), ['x.py', '3_after_A.py']);
    assert.deepEqual(await older('a.py', 'b.py'), ['a.py', 'b.py'], 'no pass: the order given');
    assert.deepEqual(await older('case__12_after_B.py', '009_after_A.py'), ['009_after_A.py', 'case__12_after_B.py']);
    assert.deepEqual(await older('3_after_A.py', '3_after_A.py'), ['3_after_A.py', '3_after_A.py']);
  });

  test('a folder without the pass says how to get a dump', async () => {
    assert.match((await resolve(files, 'Nope')).error, /no '\*_after_Nope\.py' dump under case: compile with pass dumps/);
  });

  test('who placed the build, as its dumps say: AllocateMemoryAddr ran (its dump there or not), ptoas (its last dump, drawn by lifetime), or it stopped', async () => {
    const compiled = await resolve(files);
    assert.deepEqual([compiled.planner, compiled.lifetimes], ['compiler', false]);
    const ptoas = ['case/passes_dump/31_after_InitMemRef.py', 'case/passes_dump/41_after_Simplify.py', 'case/passes_dump/47_after_MaterializeValidShapeSymbols.py'].map(entry);
    const p = await resolve(ptoas);
    assert.deepEqual([p.dump.name, p.planner, p.lifetimes], ['47_after_MaterializeValidShapeSymbols.py', 'ptoas', true]);
    const stopped = await resolve(['case/passes_dump/31_after_InitMemRef.py', 'case/passes_dump/33_after_MaterializeSemanticAliases.py'].map(entry));
    assert.match(stopped.error, /its compile stopped before AllocateMemoryAddr placed memory \(its last dump is 33_after_MaterializeSemanticAliases\.py/);
    // MemoryReuse ran: AllocateMemoryAddr ran after it, its dump is only missing; the latest later pass holds its addresses.
    const missing = await resolve(['case/passes_dump/31_after_MemoryReuse.py', 'case/passes_dump/35_after_DeriveCallDirections.py',
      'case/passes_dump/41_after_MaterializeRuntimeScopes.py', 'case/passes_dump/50_after_SomeNewerPass.py'].map(entry));
    assert.deepEqual([missing.dump.name, missing.planner, missing.lifetimes], ['41_after_MaterializeRuntimeScopes.py', 'compiler', false]);
    assert.match(missing.note, /^no '\*_after_AllocateMemoryAddr\.py' dump under case: showing 41_after_MaterializeRuntimeScopes\.py, the latest pass after it/);
    assert.equal(compiled.note, null, 'the pass asked for: nothing to tell');
    assert.match(p.note, /^case\/47_after_MaterializeValidShapeSymbols\.py: its build ran no AllocateMemoryAddr/);
    const prefixed = await resolve(['case/decode_fwd__32_after_AllocateMemoryAddr.py', 'case/decode_fwd__30_after_InitMemRef.py'].map(entry));
    assert.equal(prefixed.dump.name, 'decode_fwd__32_after_AllocateMemoryAddr.py', 'a corpus case\'s name before the number');
  });
});

describe('an exported image\'s lines and the source pane\'s width', () => {
  test('linesInView: rows partly under the 40 px header or past the bottom count; clamped to the function', () => {
    // 18 px rows, a 40 px sticky header, a 400 px viewport: 360 px of rows.
    assert.deepEqual(linesInView(0, 400, 100, 1000), { first: 100, last: 119 });
    assert.deepEqual(linesInView(18, 400, 100, 1000), { first: 101, last: 120 });
    assert.deepEqual(linesInView(27, 400, 100, 1000), { first: 101, last: 121 });
    assert.deepEqual(linesInView(0, 400, 100, 105), { first: 100, last: 105 });
    assert.deepEqual(linesInView(5000, 400, 100, 105), { first: 105, last: 105 });
  });

  test('elideToMention: a use past the column is brought into it, the line\'s head kept; a near one is left', () => {
    const line = '            c_acc_l0_a: pl.Tile[[16, 16], pl.BF16, pl.MemRef(mem_mat_18, 0, 512), pl.Mem.Left] = pl.tile.extract(a0_v2_inline39__tile, 0, 0)';
    const at = line.indexOf('a0_v2_inline39__tile');
    assert.equal(elideToMention(line, at, 70, 20), '            c_acc_l0_a: … pl.tile.extract(a0_v2_inline39__tile, 0, 0)');
    assert.equal(elideToMention(line, at, 60, 20), '            c_acc_l0_a: … extract(a0_v2_inline39__tile, 0, 0)', 'the call without its module');
    assert.equal(elideToMention(line, at, 40, 20), '             … extract(a0_v2_inline39__tile, 0, 0)', 'the indent alone when the name leaves no room');
    assert.equal(elideToMention(line, at, 200, 20), line, 'it fits');
    assert.equal(elideToMention(line, -1, 60, 20), line, 'no mention');
  });

  test('exportLines: the lines in view widened to each space\'s peak line and the lines of its mark\'s tile or window', () => {
    const fn = {
      src_start: 100, src_end: 400,
      spaces: [{ space: 'Vec', peak_live: 64, peak_line: 350, hwm_set_by: { box: 0 } },
        { space: 'Mat', peak_live: 0, peak_line: 390, hwm_set_by: { reserved: 0 } }],
      boxes: [{ start: 90, end: 130 }], reserved: [{ line: 105 }],
    };
    assert.deepEqual(exportLines({ first: 200, last: 220 }, fn), { first: 105, last: 350 },
      'Vec\'s peak (350), its mark\'s tile (130; line 90 is before the function), Mat\'s window (105); no peak of 0 bytes');
    assert.deepEqual(exportLines({ first: 100, last: 400 }, fn), { first: 100, last: 400 });
  });

  test('defaultSplit: the longest line, at most 720 px and 45 % of the card', () => {
    const lines = ['x'.repeat(200)];
    assert.equal(defaultSplit(lines), 720);
    assert.equal(defaultSplit(lines, 1000), 450);
    assert.equal(defaultSplit(['x'.repeat(60)], 2000), 60 * 7.2 + 56 + 16);
    assert.equal(defaultSplit(lines, 100), 140); // never under the splitter's minimum
  });
});
