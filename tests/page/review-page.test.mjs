// The page as a kernel author's third review found it (issue 48), each
// finding held in Chromium: the folders, links, exports and figures a
// user meets first.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { drop, finish, fixture, launch, openPage, settled } from '../support/browser.mjs';
import { corpus, dumpWith, root, run, tileType } from '../support/helpers.mjs';

const wide = join(root, 'tests', 'fixtures', 'compiler-e2d0f78', 'wide');

let env;
let work;
before(async () => {
  env = await launch();
  work = mkdtempSync(join(tmpdir(), 'mm-review-'));
});
after(async () => {
  await env?.close();
  rmSync(work, { recursive: true, force: true });
});

/** decode_fwd's case folder without the dumps named `without`. */
function caseWithout(name, without) {
  const dir = join(work, name);
  cpSync(join(corpus, 'cases', 'decode_fwd'), dir, { recursive: true, filter: (src) => !without.some((w) => src.endsWith(w)) });
  return dir;
}

const passPicked = (page) => page.locator('#pass').inputValue();
const message = (page) => page.evaluate(() => (document.getElementById('message').hidden ? null : document.getElementById('message').innerText));

describe('a folder without its AllocateMemoryAddr dump', () => {
  test('opens the latest later pass, which holds the addresses, and says so', async () => {
    const page = await openPage(env.browser, env.url);
    await page.setInputFiles('#folder', caseWithout('no_allocate', ['32_after_AllocateMemoryAddr.py']));
    await settled(page);
    assert.equal(await message(page), null);
    assert.equal(await passPicked(page), 'MaterializeRuntimeScopes');
    assert.match(await page.locator('#notes .folder-note').innerText(),
      /no '\*_after_AllocateMemoryAddr\.py' dump under .*: showing 41_after_MaterializeRuntimeScopes\.py, the latest pass after it, which holds the addresses AllocateMemoryAddr assigned/);
    // The addresses are the compiler's: no "drawn by size and lifetime" notice.
    assert.equal(await page.locator('.lifetime-notice').count(), 0);
    await finish(page);
  });

  test('the pass picker still works after a refusal: a refused pass, then one that opens', async () => {
    const page = await openPage(env.browser, env.url);
    await page.setInputFiles('#folder', caseWithout('refused_then', ['32_after_AllocateMemoryAddr.py']));
    await settled(page);
    await page.selectOption('#pass', 'InitMemRef');
    await page.waitForSelector('.message.error');
    assert.match(await message(page), /predates AllocateMemoryAddr/);
    assert.equal(await page.locator('#pass-picker').isHidden(), false, 'the picker stays');
    await page.selectOption('#pass', 'DeriveCallDirections');
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    assert.equal(await message(page), null);
    assert.equal(await page.locator('#notes .folder-note').count(), 0, 'the pass asked for: nothing to tell');
    await finish(page);
  });

  test('a folder with no dump of the pass asked for keeps its picker too', async () => {
    const page = await openPage(env.browser, env.url);
    // Up to MemoryReuse only: the compile stopped before AllocateMemoryAddr.
    await page.setInputFiles('#folder', caseWithout('stopped', ['32_after_AllocateMemoryAddr.py', '35_after_DeriveCallDirections.py',
      '40_after_Simplify.py', '41_after_MaterializeRuntimeScopes.py']));
    await settled(page);
    assert.match(await message(page), /its compile stopped before AllocateMemoryAddr placed memory \(its last dump is 31_after_MemoryReuse\.py/);
    await page.selectOption('#pass', 'LowerPipelineLoops');
    await page.waitForFunction(() => /predates AllocateMemoryAddr|no compute function/.test(document.getElementById('message').innerText));
    await finish(page);
  });
});

describe('a link copied from a dropped dump, opened in a fresh tab', () => {
  test('names the dump and the view it asks for, and applies the view once that dump is dropped', async () => {
    const dump = 'decode_fwd__41_after_MaterializeRuntimeScopes.py';
    const source = await openPage(env.browser, env.url);
    await drop(source, [fixture(`real/${dump}`)]);
    await settled(source);
    // The hash a user copies names the dump.
    await source.evaluate(() => { location.hash = ''; });
    const card = source.locator('.card[data-function="down_proj"]');
    await card.locator('.card-toggle').click();
    await card.locator('.box').first().click();
    await source.waitForFunction(() => location.hash.includes('tile='));
    const hash = await source.evaluate(() => location.hash);
    assert.match(hash, new RegExp(`^#fn=down_proj&file=${dump.replace(/[.]/g, '\\.')}&tile=`));
    await finish(source);

    const page = await openPage(env.browser, `${env.url}${hash}`);
    const wanted = page.locator('#message .link-wanted');
    await wanted.waitFor();
    assert.match(await wanted.innerText(), new RegExp(`^This link shows down_proj's map in ${dump.replace(/[.]/g, '\\.')}, tile \\S+ pinned\\. Open that dump here`));
    await drop(page, [fixture(`real/${dump}`)]);
    await page.waitForSelector('.card.open[data-function="down_proj"] .box.pinned');
    const tile = new URLSearchParams(hash.slice(1)).get('tile');
    assert.equal(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('tile'), tile, 'the same tile pinned');
    assert.equal(await page.locator('#message').isHidden(), true);
    await finish(page);
  });
});

describe('a DSA dump whose mark is an in-place handoff', () => {
  test('the peak panel names the handoff and offers no move that raises the mark; --summary saves nothing, never less', async () => {
    const dir = join(wide, 'ops.test_fillpad__FillpadMaxProgram__dsa');
    const summary = run([dir, '--summary']).stdout;
    const [row] = summary.split('\n').filter((line) => /^fillpad_max_kernel\s+Vec\s+tile__ssa_v0/.test(line));
    assert.match(row, /\s16384\s+0\s+16384\s+0$/, 'hwm 16384, lowest gap 0, hwm then 16384, saved 0');
    const page = await openPage(env.browser, env.url);
    await page.setInputFiles('#folder', dir);
    await settled(page);
    const card = page.locator('.card.open');
    await card.locator('.pill[data-space="Vec"]').click();
    const peak = card.locator('.panel-peak');
    assert.equal(await peak.locator('.panel-mark').innerText(),
      'The mark is the end of tile__ssa_v0 at [0, 16384), lines 10–11. It hands its bytes over in place to padded_tile__ssa_v0, bound on line 11, which reads it last.');
    const whatIf = await peak.locator('.panel-what-if').innerText();
    assert.match(whatIf, /already sits in the lowest gap free over its lifetime: no move lowers the mark/);
    assert.doesNotMatch(await peak.innerText(), /higher/);
    assert.equal(await page.locator('#anomaly-count').innerText(), 'no anomalies');
    await finish(page);
  });
});

describe('an exported image and the lines its notes name', () => {
  test('Save SVG of a card scrolled to its top still shows the peak line its notes cite', async () => {
    const page = await openPage(env.browser, env.url, { height: 700 });
    await drop(page, [fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py')]);
    await settled(page);
    const card = page.locator('[data-function="rope_qkv"]');
    await card.locator('.card-toggle').click();
    await page.waitForSelector('.card.open[data-function="rope_qkv"] .viewport');
    await card.locator('.viewport').evaluate((v) => { v.scrollTop = 0; });
    await card.locator('.share-menu summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), card.locator('.save-svg').click()]);
    const path = join(work, 'rope_qkv.svg');
    await download.saveAs(path);
    const svg = readFileSync(path, 'utf8');
    const [, first, last] = /· lines (\d+)–(\d+)</.exec(svg).map(Number);
    const cited = [...svg.matchAll(/Peak of \w+: [^<]* live on line (\d+)\./g)].map((m) => Number(m[1]));
    assert.ok(cited.length >= 1, 'the notes cite a peak');
    for (const line of cited) assert.ok(first <= line && line <= last, `peak line ${line} in the image's lines ${first}–${last}`);
    assert.ok(Math.max(...cited) - 1455 > 40, 'a peak past the first screenful: the test means something');
    await finish(page);
  });
});

describe('a dump\'s spaces ranked, least headroom first', () => {
  test('the core\'s by_headroom is the order of the dump as a build of one case; the page shows it, a row opens the function on that peak', async () => {
    const dump = join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py');
    const model = JSON.parse(run([dump, '--json']).stdout);
    // A dump with a threshold is a build of one case: its rows in the build's order.
    const out = join(work, 'one-case.json');
    run([dump, '--check', '--min-headroom', '*=0', '--json', '-o', out]);
    const asBuild = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(model.by_headroom.map(([f, space]) => `${model.functions[f].name} ${space}`),
      asBuild.rows.map((r) => `${r.function} ${r.space}`), 'one order, the build overview\'s');
    // Seven functions tie at Right full: the ranking puts them first, in source order.
    assert.deepEqual(model.by_headroom.slice(0, 7).map(([f, s]) => [model.functions[f].name, s]),
      ['down_proj', 'gate_proj', 'k_proj', 'out_proj', 'q_proj', 'up_proj', 'v_proj'].map((n) => [n, 'Right']));
    const page = await openPage(env.browser, env.url);
    await drop(page, [fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py')]);
    await settled(page);
    const ranking = page.locator('.ranking');
    assert.match(await ranking.locator('summary').innerText(), /^Every space of the 38 functions, least headroom first \(\d+ rows\)$/);
    await ranking.locator('summary').click();
    // The table is made as it opens (a toggle event): wait for its rows.
    await ranking.locator('tbody tr').first().waitFor();
    const rows = await ranking.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(rows.slice(0, 2), [['down_proj', 'AIC', 'Right', '64 KB', '64 KB', '100.0%', '0 B', '64 KB', '0 B'],
      ['gate_proj', 'AIC', 'Right', '64 KB', '64 KB', '100.0%', '0 B', '64 KB', '0 B']]);
    assert.equal(rows.length, Math.min(100, model.by_headroom.length));
    await ranking.locator('tbody tr').nth(3).locator('button').click();
    const card = page.locator('.card[data-function="out_proj"]');
    await card.locator('.panel-peak').waitFor();
    // Its text, not innerText: the card may not be laid out yet (content-visibility) as it scrolls in.
    assert.match(await card.locator('.panel-peak h2').textContent(), /^Peak of Right/);
    await finish(page);
  });
});

describe('the IR source beside a pinned tile', () => {
  test('the lines that use the tile are marked apart from those it is only live on, and each use shows in the column', async () => {
    const page = await openPage(env.browser, env.url, { width: 1400 });
    await drop(page, [fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py')]);
    await settled(page);
    const card = page.locator('.card[data-function="down_proj"]');
    await card.locator('.card-toggle').click();
    await card.locator('.box[data-tile="a0_v2_inline39__tile"]').click();
    const rows = card.locator('.source-window .row');
    await card.locator('.source-window .row.use').first().waitFor();
    const facts = await rows.evaluateAll((rs) => rs.filter((r) => r.classList.contains('live') || r.classList.contains('use')).map((r) => {
      const mark = r.querySelector('mark');
      const window = r.closest('.source-window').getBoundingClientRect();
      return { line: Number(r.dataset.line), use: r.classList.contains('use'), text: r.querySelector('.code').textContent,
        title: r.querySelector('.code').title, markShown: mark ? mark.getBoundingClientRect().right <= window.right + 0.5 : null };
    }));
    assert.deepEqual(facts.filter((f) => f.use).map((f) => f.line), [59, 63, 65], 'its binding and its two reads');
    assert.deepEqual(facts.filter((f) => !f.use).map((f) => f.line), [60, 61, 62, 64], 'live only');
    for (const f of facts.filter((x) => x.use)) {
      assert.equal(f.markShown, true, `line ${f.line}: the mention is in the column: "${f.text}"`);
      assert.ok(f.title.includes('a0_v2_inline39__tile'), 'the whole line on hover');
    }
    assert.match(facts.find((f) => f.line === 63).text, /^\s+c_acc_v2_inline38__tile_l0_a: … (pl\.tile\.)?extract\(a0_v2_inline39__tile/);
    await finish(page);
  });
});

describe('long names', () => {
  test('a function\'s name wraps after an underscore, never inside a word', async () => {
    const name = 'deepseek_v3_2_decode_front_attention_with_pinned_and_unbound_slots_kernel';
    const text = dumpWith([`t: ${tileType('Vec', 'm', 0, 1024)} = f()`, 'y = t'], { name });
    const page = await openPage(env.browser, env.url, { width: 1024 });
    await drop(page, [{ name: '32_after_AllocateMemoryAddr.py', text }]);
    await settled(page);
    const breaks = await page.locator('.card .fn-name').evaluate((node) => {
      // Where each line of the name ends: the character before a new line's first.
      const chars = [];
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        for (let i = 0; i < t.length; i++) {
          const range = document.createRange();
          range.setStart(t, i);
          range.setEnd(t, i + 1);
          chars.push({ c: t.data[i], top: range.getBoundingClientRect().top });
        }
      }
      return chars.flatMap((ch, i) => (i && ch.top > chars[i - 1].top + 1 ? [chars[i - 1].c] : []));
    });
    assert.ok(breaks.length >= 1, 'the name wraps at 1024 px');
    assert.deepEqual([...new Set(breaks)], ['_'], `each line ends after an underscore: ${breaks.join(' ')}`);
    assert.equal(await page.locator('.card .fn-name').innerText().then((t) => t.replace(/\s/g, '')), name);
    await finish(page);
  });
});

describe('slot rules and window labels', () => {
  // Two pinned allocations, one of 2 × 2 KB at the lane's end, and a tile
  // of a runtime slot index drawn over both slots of the other.
  const SLOTS = `# pypto.program: slots
import pypto.language as pl

@pl.program
class slots:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def ring_aiv(a__ssa_v0: pl.Tensor[[64, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)]) -> pl.Tensor[[64, 64], pl.FP32]:
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 8192)
        scratch: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096, pinned=True)
        pinned_and_unbound_slots: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32768, pinned=True)
        x__tile: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 8192), pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [32, 64], [32, 64], target_memory=pl.Mem.Vec)
        for i__idx_v0 in pl.range(8):
            hi__tile: pl.Tile[[32, 64], pl.FP32, pl.MemRef(pinned_and_unbound_slots, 8192 + (i__idx_v0 + 1) % 2 * 8192, 8192, slots=2)[(i__idx_v0 + 1) % 2], pl.Mem.Vec] = pl.tile.exp(x__tile)
            s__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(scratch, pl.const(40960, pl.INT64), 2048, slots=2)[0], pl.Mem.Vec] = pl.tile.add(hi__tile, x__tile)
        out__tile: pl.Tensor[[64, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)] = pl.tile.store(x__tile, [0, 0], a__ssa_v0)
        return out__tile
`;

  for (const width of [1024, 1400]) {
    test(`at ${width} px: a slotted tile's labels sit on a chip above its rules; window labels are whole, inside the lane, apart`, async () => {
      const page = await openPage(env.browser, env.url, { width });
      await drop(page, [{ name: 'slots_35_after_AllocateMemoryAddr.py', text: SLOTS }]);
      await settled(page);
      for (const axis of ['used', 'limit']) {
        await page.locator(`.axis[data-axis="${axis}"]`).click();
        const facts = await page.evaluate(() => {
          const lane = document.querySelector('.lane[data-space="Vec"]').getBoundingClientRect();
          const view = document.querySelector('.card.open .viewport').getBoundingClientRect();
          const labels = [...document.querySelectorAll('.window-label')].map((l) => ({ text: l.textContent, r: l.getBoundingClientRect(), cut: l.scrollWidth > l.clientWidth + 0.5 }));
          const box = document.querySelector('.box.slotted');
          const chip = box.querySelector('.box-name');
          return {
            labels, right: Math.min(lane.right, view.right), left: lane.left,
            chip: getComputedStyle(chip).backgroundColor, chipRight: chip.getBoundingClientRect().right, box: box.getBoundingClientRect(),
          };
        });
        assert.equal(facts.labels.length, 2);
        for (const l of facts.labels) {
          assert.equal(l.cut, false, `${l.text}: whole`);
          assert.ok(l.r.left >= facts.left - 0.5 && l.r.right <= facts.right + 0.5, `${axis}: ${l.text} inside the lane`);
        }
        const [a, b] = facts.labels.map((l) => l.r);
        assert.ok(a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top || b.bottom <= a.top, `${axis}: the two labels apart`);
        assert.notEqual(facts.chip, 'rgba(0, 0, 0, 0)', 'the name on a chip, not on the rules');
      }
      await finish(page);
    });
  }
});

describe('accessibility of the views this review added or changed (axe-core)', () => {
  const axeSource = () => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  /** axe's violations on `page` (its CSP bypassed: axe is injected as a script). */
  async function violations(page) {
    await page.addScriptTag({ content: axeSource() });
    return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
      .map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`));
  }
  const unplaced = dumpWith([`t: ${tileType('Vec', 'm', 0, 1024)} = f()`, 'u: pl.Tile[[16, 64], pl.FP32, pl.MemRef(m2, 7 * i, 512), pl.Mem.Vec] = f(t)', 'y = u']);

  for (const colorScheme of ['light', 'dark']) {
    test(`${colorScheme}: a tile not placed, the ranking open, a tile pinned with its uses, the idle panel; a ptoas card; a build's overview`, async () => {
      const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme, bypassCSP: true });
      await page.goto(env.url);
      await drop(page, [{ name: '32_after_AllocateMemoryAddr.py', text: unplaced }]);
      await page.waitForSelector('.anomaly.unplaced');
      assert.deepEqual(await violations(page), [], 'the "not placed" chip');
      await drop(page, [fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py')]);
      await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
      await page.locator('.ranking summary').click();
      const card = page.locator('.card[data-function="down_proj"]');
      await card.locator('.card-toggle').click();
      await card.locator('.box[data-tile="a0_v2_inline39__tile"]').click();
      await card.locator('.idle-toggle').click();
      assert.deepEqual(await violations(page), [], 'ranking, uses, idle panel');
      await page.setInputFiles('#folder', join(wide, 'ex.beginner.01_hello_world__tile_add__ptoas'));
      await page.waitForSelector('.card.packed .box');
      assert.deepEqual(await violations(page), [], 'a packed card');
      await page.setInputFiles('#folder', wide);
      await page.waitForSelector('.overview-table tbody tr', { timeout: 60_000 });
      assert.deepEqual(await violations(page), [], 'the build overview');
      await page.close();
    });
  }
});

describe('the build overview read at 1024 px', () => {
  test('every column in view, the headings in words, a full space red as its pill is', async () => {
    const page = await openPage(env.browser, env.url, { width: 1024 });
    await page.setInputFiles('#folder', wide);
    await page.waitForSelector('.overview-table tbody tr', { timeout: 60_000 });
    const fit = await page.locator('.overview-scroll').evaluate((s) => ({
      table: s.querySelector('table').getBoundingClientRect().width, room: s.clientWidth,
      last: s.querySelector('thead th:last-child').getBoundingClientRect().right, right: s.getBoundingClientRect().right,
    }));
    assert.ok(fit.table <= fit.room + 0.5 && fit.last <= fit.right + 0.5, `the table ${fit.table} px in ${fit.room}: conflicts and unplaced in view`);
    assert.deepEqual(await page.locator('.overview-table thead th').allInnerTexts().then((t) => t.map((h) => h.replace(/\u00ad/g, '').replace(/\s+/g, ' ').replace(/ [▲▼]$/, ''))),
      ['case', 'backend', 'function', 'type', 'space', 'high-water mark', 'capacity', 'usage', 'headroom', 'peak live', 'fragmentation', 'conflicts', 'unplaced']);
    const full = page.locator('.overview-table tbody tr', { hasText: '100.0%' }).first();
    assert.match(await full.getAttribute('class'), /\balert\b/);
    const red = await full.locator('td.num').nth(2).evaluate((td) => getComputedStyle(td).color);
    const plain = await page.locator('.overview-table tbody tr:not(.alert):not(.conflict) td.num').first().evaluate((td) => getComputedStyle(td).color);
    assert.notEqual(red, plain, 'the usage of a full space is red');
    await finish(page);
  });
});

describe('the first card and the peak panel at 1024 px', () => {
  test('no empty band under the first card\'s toolbar; a pill\'s peak leaves the map most of the window; its fit question starts from the mark\'s tile', async () => {
    const page = await openPage(env.browser, env.url, { width: 1024, height: 768 });
    await drop(page, [fixture('real/decode_fwd__41_after_MaterializeRuntimeScopes.py')]);
    await settled(page);
    // The pin's slot shares a row with the toolbar's controls: no row of its own, empty.
    const rows = await page.locator('.card.open .toolbar').evaluate((t) => {
      const tops = (nodes) => [...new Set(nodes.map((n) => Math.round(n.getBoundingClientRect().top)))];
      return { controls: tops([...t.children].filter((c) => !c.classList.contains('pin-slot'))), slot: tops([t.querySelector('.pin-slot')]) };
    });
    assert.ok(rows.controls.includes(rows.slot[0]), `the pin's slot on a row of controls: ${JSON.stringify(rows)}`);
    const card = page.locator('.card[data-function="down_proj"]');
    await card.locator('.card-toggle').click();
    await card.locator('.pill[data-space="Mat"]').click();
    await card.locator('.panel-peak').waitFor();
    const shown = await card.locator('.viewport').evaluate((v) => {
      const r = v.getBoundingClientRect();
      return Math.min(r.bottom, innerHeight) - Math.max(r.top, document.getElementById('topbar').getBoundingClientRect().bottom);
    });
    assert.ok(shown >= 0.4 * 768, `${shown} px of map in a 768 px window`);
    const form = card.locator('.panel-fit');
    assert.deepEqual([await form.locator('select').inputValue(), await form.locator('input[type="text"]').inputValue(),
      await form.locator('.fit-first').inputValue(), await form.locator('.fit-last').inputValue()], ['Mat', '128K', '79', '86'],
    'the space clicked, and w_k_inline65__tile, which sets its mark');
    await finish(page);
  });
});
