// Regenerates the screenshots in docs/ (*.png) from the built site, the
// test MkDocs site (mkdocs) and Firefox: node tools/screenshot.mjs
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import puppeteer from 'puppeteer-core';

import { launchChromium } from './chromium.mjs';
import { serve } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { server, url } = await serve(join(root, 'dist', 'site'));
const browser = await launchChromium();

/** A page showing the bundled decode_fwd example, its first card closed again. */
async function examplePage(theme, height) {
  const page = await browser.newPage({ viewport: { width: 1400, height }, colorScheme: theme });
  await page.goto(url);
  await page.click('[data-example="decode_fwd"]');
  await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
  await page.locator('[data-function="copy_hidden"] .card-toggle').click();
  return page;
}

for (const theme of ['light', 'dark']) {
  const page = await examplePage(theme, 860);
  const card = page.locator('[data-function="down_proj"]');
  await card.locator('.card-toggle').click();
  await card.locator('.box').first().waitFor();
  await card.locator('.box[data-tile="a0_v2_inline39__tile"]').click();
  await card.locator('.splitter').focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowLeft');
  await card.locator('.zoom-out').click();
  await page.evaluate(() => document.activeElement.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  await card.locator('.box[data-tile="w0_v2_inline311__tile"]').hover();
  await page.screenshot({ path: join(root, 'docs', `map-${theme}.png`) });
  await page.close();
}
// The page at the widths it is made for, in both themes.
for (const [width, theme] of [1024, 1400, 1920].flatMap((w) => [[w, 'light'], [w, 'dark']])) {
  const page = await browser.newPage({ viewport: { width, height: 860 }, colorScheme: theme });
  await page.goto(url);
  await page.click('[data-example="decode_fwd"]');
  await page.waitForSelector('#cards[data-complete="true"] .card.open .box');
  await page.locator('[data-function="copy_hidden"] .card-toggle').click();
  const card = page.locator('[data-function="down_proj"]');
  await card.locator('.card-toggle').click();
  await card.locator('.box').first().waitFor();
  await card.locator('.box[data-tile="a0_v2_inline39__tile"]').click();
  await page.evaluate(() => { document.activeElement.blur(); window.scrollTo(0, 0); });
  await page.screenshot({ path: join(root, 'docs', `page-${width}-${theme}.png`) });
  await page.close();
}
// What holds the space: fa_fused_aiv's Vec at its peak, a 32 KB cross-core
// ring reserved below the tiles, the tiles held longest while idle, the
// ring's tooltip with one more slot (the README's "Reading the map").
{
  const page = await examplePage('light', 900);
  const card = page.locator('[data-function="fa_fused_aiv"]');
  await card.locator('.pill[data-space="Vec"]').click();
  await card.locator('.axis[data-axis="used"]').click();
  await card.locator('.pill[data-space="Vec"]').click();
  await card.locator('.idle-toggle').click();
  await card.evaluate((node) => node.scrollIntoView());
  await page.evaluate(() => document.activeElement.blur());
  const band = await card.locator('.window-band').first().boundingBox();
  await page.mouse.move(band.x + band.width / 3, band.y + 380);
  await page.screenshot({ path: join(root, 'docs', 'insight.png') });
  await page.close();
}
// The map embedded in a MkDocs Material page (tests/docs-site), in the
// site's light and dark palettes.
{
  const work = mkdtempSync(join(tmpdir(), 'mm-shot-site-'));
  cpSync(join(root, 'tests', 'docs-site'), work, { recursive: true });
  cpSync(join(root, 'dist', 'site'), join(work, 'docs', 'tools', 'memory-map'), { recursive: true });
  const built = spawnSync('mkdocs', ['build', '--quiet', '--strict', '--config-file', join(work, 'mkdocs.yml'), '--site-dir', join(work, 'site')],
    { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('mkdocs build failed (tools/setup.sh installs mkdocs)');
  const site = await serve(join(work, 'site'));
  for (const theme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, colorScheme: theme });
    // Material keeps the reader's palette in localStorage.
    if (theme === 'dark') await page.addInitScript(() => localStorage.setItem('/.__palette', JSON.stringify({ index: 1, color: { scheme: 'slate' } })));
    await page.goto(`${site.url}memory-map/`);
    await page.frameLocator('iframe.memory-map').locator('.card.open .box').first().waitFor();
    await page.screenshot({ path: join(root, 'docs', `docs-site-${theme}.png`) });
    await page.close();
  }
  site.server.close();
  rmSync(work, { recursive: true, force: true });
}
await browser.close();
// The same view as insight.png, in Firefox (Debian's firefox-esr over BiDi).
{
  const firefox = await puppeteer.launch({ browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: true,
    extraPrefsFirefox: { 'network.connectivity-service.enabled': false, 'app.update.enabled': false } });
  const page = await firefox.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(`${url}?dump=examples/decode_fwd/41_after_MaterializeRuntimeScopes.py#fn=fa_fused_aiv`);
  await page.waitForSelector('#cards[data-complete="true"] .card.open[data-function="fa_fused_aiv"] .box');
  await page.click('.card[data-function="fa_fused_aiv"] .idle-toggle');
  await page.waitForSelector('.card[data-function="fa_fused_aiv"] .idle-wrap');
  await page.evaluate(() => { document.activeElement.blur(); document.querySelector('.card[data-function="fa_fused_aiv"]').scrollIntoView(); });
  await page.screenshot({ path: join(root, 'docs', 'firefox.png') });
  await firefox.close();
}
server.close();
