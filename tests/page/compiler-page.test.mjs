// The compiler's own builds on the page (tests/fixtures/compiler-e2d0f78/,
// tests/core/compiler-oracle.test.mjs holds the command line to them): the 198
// builds as one folder give the overview the command line's build JSON
// gives, ptoas builds by their least; a sample of builds opens on its map,
// in Chromium and in Firefox.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { drop, finish, launch, openPage, settled } from '../support/browser.mjs';
import { chooseFolder, finish as finishFirefox, launchFirefox, openPage as openFirefox, settled as settledFirefox, text } from '../support/firefox.mjs';
import { root, run } from '../support/helpers.mjs';

const fixtures = join(root, 'tests', 'fixtures', 'compiler-e2d0f78');
const wide = join(fixtures, 'wide');
const cli = JSON.parse(run([wide, '--json']).stdout);

// A sample of builds and what each shows: a DSA build whose bases all sit at 0 (drawn), one handing bytes
// over across a branch (no conflict), a ptoas build (by lifetime, its least), a program with nothing on chip.
const FILLPAD = 'ops.test_fillpad__FillpadMaxProgram__dsa';
const ONLINE_UPDATE = 'ex.models.04_paged_attention__build_paged_attention_program__dsa';
const PTOAS = 'ex.beginner.01_hello_world__tile_add__ptoas';
const EXTERNAL = 'external_kernel.test_external_kernel__SpmdWriteExternProgram__pypto';

/** In the page: the overview's rows as their cells' text, and whether each is a ptoas build's least. */
const overviewRows = () => [...document.querySelectorAll('.overview-table tbody tr')]
  .map((tr) => ({ cells: [...tr.children].map((td) => td.textContent), least: tr.classList.contains('least'), title: tr.title }));

/** In the page: the "Show more" and "Show all" buttons under a big build's first rows. */
const moreButtons = () => [...document.querySelectorAll('.overview-more')].map((b) => (b.closest('[hidden]') ? null : b.textContent));
/** In the page: a click on the overview's button whose text starts with `label`. */
const clickMore = (label) => [...document.querySelectorAll('.overview-more')].find((b) => b.textContent.startsWith(label)).click();
/** In the page: the overview filtered to `name`, as typed. */
const filterTo = (name) => {
  const input = document.querySelector('.overview-filters input[type="search"]');
  input.value = name;
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

/** In the page: what the card of `fn` shows (its boxes, conflict frames, notices). */
const cardFacts = () => ({
  boxes: document.querySelectorAll('.card.open .box').length,
  conflicts: document.querySelectorAll('.card.open .box.conflict').length,
  notice: document.querySelector('.card.open .lifetime-notice')?.textContent ?? null,
  message: document.getElementById('message').hidden ? null : document.getElementById('message').textContent,
});

function assertOverview(rows) {
  assert.equal(rows.length, cli.rows.length);
  assert.deepEqual(rows.map((r) => r.cells[0]), cli.rows.map((r) => r.case), 'the command line\'s order');
  const least = rows.filter((r) => r.least);
  assert.equal(least.length, cli.rows.filter((r) => r.at_least).length);
  assert.ok(least.length > 50);
  for (const r of least) {
    assert.match(r.cells[0], /__ptoas$/);
    assert.match(r.cells[5], /^≥ /);
    assert.match(r.title, /^placed by ptoas: needs at least .* \(no dump holds its addresses\)$/);
  }
}

describe('Chromium: the compiler\'s builds', () => {
  let env;
  before(async () => { env = await launch(); });
  after(async () => { await env?.close(); });

  async function openBuild(options) {
    const page = await openPage(env.browser, env.url, options);
    await page.setInputFiles('#folder', wide);
    await page.waitForSelector('.overview-table tbody tr', { timeout: 60_000 });
    return page;
  }

  test('the 198 builds as one folder: the command line\'s overview, ptoas builds by their least, nothing on chip apart', async () => {
    const page = await openBuild();
    // 630 rows: the first 300 drawn, then 300 more, then all of them.
    const total = cli.rows.length;
    assert.equal(await page.locator('.overview-table tbody tr').count(), 300);
    assert.equal(await page.locator('.overview-count').innerText(), `${total} of ${total} rows, the first 300 shown`);
    assert.deepEqual(await page.evaluate(moreButtons), ['Show 300 more', `Show all ${total} rows`]);
    await page.evaluate(clickMore, 'Show 300 more');
    assert.equal(await page.locator('.overview-table tbody tr').count(), 600);
    assert.deepEqual(await page.evaluate(moreButtons), [null, `Show all ${total} rows`], 'fewer than 300 left: all of them');
    await page.evaluate(clickMore, 'Show all');
    assert.equal(await page.locator('.overview-count').innerText(), `${total} of ${total} rows`);
    assertOverview(await page.evaluate(overviewRows));
    assert.match(await page.locator('.overview-empty').innerText(), /^Nothing on chip: 3 of 198 cases\n[\s\S]*SpmdWriteExternProgram__dsa: nothing on chip to map/);
    assert.match(await page.locator('.overview-unread').innerText(), /^Not read: 7 of 198 cases[\s\S]*its compile stopped before AllocateMemoryAddr placed memory/);
    await finish(page);
  });

  test('a sample of builds opens on its map: placed at 0 by DSA, handed over across a branch, by lifetime, nothing on chip', async () => {
    const page = await openBuild({ width: 1024, colorScheme: 'dark' });
    const open = async (build) => {
      await page.evaluate(filterTo, build);
      await page.locator(`.overview-table tbody tr[data-case="${build}"] button.link`).first().click();
      await settled(page);
      const facts = await page.evaluate(cardFacts);
      await page.goBack();
      await page.waitForSelector('.overview-table tbody tr');
      return facts;
    };
    const fillpad = await open(FILLPAD);
    assert.ok(fillpad.boxes >= 2 && fillpad.conflicts === 0, JSON.stringify(fillpad));
    const online = await open(ONLINE_UPDATE);
    assert.ok(online.boxes > 0 && online.conflicts === 0, JSON.stringify(online));
    const ptoas = await open(PTOAS);
    assert.match(ptoas.notice, /No addresses in this dump \(ptoas assigns them\)/);
    // A program with nothing on chip has no row: its dump dropped alone is told as a note.
    await drop(page, [{ name: '35_after_AllocateMemoryAddr.py', text: readFileSync(join(wide, EXTERNAL, '35_after_AllocateMemoryAddr.py'), 'utf8') }]);
    await settled(page);
    const external = await page.evaluate(cardFacts);
    assert.match(external.message, /^Nothing on chip in 35_after_AllocateMemoryAddr\.py/);
    assert.equal(await page.locator('#message').getAttribute('role'), 'status', 'no alert: nothing is wrong');
    await finish(page);
  });
});

describe('Firefox: the compiler\'s builds', () => {
  let env;
  before(async () => { env = await launchFirefox(); });
  after(async () => { await env?.close(); });

  test('the overview of the 198 builds, and a DSA build placed at 0 and a ptoas build open on their maps', async () => {
    const page = await openFirefox(env.browser, env.url);
    await chooseFolder(page, wide);
    await page.waitForSelector('.overview-table tbody tr', { timeout: 60_000 });
    await page.evaluate(clickMore, 'Show all');
    assertOverview(await page.evaluate(overviewRows));
    for (const [build, check] of [
      [FILLPAD, (f) => assert.ok(f.boxes >= 2 && f.conflicts === 0, JSON.stringify(f))],
      [PTOAS, (f) => assert.match(f.notice, /No addresses in this dump/)],
    ]) {
      await page.evaluate(filterTo, build);
      await page.click(`.overview-table tbody tr[data-case="${build}"] button.link`);
      await settledFirefox(page);
      check(await page.evaluate(cardFacts));
      assert.match(await text(page, '#summary'), new RegExp(`wide\\s*${build.replace(/[.]/g, '\\.')}`));
      await page.evaluate(() => history.back()); // puppeteer's goBack waits for a load a hash change never makes
      await page.waitForSelector('.overview-table tbody tr', { timeout: 30_000 });
    }
    await finishFirefox(page);
  });
});
