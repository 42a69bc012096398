// A fixed set of mutants of real, generated and exotic dumps, each read by
// the core through the fast path and the general parser and by an oracle
// written from docs/model.md on CPython's own ast: the same verdict, the
// same error line, the same model (tests/support/mutants.mjs). Where
// MEMORY_MAP_UPSTREAM names the upstream tool, by it too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { asUpstreamConflicts, contract, corpusDumps, root, run } from '../support/helpers.mjs';
import { upstreamTool } from '../../tools/upstream.mjs';
import { differences, makeMutants, readMutants, upstreamDifferences } from '../support/mutants.mjs';

const paths = makeMutants(21, 300);
const read = readMutants(paths);

test('300 mutants (seed 21): every verdict, error line and box as the oracle on CPython\'s ast gives it', () => {
  assert.equal(paths.length, 300);
  assert.deepEqual(differences(read), []);
});

test('the same 300, read by the upstream tool itself: every difference is a departure docs/model.md lists',
  { skip: upstreamTool() ? false : 'MEMORY_MAP_UPSTREAM unset: the upstream tool is not on this machine (tools/upstream.mjs)' }, () => {
    const { explained, unexplained } = upstreamDifferences(read, upstreamTool());
    assert.deepEqual(unexplained, []);
    assert.ok([...explained.values()].reduce((a, b) => a + b, 0) < paths.length / 2, 'most mutants read as upstream reads them');
  });

test('the oracle itself reads the corpus as the upstream tool does: every model on every contract key, every refusal', () => {
  const dumps = corpusDumps();
  const read = spawnSync('python3', [join(root, 'tests', 'oracle', 'model.py'), '--batch'], { input: JSON.stringify(dumps.map((d) => d.dump)), encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(read.status, 0, read.stderr);
  const oracles = JSON.parse(read.stdout);
  let models = 0;
  for (const [i, { name, expected: path, departure }] of dumps.entries()) {
    const expected = JSON.parse(readFileSync(path, 'utf8'));
    if (departure === 'printed' || departure === 'placed') {
      // Read on purpose (docs/model.md §2a, §13): the oracle reads it as the core does.
      const core = JSON.parse(run([dumps[i].dump, '--json']).stdout);
      assert.deepEqual(contract(oracles[i]), contract(core), name);
    } else if (departure === 'handoff') {
      assert.deepEqual(contract(asUpstreamConflicts(oracles[i])), contract(expected), name);
      models++;
    } else if (expected.error) {
      assert.equal(oracles[i].error, expected.error, name);
      if (expected.line) assert.equal(oracles[i].line, expected.line, name);
      // Ours also refuses a function whose bases all start at 0 beside slice views (docs/model.md §13).
      for (const fn of expected.functions ?? []) assert.ok(oracles[i].functions.includes(fn), `${name}: ${fn}`);
    } else {
      assert.deepEqual(contract(oracles[i]), contract(expected), name);
      models++;
    }
  }
  assert.ok(models >= 40, `${models} models`);
});
