// The worker's heap grown and written while a dump's file is read
// (web/heap.js): as big as the dump will take, stopped when the file is
// read, and given back to the core, whose model is then the same.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { analyzeDumpJson } from '../web/core.js';
import { heapFor, touchHeap } from '../web/heap.js';
import { loadCore as loadNodeCore } from '../tools/load-core.mjs';
import { corpusDumps } from './helpers.mjs';

const MB = 1 << 20;
const largest = corpusDumps().map(({ dump }) => readFileSync(dump)).sort((a, b) => b.length - a.length)[0];
const modelOf = (core, bytes) => new TextDecoder().decode(analyzeDumpJson(core, new Uint8Array(bytes), { dumpName: 'd.py' }));

test('while a 10 MB dump is read, the heap it takes is written and then freed for the core', async () => {
  const core = await loadNodeCore();
  const written = await touchHeap(core, 10 * MB, () => true);
  assert.equal(written, heapFor(10 * MB));
  assert.equal(core.HEAPU8.length > written, true, `heap ${core.HEAPU8.length} after, ${written} written`);
  // Freed: as much again is taken without the heap growing.
  const grown = core.HEAPU8.length;
  const ptr = core._malloc(written);
  assert.notEqual(ptr, 0);
  core._free(ptr);
  assert.equal(core.HEAPU8.length, grown);
});

test('the file read: writing stops at the next slice, and what was taken is freed', async () => {
  const core = await loadNodeCore();
  let slices = 0;
  const written = await touchHeap(core, 40 * MB, () => slices++ < 3);
  assert.equal(written, 2 * MB, 'two slices written, the next check (the fourth: one before the loop) finds the file read');
  const grown = core.HEAPU8.length;
  const ptr = core._malloc(heapFor(40 * MB));
  assert.notEqual(ptr, 0);
  core._free(ptr);
  assert.equal(core.HEAPU8.length, grown, 'freed: taken again without growing');
});

test('a small dump, or a file read before the core started: nothing is taken', async () => {
  const core = await loadNodeCore();
  const before = core.HEAPU8.length;
  assert.equal(await touchHeap(core, 1_500_000, () => true), 0);
  assert.equal(await touchHeap(core, 10 * MB, () => false), 0);
  assert.equal(core.HEAPU8.length, before);
});

test('a dump read after its heap was written: the same model as on a fresh core', async () => {
  const [fresh, touched] = await Promise.all([loadNodeCore(), loadNodeCore()]);
  const expected = modelOf(fresh, largest);
  await touchHeap(touched, 20 * MB, () => true);
  assert.equal(modelOf(touched, largest), expected);
  assert.equal(modelOf(touched, largest), expected, 'and again, the heap reused');
});
