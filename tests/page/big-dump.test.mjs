// A 50 MB dump in the page (Chromium): its first card drawn from the
// first function's model before the rest is read, a bar while it is
// analyzed, the whole model's cards reading one function's boxes (the
// others read when opened), a search that reads no function's boxes, and
// a second drop taking over while the big one is analyzed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { drop, finish, fixture, launch, openPage, settled } from '../support/browser.mjs';
import { root, run } from '../support/helpers.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const real = fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py');
const small = fixture('real/norm_rope.py');
const offline = pathToFileURL(join(root, 'dist', 'memory-map.html')).href;
const BIG = 50_000_000;
// The oracle: the command line's model of the real dump, which the big one repeats.
const realModel = JSON.parse(run([join(root, 'tests', 'fixtures', 'corpus', 'real', real.name), '--json']).stdout);

/**
 * In the page: a File of the real dump's functions repeated under fresh
 * names (`_r0`, `_r1`, ...) to `size` bytes, then `tail`, kept as
 * window.bigDump, and how many copies it holds.
 */
const makeBig = (page, size, tail = '') => page.evaluate(({ text, size, tail }) => {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => /^ {4}@/.test(l));
  const parts = [lines.slice(0, first).join('\n')];
  const body = lines.slice(first).join('\n');
  let copies = 0;
  for (let length = 0; length < size; copies++) {
    const renamed = body.replace(/^( {4}def )(\w+)\(/gm, (_, def, fn) => `${def}${fn}_r${copies}(`);
    parts.push(renamed);
    length += renamed.length;
  }
  window.bigDump = new File([parts.join('\n'), tail], 'big_50mb.py');
  return copies;
}, { text: real.text, size, tail });

/** The big dump's bar: the loading message's, or the top bar's once its first card shows. */
const BAR = '#message.loading:not([hidden]) .progress:not([hidden]), #summary .progress:not([hidden])';

/** Drops window.bigDump, the drop's mark noted as window.lastReceived. */
const dropBigFile = (page) => page.evaluate(() => {
  window.lastReceived = window.memoryMapStats.received;
  const transfer = new DataTransfer();
  transfer.items.add(window.bigDump);
  document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
});

/** Drops window.bigDump; until every card is made, what the bar said
 * every 10 ms (the loading message's, then the top bar's), what showed
 * once the first card was painted, and the page's marks then. With `pin`,
 * the first card's first tile is pinned as soon as it shows (focused,
 * Enter), its name kept as `first.pinned`. */
const dropBig = (page, pin = false) => page.evaluate(async ({ pin, BAR }) => {
  const transfer = new DataTransfer();
  transfer.items.add(window.bigDump);
  document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  const stats = window.memoryMapStats;
  const bars = [];
  let first = null;
  while (document.getElementById('cards').dataset.complete !== 'true') {
    const bar = document.querySelector(BAR);
    if (bar) bars.push({ text: bar.textContent, value: bar.querySelector('progress').value });
    if (stats.firstCardPainted && !first) {
      first = {
        wholeModel: stats.modelled > stats.received, previewed: stats.previewed > stats.received,
        summary: document.getElementById('summary').textContent, searchDisabled: document.getElementById('search').disabled,
        cards: [...document.querySelectorAll('.card')].map((c) => c.dataset.function),
        boxes: document.querySelectorAll('.card.open .box').length, rest: document.querySelector('.preview-rest')?.textContent ?? null,
      };
      const box = pin && document.querySelector('.card.open .box');
      if (box) {
        box.focus();
        box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        first.pinned = document.querySelector('.card.open .chip-name')?.textContent ?? null;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { bars, first, parsed: stats.bodies.parsed, total: stats.bodies.total, intoHeap: stats.intoHeap };
}, { pin, BAR });

describe('a 50 MB dump', () => {
  test('its first card before the rest is read; a bar while it is analyzed; a search reads no boxes', async () => {
    const page = await openPage(env.browser, offline);
    const copies = await makeBig(page, BIG);
    const { bars, first, parsed, total, intoHeap } = await dropBig(page, true);
    const fns = realModel.functions.length * copies;
    const tiles = realModel.functions.reduce((n, fn) => n + fn.boxes.length, 0) * copies;

    // The first card painted from the first function's model alone,
    // before the whole model came: that function's tiles all drawn (the
    // command line's model of it is the oracle), nothing that needs every
    // function shown yet.
    assert.equal(first.previewed, true);
    assert.equal(first.wholeModel, false, 'the first card waited for the whole model');
    assert.deepEqual(first.cards, [`${realModel.functions[0].name}_r0`]);
    assert.equal(first.boxes, realModel.functions[0].boxes.length);
    assert.match(first.summary, /^big_50mb\.py · first function.*Analyzing the rest… \d+%$/);
    assert.doesNotMatch(first.summary, /compute functions|tiles/);
    assert.equal(first.searchDisabled, true);
    assert.match(first.rest, /other functions.*once the whole dump is read/);
    assert.equal(first.pinned, realModel.functions[0].boxes[0].name);

    // The bar: shown (the drop takes well over 200 ms), its share growing,
    // in the top bar once the first card shows.
    const shares = bars.filter((b) => /^Analyzing/.test(b.text)).map((b) => b.value);
    assert.ok(new Set(shares).size >= 2, `the bar moved: ${JSON.stringify(bars.slice(0, 5))}`);
    assert.deepEqual(shares, [...shares].sort((a, b) => a - b));
    assert.match(bars.at(-1).text, /^Analyzing the rest… \d+%$/);

    // The worker read the file into the core's heap, and the page read
    // it for itself (engine.js dumpMessage).
    assert.equal(intoHeap, true);

    // The whole model: its first card, made again, reads one function's
    // boxes of thousands.
    assert.equal(total, fns);
    assert.equal(parsed, 1);
    await settled(page);
    assert.equal(await page.locator('.preview-rest').count(), 0);
    // The tile pinned on the first card while the rest was read is pinned
    // on the whole model's.
    assert.equal(await page.locator('.card.open .box.pinned').getAttribute('data-tile'), first.pinned);
    const summary = await page.textContent('#summary');
    assert.match(summary, new RegExp(`${fns} compute functions\\s· ${tiles} tiles`));
    assert.equal(await page.locator('.card').count(), fns);
    assert.ok(await page.locator('.card.open .box').count() > 0);

    // A search over every function reads none of their boxes; Enter opens
    // the first match's card only.
    const query = realModel.functions[5].boxes[0].name;
    const expected = realModel.functions.reduce((n, fn) => n + fn.boxes.filter((b) => [b.name, ...b.aliases].some((x) => x.toLowerCase().includes(query.toLowerCase()))).length, 0) * copies;
    await page.fill('#search', query);
    await page.press('#search', 'Enter');
    assert.equal(await page.textContent('#search-status'), `1 / ${expected}`);
    const after = await page.evaluate(() => window.memoryMapStats.bodies.parsed);
    assert.ok(after <= 2, `bodies read after a search and Enter: ${after}`);
    assert.equal(await page.locator('.card.open .box.pinned, .card.open .box.match').count() > 0, true);

    // The last function, by its name: its card (in the last group of
    // cards, never laid out so far) opens in view.
    const last = `${realModel.functions.at(-1).name}_r${copies - 1}`;
    await page.fill('#search', last);
    await page.press('#search', 'Enter');
    const card = page.locator(`.card[data-function="${last}"]`);
    await card.locator('.card-body').waitFor();
    const box = await card.boundingBox();
    assert.ok(box && box.y >= 0 && box.y < 900, `the last card in view: ${JSON.stringify(box)}`);
    assert.deepEqual((await card.getAttribute('class')).split(' ').sort(), ['card', 'name-match', 'open']);

    // The worker that held the big dump's heap was stopped; a fresh one
    // reads the next dump.
    await drop(page, [small]);
    await page.waitForFunction(() => document.querySelector('#summary .dump-name')?.textContent === 'norm_rope.py');
    assert.ok(await page.evaluate(() => window.memoryMapStats.heapBytes) < 64 * 2 ** 20, 'a fresh heap');
    assert.equal(await page.evaluate(() => window.memoryMapStats.intoHeap), false, 'a small dump is read whole');
    await finish(page);
  });

  test('after its first card: the whole model where the link points, or at the top; a refusal in its place', async () => {
    const page = await openPage(env.browser, offline);
    // Each drop waits for its own marks: its first card from the first
    // function, then its whole model with every card made.
    const previewed = () => page.waitForFunction(() => {
      const s = window.memoryMapStats;
      return s.received > window.lastReceived && s.previewed > s.received;
    }, null, { timeout: 60_000 });
    const whole = () => page.waitForFunction(() => {
      const s = window.memoryMapStats;
      return s.modelled > s.received && document.getElementById('cards').dataset.complete === 'true';
    }, null, { timeout: 60_000 });
    await makeBig(page, 17_000_000);

    // No link: the whole model opens as the first card did, at the top
    // of the page, the legend in view.
    await dropBigFile(page);
    await previewed();
    await whole();
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    assert.equal(await page.getAttribute('.card.open', 'data-function'), `${realModel.functions[0].name}_r0`);

    // A link to another function and tile: the first card shows while the
    // rest is read, then the linked card opens, its tile pinned.
    const fn = realModel.functions.find((f) => f.boxes.length > 1 && f !== realModel.functions[0]);
    const linked = `${fn.name}_r1`;
    await page.evaluate((hash) => history.replaceState(null, '', hash), `#fn=${linked}&tile=${fn.boxes[1].name}`);
    await dropBigFile(page);
    await previewed();
    await whole();
    const card = page.locator(`.card[data-function="${linked}"]`);
    assert.match(await card.getAttribute('class'), /\bopen\b/);
    assert.equal(await card.locator('.box.pinned').getAttribute('data-tile'), fn.boxes[1].name);

    // A dump whose last lines do not parse: its first card shows, then
    // the refusal takes the map's place.
    await makeBig(page, 17_000_000, '\n    def broken(self:\n        pass\n');
    const lines = await page.evaluate(async () => (await window.bigDump.text()).split('\n').length);
    await dropBigFile(page);
    await previewed();
    await page.waitForSelector('#message.error:not([hidden])', { timeout: 60_000 });
    assert.match(await page.textContent('#message h2'), new RegExp(`^Cannot show big_50mb\\.py, line ${lines - 2}, column \\d+$`));
    assert.equal(await page.locator('.card').count(), 0);
    assert.equal(await page.locator('.preview-rest').count(), 0);
    assert.equal(await page.textContent('#summary'), '');
    assert.equal(await page.locator('#search').isDisabled(), true);
    await finish(page);
  });

  test('a drop while it is analyzed takes over: the later dump shows', async () => {
    const page = await openPage(env.browser, offline);
    await makeBig(page, BIG);
    await dropBigFile(page);
    await page.waitForSelector(BAR);
    await drop(page, [small]);
    await settled(page);
    await page.waitForTimeout(1500); // the big one, were it still under way, would arrive in this time
    assert.equal(await page.textContent('#summary .dump-name'), 'norm_rope.py');
    assert.equal(await page.locator('.card').count(), 1);
    await finish(page);
  });

  test('a small dump shows no bar', async () => {
    const page = await openPage(env.browser, offline);
    await page.waitForTimeout(1000);
    const seen = await page.evaluate(async (file) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([file.text], file.name));
      document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      let bar = false;
      while (!window.memoryMapStats.firstCardPainted) {
        bar ||= Boolean(document.querySelector('#message .progress:not([hidden])'));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return bar;
    }, small);
    assert.equal(seen, false);
    await finish(page);
  });
});
