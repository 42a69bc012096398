// The card the page rehearses while it waits (web/page/rehearsal.js): it is
// the core's model of warm-up.js's rehearsalDump, it is laid out and gone
// within one task, and a dump opened after it shows exactly as in a page
// that never rehearsed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { analyzeDumpJson } from '../../web/engine/core.js';
import { parseModel } from '../../web/engine/model-json.js';
import { rehearsalDump } from '../../web/engine/warm-up.js';
import { loadCore } from '../../tools/load-core.mjs';
import { drop, finish, fixture, launch, openPage, settled } from '../support/browser.mjs';
import { cliPage, corpus, root } from '../support/helpers.mjs';

const offlineFile = join(root, 'dist', 'memory-map.html');
const rehearsalIn = (html) => html.match(/<script type="application\/json" id="rehearsal">(.*?)<\/script>/s)?.[1];

let env;
before(async () => { env = await launch(); });
after(async () => { await env.close(); });

const rehearsed = (page) => page.waitForFunction(() => window.memoryMapStats.rehearsed > 0);
/** Resolves once the page's idle callbacks asked for as it started have
 * run (they run in the order asked, each by its timeout at the latest):
 * the rehearsal's among them, whether it laid a card out or not. */
const pastRehearsal = (page) => page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 })));

/** What a user could see or keep of the page: its DOM, title and link. */
const pageState = (page) => page.evaluate(() => ({
  main: document.querySelector('main').outerHTML,
  title: document.title,
  hash: location.hash,
  focused: document.activeElement === document.body,
}));

/** The first card of `dump` as the page shows it (its DOM and its link). */
async function firstCard(page, dump) {
  await drop(page, [dump]);
  await settled(page);
  return page.evaluate(() => ({ card: document.querySelector('.card.open').outerHTML, hash: location.hash }));
}

describe('the rehearsed card', () => {
  test('each form of the page carries the core\'s model of the rehearsal dump', async () => {
    const core = await loadCore();
    const expected = parseModel(analyzeDumpJson(core, rehearsalDump(), { dumpName: 'rehearsal.py' }));
    assert.ok(expected.functions[0].boxes.length > 0, 'a card with tiles to lay out');
    for (const file of [offlineFile, join(root, 'dist', 'site', 'index.html')]) {
      const json = rehearsalIn(readFileSync(file, 'utf8'));
      assert.ok(json, `${file} has #rehearsal`);
      assert.deepEqual(JSON.parse(json), expected);
    }
  });

  /** A page at `url` whose rehearsal cannot be read: none happens, and
   * nothing fails for it. */
  async function withoutRehearsal(url, html) {
    const page = await openPage(env.browser, null);
    await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html.replace(rehearsalIn(html), '{"functions": [') }));
    await page.goto(url);
    await pastRehearsal(page);
    assert.equal(await page.evaluate(() => window.memoryMapStats.rehearsed), 0);
    return page;
  }

  const forms = {
    hosted: () => [env.url, readFileSync(join(root, 'dist', 'site', 'index.html'), 'utf8')],
    'file://': () => [pathToFileURL(offlineFile).href, readFileSync(offlineFile, 'utf8')],
  };

  for (const [form, where] of Object.entries(forms)) {
    test(`${form}: laid out while the page waits, and nothing of it stays`, async () => {
      const [url, html] = where();
      const plain = await withoutRehearsal(url, html);
      const expected = await pageState(plain);
      await finish(plain);
      assert.equal(expected.hash, '');
      const page = await openPage(env.browser, url);
      await rehearsed(page);
      assert.deepEqual(await pageState(page), expected);
      assert.equal(await page.locator('.card, .rehearsal').count(), 0);
      await finish(page);
    });
  }

  test('a dump opened after it shows as in a page that cannot rehearse', async () => {
    const html = readFileSync(offlineFile, 'utf8');
    const url = pathToFileURL(offlineFile).href;
    const dump = fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py');
    const page = await openPage(env.browser, url);
    await rehearsed(page);
    const shown = await firstCard(page, dump);
    await finish(page);

    const plain = await withoutRehearsal(url, html);
    assert.deepEqual(await firstCard(plain, dump), shown);
    await finish(plain);
  });

  test('a page that shows its model as it loads (the CLI\'s) does not rehearse', async () => {
    const page = await openPage(env.browser, pathToFileURL(cliPage(join(corpus, 'real', 'norm_rope.py'))).href);
    await settled(page);
    await pastRehearsal(page);
    assert.equal(await page.evaluate(() => window.memoryMapStats.rehearsed), 0);
    await finish(page);
  });
});
