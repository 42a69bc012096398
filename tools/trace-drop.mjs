// Where a first drop's time goes, from Chromium's own trace: a fresh tab
// opens the offline page, idles 1 s, opens a dump with the file input (as
// "Open dump…" does), and the trace from then to the first card painted is
// summed by thread (the page's main thread, the worker) and by what ran:
// script by function name, JSON.parse, garbage collection, WebAssembly
// compilation, style, layout, paint. For docs/bench.md's "Where the time
// goes"; run it on a build before and after a change.
//   node tools/trace-drop.mjs DUMP [PAGE.html]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { launchChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [dump, html = join(root, 'dist', 'memory-map.html')] = process.argv.slice(2);
if (!dump) {
  console.error('usage: node tools/trace-drop.mjs DUMP [PAGE.html]');
  process.exit(2);
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing',
  'disabled-by-default-v8.gc', 'v8.wasm'];

/** Trace events of one drop, and the page's own marks. */
async function traceDrop() {
  const dir = mkdtempSync(join(tmpdir(), 'mm-trace-'));
  const path = join(dir, 'trace.json');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(pathToFileURL(resolve(html)).href);
    await page.waitForTimeout(1000);
    await browser.startTracing(page, { path, categories: CATEGORIES });
    await page.evaluate(() => performance.mark('mm-drop'));
    await page.setInputFiles('#file', resolve(dump));
    await page.waitForFunction(() => window.memoryMapStats.firstCardPainted, null, { polling: 5, timeout: 60_000 });
    const marks = await page.evaluate(() => {
      const s = window.memoryMapStats;
      return { total: s.firstCardPainted - s.received, core: s.coreMs };
    });
    await page.evaluate(() => performance.mark('mm-painted'));
    await browser.stopTracing();
    return { events: JSON.parse(readFileSync(path, 'utf8')).traceEvents, marks };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What an event is, for the sums: a named kind, or null (not counted). */
function kindOf(e) {
  const n = e.name;
  if (n === 'FunctionCall' || n === 'EvaluateScript' || n === 'v8.callFunction') return null; // their children say what ran
  if (/^(MajorGC|MinorGC|V8\.GC|BlinkGC)/.test(n)) return 'garbage collection';
  if (/wasm/i.test(n) && /compile|Compile/.test(n)) return 'WebAssembly compile';
  if (n === 'v8.parseOnBackground' || n === 'v8.compile' || n === 'V8.CompileCode' || n === 'v8.compileModule') return 'JS compile';
  if (n === 'ParseHTML') return 'HTML';
  if (n === 'UpdateLayoutTree' || n === 'RecalculateStyles') return 'style';
  if (n === 'Layout') return 'layout';
  if (n === 'Paint' || n === 'PaintImage' || n === 'Layerize' || n === 'UpdateLayer' || n === 'PrePaint' || n === 'Commit') return 'paint';
  if (n === 'RunTask' || n === 'ThreadControllerImpl::RunTask') return 'task';
  return null;
}

function summarise({ events, marks }) {
  const start = events.find((e) => e.name === 'mm-drop')?.ts;
  const end = events.find((e) => e.name === 'mm-painted')?.ts;
  const threads = new Map();
  for (const e of events) {
    if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const sums = new Map(); // thread -> kind -> ms
  const add = (thread, kind, ms) => {
    if (!sums.has(thread)) sums.set(thread, new Map());
    sums.get(thread).set(kind, (sums.get(thread).get(kind) ?? 0) + ms);
  };
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || (start && e.ts < start) || (end && e.ts > end)) continue;
    const thread = threads.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
    if (!/CrRendererMain|DedicatedWorker/.test(thread)) continue;
    const kind = kindOf(e);
    if (kind) add(thread, kind, e.dur / 1000);
    // Script, by the function V8 profiled it under (JSON.parse is a call).
    if (e.name === 'FunctionCall' && e.args?.data?.functionName) add(thread, `script: ${e.args.data.functionName}`, e.dur / 1000);
  }
  console.log(`first card painted after ${marks.total.toFixed(0)} ms (page's marks; core ${marks.core.toFixed(0)} ms)`);
  for (const [thread, kinds] of sums) {
    console.log(`\n${thread}`);
    for (const [kind, ms] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${kind}`);
  }
}

summarise(await traceDrop());
