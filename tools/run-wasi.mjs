// Runs build/wasi/memory-map.wasm (tools/cli_main.c) with the host's file
// system. WASI has no working directory, so PWD tells the CLI where
// relative paths start; MEMORY_MAP_PAGE names the page the CLI fills in.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { WASI } from 'node:wasi';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wasmPath = join(root, 'build', 'wasi', 'memory-map.wasm');

let bytes;
try {
  bytes = await readFile(wasmPath);
} catch {
  process.stderr.write(`error: ${wasmPath} is missing: run \`npm run build\` first\n`);
  process.exit(1);
}

const wasi = new WASI({
  version: 'preview1',
  args: ['memory-map', ...process.argv.slice(2)],
  env: {
    PWD: process.cwd(),
    MEMORY_MAP_PAGE: process.env.MEMORY_MAP_PAGE || join(root, 'dist', 'memory-map.html'),
  },
  preopens: { '/': '/' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(bytes);
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
