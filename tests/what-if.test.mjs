// What if the tile that sets a space's high-water mark moved to the lowest
// gap free over its lifetime, and where a tile of B bytes live on lines
// L1-L2 would fit (--fit): both against a brute force that tries every
// 32-byte-aligned offset from 0 up, on every corpus dump.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { corpus, corpusDumps, run } from './helpers.mjs';

const ALIGN = 32;

/** Boxes and windows of `space` that hold bytes, as [offset, end, first, last] (windows: every line). */
function holders(fn, space, leaveOut) {
  const boxes = fn.boxes.filter((b) => b.space === space && b.size > 0 && b.base !== leaveOut)
    .map((b) => [b.offset, b.offset + b.size, b.start, b.end]);
  const windows = (fn.reserved ?? []).filter((w) => w.placed && w.space === space)
    .map((w) => [w.base, w.base + w.size, 0, Infinity]);
  return [...boxes, ...windows];
}

function bruteFit(fn, space, size, first, last, leaveOut) {
  const live = holders(fn, space, leaveOut).filter(([, , a, b]) => a <= last && b >= first);
  for (let at = 0; ; at += ALIGN)
    if (!live.some(([lo, hi]) => lo < at + size && at < hi)) return at;
}

const markWithout = (fn, space, leaveOut) => Math.max(0, ...holders(fn, space, leaveOut).map(([, hi]) => hi));

test('each space\'s what-if equals the brute force: the mark\'s base moved as one block', () => {
  let checked = 0;
  let saving = 0;
  for (const { dump, expected } of corpusDumps()) {
    if ('error' in JSON.parse(readFileSync(expected, 'utf8'))) continue;
    const out = run([dump, '--json']);
    assert.equal(out.status, 0, out.stderr);
    const model = JSON.parse(out.stdout);
    for (const fn of model.functions) {
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
        const at = bruteFit(fn, s.space, size, first, last, base);
        const hwm = Math.max(markWithout(fn, s.space, base), at + size);
        assert.deepEqual(s.what_if, { box: by.box, moved: group.length, offset: at, hwm_with_reserved: hwm,
          fits: s.headroom === null || hwm <= s.limit }, `${dump} ${fn.name} ${s.space}`);
        checked++;
        saving += hwm < s.hwm_with_reserved;
      }
    }
  }
  assert.ok(checked > 200, `${checked} spaces`);
  assert.ok(saving > 10, 'generated dumps leave gaps the mark\'s tile could take');
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
