// What sets each space's high-water mark (`hwm_set_by`, docs/model.md):
// recounted here from the boxes and reserved windows of every corpus dump
// and the pypto fixtures, and on hand-written functions.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { corpusDumps, dumpWith, model, root, run, tileType } from '../support/helpers.mjs';

/** Of the boxes ending at the mark, the first in box order live on the
 * peak line, else the first; but the first window ending above every box
 * at the mark with windows. */
function recount(fn, space) {
  const end = (b) => b.offset + b.size;
  const atMark = (b) => b.space === space.space && end(b) === space.hwm;
  const atPeak = (b) => space.peak_live > 0 && b.size > 0 && b.start <= space.peak_line && space.peak_line <= b.end;
  const live = fn.boxes.findIndex((b) => atMark(b) && atPeak(b));
  const box = live >= 0 ? live : fn.boxes.findIndex(atMark);
  const windows = fn.reserved.map((w, index) => ({ w, index }))
    .filter(({ w }) => w.space === space.space && w.placed !== false && w.base >= 0 && w.size > 0);
  const above = windows.find(({ w }) => w.base + w.size === space.hwm_with_reserved && w.base + w.size > space.hwm);
  if (above) return { reserved: above.index };
  return box >= 0 ? { box } : undefined;
}

describe('hwm_set_by: what ends at the high-water mark', () => {
  const dumps = [...corpusDumps().map((d) => d.dump),
    ...readdirSync(join(root, 'tests', 'fixtures', 'pypto-e2d0f78')).filter((n) => /_after_AllocateMemoryAddr\.py$/.test(n))
      .map((n) => join(root, 'tests', 'fixtures', 'pypto-e2d0f78', n))];
  test(`every space of every function in ${dumps.length} dumps`, () => {
    let spaces = 0, byWindow = 0;
    for (const dump of dumps) {
      const result = run([dump, '--json']);
      if (result.status !== 0) continue; // refused: no spaces
      for (const fn of JSON.parse(result.stdout).functions) {
        for (const space of fn.spaces) {
          spaces++;
          assert.deepEqual(space.hwm_set_by, recount(fn, space), `${dump}: ${fn.name} ${space.space}`);
          byWindow += 'reserved' in (space.hwm_set_by ?? {});
        }
      }
    }
    assert.ok(spaces > 500, `${spaces} spaces`);
    assert.ok(byWindow > 0, 'a ring above every tile sets the mark somewhere');
  });

  test('the first of two boxes ending at the mark, in box order', async () => {
    const vec = (name, base, offset, size) => `${name}: ${tileType('Vec', base, offset, size)} = pl.tile.create()`;
    const m = await model(dumpWith([vec('low', 'm1', 0, 256), vec('top', 'm2', 256, 768), vec('also', 'm3', 512, 512), 'return low, top, also']));
    const [fn] = m.functions;
    const set = fn.boxes[fn.spaces[0].hwm_set_by.box];
    assert.equal(set.offset + set.size, 1024);
    assert.equal(set.name, fn.boxes.find((b) => b.offset + b.size === 1024).name);
  });
});
