// Copies the builds tests/fixtures/compiler-e2d0f78/ holds out of the
// compiler's own output (README.md here says how it is printed):
//   node tools/compiler-corpus/fixtures.mjs [LEAN] [WHOLE]
// LEAN (default ../shared/corpus/compiler-wide): a build a folder, one dump
// and FOOTPRINT.txt each (lean.mjs writes it); every program SELECTION.tsv
// names is copied under each planner into wide/, with its SUMMARY.tsv rows.
// WHOLE (default ../shared/corpus/compiler): builds with every pass dump;
// those WHOLE names below are copied into whole/, with the passes it names
// (before, at and after AllocateMemoryAddr).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'tests', 'fixtures', 'compiler-e2d0f78');
const PLANNERS = ['pypto', 'dsa', 'ptoas'];
/** Whole builds and the passes kept of each: a default, a DSA and a ptoas
 * build of one program, the DSA build whose online update hands bytes over
 * across branches, the ptoas build codegen refuses (two slots of one pipe
 * live at once); and qwen3_decode's AllocateMemoryAddr dump as another
 * compile numbered its inlining (beside wide/'s own). */
const KEY_PASSES = ['frontend', 'InitMemRef', 'MemoryReuse', 'AllocateMemoryAddr', 'Simplify', 'MaterializeValidShapeSymbols'];
export const WHOLE = [
  ...['matmul', 'matmul_dsa', 'matmul_ptoas', 'paged_attention_dsa', 'multibuf_colive_ptoas'].map((build) => ({ build, passes: KEY_PASSES })),
  { build: 'qwen3_decode', passes: ['AllocateMemoryAddr'] },
];

/** The programs SELECTION.tsv names, with why each is there. */
export function selection() {
  return readFileSync(join(fixtures, 'SELECTION.tsv'), 'utf8').split('\n').slice(1).filter(Boolean)
    .map((line) => { const [program, reason] = line.split('\t'); return { program, reason }; });
}

function copyWide(lean) {
  const out = join(fixtures, 'wide');
  rmSync(out, { recursive: true, force: true });
  const wanted = new Set();
  for (const { program } of selection()) {
    for (const planner of PLANNERS) {
      const build = `${program}__${planner}`;
      const from = join(lean, build);
      if (!existsSync(from)) throw new Error(`${from}: not in ${lean}`);
      mkdirSync(join(out, build), { recursive: true });
      for (const name of readdirSync(from)) copyFileSync(join(from, name), join(out, build, name));
      wanted.add(`${program}\t${planner}`);
    }
  }
  const summary = readFileSync(join(lean, 'SUMMARY.tsv'), 'utf8').split('\n');
  const rows = summary.slice(1).filter((line) => wanted.has(line.split('\t').slice(0, 2).join('\t')));
  writeFileSync(join(out, 'SUMMARY.tsv'), [summary[0], ...rows, ''].join('\n'));
  return wanted.size;
}

function copyWhole(whole) {
  const out = join(fixtures, 'whole');
  rmSync(out, { recursive: true, force: true });
  let files = 0;
  for (const { build, passes } of WHOLE) {
    mkdirSync(join(out, build), { recursive: true });
    for (const name of readdirSync(join(whole, build))) {
      const pass = name === 'FOOTPRINT.txt' ? 'FOOTPRINT' : name.replace(/^\d+_(after_)?/, '').replace(/\.py$/, '');
      if (pass !== 'FOOTPRINT' && !passes.includes(pass)) continue;
      copyFileSync(join(whole, build, name), join(out, build, name));
      files++;
    }
  }
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const lean = process.argv[2] ?? join(root, '..', 'shared', 'corpus', 'compiler-wide');
  const whole = process.argv[3] ?? join(root, '..', 'shared', 'corpus', 'compiler');
  console.log(`${copyWide(lean)} builds -> ${join(fixtures, 'wide')}`);
  console.log(`${copyWhole(whole)} files of ${WHOLE.length} whole builds -> ${join(fixtures, 'whole')}`);
}
