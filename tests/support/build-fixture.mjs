// A generated build_output/ folder: the real decode_fwd case and cases
// made of the corpus's generated dumps (some on the Ascend950 by their
// .pto, some without one), two nested a level deeper, a case compiled
// without dumps, a case whose dump is refused, and a folder that is not a
// case. For the build's tests (CLI and page).
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { corpus } from './helpers.mjs';

const generated = join(corpus, 'generated');

/** The generated dumps the upstream tool draws (not refused). */
export function drawnGenerated() {
  return readdirSync(generated).filter((n) => n.endsWith('.py')).sort()
    .filter((n) => !('error' in JSON.parse(readFileSync(join(generated, n.replace(/\.py$/, '.expected.json')), 'utf8'))));
}

const pto = (arch) => `module attributes {pto.target_arch = "${arch}"} {\n}\n`;

/**
 * Writes a build of `count` readable cases (decode_fwd first) into `dir`,
 * plus, unless `clean`, the unread ones and a folder that is no case.
 * Returns the readable cases' folders by name.
 */
export function makeBuild(dir, { count = 32, clean = false } = {}) {
  const cases = new Map();
  const decode = join(dir, 'decode_fwd');
  cpSync(join(corpus, 'cases', 'decode_fwd'), decode, { recursive: true });
  cases.set('decode_fwd', decode);
  const dumps = drawnGenerated();
  for (let i = 0; cases.size < count; i++) {
    const source = dumps[i % dumps.length];
    const name = `${i < 2 ? 'nested/' : ''}gen_${String(i).padStart(2, '0')}`;
    const folder = join(dir, name);
    mkdirSync(join(folder, 'passes_dump'), { recursive: true });
    // A later pass beside it: the folder resolves to the AllocateMemoryAddr one.
    writeFileSync(join(folder, 'passes_dump', '32_after_AllocateMemoryAddr.py'), readFileSync(join(generated, source)));
    writeFileSync(join(folder, 'passes_dump', '40_after_Simplify.py'), 'not read\n');
    if (i % 3 === 0) {
      mkdirSync(join(folder, 'ptoas'));
      writeFileSync(join(folder, 'ptoas', 'kernel.pto'), pto(i % 2 ? 'a2a3' : 'a5'));
    }
    cases.set(name, folder);
  }
  if (!clean) {
    mkdirSync(join(dir, 'no_dumps', 'ptoas'), { recursive: true });
    writeFileSync(join(dir, 'no_dumps', 'ptoas', 'kernel.pto'), pto('a2a3'));
    mkdirSync(join(dir, 'refused', 'passes_dump'), { recursive: true });
    writeFileSync(join(dir, 'refused', 'passes_dump', '32_after_AllocateMemoryAddr.py'), 'def f(:\n');
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs', 'build.log'), 'not a case\n');
  }
  return cases;
}
