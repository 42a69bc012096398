// A big dump's file read straight into the core's heap (core.js
// readIntoHeap, which the page's worker uses from 2 MB): the core's model
// of it is the model of the same bytes copied in whole, through a byte
// stream's reusable buffer or a plain stream's chunks; a file that does
// not hold its size is refused as unreadable, its heap given back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { analyzeDumpJson } from '../../web/engine/core.js';
import { readIntoHeap } from '../../web/engine/files.js';
import { corpus, loadCore } from '../support/helpers.mjs';

// 2.9 MB: a byte stream reads it in several chunks through its 1 MB buffer.
const dump = Buffer.concat(new Array(6).fill(readFileSync(join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py'))));
const options = { dumpName: 'd.py', withoutSource: true, split: true };
const text = (json) => new TextDecoder().decode(json);

/** The core, its mallocs and frees counted. */
async function countedCore() {
  const core = await loadCore();
  const taken = new Set();
  const counted = Object.create(core);
  counted._malloc = (size) => {
    const ptr = core._malloc(size);
    taken.add(ptr);
    return ptr;
  };
  counted._free = (ptr) => {
    taken.delete(ptr);
    core._free(ptr);
  };
  return { core: counted, taken };
}

/** A File-like of `bytes` whose stream() is a plain one (no byte
 * stream: the reader falls back to its chunks), `size` as claimed. */
const plainStreamFile = (bytes, size = bytes.length, chunk = 100_000) => ({
  size,
  stream: () => new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunk) controller.enqueue(bytes.slice(at, at + chunk));
      controller.close();
    },
  }),
});

describe('a file read into the heap', () => {
  test('the model is that of the bytes copied in whole, by either kind of stream', async () => {
    const { core, taken } = await countedCore();
    const whole = text(analyzeDumpJson(core, new Uint8Array(dump), options));
    assert.doesNotMatch(whole, /^\{"error"/);
    for (const file of [new Blob([dump]), plainStreamFile(dump)]) {
      const placed = await readIntoHeap(core, file);
      assert.equal(placed.length, dump.length);
      assert.equal(core.HEAPU8[placed.heapPtr + placed.length], 0, 'NUL-terminated');
      assert.equal(text(analyzeDumpJson(core, placed, options)), whole);
      core._free(placed.heapPtr);
    }
    assert.equal(taken.size, 0, 'every block given back');
  });

  test('a file shorter or longer than its size is refused, its heap given back', async () => {
    const { core, taken } = await countedCore();
    const blob = new Blob([dump]);
    for (const size of [dump.length + 1, dump.length - 1]) {
      for (const file of [plainStreamFile(dump, size), { size, stream: () => blob.stream() }]) {
        await assert.rejects(readIntoHeap(core, file),
          (error) => error.kind === 'unreadable' && /cannot read the file: the file changed as it was read/.test(error.message));
      }
    }
    const failing = { size: 10, stream: () => new ReadableStream({ pull: (c) => c.error(new Error('gone')) }) };
    await assert.rejects(readIntoHeap(core, failing), (error) => error.kind === 'unreadable' && /gone/.test(error.message));
    assert.equal(taken.size, 0);
  });

  test('a file past the heap\'s 32-bit sizes is refused before anything is taken', async () => {
    const { core, taken } = await countedCore();
    const huge = { size: 2 ** 32 + 16, stream: () => assert.fail('not read') };
    await assert.rejects(readIntoHeap(core, huge), (error) => error.kind === 'no_memory');
    assert.equal(taken.size, 0);
  });
});
