// A map to paste (docs/cli.md "--svg", docs/page.md "Share"): the core
// draws one function as SVG; the CLI writes it (--svg FUNCTION) and the
// page's Share menu saves it or copies it as PNG. Read back by Python's own
// XML parser (tests/oracle/svg_boxes.py), against the model's JSON and the
// boxes the page draws.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { drop, finish, fixture, launch, openPage, settled } from './browser.mjs';
import { corpus, dumpWith, root, run, tileType } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'mm-svg-'));
const real = join(work, '41_after_MaterializeRuntimeScopes.py');
copyFileSync(join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py'), real);

/** The SVG at `path` as Python's XML parser reads it (it fails on bad XML). */
function read(path) {
  const result = spawnSync('python3', [join(root, 'tests', 'oracle', 'svg_boxes.py'), path], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

const modelOf = (path) => JSON.parse(run([path, '--json']).stdout);

describe('--svg FUNCTION', () => {
  test('writes <dump>.<FUNCTION>.svg beside the dump: every box of the function, on one byte scale', () => {
    const result = run([real, '--svg', 'down_proj']);
    const out = real.replace(/\.py$/, '.down_proj.svg');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `wrote ${out}\n`);
    const svg = read(out);
    const fn = modelOf(real).functions.find((f) => f.name === 'down_proj');
    const key = (b) => `${b.space} ${b.name ?? b.tile} ${b.start}`;
    assert.deepEqual(svg.boxes.map(key).sort(), fn.boxes.map(key).sort());
    // One byte scale: every lane and box at (offset - 0) × the same px per byte.
    const perByte = svg.lanes[0].width / fn.spaces.find((s) => s.space === svg.lanes[0].space).limit;
    for (const lane of svg.lanes) assert.ok(Math.abs(lane.width - perByte * fn.spaces.find((s) => s.space === lane.space).limit) < 0.6, lane.space);
    for (const b of fn.boxes) {
      const drawn = svg.boxes.find((d) => key(d) === key(b));
      const lane = svg.lanes.find((l) => l.space === b.space);
      assert.ok(Math.abs(drawn.x - (lane.x + b.offset * perByte)) < 0.6, `${b.name} x`);
      assert.ok(Math.abs(drawn.width - Math.max(2, b.size * perByte)) < 0.6, `${b.name} width`);
      assert.equal(drawn.height, (b.end - b.start + 1) * 18);
      assert.equal(drawn.classes.includes('view'), b.view);
      assert.equal(drawn.classes.includes('conflict'), b.conflict);
    }
    // The header: function, type, dump, backend, lines; each space's usage as the pills say it.
    assert.match(svg.texts[0], /^down_proj AIC · 41_after_MaterializeRuntimeScopes\.py · Ascend910B · lines \d+–\d+$/);
    assert.match(svg.texts[1], /Mat 50\.7% · 260 KB \/ 512 KB/);
  });

  test('-o names the file; the reserved ring of fa_fused_aiv is drawn', () => {
    const out = join(work, 'aiv.svg');
    assert.equal(run([real, '--svg', 'fa_fused_aiv', '-o', out]).status, 0);
    assert.match(readFileSync(out, 'utf8'), /<g class="window" data-window="fa_fused_c2v_slot_buffer"><title>fa_fused_c2v_slot_buffer · reserved 32 KB of Vec/);
  });

  test('markup in names is text: the SVG stays well-formed and nothing is injected', () => {
    const dump = join(work, 'hostile.py');
    const text = dumpWith([`x: ${tileType('Vec', '"<script>alert(1)</script>&"', 0, 64)} = f()`, 'y = x'], { name: 'k' });
    spawnSync('sh', ['-c', `cat > ${dump}`], { input: text });
    assert.equal(run([dump, '--svg', 'k', '-o', join(work, 'h.svg')]).status, 0);
    const svg = readFileSync(join(work, 'h.svg'), 'utf8');
    assert.doesNotMatch(svg, /<script/);
    assert.equal(read(join(work, 'h.svg')).boxes.length, 1);
  });

  test('an unknown function exits 1 naming the ones there are; --svg with --json is bad usage', () => {
    const result = run([real, '--svg', 'nope']);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^error: .*41_after_MaterializeRuntimeScopes\.py: no compute function named nope; there are: copy_hidden copy_out /);
    assert.ok(!existsSync(real.replace(/\.py$/, '.nope.svg')));
    const usage = run([real, '--svg', 'k_proj', '--json']);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--svg writes one image: not with --json/);
  });
});

describe('the page\'s Share menu (Chromium)', () => {
  let env;
  before(async () => { env = await launch(); });
  after(async () => { await env?.close(); });

  test('Save SVG: the lines in view, the boxes the page draws there, where it draws them', async () => {
    const page = await openPage(env.browser, env.url);
    await drop(page, [fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py', '41_after_MaterializeRuntimeScopes.py')]);
    await settled(page);
    const card = page.locator('[data-function="down_proj"]');
    await card.locator('.card-toggle').click();
    await card.locator('.box').first().waitFor();
    await card.locator('.space-toggle[data-space="Acc"]').click(); // hidden: not in the image either
    await card.locator('.share-menu summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), card.locator('.save-svg').click()]);
    assert.equal(download.suggestedFilename(), '41_after_MaterializeRuntimeScopes.down_proj.svg');
    const path = join(work, 'page.svg');
    await download.saveAs(path);
    const svg = read(path);
    assert.deepEqual(svg.lanes.map((l) => l.space), ['Mat', 'Left', 'Right']);
    // Each box the page drew on the lines in view, at the same place in its lane.
    const [, first, last] = svg.texts[0].match(/lines (\d+)–(\d+)$/).map(Number);
    const drawn = await card.evaluate((c, [first, last]) => [...c.querySelectorAll('.box')].map((b) => {
      const lane = b.closest('.lane').getBoundingClientRect();
      const r = b.getBoundingClientRect();
      return { tile: b.dataset.tile, space: b.closest('.lane').dataset.space, x: (r.x - lane.x) / lane.width, w: r.width / lane.width, start: Number(b.dataset.start) };
    }), [first, last]);
    const model = modelOf(real).functions.find((f) => f.name === 'down_proj');
    const inView = model.boxes.filter((b) => b.end >= first && b.start <= last && b.space !== 'Acc');
    assert.deepEqual(svg.boxes.map((b) => `${b.tile} ${b.start}`).sort(), inView.map((b) => `${b.name} ${b.start}`).sort());
    for (const b of svg.boxes) {
      const lane = svg.lanes.find((l) => l.space === b.space);
      const there = drawn.find((d) => d.tile === b.tile && d.space === b.space);
      if (!there) continue; // a box the page has not drawn yet (outside its overscan)
      assert.ok(Math.abs((b.x - lane.x) / lane.width - there.x) < 0.01, `${b.tile}: ${(b.x - lane.x) / lane.width} vs ${there.x}`);
    }
    assert.match(await card.locator('.share-status').innerText(), /^saved 41_after_MaterializeRuntimeScopes\.down_proj\.svg$/);
    // The menu closes with Esc, and with a click elsewhere.
    await card.locator('.share-menu summary').click();
    assert.equal(await card.locator('.share-items').isVisible(), true);
    await page.keyboard.press('Escape');
    assert.equal(await card.locator('.share-items').isVisible(), false);
    await card.locator('.share-menu summary').click();
    await page.locator('#summary').click();
    assert.equal(await card.locator('.share-items').isVisible(), false);
    await finish(page);
  });

  test('Copy as PNG: a PNG twice the SVG\'s size on the clipboard', async () => {
    const page = await openPage(env.browser, null);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.url).origin });
    await page.goto(env.url);
    await drop(page, [fixture('real/vector_division.py')]);
    await settled(page);
    await page.locator('.share-menu summary').click();
    await page.locator('.copy-png').click();
    await page.waitForFunction(() => document.querySelector('.share-status').textContent === 'copied: paste it');
    const size = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const bitmap = await createImageBitmap(await item.getType('image/png'));
      return [item.types, bitmap.width, bitmap.height];
    });
    assert.deepEqual(size[0], ['image/png']);
    // The same view saved as SVG: the PNG is it at twice the size.
    await page.locator('.share-menu summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.save-svg').click()]);
    await download.saveAs(join(work, 'small.svg'));
    const svg = read(join(work, 'small.svg'));
    assert.deepEqual(size.slice(1), [svg.width * 2, svg.height * 2]);
    await finish(page);
  });

  test('labels fit their boxes as drawn: a long name is cut with an ellipsis, its +N kept', async () => {
    const page = await openPage(env.browser, null);
    let cut = 0;
    for (const name of ['down_proj', 'fa_fused_aic', 'rope_qkv']) {
      const out = join(work, `labels.${name}.svg`);
      assert.equal(run([real, '--svg', name, '-o', out]).status, 0);
      const boxes = new Map(modelOf(real).functions.find((f) => f.name === name).boxes.map((b) => [b.name, b]));
      await page.setContent(readFileSync(out, 'utf8'));
      const labels = await page.evaluate(() => [...document.querySelectorAll('g.box')].flatMap((g) => {
        const frame = g.querySelector(':scope > svg');
        if (!frame) return [];
        const [label, range] = frame.querySelectorAll('text');
        const room = frame.width.baseVal.value - 3;
        const more = label.querySelector('tspan')?.textContent ?? '';
        return [{ tile: g.dataset.tile, text: label.textContent, more, width: label.getComputedTextLength(), room, range: range?.textContent, rangeWidth: range?.getComputedTextLength() }];
      }));
      for (const l of labels) {
        const box = boxes.get(l.tile);
        const shown = l.text.slice(0, l.text.length - l.more.length);
        assert.equal(l.more, box.aliases.length ? ` +${box.aliases.length}` : '', l.tile);
        if (shown !== box.name && shown !== '') { // '': not even the ellipsis fits
          cut++;
          assert.ok(shown.endsWith('…') && box.name.startsWith(shown.slice(0, -1)), `${l.tile}: ${shown}`);
        }
        // Where not even the +N fits, the box's clip takes over.
        if (shown.length > 1) assert.ok(l.width <= l.room + 0.5, `${l.tile}: "${l.text}" ${l.width} px in ${l.room}`);
        if (l.range) assert.ok(l.rangeWidth <= l.room + 0.5, `${l.tile}: "${l.range}" ${l.rangeWidth} px in ${l.room}`);
      }
    }
    assert.ok(cut >= 20, `${cut} labels cut`);
    await finish(page);
  });

  test('a page the command line wrote has no Share menu (it holds the model, not the dump)', async () => {
    const dump = join(work, 'vector_division.py');
    copyFileSync(join(corpus, 'real', 'vector_division.py'), dump);
    assert.equal(run([dump]).status, 0);
    const page = await openPage(env.browser, `file://${dump.replace(/\.py$/, '.memory_map.html')}`);
    await settled(page);
    assert.equal(await page.locator('.share-menu').count(), 0);
    await finish(page);
  });
});
