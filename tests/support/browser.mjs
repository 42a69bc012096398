// Chromium for the page tests: Debian's /usr/bin/chromium driven by
// playwright-core (no browser download), the site served on localhost.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { launchChromium } from '../../tools/chromium.mjs';
import { serve } from '../../tools/serve.mjs';
import { corpus, root } from './helpers.mjs';

export const launch = async () => withSite(await launchChromium());

/** `browser` with dist/site/ served beside it (either browser's). */
export async function withSite(browser) {
  const { server, url } = await serve(join(root, 'dist', 'site'));
  return {
    browser,
    url,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Tabs that finish() left clean, by the browser they came from: the
 * next openPage there takes one (a new tab took 350-500 ms of a 2-core
 * machine, about a third of a page test). finish() sends a kept tab to
 * about:blank with its permissions, routes and listeners gone and the
 * pointer in the corner; the tab's caches stay warm (a test of a cold
 * load wants a new tab: browser.newPage). */
const keptTabs = new WeakMap();

/** A kept tab of `browser`, set as a new one would be; or null. */
async function keptTab(browser, { width, height, colorScheme }) {
  const kept = keptTabs.get(browser) ?? [];
  let page = kept.pop();
  while (page?.isClosed()) page = kept.pop();
  if (!page) return null;
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  return page;
}

/**
 * A page that records console errors, uncaught exceptions and every
 * request; `problems()` lists what went wrong. A fresh document in a new
 * tab, or in one a finished test left (see keptTabs).
 */
export async function openPage(browser, url, { width = 1400, height = 900, colorScheme = 'light' } = {}) {
  const page = await keptTab(browser, { width, height, colorScheme }) ?? await browser.newPage({ viewport: { width, height }, colorScheme });
  page.keptBy = browser;
  const errors = [];
  const requests = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  page.problems = () => errors;
  page.requests = requests;
  if (url) await page.goto(url);
  return page;
}

/** Drops files on the page as a person would (a synthetic DataTransfer drop). */
export async function drop(page, files) {
  await page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([f.text], f.name));
    const target = document.querySelector('main');
    target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
}

/** A corpus file as { name, text } for drop(). */
export function fixture(relative, name = relative.split('/').pop()) {
  return { name, text: readFileSync(join(corpus, relative), 'utf8') };
}

/** In the page: appends an inline script and, from a timer (where the
 * page's own policy applies, not the driver's), calls eval; what ran. */
export async function injectionOutcome() {
  const script = document.createElement('script');
  script.textContent = 'window.__injected = true';
  document.body.append(script);
  const evaluated = await new Promise((resolve) => setTimeout(() => {
    try {
      resolve(eval('1 + 1'));
    } catch (error) {
      resolve(error.name);
    }
  }, 0));
  await new Promise((r) => setTimeout(r, 50));
  return { injected: window.__injected === true, evaluated };
}

/** In the page: whether the map, or the message in its place (an error,
 * or a note: nothing on chip), shows (for either browser's waitForFunction). */
export function shownInPage() {
  const message = document.getElementById('message');
  const loading = message && !message.hidden && message.classList.contains('loading');
  const shown = document.querySelector('.card.open .box') && document.getElementById('cards').dataset.complete === 'true';
  const told = message && !message.hidden && (message.classList.contains('error') || message.classList.contains('note'));
  return !loading && (shown || told);
}

/** Waits until the map or the error message shows. */
export async function settled(page) {
  await page.waitForFunction(shownInPage);
}

/** A new page on `url` with `files` dropped on it and the result shown. */
export async function pageWith(browser, url, files, options) {
  const page = await openPage(browser, url, options);
  await drop(page, files);
  await settled(page);
  return page;
}

/** Ends `page` and fails on any console error or uncaught exception. */
export async function finish(page) {
  const problems = page.problems();
  await keepOrClose(page);
  assert.deepEqual(problems, []);
}

/** Keeps an openPage tab for the next test (its routes and listeners
 * gone, on about:blank), or closes it. */
async function keepOrClose(page) {
  // A tab that opened others (a popup, a link in a new tab) is not kept.
  if (!page.keptBy || page.isClosed() || page.context().pages().length > 1) return page.close();
  try {
    page.removeAllListeners();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.goto('about:blank');
    await page.context().clearPermissions();
    await page.mouse.move(0, 0);
  } catch {
    return page.close();
  }
  if (!keptTabs.has(page.keptBy)) keptTabs.set(page.keptBy, []);
  keptTabs.get(page.keptBy).push(page);
}

/** A locator's bounding box in the viewport. */
export const rect = (locator) => locator.evaluate((n) => {
  const r = n.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
});
