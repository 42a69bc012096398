// Builds the page's two forms from web/ and the Emscripten module:
//   dist/site/            the static site (relative URLs only): index.html,
//                         app.js and style.css with their source maps,
//                         examples/
//   dist/memory-map.html  one file, everything inline, for file:// (and the
//                         template of the CLI's pages)
// esbuild joins the ES modules into one classic script (file:// forbids
// module imports) and minifies it and the CSS; inline scripts and styles
// are allowed by their sha256 in a strict Content Security Policy.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { buildSync } from 'esbuild';

import { analyzeDumpJson } from '../web/engine/core.js';
import { rehearsalDump } from '../web/engine/warm-up.js';
import { loadCore } from './load-core.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const dist = join(root, 'dist');
/** The one version (package.json's), which the core reports too (mm_generator). */
const VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const corpus = join(root, 'tests', 'fixtures', 'corpus');

const read = (path) => readFileSync(path, 'utf8');

// The browsers the page is tested in, and what their ESR and stable
// releases of the last two years run.
const TARGET = ['chrome110', 'firefox115', 'safari16'];

/**
 * `entry` (in web/) and what it imports, as one minified classic script
 * (or style sheet, for a .css). With `map`, the source map too, named
 * `map` and linked from the last line: { code, map }.
 */
export function bundle(entry, { map = null } = {}) {
  const result = buildSync({
    entryPoints: [join(web, entry)],
    bundle: true,
    // MM_KEEP_NAMES=1: function names kept, for a profile (tools/trace-drop.mjs).
    minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: !process.env.MM_KEEP_NAMES,
    format: entry.endsWith('.css') ? undefined : 'iife',
    target: TARGET,
    legalComments: 'none',
    sourcemap: map ? 'external' : false,
    outfile: join(dist, 'site', map ?? entry).replace(/\.map$/, ''),
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles.find((f) => !f.path.endsWith('.map')).text.trimEnd();
  const mapFile = result.outputFiles.find((f) => f.path.endsWith('.map'));
  if (!map) return { code, map: null };
  const link = entry.endsWith('.css') ? `/*# sourceMappingURL=${map} */` : `//# sourceMappingURL=${map}`;
  return { code: `${code}\n${link}\n`, map: mapFile.text };
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** JSON that cannot end the element it sits in. */
const scriptSafeJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')
  .replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function assertEmbeddable(name, text) {
  if (/<\/script|<!--/i.test(text)) throw new Error(`${name} contains "</script" or "<!--" and cannot be inlined`);
  return text;
}

function csp({ scripts, styles, connect }) {
  return [
    "default-src 'none'",
    `script-src ${scripts} 'wasm-unsafe-eval'`,
    'worker-src blob:',
    `style-src ${styles}`,
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

function page({ cspValue, style, script, worker, rehearsal, examples, buttons }) {
  const template = read(join(web, 'index.html'));
  const parts = {
    '<!--CSP-->': `<meta http-equiv="Content-Security-Policy" content="${cspValue}">`,
    '<!--STYLE-->': style,
    '<!--SCRIPT-->': script,
    '<!--WORKER-->': `<script type="text/plain" id="worker-source">${worker}</script>`,
    '<!--REHEARSAL-->': `<script type="application/json" id="rehearsal">${rehearsal}</script>`,
    '<!--EXAMPLES-->': `<script type="application/json" id="examples">${scriptSafeJson(examples)}</script>`,
    '<!--EXAMPLE-BUTTONS-->': buttons.map(([id, label]) => `<button type="button" data-example="${id}">${label}</button>`).join(' '),
    '<!--VERSION-->': VERSION,
  };
  let html = template;
  for (const [marker, value] of Object.entries(parts)) {
    if (!html.includes(marker)) throw new Error(`web/index.html lacks ${marker}`);
    html = html.replace(marker, () => value);
  }
  return html;
}

/**
 * The worker's source: the Emscripten glue (`module`), its .wasm gzip-
 * compressed as base64 (web/engine/worker.js inflates it: a third of the size of
 * the plain base64 a single-file build inlines), and web/engine/worker.js.
 */
export function workerSource(module = 'memory_map_core.js') {
  const glue = read(join(root, 'build', 'wasm', module));
  const wasm = gzipSync(readFileSync(join(root, 'build', 'wasm', module.replace(/\.js$/, '.wasm'))), { level: 9 });
  const binary = `self.memoryMapWasmGzip = '${wasm.toString('base64')}';`;
  return assertEmbeddable('worker', `${glue}\n${binary}\n${bundle('engine/worker.js').code}`);
}

/** Chromium (136 on) compiles every function of a script marked so as it
 * loads, not each on its first call: the page's code runs first at the
 * first drop, which in a fresh tab took 42 -> 16 ms to make the first
 * card when dropped at once (15 tabs each), 19 -> 11 ms after 1 s idle.
 * Other browsers read a comment. */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** A source map for its script with a line put before it (the hint). */
function withLineBefore(map) {
  const parsed = JSON.parse(map);
  return JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
}

/** The model of the card the page rehearses (web/page/rehearsal.js), as the
 * core writes it, source lines and all: JSON that cannot end its element. */
export async function rehearsalModel() {
  const core = await loadCore();
  const json = Buffer.from(analyzeDumpJson(core, rehearsalDump(), { dumpName: 'rehearsal.py' })).toString('utf8');
  return scriptSafeJson(JSON.parse(json));
}

/** The site's compare example: a pass before Simplify and one after it
 * (the same bytes; lifetimes shorter, a few tiles gone). */
const comparedPasses = ['35_after_DeriveCallDirections.py', '41_after_MaterializeRuntimeScopes.py'];

async function build() {
  const worker = workerSource();
  const rehearsal = await rehearsalModel();
  const app = assertEmbeddable('app', `${COMPILE_HINT}${bundle('page/main.js').code}`);
  const style = assertEmbeddable('style', bundle('style.css').code);
  const siteApp = bundle('page/main.js', { map: 'app.js.map' });
  const siteStyle = bundle('style.css', { map: 'style.css.map' });

  const small = { name: 'diagnose_indexer_weights.py', path: join(corpus, 'real', 'diagnose_indexer_weights.py') };
  const caseDir = join(corpus, 'cases', 'decode_fwd');

  rmSync(join(dist, 'site'), { recursive: true, force: true });
  mkdirSync(join(dist, 'site', 'examples', 'decode_fwd'), { recursive: true });
  for (const dump of ['32_after_AllocateMemoryAddr.py', ...comparedPasses]) {
    copyFileSync(join(caseDir, 'passes_dump', dump), join(dist, 'site', 'examples', 'decode_fwd', dump));
  }
  copyFileSync(join(caseDir, 'ptoas', 'k_seed.pto'), join(dist, 'site', 'examples', 'decode_fwd', 'k_seed.pto'));
  copyFileSync(small.path, join(dist, 'site', 'examples', small.name));
  writeFileSync(join(dist, 'site', 'app.js'), assertEmbeddable('app', `${COMPILE_HINT}${siteApp.code}`));
  writeFileSync(join(dist, 'site', 'app.js.map'), withLineBefore(siteApp.map));
  writeFileSync(join(dist, 'site', 'style.css'), siteStyle.code);
  writeFileSync(join(dist, 'site', 'style.css.map'), siteStyle.map);
  const site = page({
    cspValue: csp({ scripts: "'self'", styles: "'self'", connect: "'self'" }),
    style: '<link rel="stylesheet" href="style.css">',
    script: '<script src="app.js" defer></script>',
    worker,
    rehearsal,
    examples: {
      decode_fwd: { name: '32_after_AllocateMemoryAddr.py', url: 'examples/decode_fwd/32_after_AllocateMemoryAddr.py',
        ptoUrl: 'examples/decode_fwd/k_seed.pto' },
      cube: { name: small.name, url: `examples/${small.name}` },
      compare: { name: comparedPasses[1], url: `examples/decode_fwd/${comparedPasses[1]}`, ptoUrl: 'examples/decode_fwd/k_seed.pto',
        base: { name: comparedPasses[0], url: `examples/decode_fwd/${comparedPasses[0]}` } },
    },
    buttons: [['decode_fwd', 'Open example: decode_fwd (480 KB, 38 functions)'], ['cube', 'Open example: a cube kernel'],
      ['compare', 'Compare example: decode_fwd before and after Simplify']],
  });
  writeFileSync(join(dist, 'site', 'index.html'), site);

  const offline = page({
    cspValue: csp({ scripts: sha256(app), styles: sha256(style), connect: "'none'" }),
    style: `<style>${style}</style>`,
    script: `<script>${app}</script>`,
    worker,
    rehearsal,
    examples: { cube: { name: small.name, text: read(small.path) } },
    buttons: [['cube', 'Open example: a cube kernel']],
  });
  writeFileSync(join(dist, 'memory-map.html'), offline);
  return { site: site.length, offline: offline.length, app: app.length, worker: worker.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await build();
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`bundle: dist/memory-map.html ${kb(sizes.offline)} (app ${kb(sizes.app)}, worker ${kb(sizes.worker)}); dist/site/`);
}
