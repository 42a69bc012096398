// The wheels `npm run release` makes, built into a scratch folder and
// installed with `pip install --no-index` into fresh venvs, for the suites
// that hold the Python package to account.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildWheels } from '../../tools/release.mjs';
import { PYTHON } from '../../tools/python.mjs';

/** Runs `command` and returns its result; throws with its stderr unless it exits 0. */
export function must(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (r.error || r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.error?.message ?? `${r.stdout}${r.stderr}`}`);
  return r;
}

/** Both wheels, made into a fresh folder: { dir, platform, any } (platform
 * null where there is no native build). */
export function wheels() {
  const dir = mkdtempSync(join(tmpdir(), 'mm-wheels-'));
  const made = buildWheels(dir);
  return { dir, platform: made.find((w) => !w.endsWith('-any.whl')) ?? null, any: made.find((w) => w.endsWith('-any.whl')) };
}

/** A fresh venv with `install` installed offline (a wheel's path, or pip
 * install's arguments as a list): { dir, python, bin(name) }.
 * `systemSite`: Debian's mkdocs, nbconvert and ipykernel are importable
 * (the plugin and the notebook need them; nothing else does). */
export function venvWith(install, { systemSite = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mm-venv-'));
  must(PYTHON, ['-m', 'venv', ...(systemSite ? ['--system-site-packages'] : []), dir]);
  const bin = (name) => join(dir, 'bin', name);
  must(bin('python'), ['-m', 'pip', 'install', '--no-index', '--no-cache-dir', '--disable-pip-version-check', '--quiet',
    ...[install].flat()]);
  return { dir, python: bin('python'), bin };
}
