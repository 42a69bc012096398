// Reading the map in Chromium: the live profile, the pills' peak and
// fragmentation, the peak composition, the line inspector, anomalies and
// search with their jumps, deep links through a reload, ?dump=, copy link
// and the shortcuts overlay. Checked by what shows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { finish, fixture, launch, openPage, pageWith as openPageWith, rect, settled } from '../support/browser.mjs';
import { dumpWith, root, tileType } from '../support/helpers.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const vec = (name, base, offset, size, value = 'pl.tile.load(x)') => `${name}: ${tileType('Vec', base, offset, size)} = ${value}`;

// Vec: a [0,256) lines 8-9, b [256,512) lines 9-12, c [512,1024) lines 10-12.
// hwm 1024, peak live 768 from line 10, fragmentation 256.
const gap = {
  name: '32_after_AllocateMemoryAddr.py',
  text: dumpWith([
    vec('a', 'm1', 0, 256),
    vec('b', 'm2', 256, 256, 'pl.tile.add(a, a)'),
    vec('c', 'm3', 512, 512),
    'g(b)',
    'return b, c',
  ]),
};

// Two functions with anomalies: `first` has a conflict pair (lines 8-9);
// `second` a Bias tile over the 1 KB capacity (line 8).
const anomalous = {
  name: '32_after_AllocateMemoryAddr.py',
  text: [
    dumpWith([vec('p', 'm1', 0, 512, 'f()'), vec('q', 'm2', 256, 512, 'f(p)'), 'return q, p'], { name: 'first' }).trimEnd(),
    '',
    `    @pl.function(type=pl.FunctionType.AIC)`,
    `    def second(self):`,
    `        big: ${tileType('Bias', 'mb', 0, 4096)} = f()`,
    `        return big`,
    '',
  ].join('\n'),
};

const pageWith = (files, options) => openPageWith(env.browser, env.url, files, options);

const near = (a, b, tolerance = 1.5) => Math.abs(a - b) <= tolerance;

describe('live profile, peak and fragmentation', () => {
  test('each lane outlines live bytes per line from byte 0: 768 of 1024 bytes at the peak, aligned with its line; no fill', async () => {
    const page = await pageWith([gap]);
    const card = page.locator('.card').first();
    await card.locator('.axis[data-axis="used"]').click(); // lane = 0..1024 B
    const lane = await rect(card.locator('.lane[data-space="Vec"]'));
    const steps = await card.locator('.lane[data-space="Vec"] .profile-step').evaluateAll((nodes) => nodes.map((n) => {
      const r = n.getBoundingClientRect();
      // The edge is the step's right border where it rose, its left where it fell; 2 px wide.
      const style = getComputedStyle(n);
      const edge = style.borderRightStyle === 'dotted' ? r.right - 1 : r.left + 1;
      return { y: r.y + 1, height: r.height - 2, edge, fill: style.backgroundColor, line: style.borderTopStyle };
    }));
    // Lines 8, 9 and 10-12: edges at 256, 512 and 768 of the lane's 1024 bytes.
    assert.equal(steps.length, 3);
    const row8 = await rect(card.locator('.row[data-line="8"]'));
    steps.sort((a, b) => a.y - b.y);
    assert.deepEqual(steps.map((st) => Math.round(((st.edge - lane.x) / lane.width) * 4)), [1, 2, 3], 'quarters of the lane');
    assert.ok(steps.every((st) => st.fill === 'rgba(0, 0, 0, 0)' && st.line === 'dotted'), 'a dotted outline, not a fill that reads as a tile');
    assert.ok(near(steps[0].y, row8.y) && near(steps[2].y + steps[2].height - steps[0].y, 5 * 18), 'lines 8 to 12');
    const tick = await rect(card.locator('.peak-tick'));
    const row10 = await rect(card.locator('.row[data-line="10"]'));
    assert.ok(tick.y >= row10.y && tick.y + tick.height <= row10.y + 18, 'the peak mark sits on line 10');
    assert.ok(near(tick.x, lane.x + lane.width * 0.75 - 5, 2), 'at 768 B');
    const label = await rect(card.locator('.peak-label'));
    assert.ok(label.x >= lane.x && label.x + label.width <= lane.x + lane.width, 'the peak label stays in its lane');
    // The toggle hides it.
    await card.locator('.profile-toggle').click();
    assert.equal(await card.locator('.profile-step').count(), 0);
    assert.equal(await card.locator('.profile-toggle').getAttribute('aria-pressed'), 'false');
    await finish(page);
  });

  test('a pill\'s tooltip gives the peak live bytes and the fragmentation beside the high-water mark', async () => {
    const page = await pageWith([gap]);
    const title = await page.locator('.pill[data-space="Vec"]').getAttribute('title');
    assert.match(title, /high-water mark 1 KB \(1024 B\)/);
    assert.match(title, /peak live 768 B \(768 B\) on line 10/);
    assert.match(title, /fragmentation 256 B \(256 B\): high-water mark minus peak live/);
    await finish(page);
  });

  test('clicking a pill shows the peak composition, largest first; a tile there pins it', async () => {
    const page = await pageWith([fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py', '41_after_x.py')]);
    const card = page.locator('[data-function="down_proj"]');
    assert.equal(await card.locator('.card-body').count(), 0, 'closed before');
    await card.locator('.pill[data-space="Mat"]').click();
    const peak = card.locator('.panel-peak');
    assert.match(await peak.locator('h2').innerText(), /^Peak of Mat: 260 KB live on line \d+$/);
    assert.match(await peak.innerText(), /High-water mark 260 KB of 512 KB, 252 KB headroom; 0 B of the address space below it is unused/);
    const sizes = await peak.locator('.panel-tiles li .num').allInnerTexts();
    assert.deepEqual(sizes, ['128 KB', '128 KB', '2 KB', '2 KB']);
    // Every tile listed is highlighted on the map as live on that line.
    const listed = await peak.locator('.panel-tiles .tile-link').allInnerTexts();
    for (const name of listed) assert.match(await card.locator(`.box[data-tile="${name}"]`).getAttribute('class'), /at-line/);
    await peak.locator('.panel-tiles .tile-link').first().click();
    assert.equal(await card.locator('.chip-name').innerText(), listed[0]);
    // What sets the mark: of the two tiles ending at 260 KB, the one live on
    // the peak line (w0_v2_inline311__tile ends there too, at lines 60–66),
    // one click from pinned.
    assert.equal(await peak.locator('.panel-mark').innerText(),
      'The mark is the end of w_k_inline65__tile at [135168, 266240), lines 79–86.');
    await peak.locator('.panel-mark .tile-link').click();
    assert.equal(await card.locator('.chip-name').innerText(), 'w_k_inline65__tile');
    await finish(page);
  });
});

describe('line inspector', () => {
  test('a line clicked near the bottom stays under the pointer as its panel opens above the map', async () => {
    const page = await pageWith([fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py', '41_after_x.py')], { width: 1400, height: 900 });
    const card = page.locator('.card[data-function="down_proj"]');
    await card.locator('.card-toggle').click();
    await card.locator('.row').first().waitFor();
    // A line of the card scrolled to 40 px above the window's bottom edge.
    const target = await card.locator('.row').nth(3).getAttribute('data-line');
    const row = card.locator(`.row[data-line="${target}"]`);
    await row.evaluate((r) => window.scrollBy(0, r.getBoundingClientRect().bottom - (innerHeight - 40)));
    const before = await rect(row);
    assert.ok(before.y > 500, `line ${target} at ${before.y} px`);
    await page.mouse.click(before.x + 8, before.y + before.height / 2);
    assert.match(await row.getAttribute('class'), /pinned-line/);
    assert.ok(await card.locator('.panel').isVisible(), 'the line panel is open');
    const after = await rect(row);
    assert.ok(Math.abs(after.y - before.y) <= 2, `the line moved from ${before.y} to ${after.y} px`);
    await finish(page);
  });

  test('clicking a line number pins it: live tiles highlighted and listed with bytes per space; ↑/↓ move; Esc clears', async () => {
    const page = await pageWith([gap]);
    const card = page.locator('.card').first();
    await card.locator('.row[data-line="10"] .ln').click();
    assert.match(await card.locator('.row[data-line="10"]').getAttribute('class'), /pinned-line/);
    const panel = card.locator('.panel');
    assert.match(await panel.locator('.panel-head').textContent(), /^Line 10 · 2 tiles live/);
    assert.match(await panel.locator('h2').innerText(), /^Vec: 768 B live in 2 tiles/);
    assert.deepEqual(await panel.locator('.tile-link').allInnerTexts(), ['c', 'b']);
    const highlighted = async () => (await card.locator('.box.at-line').evaluateAll((n) => n.map((b) => b.dataset.tile))).sort();
    assert.deepEqual(await highlighted(), ['b', 'c']);
    assert.match(page.url(), /#fn=kernel&file=32_after_AllocateMemoryAddr\.py&line=10$/);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.match(await panel.locator('.panel-head').textContent(), /^Line 8 · 1 tile live/);
    assert.deepEqual(await highlighted(), ['a']);
    assert.match(page.url(), /line=8$/);
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await highlighted(), ['a', 'b']);
    await page.keyboard.press('Escape');
    assert.equal(await card.locator('.panel-wrap').isHidden(), true);
    assert.deepEqual(await highlighted(), []);
    assert.equal(await card.locator('.row.pinned-line').count(), 0);
    await finish(page);
  });

  test('a line where nothing is live says so', async () => {
    const page = await pageWith([gap]);
    await page.locator('.row[data-line="7"]').click();
    assert.match(await page.locator('.panel-head').textContent(), /^Line 7 · no tile live here/);
    await finish(page);
  });
});

describe('anomalies', () => {
  test('pinning a conflicting tile moves no map, at 1024 and 1400 px: the chip\'s row is there before it', async () => {
    for (const width of [1024, 1400]) {
      const page = await pageWith([anomalous], { width });
      const card = page.locator('[data-function="first"]');
      const where = () => card.evaluate((c) => ({
        map: c.querySelector('.viewport').getBoundingClientRect().top - c.getBoundingClientRect().top,
        toolbar: c.querySelector('.toolbar').getBoundingClientRect().height,
      }));
      const before = await where();
      await card.locator('.box[data-tile="p"]').focus();
      await page.keyboard.press('Enter');
      assert.match(await card.locator('.chip-conflicts').innerText(), /^conflicts with\s+q/);
      assert.deepEqual(await where(), before, `${width} px`);
      await finish(page);
    }
  });

  test('counted in the page header and on each card; N / Shift+N and the buttons jump, open the card and pin', async () => {
    const page = await pageWith([anomalous]);
    assert.equal(await page.locator('#anomaly-count').innerText(), '2 anomalies');
    assert.equal(await page.locator('[data-function="first"] .anomaly.conflicts').innerText(), '1 conflict');
    assert.equal(await page.locator('[data-function="second"] .anomaly.over').innerText(), '1 over capacity');
    const pinned = async (fn) => page.locator(`[data-function="${fn}"] .chip-name`).innerText();
    await page.keyboard.press('n');
    assert.equal(await pinned('first'), 'p');
    assert.match(await page.locator('#anomaly-count').innerText(), /^1 \/ 2: conflict$/);
    // The pinned tile says who it conflicts with; a click goes there.
    const partners = page.locator('[data-function="first"] .chip-conflicts');
    assert.match(await partners.innerText(), /^conflicts with\s+q \[256, 768\)$/);
    await partners.locator('.partner').click();
    assert.equal(await pinned('first'), 'q');
    await page.locator('body').click({ position: { x: 5, y: 5 } }); // focus leaves the box
    await page.keyboard.press('n');
    assert.match(await page.locator('[data-function="second"]').getAttribute('class'), /open/, 'the closed card opened');
    assert.equal(await pinned('second'), 'big');
    assert.match(await page.locator('[data-function="second"] .box.pinned').getAttribute('class'), /over/);
    assert.match(await page.locator('#anomaly-count').innerText(), /^2 \/ 2: over capacity$/);
    await page.keyboard.press('Shift+N');
    assert.match(await page.locator('#anomaly-count').innerText(), /^1 \/ 2/);
    await page.locator('#anomaly-next').click();
    await page.locator('#anomaly-next').click();
    assert.match(await page.locator('#anomaly-count').innerText(), /^1 \/ 2/, 'wraps around');
    await finish(page);
  });

  test('a conflicting tile\'s tooltip names its partner with its bytes and lines', async () => {
    const page = await pageWith([anomalous]);
    await page.locator('[data-function="first"] .box[data-tile="p"]').hover({ position: { x: 1, y: 4 } }); // 2 px wide
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.innerText(), /conflict: shares bytes with q \(bytes \[256, 768\), lines 9–10\) while both are live/);
    await finish(page);
  });

  test('a clean dump says "no anomalies" and N does nothing', async () => {
    const page = await pageWith([gap]);
    assert.equal(await page.locator('#anomaly-count').innerText(), 'no anomalies');
    await page.keyboard.press('n');
    assert.equal(await page.locator('.box.pinned').count(), 0);
    await finish(page);
  });
});

describe('search', () => {
  test('highlights matches across cards; Enter / Shift+Enter cycle, opening cards and pinning; / focuses the field', async () => {
    const page = await pageWith([fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py', '41_after_x.py')]);
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'search');
    await page.keyboard.type('/^w_k_inline65__tile(_1)?$/');
    // The same two names in down_proj, gate_proj and up_proj.
    await page.waitForFunction(() => document.getElementById('search-status').textContent === '6 matches');
    const card = page.locator('[data-function="down_proj"]');
    assert.equal(await card.locator('.match-count').innerText(), '2 matches');
    await page.keyboard.press('Enter');
    assert.match(await card.getAttribute('class'), /open/);
    const first = await card.locator('.chip-name').innerText();
    assert.equal(await card.locator('.box.match').count(), 2);
    assert.equal(await page.locator('#search-status').innerText(), '1 / 6');
    const box = await rect(card.locator('.box.pinned'));
    const viewport = await rect(card.locator('.viewport'));
    assert.ok(box.y >= viewport.y && box.y < viewport.y + viewport.height, 'scrolled into view');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'search', 'the field keeps the focus');
    await page.keyboard.press('Enter');
    const second = await card.locator('.chip-name').innerText();
    assert.notEqual(first, second);
    assert.equal(await page.locator('#search-status').innerText(), '2 / 6');
    await page.keyboard.press('Shift+Enter');
    assert.equal(await card.locator('.chip-name').innerText(), first);
    // A plain substring, case-insensitive.
    await page.locator('#search').fill('W_K_INLINE65');
    await page.waitForFunction(() => /^\d+ matches$/.test(document.getElementById('search-status').textContent));
    await finish(page);
  });

  test('a bad /regex/ marks the field and says why, without breaking the page', async () => {
    const page = await pageWith([gap]);
    await page.locator('#search').fill('/(unclosed/');
    await page.waitForFunction(() => document.getElementById('search').getAttribute('aria-invalid') === 'true');
    assert.match(await page.locator('#search-status').innerText(), /^bad expression: Invalid regular expression/);
    assert.equal(await page.locator('.box.match').count(), 0);
    await page.locator('#search').fill('b');
    await page.waitForFunction(() => document.getElementById('search-status').textContent === '1 match');
    assert.equal(await page.locator('.box.match').getAttribute('data-tile'), 'b');
    await finish(page);
  });
});

describe('deep links', () => {
  const example = 'examples/decode_fwd/32_after_AllocateMemoryAddr.py';

  test('?dump= opens a dump on the site; the hash keeps card, tile, zoom, axis and hidden spaces through a reload', async () => {
    const page = await openPage(env.browser, `${env.url}?dump=${example}`);
    await settled(page);
    assert.match(await page.locator('#summary').innerText(), /32_after_AllocateMemoryAddr\.py/);
    const card = page.locator('[data-function="down_proj"]');
    await card.locator('.card-toggle').click();
    await card.locator('.zoom-in').click();
    await card.locator('.axis[data-axis="used"]').click();
    await card.locator('.space-toggle[data-space="Left"]').click();
    await card.locator('.box[data-tile="a0_v2_inline39__tile"]').click();
    const url = page.url();
    assert.match(url, /\?dump=examples\/decode_fwd\/32_after_AllocateMemoryAddr\.py#fn=down_proj&tile=a0_v2_inline39__tile&zoom=1\.6&axis=used&hide=Left$/);
    await page.reload();
    await settled(page);
    await page.waitForSelector('[data-function="down_proj"] .box.pinned');
    assert.equal(await card.locator('.chip-name').innerText(), 'a0_v2_inline39__tile');
    assert.equal(await card.locator('.zoom-level').innerText(), '1.6×');
    assert.equal(await card.locator('.axis[data-axis="used"]').getAttribute('aria-pressed'), 'true');
    assert.equal(await card.locator('.lane[data-space="Left"]').count(), 0);
    assert.equal(await card.locator('.space-toggle[data-space="Left"]').getAttribute('aria-pressed'), 'false');
    assert.equal(page.url(), url, 'restoring rewrote the same link');
    await finish(page);
  });

  test('a pinned line survives a reload too', async () => {
    // k_proj spans lines 422-487 of that dump.
    const page = await openPage(env.browser, `${env.url}?dump=${example}#fn=k_proj&line=450`);
    await settled(page);
    await page.waitForSelector('[data-function="k_proj"] .panel');
    assert.match(await page.locator('[data-function="k_proj"] .panel-head').textContent(), /^Line 450 · \d+ tiles live/);
    assert.match(await page.locator('[data-function="k_proj"] .row[data-line="450"]').getAttribute('class'), /pinned-line/);
    await page.reload();
    await settled(page);
    await page.waitForSelector('[data-function="k_proj"] .row.pinned-line[data-line="450"]');
    await finish(page);
  });

  test('the example button keeps ?dump= so its link reopens it; copy link puts the link on the clipboard', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url.replace(/\/$/, '') });
    const page = await context.newPage();
    await page.goto(env.url);
    await page.click('[data-example="decode_fwd"]');
    await settled(page);
    assert.match(page.url(), /\?dump=examples%2Fdecode_fwd%2F32_after_AllocateMemoryAddr\.py&pto=examples%2Fdecode_fwd%2Fk_seed\.pto#fn=copy_hidden$/);
    await page.locator('#copy-link').click();
    await page.waitForFunction(() => document.getElementById('copy-link').textContent === 'Link copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
    await context.close();
  });

  test('?dump= elsewhere is refused with a message; a missing one names the 404', async () => {
    const page = await openPage(env.browser, `${env.url}?dump=https://example.com/x.py`);
    await page.waitForSelector('.message.error');
    assert.match(await page.locator('#message').innerText(), /must point to this site/);
    assert.equal(page.requests.some((r) => new URL(r).host === 'example.com'), false);
    await page.goto(`${env.url}?dump=nowhere/31_after_AllocateMemoryAddr.py`);
    await page.waitForSelector('.message.error');
    assert.match(await page.locator('#message').innerText(), /Cannot open 31_after_AllocateMemoryAddr\.py[\s\S]*404/);
    await page.close();
  });

  test('a malformed ?dump= link says so, with no uncaught error, and the page stays usable', async () => {
    const page = await openPage(env.browser, `${env.url}?dump=%E0%A4%A`);
    await page.waitForSelector('.message.error');
    assert.match(await page.locator('#message').innerText(), /Cannot open the linked dump[\s\S]*the link is malformed/);
    await page.setInputFiles('#file', { name: 'k.py', mimeType: 'text/plain', buffer: Buffer.from(gap.text) });
    await settled(page);
    assert.equal(await page.locator('.card').count(), 1);
    await finish(page);
  });

  test('an embed opens on its first tiles with their lane\'s label in view, at any zoom, in both themes', async () => {
    // fa_fused_aiv: rows of its ring alone before the first tile; k_proj
    // at zoom 2: a zoom about the middle hid Mat's label and first tiles.
    for (const [hash, width, height] of [['#fn=fa_fused_aiv', 700, 500], ['#fn=k_proj&zoom=2', 700, 500], ['#fn=k_proj&zoom=6', 1024, 560]]) {
      for (const colorScheme of ['light', 'dark']) {
        const page = await openPage(env.browser, `${env.url}?embed&theme=${colorScheme}&dump=${example}${hash}`, { width, height, colorScheme });
        await settled(page);
        const seen = await page.evaluate(() => {
          const map = document.querySelector('.card.open .viewport');
          const v = map.getBoundingClientRect();
          const left = map.querySelector('.corner').getBoundingClientRect().right;
          const head = map.querySelector('.head-row').getBoundingClientRect().bottom;
          // Inside the part of the map that shows: right of the line
          // numbers, below the lane header, within the frame.
          const inside = (r, top) => r.width > 0 && r.left >= left - 0.5 && r.right <= Math.min(v.right, innerWidth) + 0.5 && r.top >= top - 0.5 && r.bottom <= Math.min(v.bottom, innerHeight) + 0.5;
          const rows = [...map.querySelectorAll('.box')].map((b) => b.getBoundingClientRect())
            .map((r) => ({ left: Math.max(r.left, left), right: Math.min(r.right, v.right), top: Math.max(r.top, head), bottom: Math.min(r.bottom, v.bottom) }))
            .map((r) => ({ ...r, width: r.right - r.left, height: r.bottom - r.top }));
          return {
            tiles: rows.filter((r) => r.width >= 2 && r.height >= 18).length,
            labels: [...map.querySelectorAll('.lane-name')].filter((n) => inside(n.getBoundingClientRect(), v.top)).map((n) => n.textContent),
          };
        });
        assert.ok(seen.tiles >= 1, `${hash} ${colorScheme}: no tile in view`);
        assert.ok(seen.labels.length >= 1, `${hash} ${colorScheme}: no lane label in view`);
        await finish(page);
      }
    }
  });

  test('a linked dump served by the site (any same-origin path) renders with its anomalies', async () => {
    const page = await openPage(env.browser);
    await page.route('**/published/anomalous.py', (route) => route.fulfill({ body: anomalous.text, contentType: 'text/plain' }));
    await page.goto(`${env.url}?dump=published/anomalous.py#fn=second&tile=big`);
    await settled(page);
    await page.waitForSelector('[data-function="second"] .box.pinned');
    assert.equal(await page.locator('#anomaly-count').innerText(), '2 anomalies');
    await finish(page);
  });
});

test('? shows every keyboard shortcut and the version, which the footer shows too; Esc closes it', async () => {
  const page = await pageWith([gap]);
  await page.keyboard.press('?');
  const overlay = page.locator('.shortcuts');
  assert.equal(await overlay.isVisible(), true);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(await overlay.locator('.shortcuts-version').innerText(), `memory-map ${version}`);
  assert.equal(await page.locator('footer.footer').innerText(), `memory-map ${version}`);
  const keys = await overlay.locator('kbd').allInnerTexts();
  for (const key of ['?', '/', 'N / Shift+N', '↑ / ↓', 'Esc', 'Enter / Shift+Enter']) assert.ok(keys.includes(key), key);
  await page.keyboard.press('/'); // keys wait while the list is open
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'search');
  await page.keyboard.press('Escape');
  assert.equal(await overlay.isVisible(), false);
  await page.locator('#shortcuts-button').click();
  assert.equal(await overlay.isVisible(), true);
  await finish(page);
});
