// npm run compiler-oracle [-- FOLDER]: the PyPTO compiler as the oracle.
// FOLDER (default ../shared/corpus/compiler-wide) holds builds the
// compiler printed (tools/compiler-corpus/README.md), each a folder
// `<case>__<planner>/` with its pass dumps and FOOTPRINT.txt, the
// compiler's own per-space footprint. The whole folder goes through the
// command line once, as a CI gate would (`memory-map FOLDER --json`), and
// each build is held to what the compiler knows:
//   - every FOOTPRINT figure equals the map's hwm_with_reserved for its
//     function and space;
//   - a build the compiler placed (an AllocateMemoryAddr dump) is read and
//     raises no check line: the compiler's validator accepted it, so any
//     line is a false alarm, any refusal a placed dump refused;
//   - a ptoas build (memory_planner=PTOAS) is read as placed by ptoas and
//     checked by the least any placement needs;
//   - a program that keeps nothing on chip is read as such.
// Prints the figures by planner and what could not be read; exits 1 when
// any of the above fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'tools', 'memory-map');
export const PLANNERS = ['pypto', 'dsa', 'ptoas'];

/** The FOOTPRINT.txt lines of a build: { func, space, bytes, planner }. */
export function footprintOf(dir) {
  const path = join(dir, 'FOOTPRINT.txt');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('[PYPTO-FOOTPRINT]')).map((line) => {
    const kv = Object.fromEntries(line.split(' ').slice(1).map((p) => p.split('=')));
    return { func: kv.func, space: kv.space, bytes: Number(kv.high_water ?? kv.peak), planner: kv.planner };
  });
}

/** The build's planner, from its folder's name (`<case>__<planner>`). */
export const plannerOf = (name) => PLANNERS.find((p) => name.endsWith(`__${p}`)) ?? 'unknown';

/** The command line's build JSON of `folder` (every case read one at a time). */
export function buildJson(folder, command = cli) {
  const result = spawnSync(command, [folder, '--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`${command} ${folder} --json: exit ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

const blank = () => ({
  builds: 0, read: 0, footprints: 0, equal: 0, placed: 0, checked: 0, falseAlarms: 0, refusedPlaced: 0,
  byLifetime: 0, needsMore: 0, nothingOnChip: 0, notRead: 0,
});

/**
 * Every build of `folder` held to the compiler: { figures (per planner, the
 * counts above), failures (what contradicts the compiler), notRead (cases
 * the map could not read, with why), overCapacity (ptoas builds no
 * placement fits, with the check line) }.
 */
export function oracle(folder, { command = cli } = {}) {
  const build = buildJson(folder, command);
  const figures = Object.fromEntries(PLANNERS.map((p) => [p, blank()]));
  const failures = [];
  const notRead = [];
  const overCapacity = [];
  const rows = new Map();
  for (const row of build.rows) rows.set(`${row.case}\t${row.function}\t${row.space}`, row);
  const problems = new Map();
  for (const p of build.problems) {
    if (!problems.has(p.case)) problems.set(p.case, []);
    problems.get(p.case).push(p);
  }
  for (const c of build.cases) {
    const planner = plannerOf(c.name);
    const f = figures[planner] ?? (figures[planner] = blank());
    const dir = join(folder, c.name);
    const placedByCompiler = readdirSync(dir).some((n) => n.endsWith('_after_AllocateMemoryAddr.py'));
    f.builds++;
    if (c.nothing_on_chip) f.nothingOnChip++;
    if (c.error) {
      f.notRead++;
      notRead.push({ build: c.name, message: c.error.message });
      if (placedByCompiler) failures.push(`${c.name}: a dump AllocateMemoryAddr wrote is refused: ${c.error.message}`);
      if (placedByCompiler) f.refusedPlaced++;
      continue;
    }
    f.read++;
    const lines = (problems.get(c.name) ?? []).filter((p) => p.kind !== 'more');
    if (placedByCompiler) {
      f.placed++;
      f.checked++;
      f.falseAlarms += lines.length;
      for (const p of lines) failures.push(`${c.name}: false alarm on a build the compiler's validator accepted: ${p.text}`);
    } else if (c.placed_by === 'ptoas') {
      f.byLifetime++;
      f.checked++;
      const needs = lines.filter((p) => p.kind === 'needs_more');
      f.needsMore += needs.length;
      for (const p of needs) overCapacity.push({ build: c.name, text: p.text });
      for (const p of lines.filter((l) => l.kind !== 'needs_more')) failures.push(`${c.name}: a ptoas build's check is not its bound: ${p.text}`);
    } else if (!c.nothing_on_chip && planner === 'ptoas') {
      failures.push(`${c.name}: a ptoas build not read as one`);
    }
    for (const fp of footprintOf(dir)) {
      f.footprints++;
      const row = rows.get(`${c.name}\t${fp.func}\t${fp.space}`);
      if (row?.hwm_with_reserved === fp.bytes) f.equal++;
      else failures.push(`${c.name}: ${fp.func} ${fp.space}: the compiler's footprint ${fp.bytes}, the map's ${row ? row.hwm_with_reserved : 'none'}`);
    }
  }
  return { figures, failures, notRead, overCapacity };
}

/** The figures as a table, a planner a row. */
export function report({ figures, failures, notRead, overCapacity }) {
  const columns = [['builds', 'builds'], ['read', 'read'], ['footprints', 'FOOTPRINT lines'], ['equal', 'equal'],
    ['placed', 'placed by the compiler'], ['falseAlarms', 'false alarms'], ['refusedPlaced', 'placed, refused'],
    ['byLifetime', 'placed by ptoas'], ['needsMore', 'ptoas over capacity'], ['nothingOnChip', 'nothing on chip'], ['notRead', 'not read']];
  const table = [['planner', ...columns.map(([, name]) => name)],
    ...Object.entries(figures).filter(([, f]) => f.builds).map(([p, f]) => [p, ...columns.map(([k]) => String(f[k]))])];
  const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const lines = table.map((r) => r.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '));
  if (overCapacity.length) lines.push('', `Placed by ptoas, and no placement fits (${overCapacity.length}):`, ...overCapacity.map((o) => `  ${o.text}`));
  if (notRead.length) lines.push('', `Not read (${notRead.length}):`, ...notRead.map((n) => `  ${n.build}: ${n.message}`));
  if (failures.length) lines.push('', `Contradicting the compiler (${failures.length}):`, ...failures.map((f) => `  ${f}`));
  else lines.push('', 'Every figure equal, no false alarm, no placed dump refused, every ptoas build checked by its bound.');
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const folder = process.argv[2] ?? join(root, '..', 'shared', 'corpus', 'compiler-wide');
  const started = performance.now();
  const result = oracle(folder);
  console.log(report(result));
  console.log(`\n${folder}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = result.failures.length ? 1 : 0;
}
