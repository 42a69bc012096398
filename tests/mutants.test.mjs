// A fixed set of mutants of real dumps (#21), each read by the core through
// the fast path and the general parser and by CPython: the same verdict,
// the same error line, the same lifetimes (tests/mutants.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { differences, makeMutants } from './mutants.mjs';

test('300 mutants of real dumps (seed 21): every verdict, error line and lifetime as CPython\'s ast gives it', () => {
  const paths = makeMutants(21, 300);
  assert.equal(paths.length, 300);
  assert.deepEqual(differences(paths), []);
});
