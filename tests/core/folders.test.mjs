// The command line and the page read a folder the same way: for every
// folder of the test fixtures, and a tree made to try the rule's edges
// (a case's depth, hidden folders, a case inside a case, a case without
// dumps, dumps named after their case), the page's reading (web/model/folder.js
// over the core's mm_cases_json and mm_folder_json, in Node) finds the
// cases the CLI finds, in its order, and opens the same dump of each, or
// refuses the same ones.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { after, test } from 'node:test';

import { casesInTree, chooseInFolder } from '../../web/engine/core.js';
import { casesOf, pathsOf, poolNames, resolveCase } from '../../web/model/folder.js';
import { corpus, loadCore, root, run } from '../support/helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'mm-folders-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The folder's files as a drop gives them: paths from the folder's own name. */
function entriesOf(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ path: relative(dirname(dir), path), file: path });
    }
  };
  walk(dir);
  return out;
}

/** What the CLI makes of `dir`: each case's name and the dump it reads, or null where it reads none. */
function cliReading(dir) {
  const out = join(work, 'reading.json');
  // A threshold on no space: a folder's reading as a build's JSON, for one case too.
  rmSync(out, { force: true });
  const r = run([dir, '--check', '--min-headroom', 'NoSuchSpace=0', '--json', '-o', out]);
  if (!existsSync(out)) return { refused: r.stderr || String(r.status) };
  const { cases } = JSON.parse(readFileSync(out, 'utf8'));
  return { cases: cases.map((c) => ({ name: c.name, dump: c.error?.status === 'unreadable' ? null : c.dump })) };
}

/** What the page makes of `dir`. */
function pageReading(core, dir) {
  const entries = entriesOf(dir);
  const { build, cases } = casesOf(entries, casesInTree(core, pathsOf(entries)));
  const read = cases.map((c) => {
    const found = resolveCase(c, chooseInFolder(core, poolNames(c), { folder: c.name }));
    return { name: build ? c.name : basename(dir), dump: found.error ? null : found.dump.file };
  });
  return { build, cases: read };
}

const dump = readFileSync(join(corpus, 'real', 'norm_rope.py'), 'utf8');
function put(path, text = dump) {
  mkdirSync(dirname(join(work, path)), { recursive: true });
  writeFileSync(join(work, path), text);
}
// The edges of the rule, in one build.
put('tree/prefixed/decode_fwd__32_after_AllocateMemoryAddr.py');
put('tree/prefixed/decode_fwd__30_after_InitMemRef.py');
put('tree/a/b/deep/passes_dump/12_after_AllocateMemoryAddr.py');
put('tree/a/b/c/too_deep/passes_dump/12_after_AllocateMemoryAddr.py');
put('tree/.hidden/case/passes_dump/12_after_AllocateMemoryAddr.py');
put('tree/outer/passes_dump/12_after_AllocateMemoryAddr.py');
put('tree/outer/inner/passes_dump/13_after_AllocateMemoryAddr.py');
put('tree/no_dumps/ptoas/kernel.pto', 'pto.target_arch = "a2a3"\n');
put('tree/not_a_case/notes_after_.py');
put('tree/not_a_case/x_after_Foo.expected.json', '{}');
put('tree/ten/passes_dump/9_after_AllocateMemoryAddr.py');
put('tree/ten/passes_dump/10_after_AllocateMemoryAddr.py');

function foldersUnder(dir) {
  return [dir, ...readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? foldersUnder(path) : [];
  })];
}

test('the CLI and the page find the same cases and open the same dump in every folder of the fixtures and the edge tree', async () => {
  const core = await loadCore();
  const folders = [...foldersUnder(join(work, 'tree')), ...foldersUnder(join(root, 'tests', 'fixtures'))];
  let builds = 0;
  for (const dir of folders) {
    const cli = cliReading(dir);
    const page = pageReading(core, dir);
    if (cli.refused) {
      assert.deepEqual(page.cases.map((c) => c.dump), [null], `${relative(root, dir)}: the CLI refuses it (${cli.refused.trim()})`);
      continue;
    }
    builds += page.build;
    assert.deepEqual(page.cases, cli.cases, relative(root, dir));
  }
  assert.ok(builds >= 5, `${builds} builds among ${folders.length} folders`);
  // The edges, as the rule says.
  const tree = pageReading(core, join(work, 'tree'));
  assert.deepEqual(tree.cases.map((c) => c.name), ['a/b/deep', 'no_dumps', 'outer', 'prefixed', 'ten']);
  assert.deepEqual(tree.cases.map((c) => c.dump && basename(c.dump)),
    ['12_after_AllocateMemoryAddr.py', null, '12_after_AllocateMemoryAddr.py', 'decode_fwd__32_after_AllocateMemoryAddr.py', '10_after_AllocateMemoryAddr.py']);
});
