// The page forms that open from file://: dist/memory-map.html and the CLI's
// pages. No request may leave file:, data: or blob:; nothing logs an error;
// the Content Security Policy holds in all three forms (the site too).
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { drop, fixture, injectionOutcome, launch, openPage, settled } from '../support/browser.mjs';
import { cliPage, corpus, root, run } from '../support/helpers.mjs';

describe('the bundle', () => {
  test('the site\'s script and style are minified, with source maps back to every module of web/', () => {
    const site = join(root, 'dist', 'site');
    // Every module `name` (a path in web/) imports, itself included.
    const imported = (name, seen = new Set()) => {
      if (seen.has(name)) return seen;
      seen.add(name);
      for (const [, dep] of readFileSync(join(root, 'web', name), 'utf8').matchAll(/from '(\.\.?\/[\w/.-]+\.js)'/g)) {
        imported(join(dirname(name), dep), seen);
      }
      return seen;
    };
    for (const [file, entry] of [['app.js', 'page/main.js'], ['style.css', 'style.css']]) {
      const code = readFileSync(join(site, file), 'utf8');
      assert.match(code.trimEnd().split('\n').at(-1), new RegExp(`sourceMappingURL=${file}\\.map`));
      const expected = entry.endsWith('.css') ? ['style.css'] : [...imported(entry)].sort();
      const sourceBytes = expected.reduce((n, name) => n + readFileSync(join(root, 'web', name)).length, 0);
      // Minified: no comments left; the script's names shortened (60 % of
      // its sources' size at most), the style on one line.
      assert.doesNotMatch(code, /^\s*\/\/(?!# sourceMappingURL|# allFunctionsCalledOnLoad)|\/\*\*/m);
      if (file.endsWith('.css')) assert.equal(code.trimEnd().split('\n').length, 2, 'one line, and the map\'s');
      else assert.ok(code.length < sourceBytes * 0.6, `${file}: ${code.length} bytes of ${sourceBytes}`);
      const map = JSON.parse(readFileSync(join(site, `${file}.map`), 'utf8'));
      // Each source as a path in web/ (the map's are relative to dist/site/).
      const sources = map.sources.map((s) => s.slice(s.lastIndexOf('web/') + 4)).sort();
      assert.deepEqual(sources, expected);
      assert.equal(map.sourcesContent.length, map.sources.length);
    }
    // The script asks to be compiled as it loads (its first line), and its
    // map still points each string at the line that wrote it.
    const app = readFileSync(join(site, 'app.js'), 'utf8');
    assert.equal(app.split('\n')[0], '//# allFunctionsCalledOnLoad');
    const map = new SourceMap(JSON.parse(readFileSync(join(site, 'app.js.map'), 'utf8')));
    for (const text of ['a newer request took over', 'Swap old and new']) {
      const before = app.slice(0, app.indexOf(text)).split('\n');
      const entry = map.findEntry(before.length - 1, before.at(-1).length);
      const source = readFileSync(join(root, 'web', entry.originalSource.slice(entry.originalSource.lastIndexOf('web/') + 4)), 'utf8').split('\n');
      assert.ok(source.slice(Math.max(0, entry.originalLine - 1), entry.originalLine + 2).join('\n').includes(text),
        `"${text}" maps to ${entry.originalSource}:${entry.originalLine + 1}`);
    }
    // The one file has the same code inline, without the map's link.
    const offline = readFileSync(join(root, 'dist', 'memory-map.html'), 'utf8');
    assert.doesNotMatch(offline, /sourceMappingURL/);
    assert.match(offline, /<script>\/\/# allFunctionsCalledOnLoad\n/);
  });
});

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const offlineFile = join(root, 'dist', 'memory-map.html');

async function finishOffline(page) {
  const outside = page.requests.filter((u) => !/^(file|data|blob):/.test(u));
  const problems = page.problems();
  await page.close();
  assert.deepEqual(outside, [], 'requests outside file:, data: and blob:');
  assert.deepEqual(problems, []);
}

describe('dist/memory-map.html from file://', () => {
  test('the example opens: the worker and WebAssembly run with no network', async () => {
    const page = await openPage(env.browser, pathToFileURL(offlineFile).href);
    await page.click('[data-example="cube"]');
    await settled(page);
    assert.equal(await page.locator('.card').count(), 4);
    await finishOffline(page);
  });

  test('a dropped dump renders; a refused one shows its error; the next one renders', async () => {
    const page = await openPage(env.browser, pathToFileURL(offlineFile).href);
    await drop(page, [fixture('real/norm_rope.py')]);
    await settled(page);
    assert.equal(await page.locator('.card.open').getAttribute('data-function'), 'csa_norm_rope');
    await drop(page, [fixture('real/decode_fwd__30_after_InitMemRef.py')]);
    await page.waitForSelector('.message.error');
    assert.match(await page.locator('#message').innerText(), /copy_hidden.*predates AllocateMemoryAddr/s);
    await drop(page, [fixture('real/gather_state_window.py')]);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    await finishOffline(page);
  });
});

describe('the CLI\'s self-contained page', () => {
  test('shows the map at once, from file://, with no network', async () => {
    const out = cliPage(join(corpus, 'real', 'diagnose_indexer_weights.py'));
    const page = await openPage(env.browser, pathToFileURL(out).href);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    assert.equal(await page.locator('.card').count(), 4);
    assert.ok((await page.locator('#summary').innerText()).includes('diagnose_indexer_weights.py'));
    // Interactions work without the core: pin and zoom.
    await page.locator('.card.open .box').first().click();
    assert.equal(await page.locator('.chip').isVisible(), true);
    await finishOffline(page);
  });

  test('its deep link works from file://: a pinned tile and line come back after a reload', async () => {
    const out = cliPage(join(corpus, 'real', 'diagnose_indexer_weights.py'));
    const page = await openPage(env.browser, pathToFileURL(out).href);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    const card = page.locator('.card.open');
    const name = await card.locator('.box').first().getAttribute('data-tile');
    await card.locator('.box').first().click();
    const line = await card.locator('.row').nth(3).getAttribute('data-line');
    await card.locator('.row').nth(3).click();
    assert.match(page.url(), new RegExp(`^file://.*#fn=[^&]+&tile=${name}&line=${line}$`));
    await page.reload();
    await page.waitForSelector('.card.open .box.pinned');
    assert.equal(await page.locator('.card.open .chip-name').innerText(), name);
    assert.equal(await page.locator(`.card.open .row.pinned-line`).getAttribute('data-line'), line);
    await finishOffline(page);
  });

  test('a case folder gives <dump>.memory_map.html beside the dump, backend detected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-case-page-'));
    cpSync(join(corpus, 'cases', 'decode_fwd'), join(dir, 'decode_fwd'), { recursive: true });
    const cli = run([join(dir, 'decode_fwd')]);
    const out = join(dir, 'decode_fwd', 'passes_dump', '32_after_AllocateMemoryAddr.memory_map.html');
    assert.equal(cli.stdout, `wrote ${out}\n`, cli.stderr);
    const page = await openPage(env.browser, pathToFileURL(out).href);
    await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
    assert.equal(await page.locator('.card').count(), 38);
    assert.ok(!(await page.locator('#summary').innerText()).includes('assumed'));
    await finishOffline(page);
  });

  test('the page embeds the model safely: names and strings cannot end the data element', () => {
    const out = cliPage(join(corpus, 'real', 'vector_division.py'));
    const html = readFileSync(out, 'utf8');
    const data = html.match(/<script id="memory-map-data" type="application\/json">([^<]*)<\/script>/);
    assert.ok(data, 'one data element, with no "<" inside it');
    assert.equal(JSON.parse(data[1]).dump, 'vector_division.py');
  });
});

describe('Content Security Policy', () => {
  const forms = [
    ['the static site', () => env.url],
    ['the offline file', () => pathToFileURL(offlineFile).href],
    ['a CLI page', () => pathToFileURL(cliPage(join(corpus, 'real', 'vector_division.py'))).href],
  ];
  for (const [name, url] of forms) {
    test(`${name}: present, strict, and an injected inline script or eval does not run`, async () => {
      const page = await openPage(env.browser, url());
      const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      assert.match(policy, /default-src 'none'/);
      assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'|https?:|\*/);
      const outcome = await page.evaluate(injectionOutcome);
      assert.deepEqual(outcome, { injected: false, evaluated: 'EvalError' });
      // The violations are logged as errors; that is the policy working.
      await page.close();
    });
  }
});
