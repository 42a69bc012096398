// The page inside a real MkDocs site (Material theme, as the PyPTO docs):
// tests/docs-site/ with dist/site/ published under tools/memory-map/,
// built with `mkdocs build --strict` and served on localhost. A link with
// ?dump= opens the map; a page embeds one function's map (?embed); no
// request leaves the site, nothing logs an error, the CSP holds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { launchChromium } from '../../tools/chromium.mjs';
import { serve } from '../../tools/serve.mjs';
import { openPage, settled } from '../support/browser.mjs';
import { root } from '../support/helpers.mjs';

let browser;
let server;
let url;
let built;

before(async () => {
  const work = mkdtempSync(join(tmpdir(), 'mm-docs-site-'));
  cpSync(join(root, 'tests', 'docs-site'), work, { recursive: true });
  cpSync(join(root, 'dist', 'site'), join(work, 'docs', 'tools', 'memory-map'), { recursive: true });
  // The script the MkDocs plugin publishes, which a site without it copies.
  cpSync(join(root, 'python', 'memory_map', 'memory-map-theme.js'), join(work, 'docs', 'js', 'memory-map-theme.js'));
  built = spawnSync('mkdocs', ['build', '--strict', '--config-file', join(work, 'mkdocs.yml'), '--site-dir', join(work, 'site')],
    { encoding: 'utf8' });
  if (built.error) throw new Error(`mkdocs is missing (tools/setup.sh installs it): ${built.error.message}`);
  ({ server, url } = await serve(join(work, 'site')));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

/** Every request of `page` (and its frames) stayed on the docs site. */
function stayedOnSite(page) {
  const origin = new URL(url).origin;
  const outside = page.requests.filter((u) => !u.startsWith(`${origin}/`) && !/^(data|blob):/.test(u));
  assert.deepEqual(outside, []);
}

describe('a MkDocs site (Material) publishing the page under tools/memory-map/', () => {
  test('mkdocs build --strict passes', () => {
    assert.equal(built.status, 0, built.stderr);
  });

  test('the docs page\'s ?dump= link opens the map at the linked function and line', async () => {
    const page = await openPage(browser, url);
    await page.getByRole('link', { name: 'Open the memory map of decode_fwd' }).click();
    await page.waitForURL(/tools\/memory-map\/(index\.html)?\?dump=/); // MkDocs links the folder
    await settled(page);
    assert.equal(await page.locator('#summary .dump-name').innerText(), '32_after_AllocateMemoryAddr.py');
    assert.match(await page.locator('#summary').innerText(), /Ascend950|Ascend910B/);
    assert.equal(await page.locator('.card.open[data-function="k_proj"] .line-rule:not([hidden])').count(), 1);
    stayedOnSite(page);
    assert.deepEqual(page.problems(), []);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`the embedded map (${colorScheme}): one function, no top bar, sized to its frame, the site's palette`, async () => {
      const page = await openPage(browser, null, { colorScheme, width: 1400, height: 1000 });
      if (colorScheme === 'dark') {
        // The reader chose Material's dark palette (it keeps the choice here).
        await page.addInitScript(() => localStorage.setItem('/.__palette', JSON.stringify({ index: 1, color: { scheme: 'slate' } })));
      }
      await page.goto(`${url}memory-map/`);
      const frame = page.frameLocator('iframe.memory-map');
      await frame.locator('.card.open .box').first().waitFor();
      const inFrame = await page.frames().find((f) => /\?embed/.test(f.url())).evaluate(() => ({
        cards: document.querySelectorAll('.card').length,
        fn: document.querySelector('.card')?.dataset.function,
        // Kept for assistive technology only (its h1): nothing of it shows.
        topbar: document.getElementById('topbar').getBoundingClientRect().height <= 1 ? 'none' : 'shown',
        fits: document.documentElement.scrollHeight <= window.innerHeight + 1,
        theme: document.documentElement.dataset.theme,
        background: getComputedStyle(document.body).backgroundColor,
        full: document.querySelector('.card-head .full-view').href,
      }));
      assert.equal(inFrame.cards, 1);
      assert.equal(inFrame.fn, 'k_proj');
      assert.equal(inFrame.topbar, 'none');
      assert.ok(inFrame.fits, 'the map scrolls inside its frame, not the frame');
      assert.equal(inFrame.theme, colorScheme);
      const [r] = inFrame.background.match(/\d+/g).map(Number);
      assert.ok(colorScheme === 'dark' ? r < 80 : r > 200, inFrame.background);
      // The corner link: the full page at the same view.
      const full = new URL(inFrame.full);
      assert.equal(full.searchParams.has('embed'), false);
      assert.match(full.hash, /fn=k_proj/);
      stayedOnSite(page);
      assert.deepEqual(page.problems(), []);
      await page.screenshot({ path: join(tmpdir(), `mm-docs-site-${colorScheme}.png`) });
      await page.close();
    });
  }

  test('an embedded map keeps the hash\'s tile and zoom; a dump that is refused shows why in the frame', async () => {
    const embed = `${url}tools/memory-map/index.html?embed&dump=examples/decode_fwd/32_after_AllocateMemoryAddr.py`;
    const page = await openPage(browser, `${embed}#fn=k_proj&tile=t__tile_1&zoom=1.6`, { width: 700, height: 500 });
    await settled(page);
    assert.equal(await page.locator('.card').count(), 1);
    assert.equal(await page.locator('.chip-name').innerText(), 't__tile_1');
    assert.equal(await page.locator('.zoom-level').innerText(), '1.6×');
    // Pinning in a frame leaves the map its room: the IR source stays shut.
    await page.locator('.box[data-tile="t__tile_1"]').click({ force: true });
    await page.locator('.box[data-tile="t__tile_1"]').click({ force: true });
    assert.equal(await page.locator('.chip-name').innerText(), 't__tile_1');
    assert.equal(await page.locator('.left-column.open').count(), 0);
    assert.deepEqual(page.problems(), []);
    await page.goto(`${url}tools/memory-map/index.html?embed&dump=no-such-dump.py`);
    await page.waitForSelector('.message.error');
    assert.match(await page.locator('#message').innerText(), /^Cannot open no-such-dump\.py\s+\S+no-such-dump\.py: 404 Not Found$/);
    await page.close();
  });

  test('the CSP holds on the published page: an injected script does not run', async () => {
    const page = await openPage(browser, `${url}tools/memory-map/index.html`);
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(policy, /default-src 'none'/);
    const injected = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 50));
      return window.__injected === true;
    });
    assert.equal(injected, false);
    await page.close();
  });
});
