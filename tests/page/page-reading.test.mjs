// The page as a kernel author reads it (Chromium): the top bar keeps to one
// row, a jump leaves its card in view below it, the IR source pane stays on
// top of every box, the legend and the live profile's outline, conflicts
// named with their partners, the keyboard, numbers in one format, pills
// that line up, tiny tiles that can be hit, and axe-core finding nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { drop, finish, fixture, launch, openPage, pageWith as openPageWith, rect, settled } from '../support/browser.mjs';
import { dumpWith, tileType } from '../support/helpers.mjs';

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
    test(`${width < 1920 ? 'two rows' : 'one row'} at ${width} px: the pass, the counts and the backend whole, a long dump name cut and whole in the title`, async () => {
      const page = await pageWith([longName()], { width });
      const bar = await rect(page.locator('#topbar'));
      // Below 1920 px the controls take a second row rather than hide the summary.
      assert.ok(bar.height <= (width < 1920 ? 92 : 56), `the bar is ${bar.height} px`);
      const summary = page.locator('#summary');
      assert.ok((await rect(summary)).height <= 24, 'the summary keeps to one line');
      // A name that is no `NN_after_<Pass>.py` names no pass.
      assert.match(await summary.getAttribute('title'), /^68296077217\.py · 38 compute functions · 695 tiles · Ascend910B \(a2a3\) assumed/);
      assert.ok((await rect(page.locator('#backend'))).width <= 130, 'the backend select is no wider than its names');
      // The backend every capacity rests on is shown whole, "assumed" too
      // (where the bar is short of room, the dump's name is what is cut).
      const shown = await summary.evaluate((bar) => {
        const box = bar.getBoundingClientRect();
        const assumed = bar.querySelector('.assumed').getBoundingClientRect();
        return { inside: assumed.width > 0 && assumed.left >= box.left - 0.5 && assumed.right <= box.right + 0.5,
          backend: bar.querySelector('.backend-info').textContent };
      });
      assert.ok(shown.inside, `"assumed" is in view at ${width} px`);
      assert.equal(shown.backend, '\u00a0· Ascend910B (a2a3) assumed', 'a space before the dot ("695 tiles· Ascend" had none)');
      const parts = await summary.locator('.summary-part').evaluateAll((ps) => ps.map((p) => ({ text: p.textContent, cut: p.scrollWidth > p.clientWidth + 0.5 })));
      assert.deepEqual(parts, [{ text: '\u00a0· 38 compute functions', cut: false }, { text: '\u00a0· 695 tiles', cut: false }], 'the counts whole');
      await finish(page);
    });
  }

  test('the pass is named where the dump\'s name gives one, and only there', async () => {
    const plain = await pageWith([fixture('real/norm_rope.py')]);
    assert.doesNotMatch(await plain.locator('#summary').innerText(), /pass/);
    await finish(plain);
    const named = await pageWith([{ ...real(), name: '41_after_MaterializeRuntimeScopes.py' }], { width: 1024 });
    assert.match(await named.locator('#summary').textContent(), /^41_after_MaterializeRuntimeScopes\.py\s· pass MaterializeRuntimeScopes\s· /);
    const pass = await named.locator('.summary-pass').evaluate((p) => p.scrollWidth <= p.clientWidth + 0.5 && p.getBoundingClientRect().width > 0);
    assert.ok(pass, 'the pass whole at 1024 px, the name giving way first');
    await finish(named);
  });

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

describe('a legend, an outlined profile, labels in their lanes', () => {
  test('the page says what each mark means; "peak" stays in its lane; a cut name keeps its +N', async () => {
    const page = await pageWith([real()]);
    const legend = await page.locator('#legend').innerText();
    for (const words of ['tile', 'view', 'conflict', 'over capacity', 'reserved window', 'used on', 'high-water mark', 'bytes live on each line', 'peak'])
      assert.ok(legend.includes(words), `${words} in the legend`);
    const card = await openCard(page, 'down_proj');
    for (const space of ['Mat', 'Left', 'Right', 'Acc']) {
      const lane = await rect(card.locator(`.lane[data-space="${space}"]`));
      const label = await rect(card.locator(`.lane[data-space="${space}"] .peak-label`));
      assert.ok(label.x >= lane.x - 0.5 && label.x + label.width <= lane.x + lane.width + 0.5, `${space}'s peak label`);
    }
    const merged = card.locator('.box[data-tile="c_acc_v2_inline38__tile_l0_c_first"]');
    const label = await merged.locator('.box-label').evaluate((n) => ({ cut: n.scrollWidth > n.clientWidth, overflow: getComputedStyle(n).textOverflow }));
    assert.deepEqual(label, { cut: true, overflow: 'ellipsis' });
    assert.ok(await merged.locator('.box-aliases').isVisible(), 'the +N badge is not cut away');
    await finish(page);
  });
});

describe('numbers in one format', () => {
  test('decimal [start, end) in labels, tooltips, panels and the table; usage with one decimal', async () => {
    const text = dumpWith([`a: ${tileType('Vec', 'm', 4096, 131072)} = f()`, 'y = a']);
    const page = await pageWith([{ name: 'k.py', text }]);
    const card = page.locator('.card').first();
    assert.match(await card.locator('.box .box-size').innerText(), /^\[4096, 135168\) · 128 KB$/);
    await card.locator('.box').first().hover({ position: { x: 4, y: 4 } });
    assert.match(await page.locator('.tooltip').innerText(), /bytes\s+\[4096, 135168\), 128 KB/);
    assert.match(await card.locator('.pill').innerText(), /Vec 71\.7%/); // 135168 / 188416
    await page.locator('.row[data-line="8"]').click();
    assert.match(await card.locator('.panel-tiles li').first().innerText(), /\[4096, 135168\)/);
    await card.locator('.table-toggle').click();
    assert.match(await card.locator('.box-table tbody tr').first().innerText(), /\[4096, 135168\)/);
    const html = await page.content();
    assert.doesNotMatch(html.replace(/<script[\s\S]*?<\/script>/g, ''), /0x[0-9a-f]{4}|@4096/, 'no hex, no @offset left');
    await finish(page);
  });
});

describe('pills that line up', () => {
  test('each space keeps one column down the page; colours per space; amber from 80 %, red from 95 %', async () => {
    const page = await pageWith([real()]);
    const columns = await page.locator('.card').evaluateAll((cards) => cards.flatMap((c) =>
      [...c.querySelectorAll('.pill')].map((p) => [p.dataset.space, Math.round(p.getBoundingClientRect().x)])));
    const xs = new Map();
    for (const [space, x] of columns) xs.set(space, [...(xs.get(space) ?? []), x]);
    for (const [space, list] of xs) assert.equal(new Set(list).size, 1, `${space} pills all start at one x: ${[...new Set(list)]}`);
    const level = (space, fn) => page.locator(`.card[data-function="${fn}"] .pill[data-space="${space}"]`).getAttribute('class');
    assert.match(await level('Right', 'down_proj'), /alert/); // 100 %
    assert.match(await level('Mat', 'down_proj'), /\bok\b/); // 50.8 %
    const toggle = await openCard(page, 'down_proj');
    const border = await toggle.locator('.space-toggle[data-space="Mat"]').evaluate((n) => getComputedStyle(n).borderLeftColor);
    const lane = await toggle.locator('.lane[data-space="Mat"]').evaluate((n) => getComputedStyle(n).boxShadow);
    assert.ok(lane.includes(border), `the toggle (${border}) is in its lane's colour (${lane})`);
    await finish(page);
  });

  test('amber between 80 % and 95 %', async () => {
    const text = dumpWith([`a: ${tileType('Vec', 'm', 0, 160000)} = f()`, `b: ${tileType('Mat', 'n', 0, 100000)} = f()`]);
    const page = await pageWith([{ name: 'k.py', text }]);
    assert.deepEqual(await page.locator('.pill').evaluateAll((ps) => ps.map((p) => [p.dataset.space, p.classList.contains('warn')])),
      [['Vec', true], ['Mat', false]]); // 84.9 % and 19.1 %
    await finish(page);
  });
});

describe('the keyboard', () => {
  test('a map is one Tab stop; arrows reach tiles not drawn yet; L pins the line; + zooms; pills are one Tab stop', async () => {
    const page = await pageWith([real()], { height: 700 });
    const card = page.locator('.card').first();
    await card.locator('.zoom-out').focus();
    // From the toolbar, Tab goes to the map (through the buttons after it), not through every tile.
    for (let i = 0; i < 16 && !(await page.evaluate(() => document.activeElement?.classList.contains('box'))); i++) await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => document.activeElement?.dataset.tile ?? document.activeElement?.className);
    assert.equal(await focused(), 't__tile');
    await page.keyboard.press('Tab');
    assert.ok(!(await page.evaluate(() => document.activeElement?.classList.contains('box'))), 'one Tab leaves the map');
    await page.keyboard.press('Shift+Tab'); // back to the map: its tile
    assert.equal(await focused(), 't__tile');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 't__tile_1');
    await page.keyboard.press('End');
    const last = await focused();
    assert.ok(await card.locator(`.box[data-tile="${last}"]`).isVisible(), 'the last tile, drawn and scrolled to');
    await page.keyboard.press('l');
    const pinned = Number((await card.locator('.panel-head').innerText()).match(/^Line (\d+)/)[1]);
    // On a tile the arrows walk the tiles; Shift moves the pinned line, the focus stays.
    await page.keyboard.press('Shift+ArrowDown');
    assert.match(await card.locator('.panel-head').innerText(), new RegExp(`^Line ${pinned + 1}\\b`));
    assert.equal(await focused(), last, 'the focus stays on the tile');
    await page.keyboard.press('+');
    assert.equal(await card.locator('.zoom-level').innerText(), '1.6×');
    // Pills: one Tab stop per card, arrows between them.
    const dp = await openCard(page, 'down_proj');
    await dp.locator('.pill[data-space="Mat"]').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.space), 'Left');
    assert.equal(await dp.locator('.pill[tabindex="0"]').count(), 1);
    await finish(page);
  });
});

describe('card headers', () => {
  for (const width of widths) {
    test(`at ${width} px every pill shows its usage, used / capacity and what is free, whole; every function's name whole`, async () => {
      const page = await pageWith([real()], { width });
      const cut = await page.evaluate(() => {
        const clipped = (n) => n.scrollWidth > n.clientWidth + 0.5;
        const inside = (part, box) => {
          const r = part.getBoundingClientRect();
          return getComputedStyle(part).display !== 'none' && r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
            r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
        };
        const pills = [...document.querySelectorAll('.card .pill')];
        const parts = ['.pill-space', '.pill-percent', '.pill-bytes', '.pill-headroom'];
        return {
          pills: pills.length,
          whole: pills.filter((p) => parts.every((s) => p.querySelector(s) && inside(p.querySelector(s), p.getBoundingClientRect()))).length,
          shapes: pills.filter((p) => !/^\w+ \d+\.\d%\s· [\d.]+ [KMG]?B \/ [\d.]+ [KMG]?B\s· [\d.]+ [KMG]?B (free|over)$/.test(p.textContent)).map((p) => p.textContent),
          pillsCut: pills.filter(clipped).map((p) => p.textContent),
          namesCut: [...document.querySelectorAll('.card .fn-name')].filter((n) => clipped(n) || clipped(n.closest('.card-toggle'))).map((n) => n.textContent),
        };
      });
      assert.ok(cut.pills >= 60 && cut.whole === cut.pills, `${cut.whole} of ${cut.pills} pills show every part whole`);
      assert.deepEqual(cut.shapes, [], 'each reads "Mat 50.7% · 260 KB / 512 KB · 252 KB free"');
      assert.deepEqual(cut.pillsCut, []);
      assert.deepEqual(cut.namesCut, []);
      await finish(page);
    });
  }
});

describe('tooltips', () => {
  test('a tooltip wraps between words, not inside them', async () => {
    const page = await pageWith([real()], { width: 1400 });
    const card = await openCard(page, 'online_softmax');
    // The tile with the longest list of aliases (280 characters).
    const tile = card.locator('.box[data-tile="mi_new_inline130__row_major_tmp_v2"]');
    await tile.scrollIntoViewIfNeeded();
    await tile.hover();
    await page.locator('.tooltip:not([hidden])').waitFor();
    const split = await page.locator('.tooltip').evaluate((tip) => {
      const broken = [];
      const walker = document.createTreeWalker(tip, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
      return { broken, lines: Math.round(tip.getBoundingClientRect().height) };
    });
    assert.deepEqual(split.broken, []);
    await finish(page);
  });
});

describe('the left column keeps to the map', () => {
  test('a line number the browser scrolls into view (find in page, a screen reader) moves the map with it', async () => {
    const page = await pageWith([real()], { width: 1400, height: 800 });
    const card = await openCard(page, 'down_proj');
    // Rows below the map's window are drawn (overscan): the browser can scroll to the last.
    const line = await card.locator('.row').evaluateAll((rows) => {
      const bottom = rows[0].closest('.viewport').getBoundingClientRect().bottom;
      const last = rows.at(-1);
      return last.getBoundingClientRect().top > bottom + 100 ? Number(last.dataset.line) : null;
    });
    assert.ok(line, 'a line drawn below the window');
    // How far each line number sits from the tiles starting on its line.
    const offsets = () => card.evaluate((c) => [...c.querySelectorAll('.row')].map((r) => {
      const box = [...c.querySelectorAll('.box')].find((b) => b.getAttribute('aria-label').includes(`lines ${r.dataset.line} to`));
      return box ? r.getBoundingClientRect().top - box.getBoundingClientRect().top : null;
    }).filter((d) => d !== null));
    const [aligned] = await offsets();
    await card.locator(`.row[data-line="${line}"]`).evaluate((r) => r.scrollIntoView({ block: 'center' }));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const drift = (await offsets()).map((d) => d - aligned);
    assert.ok(drift.length > 0, 'tiles starting on drawn lines');
    assert.ok(drift.every((d) => Math.abs(d) < 0.5), `lines and their tiles moved apart by ${drift.join(', ')} px`);
    // At the map's last line too, where the column's window meets its end.
    await card.locator('.viewport').evaluate((v) => { v.scrollTop = v.scrollHeight; });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const atEnd = (await offsets()).map((d) => d - aligned);
    assert.ok(atEnd.length > 0 && atEnd.every((d) => Math.abs(d) < 0.5), `at the end, apart by ${atEnd.join(', ')} px`);
    assert.ok(await card.locator(`.row[data-line="${line}"]`).evaluate((r) => {
      const map = r.closest('.viewport').getBoundingClientRect();
      const row = r.getBoundingClientRect();
      return row.top >= map.top && row.bottom <= map.bottom;
    }), 'the line scrolled to shows, with the map moved to it');
    await finish(page);
  });
});

describe('tiny tiles and find', () => {
  test('a 2 px tile is hit 4 px either side of its centre; found, it shows its name beside it', async () => {
    const text = dumpWith([`big: ${tileType('Vec', 'm1', 0, 65536)} = f()`, `tiny: ${tileType('Vec', 'm2', 100000, 64)} = f(big)`, 'y = tiny']);
    const page = await pageWith([{ name: 'k.py', text }], { width: 1024 });
    const sliver = page.locator('.box[data-tile="tiny"]');
    assert.ok((await rect(sliver)).width < 6, `drawn ${(await rect(sliver)).width} px wide`);
    for (const dx of [-3.5, 0, 3.5]) {
      // Measured each time: a pin opens the IR source, which moves the map.
      await sliver.scrollIntoViewIfNeeded();
      const r = await rect(sliver);
      await page.mouse.click(r.x + r.width / 2 + dx, r.y + r.height / 2);
      assert.ok(await page.locator('.chip').isVisible(), `clicked at ${dx} px: nothing pinned`);
      assert.equal(await page.locator('.chip-name').innerText(), 'tiny', `clicked at ${dx} px`);
      await page.keyboard.press('Escape');
    }
    assert.ok(!(await sliver.locator('.sliver-flag').isVisible()));
    await page.fill('#search', 'tiny');
    await page.waitForFunction(() => /match/.test(document.getElementById('search-status').textContent));
    assert.ok(await sliver.locator('.sliver-flag').isVisible(), 'the found sliver is flagged');
    assert.equal(await sliver.locator('.sliver-flag').innerText(), 'tiny');
    await finish(page);
  });

  test('a click at a 2 px tile\'s centre pins it, where 256 B tiles lie side by side in 184 KB (rope_qkv)', async () => {
    const page = await pageWith([real()], { width: 1400 });
    const card = await openCard(page, 'rope_qkv');
    const seen = new Set();
    const wrong = [];
    let ambiguous = 0;
    for (;;) {
      // The next tile not yet clicked, in the middle of the map; clicked on
      // the whole pixel nearest its centre, halfway down what shows of it.
      const at = await card.evaluate((c, done) => {
        const node = [...c.querySelectorAll('.lane[data-space="Vec"] .box')].find((n) => !done.includes(n.dataset.index));
        if (!node) return null;
        node.scrollIntoView({ block: 'center', inline: 'center' });
        const map = c.querySelector('.viewport').getBoundingClientRect();
        const r = node.getBoundingClientRect();
        const y = Math.round((Math.max(r.top, map.top + 40) + Math.min(r.bottom, map.bottom)) / 2);
        const x = Math.round(r.left + r.width / 2);
        // The oracle: of the tiles drawn across row y, the one whose centre
        // is nearest x; a tie within half a pixel is not this test's.
        const across = [...c.querySelectorAll('.lane[data-space="Vec"] .box')].map((n) => n.getBoundingClientRect())
          .filter((b) => b.top <= y && y < b.bottom).map((b) => Math.abs(b.left + b.width / 2 - x)).sort((a, b) => a - b);
        return { index: node.dataset.index, name: node.dataset.tile, x, y, tie: across.length > 1 && across[1] - across[0] < 0.5 };
      }, [...seen]);
      if (!at) break;
      seen.add(at.index);
      if (at.tie) {
        ambiguous++;
        continue;
      }
      await page.mouse.click(at.x, at.y);
      const pinned = await card.locator('.chip').isVisible() ? await card.locator('.chip-name').innerText() : null;
      if (pinned !== at.name) wrong.push(`${at.name} → ${pinned}`);
      if (pinned) await page.keyboard.press('Escape');
    }
    assert.ok(seen.size >= 40 && ambiguous <= seen.size / 10, `${seen.size} tiles, ${ambiguous} too close to tell`);
    assert.deepEqual(wrong, []);
    await finish(page);
  });

  test('a card whose tiles would be slivers against capacity opens on the used axis; back on limit, a sparse lane offers it again', async () => {
    const page = await pageWith([real()], { width: 1400 });
    const card = await openCard(page, 'rope_qkv');
    const pressed = (axis) => card.locator(`.axis[data-axis="${axis}"]`).getAttribute('aria-pressed');
    const spread = () => card.evaluate((c) => {
      const lane = c.querySelector('.lane[data-space="Vec"]').getBoundingClientRect();
      const right = Math.max(...[...c.querySelectorAll('.lane[data-space="Vec"] .box')].map((b) => b.getBoundingClientRect().right));
      return (right - lane.left) / lane.width;
    });
    assert.equal(await pressed('used'), 'true', 'Vec uses a few percent: its tiles would be slivers');
    assert.ok(await spread() > 0.5, 'drawn to the bytes used, they spread over the lane');
    assert.doesNotMatch(page.url(), /axis=/, 'the card\'s own default is left out of the link');
    await card.locator('.axis[data-axis="limit"]').click();
    assert.match(page.url(), /axis=limit/, 'the axis chosen against the default is kept');
    assert.ok(await spread() < 0.25, 'drawn to the capacity, the tiles sit in the lane\'s first quarter');
    const offer = card.locator('.lane-head[data-space="Vec"] .fit-used');
    await offer.waitFor(); // shown, not only made: its text is read as rendered
    const percent = (await card.locator('.pill[data-space="Vec"]').innerText()).match(/[\d.]+%/)[0];
    assert.equal(await offer.innerText(), `${percent} used: widen`, 'the pill\'s share');
    await offer.click();
    assert.equal(await pressed('used'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.axis), 'used', 'the focus lands on the axis it chose');
    assert.equal(await card.locator('.fit-used').count(), 0);
    const up = await openCard(page, 'up_proj');
    // Left uses 1.5 %, but the axis is the card's: fitting it would widen Mat 18-fold.
    assert.equal(await up.locator('.axis[data-axis="limit"]').getAttribute('aria-pressed'), 'true', 'a busy Mat beside: limit');
    assert.equal(await up.locator('.fit-used').count(), 0, 'no offer beside a busy space');
    await finish(page);
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`a pinned sliver's name flag reads at 4.5:1 or more in the ${colorScheme} theme`, async () => {
      const text = dumpWith([`big: ${tileType('Vec', 'm1', 0, 65536)} = f()`, `tiny: ${tileType('Vec', 'm2', 100000, 64)} = f(big)`, 'y = tiny']);
      const page = await pageWith([{ name: 'k.py', text }], { width: 1024, colorScheme });
      const sliver = page.locator('.box[data-tile="tiny"]');
      await sliver.focus();
      await page.keyboard.press('Enter');
      const flag = sliver.locator('.sliver-flag');
      await flag.waitFor();
      const ratio = await flag.evaluate((e) => {
        const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        const style = getComputedStyle(e);
        const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
        return (a + 0.05) / (b + 0.05);
      });
      assert.ok(ratio >= 4.5, `contrast ${ratio.toFixed(2)}`);
      await finish(page);
    });
  }

  test('find matches function names too; Enter opens the card', async () => {
    const page = await pageWith([real()]);
    await page.fill('#search', 'qk_norm_3');
    await page.waitForFunction(() => /1 match/.test(document.getElementById('search-status').textContent));
    await page.press('#search', 'Enter');
    const card = page.locator('.card[data-function="qk_norm_3"]');
    assert.match(await card.getAttribute('class'), /open/);
    assert.match(await card.getAttribute('class'), /name-match/);
    assert.ok(await inViewBelowBar(page, card.locator('.card-head')));
    await finish(page);
  });
});

describe('a refused dump', () => {
  test('names the line and column, and marks the word there in the quoted line', async () => {
    const page = await pageWith([{ name: 'broken.py', text: 'import pypto\ny = "é" + size_of(x, $)\n' }]);
    const message = page.locator('#message');
    assert.match(await message.locator('h2').innerText(), /^Cannot show broken\.py, line 2, column (\d+)$/);
    const column = Number((await message.locator('h2').innerText()).match(/column (\d+)/)[1]);
    const line = Array.from('y = "é" + size_of(x, $)');
    assert.equal(await message.locator('.context mark').innerText(), line[column - 1], 'the character the column counts to');
    assert.equal(line[column - 1], '$', 'where CPython points');
    // Read out as it shows, and a way back to work that needs no file.
    assert.equal(await message.getAttribute('role'), 'alert');
    const example = message.locator('[data-example]').first();
    assert.ok(await example.isVisible(), 'the examples are offered again');
    await example.focus();
    await page.keyboard.press('Enter');
    await page.locator('#cards[data-complete="true"] .card.open .box').first().waitFor();
    await finish(page);
  });
});

describe('a file that cannot be read', () => {
  // Read whole by the worker, and (from 2 MB, the core started) into the
  // core's heap while the page reads it too (engine.js dumpMessage).
  for (const [label, copies] of [['480 KB', 1], ['3 MB', 7]]) test(`gone from disk after it was chosen (${label}): named, with why; the page still opens the next dump`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-gone-'));
    const path = join(dir, '41_after_MaterializeRuntimeScopes.py');
    writeFileSync(path, real().text.repeat(copies));
    const page = await openPage(env.browser, env.url);
    // The core started (the backends listed): a big file goes into its heap.
    await page.waitForFunction(() => document.querySelectorAll('#backend option').length > 1);
    // A File of the disk file (as a drop or Open dump… gives), the file removed before the page reads it.
    await page.evaluate(() => { document.body.append(Object.assign(document.createElement('input'), { type: 'file', id: 'chosen' })); });
    await page.setInputFiles('#chosen', path);
    rmSync(dir, { recursive: true });
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(document.getElementById('chosen').files[0]);
      document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await settled(page);
    const message = page.locator('#message');
    assert.equal(await message.locator('h2').innerText(), 'Cannot show 41_after_MaterializeRuntimeScopes.py');
    assert.match(await message.innerText(), /cannot read the file: /);
    assert.equal(await message.getAttribute('data-kind'), 'unreadable');
    await drop(page, [real()]);
    await page.locator('#cards[data-complete="true"] .card.open .box').first().waitFor();
    await finish(page);
  });
});

describe('accessibility (axe-core)', () => {
  for (const colorScheme of ['light', 'dark']) {
    test(`no violation in the ${colorScheme} theme with a dump loaded, a card open, a tile and a line pinned`, async () => {
      const { readFileSync } = await import('node:fs');
      const { createRequire } = await import('node:module');
      const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      // axe is injected as a script, which the page's CSP forbids: this context alone bypasses it.
      const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme, bypassCSP: true });
      await page.goto(env.url);
      await page.evaluate((text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], 'decode_fwd.py'));
        document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, real().text);
      await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
      await openCard(page, 'down_proj');
      await page.locator('.card[data-function="down_proj"] .pill[data-space="Right"]').click();
      await page.locator('.card[data-function="down_proj"] .box[data-tile="a0_v2_inline39__tile"]').click();
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`));
      assert.deepEqual(violations, []);
      await page.close();
    });

    test(`no violation in the ${colorScheme} theme in an embed, its ring's band focused`, async () => {
      const { readFileSync } = await import('node:fs');
      const { createRequire } = await import('node:module');
      const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      const page = await env.browser.newPage({ viewport: { width: 700, height: 500 }, colorScheme, bypassCSP: true });
      await page.goto(`${env.url}?embed&theme=${colorScheme}&dump=examples/decode_fwd/32_after_AllocateMemoryAddr.py#fn=fa_fused_aiv`);
      await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
      await page.locator('.window-band').first().focus();
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`));
      assert.deepEqual(violations, []);
      await page.close();
    });

    test(`no violation in the ${colorScheme} theme on a refused dump; its long line wraps, whole, at 1024 px`, async () => {
      const { readFileSync } = await import('node:fs');
      const { createRequire } = await import('node:module');
      const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      const page = await env.browser.newPage({ viewport: { width: 1024, height: 900 }, colorScheme, bypassCSP: true });
      await page.goto(env.url);
      const long = `x = f(${Array.from({ length: 40 }, (_, i) => `argument_${i}`).join(', ')}`; // no ')': a syntax error
      await page.evaluate((text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], 'broken.py'));
        document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, `import pypto\n${long}\n`);
      await page.waitForSelector('.message.error .context');
      const box = await page.locator('.message .context').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth, text: e.innerText }));
      assert.ok(box.scroll <= box.client + 1, `the line is cut: ${box.scroll} px in ${box.client}`);
      assert.ok(box.text.includes('argument_39'), 'the whole line is shown');
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`));
      assert.deepEqual(violations, []);
      await page.close();
    });
  }
});
