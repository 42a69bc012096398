// Cross-core pipes: the rings of decode_fwd's fa_fused kernel paired across
// its AIC and AIV functions, and edits of it (a deeper ring, a missing
// import, a renamed buffer); each ring's most slots and the pipe's answers
// against a brute force that lays the space out again for every count.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { corpus, run } from '../support/helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'mm-pipes-'));
after(() => rmSync(work, { recursive: true, force: true }));
const dumpPath = join(corpus, 'cases', 'decode_fwd', 'passes_dump', '32_after_AllocateMemoryAddr.py');
const real = readFileSync(dumpPath, 'utf8');

function modelOf(text, name) {
  const path = join(work, `32_after_AllocateMemoryAddr_${name}.py`);
  writeFileSync(path, text);
  const out = run([path, '--json', '-b', 'Ascend910B']);
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout);
}

/** The mark of `space` in `fn` with ring `w` holding n slots: what starts at or above its end moves. */
function markWith(fn, w, n) {
  const end = w.base + w.size;
  const delta = (n - w.slot_num) * w.slot_size;
  const items = [...fn.boxes.filter((b) => b.space === w.space && b.size > 0).map((b) => [b.offset, b.offset + b.size]),
    ...fn.reserved.filter((r) => r.placed && r.space === w.space && r !== w).map((r) => [r.base, r.base + r.size])];
  let mark = end + delta;
  for (const [lo, hi] of items) mark = Math.max(mark, lo >= end ? hi + delta : hi);
  return mark;
}

function bruteMost(fn, w) {
  const space = [...fn.spaces, ...fn.reserved_only_spaces].find((s) => s.space === w.space);
  if (!w.slot_size || !w.slot_num || space.headroom === null) return null;
  let most = 0;
  for (let n = 1; n < 100000 && markWith(fn, w, n) <= space.limit; n++) most = n;
  return most;
}

function checkAgainstBruteForce(model) {
  for (const pipe of model.pipes) {
    const most = [];
    const fits = [];
    for (const ring of pipe.rings) {
      if (!ring.consumer) {
        assert.equal(ring.max_slots, null);
        most.push(null);
        fits.push(null);
        continue;
      }
      const fn = model.functions.find((f) => f.name === ring.consumer);
      const w = fn.reserved[ring.window];
      assert.equal(w.name, ring.name);
      const expected = bruteMost(fn, w);
      assert.equal(ring.max_slots, expected, `${ring.name}`);
      most.push(expected);
      const space = [...fn.spaces, ...fn.reserved_only_spaces].find((s) => s.space === w.space);
      fits.push(w.slot_size && space.headroom !== null ? markWith(fn, w, w.slot_num + 1) <= space.limit : null);
    }
    assert.equal(pipe.max_slots, most.includes(null) ? null : Math.min(...most));
    assert.equal(pipe.one_more_slot_fits, fits.includes(false) ? false : fits.includes(null) ? null : true);
  }
}

test('decode_fwd: one pipe, fa_fused_aic and fa_fused_aiv, a ring each way', () => {
  const model = modelOf(real, 'real');
  assert.equal(model.pipes.length, 1);
  const [pipe] = model.pipes;
  assert.deepEqual(pipe.functions, ['fa_fused_aic', 'fa_fused_aiv']);
  assert.deepEqual(pipe.rings.map((r) => [r.name, r.direction, r.producer, r.consumer, r.space, r.slot_size, r.slot_num, r.producer_slot_size]), [
    ['fa_fused_v2c_slot_buffer', 'v2c', 'fa_fused_aiv', 'fa_fused_aic', 'Mat', 8192, 4, 8192],
    ['fa_fused_c2v_slot_buffer', 'c2v', 'fa_fused_aic', 'fa_fused_aiv', 'Vec', 8192, 4, 8192],
  ]);
  assert.equal(pipe.one_more_slot_fits, true);
  assert.equal(pipe.max_slots, 21, 'Vec: 4 + (188416 - 41024) / 8192, the smaller side');
  checkAgainstBruteForce(model);
});

test('edits: a deeper ring, a ring with no importer, an import with no ring', () => {
  const deeper = real.replace("reserve_buffer(name='fa_fused_c2v_slot_buffer', size=32768", "reserve_buffer(name='fa_fused_c2v_slot_buffer', size=188416");
  assert.notEqual(deeper, real);
  const a = modelOf(deeper, 'deeper');
  assert.equal(a.pipes[0].rings[1].slot_num, 23);
  assert.equal(a.pipes[0].one_more_slot_fits, false, 'a 24th slot of 8 KB passes Vec\'s 184 KB');
  checkAgainstBruteForce(a);

  const noImport = real.replace(/^.*import_peer_buffer\(name='fa_fused_c2v_slot_buffer'.*\n/m, '');
  const b = modelOf(noImport, 'no-import');
  const lone = b.pipes.flatMap((p) => p.rings).find((r) => r.name === 'fa_fused_c2v_slot_buffer');
  assert.equal(lone.producer, null);
  assert.equal(lone.direction, null);
  checkAgainstBruteForce(b);

  const renamed = real.replace("reserve_buffer(name='fa_fused_v2c_slot_buffer'", "reserve_buffer(name='renamed_buffer'");
  const c = modelOf(renamed, 'renamed');
  const rings = c.pipes.flatMap((p) => p.rings.map((r) => [r.name, r.producer, r.consumer]));
  assert.deepEqual(rings.filter(([name]) => name !== 'fa_fused_c2v_slot_buffer').sort(), [
    ['fa_fused_v2c_slot_buffer', 'fa_fused_aiv', null], ['renamed_buffer', null, 'fa_fused_aic']]);
  checkAgainstBruteForce(c);
  const summary = run([join(work, '32_after_AllocateMemoryAddr_renamed.py'), '--summary']).stdout;
  assert.match(summary, /fa_fused_aiv <-> -\s+fa_fused_v2c_slot_buffer\s+-\s+-\s+-\s+-\s+no such reserve_buffer in fa_fused_aic/);
});

test('--summary lists the pipe, a row per ring, with both answers', () => {
  const out = run([dumpPath, '--summary']).stdout;
  const table = out.split('\n\n').find((t) => t.startsWith('pipe '));
  assert.ok(table, out);
  const rows = table.trim().split('\n');
  assert.match(rows[0], /^pipe +ring +direction +consumer +space +slots +one more slot +most slots +pipe: one more +pipe: most$/);
  assert.match(rows[1], /^fa_fused_aic <-> fa_fused_aiv +fa_fused_v2c_slot_buffer +v2c +fa_fused_aic +Mat +4 x 8192 B +hwm 77824 of 524288: fits +59 +fits +21$/);
  assert.match(rows[2], /^fa_fused_aic <-> fa_fused_aiv +fa_fused_c2v_slot_buffer +c2v +fa_fused_aiv +Vec +4 x 8192 B +hwm 49216 of 188416: fits +21 +fits +21$/);
});

test('a card says its pipe: the peer, each ring, one more slot and the most slots, from the model', async () => {
  const { pipesOf, pipeText } = await import('../../web/card/pipes.js');
  const model = modelOf(real, 'card');
  const [aic] = pipesOf(model, 'fa_fused_aic');
  assert.equal(aic.peer, 'fa_fused_aiv');
  assert.equal(pipeText(aic, 'fa_fused_aic'), 'Cross-core pipe with fa_fused_aiv: v2c fa_fused_v2c_slot_buffer in this function\'s Mat (4 × 8 KB); '
    + 'c2v fa_fused_c2v_slot_buffer in fa_fused_aiv\'s Vec (4 × 8 KB). One more slot: fits on both sides. '
    + 'At most 21 slots (the fewer of 59 in this function and 21 in fa_fused_aiv).');
  assert.deepEqual(pipesOf(model, 'k_proj'), []);
  const lone = modelOf(real.replace(/^.*import_peer_buffer\(name='fa_fused_c2v_slot_buffer'.*\n/m, ''), 'card-lone');
  const text = pipesOf(lone, 'fa_fused_aiv').map((p) => pipeText(p, 'fa_fused_aiv')).join(' | ');
  assert.match(text, /fa_fused_c2v_slot_buffer in this function's Vec \(4 × 8 KB\) \(no import_peer_buffer of it\)/);
});

test('a size as typed in the line inspector', async () => {
  const { parseSize } = await import('../../web/model/insight.js');
  assert.deepEqual(['8192', '8K', '8 KB', '8KiB', '1M', '2g', '0', 'x', '8X', '-1', ''].map(parseSize),
    [8192, 8192, 8192, 8192, 1048576, 2147483648, null, null, null, null, null]);
});
