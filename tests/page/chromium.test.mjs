// The Chromium every page test and the bench drive (tools/chromium.mjs):
// Playwright's own disabled features kept, and no omnibox popup pages
// loading beside the tab under test.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { chromium } from 'playwright-core';

import { CHROMIUM, CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES, launchChromium } from '../../tools/chromium.mjs';

const featuresIn = (args) => args.filter((a) => a.startsWith('--disable-features=')).map((a) => a.split('=')[1].split(','));

test('one --disable-features of ours, carrying every feature Playwright disables', async () => {
  // What Playwright passes when it is given no --disable-features of ours:
  // the list ours is made from must be that one.
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const spawned = server.process().spawnargs;
  await server.close();
  const [playwrights] = featuresIn(spawned);
  assert.deepEqual([...playwrights].sort(), [...PLAYWRIGHT_DISABLED_FEATURES].sort());
  assert.equal(featuresIn(CHROMIUM_ARGS).length, 1);
});

test('a launched browser loads the tab it is asked for and no omnibox popup', async () => {
  const browser = await launchChromium();
  try {
    await browser.newPage();
    const { targetInfos } = await (await browser.newBrowserCDPSession()).send('Target.getTargets');
    assert.deepEqual(targetInfos.map((t) => `${t.type} ${t.url}`), ['page about:blank']);
  } finally {
    await browser.close();
  }
});
