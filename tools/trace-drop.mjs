// Where a first drop's time goes, from Chromium's own trace: a fresh tab
// opens the offline page, idles 1 s, a dump (or two, compared) is opened
// from disk (the Open dump… button), and the trace from then to the first card
// painted (the page's own mark) is
// summed by thread (the page's main thread, the worker) and by what ran:
// script by function name, JSON.parse, garbage collection, WebAssembly
// compilation, style, layout, paint. For docs/bench.md's "Where the time
// goes"; run it on a build before and after a change.
//   node tools/trace-drop.mjs [--cold] DUMP [NEWER_DUMP] [PAGE.html]
// --cold: the dump is opened as soon as the page has loaded, not after 1 s.
// --timeline: each thread's tasks of 2 ms or more in order, from the drop
// (what waited for what), after the sums.
// MM_TRACE_CATS=blink,fonts adds trace categories (there: the font
// lookups and text shaping inside a layout).
// MM_TRACE_KEEP=FILE keeps the trace (for chrome://tracing or Perfetto)
// and the main thread's profile (FILE.profile). Names in the profile are
// the bundle's: `MM_KEEP_NAMES=1 node tools/bundle.mjs` keeps them readable.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { launchChromium, untilFirstCard } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cold = process.argv.includes('--cold');
const timeline = process.argv.includes('--timeline');
const args = process.argv.slice(2).filter((a) => a !== '--cold' && a !== '--timeline');
const html = args.find((a) => a.endsWith('.html')) ?? join(root, 'dist', 'memory-map.html');
const dumps = args.filter((a) => !a.endsWith('.html'));
if (!dumps.length || dumps.length > 2) {
  console.error('usage: node tools/trace-drop.mjs [--cold] DUMP [NEWER_DUMP] [PAGE.html]');
  process.exit(2);
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing',
  'disabled-by-default-v8.gc', 'v8.wasm', ...(process.env.MM_TRACE_CATS ?? '').split(',').filter(Boolean)];

/** Trace events of one drop, and the page's own marks. */
async function traceDrop() {
  const dir = mkdtempSync(join(tmpdir(), 'mm-trace-'));
  const path = join(dir, 'trace.json');
  const browser = await launchChromium();
  try {
    // Files on disk, as a user opens them (named so that the first is the old side).
    const named = dumps.map((d, i) => {
      const copy = join(dir, `${i + 1}_after_Pass.py`);
      copyFileSync(resolve(d), copy);
      return copy;
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // The drop's mark, and the main thread's script sampled (which
    // functions the time went to: JSON.parse shows as "parse", the trace
    // alone cannot tell), both set up before the page loads: with the
    // trace on, each step of the driver's after the load took ~100 ms,
    // and a cold drop came a second late.
    await page.addInitScript(() => document.addEventListener('change', (e) => {
      if (e.target.id === 'file') performance.mark('mm-drop');
    }, { capture: true }));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    if (cold) {
      await browser.startTracing(page, { path, categories: CATEGORIES });
      await cdp.send('Profiler.start');
    }
    await page.goto(pathToFileURL(resolve(html)).href);
    if (!cold) {
      await page.locator('#file').count(); // Playwright's own script, made before the trace
      await page.waitForTimeout(1000);
      await browser.startTracing(page, { path, categories: CATEGORIES });
      await cdp.send('Profiler.start');
    }
    await page.setInputFiles('#file', named);
    await untilFirstCard(page);
    const marks = await page.evaluate(() => {
      const s = window.memoryMapStats;
      return { total: s.firstCardPainted - s.received, core: s.coreMs };
    });
    const { profile } = await cdp.send('Profiler.stop');
    await browser.stopTracing();
    if (process.env.MM_TRACE_KEEP) {
      copyFileSync(path, process.env.MM_TRACE_KEEP);
      writeFileSync(`${process.env.MM_TRACE_KEEP}.profile`, JSON.stringify(profile));
    }
    return { events: JSON.parse(readFileSync(path, 'utf8')).traceEvents, marks, profile };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What an event is, for the sums: a named kind, or null (not counted). */
function kindOf(e) {
  const n = e.name;
  if (n === 'FunctionCall' || n === 'EvaluateScript' || n === 'v8.callFunction') return null; // their children say what ran
  if (n === 'MajorGC' || n === 'MinorGC') return 'garbage collection';
  if (/wasm/i.test(n) && /compile|Compile/.test(n)) return 'WebAssembly compile';
  if (n === 'v8.parseOnBackground' || n === 'v8.compile' || n === 'V8.CompileCode' || n === 'v8.compileModule') return 'JS compile';
  if (n === 'ParseHTML') return 'HTML';
  if (n === 'UpdateLayoutTree' || n === 'RecalculateStyles') return 'style';
  if (n === 'Layout') return 'layout';
  if (n === 'Paint' || n === 'PaintImage' || n === 'Layerize' || n === 'UpdateLayer' || n === 'PrePaint' || n === 'Commit') return 'paint';
  if (n === 'RunTask' || n === 'ThreadControllerImpl::RunTask') return 'task';
  return null;
}

/** Self time by function, in ms, from a CPU profile, of the samples
 * from `start` to `end` (the trace's clock, µs). */
function selfTimes(profile, start, end) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const times = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < start || at > end) return;
    const { functionName, url } = byId.get(id).callFrame;
    const name = functionName || (url ? '(anonymous)' : '(native)');
    if (name === '(idle)' || name === '(program)') return;
    times.set(name, (times.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...times].sort((a, b) => b[1] - a[1]);
}

function summarise({ events, marks, profile }) {
  const start = events.find((e) => e.name === 'mm-drop')?.ts;
  const end = start + marks.total * 1000; // the first card painted
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
    if (e.ph !== 'X' || !e.dur || e.ts < start || e.ts > end) continue;
    // By thread id too: a comparison's two workers have one name.
    const thread = `${threads.get(`${e.pid}:${e.tid}`) ?? e.pid} ${e.tid}`;
    if (!/CrRendererMain|DedicatedWorker/.test(thread)) continue;
    const kind = kindOf(e);
    if (kind) add(thread, kind, e.dur / 1000);
    // Script, by the function V8 profiled it under (JSON.parse is a call).
    if (e.name === 'FunctionCall' && e.args?.data?.functionName) add(thread, `script: ${e.args.data.functionName}`, e.dur / 1000);
  }
  console.log(`first card painted after ${marks.total.toFixed(0)} ms (page's marks; core ${marks.core.toFixed(0)} ms); ` +
    'the trace summed from the drop to then');
  console.log('\nmain thread script, self time (sampled):');
  for (const [name, ms] of selfTimes(profile, start, end).slice(0, 10)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
  for (const [thread, kinds] of sums) {
    console.log(`\n${thread}`);
    for (const [kind, ms] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${kind}`);
  }
  if (timeline) printTimeline(events, threads, start, end);
}

/** Each thread's top-level tasks of 2 ms or more, from the drop to the
 * first card, with what each spent most on. */
function printTimeline(events, threads, start, end) {
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || e.ts + e.dur < start || e.ts > end) continue;
    const thread = `${threads.get(`${e.pid}:${e.tid}`) ?? e.pid} ${e.tid}`;
    if (!/CrRendererMain|DedicatedWorker/.test(thread)) continue;
    if (!byThread.has(thread)) byThread.set(thread, []);
    byThread.get(thread).push(e);
  }
  const ms = (t) => ((t - start) / 1000).toFixed(1).padStart(7);
  for (const [thread, list] of byThread) {
    console.log(`\ntimeline, ${thread} (ms from the drop)`);
    const tasks = list.filter((e) => kindOf(e) === 'task' && e.dur >= 2000).sort((a, b) => a.ts - b.ts);
    for (const task of tasks) {
      const inside = new Map();
      for (const e of list) {
        if (e === task || e.ts < task.ts || e.ts + e.dur > task.ts + task.dur) continue;
        const kind = kindOf(e) ?? (e.name === 'FunctionCall' && e.args?.data?.functionName ? `script: ${e.args.data.functionName}` : e.name);
        if (kind && kind !== 'task') inside.set(kind, (inside.get(kind) ?? 0) + e.dur / 1000);
      }
      const top = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
      console.log(`  ${ms(task.ts)} -> ${ms(task.ts + task.dur)}  ${(task.dur / 1000).toFixed(1).padStart(6)} ms  ${top}`);
    }
  }
}

summarise(await traceDrop());
