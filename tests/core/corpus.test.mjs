// The corpus of real and generated dumps (tests/fixtures/corpus): the CLI's
// --json (tools/memory-map: the native release build) equals the upstream
// tool's model on every key of the contract; refusals exit 1 with a
// message; the Emscripten module and the native sanitizer build agree with
// the CLI. (The WASI build is held to the release build in
// tests/cli/cli-builds.test.mjs.)
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';

import { asUpstreamConflicts, asanCli, contract, corpus, corpusDumps, loadCore, run } from '../support/helpers.mjs';
import { analyzeDump, analyzeDumpJson, analyzeSideJson } from '../../web/engine/core.js';
import { attachSource, parseModel, parseSplitModel } from '../../web/engine/model-json.js';
import { searchIndex } from '../../web/model/insight.js';

const dumps = corpusDumps();
const expectedOf = (entry) => JSON.parse(readFileSync(entry.expected, 'utf8'));

/** tools/memory-map (the native release build) with --json on `dump`, run
 * once per dump: every suite below compares with the same run. */
const released = new Map();
const releaseJson = (dump) => {
  if (!released.has(dump)) released.set(dump, run([dump, '--json']));
  return released.get(dump);
};

test('every dump of the corpus is checked: each has its expected model, and each kind is there', () => {
  // A dump without its expected model would be skipped silently by the suites below.
  const all = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) { if (e.name !== 'passes_dump') walk(join(dir, e.name)); } else if (e.name.endsWith('.py')) all.push(join(dir, e.name));
    }
  };
  walk(corpus);
  assert.deepEqual(all.filter((p) => !existsSync(p.slice(0, -3) + '.expected.json')), []);
  for (const kind of ['real/', 'generated/']) assert.ok(dumps.some((d) => d.name.startsWith(kind)), kind);
  for (const refusal of ['syntax', 'unallocated', 'no_tiles']) assert.ok(dumps.some((d) => expectedOf(d).error === refusal), refusal);
});

/** What the CLI prints for a refusal must match the upstream refusal. */
function assertRefusal(result, expected) {
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /^error: /);
  assert.equal(result.stdout, '', 'nothing is written on a refusal');
  if (expected.error === 'syntax') assert.match(result.stderr, new RegExp(`:${expected.line}: `));
  if (expected.error === 'no_tiles' || expected.error === 'unallocated')
    assert.match(result.stderr, /AllocateMemoryAddr/);
  for (const fn of expected.functions || []) assert.ok(result.stderr.includes(fn), `names ${fn}`);
}

/** A dump upstream refuses as not Python that the model reads: what
 * only the printer writes is told as notes on stderr, and the model has
 * tiles (docs/model.md §2a). */
function assertDeparture(result, expected) {
  assert.equal(expected.error, 'syntax');
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, new RegExp(`^note: .*:${expected.line}: the printer wrote`, 'm'));
  assert.ok(JSON.parse(result.stdout).functions.some((fn) => fn.boxes.length));
}

/** A dump AllocateMemoryAddr wrote that upstream refuses as not
 * allocated (every tile at 0): the model draws it, every function upstream
 * named with its boxes at 0 (docs/model.md §13). */
function assertPlaced(result, expected) {
  assert.equal(expected.error, 'unallocated');
  assert.equal(result.status, 0, result.stderr);
  const functions = JSON.parse(result.stdout).functions;
  for (const name of expected.functions) {
    const fn = functions.find((f) => f.name === name);
    assert.ok(fn?.boxes.length && fn.boxes.every((b) => b.offset === 0), name);
  }
}

describe('CLI --json on every corpus dump', () => {
  for (const entry of dumps) {
    test(entry.name, () => {
      const expected = expectedOf(entry);
      const result = releaseJson(entry.dump);
      if (entry.departure === 'printed') return assertDeparture(result, expected);
      if (entry.departure === 'placed') return assertPlaced(result, expected);
      if (expected.error) return assertRefusal(result, expected);
      assert.equal(result.status, 0, result.stderr);
      const got = JSON.parse(result.stdout);
      if (entry.departure === 'handoff') {
        assert.notDeepEqual(contract(got), expected, 'a handoff is there');
        return assert.deepEqual(contract(asUpstreamConflicts(got)), expected);
      }
      assert.deepEqual(contract(got), expected);
    });
  }
});

/** Bytes covered by `ranges` ([lo, hi) pairs): a brute-force union. */
function unionBytes(ranges) {
  const sorted = ranges.filter(([lo, hi]) => hi > lo).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let reach = -Infinity;
  for (const [lo, hi] of sorted) {
    if (hi <= reach) continue;
    total += hi - Math.max(lo, reach);
    reach = hi;
  }
  return total;
}

/** The live-bytes profile recomputed line by line from the boxes and the
 * reserved windows (live on every line of the function). */
function profileByBruteForce(fn, space) {
  const windows = fn.reserved.filter((w) => w.placed && w.space === space)
    .map((w) => ({ offset: w.base, size: w.size, start: fn.src_start, end: fn.src_end }));
  const boxes = [...fn.boxes.filter((b) => b.space === space && b.size > 0), ...windows];
  const steps = [];
  const first = Math.min(...boxes.map((b) => b.start));
  const last = Math.max(...boxes.map((b) => b.end)) + 1;
  for (let line = first; line <= last; line++) {
    const live = boxes.filter((b) => b.start <= line && line <= b.end);
    const bytes = unionBytes(live.map((b) => [Math.max(0, b.offset), b.offset + b.size]));
    if (!steps.length || steps.at(-1)[1] !== bytes) steps.push([line, bytes]);
  }
  return steps;
}

describe('liveness figures on the corpus: equal to a brute-force recount, peak live <= HWM', () => {
  for (const entry of dumps.filter((d) => !expectedOf(d).error)) {
    test(entry.name, () => {
      const m = JSON.parse(releaseJson(entry.dump).stdout);
      for (const fn of m.functions) {
        for (const s of [...fn.spaces, ...fn.reserved_only_spaces]) {
          const where = `${fn.name} ${s.space}`;
          assert.deepEqual(s.live, profileByBruteForce(fn, s.space), where);
          assert.ok(s.peak_live <= s.hwm_with_reserved, where);
          assert.equal(s.fragmentation, s.hwm_with_reserved - s.peak_live, where);
          assert.equal(s.peak_live, Math.max(...s.live.map((step) => step[1])), where);
          assert.equal(s.peak_line, s.live.find((step) => step[1] === s.peak_live)[0], where);
          const peak = s.peak_boxes.map((i) => fn.boxes[i]);
          assert.ok(peak.every((b) => b.space === s.space && b.start <= s.peak_line && s.peak_line <= b.end), where);
          assert.ok(peak.every((b, i) => i === 0 || peak[i - 1].size >= b.size), `${where}: largest first`);
          const liveThere = fn.boxes.filter((b) => b.space === s.space && b.size > 0 && b.start <= s.peak_line && s.peak_line <= b.end);
          assert.equal(peak.length, liveThere.length, where);
        }
      }
    });
  }
});

test('a build_output/<case>/ folder resolves to its AllocateMemoryAddr dump and detects the backend', () => {
  const result = run([join(corpus, 'cases', 'decode_fwd'), '--json']);
  assert.equal(result.status, 0, result.stderr);
  const got = JSON.parse(result.stdout);
  assert.equal(got.dump, '32_after_AllocateMemoryAddr.py');
  assert.deepEqual(got.backend, { name: 'Ascend910B', arch: 'a2a3', detected: true });
  const expected = JSON.parse(readFileSync(join(corpus, 'cases', 'decode_fwd.expected.json'), 'utf8'));
  assert.deepEqual(contract(got), expected);
});

describe('the Emscripten module returns the same model as the CLI', () => {
  for (const entry of dumps) {
    test(entry.name, async () => {
      const core = await loadCore();
      const bytes = readFileSync(entry.dump);
      const cliResult = releaseJson(entry.dump);
      let fromModule;
      try {
        fromModule = analyzeDump(core, bytes, { dumpName: basename(entry.dump) });
      } catch (error) {
        assert.equal(cliResult.status, 1, 'the module refused what the CLI accepted');
        assert.equal(error.kind, expectedOf(entry).error);
        assert.ok(cliResult.stderr.includes(error.message));
        return;
      }
      assert.equal(cliResult.status, 0);
      assert.deepEqual(fromModule, JSON.parse(cliResult.stdout));
      // The page's way: the JSON without the source lines, put back from the bytes.
      const json = analyzeDumpJson(core, bytes, { dumpName: basename(entry.dump), withoutSource: true });
      const lean = parseModel(json);
      assert.ok(lean.functions.every((fn) => fn.source === undefined));
      assert.ok(json.length < JSON.stringify(fromModule).length);
      assert.deepEqual(attachSource(lean, bytes), fromModule);
      // The page's form: a function read as its card needs it. Nothing is
      // read before asked; once read, the same model, with the keys the
      // heads add (a closed card's and a search's) telling the truth.
      const split = parseSplitModel(analyzeDumpJson(core, bytes, { dumpName: basename(entry.dump), withoutSource: true, split: true }), bytes);
      assert.equal(split.lazy.parsed, 0);
      const added = ['box_count', 'source_bytes', 'body', 'names'];
      const plain = split.functions.map((fn) => Object.fromEntries(Object.entries(fn).filter(([k]) => !added.includes(k))));
      assert.equal(split.lazy.parsed, fromModule.functions.length);
      assert.deepEqual({ ...split, functions: plain }, fromModule);
      split.functions.forEach((fn, f) => {
        const boxes = fromModule.functions[f].boxes;
        assert.equal(fn.box_count, boxes.length);
        // The head lists the anomalies a closed card counts: a box's, exactly when a box has one.
        if (fn.planned !== false) assert.equal(fn.anomalies.some((a) => a.box !== null), boxes.some((b) => b.conflict_count > 0 || b.window_conflict_count > 0 || b.over_capacity));
        assert.deepEqual(searchIndex(split)[f], boxes.map((b) => ({ names: [b.name, ...b.aliases], lower: [b.name, ...b.aliases].map((n) => n.toLowerCase()), start: b.start })));
      });
      // A comparison's side: the heads too read a function at a time.
      const sideJson = analyzeSideJson(core, bytes, { dumpName: basename(entry.dump), withoutSource: true, split: true, splitHeads: true }).json;
      const lazyHeads = parseSplitModel(sideJson, bytes);
      assert.equal(lazyHeads.lazy.heads, 0);
      const last = lazyHeads.functions.length - 1;
      if (last >= 0) {
        assert.equal(lazyHeads.functions[last].name, fromModule.functions[last].name);
        assert.deepEqual([lazyHeads.lazy.heads, lazyHeads.lazy.parsed], [1, 0], 'one head read, no body');
      }
      assert.deepEqual(JSON.parse(JSON.stringify(lazyHeads)), JSON.parse(JSON.stringify(split)));
      assert.equal(lazyHeads.lazy.heads, fromModule.functions.length);
      // A big side's model before its bytes (engine.js): no source lines
      // until they are attached, then the same model.
      const later = parseSplitModel(sideJson, null);
      assert.ok(later.functions.every((fn) => fn.source === null));
      let ready = false;
      later.functions[0]?.sourceReady.then(() => { ready = true; });
      await new Promise((resolve) => setTimeout(resolve));
      assert.equal(ready, false, 'not before the bytes');
      later.attachDump(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      await later.sourceReady;
      assert.deepEqual(JSON.parse(JSON.stringify(later)), JSON.parse(JSON.stringify(split)));
    });
  }
});

describe('native build with AddressSanitizer and UBSan: clean on the corpus, and says what the release build says', () => {
  for (const entry of [...dumps, { name: 'cases/decode_fwd', dump: join(corpus, 'cases', 'decode_fwd') }]) {
    test(entry.name, () => {
      const sanitized = run([entry.dump, '--json'], {
        command: asanCli,
        env: { ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0', UBSAN_OPTIONS: 'print_stacktrace=1' },
      });
      assert.doesNotMatch(sanitized.stderr, /Sanitizer|runtime error|LeakSanitizer/);
      const release = releaseJson(entry.dump);
      assert.equal(sanitized.status, release.status);
      assert.equal(sanitized.stdout, release.stdout);
    });
  }
});
