// The fast path (wasm/syntax/fast/) must never change what the core says: the
// core built without it (build/native/memory-map-general) gives the
// same bytes as the usual one on every fixture and on edited copies of the
// real dump (test_skim and the fuzzer compare the two in-process too).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { corpus, generalCli as general, root, run } from '../support/helpers.mjs';

const usual = join(root, 'build', 'native', 'memory-map');

function fixtures() {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(py|bin)$/.test(e.name)) files.push(path);
    }
  };
  walk(join(root, 'tests', 'fixtures'));
  return files;
}

/** Copies of the real dump with one line edited, by a fixed seed. */
function edited(count) {
  const text = readFileSync(join(corpus, 'real', 'decode_fwd__41_after_MaterializeRuntimeScopes.py'), 'utf8');
  const lines = text.split('\n');
  const edits = ['(', ')', ' ', ',', '#', 'pl.', '"', '[0]', ' = 1', 'if ', '\\', '\t'];
  const dir = mkdtempSync(join(tmpdir(), 'mm-fast-'));
  let seed = 17;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: count }, (_, i) => {
    const copy = [...lines];
    const at = next() % copy.length;
    const col = next() % (copy[at].length + 1);
    copy[at] = copy[at].slice(0, col) + edits[next() % edits.length] + copy[at].slice(col);
    const path = join(dir, `edited_${i}.py`);
    writeFileSync(path, copy.join('\n'));
    return path;
  });
}

test('the core without its fast path says the same, byte for byte', () => {
  for (const path of [...fixtures(), ...edited(40)]) {
    for (const flags of [['--json'], ['--check', '--summary']]) {
      const a = run([path, ...flags], { command: usual });
      const b = run([path, ...flags], { command: general });
      assert.deepEqual([b.status, b.stdout, b.stderr], [a.status, a.stdout, a.stderr], `${path} ${flags.join(' ')}`);
    }
  }
});

test('the page\'s warm-up dump is read as a real dump is: both cores agree, no notes, the shapes a real dump has', async () => {
  const { warmUpDump } = await import('../../web/engine/warm-up.js');
  const dir = mkdtempSync(join(tmpdir(), 'mm-warm-'));
  // Its two sizes (worker.js), and one kernel: the shapes, counted.
  for (const [functions, loops] of [[4, 6], [60, 4], [2, 1]]) {
    const path = join(dir, `warm_${functions}.py`);
    writeFileSync(path, warmUpDump(functions, loops));
    const a = run([path, '--json'], { command: usual });
    const b = run([path, '--json'], { command: general });
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.stdout, a.stdout);
    const model = JSON.parse(a.stdout);
    assert.deepEqual(model.notes, []);
    assert.equal(model.functions.length, functions);
    assert.deepEqual(model.functions.map((fn) => fn.ftype), Array.from({ length: functions }, (_, f) => (f % 2 ? 'AIV' : 'AIC')));
    // Each kernel: its loops' tiles, its reserved window, and a conflict (the anomalies' path).
    for (const fn of model.functions) {
      assert.ok(fn.boxes.filter((b) => b.conflict).length >= 2, fn.name);
      assert.ok(fn.boxes.length > 3 * loops, fn.name);
    }
  }
  // Every other signature wrapped, a parameter a line, as the printer wraps long ones.
  const text = new TextDecoder().decode(warmUpDump(2, 1));
  assert.match(text, /def warm_0\(self, x__ssa_v0: /);
  assert.match(text, /def warm_1\(\n {8}self,\n {8}x__ssa_v0: /);
});
