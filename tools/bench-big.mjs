// The bench's big-dump rows (issue #28), as a user meets them: the
// offline page (file://) in a fresh tab idle 1 s, a 50 MB dump opened with
// the file input ("Open dump…"); the time to the first card painted and its
// steps, a search for a tile name ("/", the name typed, then from Enter to
// the tile pinned and painted), and the memory the dump adds to the tab's renderer process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { launchChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const offline = pathToFileURL(join(root, 'dist', 'memory-map.html')).href;

/** The page's marks of the last drop, once every card is made: ms from
 * the file to the first card painted (from the first function alone when
 * `previewed`: display.js showPreview), to that function's model shown,
 * and to the whole model shown (its counts, search and first card; the
 * other cards follow in groups); the worker's read and core; the first
 * card made again. */
const marks = () => {
  const s = window.memoryMapStats;
  return { total: s.firstCardPainted - s.received, previewed: s.previewed ? s.previewed - s.received : null,
    whole: s.shown - s.received, read: s.readMs, core: s.coreMs, cards: s.shown - s.modelled, parsed: s.bodies?.parsed ?? null };
};

/** In the page: Enter in the find field, as keys.js handles it (the query
 * typed just before, its search not run yet); ms until the frame after
 * the first match is pinned and painted. */
const enterMs = () => {
  const search = document.getElementById('search');
  const t = performance.now();
  search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve({
    ms: performance.now() - t, status: document.getElementById('search-status').textContent,
    pinned: Boolean(document.querySelector('.card.open .box.pinned')),
  }))));
};

/** One fresh tab: the first card, then the search. */
async function oneTab(browser, path, query) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(offline);
    await page.waitForTimeout(1000);
    // The page's longest task from the file to the whole model shown: how
    // long a scroll or a second drop could have waited while the dump was read.
    await page.evaluate(() => {
      window.benchLongest = 0;
      new PerformanceObserver((list) => {
        for (const task of list.getEntries()) window.benchLongest = Math.max(window.benchLongest, task.duration);
      }).observe({ type: 'longtask' });
    });
    await page.setInputFiles('#file', path);
    await page.waitForFunction(() => document.getElementById('cards').dataset.complete === 'true', null, { polling: 2, timeout: 120_000 });
    const steps = { ...await page.evaluate(marks), longest: await page.evaluate(() => window.benchLongest) };
    // As a person finds a tile: "/", the name typed (30 ms a key), Enter.
    await page.keyboard.press('/');
    await page.keyboard.type(query, { delay: 30 });
    const find = await page.evaluate(enterMs);
    if (!find.pinned) throw new Error(`the search for ${query} pinned no tile (${find.status})`);
    return { steps, find: find.ms };
  } finally {
    await context.close();
  }
}

/** A renderer process's anonymous resident memory, in KB (Linux). */
const anonKb = (pid) => Number(/RssAnon:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

/** The tab's memory: its renderer's anonymous RSS before the dump and
 * after the whole model is shown (and a garbage collection), in KB. */
async function tabMemory(path) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(offline);
    await page.waitForTimeout(1500);
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
    const before = new Map(renderers.map((pid) => [pid, anonKb(pid)]));
    await page.setInputFiles('#file', path);
    await page.waitForFunction(() => document.getElementById('cards').dataset.complete === 'true', null, { polling: 5, timeout: 120_000 });
    await page.waitForTimeout(1000);
    const session = await page.context().newCDPSession(page);
    await session.send('HeapProfiler.collectGarbage');
    await page.waitForTimeout(500);
    // The tab's renderer: the one the dump grew.
    const grown = renderers.map((pid) => ({ pid, before: before.get(pid), after: anonKb(pid) }))
      .sort((a, b) => (b.after - b.before) - (a.after - a.before))[0];
    return { beforeKb: grown.before, afterKb: grown.after };
  } finally {
    await browser.close();
  }
}

/**
 * The 50 MB rows: `tabs` fresh tabs (first card and search), then the
 * memory in one more. `query`: a tile name whose first match is in a
 * closed card.
 */
export async function bigDumpBench(path, query, tabs = 3) {
  const browser = await launchChromium();
  const samples = [];
  try {
    for (let i = 0; i < tabs; i++) samples.push(await oneTab(browser, path, query));
  } finally {
    await browser.close();
  }
  return { samples, memory: await tabMemory(path) };
}
