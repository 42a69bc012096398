// The Python package's maps as a reader meets them, in Chromium: a notebook
// executed with Debian's jupyter-nbconvert (tests/python/show.ipynb, its
// show() outputs exported to HTML), and a MkDocs Material site built with
// the plugin (tests/python/site/), served under a sub-path, opened from
// file:// and read in the dark scheme. Each map shows; nothing is fetched
// from elsewhere, nothing logs an error, the frames cannot reach the page.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { launchChromium } from '../../tools/chromium.mjs';
import { serve } from '../../tools/serve.mjs';
import { injectionOutcome, openPage, shownInPage } from '../support/browser.mjs';
import { root } from '../support/helpers.mjs';
import { must, venvWith, wheels } from '../support/wheel.mjs';

const example = join(root, 'dist', 'site', 'examples', 'decode_fwd');
let browser;
let made;
let venv;
let work;
let server;
let url;

before(async () => {
  made = wheels();
  venv = venvWith(made.platform ?? made.any, { systemSite: true });
  work = mkdtempSync(join(tmpdir(), 'mm-python-page-'));
  // The notebook's kernel is this venv's Python (its own kernelspec first).
  must(venv.python, ['-m', 'ipykernel', 'install', '--prefix', venv.dir]);
  mkdirSync(join(work, 'notebook'));
  cpSync(join(root, 'tests', 'python', 'show.ipynb'), join(work, 'notebook', 'show.ipynb'));
  cpSync(example, join(work, 'notebook', 'dumps'), { recursive: true });
  must(venv.python, ['-m', 'nbconvert', '--to', 'html', '--template', 'basic', '--execute', 'show.ipynb', '--output', 'show'],
    { cwd: join(work, 'notebook') });
  // The site under www/pypto/, as a project's docs under a sub-path.
  cpSync(join(root, 'tests', 'python', 'site'), join(work, 'site'), { recursive: true });
  cpSync(example, join(work, 'site', 'docs', 'dumps'), { recursive: true });
  must(venv.python, ['-m', 'mkdocs', 'build', '--strict', '--site-dir', join(work, 'www', 'pypto')], { cwd: join(work, 'site') });
  ({ server, url } = await serve(join(work, 'www')));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  for (const dir of [made?.dir, venv?.dir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Each memory-map frame of `page`, once its map shows: what a reader sees of it. */
async function framesOf(page, count) {
  await page.waitForFunction((n) => document.querySelectorAll('iframe.memory-map').length === n, count);
  const frames = [];
  for (const handle of await page.locator('iframe.memory-map').elementHandles()) {
    // Chromium stops drawing a cross-origin frame out of sight (a sandboxed
    // srcdoc's origin is its own): a reader scrolls to it, and so does this.
    await handle.scrollIntoViewIfNeeded();
    const frame = await handle.contentFrame();
    await frame.waitForFunction(shownInPage);
    frames.push(await frame.evaluate(() => ({
      cards: document.querySelectorAll('.card').length,
      open: document.querySelector('.card.open')?.dataset.function,
      embed: document.body.classList.contains('embed'),
      error: document.querySelector('.message.error')?.innerText ?? null,
      theme: document.documentElement.dataset.theme,
      // The open map's lanes reach the frame's right edge: laid out at its width.
      fills: Math.max(...[...document.querySelectorAll('.card.open .lane-head')].map((h) => h.getBoundingClientRect().right)) >= innerWidth - 24,
      dark: getComputedStyle(document.body).backgroundColor.match(/\d+/)[0] < 80,
      reachesParent: (() => {
        try {
          return Boolean(parent.document.body);
        } catch {
          return false;
        }
      })(),
    })));
  }
  return frames;
}

/** No request of `page` left `origin` (data:, blob: and about: are the page's own). */
function stayedAt(page, origin) {
  assert.deepEqual(page.requests.filter((u) => !u.startsWith(origin) && !/^(data|blob|about):/.test(u)), []);
}

describe('a notebook that calls memory_map.show()', () => {
  test('each output is a map, one function\'s or the whole page, in its theme; a refused dump prints its message', async () => {
    const page = await openPage(browser, pathToFileURL(join(work, 'notebook', 'show.html')).href, { width: 1200, height: 900 });
    const [one, dark, whole] = await framesOf(page, 3);
    const common = { error: null, fills: true, reachesParent: false };
    assert.deepEqual(one, { ...common, cards: 1, open: 'k_proj', embed: true, theme: 'auto', dark: false });
    assert.deepEqual(dark, { ...common, cards: 1, open: 'down_proj', embed: true, theme: 'dark', dark: true });
    assert.deepEqual(whole, { ...common, cards: 38, open: 'copy_hidden', embed: false, theme: 'auto', dark: false });
    assert.match(await page.locator('body').innerText(), /refused: broken\.py:1: invalid syntax: expected a parameter name at ':'/);
    // A page written into a frame has no address to open or copy.
    const frames = await Promise.all((await page.locator('iframe.memory-map').elementHandles()).map((h) => h.contentFrame()));
    for (const f of frames) {
      assert.equal(await f.locator('.full-view').count(), 0);
      assert.equal(await f.locator('#copy-link').isVisible(), false);
    }
    // Pinning keeps the view in the frame's own address (it has no URL).
    const [frame] = frames;
    await page.locator('iframe.memory-map').first().scrollIntoViewIfNeeded(); // framesOf left the last in view
    await frame.locator('.box[data-tile="t__tile"]').first().click();
    await frame.waitForFunction(() => /^about:srcdoc#fn=k_proj&tile=t__tile(&|$)/.test(location.href));
    stayedAt(page, 'file://');
    assert.deepEqual(page.problems(), []);
    // The page's policy holds inside the frame.
    assert.deepEqual(await frame.evaluate(injectionOutcome), { injected: false, evaluated: 'EvalError' });
    await page.screenshot({ path: join(tmpdir(), 'mm-notebook.png') });
    await page.close();
  });

  test('a map whose frame had no width yet when its page started fills the frame once it has one', async () => {
    // Recording each frame's width from its first script shifts the pages'
    // start to before the notebook lays its frames out: most start 0 px
    // wide, and the map was laid out at that (tried: 6 loads of 6 drew
    // k_proj's lanes 920 px wide in a 1384 px frame).
    const page = await openPage(browser, null, { width: 1400, height: 1100, colorScheme: 'dark' });
    await page.addInitScript(() => {
      window.widths = [innerWidth];
      addEventListener('resize', () => window.widths.push(innerWidth));
    });
    await page.goto(pathToFileURL(join(work, 'notebook', 'show.html')).href);
    const [one] = await framesOf(page, 3);
    assert.equal(one.fills, true);
    assert.deepEqual(page.problems(), []);
    await page.close();
  });
});

describe('a MkDocs site with the memory-map plugin', () => {
  test('served under a sub-path: every block\'s map shows, and the corner opens its full page', async () => {
    const page = await openPage(browser, `${url}pypto/kernels/decode_fwd/`, { width: 1400, height: 1000 });
    const frames = await framesOf(page, 2);
    assert.deepEqual(frames.map((f) => [f.cards, f.open, f.embed, f.error, f.theme, f.fills]),
      [[1, 'k_proj', true, null, 'light', true], [1, 'down_proj', true, null, 'light', true]]);
    const full = await (await page.locator('iframe.memory-map').first().elementHandle()).contentFrame();
    const href = await full.locator('.full-view').getAttribute('href');
    assert.match(href, /\/pypto\/assets\/memory-map\/32_after_AllocateMemoryAddr-\w+\.html\?theme=light#fn=k_proj$/);
    await page.goto(`${url}pypto/`);
    const onIndex = await framesOf(page, 3);
    assert.deepEqual(onIndex.map((f) => [f.cards, f.open, f.embed, f.error]),
      [[38, 'copy_hidden', false, null], [1, 'copy_out', true, null], [1, 'k_proj', true, null]]);
    await page.goto(`${url}pypto/shapes/`);
    assert.deepEqual((await framesOf(page, 6)).map((f) => [f.open, f.error]), [['copy_hidden', null], ['copy_out', null],
      ['down_proj', null], ['down_seed', null], ['k_proj', null], ['dcr_xgamma', null]]);
    stayedAt(page, url);
    assert.deepEqual(page.problems(), []);
    await page.close();
  });

  test('the dark scheme: the maps follow it, and follow the reader back to light', async () => {
    const page = await openPage(browser, null, { width: 1400, height: 1000, colorScheme: 'light' });
    await page.addInitScript(() => localStorage.setItem('/pypto/.__palette', JSON.stringify({ index: 1, color: { scheme: 'slate' } })));
    await page.goto(`${url}pypto/kernels/decode_fwd/`);
    assert.deepEqual((await framesOf(page, 2)).map((f) => [f.theme, f.dark]), [['dark', true], ['dark', true]]);
    await page.screenshot({ path: join(tmpdir(), 'mm-plugin-dark.png') });
    await page.locator('label.md-header__button[for^="__palette"]:visible').click(); // Material's toggle: back to light
    await page.waitForFunction(() => [...document.querySelectorAll('iframe.memory-map')].every((f) => f.src.includes('theme=light')));
    assert.deepEqual((await framesOf(page, 2)).map((f) => [f.theme, f.dark]), [['light', false], ['light', false]]);
    assert.deepEqual(page.problems(), []);
    await page.close();
  });

  test('instant navigation from a page with no map: the maps that come follow the dark scheme', async () => {
    const page = await openPage(browser, null, { width: 1400, height: 1000, colorScheme: 'light' });
    await page.addInitScript(() => localStorage.setItem('/pypto/.__palette', JSON.stringify({ index: 1, color: { scheme: 'slate' } })));
    await page.goto(`${url}pypto/about/`);
    await page.locator('.md-nav__link', { hasText: 'decode_fwd\'s kernels' }).first().click();
    await page.waitForURL(/kernels\/decode_fwd\/$/);
    assert.deepEqual((await framesOf(page, 2)).map((f) => [f.open, f.theme, f.dark]), [['k_proj', 'dark', true], ['down_proj', 'dark', true]]);
    assert.deepEqual(page.problems(), []);
    await page.close();
  });

  test('opened from file://: the maps show', async () => {
    const page = await openPage(browser, pathToFileURL(join(work, 'www', 'pypto', 'kernels', 'decode_fwd', 'index.html')).href);
    const frames = await framesOf(page, 2);
    assert.deepEqual(frames.map((f) => [f.cards, f.open, f.error]), [[1, 'k_proj', null], [1, 'down_proj', null]]);
    stayedAt(page, 'file://');
    assert.deepEqual(page.problems(), []);
    await page.close();
  });
});
