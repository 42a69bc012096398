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

import { drop, finish, fixture, launch, openPage, settled } from '../support/browser.mjs';
import { corpus, dumpWith, root, run, tileType } from '../support/helpers.mjs';
import { formatBytes, usage, windowKind } from '../../web/model/layout.js';
import { oneMoreSlot } from '../../web/map/reserved.js';

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
    assert.match(svg.texts[1], /Mat 50\.8% · 260 KB \/ 512 KB/);
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

/** The lines an SVG draws, from its header (`lines a–b`). */
const linesDrawn = (svg) => svg.texts[0].match(/lines (\d+)–(\d+)$/).slice(1).map(Number);

/** The model's live bytes of a space on `line` (its steps hold until the next). */
const liveOn = (space, line) => space.live.reduce((bytes, [from, b]) => (from <= line ? b : bytes), 0);

/** Every tile's name can be read off the image, not only hovered: the box
 * shows it whole, or shows a number the key beneath the map gives it by. */
function assertNamesReadable(svg, fn) {
  const [first, last] = linesDrawn(svg);
  let numbered = 0;
  for (const b of fn.boxes.filter((x) => x.end >= first && x.start <= last)) {
    const drawn = svg.boxes.find((d) => d.tile === b.name && d.start === b.start);
    assert.ok(drawn, `${b.name} drawn`);
    const more = b.aliases.length ? ` +${b.aliases.length}` : '';
    const label = drawn.texts[0] ?? '';
    if (label === `${b.name}${more}`) continue;
    // Too wide for its box: a number beside or in it, the key giving the name by it.
    const ref = drawn.ref;
    assert.ok(ref && svg.badges.includes(ref), `${b.name}: "${label}" is not its name, and no number is drawn for it`);
    assert.ok(label === '' || label.trim() === more.trim() || (label.startsWith(b.name.slice(0, 3)) && label.includes('…')), `${b.name}: "${label}"`);
    assert.ok(svg.key.some((entry) => entry.startsWith(`${ref} ${b.name}${more} · ${b.space} [${b.offset}, ${b.offset + b.size}) · ${formatBytes(b.size)} · lines ${b.start}–${b.end}`)),
      `${b.name}: number ${ref} not in the key ${JSON.stringify(svg.key.slice(0, 4))}`);
    numbered++;
  }
  return numbered;
}

/** Each space's figures as the page's pill and peak panel word them, the
 * live profile and the peak mark where the model puts them. */
function assertPeaks(svg, fn) {
  const [first, last] = linesDrawn(svg);
  const text = svg.texts.join(' ');
  const lane0 = svg.lanes[0];
  const perByte = lane0.width / fn.spaces.find((s) => s.space === lane0.space).limit;
  const rowY = (line) => svg.boxes[0].y + (line - Math.max(svg.boxes[0].start, first)) * 18;
  for (const s of [...fn.spaces, ...fn.reserved_only_spaces]) {
    const hwm = s.hwm_with_reserved;
    assert.ok(text.includes(`${s.space} ${usage(s).percent} · ${formatBytes(hwm)} / ${formatBytes(s.limit)} · ${formatBytes(s.headroom)} free`), `${s.space} pill`);
    assert.ok(text.includes(`Peak of ${s.space}: ${formatBytes(s.peak_live)} live on line ${s.peak_line}`), `${s.space} peak`);
    assert.ok(text.includes(`High-water mark ${formatBytes(hwm)} of ${formatBytes(s.limit)}${s.reserved_bytes ? `, ${formatBytes(s.reserved_bytes)} of it reserved windows` : ''}, ${formatBytes(s.headroom)} headroom; ${formatBytes(s.fragmentation)} of the address space below it is unused at the peak (fragmentation).`), `${s.space} mark`);
    const by = s.hwm_set_by;
    if (by?.reserved != null) {
      const w = fn.reserved[by.reserved];
      assert.ok(text.includes(`The mark is the end of reserved window ${w.name} at [${w.base}, ${w.base + w.size}).`), `${s.space} set by ${w.name}`);
    } else if (by) {
      const b = fn.boxes[by.box];
      assert.ok(text.includes(`The mark is the end of ${b.name} at [${b.offset}, ${b.offset + b.size}), lines ${b.start}–${b.end}`), `${s.space} set by ${b.name}`);
    }
    const lane = svg.lanes.find((l) => l.space === s.space);
    // The profile's edge on every line drawn, at the bytes live there.
    const profile = svg.profiles.find((p) => p.space === s.space);
    assert.ok(profile, `${s.space} profile`);
    for (let line = first; line <= last; line++) {
      const bytes = liveOn(s, line);
      if (bytes <= 0) continue;
      const mid = rowY(line) + 9;
      const edge = profile.points.find((p, i) => i && p.cmd === 'V' && profile.points[i - 1].x === p.x
        && Math.min(p.y, profile.points[i - 1].y) < mid && Math.max(p.y, profile.points[i - 1].y) > mid);
      assert.ok(edge, `${s.space} profile on line ${line}`);
      assert.ok(Math.abs(edge.x - (lane.x + bytes * perByte)) < 0.6, `${s.space} line ${line}: ${edge.x} vs ${lane.x + bytes * perByte}`);
    }
    // The peak's tick on its line, centred on the profile's edge.
    if (s.peak_line >= first && s.peak_line <= last && s.peak_live > 0) {
      const tick = svg.peaks.find((p) => p.space === s.space);
      assert.ok(tick, `${s.space} peak tick`);
      const xs = tick.points.map((p) => p.x);
      const ys = tick.points.map((p) => p.y);
      assert.ok(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - (lane.x + s.peak_live * perByte)) < 0.6, `${s.space} peak x`);
      assert.ok(Math.min(...ys) >= rowY(s.peak_line) && Math.max(...ys) <= rowY(s.peak_line) + 18, `${s.space} peak y`);
    }
  }
}

describe('--svg: what a reviewer reads off the image, with no hover', () => {
  const model = modelOf(real);
  const svgOf = (name) => {
    const out = join(work, `review.${name}.svg`);
    assert.equal(run([real, '--svg', name, '-o', out]).status, 0);
    return read(out);
  };

  test('every tile\'s whole name: in its box, or by a number the key beneath the map lists', () => {
    let numbered = 0;
    for (const name of ['down_proj', 'fa_fused_aiv', 'rope_qkv']) numbered += assertNamesReadable(svgOf(name), model.functions.find((f) => f.name === name));
    assert.ok(numbered >= 10, `${numbered} numbered`);
  });

  test('each space\'s peak, high-water mark, headroom and what sets the mark; the live profile and the peak tick', () => {
    for (const name of ['down_proj', 'fa_fused_aiv', 'fa_fused_aic']) assertPeaks(svgOf(name), model.functions.find((f) => f.name === name));
  });

  test('each reserved window\'s kind as the page names it, and what one more slot would do', () => {
    for (const name of ['fa_fused_aiv', 'fa_fused_aic']) {
      const fn = model.functions.find((f) => f.name === name);
      const text = svgOf(name).texts.join(' ');
      assert.ok(fn.reserved.length);
      for (const w of fn.reserved) {
        const space = [...fn.spaces, ...fn.reserved_only_spaces].find((s) => s.space === w.space);
        assert.ok(text.includes(`${w.name} · ${windowKind(w)}`), `${w.name} kind`);
        assert.ok(text.includes(`one more slot: ${oneMoreSlot(w, space)}`), `${w.name} one more slot`);
      }
    }
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

  test('labels fit their boxes as drawn: a long name is cut with an ellipsis after its number, its +N kept', async () => {
    const page = await openPage(env.browser, null);
    let cut = 0;
    let numbered = 0;
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
        const right = label.textContent ? label.getBBox().x + label.getComputedTextLength() : 0;
        return [{ tile: g.dataset.tile, ref: g.dataset.ref, text: label.textContent, more, width: right, room, range: range?.textContent, rangeWidth: range?.getComputedTextLength() }];
      }));
      for (const l of labels) {
        const box = boxes.get(l.tile);
        const shown = l.text.slice(0, l.text.length - l.more.length);
        // A numbered box may leave its +N to the key.
        if (!l.ref || l.more) assert.equal(l.more, box.aliases.length ? ` +${box.aliases.length}` : '', l.tile);
        if (shown !== box.name) {
          numbered++;
          assert.ok(l.ref, `${l.tile}: "${shown}" and no number`);
        }
        if (shown !== box.name && shown !== '') { // '': its number alone
          cut++;
          assert.ok(shown.endsWith('…') && box.name.startsWith(shown.slice(0, -1)), `${l.tile}: ${shown}`);
        }
        // Where not even the +N fits, the box's clip takes over.
        if (shown.length > 1) assert.ok(l.width <= l.room + 0.5, `${l.tile}: "${l.text}" ${l.width} px in ${l.room}`);
        if (l.range) assert.ok(l.rangeWidth <= l.room + 0.5, `${l.tile}: "${l.range}" ${l.rangeWidth} px in ${l.room}`);
      }
    }
    assert.ok(numbered >= 20 && cut >= 1, `${numbered} numbered, ${cut} labels cut`);
    await finish(page);
  });

  test('Save SVG carries what the card shows a reviewer: names, peak, profile, headroom, the ring\'s kind; dark in the dark theme', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const page = await openPage(env.browser, env.url, { colorScheme });
      await drop(page, [fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py', '41_after_MaterializeRuntimeScopes.py')]);
      await settled(page);
      const card = page.locator('[data-function="fa_fused_aiv"]');
      await card.locator('.card-toggle').click();
      await card.locator('.box').first().waitFor();
      await card.locator('.axis[data-axis="limit"]').click(); // assertPeaks reads bytes against the capacity
      await card.locator('.share-menu summary').click();
      const [download] = await Promise.all([page.waitForEvent('download'), card.locator('.save-svg').click()]);
      const path = join(work, `review.page.${colorScheme}.svg`);
      await download.saveAs(path);
      const svg = read(path);
      const fn = modelOf(real).functions.find((f) => f.name === 'fa_fused_aiv');
      assertNamesReadable(svg, fn);
      assertPeaks(svg, fn);
      const text = svg.texts.join(' ');
      const w = fn.reserved[0];
      assert.ok(text.includes(`${w.name} · ${windowKind(w)}`), 'the ring\'s kind');
      assert.ok(text.includes(`one more slot: ${oneMoreSlot(w, fn.spaces[0])}`), 'one more slot');
      // The page's own background, so the image reads as the card did.
      assert.equal(svg.background, await page.evaluate(() => {
        const probe = document.createElement('canvas').getContext('2d');
        probe.fillStyle = getComputedStyle(document.body).backgroundColor;
        return probe.fillStyle;
      }));
      await finish(page);
    }
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
