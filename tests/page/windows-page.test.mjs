// What holds the space, in Chromium: a reserved window's band and its
// tooltip with the ring's next slot, the window in the peak composition
// and the line inspector, the largest free gap, use ticks, and the "Held
// while idle" list whose names pin their tile.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { finish, fixture, launch, pageWith as openPageWith, rect } from '../support/browser.mjs';
import { dumpWith, tileType } from '../support/helpers.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const pageWith = (files, options) => openPageWith(env.browser, env.url, files, options);
const near = (a, b, tolerance = 1.5) => Math.abs(a - b) <= tolerance;
const vec = (name, base, offset, size, value = 'pl.tile.load(x)') => `${name}: ${tileType('Vec', base, offset, size)} = ${value}`;

// Vec: a 32 KB ring at 0 in 4 slots of 8 KB; a [32768, 36864) lines 10-17
// used on 10, 11 and 17 (idle 12-16); b [36864, 40960) lines 12-13.
const ring = {
  name: '32_after_AllocateMemoryAddr.py',
  text: dumpWith([
    "ring: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='c2v_ring', size=32768, base=0)", // 8
    'pl.system.aiv_initialize_pipe(ring, dir_mask=3, slot_size=8192)', // 9
    vec('a', 'm1', 32768, 4096), // 10
    'y = f(a)', // 11
    vec('b', 'm2', 36864, 4096), // 12
    'z = b', // 13
    'u = 1', 'v = 1', 'w = 1', // 14-16
    'return a', // 17
  ]),
};

describe('reserved windows on the map', () => {
  test('a hatched band over the whole lane at its bytes, named, with the ring\'s slots', async () => {
    const page = await pageWith([ring]);
    const card = page.locator('.card').first();
    await card.locator('.axis[data-axis="used"]').click(); // lane = 0..40960 B
    const lane = await rect(card.locator('.lane[data-space="Vec"]'));
    const band = card.locator('.lane[data-space="Vec"] .window-band');
    assert.equal(await band.count(), 1);
    const r = await rect(band);
    assert.ok(near(r.x, lane.x) && near(r.width, lane.width * 0.8), `32 of 40 KB from byte 0: ${r.width} of ${lane.width}`);
    assert.ok(near(r.height, lane.height), 'the whole function');
    assert.equal(await band.locator('.window-label').innerText(), 'c2v_ring · cross-core ring, 4 × 8 KB');
    await finish(page);
  });

  test('its tooltip gives the bytes, the slots and what one more slot would do', async () => {
    const page = await pageWith([ring]);
    const band = page.locator('.window-band').first();
    const r = await rect(band);
    await page.mouse.move(r.x + r.width / 2, r.y + r.height - 10); // below every tile
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    const text = await tip.innerText();
    assert.match(text, /c2v_ring/);
    assert.match(text, /\[0, 32768\), 32 KB/);
    assert.match(text, /cross-core ring, 4 × 8 KB/);
    assert.match(text, /one more slot\s+high-water mark 48 KB \(49152 B\) of 184 KB: fits/);
    await finish(page);
  });

  test('the pill counts the window in the high-water mark and gives the headroom', async () => {
    const page = await pageWith([ring]);
    const pill = page.locator('.pill[data-space="Vec"]');
    assert.match(await pill.textContent(), /Vec 21\.7%\s· 40 KB \/ 184 KB\s· 144 KB free/);
    const title = await pill.getAttribute('title');
    assert.match(title, /reserved windows 32 KB \(32768 B\), counted in the high-water mark/);
    assert.match(title, /headroom 144 KB \(147456 B\)/);
    assert.match(title, /fragmentation 0 B/);
    await finish(page);
  });

  test('the peak composition lists the window with the tiles, and the map shows the peak line', async () => {
    const page = await pageWith([ring]);
    await page.locator('.pill[data-space="Vec"]').click();
    const peak = page.locator('.panel-peak');
    assert.match(await peak.locator('h2').innerText(), /Peak of Vec: 40 KB live on line 12/);
    assert.match(await peak.innerText(), /32 KB of it reserved windows, 144 KB headroom/);
    const windowRow = peak.locator('.panel-windows li');
    assert.equal(await windowRow.count(), 1);
    assert.match(await windowRow.innerText(), /c2v_ring\s+32 KB\s+80\.0% \[0, 32768\)\s+all lines\s+cross-core ring/);
    // Will one more slot fit? Answered in the panel, not only on hover.
    assert.equal(await windowRow.locator('.window-more').innerText(), 'one more slot: high-water mark 48 KB (49152 B) of 184 KB: fits');
    assert.deepEqual(await peak.locator('.panel-tiles .tile-link').allInnerTexts(), ['a', 'b']);
    await finish(page);
  });

  test('by keyboard: the band is a Tab stop whose tooltip and name say whether one more slot fits; Enter pins its line', async () => {
    const page = await pageWith([ring]);
    const card = page.locator('.card').first();
    await card.locator('.zoom-out').focus();
    // Tab to the map, which hands the focus to a tile.
    for (let i = 0; i < 16 && !(await page.evaluate(() => document.activeElement?.classList.contains('box'))); i++) await page.keyboard.press('Tab');
    assert.ok(await page.evaluate(() => document.activeElement.classList.contains('box')));
    await page.keyboard.press('Shift+Tab');
    const band = card.locator('.window-band');
    assert.ok(await band.evaluate((b) => b === document.activeElement), 'Shift+Tab from the tile reaches the ring');
    assert.match(await band.getAttribute('aria-label'), /c2v_ring.*one more slot: high-water mark 48 KB \(49152 B\) of 184 KB: fits$/);
    assert.match(await page.locator('.tooltip').innerText(), /one more slot\s+high-water mark 48 KB \(49152 B\) of 184 KB: fits/);
    await page.keyboard.press('Enter');
    assert.match(await card.locator('.panel-head').innerText(), /^Line 8/);
    assert.match(await card.locator('.panel').innerText(), /one more slot: high-water mark 48 KB \(49152 B\) of 184 KB: fits/);
    await finish(page);
  });

  test('the Table lists the ring with one more slot, sorts by any column, and a name goes to its tile', async () => {
    const page = await pageWith([ring]);
    const card = page.locator('.card').first();
    await card.locator('.table-toggle').click();
    const rows = () => card.locator('.box-table tbody tr').evaluateAll((rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    const ringRow = (await rows()).find((r) => r[0] === 'c2v_ring');
    assert.ok(ringRow, 'the reserved window has a row');
    assert.deepEqual(ringRow.slice(1, 6), ['Vec', '(reserved)', '32 KB', '[0, 32768)', 'all lines']);
    // The same words as the peak panel's and the tooltip's.
    assert.match(ringRow[8], /^cross-core ring, 4 × 8 KB; one more slot: high-water mark 48 KB \(49152 B\) of 184 KB: fits$/);
    const size = card.locator('.box-table th', { hasText: 'size' });
    const sizes = async () => (await rows()).map((r) => r[4].match(/\[(\d+), (\d+)\)/).slice(1).reduce((a, b) => b - a));
    await size.locator('button').click();
    assert.equal(await size.getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(await sizes(), [4096, 4096, 32768]);
    await size.locator('button').click();
    assert.equal(await size.getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await sizes(), [32768, 4096, 4096]);
    await card.locator('.box-table th', { hasText: 'live lines' }).locator('button').click();
    assert.deepEqual((await rows()).map((r) => r[0]), ['c2v_ring', 'a', 'b'], 'the ring holds its bytes from the first line');
    await card.locator('.box-table td button', { hasText: /^b$/ }).click();
    assert.ok(await card.locator('.box-table').isHidden(), 'back on the map');
    assert.equal(await card.locator('.chip-name').innerText(), 'b');
    // The ring's name goes to it: its line pinned.
    await card.locator('.table-toggle').click();
    await card.locator('.box-table td button', { hasText: 'c2v_ring' }).click();
    assert.ok(await card.locator('.box-table').isHidden(), 'back on the map');
    assert.match(await card.locator('.panel-head').innerText(), /^Line 8/);
    await finish(page);
  });

  test('a window past the capacity is an anomaly: N opens its card and pins its line', async () => {
    const text = dumpWith([
      "big = pl.system.reserve_buffer(name='big', size=8192, base=184320)", // 8: past 184 KB
      vec('a', 'm1', 0, 64), // 9
    ]);
    const page = await pageWith([{ name: 'over.py', text }]);
    assert.equal(await page.locator('#anomaly-count').innerText(), '1 anomaly');
    await page.keyboard.press('n');
    assert.match(await page.locator('#anomaly-count').innerText(), /1 \/ 1: over capacity/);
    assert.match(await page.locator('.panel-head').first().innerText(), /Line 8/);
    assert.ok(await page.locator('.window-band.conflict').isVisible());
    await finish(page);
  });

  test('the line inspector lists the window and the largest free gap on the line', async () => {
    const page = await pageWith([ring]);
    await page.locator('.row[data-line="11"]').click();
    const section = page.locator('.panel-space[data-space="Vec"]');
    assert.match(await section.locator('h2').innerText(), /Vec: 36 KB live in 1 tile and 1 reserved window/);
    // Live on 11: the ring [0, 32768) and a [32768, 36864); free from 36864 to 184 KB.
    assert.match(await section.locator('.panel-gap').innerText(),
      /largest free gap 148 KB at \[36864, 188416\): where a new tile live here fits/);
    await finish(page);
  });
});

describe('uses and idle spans on the map', () => {
  test('each box has a tick on every line it is used, at that line', async () => {
    const page = await pageWith([ring]);
    const card = page.locator('.card').first();
    const ticks = card.locator('.box[data-tile="a"] .use-ticks');
    const positions = await ticks.evaluate((n) => getComputedStyle(n).backgroundPosition);
    // a is used on lines 10-11 (one run) and 17: rows 0 and 7 of the box, centred.
    assert.equal(positions, '0px 8px, 0px 134px');
    assert.equal(await ticks.evaluate((n) => getComputedStyle(n).backgroundSize), '100% 20px, 100% 2px');
    const strip = await rect(ticks);
    const box = await rect(card.locator('.box[data-tile="a"]'));
    assert.ok(near(strip.x + strip.width, box.x + box.width, 2), 'on the right edge, clear of the label');
    await finish(page);
  });

  test('"Held while idle" lists the longest holds; a name pins its tile and scrolls to it', async () => {
    const page = await pageWith([ring]);
    const card = page.locator('.card').first();
    await card.locator('.idle-toggle').click();
    const panel = card.locator('.idle-panel');
    const rows = await panel.locator('li').allInnerTexts();
    assert.equal(rows.length, 1, rows.join('\n'));
    assert.match(rows[0], /^a\s+Vec\s+4 KB idle for 5 lines\s+lines 12–16\s+live 10–17, 3 uses$/, 'the space, and what the hold is in words');
    assert.equal(await panel.locator('li .num').getAttribute('title'), '20 KB × lines held idle', 'the product that orders the list, on hover');
    // Closed by keyboard, the focus goes back to the button that opened it.
    await panel.locator('.panel-close').focus();
    await page.keyboard.press('Enter');
    assert.ok(await panel.isHidden());
    assert.equal(await page.evaluate(() => document.activeElement.className), 'idle-toggle');
    await card.locator('.idle-toggle').click();
    await panel.locator('.tile-link', { hasText: 'a' }).click();
    assert.equal(await card.locator('.chip-name').innerText(), 'a');
    assert.ok(await card.locator('.box.pinned[data-tile="a"]').isVisible());
    await finish(page);
  });

  test('on the real dump fa_fused_aiv reads the truth: 32 KB reserved, no fragmentation', async () => {
    const page = await pageWith([fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py')]);
    const card = page.locator('.card[data-function="fa_fused_aiv"]');
    const title = await card.locator('.pill[data-space="Vec"]').getAttribute('title');
    assert.match(title, /high-water mark 40\.1 KB \(41024 B\)/);
    assert.match(title, /reserved windows 32 KB \(32768 B\)/);
    assert.match(title, /peak live 40\.1 KB \(41024 B\)/);
    assert.match(title, /fragmentation 0 B/);
    await card.locator('.card-toggle').click();
    // Its text, not innerText: a card body off screen may skip layout (content-visibility).
    assert.equal(await card.locator('.window-band .window-label').textContent(), 'fa_fused_c2v_slot_buffer · cross-core ring, 4 × 8 KB');
    await finish(page);
  });
});
