// The artifacts a release ships, from what `npm run build` made:
//
//   node tools/release.mjs [--out DIR] [bundle] [npm] [deb] [wheel]   (default: all, into dist/)
//
//   bundle  memory-map-<v>/ and memory-map-<v>.tar.gz: the offline page, the
//           docs-site folder, a README for the docs maintainer, SHA256SUMS
//   npm     memory-map-<v>.tgz (npm pack): `memory-map` for any Node 20, the
//           WASI build inside, the native one for this platform beside it
//   deb     memory-map_<v>_<arch>.deb (dpkg-deb): /usr/bin/memory-map, the
//           page and site in /usr/share/memory-map, memory-map(1), the
//           license and changelog where Debian keeps them
//   wheel   memory_map-<v>-py3-none-manylinux_<glibc>_<arch>.whl (the
//           native build, and the WASI one for Node) and
//           memory_map-<v>-py3-none-any.whl (the WASI one only), by
//           python3-wheel: `python -m memory_map`, show(), the MkDocs plugin
//
// Each is assembled in a fresh folder, so nothing of the working tree
// leaks in; tests/cli/release.test.mjs builds and checks all three.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { toMan } from './man.mjs';
import { PYTHON } from './python.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const VERSION = pkg.version;
let epoch; // set by main, before any artifact
const releaseDate = () => new Date(epoch * 1000).toISOString().slice(0, 10);
// One date for every file and page of a release, so the same tree gives
// the same bytes: SOURCE_DATE_EPOCH where it is set, else the last commit's.
function releaseEpoch() {
  const given = process.env.SOURCE_DATE_EPOCH ?? spawnSync('git', ['-C', root, 'log', '-1', '--format=%ct'], { encoding: 'utf8' }).stdout?.trim();
  if (!/^\d+$/.test(given ?? '')) throw new Error('no release date: set SOURCE_DATE_EPOCH, or run in a git clone');
  return Number(given);
}
// package.json's author maintains the packages.
const maintainer = pkg.author;

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (r.error || r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

function need(path, what) {
  if (!existsSync(path)) throw new Error(`${relative(root, path)} is missing (${what}): run \`npm run build\` first`);
  return path;
}

/** Every folder under `dir` (itself first), relative. */
function foldersUnder(dir, prefix = '') {
  return [prefix, ...readdirSync(join(dir, prefix), { withFileTypes: true }).filter((e) => e.isDirectory())
    .flatMap((e) => foldersUnder(dir, join(prefix, e.name)))];
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]));
}

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A reproducible tar.gz of `dir` (its name as the top folder). */
function tarball(dir, out) {
  run('tar', ['--sort=name', `--mtime=@${epoch}`, '--owner=0', '--group=0', '--numeric-owner', '--mode=go-w,a+rX',
    '-czf', out, '-C', dirname(dir), relative(dirname(dir), dir)], { env: { ...process.env, GZIP: '-n' } });
  return out;
}

// A page of the docs embedding one function's map (README, step 3).
const EMBED_SNIPPET = `<iframe title="Memory map of k_proj" style="width: 100%; height: 560px"
  src="../tools/memory-map/index.html?embed&dump=examples/decode_fwd/32_after_AllocateMemoryAddr.py#fn=k_proj"></iframe>
`;

const SITE_README = (v) => `# memory-map ${v}: the page for a docs site

\`site/\` is the page as a static folder (relative URLs only, no request
leaves the site). \`memory-map.html\` is the same page in one file, to open
from disk or attach to a bug report.

## Into a MkDocs site

1. Copy \`site/\` into the docs, e.g. \`docs/tools/memory-map/\`. MkDocs copies
   it as it is, and \`mkdocs build --strict\` stays clean.
2. Put dumps beside it (\`docs/tools/memory-map/dumps/…\`) and link
   \`tools/memory-map/?dump=dumps/<dump>.py#fn=<function>\` from any page.
3. Embed one function's map in a page (\`embed-snippet.html\` holds it):

   \`\`\`html
${EMBED_SNIPPET.trim().split('\n').map((l) => `   ${l}`).join('\n')}
   \`\`\`

   Add \`&theme=dark\` (or \`light\`) to match the site's palette.

With Python, the release's wheel does all of this for you: \`pip install\`
it beside MkDocs, add \`memory-map\` to \`plugins:\` in mkdocs.yml, and
write a \`\`\`memory-map fenced block naming a dump where its map should
be (docs/python.md in the source says how).

The release's \`SHA256SUMS\`, beside the downloads, checks the .tar.gz
this came in; the \`SHA256SUMS\` here checks what it unpacked to:
\`sha256sum -c SHA256SUMS\`.
`;

/** dist/memory-map-<v>/ and its .tar.gz. */
export function buildBundle(out) {
  epoch ??= releaseEpoch();
  const name = `memory-map-${VERSION}`;
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(need(join(root, 'dist', 'memory-map.html'), 'the offline page'), join(dir, 'memory-map.html'));
  cpSync(need(join(root, 'dist', 'site'), 'the docs-site page'), join(dir, 'site'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), SITE_README(VERSION));
  writeFileSync(join(dir, 'embed-snippet.html'), EMBED_SNIPPET);
  cpSync(join(root, 'CHANGELOG.md'), join(dir, 'CHANGELOG.md'));
  cpSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
  const sums = filesUnder(dir).map((f) => `${sha256(join(dir, f))}  ${f}`).join('\n');
  writeFileSync(join(dir, 'SHA256SUMS'), `${sums}\n`);
  return { dir, tarball: tarball(dir, join(out, `${name}.tar.gz`)) };
}

const LAUNCHER = `#!/usr/bin/env node
// memory-map's command (docs/cli.md): the native build for this platform
// when the package carries one, else the WASI build under this Node.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const native = join(root, 'build', 'native', \`\${process.platform}-\${process.arch}\`, 'memory-map');

/** Whether this machine's C library runs the native build: the glibc it
 * was linked against (GLIBC beside it) or newer; musl (Alpine) cannot. */
function runsHere() {
  if (!existsSync(native)) return false;
  const needs = join(dirname(native), 'GLIBC');
  if (!existsSync(needs)) return true;
  const have = process.report.getReport().header.glibcVersionRuntime;
  if (!have) return false;
  const [a, b] = [have, readFileSync(needs, 'utf8').trim()].map((v) => v.split('.').map(Number));
  return a[0] > b[0] || (a[0] === b[0] && (a[1] ?? 0) >= (b[1] ?? 0));
}

if (!process.env.MEMORY_MAP_WASI && runsHere()) {
  const page = process.env.MEMORY_MAP_PAGE || join(root, 'dist', 'memory-map.html');
  const r = spawnSync(native, process.argv.slice(2), { stdio: 'inherit', env: { ...process.env, MEMORY_MAP_PAGE: page } });
  if (r.signal) process.kill(process.pid, r.signal);
  process.exitCode = r.error ? 1 : r.status;
  if (r.error) process.stderr.write(\`error: \${native}: \${r.error.message}\\n\`);
} else {
  // Node 20 calls its WASI experimental on stderr, which is for the CLI's
  // own messages (the repository's wrapper runs node --no-warnings).
  process.removeAllListeners('warning');
  await import('../tools/run-wasi.mjs');
}
`;

/** The npm package's folder: the same layout as the repository, so the
 * WASI runner finds its module and page as it does here. */
function npmStage(stage) {
  mkdirSync(join(stage, 'bin'), { recursive: true });
  writeFileSync(join(stage, 'bin', 'memory-map.mjs'), LAUNCHER);
  chmodSync(join(stage, 'bin', 'memory-map.mjs'), 0o755);
  mkdirSync(join(stage, 'tools'));
  cpSync(join(root, 'tools', 'run-wasi.mjs'), join(stage, 'tools', 'run-wasi.mjs'));
  mkdirSync(join(stage, 'build', 'wasi'), { recursive: true });
  cpSync(need(join(root, 'build', 'wasi', 'memory-map.wasm'), 'the WASI build'), join(stage, 'build', 'wasi', 'memory-map.wasm'));
  const native = join(root, 'build', 'native', 'memory-map');
  if (existsSync(native)) {
    const dir = join(stage, 'build', 'native', `${process.platform}-${process.arch}`);
    mkdirSync(dir, { recursive: true });
    run('strip', ['--strip-unneeded', '-o', join(dir, 'memory-map'), native]);
    const glibc = libcVersion(native);
    if (glibc) writeFileSync(join(dir, 'GLIBC'), `${glibc}\n`);
  }
  mkdirSync(join(stage, 'dist'));
  cpSync(need(join(root, 'dist', 'memory-map.html'), 'the offline page'), join(stage, 'dist', 'memory-map.html'));
  cpSync(join(root, 'dist', 'site'), join(stage, 'dist', 'site'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  mkdirSync(join(stage, 'docs'));
  for (const doc of ['cli.md', 'model.md', 'page.md']) cpSync(join(root, 'docs', doc), join(stage, 'docs', doc));
  for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE']) cpSync(join(root, file), join(stage, file));
  const manifest = {
    name: pkg.name, version: VERSION, description: pkg.description, license: pkg.license, type: 'module',
    bin: { 'memory-map': 'bin/memory-map.mjs' }, engines: pkg.engines,
    // The WASI build reaches files through a preopened "/", and the CLI
    // starts in $PWD: POSIX paths only.
    os: ['linux', 'darwin', 'freebsd'],
    files: ['bin', 'tools', 'build', 'dist', 'docs', 'CHANGELOG.md'],
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** memory-map-<v>.tgz, from a stage with no dependencies and no scripts. */
export function buildNpm(out) {
  epoch ??= releaseEpoch();
  const stage = mkdtempSync(join(tmpdir(), 'mm-npm-'));
  try {
    npmStage(stage);
    const cache = join(stage, '.npm-cache');
    run('npm', ['pack', '--silent', '--pack-destination', out, stage],
      { env: { ...process.env, npm_config_cache: cache, npm_config_offline: 'true', npm_config_update_notifier: 'false' } });
    return join(out, `${pkg.name}-${VERSION}.tgz`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

const debArch = () => run('dpkg', ['--print-architecture']).trim();

const COPYRIGHT = (license) => `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: memory-map
Source: https://github.com/hw-native-sys/pypto

Files: *
Copyright: 2026 The memory-map authors
License: MIT
${license.split('\n').slice(4).map((l) => (l.trim() ? ` ${l}` : ' .')).join('\n').replace(/(\n \.)+$/, '')}
`;

/** Debian's changelog for a package not made by Debian: this one release. */
const DEBIAN_CHANGELOG = (arch) => `memory-map (${VERSION}) unstable; urgency=medium

  * Release ${VERSION} (${arch}): see /usr/share/doc/memory-map/changelog.gz.

 -- ${maintainer}  ${new Date(epoch * 1000).toUTCString().replace('GMT', '+0000')}
`;

/** docs/cli.md as an installed command's manual: the command is
 * `memory-map`, and what only a clone has is left out. */
function installedCli(markdown) {
  return markdown.replace(/\s+In\s+this\s+repository\s+the\s+command\s+is\s+`tools\/memory-map`\./, '')
    .replace(/\n## (Native and WASI builds|Installing)\n[\s\S]*?(?=\n## |$)/g, '\n')
    .replace(/tools\/memory-map/g, 'memory-map');
}

/** The glibc the native binary needs: the highest GLIBC_ symbol version it uses, or null. */
function libcVersion(binary) {
  const versions = [...run('objdump', ['-T', binary]).matchAll(/GLIBC_(\d+(?:\.\d+)*)/g)].map((m) => m[1]);
  return versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop() ?? null;
}

function libcDepends(binary) {
  const newest = libcVersion(binary);
  return newest ? `libc6 (>= ${newest})` : 'libc6';
}

/** memory-map_<v>_<arch>.deb. */
export function buildDeb(out) {
  epoch ??= releaseEpoch();
  const arch = debArch();
  const stage = mkdtempSync(join(tmpdir(), 'mm-deb-'));
  try {
    const binary = need(join(root, 'build', 'native', 'memory-map'), 'the native build');
    const usr = join(stage, 'usr');
    mkdirSync(join(usr, 'bin'), { recursive: true });
    run('strip', ['--strip-unneeded', '--remove-section=.comment', '--remove-section=.note', '-o', join(usr, 'bin', 'memory-map'), binary]);
    chmodSync(join(usr, 'bin', 'memory-map'), 0o755);
    const share = join(usr, 'share', 'memory-map');
    mkdirSync(share, { recursive: true });
    cpSync(need(join(root, 'dist', 'memory-map.html'), 'the offline page'), join(share, 'memory-map.html'));
    cpSync(join(root, 'dist', 'site'), join(share, 'site'), { recursive: true });
    for (const map of filesUnder(join(share, 'site')).filter((f) => f.endsWith('.map'))) rmSync(join(share, 'site', map));
    const man = join(usr, 'share', 'man', 'man1');
    mkdirSync(man, { recursive: true });
    const page = toMan(installedCli(readFileSync(join(root, 'docs', 'cli.md'), 'utf8')), { name: 'memory-map', section: 1, date: releaseDate(), version: VERSION });
    writeFileSync(join(man, 'memory-map.1.gz'), gzipSync(page, { level: 9 }));
    const doc = join(usr, 'share', 'doc', 'memory-map');
    mkdirSync(doc, { recursive: true });
    writeFileSync(join(doc, 'copyright'), COPYRIGHT(readFileSync(join(root, 'LICENSE'), 'utf8')));
    writeFileSync(join(doc, 'changelog.gz'), gzipSync(readFileSync(join(root, 'CHANGELOG.md')), { level: 9 }));
    writeFileSync(join(doc, 'changelog.Debian.gz'), gzipSync(DEBIAN_CHANGELOG(arch), { level: 9 }));
    for (const d of ['cli.md', 'model.md', 'page.md']) writeFileSync(join(doc, `${d}.gz`), gzipSync(readFileSync(join(root, 'docs', d)), { level: 9 }));
    const overrides = join(usr, 'share', 'lintian', 'overrides');
    mkdirSync(overrides, { recursive: true });
    writeFileSync(join(overrides, 'memory-map'), LINTIAN_OVERRIDES);
    const size = Math.ceil(filesUnder(usr).reduce((s, f) => s + statSync(join(usr, f)).size, 0) / 1024);
    mkdirSync(join(stage, 'DEBIAN'));
    writeFileSync(join(stage, 'DEBIAN', 'control'), [
      'Package: memory-map', `Version: ${VERSION}`, `Architecture: ${arch}`,
      `Maintainer: ${maintainer}`, `Installed-Size: ${size}`,
      `Depends: ${libcDepends(binary)}`, 'Section: devel', 'Priority: optional',
      'Homepage: https://github.com/hw-native-sys/pypto',
      `Description: ${pkg.description.replace(/^An /, 'interactive map of ').replace(/^interactive map of i/, 'i')}`,
      ' memory-map reads a PyPTO pass dump (after AllocateMemoryAddr) and shows',
      ' where each tile sits in each on-chip memory space and for how long:',
      ' a self-contained page, the model as JSON, terminal summaries and a',
      ' CI gate over a whole build.', '',
    ].join('\n'));
    writeFileSync(join(stage, 'DEBIAN', 'md5sums'), filesUnder(usr).map((f) =>
      `${createHash('md5').update(readFileSync(join(usr, f))).digest('hex')}  usr/${f}\n`).join(''));
    for (const f of filesUnder(stage)) chmodSync(join(stage, f), f === join('usr', 'bin', 'memory-map') ? 0o755 : 0o644);
    for (const d of foldersUnder(stage)) chmodSync(join(stage, d), 0o755); /* whatever the umask, and mkdtemp's 0700 */
    const deb = join(out, `memory-map_${VERSION}_${arch}.deb`);
    run('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', stage, deb], { env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) } });
    return deb;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

// What lintian says of the package that is meant: the page's HTML in
// /usr/share/memory-map is the template the command fills and the site it
// serves, not documentation (tests/cli/release.test.mjs runs lintian).
const LINTIAN_OVERRIDES = `memory-map: package-contains-documentation-outside-usr-share-doc [usr/share/memory-map/memory-map.html]
memory-map: package-contains-documentation-outside-usr-share-doc [usr/share/memory-map/site/index.html]
`;

/** The builds the artifacts take say this version: package.json bumped
 * since `npm run build` would ship binaries that say another. */
function checkBuilt() {
  const said = [];
  const native = join(root, 'build', 'native', 'memory-map');
  if (existsSync(native)) said.push(['the native build', run(native, ['--version']).trim()]);
  const page = readFileSync(need(join(root, 'dist', 'memory-map.html'), 'the offline page'), 'utf8');
  said.push(['dist/memory-map.html', `memory-map ${page.match(/<span id="version">([^<]*)<\/span>/)?.[1]}`]);
  for (const [what, version] of said) {
    if (version !== `memory-map ${VERSION}`) throw new Error(`${what} says ${version}, package.json ${VERSION}: run \`npm run build\``);
  }
}

const WHEEL_ARCH = { x64: 'x86_64', arm64: 'aarch64' };

/** The wheel's METADATA: docs/python.md is its description. */
const WHEEL_METADATA = () => `Metadata-Version: 2.1
Name: memory-map
Version: ${VERSION}
Summary: ${pkg.description}
Home-page: https://github.com/hw-native-sys/pypto
Author-email: ${maintainer}
License: ${pkg.license}
License-File: LICENSE
Requires-Python: >=3.8
Provides-Extra: mkdocs
Requires-Dist: mkdocs>=1.4; extra == "mkdocs"
Description-Content-Type: text/markdown

${readFileSync(join(root, 'docs', 'python.md'), 'utf8')}`;

const WHEEL_ENTRY_POINTS = `[console_scripts]
memory-map = memory_map.__main__:main

[mkdocs.plugins]
memory-map = memory_map.mkdocs_plugin:MemoryMapPlugin
`;

const WHEEL_VERSION_PY = `"""The version this wheel was made as (package.json's)."""

VERSION = "${VERSION}"
`;

/** An unpacked wheel in `stage`: the package, its builds and page under
 * _data (the repository's layout, so run-wasi.mjs finds its module and
 * page), and its .dist-info; `tag` its platform tag. */
function wheelStage(stage, { native, tag }) {
  const pkgDir = join(stage, 'memory_map');
  cpSync(join(root, 'python', 'memory_map'), pkgDir, { recursive: true, filter: (f) => !/__pycache__|\.pyc$/.test(f) });
  writeFileSync(join(pkgDir, '_version.py'), WHEEL_VERSION_PY);
  const data = join(pkgDir, '_data');
  mkdirSync(join(data, 'tools'), { recursive: true });
  cpSync(join(root, 'tools', 'run-wasi.mjs'), join(data, 'tools', 'run-wasi.mjs'));
  mkdirSync(join(data, 'build', 'wasi'), { recursive: true });
  cpSync(need(join(root, 'build', 'wasi', 'memory-map.wasm'), 'the WASI build'), join(data, 'build', 'wasi', 'memory-map.wasm'));
  mkdirSync(join(data, 'dist'));
  cpSync(need(join(root, 'dist', 'memory-map.html'), 'the offline page'), join(data, 'dist', 'memory-map.html'));
  if (native) {
    mkdirSync(join(data, 'build', 'native'), { recursive: true });
    run('strip', ['--strip-unneeded', '-o', join(data, 'build', 'native', 'memory-map'), native]);
    const glibc = libcVersion(native);
    if (glibc) writeFileSync(join(data, 'build', 'native', 'GLIBC'), `${glibc}\n`);
  }
  const info = join(stage, `memory_map-${VERSION}.dist-info`);
  mkdirSync(info);
  writeFileSync(join(info, 'METADATA'), WHEEL_METADATA());
  writeFileSync(join(info, 'WHEEL'), `Wheel-Version: 1.0\nGenerator: memory-map tools/release.mjs\nRoot-Is-Purelib: ${native ? 'false' : 'true'}\nTag: ${tag}\n`);
  writeFileSync(join(info, 'entry_points.txt'), WHEEL_ENTRY_POINTS);
  cpSync(join(root, 'LICENSE'), join(info, 'LICENSE'));
  for (const f of filesUnder(stage)) chmodSync(join(stage, f), f.endsWith(join('native', 'memory-map')) ? 0o755 : 0o644);
  for (const d of foldersUnder(stage)) chmodSync(join(stage, d), 0o755);
}

/** The platform's wheel (when the native build is here) and the one for
 * any platform with Node: their paths. */
export function buildWheels(out) {
  epoch ??= releaseEpoch();
  const native = join(root, 'build', 'native', 'memory-map');
  const glibc = existsSync(native) ? libcVersion(native) : null;
  const kinds = [{ native: null, tag: 'py3-none-any' }];
  if (glibc && WHEEL_ARCH[process.arch] && process.platform === 'linux') {
    kinds.unshift({ native, tag: `py3-none-manylinux_${glibc.split('.').slice(0, 2).join('_')}_${WHEEL_ARCH[process.arch]}` });
  }
  return kinds.map((kind) => {
    const stage = mkdtempSync(join(tmpdir(), 'mm-wheel-'));
    try {
      const unpacked = join(stage, `memory_map-${VERSION}`);
      mkdirSync(unpacked);
      wheelStage(unpacked, kind);
      run(PYTHON, ['-m', 'wheel', 'pack', '--dest-dir', out, unpacked], { env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) } });
      return join(out, `memory_map-${VERSION}-${kind.tag}.whl`);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  });
}

const ARTIFACTS = { bundle: buildBundle, npm: buildNpm, deb: buildDeb, wheel: buildWheels };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.findIndex((a) => a === '--out' || a.startsWith('--out='));
  const out = at < 0 ? join(root, 'dist') : args[at].startsWith('--out=') ? args.splice(at, 1)[0].slice(6) : args.splice(at, 2)[1];
  if (!out) throw new Error('--out needs a folder');
  const wanted = args.length ? args : Object.keys(ARTIFACTS);
  epoch = releaseEpoch();
  checkBuilt();
  mkdirSync(out, { recursive: true });
  const files = [];
  for (const what of wanted) {
    if (!ARTIFACTS[what]) throw new Error(`unknown artifact ${what}; known: ${Object.keys(ARTIFACTS).join(', ')}`);
    const made = ARTIFACTS[what](out);
    for (const file of typeof made === 'string' ? [made] : Array.isArray(made) ? made : [made.tarball]) {
      console.log(`release: ${relative(process.cwd(), file)} ${(statSync(file).size / 1024).toFixed(1)} KB`);
      files.push(file);
    }
  }
  // The downloads' own sums, beside them (the bundle's SHA256SUMS checks
  // what it unpacks to); those of artifacts not remade this time are kept.
  const sumsPath = join(out, 'SHA256SUMS');
  const sums = new Map(existsSync(sumsPath) ? readFileSync(sumsPath, 'utf8').trim().split('\n').filter(Boolean)
    .map((l) => [l.slice(66), l]).filter(([name]) => existsSync(join(out, name))) : []);
  for (const f of files) sums.set(relative(out, f), `${sha256(f)}  ${relative(out, f)}`);
  writeFileSync(sumsPath, `${[...sums.keys()].sort().map((k) => sums.get(k)).join('\n')}\n`);
}
