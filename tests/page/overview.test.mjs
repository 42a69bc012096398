// The overview's pure parts (web/views/overview.js, web/model/folder.js casesOf): the
// cases a dropped build holds, as the CLI finds them, and the table's
// order and filters against the core's own build JSON.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';

import { casesInTree, chooseInFolder } from '../../web/engine/core.js';
import { casesOf, pathsOf, poolNames, resolveCase } from '../../web/model/folder.js';
import { filterOverview, mergeCases, sortOverview } from '../../web/views/overview.js';
import { makeBuild } from '../support/build-fixture.mjs';
import { loadCore, run } from '../support/helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'mm-overview-'));
after(() => rmSync(work, { recursive: true, force: true }));
const build = join(work, 'build_output');
makeBuild(build, { count: 12 });

/** The folder's files as the page gets them: '/'-joined paths from the folder's own name. */
function entriesOf(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ path: relative(join(dir, '..'), path), file: path });
    }
  };
  walk(dir);
  return out;
}

test('casesOf finds the cases the CLI finds, in its order, each resolving to the same dump', async () => {
  const cli = JSON.parse(run([build, '--json']).stdout);
  const core = await loadCore();
  const casesIn = (entries) => casesOf(entries, casesInTree(core, pathsOf(entries)));
  const { build: isBuild, cases } = casesIn(entriesOf(build));
  assert.ok(isBuild);
  assert.deepEqual(cases.map((c) => c.name), cli.cases.map((c) => c.name));
  for (const [i, c] of cases.entries()) {
    const found = resolveCase(c, chooseInFolder(core, poolNames(c), { folder: c.name }));
    if (cli.cases[i].error?.status === 'unreadable') assert.ok(found.error, c.name);
    else assert.equal(found.dump.file, cli.cases[i].dump, c.name);
  }
  assert.equal(casesIn(entriesOf(join(build, 'decode_fwd'))).build, false, 'a case is no build');
  assert.equal(casesIn(entriesOf(join(build, 'decode_fwd', 'passes_dump'))).build, false, 'nor is its passes_dump/');
});

test('mergeCases of each case alone gives the rows of the whole build, in its order', () => {
  const cli = JSON.parse(run([build, '--json']).stdout);
  const out = join(work, 'one.json');
  // A threshold on no space: the build's way for one case, its JSON the same as the page's call.
  const perCase = cli.cases.filter((c) => !c.error).map((c) => {
    run([join(build, c.name), '--check', '--min-headroom', 'NoSuchSpace=0', '--json', '-o', out]);
    const alone = JSON.parse(readFileSync(out, 'utf8'));
    alone.cases[0].name = c.name; // alone, a case is named by its own folder
    for (const row of alone.rows) row.case = c.name;
    return alone;
  });
  const merged = mergeCases(perCase);
  const key = (r) => `${r.case} ${r.function} ${r.space} ${r.hwm_with_reserved} ${r.headroom}`;
  assert.deepEqual(merged.rows.map(key), cli.rows.map(key));
  assert.ok(merged.rows.length > 50);
});

test('sortOverview keeps rows without a figure last either way, and ties in their order', () => {
  const rows = [{ id: 1, headroom: 5 }, { id: 2, headroom: null }, { id: 3, headroom: -1 }, { id: 4, headroom: 5 }];
  assert.deepEqual(sortOverview(rows, 'headroom', false).map((r) => r.id), [3, 1, 4, 2]);
  assert.deepEqual(sortOverview(rows, 'headroom', true).map((r) => r.id), [1, 4, 3, 2]);
  const named = [{ case: 'b' }, { case: 'a' }, { case: 'b' }].map((r, id) => ({ ...r, id }));
  assert.deepEqual(sortOverview(named, 'case', false).map((r) => r.id), [1, 0, 2]);
});

test('filterOverview keeps a type, a space and a name in the case or function', () => {
  const rows = [{ case: 'Decode', function: 'k', ftype: 'AIC', space: 'Mat' }, { case: 'x', function: 'decode_k', ftype: 'AIV', space: 'Vec' },
    { case: 'y', function: 'z', ftype: 'AIV', space: 'Vec' }];
  assert.equal(filterOverview(rows, { text: 'decode' }).length, 2);
  assert.equal(filterOverview(rows, { ftype: 'AIV', space: 'Vec' }).length, 2);
  assert.equal(filterOverview(rows, { text: 'DECODE', ftype: 'AIV' }).length, 1);
  assert.equal(filterOverview(rows, {}).length, 3);
});
