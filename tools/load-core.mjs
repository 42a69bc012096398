// The Emscripten build of the core in Node (tests, bench): its glue is
// CommonJS, and its .wasm is handed over as bytes (Node 20's fetch cannot
// read a file path, which the glue would try).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'build', 'wasm');

/** An instance of build/wasm/<name>.js (a promise). */
export function loadCore(name = 'memory_map_core') {
  const require = createRequire(import.meta.url);
  const create = require(join(wasmDir, `${name}.js`));
  return create({ wasmBinary: readFileSync(join(wasmDir, `${name}.wasm`)) });
}
