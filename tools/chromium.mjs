// Debian's Chromium driven by playwright-core (no browser download), with
// the flags this machine needs: as root, no GPU, and no background network
// (the machine has none; Chromium would keep trying).
// MM_JS_FLAGS passes V8 flags, to look inside a run (e.g.
// --trace-wasm-compilation-times: which functions V8 optimizes when).
import { chromium } from 'playwright-core';

/** Playwright's own --disable-features list. Chromium keeps only the
 * last --disable-features it is given, so ours carries Playwright's too
 * (tests/page/chromium.test.mjs fails when Playwright's grows past it). */
export const PLAYWRIGHT_DISABLED_FEATURES = ['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose',
  'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch', 'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion'];

/** The omnibox's popups, two WebUI pages a new browser loads for its
 * address bar, which headless never shows: 1.7-1.9 s of a core in the
 * first seconds of every launch, while a test or the bench runs. */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  `--disable-features=${DISABLED_FEATURES.join(',')}`];

/** Debian's Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

export const launchChromium = () => chromium.launch({
  executablePath: CHROMIUM,
  args: [...CHROMIUM_ARGS, ...(process.env.MM_JS_FLAGS ? [`--js-flags=${process.env.MM_JS_FLAGS}`] : [])],
});

/** Waits until `page` has painted its first card (window.memoryMapStats),
 * polling in the page every 1 ms: Playwright's waitForFunction made its
 * polling script at the drop, 20-50 ms of the page's thread in a trace.
 * Throws when the page shows a refusal instead, or after 60 s. */
export const untilFirstCard = (page) => page.evaluate(async () => {
  const s = window.memoryMapStats;
  const deadline = performance.now() + 60_000;
  while (!s.firstCardPainted) {
    const refusal = document.querySelector('.message.error:not([hidden])');
    if (refusal) throw new Error(`no card, the page refused: ${refusal.textContent.trim().slice(0, 400)}`);
    if (performance.now() > deadline) throw new Error('no card after 60 s');
    await new Promise((r) => setTimeout(r, 1));
  }
});
