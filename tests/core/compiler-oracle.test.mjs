// The PyPTO compiler as the oracle (tools/compiler-corpus/): builds it
// printed under its three planners, with its own per-space footprint,
// held to it through the command line (tools/compiler-oracle.mjs). The
// builds are tests/fixtures/compiler-e2d0f78/ (its README says which and
// why); `npm run compiler-oracle` runs the same over the whole corpus.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { footprintOf, oracle, plannerOf } from '../../tools/compiler-oracle.mjs';
import { root, run } from '../support/helpers.mjs';

const fixtures = join(root, 'tests', 'fixtures', 'compiler-e2d0f78');
const wide = join(fixtures, 'wide');
const whole = (build, name = '') => join(fixtures, 'whole', build, name);
const builds = readdirSync(wide).filter((n) => n.includes('__')).sort();
const work = mkdtempSync(join(tmpdir(), 'mm-compiler-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The builds of SELECTION.tsv with `reason`, under `planner`. */
const selected = (reason, planner) => readFileSync(join(fixtures, 'SELECTION.tsv'), 'utf8').split('\n')
  .filter((l) => l.split('\t')[1] === reason).map((l) => `${l.split('\t')[0]}__${planner}`);

describe('every build the compiler printed, as one folder through the command line', () => {
  const result = oracle(wide);
  const { figures } = result;

  test('every FOOTPRINT figure is the map\'s hwm_with_reserved of its function and space', () => {
    assert.deepEqual(result.failures.filter((f) => /footprint/.test(f)), []);
    for (const planner of ['pypto', 'dsa']) {
      assert.equal(figures[planner].equal, figures[planner].footprints, planner);
      assert.ok(figures[planner].footprints >= 150, `${planner}: ${figures[planner].footprints} lines`);
    }
    assert.equal(figures.ptoas.footprints, 0, 'ptoas prints none: AllocateMemoryAddr does not run');
  });

  test('no false alarm and no placed dump refused: every AllocateMemoryAddr dump is read and passes --check', () => {
    assert.deepEqual(result.failures, []);
    const placed = builds.filter((b) => readdirSync(join(wide, b)).some((n) => n.endsWith('_after_AllocateMemoryAddr.py')));
    assert.equal(figures.pypto.placed + figures.dsa.placed, placed.length);
    assert.equal(figures.pypto.falseAlarms + figures.dsa.falseAlarms + figures.pypto.refusedPlaced + figures.dsa.refusedPlaced, 0);
    // Read alone too (the case's own folder), each passes the gate.
    for (const build of placed) {
      const check = run([join(wide, build), '--check']);
      assert.equal(check.status, 0, `${build}: ${check.stdout}${check.stderr}`);
    }
  });

  test('the DSA planner\'s placements: bases at 0 in place or in exclusive branches, and handoffs across branches, out of loops', () => {
    for (const build of [...selected('dsa-refused', 'dsa'), ...selected('dsa-false-alarm', 'dsa')]) {
      const json = run([join(wide, build), '--json']);
      assert.equal(json.status, 0, `${build}: ${json.stderr}`);
      const boxes = JSON.parse(json.stdout).functions.flatMap((fn) => fn.boxes);
      assert.ok(boxes.every((b) => !b.conflict && !b.window_conflicts), build);
      assert.ok(boxes.some((b) => b.in_place_to !== undefined), `${build}: an in-place handoff drawn as one`);
    }
  });

  test('every ptoas build is placed by ptoas and checked by the least any placement needs', () => {
    const ptoas = builds.filter((b) => plannerOf(b) === 'ptoas');
    const f = figures.ptoas;
    assert.equal(f.byLifetime + f.nothingOnChip + f.notRead, ptoas.length);
    assert.ok(f.byLifetime >= 60, `${f.byLifetime}`);
    // No placement fits these: one tile past its space, or rings past Mat (the compiler's own default or
    // DSA build of the same program stops on it).
    assert.deepEqual(result.overCapacity.map((o) => o.build).sort(), selected('ptoas-over-capacity', 'ptoas').concat(
      selected('raised-at-AMA', 'ptoas')).sort());
    for (const { text } of result.overCapacity) assert.match(text, /: over capacity in \w+: (Right|Mat) needs at least \d+ B at once on line \d+, more than its capacity \d+: no placement fits \(placed by ptoas; live then: '/);
  });

  test('a program that keeps nothing on chip is read as such, under each planner; a compile that stopped names its last dump', () => {
    for (const planner of ['pypto', 'dsa', 'ptoas']) assert.equal(figures[planner].nothingOnChip, 1, planner);
    const [kernel] = selected('nothing-on-chip', 'pypto');
    const check = run([join(wide, kernel), '--check']);
    assert.equal(check.status, 0);
    assert.match(check.stdout, /nothing on chip to map: the program's 1 compute function \(AIC, AIV or InCore\) binds no tile/);
    const stopped = result.notRead.filter((n) => n.build.startsWith(selected('stopped-early', 'x')[0].replace(/__x$/, '')));
    assert.equal(stopped.length, 3);
    for (const n of stopped) assert.match(n.message, /its compile stopped before AllocateMemoryAddr placed memory \(its last dump is 04_after_ConvertToSSA\.py/);
  });

  test('a build\'s --summary says which figures are a ptoas build\'s least', () => {
    const summary = run([wide, '--summary']);
    assert.equal(summary.status, 0);
    assert.match(summary.stdout, /__ptoas +Ascend910B \(assumed\) +\S+ +\w+ +>=\d+ /);
    assert.match(summary.stdout, /\n>=N: placed by ptoas \(memory_planner=PTOAS\), whose addresses no dump holds: the least any placement needs\.\n/);
    assert.match(summary.stdout, /\nNothing on chip:\nexternal_kernel\.test_external_kernel__SpmdWriteExternProgram__dsa /);
  });
});

describe('a later pass of the same build', () => {
  test('in its folder, the build says who placed it; alone, its offsets do', () => {
    // The DSA build: AllocateMemoryAddr wrote 34; 44 and 48 hold its addresses still, in place handoffs and all.
    for (const pass of ['44_after_Simplify.py', '48_after_MaterializeValidShapeSymbols.py']) {
      for (const build of ['matmul_dsa', 'paged_attention_dsa']) {
        assert.equal(run([whole(build, pass), '--check']).status, 0, `${build}/${pass} alone`);
        assert.equal(run([whole(build), '-p', pass.replace(/^\d+_after_|\.py$/g, ''), '--check']).status, 0, `${build} -p`);
      }
    }
    // The ptoas build: its last pass, alone, puts live tiles of two bases on one byte at 0: refused.
    const alone = run([whole('matmul_ptoas', '47_after_MaterializeValidShapeSymbols.py'), '--check']);
    assert.equal(alone.status, 1);
    assert.match(alone.stderr, /share bytes while both are live: .* memory_planner=PTOAS/);
    // Its folder says so at once: drawn by lifetime, checked by its least.
    const folder = run([whole('matmul_ptoas'), '--json']);
    assert.equal(folder.status, 0, folder.stderr);
    assert.match(folder.stderr, /its build ran no AllocateMemoryAddr/);
    const fn = JSON.parse(folder.stdout).functions[0];
    assert.equal(fn.planned, false);
    assert.deepEqual(fn.spaces.map((s) => [s.space, s.lower_bound]), [['Mat', 32768], ['Left', 16384], ['Right', 16384], ['Acc', 16384]]);
  });

  test('before AllocateMemoryAddr: not placed yet; in a ptoas build no pass is, and each is drawn by lifetime', () => {
    for (const build of ['matmul', 'matmul_dsa']) {
      const refused = run([whole(build), '-p', 'InitMemRef', '--check']);
      assert.equal(refused.status, 1, build);
      assert.match(refused.stderr, /predates AllocateMemoryAddr/, build);
    }
    const ptoas = run([whole('matmul_ptoas'), '-p', 'InitMemRef', '--json']);
    assert.equal(ptoas.status, 0, ptoas.stderr);
    assert.equal(JSON.parse(ptoas.stdout).functions[0].planned, false);
  });

  test('the same figures from a folder of later passes as from AllocateMemoryAddr\'s (the default planner)', () => {
    const at = JSON.parse(run([whole('matmul'), '--json']).stdout);
    const later = JSON.parse(run([whole('matmul'), '-p', 'MaterializeValidShapeSymbols', '--json']).stdout);
    const figures = (m) => m.functions.map((fn) => fn.spaces.map((s) => [fn.name, s.space, s.hwm_with_reserved]));
    assert.deepEqual(figures(later), figures(at));
    assert.deepEqual(footprintOf(whole('matmul')).map((f) => [f.func, f.space, f.bytes]).sort(), figures(at).flat().sort());
  });
});

describe('the oracle script', () => {
  test('prints the figures by planner, and fails on a footprint the map contradicts', () => {
    const copy = join(work, 'wide');
    cpSync(wide, copy, { recursive: true });
    const script = join(root, 'tools', 'compiler-oracle.mjs');
    const clean = run([script, copy], { command: process.execPath });
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /^planner +builds +read +FOOTPRINT lines +equal/);
    assert.match(clean.stdout, /Every figure equal, no false alarm, no placed dump refused, every ptoas build checked by its bound\./);
    const build = builds.find((b) => plannerOf(b) === 'pypto' && footprintOf(join(wide, b)).length);
    const path = join(copy, build, 'FOOTPRINT.txt');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/high_water=(\d+)/, (_, n) => `high_water=${Number(n) + 32}`));
    const wrong = run([script, copy], { command: process.execPath });
    assert.equal(wrong.status, 1);
    assert.match(wrong.stdout, new RegExp(`Contradicting the compiler \\(1\\):\\n  ${build.replace(/[.]/g, '\\.')}: \\S+ \\w+: the compiler's footprint \\d+, the map's \\d+`));
  });
});
