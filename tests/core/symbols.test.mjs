// The core library's names: what it exports is the public header's API
// (`mm_<type>_<verb>`, declared in include/memory_map.h) or internal and
// marked so (`mm__...`). Anything else would collide in a program that links
// the core, and says nothing about where it lives.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { root } from '../support/helpers.mjs';

const libraries = ['libmm_core.a', 'libmm_core_faults.a'].map((name) =>
  join(root, 'build', 'native', name),
);

/** The functions include/memory_map.h declares. */
function declaredInHeader() {
  const header = readFileSync(join(root, 'include', 'memory_map.h'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  return new Set([...header.matchAll(/\b(mm_[a-z0-9_]+)\s*\(/g)].map((m) => m[1]));
}

/** The symbols a library defines for other objects to use. */
function externalSymbols(library) {
  const out = execFileSync('nm', ['-g', '--defined-only', library], { encoding: 'utf8' });
  const names = out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length === 3)
    .map((fields) => fields[2]);
  return new Set(names);
}

for (const library of libraries) {
  test(`${library.slice(root.length + 1)} exports only the header's API and mm__ names`, () => {
    assert.ok(existsSync(library), `${library} is built by tools/build.sh`);
    const declared = declaredInHeader();
    const symbols = externalSymbols(library);
    assert.ok(symbols.size > declared.size, 'nm listed the library');
    const stray = [...symbols].filter((name) => !name.startsWith('mm__') && !declared.has(name));
    assert.deepEqual(stray, [], 'external names neither public nor mm__');
    const missing = [...declared].filter((name) => !symbols.has(name));
    assert.deepEqual(missing, [], 'declared in the header but not defined');
  });
}
