// The page of docs/page.md in real Chromium: every way of getting
// a dump in and every interaction, checked by its visible effect.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { drop, finish, fixture, launch, openPage, pageWith as openPageWith, rect, settled } from '../support/browser.mjs';
import { dumpWith, root, tileType } from '../support/helpers.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const decodeFwd = () => fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py', '41_after_MaterializeRuntimeScopes.py');

const pageWith = (files, options) => openPageWith(env.browser, env.url, files, options);

/** Opens the card of `name` and returns its locator. */
async function openCard(page, name) {
  const card = page.locator(`[data-function="${name}"]`);
  if ((await card.getAttribute('class')).split(' ').includes('open') === false) await card.locator('.card-toggle').click();
  await card.locator('.box').first().waitFor();
  return card;
}

describe('getting a dump in', () => {
  test('dropping a dump shows one card per compute function, the first one open', async () => {
    const page = await pageWith([decodeFwd()]);
    assert.equal(await page.locator('.card').count(), 38);
    assert.equal(await page.locator('.card.open').count(), 1);
    assert.equal(await page.locator('.card').first().getAttribute('data-function'), 'copy_hidden');
    // The other cards are built only when opened.
    assert.equal(await page.locator('.card-body').count(), 1);
    const summary = await page.locator('#summary').innerText();
    for (const part of ['41_after_MaterializeRuntimeScopes.py', 'pass MaterializeRuntimeScopes', '38 compute functions', '695 tiles', 'Ascend910B (a2a3)', 'assumed'])
      assert.ok(summary.includes(part), `${part} in ${summary}`);
    await finish(page);
  });

  test('the file button opens a dump', async () => {
    const page = await openPage(env.browser, env.url);
    await page.setInputFiles('#file', { name: 'vector_division.py', mimeType: 'text/plain', buffer: Buffer.from(fixture('real/vector_division.py').text) });
    await settled(page);
    assert.equal(await page.locator('.card').getAttribute('data-function'), 'vector_division_incore_0');
    await finish(page);
  });

  test('a build_output/<case>/ folder through the folder input: the dump, the pass picker, the detected backend', async () => {
    const page = await openPage(env.browser, env.url);
    const { corpus } = await import('../support/helpers.mjs');
    await page.setInputFiles('#folder', `${corpus}/cases/decode_fwd`);
    await settled(page);
    const summary = await page.locator('#summary').innerText();
    assert.ok(summary.includes('32_after_AllocateMemoryAddr.py'), summary);
    assert.ok(!summary.includes('assumed'), 'the backend came from ptoas/*.pto');
    assert.equal(await page.locator('#pass-picker').isVisible(), true);
    // In the order the compiler ran them; 00_frontend.py is no *_after_* dump.
    assert.deepEqual(await page.locator('#pass option').allTextContents(), ['ExpandMixedKernel', 'LowerPipelineLoops',
      'InitMemRef', 'MemoryReuse', 'AllocateMemoryAddr', 'DeriveCallDirections', 'Simplify', 'MaterializeRuntimeScopes']);
    assert.equal(await page.locator('#pass').inputValue(), 'AllocateMemoryAddr');
    // Another pass from the picker: Simplify is after allocation and renders too.
    await page.selectOption('#pass', 'Simplify');
    await page.waitForFunction(() => document.getElementById('summary').textContent.includes('40_after_Simplify.py'));
    // A pass before allocation is refused with its reason.
    await page.selectOption('#pass', 'InitMemRef');
    await page.waitForSelector('.message.error');
    assert.match(await page.locator('#message').innerText(), /AllocateMemoryAddr/);
    await finish(page);
  });

  test('a .pto dropped with or after the dump sets the backend and its capacities', async () => {
    const text = dumpWith([`d: ${tileType('Bias', 'm', 0, 1024)} = f()`]);
    const page = await pageWith([{ name: 'k.py', text }]);
    assert.ok((await page.locator('#summary').innerText()).includes('assumed'));
    assert.match(await page.locator('.pill').innerText(), /100\.0%\s· 1 KB \/ 1 KB/);
    await drop(page, [{ name: 'a.pto', text: 'module attributes {pto.target_arch = "a5"}' }]);
    await page.waitForFunction(() => document.getElementById('summary').textContent.includes('Ascend950'));
    assert.match(await page.locator('.pill').innerText(), /25\.0%\s· 1 KB \/ 4 KB/);
    assert.ok(!(await page.locator('#summary').innerText()).includes('assumed'));
    await finish(page);
    const together = await pageWith([{ name: 'k.py', text }, { name: 'a.pto', text: 'pto.target_arch = "a5"' }]);
    assert.match(await together.locator('.pill').innerText(), /25\.0%\s· 1 KB \/ 4 KB/);
    await finish(together);
  });

  test('a .pto opened alone: after a refused dump it says it was applied; before any dump it waits for the next', async () => {
    const a5 = { name: 'a.pto', text: 'module attributes {pto.target_arch = "a5"}' };
    const page = await pageWith([{ name: 'broken.py', text: 'import pypto\nx = f(\n' }]);
    await drop(page, [a5]);
    await page.waitForSelector('#message .pto-note');
    assert.match(await page.locator('#message h2').innerText(), /^Cannot show broken\.py, line 2/);
    assert.equal(await page.locator('#message .pto-note').innerText(), 'a.pto was applied for the chip: the dump is still refused.');
    await finish(page);
    const first = await openPage(env.browser, env.url);
    await drop(first, [a5]);
    await first.waitForFunction(() => /a\.pto read/.test(document.getElementById('message').textContent));
    assert.match(await first.locator('#message').innerText(), /names the chip for the next dump you open/);
    await drop(first, [{ name: 'k.py', text: dumpWith([`d: ${tileType('Bias', 'm', 0, 1024)} = f()`]) }]);
    await first.waitForFunction(() => document.getElementById('summary').textContent.includes('Ascend950'));
    assert.match(await first.locator('.pill').innerText(), /25\.0%\s· 1 KB \/ 4 KB/);
    await finish(first);
  });

  test('the backend selector overrides detection', async () => {
    const page = await pageWith([{ name: 'k.py', text: dumpWith([`d: ${tileType('Acc', 'm', 0, 131072)} = f()`]) }]);
    assert.match(await page.locator('.pill').innerText(), /100\.0%\s· 128 KB \/ 128 KB/);
    await page.selectOption('#backend', 'Ascend950');
    await page.waitForFunction(() => document.querySelector('.pill')?.textContent.includes('256 KB'));
    assert.match(await page.locator('.pill').innerText(), /50\.0%\s· 128 KB \/ 256 KB/);
    await finish(page);
  });

  test('a refused dump shows its message and line in place of the map; the next drop works', async () => {
    const broken = fixture('real/vector_division.py', 'broken.py');
    broken.text = broken.text.replace(/\n/, '\nx = = 1\n');
    const page = await pageWith([broken]);
    const message = await page.locator('#message').innerText();
    assert.match(message, /Cannot show broken\.py, line 2/);
    assert.match(message, /invalid syntax/);
    assert.equal(await page.locator('#cards').isVisible(), false);
    await drop(page, [fixture('real/pa3__12_after_AllocateMemoryAddr.py')]);
    await page.waitForFunction(() => {
      const message = document.getElementById('message');
      return message.classList.contains('note') && message.textContent.includes('pa3__12');
    });
    // Written after AllocateMemoryAddr with no compute function: nothing on chip, said as a note, not as an error.
    assert.match(await page.locator('#message').innerText(), /^Nothing on chip in pa3__12_after_AllocateMemoryAddr\.py\n+the dump has no compute function/);
    assert.equal(await page.locator('#summary').innerText(), '', 'the broken dump before it is gone');
    await drop(page, [fixture('real/vector_division.py')]);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    assert.equal(await page.locator('#message').isVisible(), false);
    await finish(page);
  });

  test('what only the printer writes is listed above the cards, and goes with the next drop', async () => {
    const page = await pageWith([fixture('real/qwen3_32b_decode__13_after_AllocateMemoryAddr.py')]);
    const notes = page.locator('#notes');
    assert.equal(await notes.isVisible(), true);
    const items = await notes.locator('li').allInnerTexts();
    assert.deepEqual(items.map((t) => t.replace(/:.*/, '')), ['line 195 (and 5 more)', 'line 195 (and 5 more)', 'line 351']);
    assert.match(items[1], /<unsupported IRNode type>/);
    assert.doesNotMatch(await notes.innerText(), /null|undefined/);
    assert.equal(await page.locator('.card').count(), 3);
    await drop(page, [fixture('real/vector_division.py')]);
    await page.waitForFunction(() => document.getElementById('summary').textContent.includes('vector_division'));
    assert.equal(await notes.isVisible(), false);
    await finish(page);
  });

  test('a build planned by ptoas: the refusal offers the map by lifetime, and it draws', async () => {
    const dump = { name: 'mk__47_after_MaterializeValidShapeSymbols.py', text: readFileSync(join(root, 'tests', 'fixtures', 'pypto-e2d0f78', 'mk__47_after_MaterializeValidShapeSymbols.py'), 'utf8') };
    const page = await pageWith([dump]);
    assert.match(await page.locator('#message').innerText(), /memory_planner=PTOAS/);
    assert.doesNotMatch(await page.locator('#message').innerText(), /--lifetimes/, 'the page names its own button, not the CLI\'s flag');
    await page.locator('button.draw-lifetimes').click();
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    assert.match(await page.locator('.lifetime-notice').innerText(), /No addresses in this dump \(ptoas assigns them\).*Vec 64 KB, 120 KB free above it/s);
    // Its offsets are the packing's, and look it: pills give the least needed, boxes say packed.
    const card = page.locator('.card.open').first();
    assert.match(await card.locator('.pill[data-space="Vec"]').innerText(), /^Vec ≥ \d+\.\d%\s· ≥ 64 KB \/ 184 KB\s· ≤ 120 KB free$/);
    assert.equal(await card.locator('.pill.packed').count(), await card.locator('.pill').count());
    assert.match(await card.locator('.lane-head').first().innerText(), /packed by lifetime/);
    assert.ok((await card.locator('.box .box-size').allInnerTexts()).every((t) => /· packed$/.test(t)), 'no address range on a packed box');
    await card.locator('.box').first().hover();
    assert.match(await page.locator('.tooltip').innerText(), /packed at \[\d+, \d+\).*no dump holds its address/s);
    assert.equal(await page.locator('.window-band').count(), 1, 'the ring; ptoas holds the pinned pipe over its loop, not as a window');
    // Saved as SVG, it is the map drawn by lifetime, not the refusal.
    await card.locator('.share-menu summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), card.locator('.save-svg').click()]);
    const svg = readFileSync(await download.path(), 'utf8');
    assert.match(svg, /^<svg|^<\?xml/);
    assert.match(await card.locator('.share-status').innerText(), /^saved mk__47_after_MaterializeValidShapeSymbols\..*\.svg$/);
    await finish(page);
  });

  test('the bundled example is one click away', async () => {
    const page = await openPage(env.browser, env.url);
    await page.click('[data-example="decode_fwd"]');
    await settled(page);
    assert.equal(await page.locator('.card').count(), 38);
    assert.ok(!(await page.locator('#summary').innerText()).includes('assumed'));
    await finish(page);
  });
});

describe('reading the map', () => {
  test('card header: name, type and a pill per space; red at ≥ 95 %', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = page.locator('[data-function="down_proj"]');
    assert.equal(await card.locator('.ftype').innerText(), 'AIC');
    assert.deepEqual(await card.locator('.pill').evaluateAll((ps) => ps.map((p) => [p.dataset.space, p.classList.contains('alert')])),
      [['Mat', false], ['Left', false], ['Right', true], ['Acc', false]]);
    // Every part at every width (tests/page/page-reading.test.mjs holds 1024 to 1920); its tooltip has the bytes.
    assert.match(await card.locator('.pill[data-space="Right"]').innerText(), /^Right 100\.0%\s· 64 KB \/ 64 KB\s· 0 B free$/);
    assert.match(await card.locator('.pill[data-space="Right"]').getAttribute('title'), /high-water mark 64 KB \(65536 B\) of 64 KB/);
    await finish(page);
  });

  test('pills turn red exactly from the figure "95.0%"', async () => {
    // 94.95 % of Vec's 188416 bytes is 178901.0, of Mat's 524288 is 497811.5: the figure rounds to the nearest tenth.
    const text = dumpWith([`a: ${tileType('Vec', 'm', 0, 178902)} = f()`, `b: ${tileType('Mat', 'n', 0, 497811)} = f()`]);
    const page = await pageWith([{ name: 'k.py', text }]);
    const pills = await page.locator('.pill').evaluateAll((ps) => ps.map((p) => [p.textContent, p.classList.contains('alert')]));
    assert.deepEqual(pills, [['Vec 95.0%\u00a0· 174.7 KB / 184 KB\u00a0· 9.29 KB free', true], ['Mat 94.9%\u00a0· 486.1 KB / 512 KB\u00a0· 25.9 KB free', false]]);
    await finish(page);
  });

  test('one shared byte scale: 512 KB of Mat is 8× as wide as 64 KB of Left', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    const width = async (space) => (await rect(card.locator(`.lane[data-space="${space}"]`))).width;
    const [mat, left, acc] = [await width('Mat'), await width('Left'), await width('Acc')];
    assert.ok(Math.abs(mat / left - 8) < 0.01, `${mat} / ${left}`);
    assert.ok(Math.abs(acc / left - 2) < 0.01);
    assert.ok(left >= 72, 'the narrowest lane is at least 72 px');
    // x axis: used spans each lane to its high-water mark instead.
    await card.locator('.axis[data-axis="used"]').click();
    const used = await width('Mat') / await width('Left');
    assert.ok(Math.abs(used - 260 / 1) < 1, `Mat 260 KB used vs Left 1 KB used: ${used}`);
    await finish(page);
  });

  test('resizing the window refits the open cards on one scale', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    const width = async (space) => (await rect(card.locator(`.lane[data-space="${space}"]`))).width;
    const before = await width('Mat');
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.waitForFunction((w) => {
      const lane = document.querySelector('[data-function="down_proj"] .lane[data-space="Mat"]');
      return lane.getBoundingClientRect().width < w - 100;
    }, before);
    assert.ok(Math.abs(await width('Mat') / await width('Left') - 8) < 0.01);
    await finish(page);
  });

  test('boxes sit on their lines and bytes; views are dashed, conflicts red, a 2 px minimum width', async () => {
    const text = dumpWith([
      `whole: ${tileType('Vec', 'mem', 0, 65536)} = pl.tile.load(x)`,
      `part: ${tileType('Vec', 'mem', 16384, 16384)} = pl.tile.slice(whole)`,
      `other: ${tileType('Vec', 'mem_b', 32768, 1024)} = f(whole)`,
      `tiny: ${tileType('Vec', 'mem_c', 131072, 32)} = f()`,
      'y = whole',
    ]);
    const page = await pageWith([{ name: 'k.py', text }]);
    const box = (n) => page.locator(`.box[data-tile="${n}"]`);
    const lane = await rect(page.locator('.lane[data-space="Vec"]'));
    const whole = await rect(box('whole'));
    const rowHeight = 18;
    assert.ok(Math.abs(whole.width - lane.width * 65536 / 188416) < 1.5);
    assert.equal(whole.height, 5 * rowHeight); // lines 8..12
    const part = await rect(box('part'));
    assert.ok(Math.abs(part.x - (lane.x + lane.width * 16384 / 188416)) < 1.5);
    assert.equal(part.y - whole.y, rowHeight);
    assert.equal(await box('part').evaluate((n) => getComputedStyle(n).borderTopStyle), 'dashed');
    assert.equal(await box('other').evaluate((n) => n.classList.contains('conflict')), true);
    await box('other').hover();
    assert.match(await page.locator('.tooltip').innerText(), /conflict: shares bytes with whole \(bytes \[0, 65536\), lines 8–12\) while both are live$/);
    await box('part').hover();
    assert.match(await page.locator('.tooltip').innerText(), /view: a sub-range of a larger allocation on the same base$/);
    assert.equal(await box('tiny').evaluate((n) => n.getBoundingClientRect().width), 2);
    // A dashed high-water-mark rule per lane.
    assert.equal(await page.locator('.lane[data-space="Vec"] .hwm-rule').count(), 1);
    await finish(page);
  });

  test('hovering a box shows its tooltip and highlights its live lines', async () => {
    const page = await pageWith([fixture('real/vector_division.py')]);
    await page.hover('.box[data-tile="left__tile"]');
    const tip = page.locator('.tooltip');
    await tip.waitFor();
    const text = await tip.innerText();
    for (const part of ['left__tile +1', 'Vec', '[1, 256] FP32', 'tile.load', 'mem_vec_4', '[0, 1024), 1 KB', 'lines 19–28', 't__tile_1'])
      assert.ok(text.includes(part), `${part} in ${text}`);
    assert.deepEqual(await page.locator('.row.live .ln').allTextContents(), ['19', '20', '21', '22', '23', '24', '25', '26', '27', '28']);
    // The next box's lines take their place, and leaving the boxes clears them.
    await page.hover('.box[data-tile="right__tile"]');
    assert.deepEqual(await page.locator('.row.live .ln').allTextContents(), ['22', '23', '24', '25', '26', '27']);
    await page.mouse.move(0, 0);
    assert.equal(await page.locator('.row.live').count(), 0);
    await finish(page);
  });

  test('the table view lists every box', async () => {
    const page = await pageWith([fixture('real/vector_division.py')]);
    await page.click('.table-toggle');
    const rows = await page.locator('.box-table tbody tr').evaluateAll((rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    // left__tile and its alias are used on lines 19-21, 25, 27 and 28.
    assert.deepEqual(rows[0], ['left__tile', 'Vec', 'mem_vec_4', '1 KB', '[0, 1024)', '19–28', '6', '22–24 (3)', '+1: t__tile_1']);
    assert.equal(rows.length, 3);
    await finish(page);
  });

  test('all 38 cards opened at once: the last one, scrolled to, draws its boxes where they are hit', async () => {
    const page = await pageWith([decodeFwd()]);
    // Opened together, as the bench does: off-screen cards render when they come into view.
    await page.evaluate(() => { for (const b of document.querySelectorAll('.card:not(.open) .card-toggle')) b.click(); });
    assert.equal(await page.locator('.card.open').count(), 38);
    const last = page.locator('.card').last();
    await last.scrollIntoViewIfNeeded();
    const box = last.locator('.box').first();
    await box.waitFor();
    // A frame after the scroll, as a pointer would come: until the card
    // is painted, its body's contents are skipped (content-visibility)
    // and a hit there finds the body. Measured and hit in one task.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const { r, hit } = await box.evaluate((n) => {
      const b = n.getBoundingClientRect();
      const under = document.elementFromPoint(b.x + Math.min(b.width / 2, 20), b.y + b.height / 2);
      return { r: { x: b.x, y: b.y, width: b.width, height: b.height }, hit: under?.closest('.box')?.textContent ?? '' };
    });
    assert.ok(r.width >= 2 && r.height > 0 && r.y >= 0 && r.y < 900, JSON.stringify(r));
    assert.ok(hit.length > 0, 'a box is drawn under its own rectangle');
    await finish(page);
  });

  test('the map is capped at 78 % of the viewport height', async () => {
    const page = await pageWith([decodeFwd()], { height: 800 });
    const card = await openCard(page, 'fa_fused_aiv');
    const height = (await rect(card.locator('.viewport'))).height;
    assert.ok(height <= 0.78 * 800 + 1 && height > 0.7 * 800, `${height}`);
    await finish(page);
  });
});

describe('zoom, axis and spaces', () => {
  test('− and + divide or multiply by 1.6 within 0.2×–64×; the middle button resets', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    const width = () => rect(card.locator('.lane[data-space="Left"]')).then((r) => r.width);
    const base = await width();
    await card.locator('.zoom-in').click();
    assert.equal(await card.locator('.zoom-level').innerText(), '1.6×');
    assert.ok(Math.abs(await width() / base - 1.6) < 0.01);
    for (let i = 0; i < 12; i++) await card.locator('.zoom-in').click();
    assert.equal(await card.locator('.zoom-level').innerText(), '64×');
    await card.locator('.zoom-level').click();
    assert.equal(await card.locator('.zoom-level').innerText(), '1×');
    assert.ok(Math.abs(await width() - base) < 0.5);
    for (let i = 0; i < 6; i++) await card.locator('.zoom-out').click();
    assert.equal(await card.locator('.zoom-level').innerText(), '0.2×');
    await finish(page);
  });

  test('Ctrl + wheel zooms and keeps the byte under the pointer in place', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    const mat = card.locator('.lane[data-space="Mat"]');
    const before = await rect(mat);
    const x = before.x + before.width * 0.3, y = before.y + 100;
    const byteAt = (r) => ((x - r.x) / r.width) * 524288;
    const byte = byteAt(before);
    await page.mouse.move(x, y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.querySelector('[data-function="down_proj"] .zoom-level').textContent === '1.6×');
    const after = await rect(mat);
    assert.ok(Math.abs(after.width / before.width - 1.6) < 0.01);
    assert.ok(Math.abs(byteAt(after) - byte) < 524288 / after.width * 2, `byte ${byte} → ${byteAt(after)}`);
    await finish(page);
  });

  test('hiding a space removes its lane; the last visible one cannot be hidden', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    for (const space of ['Mat', 'Left', 'Right']) await card.locator(`.space-toggle[data-space="${space}"]`).click();
    assert.deepEqual(await card.locator('.lane').evaluateAll((ls) => ls.map((l) => l.dataset.space)), ['Acc']);
    assert.equal(await card.locator('.space-toggle[data-space="Acc"]').isDisabled(), true);
    assert.equal(await card.locator('.box').evaluateAll((bs) => bs.every((b) => b.closest('.lane').dataset.space === 'Acc')), true);
    await card.locator('.space-toggle[data-space="Mat"]').click();
    assert.deepEqual(await card.locator('.lane').evaluateAll((ls) => ls.map((l) => l.dataset.space)), ['Mat', 'Acc']);
    // Other cards keep their own setting.
    const other = await openCard(page, 'gate_proj');
    assert.equal(await other.locator('.lane').count(), 4);
    await finish(page);
  });
});

describe('selecting a tile and the IR source', () => {
  test('click pins: halo, chip, live lines, marks of the name and aliases; the source opens; Esc unpins', async () => {
    const page = await pageWith([fixture('real/vector_division.py')]);
    const box = page.locator('.box[data-tile="left__tile"]');
    await box.click();
    assert.equal(await box.evaluate((n) => n.classList.contains('pinned')), true);
    assert.equal(await page.locator('.chip').innerText(), 'pinned left__tile ×');
    assert.equal(await page.locator('.left-column.open').count(), 1);
    assert.equal(await page.locator('.source-toggle').getAttribute('aria-pressed'), 'true', 'the IR source toggle pressed');
    const marks = await page.locator('.row mark').allTextContents();
    assert.ok(marks.includes('left__tile') && marks.includes('t__tile_1'), marks.join());
    // Hovering another box shows its tooltip but keeps the pinned lines.
    await page.hover('.box[data-tile="right__tile"]');
    assert.match(await page.locator('.tooltip').innerText(), /right__tile/);
    assert.equal(await page.locator('.row.live').first().locator('.ln').innerText(), '19');
    assert.equal(await page.locator('.row.live').count(), 10);
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.chip').isVisible(), false);
    assert.equal(await page.locator('.row mark').count(), 0);
    await finish(page);
  });

  test('Enter on a focused box pins it; clicking again and the chip × unpin', async () => {
    const page = await pageWith([fixture('real/vector_division.py')]);
    await page.locator('.box[data-tile="t__tile"]').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.chip-name').innerText(), 't__tile');
    await page.locator('.box[data-tile="t__tile"]').click();
    assert.equal(await page.locator('.chip').isVisible(), false);
    await page.locator('.box[data-tile="t__tile"]').click();
    await page.locator('.chip-close').click();
    assert.equal(await page.locator('.chip').isVisible(), false);
    await finish(page);
  });

  test('the splitter: drag, arrows (Shift for more), double-click reset, 140–2400 px, per card', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    await card.locator('.source-toggle').click();
    const splitter = card.locator('.splitter');
    const leftWidth = () => rect(card.locator('.source-window')).then((r) => Math.round(r.width));
    const initial = await leftWidth();
    const mat = await rect(card.locator('.lane[data-space="Mat"]'));
    await splitter.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await leftWidth(), initial + 16);
    await page.keyboard.press('Shift+ArrowRight');
    assert.equal(await leftWidth(), initial + 96);
    // Moving the splitter changes column widths only: the byte scale stays.
    assert.equal((await rect(card.locator('.lane[data-space="Mat"]'))).width, mat.width);
    const s = await rect(splitter);
    await page.mouse.move(s.x + 2, s.y + 50);
    await page.mouse.down();
    await page.mouse.move(s.x - 5000, s.y + 50, { steps: 4 });
    await page.mouse.up();
    assert.equal(await leftWidth(), 140);
    await splitter.focus();
    await page.keyboard.press('End');
    assert.equal(await splitter.getAttribute('aria-valuenow'), '2400');
    await splitter.dblclick();
    assert.equal(await leftWidth(), initial);
    await finish(page);
  });

  test('the left column stays put while the map scrolls sideways; long lines scroll inside it', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    await card.locator('.source-toggle').click();
    for (let i = 0; i < 4; i++) await card.locator('.zoom-in').click();
    const before = await rect(card.locator('.source-window'));
    await card.locator('.viewport').evaluate((v) => { v.scrollLeft = 2000; v.dispatchEvent(new Event('scroll')); });
    assert.deepEqual(await rect(card.locator('.source-window')), before);
    const pane = card.locator('.source-window');
    assert.ok(await pane.evaluate((w) => w.scrollWidth > w.clientWidth), 'long lines overflow the pane');
    await pane.evaluate((w) => { w.scrollLeft = 300; });
    const ln = await rect(card.locator('.row .ln').first());
    assert.ok(Math.abs(ln.x - before.x) < 2, 'line numbers stay at the pane\'s left edge');
    await finish(page);
  });

  test('scrolling a long function draws only what is in view', async () => {
    // 3000 lines, a tile every tenth line reused every hundred.
    const lines = [];
    for (let i = 0; i < 3000; i++) {
      lines.push(i % 10 === 0 ? `t${i}: ${tileType('Vec', `m${i % 100}`, (i % 100) * 640, 640)} = pl.tile.load(x)` : `y${i} = t${i - (i % 10)}`);
    }
    const page = await pageWith([{ name: 'long.py', text: dumpWith(lines) }]);
    const card = page.locator('.card.open');
    const shown = () => card.locator('.row .ln').allTextContents().then((t) => t.map(Number));
    assert.ok((await shown()).length < 120, 'only the rows in view (and a margin) exist');
    assert.ok(await card.locator('.box').count() < 60, 'only the boxes in view exist');
    await card.locator('.viewport').evaluate((v) => { v.scrollTop = v.scrollHeight; });
    await page.waitForFunction(() => {
      const lns = [...document.querySelectorAll('.card.open .row .ln')];
      return Number(lns[lns.length - 1]?.textContent) === 3007;
    });
    assert.ok((await shown()).length < 120);
    assert.ok(await card.locator('.box[data-tile="t2990"]').isVisible());
    // Scrolling back up a little keeps the rows in line order.
    await card.locator('.viewport').evaluate((v) => { v.scrollTop -= 300; });
    await page.waitForFunction(() => Number(document.querySelector('.card.open .row .ln').textContent) < 2970);
    const order = await shown();
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
    await finish(page);
  });
});

describe('themes and safety', () => {
  test('light and dark follow the system; the toggle forces one', async () => {
    const page = await pageWith([fixture('real/vector_division.py')], { colorScheme: 'dark' });
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(await bg(), 'rgb(20, 23, 27)');
    await page.click('#theme');
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'light');
    assert.equal(await bg(), 'rgb(255, 255, 255)');
    await page.click('#theme');
    assert.equal(await bg(), 'rgb(20, 23, 27)');
    await finish(page);
  });

  test('markup and script in a dump render as text; nothing runs', async () => {
    const text = dumpWith([
      `x: ${tileType('Vec', '"<img src=x onerror=window.__pwned=1>"', 0, 64)} = f("</script><script>window.__pwned=2</script>")`,
      '# <img src=x onerror="window.__pwned=3"> </script> <!-- \u2028',
      'y = x',
    ]);
    const page = await pageWith([{ name: '<img src=x onerror=window.__pwned=4>.py', text }]);
    await page.click('.box[data-tile="x"]');
    await page.hover('.box[data-tile="x"]');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('main script, #summary script, .tooltip script').count(), 0);
    assert.ok((await page.locator('.source-rows').innerText()).includes('</script><script>window.__pwned=2</script>'));
    assert.ok((await page.locator('#summary').innerText()).includes('<img src=x onerror=window.__pwned=4>.py'));
    assert.match(await page.locator('.tooltip').innerText(), /<img src=x onerror=window.__pwned=1>/);
    await finish(page);
  });
});
