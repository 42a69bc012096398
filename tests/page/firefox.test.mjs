// The page in Firefox (ESR, over WebDriver BiDi): what differs between
// engines (file:// origins, workers from Blob URLs, content-visibility,
// wheel events, CSP reporting), on the ways in and the interactions
// docs/page.md describes. Chromium runs the full suites; these run the
// same behaviours here.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { drop, fixture, injectionOutcome } from '../support/browser.mjs'; // these work in either browser
import { chooseFolder, finish, launchFirefox, openPage, rect, settled, text } from '../support/firefox.mjs';
import { makeBuild } from '../support/build-fixture.mjs';
import { corpus, dumpWith, root, run, tileType } from '../support/helpers.mjs';

let env;
before(async () => { env = await launchFirefox(); });
after(async () => { await env?.close(); });

const decodeFwd = () => fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py', '41_after_MaterializeRuntimeScopes.py');
const offline = pathToFileURL(join(root, 'dist', 'memory-map.html')).href;

async function pageWith(files, options) {
  const page = await openPage(env.browser, env.url, options);
  await drop(page, files);
  await settled(page);
  return page;
}

/** Opens the card of `name` (its boxes drawn). */
async function openCard(page, name) {
  const card = `[data-function="${name}"]`;
  if (!(await page.$(`${card}.open`))) await page.click(`${card} .card-toggle`);
  await page.waitForSelector(`${card} .box`);
  return card;
}

describe('Firefox: getting a dump in', () => {
  test('a dropped dump: one card per compute function, the first open', async () => {
    const page = await pageWith([decodeFwd()]);
    assert.equal(await page.$$eval('.card', (cards) => cards.length), 38);
    assert.equal(await page.$$eval('.card.open', (cards) => cards.length), 1);
    const summary = await text(page, '#summary');
    for (const part of ['41_after_MaterializeRuntimeScopes.py', '38 compute functions', '695 tiles', 'Ascend910B'])
      assert.ok(summary.includes(part), `${part} in ${summary}`);
    await finish(page);
  });

  test('a build_output/<case>/ folder through the folder input: its dump, pass picker and backend', async () => {
    const page = await openPage(env.browser, env.url);
    await chooseFolder(page, join(corpus, 'cases', 'decode_fwd'));
    await settled(page);
    const summary = await text(page, '#summary');
    assert.ok(summary.includes('32_after_AllocateMemoryAddr.py'), summary);
    assert.ok(!summary.includes('assumed'), 'the backend came from ptoas/*.pto');
    assert.equal(await page.$eval('#pass', (s) => s.value), 'AllocateMemoryAddr');
    await finish(page);
  });

  test('a ?dump= link with a deep link: the card, the pinned tile, the zoom', async () => {
    const page = await openPage(env.browser, `${env.url}?dump=examples/decode_fwd/32_after_AllocateMemoryAddr.py#fn=k_proj&tile=t__tile_1&zoom=1.6`);
    await settled(page);
    await page.waitForSelector('[data-function="k_proj"] .chip:not([hidden])');
    assert.equal(await text(page, '[data-function="k_proj"] .chip-name'), 't__tile_1');
    assert.equal(await text(page, '[data-function="k_proj"] .zoom-level'), '1.6×');
    await finish(page);
  });

  test('the offline file from file://: the example renders, nothing leaves file:, no console error', async () => {
    const page = await openPage(env.browser, offline);
    await page.click('[data-example="cube"]');
    await settled(page);
    assert.ok(await page.$('.card.open .box'));
    const outside = page.requests.filter((u) => !/^(file|data|blob):/.test(u));
    assert.deepEqual(outside, []);
    await finish(page);
  });

  test('a CLI page from file://: the map at once, then a dropped dump in its worker; no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-firefox-cli-'));
    const dump = join(dir, 'vector_division.py');
    copyFileSync(join(corpus, 'real', 'vector_division.py'), dump);
    assert.equal(run([dump]).status, 0);
    const page = await openPage(env.browser, pathToFileURL(dump.replace(/\.py$/, '.memory_map.html')).href);
    await settled(page);
    assert.equal(await text(page, '#summary .dump-name'), 'vector_division.py');
    await drop(page, [fixture('real/norm_rope.py')]);
    await page.waitForFunction(() => document.querySelector('#summary .dump-name')?.textContent === 'norm_rope.py');
    await settled(page);
    await finish(page);
  });
});

describe('Firefox: interactions', () => {
  test('click pins (chip, live lines, the source opens); Esc unpins', async () => {
    const page = await pageWith([fixture('real/vector_division.py')]);
    await page.click('.box[data-tile="left__tile"]');
    assert.equal(await text(page, '.chip'), 'pinned left__tile ×');
    assert.equal(await page.$$eval('.left-column.open', (n) => n.length), 1);
    assert.equal(await page.$$eval('.row.live', (rows) => rows.length), 10);
    await page.keyboard.press('Escape');
    assert.equal(await page.$eval('.chip', (n) => n.hidden), true);
    await finish(page);
  });

  test('zoom buttons and Ctrl + wheel scale every lane together', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    const lane = `${card} .lane[data-space="Left"]`;
    const base = (await rect(page, lane)).width;
    await page.click(`${card} .zoom-in`);
    assert.equal(await text(page, `${card} .zoom-level`), '1.6×');
    assert.ok(Math.abs((await rect(page, lane)).width / base - 1.6) < 0.01);
    await page.click(`${card} .zoom-level`);
    const mat = await rect(page, `${card} .lane[data-space="Mat"]`);
    await page.mouse.move(mat.x + mat.width * 0.3, mat.y + 100);
    await page.keyboard.down('Control');
    await page.mouse.wheel({ deltaY: -100 });
    await page.keyboard.up('Control');
    await page.waitForFunction((c) => document.querySelector(`${c} .zoom-level`).textContent === '1.6×', {}, card);
    await finish(page);
  });

  test('the splitter: arrows and a drag resize the IR source, the byte scale stays', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'down_proj');
    await page.click(`${card} .source-toggle`);
    const width = async () => Math.round((await rect(page, `${card} .source-window`)).width);
    const initial = await width();
    const mat = (await rect(page, `${card} .lane[data-space="Mat"]`)).width;
    await page.focus(`${card} .splitter`);
    await page.keyboard.press('ArrowRight');
    assert.equal(await width(), initial + 16);
    assert.equal((await rect(page, `${card} .lane[data-space="Mat"]`)).width, mat);
    const s = await rect(page, `${card} .splitter`);
    await page.mouse.move(s.x + 2, s.y + 50);
    await page.mouse.down();
    await page.mouse.move(1, s.y + 50, { steps: 4 }); // far left (WebDriver stays in the viewport)
    await page.mouse.up();
    assert.equal(await width(), 140);
    await finish(page);
  });

  test('find: matches counted and marked; Enter pins the next', async () => {
    const page = await pageWith([decodeFwd()]);
    await page.type('#search', 'sigmoid');
    await page.waitForFunction(() => /\d+ match/.test(document.getElementById('search-status').textContent));
    const count = Number((await text(page, '#search-status')).match(/\d+/)[0]);
    assert.ok(count > 1, `${count} matches`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^1 \//.test(document.getElementById('search-status').textContent));
    assert.match(await text(page, '.chip:not([hidden]) .chip-name'), /sigmoid/);
    await finish(page);
  });

  test('all 38 cards opened: the last one, scrolled to, draws its boxes (content-visibility)', async () => {
    const page = await pageWith([decodeFwd()]);
    await page.$$eval('.card:not(.open) .card-toggle', (buttons) => buttons.forEach((b) => b.click()));
    await page.$eval('.card:last-child', (card) => card.scrollIntoView());
    await page.waitForSelector('.card:last-child .box');
    const box = await rect(page, '.card:last-child .box');
    assert.ok(box.width >= 2 && box.height > 0, JSON.stringify(box));
    await finish(page);
  });
});

describe('Firefox: what holds the space', () => {
  test('a pill\'s peak composition, largest first; a tile there pins it', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = '[data-function="down_proj"]';
    await page.click(`${card} .pill[data-space="Mat"]`);
    await page.waitForSelector(`${card} .panel-peak`);
    assert.match(await text(page, `${card} .panel-peak h2`), /^Peak of Mat: 260 KB live on line \d+$/);
    assert.deepEqual(await page.$$eval(`${card} .panel-peak .panel-tiles li .num`, (n) => n.map((x) => x.innerText)), ['128 KB', '128 KB', '2 KB', '2 KB']);
    const first = await text(page, `${card} .panel-peak .panel-tiles .tile-link`);
    await page.click(`${card} .panel-peak .panel-tiles .tile-link`);
    assert.equal(await text(page, `${card} .chip-name`), first);
    await finish(page);
  });

  test('fa_fused_aiv: the reserved ring hatched across Vec, the idle list, a line pinned', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'fa_fused_aiv');
    assert.match(await text(page, `${card} .lane[data-space="Vec"] .window-label`), /^fa_fused_c2v_slot_buffer/);
    await page.click(`${card} .idle-toggle`);
    await page.waitForSelector(`${card} .idle-panel .tile-link`);
    const line = await page.$eval(`${card} .row .ln`, (n) => n.closest('.row').dataset.line);
    await page.click(`${card} .row[data-line="${line}"] .ln`);
    await page.waitForFunction((c) => /^Line \d+/.test(document.querySelector(`${c} .panel-wrap .panel-head`)?.textContent ?? ''), {}, card);
    await finish(page);
  });
});

describe('Firefox: a whole build, pipes and the fit', () => {
  test('a build folder opens on its overview, as the CLI reads it; a row opens its case', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mm-ff-build-')), 'build_output');
    makeBuild(dir, { count: 6 });
    const cli = JSON.parse(run([dir, '--json']).stdout);
    const page = await openPage(env.browser, env.url);
    await chooseFolder(page, dir);
    await page.waitForSelector('.overview-table tbody tr', { timeout: 30_000 });
    const rows = await page.$$eval('.overview-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(rows.map((c) => [c[0], c[2], c[4]]), cli.rows.map((r) => [r.case, r.function, r.space]));
    await page.click('.overview-table tbody tr button');
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box', { timeout: 30_000 });
    assert.match(await page.evaluate(() => location.hash), /^#case=/);
    await finish(page);
  });

  test('fa_fused_aiv says its pipe, and the line inspector answers as --fit does', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'fa_fused_aiv');
    assert.match(await text(page, `${card} .pipe-notice`), /^⇄ Cross-core pipe with fa_fused_aic: .* At most 21 slots/);
    await page.click(`${card} .pill[data-space="Vec"]`);
    await page.waitForSelector(`${card} .panel-fit button`);
    await page.click(`${card} .panel-fit button`);
    await page.waitForFunction((c) => /^lowest gap/.test(document.querySelector(`${c} .fit-answer`)?.textContent ?? ''), {}, card);
    // Opened from the pill: the question starts from the tile that sets Vec's mark.
    const [size, first, last] = await page.$eval(`${card} .panel-fit`, (f) => [f.querySelector('input[type="text"]').value,
      f.querySelector('.fit-first').value, f.querySelector('.fit-last').value]);
    const cli = run([join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py'), '--fit', `Vec:${size}:${first}-${last}`, '--function', 'fa_fused_aiv']).stdout;
    const [, offset, end] = /free then is \[(\d+), (\d+)\)/.exec(cli);
    assert.match(await text(page, `${card} .fit-answer`), new RegExp(`^lowest gap free then: \\[${offset}, ${end}\\)`));
    await finish(page);
  });
});

describe('Firefox: how the map is drawn', () => {
  test('a reserved ring is hatched, not a flat fill that reads as a tile', async () => {
    const page = await pageWith([decodeFwd()]);
    const card = await openCard(page, 'fa_fused_aiv');
    // A strip across the ring's band below its label, where no tile is live yet.
    const band = await rect(page, `${card} .lane[data-space="Vec"] .window-band`);
    const label = await rect(page, `${card} .lane[data-space="Vec"] .window-label`);
    const clip = { x: Math.round(band.x + 4), y: Math.round(label.y + label.height + 12), width: Math.round(Math.min(120, band.width - 8)), height: 1 };
    const png = await page.screenshot({ clip, encoding: 'base64' });
    const changes = await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const { data: px } = context.getImageData(0, 0, canvas.width, 1);
      let count = 0;
      for (let i = 4; i < canvas.width * 4; i += 4) if (Math.abs(px[i] - px[i - 4]) + Math.abs(px[i + 1] - px[i - 3]) + Math.abs(px[i + 2] - px[i - 2]) > 24) count++;
      return { count, width: canvas.width };
    }, png);
    // Stripes 9 px apart cross a row about width / 9 times, twice each.
    assert.ok(changes.count >= changes.width / 9, `${changes.count} changes of colour across ${changes.width} px`);
    await finish(page);
  });
});

describe('Firefox: comparing and embedding', () => {
  test('two dumps dropped: the compare view, both maps of a changed function side by side', async () => {
    const passes = 'cases/decode_fwd/passes_dump';
    const page = await openPage(env.browser, env.url);
    await drop(page, [fixture(`${passes}/41_after_MaterializeRuntimeScopes.py`), fixture(`${passes}/32_after_AllocateMemoryAddr.py`)]);
    await page.waitForSelector('.compare-cards[data-complete="true"] .compare-card.open .compare-side.new .box');
    assert.equal(await text(page, '#summary .dump-name'), '32_after_AllocateMemoryAddr.py → 41_after_MaterializeRuntimeScopes.py');
    assert.equal(await page.$$eval('.compare-card.open .compare-side .lanes', (n) => n.length), 2);
    await finish(page);
  });

  test('the dark theme\'s compare view: its maps\' scrollbar tracks are dark too', async () => {
    const passes = 'cases/decode_fwd/passes_dump';
    const page = await openPage(env.browser, env.url);
    await drop(page, [fixture(`${passes}/41_after_MaterializeRuntimeScopes.py`), fixture(`${passes}/32_after_AllocateMemoryAddr.py`)]);
    await page.waitForSelector('.compare-cards[data-complete="true"] .compare-card.open .compare-side.new .box');
    while (await page.evaluate(() => document.documentElement.dataset.theme) !== 'dark') await page.click('#theme');
    const side = '.compare-card.open .compare-side.new .viewport';
    await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'center' }), side);
    // In the page's coordinates: Firefox's screenshot clip counts from the document's top.
    const v = await page.$eval(side, (n) => {
      const r = n.getBoundingClientRect();
      return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
    });
    const bar = await page.$eval(side, (n) => n.offsetWidth - n.clientWidth);
    // The vertical scrollbar's column, top to bottom: its track is dark where the thumb is not.
    const png = await page.screenshot({ clip: { x: Math.round(v.x + v.width - bar / 2), y: Math.round(v.y + 60), width: 1, height: Math.round(v.height - 80) }, encoding: 'base64' });
    const light = await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const context = Object.assign(document.createElement('canvas'), { width: 1, height: image.naturalHeight }).getContext('2d');
      context.drawImage(image, 0, 0);
      const px = context.getImageData(0, 0, 1, image.naturalHeight).data;
      let least = 1;
      for (let i = 0; i < px.length; i += 4) least = Math.min(least, (0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2]) / 255);
      return least;
    }, png);
    assert.ok(bar > 0, 'the map has a scrollbar');
    assert.ok(light < 0.3, `the track's darkest pixel's lightness ${light.toFixed(2)}`);
    await finish(page);
  });

  test('?embed: one function\'s map in its frame, a link to the full page', async () => {
    const page = await openPage(env.browser, `${env.url}?embed&theme=dark&dump=examples/decode_fwd/32_after_AllocateMemoryAddr.py#fn=k_proj`, { width: 700, height: 500 });
    await settled(page);
    assert.equal(await page.$$eval('.card', (n) => n.length), 1);
    assert.ok(await page.$eval('#topbar', (n) => n.getBoundingClientRect().height <= 1), 'the top bar does not show');
    assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight + 1), true);
    assert.doesNotMatch(await page.$eval('.full-view', (a) => a.href), /embed/);
    await page.screenshot({ path: join(tmpdir(), 'mm-firefox-embed.png') });
    await finish(page);
  });
});

describe('Firefox: safety', () => {
  test('markup and script in a dump render as text; nothing runs', async () => {
    const dump = dumpWith([
      `x: ${tileType('Vec', '"<img src=x onerror=window.__pwned=1>"', 0, 64)} = f("</script><script>window.__pwned=2</script>")`,
      '# <img src=x onerror="window.__pwned=3"> </script>',
      'y = x',
    ]);
    const page = await pageWith([{ name: '<img src=x onerror=window.__pwned=4>.py', text: dump }]);
    await page.click('.box[data-tile="x"]');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.$$eval('img', (n) => n.length), 0);
    assert.ok((await text(page, '.source-rows')).includes('</script><script>window.__pwned=2</script>'));
    assert.ok((await text(page, '#summary')).includes('<img src=x onerror=window.__pwned=4>.py'));
    await finish(page);
  });

  for (const [name, url] of [['the static site', () => env.url], ['the offline file', () => offline]]) {
    test(`${name}: the CSP stops an injected script and eval`, async () => {
      const page = await openPage(env.browser, url());
      const outcome = await page.evaluate(injectionOutcome);
      assert.deepEqual(outcome, { injected: false, evaluated: 'EvalError' });
      // The violations are seen (what finish() holds every other page to).
      const violations = await page.violations();
      assert.ok(violations.some((v) => /^script-src/.test(v)), violations.join('; '));
      await page.close();
    });
  }
});
