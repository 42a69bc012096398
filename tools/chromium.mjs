// Debian's Chromium driven by playwright-core (no browser download), with
// the flags this machine needs: as root, no GPU, and no background network
// (the machine has none; Chromium would keep trying).
// MM_JS_FLAGS passes V8 flags, to look inside a run (e.g.
// --trace-wasm-compilation-times: which functions V8 optimizes when).
import { chromium } from 'playwright-core';

export const launchChromium = () => chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic', ...(process.env.MM_JS_FLAGS ? [`--js-flags=${process.env.MM_JS_FLAGS}`] : [])],
});
