// The catalogue of hostile and broken inputs dropped on the page: each
// gives the map or its error in place of the map (with the line), and the
// next good dump opens after it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { launch, openPage, settled } from '../support/browser.mjs';
import { catalogue, good } from '../support/catalogue.mjs';

let env;
let page;
const work = mkdtempSync(join(tmpdir(), 'mm-hostile-page-'));
before(async () => {
  env = await launch();
  page = await openPage(env.browser, env.url);
});
after(async () => {
  const problems = page?.problems() ?? [];
  await env?.close();
  rmSync(work, { recursive: true, force: true });
  assert.deepEqual(problems, []);
});

/** Drops raw bytes as a file: written to disk and chosen in an input of
 * the test's, so the browser reads the file itself (megabytes sent
 * through the driver as base64 cost seconds each). */
async function dropBytes(name, bytes) {
  const path = join(work, name);
  writeFileSync(path, bytes);
  await page.evaluate(() => {
    document.getElementById('chosen')?.remove();
    document.body.append(Object.assign(document.createElement('input'), { type: 'file', id: 'chosen', hidden: true }));
  });
  await page.setInputFiles('#chosen', path);
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(document.getElementById('chosen').files[0]);
    document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction((fileName) => {
    const m = document.getElementById('message');
    if (!m.hidden) return m.classList.contains('error') && m.textContent.includes(fileName);
    return document.querySelector('#summary .dump-name')?.textContent === fileName;
  }, name, { timeout: 60000, polling: 50 });
}

describe('hostile and broken input dropped on the page', () => {
  for (const entry of catalogue) {
    test(entry.name, async () => {
      const name = `${entry.name.replace(/\W+/g, '_')}.py`;
      await dropBytes(name, entry.make());
      if (entry.refused) {
        const text = await page.locator('#message').innerText();
        assert.ok(text.startsWith(`Cannot show ${name}${entry.refused.line ? `, line ${entry.refused.line}` : ''}`), text.slice(0, 200));
        assert.match(text, entry.refused.message);
        assert.equal(await page.locator('#cards').isVisible(), false);
      } else {
        await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
        assert.equal(await page.locator('#message').isVisible(), false);
      }
      // The page stays usable: the next good dump opens.
      await dropBytes('good.py', Buffer.from(good));
      await settled(page);
      assert.equal(await page.locator('.card.open .box').count(), 1);
    });
  }

  test('over-capacity tiles are drawn where they are, past the capacity rule, counted and flagged', async () => {
    const entry = catalogue.find((e) => e.name === 'a tile beyond the capacity');
    await dropBytes('over.py', entry.make());
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    assert.equal(await page.locator('.card.open .anomaly').innerText(), '1 over capacity');
    const beyond = page.locator('.box[data-tile="beyond"]');
    assert.equal(await beyond.evaluate((b) => b.classList.contains('over')), true);
    const rule = await page.locator('.lane[data-space="Vec"] .capacity-rule').boundingBox();
    const box = await beyond.boundingBox();
    const lane = await page.locator('.lane[data-space="Vec"]').boundingBox();
    assert.ok(box.x < rule.x && box.x + box.width > rule.x + 1, 'the box straddles the capacity line');
    assert.ok(box.x + box.width <= lane.x + lane.width + 1, 'the lane widens to hold it');
    await beyond.hover();
    assert.match(await page.locator('.tooltip').innerText(), /over capacity: outside the 184 KB of Vec/);
  });
});
