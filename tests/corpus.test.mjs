// The corpus of real and generated dumps (tests/fixtures/corpus): the CLI's
// --json equals the upstream tool's model on every key of the contract;
// refusals exit 1 with a message; the Emscripten module and the native
// sanitizer build agree with the CLI.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';

import { asanCli, contract, corpus, corpusDumps, loadCore, run } from './helpers.mjs';
import { analyzeDump } from '../web/core.js';

const dumps = corpusDumps();
const expectedOf = (entry) => JSON.parse(readFileSync(entry.expected, 'utf8'));

test('the corpus holds the dumps the issue names', () => {
  // 40 generated, 8 real; a silently shrunken fixture copy would pass everything else.
  assert.equal(dumps.length, 48);
  assert.ok(dumps.some((d) => d.name.includes('decode_fwd__41')));
});

/** What the CLI prints for a refusal must match the upstream refusal. */
function assertRefusal(result, expected) {
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /^error: /);
  assert.equal(result.stdout, '', 'nothing is written on a refusal');
  if (expected.error === 'syntax') assert.match(result.stderr, new RegExp(`:${expected.line}: `));
  if (expected.error === 'no_tiles' || expected.error === 'unallocated')
    assert.match(result.stderr, /AllocateMemoryAddr/);
  for (const fn of expected.functions || []) assert.ok(result.stderr.includes(fn), `names ${fn}`);
}

describe('CLI --json on every corpus dump (WASI build under Node)', () => {
  for (const entry of dumps) {
    test(entry.name, () => {
      const expected = expectedOf(entry);
      const result = run([entry.dump, '--json']);
      if (expected.error) return assertRefusal(result, expected);
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(contract(JSON.parse(result.stdout)), expected);
    });
  }
});

test('a build_output/<case>/ folder resolves to its AllocateMemoryAddr dump and detects the backend', () => {
  const result = run([join(corpus, 'cases', 'decode_fwd'), '--json']);
  assert.equal(result.status, 0, result.stderr);
  const got = JSON.parse(result.stdout);
  assert.equal(got.dump, '32_after_AllocateMemoryAddr.py');
  assert.deepEqual(got.backend, { name: 'Ascend910B', arch: 'a2a3', detected: true });
  const expected = JSON.parse(readFileSync(join(corpus, 'cases', 'decode_fwd.expected.json'), 'utf8'));
  assert.deepEqual(contract(got), expected);
});

describe('the Emscripten module returns the same model as the CLI', () => {
  for (const entry of dumps) {
    test(entry.name, async () => {
      const core = await loadCore();
      const bytes = readFileSync(entry.dump);
      const cliResult = run([entry.dump, '--json']);
      let fromModule;
      try {
        fromModule = analyzeDump(core, bytes, { dumpName: basename(entry.dump) });
      } catch (error) {
        assert.equal(cliResult.status, 1, 'the module refused what the CLI accepted');
        assert.equal(error.kind, expectedOf(entry).error);
        assert.ok(cliResult.stderr.includes(error.message));
        return;
      }
      assert.equal(cliResult.status, 0);
      assert.deepEqual(fromModule, JSON.parse(cliResult.stdout));
    });
  }
});

describe('native build with AddressSanitizer and UBSan: clean on the corpus', () => {
  for (const entry of [...dumps, { name: 'cases/decode_fwd', dump: join(corpus, 'cases', 'decode_fwd') }]) {
    test(entry.name, () => {
      const native = run([entry.dump, '--json'], {
        command: asanCli,
        env: { ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0', UBSAN_OPTIONS: 'print_stacktrace=1' },
      });
      assert.doesNotMatch(native.stderr, /Sanitizer|runtime error|LeakSanitizer/);
      const wasi = run([entry.dump, '--json']);
      assert.equal(native.status, wasi.status);
      assert.equal(native.stdout, wasi.stdout);
    });
  }
});
