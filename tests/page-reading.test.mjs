// The page as a kernel author reads it (Chromium): the top bar keeps to one
// row, a jump leaves its card in view below it, the IR source pane stays on
// top of every box, the legend and the live profile's outline, conflicts
// named with their partners, the keyboard, numbers in one format, pills
// that line up, tiny tiles that can be hit, and axe-core finding nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { finish, fixture, launch, pageWith as openPageWith, rect } from './browser.mjs';
import { dumpWith, tileType } from './helpers.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const pageWith = (files, options) => openPageWith(env.browser, env.url, files, options);
const real = () => fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py');
const longName = () => ({ ...real(), name: '68296077217.py' });
const widths = [1024, 1400, 1920];

/** Opens card `name` (closing the first one) and waits for its boxes. */
async function openCard(page, name) {
  await page.locator('.card').first().locator('.card-toggle').click();
  const card = page.locator(`.card[data-function="${name}"]`);
  await card.locator('.card-toggle').click();
  await card.locator('.box').first().waitFor();
  return card;
}

/** Whether `locator` lies wholly in the window below the top bar. */
async function inViewBelowBar(page, locator) {
  const r = await rect(locator);
  const bar = await rect(page.locator('#topbar'));
  const height = await page.evaluate(() => innerHeight);
  return r.y >= bar.y + bar.height - 0.5 && r.y + r.height <= height + 0.5;
}

describe('the top bar', () => {
  for (const width of widths) {
    test(`one row of at most 56 px at ${width} px, with a long dump name cut and whole in the title`, async () => {
      const page = await pageWith([longName()], { width });
      const bar = await rect(page.locator('#topbar'));
      assert.ok(bar.height <= 56, `the bar is ${bar.height} px`);
      const summary = page.locator('#summary');
      assert.ok((await rect(summary)).height <= 24, 'the summary keeps to one line');
      assert.match(await summary.getAttribute('title'), /^68296077217\.py · pass 68296077217 · 38 compute functions · 695 tiles · Ascend910B \(a2a3\) assumed/);
      assert.ok((await rect(page.locator('#backend'))).width <= 130, 'the backend select is no wider than its names');
      await finish(page);
    });
  }

  test('the tab names the dump; a refused drop after it clears the title and the old cards', async () => {
    const page = await pageWith([fixture('real/norm_rope.py')]);
    assert.equal(await page.title(), 'norm_rope.py — Memory Map');
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['x = (\n'], 'broken.py'));
      document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await page.waitForSelector('.message.error');
    assert.equal(await page.title(), 'Memory Map');
    assert.equal(await page.locator('.card').count(), 0, 'the refused dump leaves no card behind, hidden or not');
    await finish(page);
  });
});

describe('jumps keep the card in view below the top bar', () => {
  const jumps = {
    'find + Enter': async (page) => {
      await page.fill('#search', 'w_k_inline65__tile_1');
      await page.waitForFunction(() => /match/.test(document.getElementById('search-status').textContent));
      await page.press('#search', 'Enter');
      return 'down_proj';
    },
    'N (next anomaly)': async (page) => {
      await page.keyboard.press('n');
      return 'fa_fused_aiv';
    },
    "a pill's peak": async (page) => {
      await page.locator('.card[data-function="up_proj"] .pill[data-space="Mat"]').click();
      return 'up_proj';
    },
  };
  // A conflict late in a long real dump, for N.
  const withConflict = () => {
    const { text } = real();
    return { name: 'conflict.py', text: text.replace('pl.MemRef(mem_vec_12, pl.const(36864, pl.INT64), 4096)', 'pl.MemRef(mem_vec_12, pl.const(32768, pl.INT64), 4096)') };
  };
  for (const width of [1024, 1400]) {
    for (const [name, jump] of Object.entries(jumps)) {
      test(`${name} at ${width} px: header, toolbar, chip or panel, and the tile or line are all visible`, async () => {
        const page = await pageWith([withConflict()], { width, height: 800 });
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight)); // start far away
        const fn = await jump(page);
        const card = page.locator(`.card[data-function="${fn}"]`);
        await page.waitForTimeout(50);
        assert.ok(await inViewBelowBar(page, card.locator('.card-head')), 'card header');
        assert.ok(await inViewBelowBar(page, card.locator('.toolbar')), 'toolbar');
        const target = (await card.locator('.box.pinned').count()) ? card.locator('.box.pinned') : card.locator('.line-rule');
        const t = await rect(target);
        const map = await rect(card.locator('.viewport'));
        const bar = await rect(page.locator('#topbar'));
        const height = await page.evaluate(() => innerHeight);
        assert.ok(t.y >= Math.max(map.y + 40, bar.y + bar.height) - 1 && t.y + Math.min(t.height, 18) <= Math.min(map.y + map.height, height) + 1,
          `the pinned tile or line (${t.y}) is in the map's visible part`);
        await finish(page);
      });
    }
  }
});

describe('the IR source pane stays on top', () => {
  test('a pinned tile scrolled under the pane is painted and hit below it', async () => {
    const page = await pageWith([real()]);
    const card = await openCard(page, 'down_proj');
    const box = card.locator('.box[data-tile="a0_v2_inline39__tile"]');
    await box.click(); // pins it and opens the pane
    assert.ok(await card.locator('.left-column.open').isVisible());
    await card.locator('.zoom-in').click();
    await card.locator('.viewport').evaluate((v) => { v.scrollLeft = 120; });
    const pane = await rect(card.locator('.left-column'));
    const b = await rect(box);
    assert.ok(b.x < pane.x + pane.width, 'the box reaches under the pane');
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('.box, .left-column')?.className,
      [pane.x + pane.width - 4, b.y + 4]);
    assert.match(hit, /left-column/);
    await finish(page);
  });
});
