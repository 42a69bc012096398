// Out of memory in the WebAssembly heap is an error, never a dead module or
// a dead tab: a build of the core capped at 64 MB (memory_map_core_small)
// meets an input that needs more, reports it, and keeps working. And the
// heap past 2 GiB, where pointers stop fitting a signed number.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { analyzeDump } from '../../web/engine/core.js';
import { workerSource } from '../../tools/bundle.mjs';
import { loadCore } from '../../tools/load-core.mjs';
import { drop, launch, openPage, settled } from '../support/browser.mjs';
import { good } from '../support/catalogue.mjs';
import { corpus, dumpWith, tileType } from '../support/helpers.mjs';

// One statement of 10 MB: its syntax tree needs far more than 64 MB.
const huge = dumpWith([`t: ${tileType('Vec', 'm', 0, 64)} = f()`, 'y = f(' + 't, '.repeat(3_500_000) + 't)']);

describe('the core with a 64 MB heap', () => {
  test('reports no_memory for an input that needs more, then models the next dump', async () => {
    const core = await loadCore('memory_map_core_small');
    assert.throws(() => analyzeDump(core, Buffer.from(huge)), (e) => e.kind === 'no_memory' && /out of memory/.test(e.message));
    const model = analyzeDump(core, Buffer.from(good), { dumpName: 'good.py' });
    assert.equal(model.functions[0].boxes[0].name, 't');
  });
});

describe('the page with a 64 MB heap', () => {
  let env;
  before(async () => { env = await launch(); });
  after(async () => { await env?.close(); });

  test('shows the out-of-memory error in place of the map, and opens the next dump', async () => {
    const page = await openPage(env.browser, null);
    const small = workerSource('memory_map_core_small.js');
    // Serve the site with the small core in the page's worker.
    await page.route('**/', async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /<script type="text\/plain" id="worker-source">[\s\S]*?<\/script>/,
        () => `<script type="text/plain" id="worker-source">${small}</script>`);
      await route.fulfill({ response, body: html });
    });
    await page.goto(env.url);
    await drop(page, [{ name: 'huge.py', text: huge }]);
    await settled(page);
    assert.match(await page.locator('#message').innerText(), /Cannot show huge\.py[\s\S]*out of memory/);
    await drop(page, [{ name: 'good.py', text: good }]);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    assert.deepEqual(page.problems(), []);
    await page.close();
  });
});

// The heap may grow to 4 GiB; past 2 GiB the module's pointers no longer
// fit a signed 32-bit number, which web/engine/core.js must read unsigned.
const HOLD = 2200 * 2 ** 20;
const realDump = () => readFileSync(join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py'));

describe('the boundary past 2 GiB of heap', () => {
  test('in Node: with 2.2 GB of the heap held, a dump still gives its whole model', async () => {
    const core = await loadCore();
    const held = core._malloc(HOLD) >>> 0;
    assert.ok(held > 0, 'the heap grew');
    const model = analyzeDump(core, realDump(), { dumpName: 'd.py' });
    assert.ok(core.HEAPU8.length > 2 ** 31, 'the heap is past 2 GiB');
    assert.equal(model.functions.length, 38);
    core._free(held);
  });

  test('in the page: the same, shown as a map', async () => {
    const env2 = await launch();
    try {
      const page = await openPage(env2.browser, null);
      // The page's worker with 2.2 GB of its heap held as soon as the core starts.
      const source = workerSource().replace('self.memoryMapWasmGzip =',
        `const makeCore = createMemoryMapCore;
self.createMemoryMapCore = (options) => makeCore(options).then((core) => { core._malloc(${HOLD}); return core; });
self.memoryMapWasmGzip =`);
      await page.route('**/', async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace(/<script type="text\/plain" id="worker-source">[\s\S]*?<\/script>/,
          () => `<script type="text/plain" id="worker-source">${source}</script>`);
        await route.fulfill({ response, body: html });
      });
      await page.goto(env2.url);
      await drop(page, [{ name: 'd.py', text: realDump().toString('utf8') }]);
      await settled(page);
      assert.equal(await page.locator('.card').count(), 38, await page.locator('#message').innerText());
      assert.ok(await page.evaluate(() => window.memoryMapStats.heapBytes) > 2 ** 31, 'the worker\'s heap is past 2 GiB');
      assert.deepEqual(page.problems(), []);
      await page.close();
    } finally {
      await env2.close();
    }
  });
});
