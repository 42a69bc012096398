// Runs the C-level tests (tests/c/test_*.c) as built by `npm run build`:
// the release build and the clang AddressSanitizer + UBSan build.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { root, run } from './helpers.mjs';

const names = readdirSync(join(root, 'tests', 'c')).filter((f) => /^test_.*\.c$/.test(f)).map((f) => f.slice(0, -2));

for (const build of ['native', 'asan']) {
  for (const name of names) {
    test(`${name} (${build})`, () => {
      const result = run([], { command: join(root, 'build', build, name) });
      assert.equal(result.status, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /Sanitizer|runtime error/);
      assert.match(result.stdout, /all checks passed/);
    });
  }
}
