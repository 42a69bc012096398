// tools/memory-map runs the native build when it is built and the WASI
// build under Node otherwise (or with MEMORY_MAP_WASI=1): both must say the
// same, byte for byte, on every corpus dump, every hostile input and every
// fuzz regression, in every output (JSON, reports, page, errors, codes).
// On every input the WASI build runs in this process (tests/support/wasi.mjs, one
// compiled module); the page, --diff's page, relative paths and --help go
// through tools/memory-map as a person runs it, a process per run, and a
// few inputs check that both ways of running the WASI build agree.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { catalogue } from '../support/catalogue.mjs';
import { corpus, dumpWith, root, run, tileType } from '../support/helpers.mjs';
import { runWasi } from '../support/wasi.mjs';

const wasi = { MEMORY_MAP_WASI: '1' };
const native = join(root, 'build', 'native', 'memory-map');
const work = mkdtempSync(join(tmpdir(), 'mm-builds-'));

/** Every file to compare: the corpus, the catalogue's small inputs, the fuzz regressions. */
let found;
function inputs() {
  if (found) return found;
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) walk(path);
      else if (name.name.endsWith('.py')) files.push(path);
    }
  };
  walk(corpus);
  for (const [i, entry] of catalogue.entries()) {
    if (entry.big) continue; // the same code; the corpus and small inputs say it
    const path = join(work, `catalogue_${i}.py`);
    writeFileSync(path, entry.make());
    files.push(path);
  }
  const fuzz = join(root, 'tests', 'fixtures', 'fuzz');
  for (const name of readdirSync(fuzz)) if (name.endsWith('.bin')) files.push(join(fuzz, name));
  return (found = files);
}

/** Status, stdout and stderr, to compare whole. */
const said = (r) => [r.status, r.stdout, r.stderr];

describe('the native and the WASI command lines say the same, byte for byte', () => {
  test('tools/memory-map runs the native build when built, WASI when asked', () => {
    const ps = (env) => run(['--help'], { env }).stdout;
    assert.equal(ps({}), run(['--help'], { command: native }).stdout);
    assert.equal(ps(wasi), ps({}));
  });

  for (const [flags, label] of [[['--json'], 'JSON'], [['--check', '--summary'], 'reports']]) {
    test(`${label} on ${inputs().length} inputs`, () => {
      for (const path of inputs()) {
        const a = run([path, ...flags], { command: native });
        const b = runWasi([path, ...flags]);
        assert.deepEqual(said(b), said(a), `${path} ${flags.join(' ')}`);
      }
    });
  }

  test('the WASI build in this process says what tools/memory-map says under WASI', () => {
    const fuzz = join(root, 'tests', 'fixtures', 'fuzz');
    const some = [
      join(corpus, 'real', 'vector_division.py'), // a model
      join(corpus, 'real', 'pa3__12_after_AllocateMemoryAddr.py'), // a refusal
      join(fuzz, readdirSync(fuzz).filter((n) => n.endsWith('.bin')).sort()[0]), // bytes
    ];
    for (const path of some) {
      for (const flags of [['--json'], ['--check', '--summary']]) {
        assert.deepEqual(said(runWasi([path, ...flags])), said(run([path, ...flags], { env: wasi })), `${path} ${flags.join(' ')}`);
      }
    }
  });

  test('the page for a real dump and a case folder', () => {
    for (const path of [join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py'), join(corpus, 'cases', 'decode_fwd')]) {
      const a = join(work, 'native.html');
      const b = join(work, 'wasi.html');
      assert.equal(run([path, '-o', a], { command: native }).status, 0);
      assert.equal(run([path, '-o', b], { env: wasi }).status, 0);
      assert.ok(readFileSync(a).equals(readFileSync(b)), path);
    }
  });

  test('--diff: the report, the check, the JSON and the page, on the case\'s passes', () => {
    const passes = join(corpus, 'cases', 'decode_fwd', 'passes_dump');
    const names = readdirSync(passes).filter((n) => /^(32|35|40|41)_after_/.test(n)).sort();
    assert.equal(names.length, 4);
    for (let i = 0; i + 1 < names.length; i++) {
      const pair = ['--diff', join(passes, names[i]), join(passes, names[i + 1])];
      for (const flags of [[], ['--check'], ['--json']]) {
        const a = run([...pair, ...flags], { command: native });
        const b = runWasi([...pair, ...flags]);
        assert.deepEqual(said(b), said(a), `${names[i]} ${flags}`);
      }
    }
    // The page, as a person makes it: a process each.
    const pair = ['--diff', join(passes, names[0]), join(passes, names[3])];
    const a = join(work, 'native-diff.html');
    const b = join(work, 'wasi-diff.html');
    assert.equal(run([...pair, '-o', a], { command: native }).status, 0);
    assert.equal(run([...pair, '-o', b], { env: wasi }).status, 0);
    assert.ok(readFileSync(a).equals(readFileSync(b)));
  });

  test('relative paths: named as given in messages, --check lines and wrote', () => {
    const conflict = join(work, 'conflict.py');
    writeFileSync(
      conflict,
      dumpWith([
        `a: ${tileType('Vec', 'mem_vec_1', 0, 512)} = pl.tile.create()`,
        `b: ${tileType('Vec', 'mem_vec_2', 256, 512)} = pl.tile.create()`,
        'return a, b',
      ]),
    );
    const cases = [
      ['conflict.py', '--check'],
      ['missing.py'],
      ['conflict.py', '-o', 'page.html'],
      ['.', '-p', 'NoSuchPass'],
    ];
    for (const args of cases) {
      const a = run(args, { command: native, cwd: work });
      const b = run(args, { env: wasi, cwd: work });
      assert.deepEqual(said(b), said(a), args.join(' '));
      assert.ok(!`${a.stdout}${a.stderr}`.includes(work), `${args.join(' ')} names the path as given`);
    }
  });
});
