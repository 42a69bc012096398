// Shared by the node:test suites: paths, the core module, running the CLI,
// and small builders for hand-written dumps.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadCore as loadNodeCore } from '../../tools/load-core.mjs';
import { analyzeDump } from '../../web/engine/core.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const corpus = join(root, 'tests', 'fixtures', 'corpus');
export const cli = join(root, 'tools', 'memory-map');
export const asanCli = join(root, 'build', 'asan', 'memory-map');

let corePromise;
/** The Emscripten build of the core, instantiated once per test file. */
export function loadCore() {
  corePromise ??= loadNodeCore();
  return corePromise;
}

/** Which reader the rule tests go through: the fast path first (as the
 * page and the CLI do), or the general parser alone (MM_GENERAL_PARSER=1,
 * set by tests/core/general-parser.test.mjs): every rule must hold both ways. */
export const generalParser = process.env.MM_GENERAL_PARSER === '1';

/** Models `text` with the WebAssembly core; throws DumpError on refusal. */
export async function model(text, options = {}) {
  const core = await loadCore();
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return analyzeDump(core, bytes, { generalParser, ...options });
}

/** The CLI without its fast path (syntax/no_fast_path.c in its place). */
export const generalCli = join(root, 'build', 'native', 'memory-map-general');

/** Runs a CLI and returns status and output; `input` goes to its standard
 * input. The default is tools/memory-map, or under MM_GENERAL_PARSER=1
 * the build without the fast path, so that the CLI checks of the suites
 * tests/core/general-parser.test.mjs runs again read the general way too. */
export function run(args, { command = generalParser ? generalCli : cli, cwd = root, env = {}, input } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    input,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The CLI's page for `dump`, written into a fresh folder; returns its path. */
export function cliPage(dump) {
  const dir = mkdtempSync(join(tmpdir(), 'mm-cli-page-'));
  const copy = join(dir, dump.split('/').pop());
  copyFileSync(dump, copy);
  const result = run([copy]);
  assert.equal(result.status, 0, result.stderr);
  const out = copy.replace(/\.py$/, '.memory_map.html');
  assert.equal(result.stdout, `wrote ${out}\n`);
  return out;
}

/** A test for each C-level test program (tests/c/test_*.c) in
 * build/<build>/: it exits 0, says all its checks passed, and no
 * sanitizer speaks. */
export function cTests(build) {
  const names = readdirSync(join(root, 'tests', 'c')).filter((f) => /^test_.*\.c$/.test(f)).map((f) => f.slice(0, -2));
  assert.ok(names.length > 0);
  for (const name of names) {
    test(`${name} (${build})`, () => {
      const result = run([], { command: join(root, 'build', build, name) });
      assert.equal(result.status, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /Sanitizer|runtime error/);
      assert.match(result.stdout, /all checks passed/);
    });
  }
}

/** Corpus dumps where this model departs from the upstream tool on
 * purpose (docs/model.md, "Where the core departs"), and how: `printed`,
 * a dump upstream refuses as not Python that the model reads (§2a);
 * `handoff`, boxes of two bases sharing bytes only in the statement where
 * one takes over the other's bytes, which upstream calls a conflict (§7);
 * `placed`, a dump AllocateMemoryAddr wrote whose tiles all sit at 0,
 * which upstream refuses as not allocated and the model draws (§13: the
 * compiler's DSA planner writes such dumps). The tests hold these to
 * what the model does instead. */
export const DEPARTURES = new Map([
  ['real/qwen3_32b_decode__13_after_AllocateMemoryAddr.py', 'printed'],
  ['generated/gen1_001__36_after_AllocateMemoryAddr.py', 'handoff'],
  ['generated/gen1_013__32_after_AllocateMemoryAddr.py', 'handoff'],
  ['generated/gen1_038__32_after_AllocateMemoryAddr.py', 'handoff'],
  ['generated/gen1_039__36_after_AllocateMemoryAddr.py', 'placed'],
]);

/** A model with each in-place handoff marked a conflict, as the upstream
 * tool marks it: the rest must then be upstream's. */
export function asUpstreamConflicts(m) {
  return {
    ...m,
    functions: m.functions.map((fn) => ({
      ...fn,
      boxes: fn.boxes.map((b) => (b.in_place_to !== undefined || b.in_place_from !== undefined ? { ...b, conflict: true } : b)),
    })),
  };
}

/** Every `<name>.py` in the corpus that has a `<name>.expected.json`
 * (`departure`: how the model departs there from the upstream tool). */
export function corpusDumps() {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.py')) {
        const expected = path.slice(0, -3) + '.expected.json';
        try {
          statSync(expected);
          const name = path.slice(corpus.length + 1);
          found.push({ dump: path, expected, name, departure: DEPARTURES.get(name) });
        } catch {
          /* a dump inside a case folder: checked through the folder */
        }
      }
    }
  };
  walk(corpus);
  return found;
}

const BOX_KEYS = ['name', 'space', 'base', 'offset', 'size', 'shape', 'dtype', 'op', 'start', 'end',
  'aliases', 'view', 'conflict'];
const SPACE_KEYS = ['space', 'hwm', 'limit', 'tiles', 'bases'];
const FN_KEYS = ['name', 'ftype', 'src_start', 'src_end', 'source'];

const pick = (object, keys) => Object.fromEntries(keys.map((k) => [k, object[k]]));

/** The model restricted to the keys of model.md's contract. */
export function contract(m) {
  return {
    dump: m.dump,
    pass_name: m.pass_name,
    backend: pick(m.backend, ['name', 'arch', 'detected']),
    functions: m.functions.map((f) => ({
      ...pick(f, FN_KEYS),
      spaces: f.spaces.map((s) => pick(s, SPACE_KEYS)),
      boxes: f.boxes.map((b) => pick(b, BOX_KEYS)),
    })),
  };
}

// ------------------------------------------------ hand-written dumps

/** A tile annotation: `pl.Tile[[16, 64], pl.FP32, pl.MemRef(base, off, size), pl.Mem.Space]`. */
export function tileType(space, base, offset, size, { shape = '[16, 64]', dtype = 'pl.FP32' } = {}) {
  return `pl.Tile[${shape}, ${dtype}, pl.MemRef(${base}, pl.const(${offset}, pl.INT64), ${size}), pl.Mem.${space}]`;
}

/**
 * A dump with one compute function whose body is `lines` (each indented
 * by 8 spaces here). Line 1 is the comment, the decorator is line 6 and
 * the first body line is line 8.
 */
export function dumpWith(lines, { type = 'AIV', params = '', name = 'kernel' } = {}) {
  return [
    '# pypto.program: test',
    'import pypto.language as pl',
    '',
    '@pl.program',
    'class Test:',
    `    @pl.function(type=pl.FunctionType.${type})`,
    `    def ${name}(self${params}):`,
    ...lines.map((l) => (l ? '        ' + l : l)),
    '',
  ].join('\n');
}

/** Line number in a dumpWith() dump of body line `index` (0-based). */
export const bodyLine = (index) => 8 + index;

/** The boxes of the first function, by name. */
export function boxesByName(m, fn = 0) {
  return Object.fromEntries(m.functions[fn].boxes.map((b) => [b.name, b]));
}
