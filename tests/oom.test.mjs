// Out of memory in the WebAssembly heap is an error, never a dead module or
// a dead tab: a build of the core capped at 64 MB (memory_map_core_small)
// meets an input that needs more, reports it, and keeps working.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { analyzeDump } from '../web/core.js';
import { workerSource } from '../tools/bundle.mjs';
import { loadCore } from '../tools/load-core.mjs';
import { drop, launch, openPage, settled } from './browser.mjs';
import { good } from './catalogue.mjs';
import { dumpWith, tileType } from './helpers.mjs';

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
