// Firefox for the page tests: Debian's /usr/bin/firefox-esr driven by
// puppeteer-core over WebDriver BiDi (no browser download), the site
// served on localhost. The same shape as browser.mjs, in puppeteer's API.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import puppeteer from 'puppeteer-core';

import { shownInPage, withSite } from './browser.mjs';

export const FIREFOX = '/usr/bin/firefox-esr';

export async function launchFirefox() {
  // A missing browser fails the suite; it is never skipped.
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: tools/setup.sh installs firefox-esr`);
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: true,
    // A navigation's answer over BiDi may never come (openPage): a call
    // fails in 20 s, not three minutes.
    protocolTimeout: 20_000,
    // No background network: the machine may have none.
    extraPrefsFirefox: { 'network.connectivity-service.enabled': false, 'app.update.enabled': false },
  });
  return withSite(browser);
}

/** A new page that records console errors, uncaught exceptions and every
 * request; `problems()` lists what went wrong. Firefox's BiDi leaves about
 * one file:// navigation to the offline page in twenty unanswered (the
 * tab hangs; a served page, or a small file://, never does: measured
 * with 40 tries each): such a tab is closed and the page opened in a
 * fresh one. */
export async function openPage(browser, url, options = {}) {
  for (let attempt = 1; ; attempt++) {
    const page = await newPage(browser, options);
    if (!url) return page;
    try {
      await page.goto(url, { timeout: 10_000, waitUntil: 'domcontentloaded' });
      return page;
    } catch (error) {
      await page.close().catch(() => {});
      if (attempt === 3 || !/timed out|Timeout/i.test(error.message)) throw error;
    }
  }
}

async function newPage(browser, { width = 1400, height = 900 } = {}) {
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  const errors = [];
  const requests = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  // Firefox reports CSP violations in the console, which BiDi may not
  // relay: they are collected in the page and checked too.
  await page.evaluateOnNewDocument(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.problems = () => errors;
  page.violations = () => page.evaluate(() => window.__violations ?? []);
  page.requests = requests;
  return page;
}

/** Closes `page` and fails on any console error or uncaught exception. */
export async function finish(page) {
  const problems = [...page.problems(), ...(await page.violations()).map((v) => `CSP violation: ${v}`)];
  await page.close();
  assert.deepEqual(problems, []);
}

/** Waits until the map or the error message shows. */
export const settled = (page) => page.waitForFunction(shownInPage, { timeout: 30_000 });

/** `selector`'s text as rendered, or null. */
export const text = (page, selector) => page.evaluate((s) => document.querySelector(s)?.innerText ?? null, selector);

/** `selector`'s box in the viewport. */
export const rect = (page, selector) => page.evaluate((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}, selector);

/** `dir` chosen with Folder…: Firefox's WebDriver cannot give a folder to
 * an input (input.setFiles refuses a directory), so the files are set as
 * its picker gives them, each with its path under the folder's name. */
export async function chooseFolder(page, dir) {
  const name = dir.split('/').pop();
  const files = readdirSync(dir, { recursive: true }).filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => ({ path: `${name}/${p}`, text: readFileSync(join(dir, p), 'utf8') }));
  await page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const { path, text } of list) {
      const file = new File([text], path.split('/').pop());
      Object.defineProperty(file, 'webkitRelativePath', { value: path });
      transfer.items.add(file);
    }
    const input = document.getElementById('folder');
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, files);
}

