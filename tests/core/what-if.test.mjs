// What if the tile that sets a space's high-water mark moved to the lowest
// gap free over its lifetime, and where a tile of B bytes live on lines
// L1-L2 would fit (--fit): both against a brute force that tries every
// 32-byte-aligned offset from 0 up, on every corpus dump and the
// compiler's own builds. Where a planner placed the dump, a tile the
// moved block's binding statement reads last (or one bound by the
// statement that reads the block last) holds nothing then: the in-place
// rule, read from CPython's ast by tests/oracle/model.py.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { corpus, corpusDumps, root, run } from '../support/helpers.mjs';

const ALIGN = 32;

/** Boxes and windows of `space` that hold bytes, as [offset, end, first, last] (windows: every line). */
function holders(fn, space, leaveOut) {
  const boxes = fn.boxes.filter((b) => b.space === space && b.size > 0 && b.base !== leaveOut)
    .map((b) => [b.offset, b.offset + b.size, b.start, b.end]);
  const windows = (fn.reserved ?? []).filter((w) => w.placed && w.space === space)
    .map((w) => [w.base, w.base + w.size, 0, Infinity]);
  return [...boxes, ...windows];
}

/** The oracle's hands_over, on lines: `a`'s last line lies in the
 * statement binding `b`, no loop holds that statement but not `a`'s first
 * line, and neither is a slot of a multi-buffered allocation. */
function handsOver(a, b, { statement_starts: starts, loops }) {
  return a.start < b.start && b.start <= a.end && starts.includes(b.start) &&
    !starts.some((line) => b.start < line && line <= a.end) &&
    !loops.some(([x, y]) => x <= b.start && b.start <= y && !(x <= a.start && a.start <= y)) && !a.slots && !b.slots;
}

function bruteFit(fn, space, size, first, last, leaveOut, time = null) {
  const block = { start: first, end: last, slots: time?.slots };
  const free = (box) => time && (handsOver(box, block, time) || handsOver(block, box, time));
  const boxes = fn.boxes.filter((b) => b.space === space && b.size > 0 && b.base !== leaveOut && !free(b))
    .map((b) => [b.offset, b.offset + b.size, b.start, b.end]);
  const windows = (fn.reserved ?? []).filter((w) => w.placed && w.space === space).map((w) => [w.base, w.base + w.size, 0, Infinity]);
  const live = [...boxes, ...windows].filter(([, , a, b]) => a <= last && b >= first);
  for (let at = 0; ; at += ALIGN)
    if (!live.some(([lo, hi]) => lo < at + size && at < hi)) return at;
}

const markWithout = (fn, space, leaveOut) => Math.max(0, ...holders(fn, space, leaveOut).map(([, hi]) => hi));

/** The corpus's dumps and the compiler's AllocateMemoryAddr dumps (tests/fixtures/compiler-e2d0f78/wide). */
function dumps() {
  const wide = join(root, 'tests', 'fixtures', 'compiler-e2d0f78', 'wide');
  const built = readdirSync(wide, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) =>
    readdirSync(join(wide, d.name)).filter((n) => n.endsWith('_after_AllocateMemoryAddr.py')).map((n) => join(wide, d.name, n)));
  return [...corpusDumps().filter(({ expected }) => !('error' in JSON.parse(readFileSync(expected, 'utf8')))).map((d) => d.dump), ...built];
}

test('each space\'s what-if equals the brute force: the mark\'s base moved as one block', () => {
  let checked = 0;
  let saving = 0;
  let handedOver = 0;
  const paths = dumps();
  const read = spawnSync('python3', [join(root, 'tests', 'oracle', 'model.py'), '--batch'], { input: JSON.stringify(paths), encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(read.status, 0, read.stderr);
  const oracles = JSON.parse(read.stdout);
  for (const [i, dump] of paths.entries()) {
    const out = run([dump, '--json']);
    if (out.status !== 0 && /nothing on chip/.test(out.stderr)) continue;
    assert.equal(out.status, 0, out.stderr);
    const model = JSON.parse(out.stdout);
    for (const [f, fn] of model.functions.entries()) {
      for (const s of fn.spaces) {
        const by = s.hwm_set_by;
        const pinned = by && 'box' in by && (fn.reserved ?? []).some((w) => w.kind === 'pinned' && w.name === fn.boxes[by.box].base);
        if (!by || !('box' in by) || pinned || fn.boxes[by.box].size <= 0) {
          assert.equal(s.what_if, undefined, `${dump} ${fn.name} ${s.space}`);
          continue;
        }
        const base = fn.boxes[by.box].base;
        const group = fn.boxes.filter((b) => b.space === s.space && b.base === base && b.size > 0);
        const low = Math.min(...group.map((b) => b.offset));
        const size = Math.max(...group.map((b) => b.offset + b.size)) - low;
        const first = Math.min(...group.map((b) => b.start));
        const last = Math.max(...group.map((b) => b.end));
        const oracle = oracles[i].functions[f];
        assert.equal(oracle.name, fn.name);
        const time = { ...oracle, slots: fn.boxes[by.box].slots };
        const at = bruteFit(fn, s.space, size, first, last, base, time);
        handedOver += at < bruteFit(fn, s.space, size, first, last, base);
        const hwm = Math.max(markWithout(fn, s.space, base), at + size);
        const mustMove = fn.boxes[by.box].conflict || (fn.boxes[by.box].window_conflicts ?? []).length > 0;
        // A move that would raise the mark is offered only to a tile that must move.
        const offered = hwm <= s.hwm_with_reserved || mustMove;
        assert.deepEqual(s.what_if, offered ? { box: by.box, moved: group.length, offset: at, hwm_with_reserved: hwm,
          fits: s.headroom === null || hwm <= s.limit } : undefined, `${dump} ${fn.name} ${s.space}`);
        checked++;
        saving += hwm < s.hwm_with_reserved;
      }
    }
  }
  assert.ok(checked > 500, `${checked} spaces`);
  assert.ok(saving > 10, 'generated dumps leave gaps the mark\'s tile could take');
  assert.ok(handedOver > 20, `the DSA planner's in-place placements: ${handedOver} blocks may take a handed-over input's bytes`);
});

test('--fit answers where B bytes live on L1-L2 go, as the brute force does', () => {
  const dump = join(corpus, 'cases', 'decode_fwd');
  const model = JSON.parse(run([dump, '--json']).stdout);
  const fn = model.functions.find((f) => f.name === 'fa_fused_aiv');
  const vec = fn.spaces.find((s) => s.space === 'Vec');
  for (const [size, first, last] of [[8192, 220, 240], [32, fn.src_start, fn.src_end], [4096, 245, 245], [184320, 220, 240]]) {
    const out = run([dump, '--fit', `Vec:${size}:${first}-${last}`, '--function', 'fa_fused_aiv']);
    const at = bruteFit(fn, 'Vec', size, first, last, null);
    const hwm = Math.max(markWithout(fn, 'Vec', null), at + size);
    const fits = hwm <= vec.limit;
    assert.equal(out.status, fits ? 0 : 3, out.stderr);
    assert.equal(out.stdout, `fa_fused_aiv: ${size} B of Vec live on lines ${first}-${last}: the lowest gap free then is [${at}, ${at + size}); the high-water mark would be ${hwm} of ${vec.limit}: ${fits ? 'fits' : 'does not fit'}\n`);
  }
  const bad = run([dump, '--fit', 'Vec:8K', '--function', 'fa_fused_aiv']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--fit needs SPACE:BYTES:L1-L2 \(e\.g\. Vec:8K:120-140\), not Vec:8K/);
  const alone = run([dump, '--fit', 'Vec:8K:1-2']);
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /--fit SPACE:BYTES:L1-L2 and --function NAME go together/);
});

test('--summary ends with the what-if per space', () => {
  const out = run([join(corpus, 'generated', 'gen1_005__36_after_AllocateMemoryAddr.py'), '--summary']);
  const table = out.stdout.split('\n\n').at(-1).trim().split('\n');
  assert.match(table[0], /^function +space +mark set by +lines +hwm +lowest gap +hwm then +saved$/);
  const model = JSON.parse(run([join(corpus, 'generated', 'gen1_005__36_after_AllocateMemoryAddr.py'), '--json']).stdout);
  const rows = model.functions.flatMap((f) => f.spaces.filter((s) => s.what_if).map((s) => [f.name, s.space,
    f.boxes[s.what_if.box].name, String(s.hwm_with_reserved), String(s.what_if.offset), String(s.what_if.hwm_with_reserved),
    String(s.hwm_with_reserved - s.what_if.hwm_with_reserved)]));
  assert.deepEqual(table.slice(1).map((l) => l.trim().split(/ +/)).map((c) => [c[0], c[1], c[2], c[4], c[5], c[6], c[7]]), rows);
});
