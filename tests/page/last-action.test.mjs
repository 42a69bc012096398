// The user's last action wins (Chromium): a slower, earlier dump never
// replaces a later one, whatever the way in, and the page never shows a
// mix of two dumps (the header of one, the cards of the other).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { finish, fixture, launch, openPage, settled } from '../support/browser.mjs';
import { root } from '../support/helpers.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const real = fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py');
const small = fixture('real/norm_rope.py');
const offline = pathToFileURL(join(root, 'dist', 'memory-map.html')).href;

/**
 * Drops files in the page, each list after the delay before it (ms; 0:
 * the same task). `big` entries are the real dump's functions repeated
 * under fresh names to about `big` bytes (made in the page).
 */
function dropInTurn(page, steps) {
  return page.evaluate(async (list) => {
    const make = ({ name, text, big }) => {
      if (!big) return new File([text], name);
      const lines = text.split('\n');
      const first = lines.findIndex((l) => /^ {4}@/.test(l));
      const parts = [lines.slice(0, first).join('\n')];
      const body = lines.slice(first).join('\n');
      for (let copy = 0, size = 0; size < big; copy++) {
        const renamed = body.replace(/^( {4}def )(\w+)\(/gm, (_, def, fn) => `${def}${fn}_r${copy}(`);
        parts.push(renamed);
        size += renamed.length;
      }
      return new File([parts.join('\n')], name);
    };
    const files = list.map(({ files }) => files.map(make)); // made before the clock starts
    const target = document.querySelector('main');
    for (const [i, { delay }] of list.entries()) {
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      const transfer = new DataTransfer();
      for (const f of files[i]) transfer.items.add(f);
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, steps);
}

/** Waits until nothing is loading, then a while longer: a superseded
 * result would arrive and show in that time. */
async function quiet(page, ms = 1500) {
  await settled(page);
  await page.waitForTimeout(ms);
  await settled(page);
}

/** What the page shows: the header's dump, the cards, the tab's title. */
const shown = (page) => page.evaluate(() => ({
  dump: document.querySelector('#summary .dump-name')?.textContent ?? null,
  functions: Number(/(\d+) compute function/.exec(document.getElementById('summary').textContent)?.[1] ?? -1),
  cards: document.querySelectorAll('.card').length,
  title: document.title,
}));

describe('the last drop wins', () => {
  test('a 10 MB dump, then 30 ms later a small one: the small one shows, whole', async () => {
    const page = await openPage(env.browser, offline);
    await dropInTurn(page, [
      { delay: 0, files: [{ ...real, name: 'huge_10mb.py', big: 10_000_000 }] },
      { delay: 30, files: [small] },
    ]);
    await quiet(page);
    assert.deepEqual(await shown(page), { dump: 'norm_rope.py', functions: 1, cards: 1, title: 'norm_rope.py — Memory Map' });
    await finish(page);
  });

  test('two drops in the same task, the first a big one still being read: the second shows', async () => {
    const page = await openPage(env.browser, offline);
    await dropInTurn(page, [{ delay: 0, files: [{ ...real, name: 'huge_10mb.py', big: 10_000_000 }] }, { delay: 0, files: [small] }]);
    await quiet(page, 800);
    assert.equal((await shown(page)).dump, 'norm_rope.py');
    await finish(page);
  });

  test('a drop while the previous one renders its cards: the later one shows, no mix', async () => {
    const page = await openPage(env.browser, offline);
    // The second drop comes as soon as the first one's cards appear.
    await page.evaluate((file) => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.card')) return;
        observer.disconnect();
        const transfer = new DataTransfer();
        transfer.items.add(new File([file.text], file.name));
        document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }).observe(document.getElementById('cards'), { childList: true });
    }, small);
    await dropInTurn(page, [{ delay: 0, files: [real] }]);
    await quiet(page, 800);
    const view = await shown(page);
    assert.deepEqual(view, { dump: 'norm_rope.py', functions: 1, cards: 1, title: 'norm_rope.py — Memory Map' });
    await finish(page);
  });
});

describe('the last action wins, whatever the way in', () => {
  test('Open dump… then a drop before it is shown: the drop shows', async () => {
    const page = await openPage(env.browser, offline);
    await page.setInputFiles('#file', { name: real.name, mimeType: 'text/plain', buffer: Buffer.from(real.text) });
    await dropInTurn(page, [{ delay: 0, files: [small] }]);
    await quiet(page, 800);
    assert.equal((await shown(page)).dump, 'norm_rope.py');
    await finish(page);
  });

  test('the example button, then a drop before it shows: the drop shows', async () => {
    const page = await openPage(env.browser, offline);
    await page.click('[data-example="cube"]');
    await dropInTurn(page, [{ delay: 0, files: [small] }]);
    await quiet(page, 800);
    assert.equal((await shown(page)).dump, 'norm_rope.py');
    await finish(page);
  });

  test('a ?dump= link (with a deep link), then a drop before it shows: the drop shows, not the link\'s card', async () => {
    const page = await openPage(env.browser, null);
    await page.goto(`${env.url}?dump=examples/decode_fwd/32_after_AllocateMemoryAddr.py#fn=k_proj&line=450`, { waitUntil: 'commit' });
    // The page listens for drops once its script has started (it sets
    // memoryMapStats then); the link's dump is still being fetched.
    await page.waitForFunction(() => window.memoryMapStats);
    await dropInTurn(page, [{ delay: 0, files: [small] }]);
    await quiet(page);
    const view = await shown(page);
    assert.deepEqual([view.dump, view.cards], ['norm_rope.py', 1]);
    await finish(page);
  });

  test('a drop, then the backend changed while it is read: the drop with that backend shows', async () => {
    const page = await openPage(env.browser, offline);
    await dropInTurn(page, [{ delay: 0, files: [{ ...real, name: 'huge_10mb.py', big: 10_000_000 }] }]);
    await page.waitForTimeout(30);
    await page.selectOption('#backend', 'Ascend950');
    await quiet(page);
    const view = await shown(page);
    assert.equal(view.dump, 'huge_10mb.py');
    assert.match(await page.locator('#summary').innerText(), /Ascend950/);
    await finish(page);
  });

  test('a .pto after a big dump: the dump with the .pto\'s backend shows', async () => {
    const page = await openPage(env.browser, offline);
    await dropInTurn(page, [
      { delay: 0, files: [{ ...real, name: 'huge_10mb.py', big: 10_000_000 }] },
      { delay: 30, files: [{ name: 'a.pto', text: 'module attributes {pto.target_arch = "a5"}' }] },
    ]);
    await quiet(page);
    assert.equal((await shown(page)).dump, 'huge_10mb.py');
    assert.match(await page.locator('#summary').innerText(), /Ascend950/);
    assert.doesNotMatch(await page.locator('#summary').innerText(), /assumed/);
    await finish(page);
  });
});
