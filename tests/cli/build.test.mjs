// A whole build: `--summary`, `--check` with thresholds, `--json` and
// `--junit` over a folder of 30+ cases, each answer checked against an
// oracle made from every case's own `--json` model and `--check` lines
// (one case at a time, as before builds were read whole).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { makeBuild } from '../support/build-fixture.mjs';
import { root, run } from '../support/helpers.mjs';

let work;
let build; // 32 readable cases and two that are not
let cases; // name -> folder of the readable ones
before(() => {
  work = mkdtempSync(join(tmpdir(), 'mm-build-'));
  build = join(work, 'build_output');
  cases = makeBuild(build, { count: 32 });
});
after(() => rmSync(work, { recursive: true, force: true }));

/** The rows every case's own model gives, in the summary's order. */
function oracleRows() {
  const rows = [];
  for (const name of [...cases.keys()].sort()) {
    const json = run([cases.get(name), '--json']);
    assert.equal(json.status, 0, json.stderr);
    const model = JSON.parse(json.stdout);
    const counts = checkCounts(run([cases.get(name), '--check']).stdout);
    model.functions.forEach((fn, f) => {
      for (const s of [...fn.spaces, ...(fn.reserved_only_spaces ?? [])]) {
        const c = counts.get(`${fn.name} ${s.space}`) ?? {};
        rows.push({ case: name, function: fn.name, f, space: s.space, rank: s.rank, hwm: s.hwm_with_reserved,
          limit: s.limit, headroom: s.headroom, reserved: s.reserved_bytes, peak_live: s.peak_live,
          fragmentation: s.fragmentation, conflicts: c.conflict ?? 0, over: c['over capacity'] ?? 0,
          unplaced: c['unplaced tile'] ?? 0, backend: model.backend });
      }
    });
  }
  // Least headroom first, no capacity last; then case, function, space.
  const key = (r) => [r.headroom === null ? 1 : 0, r.headroom ?? 0];
  return rows.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1] || (a.case < b.case ? -1 : a.case > b.case ? 1 : 0)
    || a.f - b.f || a.rank - b.rank || (a.space < b.space ? -1 : a.space > b.space ? 1 : 0));
}

/** `--check` lines counted by function, space and kind. */
function checkCounts(text) {
  const counts = new Map();
  for (const line of text.split('\n')) {
    const m = /:\d+: (conflict|over capacity|unplaced tile) in (\S+): (\S+) /.exec(line);
    if (!m) continue;
    const key = `${m[2]} ${m[3]}`;
    const c = counts.get(key) ?? {};
    c[m[1]] = (c[m[1]] ?? 0) + 1;
    counts.set(key, c);
  }
  return counts;
}

let rows;
const oracle = () => (rows ??= oracleRows());

describe('a build folder of 34 cases', () => {
  test('--json has a row per case, function and space, least headroom first, as each case alone says', () => {
    const out = run([build, '--json']);
    assert.equal(out.status, 0, out.stderr);
    const json = JSON.parse(out.stdout);
    assert.equal(json.cases.length, 34);
    const expected = oracle();
    assert.ok(expected.length > 100);
    assert.deepEqual(json.rows.map((r) => [r.case, r.function, r.space, r.hwm_with_reserved, r.limit, r.headroom,
      r.reserved_bytes, r.peak_live, r.fragmentation, r.conflicts, r.over_capacity, r.unplaced]),
    expected.map((r) => [r.case, r.function, r.space, r.hwm, r.limit, r.headroom, r.reserved, r.peak_live,
      r.fragmentation, r.conflicts, r.over, r.unplaced]));
    const byName = new Map(json.cases.map((c) => [c.name, c]));
    assert.equal(byName.get('decode_fwd').backend, 'Ascend910B');
    assert.equal(byName.get('decode_fwd').backend_detected, true);
    assert.equal(byName.get('gen_06').backend, 'Ascend950', 'its .pto says a5');
    assert.equal(byName.get('gen_06').backend_detected, true);
    assert.equal(byName.get('gen_04').backend_detected, false, 'no .pto: the default, assumed');
    assert.ok(byName.has('nested/gen_00') && byName.has('nested/gen_01'), 'cases a level deeper are found');
    assert.equal(byName.get('no_dumps').error.status, 'unreadable');
    assert.equal(byName.get('refused').error.status, 'syntax');
    assert.equal(byName.get('refused').error.line, 1);
    assert.ok(!byName.has('logs'), 'a folder without dumps, passes_dump/ or ptoas/ is no case');
  });

  test('--json lists every case\'s pipes, a ring each, as each case\'s own model pairs them', () => {
    const json = JSON.parse(run([build, '--json']).stdout);
    const expected = [];
    for (const name of [...cases.keys()].sort()) {
      const model = JSON.parse(run([cases.get(name), '--json']).stdout);
      for (const pipe of model.pipes) {
        for (const r of pipe.rings) {
          expected.push({ case: name, functions: pipe.functions, name: r.name, direction: r.direction, consumer: r.consumer,
            space: r.space ?? null, slot_size: r.slot_size || null, slot_num: r.slot_num || null, max_slots: r.max_slots,
            pipe_one_more_slot_fits: pipe.one_more_slot_fits, pipe_max_slots: pipe.max_slots });
        }
      }
    }
    assert.ok(expected.length >= 2);
    assert.deepEqual(json.rings.map(({ one_more_slot_hwm: _, ...r }) => r), expected);
  });

  test('--summary prints the same rows as a table, then the cases not read', () => {
    const out = run([build, '--summary']);
    assert.equal(out.status, 0, out.stderr);
    const [tables, unread] = out.stdout.split('\nNot read:\n');
    const [table, rings] = tables.split('\n\n');
    const lines = table.trim().split('\n');
    assert.match(lines[0], /^case +backend +function +space +hwm +capacity +usage +reserved +headroom +peak live +fragmentation +conflicts +unplaced$/);
    const expected = oracle();
    assert.equal(lines.length - 1, expected.length);
    lines.slice(1).forEach((line, i) => {
      const r = expected[i];
      const cells = line.trim().split(/ {2,}/);
      assert.equal(cells[0], r.case);
      assert.equal(cells[2], r.function);
      assert.equal(cells[3], r.space);
      assert.equal(Number(cells[4]), r.hwm);
      assert.equal(cells[8], r.headroom === null ? '-' : String(r.headroom), line);
      assert.equal(Number(cells[11]), r.conflicts + r.over);
      assert.equal(Number(cells[12]), r.unplaced);
    });
    assert.match(rings, /^case +pipe +ring +direction +consumer +space +slots +one more slot +most slots +pipe: one more +pipe: most\n/);
    assert.match(rings, /\ndecode_fwd +fa_fused_aic <-> fa_fused_aiv +fa_fused_c2v_slot_buffer +c2v +fa_fused_aiv +Vec +4 x 8192 B +hwm 49216 of 188416: fits +21 +fits +21\n/);
    assert.match(unread, /^no_dumps {2}.*no_dumps: no '\*_after_AllocateMemoryAddr\.py' dump/m);
    assert.match(unread, /^refused {2}.*refused\/passes_dump\/32_after_AllocateMemoryAddr\.py:1: /m);
  });

  test('--check with thresholds fails exactly the rows a brute-force pass over the oracle fails', () => {
    const out = run([build, '--json', '-o', join(work, 'check.json'), '--check', '--min-headroom', 'Vec=64K',
      '--max-usage', '*=90%', '--min-headroom', 'Mat=1M']);
    assert.equal(out.status, 1, 'two cases could not be read: the gate cannot pass them');
    const json = JSON.parse(readFileSync(join(work, 'check.json'), 'utf8'));
    const broken = json.problems.filter((p) => p.kind === 'headroom' || p.kind === 'usage')
      .map((p) => `${p.case} ${p.function} ${p.space} ${p.kind}`).sort();
    const expected = [];
    for (const r of oracle()) {
      if (r.headroom === null) continue;
      const min = r.space === 'Vec' ? 65536 : r.space === 'Mat' ? 1 << 20 : -1;
      if (min >= 0 && r.headroom < min) expected.push(`${r.case} ${r.function} ${r.space} headroom`);
      if (r.hwm * 100 > 90 * r.limit) expected.push(`${r.case} ${r.function} ${r.space} usage`);
    }
    assert.ok(expected.length > 5);
    assert.deepEqual(broken, expected.sort());
    // Each line names its space, its numbers and where the mark is set.
    const line = json.problems.find((p) => p.kind === 'headroom' && p.case === 'decode_fwd');
    assert.match(line.text, /^.*decode_fwd\/passes_dump\/32_after_AllocateMemoryAddr\.py:\d+: headroom in \w+: (Vec|Mat) keeps \d+ B free above its high-water mark \(\d+ of \d+\), less than the \d+ B asked; the mark is the end of '[^']+' \(lines \d+-\d+\)$/);
    assert.equal(line.line, Number(/:(\d+): /.exec(line.text)[1]));
    assert.match(out.stdout, /\n\d+ problems: .* \(\d+ functions of 34 cases checked\); 2 cases not read\nwrote [^\n]*check\.json\n$/);
  });

  test('the readable cases alone: exit 3 on a broken threshold, 0 when none is', () => {
    const clean = join(work, 'clean');
    makeBuild(clean, { count: 3, clean: true });
    const failing = run([clean, '--check', '--max-usage', 'Vec=1']);
    assert.equal(failing.status, 3, failing.stdout);
    assert.match(failing.stdout, /usage in \w+: Vec's high-water mark \d+ is [\d.]+% of 188416, more than the 1% allowed/);
    const generous = run([join(clean, 'decode_fwd'), '--check', '--min-headroom', '*=0', '--max-usage', '*=100']);
    assert.equal(generous.status, 0, generous.stdout);
    assert.match(generous.stdout, /^no conflicts, no tile over capacity, no unplaced tile and no threshold broken in 38 functions of 1 case$/m);
  });

  test('--junit writes a report CI servers accept: a testsuite per case, a testcase per function', () => {
    const report = join(work, 'report.xml');
    const out = run([build, '--junit', report, '--min-headroom', 'Vec=64K']);
    assert.equal(out.status, 1);
    assert.match(out.stdout, new RegExp(`^wrote ${report}$`, 'm'));
    const xmllint = spawnSync('xmllint', ['--noout', '--schema', join(root, 'tests', 'fixtures', 'junit.xsd'), report], { encoding: 'utf8' });
    assert.equal(xmllint.status, 0, xmllint.stderr);
    const xml = readFileSync(report, 'utf8');
    const expected = oracle();
    const functions = new Set(expected.map((r) => `${r.case} ${r.function}`));
    assert.equal((xml.match(/<testcase /g) ?? []).length, functions.size + 2, 'every function, and the two cases not read');
    assert.equal((xml.match(/<testsuite /g) ?? []).length, 34);
    const failing = new Set(expected.filter((r) => r.conflicts + r.over + r.unplaced > 0 || (r.space === 'Vec' && r.headroom !== null && r.headroom < 65536))
      .map((r) => `${r.case} ${r.function}`));
    assert.equal((xml.match(/<failure /g) ?? []).length, failing.size);
    assert.match(xml, /<testsuites name="memory-map --check" tests="\d+" failures="(\d+)" errors="2">/);
    assert.match(xml, /<error type="syntax" message="[^"]+">[^<]*refused\/passes_dump\/32_after_AllocateMemoryAddr\.py:1: /);
    assert.match(xml, /<failure type="headroom" message="1 problem: [^"]*: headroom in \w+: Vec keeps \d+ B free/);
  });

  test('the schema is a real oracle: it refuses a report without its counts', () => {
    const bad = join(work, 'bad.xml');
    writeFileSync(bad, '<testsuites><testsuite name="x"><testcase name="f"/></testsuite></testsuites>\n');
    const xmllint = spawnSync('xmllint', ['--noout', '--schema', join(root, 'tests', 'fixtures', 'junit.xsd'), bad], { encoding: 'utf8' });
    assert.notEqual(xmllint.status, 0);
    assert.match(xmllint.stderr, /attribute 'tests' is required/);
  });

  test('one dump with a threshold is a build of one case', () => {
    const dump = join(cases.get('decode_fwd'), 'passes_dump', '32_after_AllocateMemoryAddr.py');
    const out = run([dump, '--check', '--min-headroom', 'Right=1']);
    assert.equal(out.status, 3);
    assert.equal(out.stdout.match(/headroom in \w+: Right/g).length, 7, 'the seven matmuls fill Right');
    assert.match(out.stdout, /7 problems: .*\(38 functions of 1 case checked\)\n$/);
  });

  test('bad usage says what is wrong', () => {
    for (const [args, message] of [
      [[build], /is a build \(34 cases\): give --summary, --check, --json or --junit/],
      [[build, '--lifetimes'], /is a build \(34 cases\): give --summary, --check, --json or --junit/],
      [[build, '--check', '--min-headroom', 'Vec'], /--min-headroom needs SPACE=BYTES \(e\.g\. Vec=8K\), not Vec/],
      [[build, '--check', '--min-headroom', 'Vec=8X'], /--min-headroom needs SPACE=BYTES/],
      [[build, '--check', '--max-usage', 'Vec=most'], /--max-usage needs SPACE=PERCENT \(e\.g\. Vec=90\), not Vec=most/],
      [[build, '--summary', '--max-usage', 'Vec=90'], /thresholds of --check or --junit/],
      [[build, '--svg', 'f'], /--svg draws a function of one case/],
    ]) {
      const out = run(args);
      assert.equal(out.status, 2, `${args.join(' ')}: ${out.stderr}`);
      assert.match(out.stderr, message);
    }
  });
});

test('the WASI build reads a build as the native one does', () => {
  const args = [build, '--summary', '--check', '--max-usage', '*=95'];
  const native = run(args, { env: { MEMORY_MAP_WASI: '' } });
  const wasi = run(args, { env: { MEMORY_MAP_WASI: '1' } });
  assert.equal(wasi.status, native.status);
  assert.equal(wasi.stdout, native.stdout);
  assert.ok(native.stdout.includes('usage in'));
});
