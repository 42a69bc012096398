// The WASI build of the command line (build/wasi/memory-map.wasm) run in
// this process: compiled once, then one instance per run, with the
// arguments, environment and file system tools/run-wasi.mjs gives it. Each
// run through tools/memory-map starts Node and compiles the module again
// (most of a second); tests/cli/cli-builds.test.mjs runs the WASI build on
// every input this way and keeps whole-process runs for what the wrapper
// itself decides (which build, the working directory).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { root } from './helpers.mjs';

// node:wasi warns once that it is experimental; tools/run-wasi.mjs runs
// with --no-warnings, and so does this, for that warning alone.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) =>
  (/WASI is an experimental feature/.test(String(warning)) ? undefined : emitWarning.call(process, warning, ...rest));
const { WASI } = await import('node:wasi');

const wasmPath = join(root, 'build', 'wasi', 'memory-map.wasm');

let module;

/** Runs the WASI CLI with `args` as tools/run-wasi.mjs would from `cwd`;
 * returns { status, stdout, stderr } as helpers.mjs's run() does. */
export function runWasi(args, { cwd = root } = {}) {
  module ??= new WebAssembly.Module(readFileSync(wasmPath));
  const dir = mkdtempSync(join(tmpdir(), 'mm-wasi-'));
  const stdin = openSync('/dev/null', 'r'); // as spawnSync's: nothing to read
  const stdout = openSync(join(dir, 'stdout'), 'w+');
  const stderr = openSync(join(dir, 'stderr'), 'w+');
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: ['memory-map', ...args],
      env: {
        PWD: cwd,
        MEMORY_MAP_PAGE: process.env.MEMORY_MAP_PAGE || join(root, 'dist', 'memory-map.html'),
      },
      preopens: { '/': '/' },
      returnOnExit: true,
      stdin,
      stdout,
      stderr,
    });
    const status = wasi.start(new WebAssembly.Instance(module, wasi.getImportObject()));
    return {
      status,
      stdout: readFileSync(join(dir, 'stdout'), 'utf8'),
      stderr: readFileSync(join(dir, 'stderr'), 'utf8'),
    };
  } finally {
    for (const fd of [stdin, stdout, stderr]) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
