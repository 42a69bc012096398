// The upstream tool this project replaces (pypto's python/pypto/tools/
// memory_map.py), timed on the same dumps as ours so the bench can print
// both. pypto is a C++ extension that does not install here, so the script
// runs against a stand-in for the two modules it imports
// (tools/upstream/pypto/), fed our core's backend table.
//
//   MEMORY_MAP_UPSTREAM=/path/to/memory_map.py node tools/upstream.mjs FILE...
//
// The script reads its page template from templates/ beside itself, so that
// folder must sit next to the file MEMORY_MAP_UPSTREAM names.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const standIn = join(here, 'upstream');
const TEMPLATE = join('templates', 'memory_map.html');
const PLACEHOLDER_PREFIX = 'const DATA = ';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

/** Our core's backends as JSON, from a child Node: loading the core is
 * async, and a child keeps upstreamTool() synchronous for its callers. */
function backendsJson() {
  const url = (p) => pathToFileURL(join(here, p)).href;
  const code = `const { loadCore } = await import(${JSON.stringify(url('load-core.mjs'))});
const { listBackends } = await import(${JSON.stringify(url('../web/engine/core.js'))});
process.stdout.write(JSON.stringify(listBackends(await loadCore())));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`listing our backends (is the core built? npm run build): ${r.stderr}`);
  return r.stdout;
}

const hasPython = () => spawnSync('python3', ['--version']).status === 0;

let tool; // undefined: not looked for yet; null: not available

/**
 * The upstream script ready to run, or null when MEMORY_MAP_UPSTREAM is
 * unset, names no file with templates/ beside it, or there is no python3.
 * Script and template are copied into a temp folder laid out as the script
 * expects, so a checkout is read once and never written to.
 * @returns {{ script: string, env: Record<string, string> } | null}
 */
export function upstreamTool() {
  if (tool !== undefined) return tool;
  const source = process.env.MEMORY_MAP_UPSTREAM;
  if (!source || !existsSync(source) || !existsSync(join(dirname(source), TEMPLATE)) || !hasPython()) return (tool = null);
  const dir = mkdtempSync(join(tmpdir(), 'memory-map-upstream-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true })); // the pages it wrote are big
  mkdirSync(join(dir, 'templates'));
  copyFileSync(source, join(dir, 'memory_map.py'));
  copyFileSync(join(dirname(source), TEMPLATE), join(dir, TEMPLATE));
  writeFileSync(join(dir, 'backends.json'), backendsJson());
  const env = {
    PYTHONPATH: standIn,
    MEMORY_MAP_BACKENDS: join(dir, 'backends.json'),
    PYTHONDONTWRITEBYTECODE: '1', // no __pycache__ left in our tree
  };
  return (tool = { script: join(dir, 'memory_map.py'), env });
}

/** One run under GNU time: { ms, rssKb } or { error }. */
function runOnce({ script, env }, dump, page, timeoutMs) {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'python3', script, dump, '-o', page],
    { env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  const lines = r.stderr.trim().split('\n');
  if (r.error) return { error: r.error.code === 'ETIMEDOUT' ? `timed out after ${timeoutMs} ms` : r.error.message };
  if (r.status !== 0) {
    // The script's own message, without its "error: " and GNU time's lines.
    const said = lines.slice(0, -1).filter((l) => !l.startsWith('Command exited with'));
    return { error: said.join('\n').replace(/^error: /, '') || `exit ${r.status}` };
  }
  return { ms, rssKb: Number(lines.pop()) };
}

/** How many functions the page's embedded model holds (a sanity check
 * that the run did the work, to compare with ours). */
function functionCount(page) {
  const html = readFileSync(page, 'utf8');
  const start = html.indexOf(PLACEHOLDER_PREFIX) + PLACEHOLDER_PREFIX.length;
  const end = html.indexOf(';\n', start); // json.dumps writes no raw newline
  return JSON.parse(html.slice(start, end)).functions.length;
}

/**
 * Times the upstream tool writing the page of `dump`: 1 + `runs` runs, the
 * first dropped (it fills the page cache and Python's bytecode cache).
 * @returns {{ ms: number, spread: string, rssKb: number, functions: number }
 *   | { error: string }} ms the median, spread 'min–max' ms, rssKb the peak
 *   over all runs, functions in the page's model
 */
export function timeUpstream(dump, runs = 3, { timeoutMs = 300_000 } = {}) {
  const t = upstreamTool();
  if (!t) return { error: 'upstream tool not available (set MEMORY_MAP_UPSTREAM to a memory_map.py)' };
  const page = join(dirname(t.script), `${basename(dump)}.html`);
  const results = [];
  for (let i = 0; i <= runs; i++) {
    const r = runOnce(t, dump, page, timeoutMs);
    if (r.error) return r;
    results.push(r);
  }
  const warm = results.slice(1).map((r) => r.ms);
  return { ms: median(warm), spread: spread(warm), rssKb: Math.max(...results.map((r) => r.rssKb)), functions: functionCount(page) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (!files.length || !upstreamTool()) {
    console.error('usage: MEMORY_MAP_UPSTREAM=/path/to/memory_map.py node tools/upstream.mjs FILE...\n' +
      '(the script needs templates/memory_map.html beside it, and python3)');
    process.exit(2);
  }
  for (const file of files) {
    const r = timeUpstream(file, Number(process.env.RUNS) || 3);
    console.log(r.error ? `${file}: error: ${r.error}`
      : `${file}: ${r.ms.toFixed(0)} ms (${r.spread}), peak RSS ${(r.rssKb / 1024).toFixed(0)} MB, ${r.functions} functions`);
  }
}
