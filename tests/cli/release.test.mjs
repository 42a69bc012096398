// What a release ships, built by tools/release.mjs into a clean temp folder
// and used as its users would: the npm tarball installed with no network
// into an empty prefix, the Debian package unpacked and linted, the
// release bundle checked against its sums. One version everywhere.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { corpus, root } from '../support/helpers.mjs';

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'mm-release-'));
const out = join(work, 'out');
const dump = join(work, 'vector_division.py');
let made;

before(() => {
  mkdirSync(out);
  copyFileSync(join(corpus, 'real', 'vector_division.py'), dump);
  made = spawnSync(process.execPath, [join(root, 'tools', 'release.mjs'), '--out', out], { encoding: 'utf8' });
});
after(() => rmSync(work, { recursive: true, force: true }));

function sh(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', cwd: work, ...options });
  assert.equal(r.error, undefined, `${command}: ${r.error?.message}`);
  return r;
}

/** The command at `bin` used as a user would: version, a page, JSON, a check. */
function usedAsUser(bin, env = {}) {
  const run = (...args) => sh(bin, args, { env: { ...process.env, MEMORY_MAP_PAGE: '', ...env } });
  const v = run('--version');
  assert.equal(v.stdout, `memory-map ${version}\n`, v.stderr);
  const page = join(work, `page-${Math.random().toString(36).slice(2)}.html`);
  const wrote = run(dump, '-o', page);
  assert.equal(wrote.status, 0, wrote.stderr);
  const html = readFileSync(page, 'utf8');
  assert.match(html, /"generator":"memory-map [^"]+","dump":"vector_division.py"/, 'the page holds the model');
  assert.match(html, new RegExp(`<span id="version">${version.replace(/\./g, '\\.')}</span>`), 'the footer says the version');
  const json = run(dump, '--json');
  assert.equal(JSON.parse(json.stdout).generator, `memory-map ${version}`);
  const check = run(dump, '--check');
  assert.equal(check.status, 0, check.stderr);
  assert.match(check.stdout, /no conflicts/);
  return { json: json.stdout, html };
}

test('tools/release.mjs builds every artifact, their sums beside them, the same bytes whatever the umask', () => {
  assert.equal(made.status, 0, made.stderr);
  for (const name of [`memory-map-${version}.tar.gz`, `memory-map-${version}.tgz`, `memory-map_${version}_`,
    `memory_map-${version}-py3-none-manylinux_`, `memory_map-${version}-py3-none-any.whl`]) {
    assert.match(made.stdout, new RegExp(`release: .*${name.replace(/\./g, '\\.')}.* KB`), name);
  }
  const sums = sh('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: out });
  assert.equal(sums.status, 0, sums.stdout + sums.stderr);
  assert.equal(sums.stdout.trim().split('\n').length, 5);
  const again = join(work, 'again');
  const remade = sh('sh', ['-c', `umask 002 && "${process.execPath}" tools/release.mjs --out "${again}"`], { cwd: root });
  assert.equal(remade.status, 0, remade.stderr);
  assert.equal(readFileSync(join(again, 'SHA256SUMS'), 'utf8'), readFileSync(join(out, 'SHA256SUMS'), 'utf8'));
});

describe('the npm package', () => {
  const prefix = join(work, 'prefix');
  const bin = join(prefix, 'node_modules', '.bin', 'memory-map');

  test('installs from its tarball into an empty prefix with no network and no global install', () => {
    mkdirSync(prefix);
    const r = sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, join(out, `memory-map-${version}.tgz`)],
      { env: { ...process.env, npm_config_cache: join(work, 'npm-cache'), npm_config_registry: 'http://127.0.0.1:9/' } });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(bin));
    const manifest = JSON.parse(readFileSync(join(prefix, 'node_modules', 'memory-map', 'package.json'), 'utf8'));
    assert.deepEqual([manifest.version, manifest.dependencies, manifest.scripts], [version, undefined, undefined]);
  });

  test('its memory-map runs the WASI build under Node alone, and the native one beside it, to the same bytes', () => {
    const template = join(prefix, 'node_modules', 'memory-map', 'dist', 'memory-map.html');
    writeFileSync(template, `${readFileSync(template, 'utf8')}<!-- installed -->`);
    const wasi = usedAsUser(bin, { MEMORY_MAP_WASI: '1' });
    const native = usedAsUser(bin);
    assert.equal(native.json, wasi.json);
    assert.equal(native.html, wasi.html);
    assert.match(native.html, /<!-- installed -->$/, 'the page is the package\'s own');
    // The native build is the one that ran: a stand-in for it answers.
    const nativeDir = join(prefix, 'node_modules', 'memory-map', 'build', 'native', `${process.platform}-${process.arch}`);
    const real = readFileSync(join(nativeDir, 'memory-map'));
    writeFileSync(join(nativeDir, 'memory-map'), '#!/bin/sh\necho "native $*"\n');
    assert.equal(sh(bin, ['--version']).stdout, 'native --version\n');
    // Linked against a newer glibc than this machine's (or musl): WASI instead.
    const needs = readFileSync(join(nativeDir, 'GLIBC'), 'utf8');
    writeFileSync(join(nativeDir, 'GLIBC'), '99.0\n');
    assert.equal(sh(bin, ['--version']).stdout, `memory-map ${version}\n`);
    writeFileSync(join(nativeDir, 'GLIBC'), needs);
    writeFileSync(join(nativeDir, 'memory-map'), real);
    // What only Node needs: no native build at all.
    rmSync(join(prefix, 'node_modules', 'memory-map', 'build', 'native'), { recursive: true });
    assert.equal(usedAsUser(bin).json, wasi.json);
  });
});

describe('the Debian package', () => {
  const deb = () => join(out, `memory-map_${version}_${sh('dpkg', ['--print-architecture']).stdout.trim()}.deb`);

  test('its control file and contents: /usr/bin, the page and site, the man page, copyright and changelogs', () => {
    const info = sh('dpkg-deb', ['-f', deb()]).stdout;
    assert.match(info, new RegExp(`^Package: memory-map\\nVersion: ${version.replace(/\./g, '\\.')}\\n`, 'm'));
    assert.match(info, /^Depends: libc6 \(>= [\d.]+\)$/m);
    const files = sh('dpkg-deb', ['-c', deb()]).stdout;
    for (const path of ['./usr/bin/memory-map', './usr/share/memory-map/memory-map.html', './usr/share/memory-map/site/index.html',
      './usr/share/man/man1/memory-map.1.gz', './usr/share/doc/memory-map/copyright', './usr/share/doc/memory-map/changelog.gz',
      './usr/share/doc/memory-map/changelog.Debian.gz']) {
      assert.ok(files.includes(` ${path}\n`), path);
    }
    assert.doesNotMatch(files, /\.map\n/, 'no source maps in the package');
  });

  test('unpacked with dpkg-deb -x, its binary finds the page through its own location', () => {
    const unpacked = join(work, 'root');
    assert.equal(sh('dpkg-deb', ['-x', deb(), unpacked]).status, 0);
    // Marked, so a page from anywhere else (the source tree's dist/) would show.
    const template = join(unpacked, 'usr', 'share', 'memory-map', 'memory-map.html');
    writeFileSync(template, `${readFileSync(template, 'utf8')}<!-- unpacked -->`);
    assert.match(usedAsUser(join(unpacked, 'usr', 'bin', 'memory-map')).html, /<!-- unpacked -->$/);
    // The manual renders without a warning from groff.
    const manual = gunzipSync(readFileSync(join(unpacked, 'usr', 'share', 'man', 'man1', 'memory-map.1.gz'))).toString();
    const groff = sh('groff', ['-man', '-ww', '-z'], { input: manual, env: { ...process.env, LC_ALL: 'C' } });
    assert.equal(groff.stderr, '');
    assert.match(manual, /^\.SH SYNOPSIS$/m);
    assert.match(manual, /\\-\\-min\\-headroom/, 'every option of docs/cli.md is there');
    assert.doesNotMatch(manual, /tools\/memory\\-map|cmake|^\.SH INSTALLING/m, 'the installed command\'s manual, not a clone\'s');
  });

  test('lintian finds nothing, pedantic and informational hints included, beyond its two overrides', () => {
    const r = sh('lintian', ['--tag-display-limit', '0', '-I', '-E', '--pedantic', deb()]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.trim(), '', r.stdout);
  });
});

describe('the release bundle', () => {
  const dir = join(out, `memory-map-${version}`);

  test('holds the offline page, the docs-site folder and its README, every file in SHA256SUMS', () => {
    for (const f of ['memory-map.html', 'site/index.html', 'site/app.js', 'README.md', 'embed-snippet.html', 'LICENSE', 'CHANGELOG.md']) assert.ok(existsSync(join(dir, f)), f);
    // The snippet embeds an example the site carries.
    const src = readFileSync(join(dir, 'embed-snippet.html'), 'utf8').match(/dump=([^#"]+)/)[1];
    assert.ok(existsSync(join(dir, 'site', src)), src);
    const sums = sh('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: dir });
    assert.equal(sums.status, 0, sums.stdout + sums.stderr);
    assert.match(readFileSync(join(dir, 'README.md'), 'utf8'), /mkdocs build --strict[\s\S]*\?embed&dump=/);
  });

  test('its .tar.gz unpacks to the same folder', () => {
    const listed = sh('tar', ['-tzf', join(out, `memory-map-${version}.tar.gz`)]).stdout.trim().split('\n');
    assert.ok(listed.includes(`memory-map-${version}/SHA256SUMS`));
    const files = readFileSync(join(dir, 'SHA256SUMS'), 'utf8').trim().split('\n').map((l) => `memory-map-${version}/${l.split('  ')[1]}`);
    for (const f of files) assert.ok(listed.includes(f), f);
  });
});

test('the README\'s Install section names this version\'s three artifacts, each one command', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const install = readme.slice(readme.indexOf('## Install\n'), readme.indexOf('\n## ', readme.indexOf('## Install\n') + 1));
  for (const command of [`npm install -g ./memory-map-${version}.tgz`, `sudo apt install ./memory-map_${version}_amd64.deb`,
    `tar xzf memory-map-${version}.tar.gz`]) {
    assert.ok(install.includes(`\`${command}\``), command);
  }
  assert.match(install, /npm run release/);
});

test('one version: the JSON of a dump, a build and a comparison, and the SVG, as package.json says', () => {
  const cli = join(root, 'build', 'native', 'memory-map');
  const generator = `memory-map ${version}`;
  assert.equal(JSON.parse(sh(cli, [dump, '--json']).stdout).generator, generator);
  const old = join(corpus, 'real', 'vector_division.py');
  assert.equal(JSON.parse(sh(cli, ['--diff', old, dump, '--json']).stdout).generator, generator);
  const build = join(work, 'build_output', 'vd', 'passes_dump');
  mkdirSync(build, { recursive: true });
  copyFileSync(dump, join(build, '32_after_AllocateMemoryAddr.py'));
  assert.equal(JSON.parse(sh(cli, [join(work, 'build_output'), '--json']).stdout).generator, generator);
  const svg = join(work, 'map.svg');
  assert.equal(sh(cli, [dump, '--svg', 'vector_division_incore_0', '-o', svg]).status, 0);
  assert.match(readFileSync(svg, 'utf8'), new RegExp(`^<svg [^>]*>\\n<metadata>${generator.replace(/\./g, '\\.')}</metadata>\\n`));
});
