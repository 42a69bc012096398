// The lean form of the compiler's builds (what ../shared/corpus/compiler-wide
// and tests/fixtures/compiler-e2d0f78/wide hold): per build folder of
// run_all.py, the one dump a gate reads (the core's choice, as the command
// line makes it for a build folder: the AllocateMemoryAddr dump, or the
// last one of a ptoas build or of a compile that stopped) and FOOTPRINT.txt;
// and SUMMARY.tsv, a row per build. As the published corpus does, a
// parametrised case's `Class:param` is written `Class.param` (every file
// system holds it), and the pypto tree's path, which the compiler prints
// in an external kernel's `external_source=`, is made relative to it.
//   node tools/compiler-corpus/lean.mjs DUMPS OUT [PYPTO_SRC]
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chooseInFolder } from '../../web/engine/core.js';
import { loadCore } from '../load-core.mjs';

/** What a build's STATUS and dumps say of its compile (SUMMARY.tsv). */
function compileStatus(dir, planner, kept, allocated) {
  const status = existsSync(join(dir, 'STATUS')) ? readFileSync(join(dir, 'STATUS'), 'utf8').trim() : '';
  if (!kept) return `no-dumps:${status.split(' ').slice(2).join(' ').slice(0, 60)}`;
  const compiled = status.startsWith('rc=0') ? 'compiled' : 'raised';
  return compiled + (!allocated && planner !== 'ptoas' ? '/no-AMA-dump' : '');
}

/** The dump's text with the pypto tree's path (`src`) made relative. */
function relativeToTree(text, src) {
  return src ? text.split(`${src.replace(/\/$/, '')}/`).join('') : text;
}

export async function lean(dumps, out, src = null) {
  const core = await loadCore();
  mkdirSync(out, { recursive: true });
  const rows = [];
  for (const build of readdirSync(dumps).filter((n) => n.includes('__')).sort()) {
    const dir = join(dumps, build);
    const names = readdirSync(dir);
    const choice = chooseInFolder(core, names);
    const kept = names[choice.dump ?? choice.last ?? -1];
    const name = build.replaceAll(':', '.');
    mkdirSync(join(out, name), { recursive: true });
    if (kept) writeFileSync(join(out, name, kept), relativeToTree(readFileSync(join(dir, kept), 'utf8'), src));
    const footprint = existsSync(join(dir, 'FOOTPRINT.txt')) ? readFileSync(join(dir, 'FOOTPRINT.txt'), 'utf8') : '';
    writeFileSync(join(out, name, 'FOOTPRINT.txt'), footprint);
    const [program, planner] = [name.slice(0, name.lastIndexOf('__')), name.slice(name.lastIndexOf('__') + 2)];
    const item = existsSync(join(dir, 'ITEM.json')) ? JSON.parse(readFileSync(join(dir, 'ITEM.json'), 'utf8')) : {};
    const allocated = names.some((n) => n.endsWith('_after_AllocateMemoryAddr.py'));
    rows.push([program, planner, item.file ?? '-', compileStatus(dir, planner, kept, allocated), kept ?? '-',
      String(footprint.split('\n').filter(Boolean).length)].join('\t'));
  }
  writeFileSync(join(out, 'SUMMARY.tsv'), ['case\tplanner\tprogram_path\tcompile_status\tkept_dump\tfootprint_lines', ...rows, ''].join('\n'));
  return rows.length;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [dumps, out, src] = process.argv.slice(2);
  if (!dumps || !out) {
    console.error('usage: node tools/compiler-corpus/lean.mjs DUMPS OUT [PYPTO_SRC]');
    process.exit(2);
  }
  console.log(`${await lean(dumps, out, src)} builds -> ${out}`);
}
