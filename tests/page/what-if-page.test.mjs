// On the page: a pipe's two cards marked, each saying the pipe's answers
// with its peer a click away, the peak panel's what-if sentence (the
// core's what_if), and the line inspector's "where does it fit?" answered
// as `--fit` answers it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { finish, launch, openPage } from '../support/browser.mjs';
import { formatBytes } from '../../web/model/layout.js';
import { corpus, run } from '../support/helpers.mjs';

const esc = (text) => text.replace(/[.()[\]]/g, '\\$&');

let env;
before(async () => { env = await launch(); });
after(async () => env?.close());

const decode = join(corpus, 'cases', 'decode_fwd');

describe('pipes and what-if on the page', () => {
  test('a pipe marks its two cards, says both sides\' answers, and links them', async () => {
    const page = await openPage(env.browser, env.url);
    await page.setInputFiles('#folder', decode);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    const marks = await page.locator('.pipe-mark').evaluateAll((nodes) => nodes.map((n) => n.closest('.card').dataset.function));
    assert.deepEqual(marks, ['fa_fused_aic', 'fa_fused_aiv'], 'the two sides are marked by their names, no other card');
    const title = await page.getAttribute('.card[data-function="fa_fused_aiv"] .pipe-mark', 'title');
    assert.match(title, /^Cross-core pipe with fa_fused_aic: .* One more slot: fits on both sides\. At most 21 slots/);
    await page.click('.card[data-function="fa_fused_aic"] .card-toggle');
    const notice = page.locator('.card[data-function="fa_fused_aic"] .pipe-notice');
    assert.match(await notice.innerText(), /^⇄ Cross-core pipe with fa_fused_aiv: v2c fa_fused_v2c_slot_buffer in this function's Mat \(4 × 8 KB\)/);
    await notice.locator('button').click();
    await page.waitForSelector('.card.open[data-function="fa_fused_aiv"] .box');
    await finish(page);
  });

  test('the peak panel says the what-if, and the line inspector answers as --fit does', async () => {
    const dump = join(corpus, 'generated', 'gen1_005__36_after_AllocateMemoryAddr.py');
    const model = JSON.parse(run([dump, '--json']).stdout);
    const fn = model.functions.find((f) => f.spaces.some((s) => s.what_if && s.what_if.hwm_with_reserved < s.hwm_with_reserved));
    const space = fn.spaces.find((s) => s.what_if && s.what_if.hwm_with_reserved < s.hwm_with_reserved);
    const page = await openPage(env.browser, env.url);
    await page.setInputFiles('#file', dump);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    const card = page.locator(`.card[data-function="${fn.name}"]`);
    await card.locator('.card-toggle').click();
    await card.locator(`.pill[data-space="${space.space}"]`).click();
    const whatIf = await card.locator('.panel-what-if').innerText();
    assert.match(whatIf, new RegExp(`^What if ${fn.boxes[space.what_if.box].name}.* moved to the lowest gap free over its lifetime, \\[${space.what_if.offset}, \\d+\\)\\? The mark would be ${esc(formatBytes(space.what_if.hwm_with_reserved))}, .* lower\\.$`));
    // The inspector's form, for the pinned peak line, against the CLI.
    const form = card.locator('.panel-fit');
    // From the pill it opens on that space's mark: the tile's size and lines; asked of the peak line here.
    const mark = fn.boxes[space.hwm_set_by.box];
    assert.deepEqual([await form.locator('select').inputValue(), await form.locator('input[type="text"]').inputValue(),
      await form.locator('.fit-first').inputValue(), await form.locator('.fit-last').inputValue()],
    [space.space, mark.size % 1024 ? String(mark.size) : `${mark.size / 1024}K`, String(mark.start), String(mark.end)], 'prefilled from the mark\'s tile');
    await form.locator('select').selectOption(space.space);
    await form.locator('input[type="text"]').fill('96');
    const last = Math.min(fn.src_end, space.peak_line + 3);
    await form.locator('.fit-first').fill(String(space.peak_line));
    await form.locator('.fit-last').fill(String(last));
    await form.locator('button').click();
    await page.waitForFunction((name) => {
      const a = document.querySelector(`.card[data-function="${name}"] .fit-answer`);
      return a?.textContent && a.textContent !== '…';
    }, fn.name);
    const answer = await form.locator('.fit-answer').innerText();
    const cli = run([dump, '--fit', `${space.space}:96:${space.peak_line}-${last}`, '--function', fn.name]).stdout;
    const [, offset, end, hwm] = /the lowest gap free then is \[(\d+), (\d+)\); the high-water mark would be (\d+)/.exec(cli);
    assert.match(answer, new RegExp(`^lowest gap free then: \\[${offset}, ${end}\\); the high-water mark would be ${esc(formatBytes(Number(hwm)))}`));
    await finish(page);
  });
});
