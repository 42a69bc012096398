// The core's folders are its stages, in the order a dump goes through
// them (README, "How it is built"): a file may include its own stage's
// headers and those of the stages before it, never one after it. The CLI
// and the bench see the public header only, and the page's WebAssembly
// exports are the header's boundary section.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';

import { root } from '../support/helpers.mjs';

const core = join(root, 'wasm');
/** The stages, first to last; the boundary (wasm/ itself) comes last. */
const STAGES = ['base', 'rules', 'syntax', 'syntax/fast', 'model', 'output', 'compare', 'build', ''];

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.[ch]$/.test(name) ? [path] : [];
  });
}

const stageOf = (path) => STAGES.indexOf(relative(core, path).split('/').slice(0, -1).join('/'));
const includes = (path) =>
  [...readFileSync(path, 'utf8').matchAll(/^#include "([^"]+)"/gm)].map((m) => m[1]);

test('every file of the core sits in a stage folder, the boundary alone on top', () => {
  const strays = filesUnder(core).filter((path) =>
    stageOf(path) < 0 || (stageOf(path) === STAGES.length - 1 && !/^boundary\.[ch]$/.test(relative(core, path))));
  assert.deepEqual(strays.map((path) => relative(root, path)), []);
});

test('no stage includes a header of a later stage', () => {
  const upward = [];
  for (const path of filesUnder(core)) {
    for (const header of includes(path)) {
      if (header === 'memory_map.h') continue;
      const target = join(core, header);
      assert.ok(statSync(target, { throwIfNoEntry: false }), `${relative(root, path)} includes ${header}, which is not in wasm/`);
      if (stageOf(target) > stageOf(path)) upward.push(`${relative(root, path)} -> ${header}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('the pipeline sits above its stages: only pipeline.c and the boundary include pipeline.h', () => {
  const users = filesUnder(core)
    .filter((path) => includes(path).includes('model/pipeline.h'))
    .map((path) => relative(core, path))
    .sort();
  assert.deepEqual(users, ['boundary.c', 'model/pipeline.c']);
});

test('the CLI and the bench include the public header, no header of the core', () => {
  const clients = [...readdirSync(join(root, 'tools')).filter((n) => /\.[ch]$/.test(n)).map((n) => join(root, 'tools', n)),
    join(root, 'tests', 'bench', 'bench_core.c')];
  for (const path of clients) {
    const reaching = includes(path).filter((header) => header !== 'memory_map.h' && header.includes('/'));
    assert.deepEqual(reaching, [], relative(root, path));
  }
});

test('the WebAssembly exports are the header boundary section\'s functions', () => {
  const header = readFileSync(join(root, 'include', 'memory_map.h'), 'utf8');
  const section = header.slice(header.indexOf('One-call boundary */'), header.indexOf('end of the boundary'));
  const declared = [...section.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/\b(mm_[a-z_]+)\s*\(/g)].map((m) => `_${m[1]}`);
  assert.ok(declared.includes('_mm_analyze_json') && declared.includes('_mm_free'), declared.join());
  const link = readFileSync(join(root, 'build', 'wasm', 'CMakeFiles', 'memory_map_core.dir', 'link.txt'), 'utf8');
  const exported = link.match(/EXPORTED_FUNCTIONS=(\S+)/)[1].split(',');
  assert.deepEqual(exported.filter((name) => /^_mm_[a-z]/.test(name)).sort(), declared.sort());
});

test('model/model.h is the model\'s data: it declares no function', () => {
  const text = readFileSync(join(core, 'model', 'model.h'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  assert.deepEqual([...text.matchAll(/^[a-z][\w\s*]*\b(mm_\w+)\s*\(/gm)].map((m) => m[1]), []);
});

test('the page writes mm_options and mm_svg_options at the offsets the core asserts', () => {
  const asserted = readFileSync(join(core, 'boundary.c'), 'utf8');
  const page = readFileSync(join(root, 'web', 'engine', 'heap.js'), 'utf8');
  const layout = (name) => Object.fromEntries([...page.match(new RegExp(`const ${name} = \\{([^}]*)\\}`))[1]
    .matchAll(/(\w+): (\d+)/g)].map((m) => [m[1], Number(m[2])]));
  const fields = {
    mm_options: [layout('OPTIONS'), { backend: 'backend', ptoText: 'pto_text', ptoLen: 'pto_len', withoutSource: 'without_source', lifetimes: 'lifetimes_only', planner: 'planner' }],
    mm_svg_options: [layout('SVG_OPTIONS'), { lastLine: 'last_line', axisUsed: 'axis_used', hidden: 'hidden', zoom: 'zoom', mapWidth: 'map_width', dark: 'dark', hideProfile: 'hide_profile' }],
  };
  for (const [struct, [offsets, names]] of Object.entries(fields)) {
    assert.match(asserted, new RegExp(`sizeof\\(${struct}\\) == ${offsets.bytes}\\b`), `${struct} is ${offsets.bytes} bytes`);
    for (const [js, c] of Object.entries(names))
      assert.match(asserted, new RegExp(`offsetof\\(${struct}, ${c}\\) == ${offsets[js]}\\b`), `${struct}.${c} at ${offsets[js]}`);
  }
});

/** Strongly connected groups (more than one node) of `edges` (a Map of
 * node to the Set of nodes it reaches), each sorted: Tarjan's. */
function circles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

const add = (edges, from, to) => {
  if (from === to) return;
  if (!edges.has(from)) edges.set(from, new Set());
  edges.get(from).add(to);
};
const cFiles = () => [...filesUnder(core), ...readdirSync(join(root, 'tools')).filter((n) => /\.[ch]$/.test(n)).map((n) => join(root, 'tools', n))];
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"/g, ' ');

test('no circles among the C files: a module (a .c with its .h) never includes or calls back one that includes or calls it', () => {
  const moduleOf = (path) => relative(root, path).replace(/\.[ch]$/, '');
  const edges = new Map();
  const sources = new Map(cFiles().map((path) => [path, withoutComments(readFileSync(path, 'utf8'))]));
  for (const path of sources.keys()) {
    for (const header of includes(path)) {
      const target = [join(core, header), join(dirname(path), header), join(root, 'include', header)].find((p) => statSync(p, { throwIfNoEntry: false }));
      if (target) add(edges, moduleOf(path), moduleOf(target));
    }
  }
  // Calls: a name defined (not static) in one .c file and used in another.
  const definedIn = new Map();
  for (const [path, text] of sources) {
    if (!path.endsWith('.c')) continue;
    for (const m of text.matchAll(/^(?!static)[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;{]*\)\s*\{/gm)) if (!definedIn.has(m[1])) definedIn.set(m[1], path);
  }
  for (const [path, text] of sources) {
    if (!path.endsWith('.c')) continue;
    for (const name of new Set(text.match(/\b[A-Za-z_]\w*\b/g))) {
      const home = definedIn.get(name);
      if (home && home !== path) add(edges, moduleOf(path), moduleOf(home));
    }
  }
  // The parser's own recursion stays: an f-string holds expressions, and an
  // expression may be an f-string (as in CPython's grammar).
  const grammar = ['wasm/syntax/parse_expr', 'wasm/syntax/parse_fstring'].join();
  assert.deepEqual(circles(edges).filter((group) => group.join() !== grammar), []);
});

/** The page's rooms, lowest first: a module imports from its own room or
 * one before it. `model` and `engine` are pure (run in Node and in the
 * worker): they import only each other and touch no DOM. */
const ROOMS = ['model', 'engine', 'base', 'map', 'card', 'views', 'page'];
const PURE = new Set(['model', 'engine']);
const webModules = () => readdirSync(join(root, 'web'), { recursive: true }).filter((p) => p.endsWith('.js')).map((p) => join(root, 'web', p));
const roomOf = (path) => relative(join(root, 'web'), path).split('/')[0];

test('no circles among the page\'s modules', () => {
  const edges = new Map();
  for (const path of webModules()) {
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+\.js)['"]/g)) add(edges, relative(root, path), relative(root, join(dirname(path), m[1])));
  }
  assert.ok(edges.size > 30, `${edges.size} modules import others`);
  assert.deepEqual(circles(edges), []);
});


test('the page\'s modules sit in rooms, and import only from their own room or one below it', () => {
  const strays = webModules().filter((path) => !ROOMS.includes(roomOf(path)) || relative(join(root, 'web'), path).split('/').length !== 2);
  assert.deepEqual(strays.map((p) => relative(root, p)), []);
  const upward = [];
  for (const path of webModules()) {
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+\.js)['"]/g)) {
      const target = roomOf(join(dirname(path), m[1]));
      const room = roomOf(path);
      const allowed = PURE.has(room) ? PURE.has(target) : ROOMS.indexOf(target) <= ROOMS.indexOf(room);
      if (!allowed) upward.push(`${relative(root, path)} -> ${m[1]}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('the pure rooms touch no DOM: no document, no element, no frame, no page location', () => {
  const touching = [];
  for (const path of webModules().filter((p) => PURE.has(roomOf(p)))) {
    const code = withoutComments(readFileSync(path, 'utf8')).replace(/'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g, ' ');
    const uses = code.match(/\b(document|HTMLElement|requestAnimationFrame|getComputedStyle|localStorage|history|location)\b/g);
    if (uses) touching.push(`${relative(root, path)}: ${[...new Set(uses)].join(', ')}`);
  }
  assert.deepEqual(touching, []);
});

test('each numbered section of docs/model.md names its tests, and each named suite exists', () => {
  const model = readFileSync(join(root, 'docs', 'model.md'), 'utf8');
  const sections = model.split(/^## /m).slice(1).filter((s) => /^\d+[a-z]?\. /.test(s));
  assert.ok(sections.length >= 20, `${sections.length} sections`);
  for (const section of sections) {
    const named = [...section.matchAll(/^Tests: (.*)$/gm)].flatMap((m) => [...m[1].matchAll(/`(tests\/[\w/-]+\.test\.mjs)`/g)].map((n) => n[1]));
    assert.ok(named.length, `§${section.split(' ')[0]} names no test`);
    for (const path of named) assert.ok(statSync(join(root, path), { throwIfNoEntry: false }), `§${section.split(' ')[0]}: ${path}`);
  }
});
