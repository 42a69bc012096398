// The page's overview of a build: a build_output/ folder of 34 cases
// chosen with Folder…, its table against the CLI's build JSON (rows,
// order, sorting, filters), a row opening its case's map with the case in
// the URL, and Back returning to the overview.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { finish, launch, openPage } from '../support/browser.mjs';
import { makeBuild } from '../support/build-fixture.mjs';
import { formatBytes } from '../../web/model/layout.js';
import { run } from '../support/helpers.mjs';

let env;
let work;
let build;
let cli; // the CLI's JSON of the same build: the oracle
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'mm-build-page-'));
  build = join(work, 'build_output');
  makeBuild(build, { count: 32 });
  cli = JSON.parse(run([build, '--json']).stdout);
  env = await launch();
});
after(async () => {
  await env?.close();
  rmSync(work, { recursive: true, force: true });
});

const cellsOf = (page) => page.locator('.overview-table tbody tr').evaluateAll((rows) =>
  rows.map((tr) => [...tr.children].map((td) => td.textContent)));

/** The build opened with Folder…, every row drawn (the first 300 are, at first). */
async function openBuild(options) {
  const page = await openPage(env.browser, env.url, options);
  await page.setInputFiles('#folder', build);
  await page.waitForSelector('.overview-table tbody tr');
  assert.equal(await page.locator('.overview-table tbody tr').count(), 300);
  await page.click(`.overview-more:text("Show all ${cli.rows.length} rows")`);
  return page;
}

describe('a build folder on the page', () => {
  test('opens on its overview: the CLI\'s rows in its order, the cases not read listed', async () => {
    const page = await openBuild();
    const cells = await cellsOf(page);
    assert.equal(cells.length, cli.rows.length);
    assert.deepEqual(cells.map((c) => [c[0], c[2], c[3], c[4]]), cli.rows.map((r) => [r.case, r.function, r.ftype, r.space]));
    assert.match(await page.locator('.overview-count').innerText(), new RegExp(`^${cli.rows.length} of ${cli.rows.length} rows$`));
    assert.match(await page.locator('.overview-unread').innerText(), /Not read: 2 of 34 cases[\s\S]*no_dumps[\s\S]*refused: build_output\/refused\/passes_dump\/32_after_AllocateMemoryAddr\.py:1: /);
    assert.match(await page.locator('#summary').innerText(), /build_output · 34 cases · \d+ functions · least headroom: /);
    const gen06 = cells.find((c) => c[0] === 'gen_06');
    assert.equal(gen06[1], 'Ascend950', 'the backend each case\'s .pto names');
    // Another backend for every case: the overview is read again with it.
    await page.selectOption('#backend', 'Ascend950');
    await page.waitForFunction(() => [...document.querySelectorAll('.overview-table tbody tr td:nth-child(2)')]
      .every((td) => td.textContent === 'Ascend950'));
    await page.click(`.overview-more:text("Show all ${cli.rows.length} rows")`);
    const again = JSON.parse(run([build, '--json', '-b', 'Ascend950']).stdout);
    assert.deepEqual((await cellsOf(page)).map((c) => [c[0], c[2], c[4], c[8]]),
      again.rows.map((r) => [r.case, r.function, r.space, r.headroom === null ? '–' : formatBytes(r.headroom)]));
    await finish(page);
  });

  test('a heading sorts by its column, again the other way; filters keep a type, a space, a name', async () => {
    const page = await openBuild({ width: 1024, colorScheme: 'dark' });
    await page.click('.overview-table th:nth-child(6) .sort'); // hwm
    const byHwm = [...cli.rows].map((r, i) => ({ r, i })).sort((a, b) => a.r.hwm_with_reserved - b.r.hwm_with_reserved || a.i - b.i);
    assert.deepEqual((await cellsOf(page)).map((c) => `${c[0]} ${c[2]} ${c[4]}`), byHwm.map(({ r }) => `${r.case} ${r.function} ${r.space}`));
    assert.equal(await page.getAttribute('.overview-table th:nth-child(6)', 'aria-sort'), 'ascending');
    await page.click('.overview-table th:nth-child(6) .sort');
    assert.equal(await page.getAttribute('.overview-table th:nth-child(6)', 'aria-sort'), 'descending');
    const down = [...cli.rows].map((r, i) => ({ r, i })).sort((a, b) => b.r.hwm_with_reserved - a.r.hwm_with_reserved || a.i - b.i);
    assert.deepEqual((await cellsOf(page)).slice(0, 5).map((c) => `${c[0]} ${c[2]} ${c[4]}`), down.slice(0, 5).map(({ r }) => `${r.case} ${r.function} ${r.space}`));
    await page.selectOption('.overview-filters select[aria-label="type"]', 'AIC');
    await page.selectOption('.overview-filters select[aria-label="space"]', 'Mat');
    const kept = cli.rows.filter((r) => r.ftype === 'AIC' && r.space === 'Mat');
    assert.ok(kept.length > 3);
    assert.equal((await cellsOf(page)).length, kept.length);
    assert.match(await page.locator('.overview-count').innerText(), new RegExp(`^${kept.length} of ${cli.rows.length} rows$`));
    await page.fill('.overview-filters input[type="search"]', 'decode');
    assert.deepEqual([...new Set((await cellsOf(page)).map((c) => c[0]))], ['decode_fwd']);
    await finish(page);
  });

  test('a row opens its case\'s map at its function, the case in the URL; Back returns to the overview', async () => {
    const page = await openBuild();
    const target = cli.rows.find((r) => r.case === 'decode_fwd' && r.function === 'fa_fused_aiv');
    await page.fill('.overview-filters input[type="search"]', 'fa_fused_aiv');
    await page.locator('.overview-table tbody tr').first().locator('button', { hasText: target.function }).click();
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    assert.equal(hash.get('case'), 'decode_fwd');
    assert.equal(hash.get('fn'), 'fa_fused_aiv');
    assert.match(await page.locator('#summary').innerText(), /← build_output\s*decode_fwd ·\s*32_after_AllocateMemoryAddr\.py/);
    await page.waitForSelector('.card.open[data-function="fa_fused_aiv"] .box');
    await page.goBack();
    await page.waitForSelector('.overview-table tbody tr');
    assert.equal(await page.locator('.overview-count').innerText(), `${cli.rows.length} of ${cli.rows.length} rows, the first 300 shown`,
      'the whole overview, read once');
    await page.locator('.overview-table tbody tr').first().locator('button').first().click();
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    await page.click('.back-to-build');
    await page.waitForSelector('.overview-table tbody tr');
    assert.equal(await page.evaluate(() => location.hash), '');
    await finish(page);
  });
});
