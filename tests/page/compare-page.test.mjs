// The compare view in Chromium (docs/page.md, "Comparing two dumps"): two
// dumps dropped, the summary and cards as `--diff` counts them, both maps
// on one byte scale, changed tiles marked, a tile's counterpart and its old
// place on hover, N through the changes, the filter, links that reopen a
// comparison, a folder's "compare with", a refused side, the CLI's page.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { drop, finish, fixture, launch, openPage, pageWith as openPageWith, rect } from '../support/browser.mjs';
import { corpus, run } from '../support/helpers.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const passes = 'cases/decode_fwd/passes_dump';
const dump35 = fixture(`${passes}/35_after_DeriveCallDirections.py`);
const dump41 = fixture(`${passes}/41_after_MaterializeRuntimeScopes.py`);
const work = mkdtempSync(join(tmpdir(), 'mm-compare-page-'));

/** The comparison the CLI makes of two texts (the oracle of the page's). */
function cliDiff(a, b) {
  writeFileSync(join(work, a.name), a.text);
  writeFileSync(join(work, b.name), b.text);
  const result = run(['--diff', join(work, a.name), join(work, b.name), '--json']);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** The real 41 dump with silu's sigmoid tile moved and an up_chunk tile
 * grown: a move, a resize and a conflict that appears. */
function edited() {
  const lines = dump41.text.split('\n');
  const start = lines.findIndex((l) => l.trim().startsWith('def silu('));
  const set = (name, field, value) => {
    const at = lines.findIndex((l, i) => i > start && l.trim().startsWith(`${name}: pl.Tile[`));
    lines[at] = lines[at].replace(/pl\.MemRef\((\w+), pl\.const\((\d+), pl\.INT64\), (\d+)\)/, (_, base, o, s) =>
      `pl.MemRef(${base}, pl.const(${field === 'offset' ? value : o}, pl.INT64), ${field === 'size' ? value : s})`);
  };
  set('sigmoid_inline293__tile', 'offset', 100000);
  set('up_chunk_inline46__tile_1', 'size', 32768);
  return { name: '42_after_Edited.py', text: lines.join('\n') };
}

/** The 41 dump's 38 functions six times under fresh names (2.9 MB): old
 * and new (one tile moved in each copy of silu) make 228 compare cards. */
function repeat(text) {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => /^ {4}@/.test(l));
  const body = lines.slice(first).join('\n');
  return [lines.slice(0, first).join('\n'),
    ...Array.from({ length: 6 }, (_, c) => body.replace(/^( {4}def )(\w+)\(/gm, (_m, def, fn) => `${def}${fn}_r${c}(`))].join('\n');
}

const shown = (page) => page.waitForSelector('.compare-cards[data-complete="true"] .compare-card.open .compare-side.new .box');

async function compared(files, options) {
  const page = await openPage(env.browser, env.url, options);
  await drop(page, files);
  await shown(page);
  return page;
}

describe('two dumps dropped', () => {
  test('the lower pass number is old; the summary and the cards count what --diff counts', async () => {
    const diff = cliDiff(dump35, dump41);
    const page = await compared([dump41, dump35]); // the newer first: order by pass number
    const sides = await page.locator('.compare-summary .compare-sides').innerText();
    assert.match(sides, /^OLD 35_after_DeriveCallDirections\.py \(Ascend910B\) → NEW 41_after_MaterializeRuntimeScopes\.py/i);
    const { functions: f, tiles: t } = diff.counts;
    const counts = await page.locator('.compare-counts').innerText();
    assert.ok(counts.includes(`${diff.functions.length} functions: ${f.changed} changed, ${f.unchanged} unchanged, ${f.added} added, ${f.removed} removed`), counts);
    assert.ok(counts.includes(`tiles: ${t.moved} moved, ${t.resized} resized, ${t.longer} live longer, ${t.shorter} shorter`), counts);
    assert.equal(await page.locator('.compare-verdict').innerText(), 'no memory regression');
    // Changed functions only, by default; then all, in the comparison's order.
    const names = () => page.locator('.compare-card').evaluateAll((cards) => cards.map((c) => c.dataset.function));
    assert.deepEqual(await names(), diff.functions.filter((x) => x.status === 'changed').map((x) => x.name));
    await page.locator('.filter[data-filter="all"]').click();
    await page.waitForSelector('.compare-cards[data-complete="true"]');
    assert.deepEqual(await names(), diff.functions.map((x) => x.name));
    assert.equal(await page.locator('#anomaly-count').innerText(), `${diff.counts.tiles.longer + diff.counts.tiles.shorter + diff.counts.tiles.removed} changes`);
    // Changes, but no regression: not in the alarm colours.
    assert.match(await page.locator('#anomalies').getAttribute('class'), /\bquiet\b/);
    const [border, alert] = await page.locator('#anomalies').evaluate((e) => {
      const probe = document.body.appendChild(Object.assign(document.createElement('span'), { style: 'color: var(--alert)' }));
      const colours = [getComputedStyle(e).borderTopColor, getComputedStyle(probe).color];
      probe.remove();
      return colours;
    });
    assert.notEqual(border, alert);
    assert.equal(await page.locator('.compare-anomalies').count(), diff.functions.filter((x) => x.anomalies.length).length);
    assert.equal(await page.title(), '35_after_DeriveCallDirections.py → 41_after_MaterializeRuntimeScopes.py — Memory Map');
    await finish(page);
  });

  test('the first changed card: both maps, pills old → new, a lane per changed space on one byte scale, in view', async () => {
    const page = await compared([dump35, dump41]);
    const card = page.locator('.compare-card.open');
    assert.equal(await card.getAttribute('data-function'), 'down_proj');
    assert.deepEqual(await card.locator('.compare-pill').allInnerTexts(),
      ['Mat 260 KB → 260 KB same', 'Left 1 KB → 1 KB same', 'Right 64 KB → 64 KB same', 'Acc 64 KB → 64 KB same']);
    // Tiles changed in Left, Right and Acc, none in Mat: the maps open on
    // those three (a 512 KB Mat beside them put them off-screen).
    for (const space of ['Left', 'Right', 'Acc']) {
      const [a, b] = await Promise.all(['old', 'new'].map((side) => rect(card.locator(`.compare-side.${side} .lane[data-space="${space}"]`))));
      assert.ok(Math.abs(a.width - b.width) < 0.5, `${space}: ${a.width} and ${b.width} px`);
      for (const side of ['old', 'new']) {
        const [lane, viewport] = await Promise.all([rect(card.locator(`.compare-side.${side} .lane[data-space="${space}"]`)),
          rect(card.locator(`.compare-side.${side} .viewport`))]);
        assert.ok(lane.x + lane.width <= viewport.x + viewport.width + 0.5, `${side} ${space} in view: ${JSON.stringify(lane)}`);
      }
    }
    for (const side of ['old', 'new']) {
      assert.equal(await card.locator(`.compare-side.${side} .lane[data-space="Mat"]`).count(), 0, 'Mat: nothing changed');
      assert.equal(await card.locator(`.compare-side.${side} .space-toggle[data-space="Mat"]`).getAttribute('aria-pressed'), 'false', 'a click away');
    }
    // A tile that lives shorter in NEW is marked on both sides.
    const tile = 'c_acc_v2_inline38__tile_l0_a_1';
    for (const side of ['old', 'new']) {
      assert.match(await card.locator(`.compare-side.${side} .box[data-tile="${tile}"]`).getAttribute('class'), /diff-shorter/);
    }
    await finish(page);
  });
});

describe('an edited copy of a real dump', () => {
  test('a window made narrower lays both maps out again, in its width', async () => {
    const page = await compared([dump35, dump41], { width: 1400, height: 900 });
    const right = () => page.evaluate(() => Math.max(...[...document.querySelectorAll('.compare-card.open .lane-head')]
      .map((h) => h.getBoundingClientRect().right)));
    assert.ok(await right() <= 1400, String(await right()));
    await page.setViewportSize({ width: 900, height: 900 });
    await page.waitForFunction(() => Math.max(...[...document.querySelectorAll('.compare-card.open .lane-head')]
      .map((h) => h.getBoundingClientRect().right)) <= innerWidth);
    await finish(page);
  });

  test('moved and resized: marked, the pill grows, hover lights the counterpart and shows where it was', async () => {
    const page = await compared([dump41, edited()]);
    const card = page.locator('.compare-card[data-function="silu"]');
    assert.match(await card.getAttribute('class'), /open/);
    assert.equal(await card.locator('.compare-pill').innerText(), 'Vec 96.1 KB → 113.7 KB +17.6 KB (+18.3%)');
    assert.match(await card.locator('.compare-pill').getAttribute('class'), /grew/);
    const moved = card.locator('.compare-side.new .box[data-tile="sigmoid_inline293__tile"]');
    const was = card.locator('.compare-side.old .box[data-tile="sigmoid_inline293__tile"]');
    assert.match(await moved.getAttribute('class'), /diff-moved/);
    assert.match(await was.getAttribute('class'), /diff-moved.*diff-was/);
    await moved.hover();
    assert.match(await was.getAttribute('class'), /counterpart/);
    // The ghost sits where the old box is, in its lane: one byte scale.
    const ghost = await rect(card.locator('.compare-side.new .ghost'));
    const [oldBox, oldLane, newLane] = await Promise.all([rect(was), rect(card.locator('.compare-side.old .lane[data-space="Vec"]')),
      rect(card.locator('.compare-side.new .lane[data-space="Vec"]'))]);
    assert.ok(Math.abs((ghost.x - newLane.x) - (oldBox.x - oldLane.x)) < 1.5, `${ghost.x - newLane.x} vs ${oldBox.x - oldLane.x}`);
    assert.ok(Math.abs(ghost.width - oldBox.width) < 1.5);
    const tip = await page.locator('.tooltip').innerText();
    assert.match(tip, /moved: Vec mem_vec_14 \[16384, 32768\) → Vec mem_vec_14 \[100000, 116384\)/);
    assert.match(await page.locator('.compare-verdict').innerText(), /^2 regressions \(as --diff --check counts them\) · Vec \+17\.6 KB in silu$/);
    // The function's head says what appeared beside its pill, in the alarm colours, and so does the bar.
    const silu = cliDiff(dump41, edited()).functions.find((x) => x.name === 'silu');
    const appeared = silu.anomalies.filter((a) => a.change === 'appeared').length;
    assert.ok(appeared > 0);
    assert.equal(await card.locator('.compare-anomalies.grew').innerText(), `${appeared} ${appeared === 1 ? 'anomaly' : 'anomalies'} appeared`);
    assert.doesNotMatch(await page.locator('#anomalies').getAttribute('class'), /\bquiet\b/);
    await finish(page);
  });

  test('N and Shift+N go through the changes, pinning each; the hash names the side', async () => {
    const diff = cliDiff(dump41, edited());
    const silu = diff.functions.find((x) => x.name === 'silu');
    const page = await compared([dump41, edited()]);
    const stops = [...silu.tiles.map((t) => t.name), ...silu.anomalies.map((a) => a.kind.replaceAll('_', ' '))];
    await page.keyboard.press('n');
    assert.equal(await page.locator('#anomaly-count').innerText(), `1 / ${stops.length}: silu: ${silu.tiles[0].name} ${silu.tiles[0].changes.join(', ')}`);
    assert.equal(await page.locator('.compare-side.new .chip-name').innerText(), silu.tiles[0].name);
    assert.match(await page.evaluate(() => location.hash), new RegExp(`^#fn=silu&tile=${silu.tiles[0].name}`));
    // The pinned side shows its chip and conflicts above its map; line N
    // still sits at one height on both sides.
    const card = page.locator('.compare-card[data-function="silu"]');
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('.compare-card[data-function="silu"] .compare-side .lanes')];
      return rows.length === 2 && Math.abs(rows[0].getBoundingClientRect().top - rows[1].getBoundingClientRect().top) < 1;
    });
    assert.ok(await card.locator('.compare-side.new .chip-conflicts').isVisible());
    assert.ok(!(await card.locator('.compare-side.old .chip').isVisible()));
    await page.keyboard.press('Shift+N');
    await page.keyboard.press('Shift+N');
    assert.match(await page.locator('#anomaly-count').innerText(), new RegExp(`^${stops.length - 1} / ${stops.length}: silu: `));
    await finish(page);
  });
  test('search finds tiles on both sides, and a function the filter hides', async () => {
    const page = await compared([dump41, edited()]);
    const oracle = cliDiff(dump41, edited());
    const silu = oracle.functions.find((x) => x.name === 'silu');
    // The oracle: the boxes of silu holding the name, in each side's CLI model.
    const holding = (dump) => {
      writeFileSync(join(work, dump.name), dump.text);
      const model = JSON.parse(run([join(work, dump.name), '--json']).stdout);
      return model.functions.find((fn) => fn.name === 'silu').boxes
        .filter((b) => b.name === 'sigmoid_inline293__tile' || b.aliases.includes('sigmoid_inline293__tile')).length;
    };
    await page.fill('#search', '/^sigmoid_inline293__tile$/');
    await page.waitForFunction(() => /match/.test(document.getElementById('search-status').textContent));
    const card = page.locator('.compare-card[data-function="silu"]');
    assert.equal(await card.locator('.compare-side.new .box.match').count(), holding(edited()));
    assert.equal(await card.locator('.compare-side.old .box.match').count(), holding(dump41));
    await page.press('#search', 'Enter');
    assert.equal(await card.locator('.compare-side.new .chip-name').innerText(), 'sigmoid_inline293__tile');
    // A function unchanged (hidden by the filter) is listed when found.
    const unchanged = oracle.functions.find((x) => x.status === 'unchanged' && x !== silu).name;
    await page.fill('#search', `/^${unchanged}$/`);
    await page.waitForFunction(() => /^1 match$/.test(document.getElementById('search-status').textContent));
    await page.press('#search', 'Enter');
    await page.locator(`.compare-card[data-function="${unchanged}"].open`).waitFor();
    assert.equal(await page.locator('.filter[data-filter="all"]').getAttribute('aria-pressed'), 'true');
    await finish(page);
  });
});

describe('stepping through a real pair', () => {
  test('N: the tile pinned on its side, its counterpart lit at the same height on the other, nothing else pinned', async () => {
    const page = await compared([dump35, dump41]);
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('n');
      // As the user sees it: once the step's frames are drawn.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const state = await page.evaluate(() => {
        const pinned = document.querySelector('.compare-card.open .box.pinned');
        const side = pinned.closest('.compare-side');
        const other = [...side.parentElement.children].find((s) => s !== side);
        const counterpart = other.querySelector('.box.counterpart');
        return {
          pinnedOnBoth: document.querySelectorAll('.compare-card.open .box.pinned').length,
          top: pinned.getBoundingClientRect().top,
          counterpart: counterpart ? counterpart.getBoundingClientRect().top : null,
        };
      });
      assert.equal(state.pinnedOnBoth, 1);
      if (state.counterpart !== null) assert.ok(Math.abs(state.top - state.counterpart) < 1, JSON.stringify(state));
    }
    await finish(page);
  });
});

describe('ways in', () => {
  test('the site\'s compare example: a link that reopens the comparison, the pinned tile too', async () => {
    const page = await openPage(env.browser, env.url);
    await page.locator('button[data-example="compare"]').click();
    await shown(page);
    await page.keyboard.press('n');
    const pinned = await page.locator('.compare-side .chip:not([hidden]) .chip-name').innerText();
    const href = await page.evaluate(() => location.href);
    assert.match(href, /\?dump=.*41_after_MaterializeRuntimeScopes\.py.*&base=.*35_after_DeriveCallDirections\.py#fn=/);
    const again = await openPage(env.browser, href);
    await shown(again);
    await again.waitForSelector('.compare-side .chip:not([hidden])');
    assert.equal(await again.locator('.compare-side .chip:not([hidden]) .chip-name').innerText(), pinned);
    await finish(again);
    await finish(page);
  });

  test('a folder\'s "compare with": another pass of the same case', async () => {
    const page = await openPage(env.browser, env.url);
    await page.setInputFiles('#folder', join(corpus, 'cases', 'decode_fwd'));
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    const options = await page.locator('#compare-pass option').allInnerTexts();
    // Every other pass of the case, as the pass picker lists them.
    const passNames = await page.locator('#pass option').allInnerTexts();
    assert.deepEqual(options, ['—', ...passNames.filter((p) => p !== 'AllocateMemoryAddr')]);
    assert.ok(options.includes('MaterializeRuntimeScopes'));
    await page.selectOption('#compare-pass', 'MaterializeRuntimeScopes');
    await shown(page);
    assert.match(await page.locator('.compare-sides').innerText(), /32_after_AllocateMemoryAddr\.py \(Ascend910B\) → NEW 41_after_MaterializeRuntimeScopes\.py \(Ascend910B\)/);
    await page.selectOption('#compare-pass', '');
    await page.waitForSelector('#cards[data-complete="true"] > .card.open .box');
    assert.equal(await page.locator('.compare-view').count(), 0);
    await finish(page);
  });

  test('a folder\'s "compare with" lands as Compare… does: the verdict in view, changed functions shown', async () => {
    const dump32 = fixture(`${passes}/32_after_AllocateMemoryAddr.py`);
    writeFileSync(join(work, dump41.name), dump41.text);
    /** Where a comparison lands: the verdict inside the window, below the top bar, and the filter. */
    const landing = (page) => page.evaluate(() => {
      const verdict = document.querySelector('.compare-verdict').getBoundingClientRect();
      const bar = document.getElementById('topbar').getBoundingClientRect();
      return { verdictInView: verdict.top >= bar.bottom && verdict.bottom <= innerHeight, filter: document.querySelector('.filter[aria-pressed="true"]').dataset.filter };
    });
    const expected = { verdictInView: true, filter: 'changed' };
    // Compare… with two dumps on a fresh page: the reference.
    const fresh = await openPage(env.browser, env.url);
    await fresh.setInputFiles('#compare-file', [join(work, dump41.name), join(corpus, passes, dump32.name)]);
    await shown(fresh);
    assert.deepEqual(await landing(fresh), expected);
    await finish(fresh);
    for (const width of [1024, 1400]) {
      const page = await openPage(env.browser, env.url, { width });
      await page.setInputFiles('#folder', join(corpus, 'cases', 'decode_fwd'));
      await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
      await page.selectOption('#compare-pass', 'MaterializeRuntimeScopes');
      await shown(page);
      assert.deepEqual(await landing(page), expected, `folder → compare with, ${width} px`);
      // Back to the one dump, then Compare… with one dump from there.
      await page.selectOption('#compare-pass', '');
      await page.waitForSelector('#cards[data-complete="true"] > .card.open .box');
      await page.setInputFiles('#compare-file', join(work, dump41.name));
      await shown(page);
      assert.deepEqual(await landing(page), expected, `Compare… from the dump shown, ${width} px`);
      await finish(page);
    }
  });

  test('two dumps of the same name are told apart wherever the comparison names them', async () => {
    const name = '32_after_AllocateMemoryAddr.py';
    const dump32 = fixture(`${passes}/${name}`);
    /** Every place a side is named: the summary, each map's label, the top bar, the title. */
    const names = (page) => page.evaluate(() => {
      const text = (selector) => document.querySelector(selector).textContent;
      const [old, neu] = ['old', 'new'].map((side) => text(`.compare-card.open .compare-side.${side} .side-label`).replace(/^(old|new)\s*/, ''));
      return { summary: text('.compare-sides'), old, new: neu, bar: text('#summary .dump-name'), title: document.title };
    });
    const apart = (seen, a, b) => {
      assert.notEqual(seen.old, seen.new);
      assert.ok(seen.old.includes(a) && seen.new.includes(b), `${seen.old} | ${seen.new}`);
      for (const where of ['summary', 'bar', 'title']) {
        const i = seen[where].indexOf(seen.old);
        assert.ok(i >= 0 && seen[where].indexOf(seen.new, i + seen.old.length) > 0, `${where}: ${seen[where]}`);
      }
    };
    // Two files of that name (a dump and the same pass after a change): no
    // paths, told apart by their sizes.
    const page = await compared([dump32, { name, text: dump41.text }]);
    const dropped = await names(page);
    apart(dropped, name, name);
    assert.match(dropped.old, /\d KB\)$/);
    await finish(page);
    // Published at two paths: the shortest suffix that differs.
    const linked = await openPage(env.browser);
    await linked.route('**/builds/*/passes_dump/*.py', (route) =>
      route.fulfill({ body: route.request().url().includes('/v1/') ? dump32.text : dump41.text, contentType: 'text/plain' }));
    await linked.goto(`${env.url}?dump=builds/v2/passes_dump/${name}&base=builds/v1/passes_dump/${name}`);
    await shown(linked);
    apart(await names(linked), `v1/passes_dump/${name}`, `v2/passes_dump/${name}`);
    await finish(linked);
  });

  test('Compare… with one dump compares it with the dump shown', async () => {
    const page = await openPageWith(env.browser, env.url, [dump41]);
    writeFileSync(join(work, dump35.name), dump35.text);
    await page.setInputFiles('#compare-file', join(work, dump35.name));
    await shown(page);
    assert.match(await page.locator('.compare-sides').innerText(), /35_after_DeriveCallDirections\.py .*→ NEW 41_after/);
    await finish(page);
  });

  test('hundreds of functions, past 2 MB a side: the cards come in groups after the first, search opens one in the last group, its IR source as the file has it', async () => {
    const page = await openPage(env.browser, env.url);
    // A first comparison has both workers' cores started: the big sides then go into their heaps.
    await drop(page, [dump35, dump41]);
    await shown(page);
    // Reads of a big file on the page's thread: none, the workers hand their bytes back (engine.js dumpMessage).
    await page.evaluate(() => {
      window.bigReads = 0;
      for (const name of ['arrayBuffer', 'stream', 'text', 'slice']) {
        const read = Blob.prototype[name];
        Blob.prototype[name] = function (...args) {
          if (this.size >= 2 * 1024 * 1024) window.bigReads++;
          return read.apply(this, args);
        };
      }
    });
    const newText = repeat(edited().text);
    assert.ok(newText.length > 2 * 1024 * 1024);
    await drop(page, [{ name: '41_after_Many.py', text: repeat(dump41.text) }, { name: '42_after_Many.py', text: newText }]);
    await shown(page);
    assert.deepEqual(await page.evaluate(() => [window.bigReads, window.memoryMapStats.intoHeap]), [0, true]);
    await page.click('.filter[data-filter="all"]');
    await page.waitForSelector('.compare-cards[data-complete="true"]');
    const [cards, groups] = await page.evaluate(() => [document.querySelectorAll('.compare-card').length, document.querySelectorAll('.compare-cards > .card-group').length]);
    assert.equal(cards, 228);
    assert.equal(groups, Math.ceil(227 / 50), 'every card but the first, in groups of 50');
    const last = 'silu_r5';
    await page.fill('#search', last);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.compare-card.open[data-function="${last}"] .compare-side.new .box`);
    await page.click(`.compare-card.open[data-function="${last}"] .compare-side.new .source-toggle`);
    const rows = await page.locator(`.compare-card.open[data-function="${last}"] .compare-side.new .source-rows .row`)
      .evaluateAll((list) => list.map((r) => [Number(r.dataset.line), r.querySelector('.code')?.textContent]));
    assert.ok(rows.length > 5 && rows.some(([, code]) => code.includes(`def ${last}(`)), 'the function\'s lines in view');
    const lines = newText.split('\n');
    for (const [line, code] of rows) assert.equal(code, lines[line - 1], `line ${line}`);
    await finish(page);
  });

  test('a big side\'s first card shows before its bytes come back from its worker: its lines at once, its code when they come', async () => {
    // The workers' messages handing the bytes back are held until the test lets them through.
    const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.addInitScript(() => {
      const { set } = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
      window.held = [];
      Object.defineProperty(Worker.prototype, 'onmessage', {
        set(handle) {
          set.call(this, (event) => (window.holding && event.data?.handedBack ? window.held.push(() => handle(event)) : handle(event)));
        },
      });
    });
    await page.goto(env.url);
    await drop(page, [dump35, dump41]); // both workers' cores started: the big sides go into their heaps
    await shown(page);
    await page.evaluate(() => { window.holding = true; });
    const newText = repeat(edited().text);
    await drop(page, [{ name: '41_after_Many.py', text: repeat(dump41.text) }, { name: '42_after_Many.py', text: newText }]);
    await shown(page);
    await page.waitForFunction(() => window.held.length === 2);
    const side = page.locator('.compare-card.open .compare-side.new');
    await side.locator('.source-toggle').click();
    const rows = () => side.locator('.source-rows .row').evaluateAll((list) => list.map((r) => [Number(r.dataset.line), r.querySelector('.code')?.textContent]));
    const before = await rows();
    assert.ok(before.length > 5 && before.every(([line, code]) => line > 0 && code === ''), 'the lines, no code yet');
    const width = () => side.locator('.left-column').evaluate((n) => n.getBoundingClientRect().width);
    const narrow = await width();
    await page.evaluate(() => {
      window.holding = false;
      window.held.forEach((release) => release());
    });
    await page.waitForFunction(() => document.querySelector('.compare-card.open .compare-side.new .source-rows .row .code')?.textContent);
    const lines = newText.split('\n');
    for (const [line, code] of await rows()) assert.equal(code, lines[line - 1], `line ${line}`);
    assert.ok(await width() > narrow, 'the column widened for the code');
    assert.equal(await page.evaluate(() => window.memoryMapStats.intoHeap), true);
    await page.close();
    assert.deepEqual(problems, []);
  });

  test('a refused side is named in the message; the page takes the next drop', async () => {
    const page = await openPage(env.browser, env.url);
    await drop(page, [dump35, { name: '50_after_Broken.py', text: 'def f(:\n' }]);
    await page.waitForSelector('#message.error');
    assert.match(await page.locator('#message h2').innerText(), /^Cannot show 50_after_Broken\.py \(the new side\), line 1, column 7$/);
    await drop(page, [dump35, dump41]);
    await shown(page);
    await finish(page);
  });

  test('a side whose file cannot be read (removed since it was chosen) is named', async () => {
    const page = await openPage(env.browser, env.url);
    const paths = [['35_after_DeriveCallDirections.py', dump35], ['41_after_MaterializeRuntimeScopes.py', dump41]].map(([name, f]) => {
      writeFileSync(join(work, name), f.text);
      return join(work, name);
    });
    await page.evaluate(() => { document.body.append(Object.assign(document.createElement('input'), { type: 'file', id: 'chosen', multiple: true })); });
    await page.setInputFiles('#chosen', paths);
    rmSync(paths[1]);
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      for (const file of document.getElementById('chosen').files) transfer.items.add(file);
      document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await page.waitForSelector('#message.error');
    assert.equal(await page.locator('#message h2').innerText(), 'Cannot show 41_after_MaterializeRuntimeScopes.py (the new side)');
    assert.match(await page.locator('#message').innerText(), /cannot read the file: /);
    await drop(page, [dump35, dump41]);
    await shown(page);
    await finish(page);
  });

  test('both sides refused: the old one is named, as --diff names it, though each is read by a worker of its own', async () => {
    const page = await openPage(env.browser, env.url);
    // The new side is small and fails at once; the old one is read longer.
    const old = { name: '10_after_Long.py', text: `${dump41.text}\n${dump41.text.split('\n').slice(0, 3).join('\n')}\ndef g(:\n` };
    await drop(page, [old, { name: '50_after_Broken.py', text: 'def f(:\n' }]);
    await page.waitForSelector('#message.error');
    assert.match(await page.locator('#message h2').innerText(), /^Cannot show 10_after_Long\.py \(the old side\), line \d+, column \d+$/);
    const paths = [old, { name: '50_after_Broken.py', text: 'def f(:\n' }].map((f) => {
      writeFileSync(join(work, f.name), f.text);
      return join(work, f.name);
    });
    const cli = run(['--diff', ...paths]);
    assert.match(cli.stderr, /10_after_Long\.py/);
    await finish(page);
  });

  test('the CLI\'s compare page (--diff OLD NEW -o) opens from file:// and shows the comparison', async () => {
    writeFileSync(join(work, dump35.name), dump35.text);
    writeFileSync(join(work, dump41.name), dump41.text);
    const out = join(work, 'compare.html');
    assert.equal(run(['--diff', join(work, dump35.name), join(work, dump41.name), '-o', out]).status, 0);
    const page = await openPage(env.browser, pathToFileURL(out).href);
    await shown(page);
    assert.equal(await page.locator('.compare-card').count(), 8);
    assert.ok(page.requests.every((u) => u.startsWith('file:') || u.startsWith('data:') || u.startsWith('blob:')), page.requests.join(' '));
    await finish(page);
  });
});

describe('accessibility (axe-core)', () => {
  for (const colorScheme of ['light', 'dark']) {
    test(`no violation in the compare view, ${colorScheme}, a tile hovered`, async () => {
      const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme, bypassCSP: true });
      await page.goto(env.url);
      await drop(page, [dump41, edited()]);
      await shown(page);
      await page.locator('.compare-side.new .box[data-tile="sigmoid_inline293__tile"]').hover();
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`));
      assert.deepEqual(violations, []);
      await page.close();
    });
  }
});
