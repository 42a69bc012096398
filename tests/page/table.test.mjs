// The Table's rows and their order (web/card/table.js), in Node, on a real
// dump's model: every tile and placed reserved window gets a row, and a
// column sorts its rows by what the column means, not by its text.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { COLUMNS, sortRows, tableRows } from '../../web/card/table.js';
import { corpus, run } from '../support/helpers.mjs';

const model = JSON.parse(run(['--json', `${corpus}/real/decode_fwd__41_after_MaterializeRuntimeScopes.py`]).stdout);
const fa = model.functions.find((f) => f.name === 'fa_fused_aiv');
const spaces = new Map(fa.spaces.map((s) => [s.space, s]));
const column = (name) => COLUMNS.findIndex(([heading]) => heading === name);

describe('the Table', () => {
  test('a row per tile and per placed reserved window, the ring\'s with its one-more-slot figure', () => {
    const rows = tableRows(fa, spaces);
    const placed = fa.reserved.filter((w) => w.placed);
    assert.ok(placed.length > 0);
    assert.equal(rows.length, fa.boxes.length + placed.length);
    const ring = rows.find((r) => r.cells[0] === placed[0].name);
    assert.match(ring.cells[8], new RegExp(`one more slot: high-water mark .* \\(${placed[0].one_more_slot_hwm} B\\)`));
  });

  test('size sorts by bytes (4 KB after 512 B), both ways, equal sizes keeping their order', () => {
    const rows = tableRows(fa, spaces);
    const up = sortRows(rows, column('size'), false).map((r) => r.keys[column('size')]);
    assert.deepEqual(up, [...up].sort((a, b) => a - b));
    const down = sortRows(rows, column('size'), true);
    assert.deepEqual(down.map((r) => r.keys[column('size')]), [...up].reverse());
    const sameSize = rows.filter((r) => r.keys[column('size')] === up[0]);
    assert.deepEqual(sortRows(rows, column('size'), false).slice(0, sameSize.length), sameSize);
  });

  test('names sort as people read numbers in them: t__tile_2 before t__tile_10', () => {
    const rows = ['t__tile_10', 't__tile_2', 'a'].map((name) => ({ keys: [name] }));
    assert.deepEqual(sortRows(rows, 0, false).map((r) => r.keys[0]), ['a', 't__tile_2', 't__tile_10']);
  });
});
