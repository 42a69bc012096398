// The page's worker: owns the WebAssembly core and answers requests, so a
// big dump never stalls the page. Bundled (tools/bundle.mjs) after the
// Emscripten glue, which defines createMemoryMapCore.
import { analyzeDumpJson, listBackends } from './core.js';

let corePromise = null;

/** The module's bytes: the bundle inlines them gzip-compressed, as base64. */
async function wasmBinary() {
  const packed = Uint8Array.from(atob(self.memoryMapWasmGzip), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function core() {
  corePromise ??= wasmBinary().then((binary) => self.createMemoryMapCore({ wasmBinary: binary })).catch((error) => {
    corePromise = null; // a failed start is tried again on the next request
    throw error;
  });
  return corePromise;
}

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    const instance = await core();
    const started = performance.now();
    if (data.type === 'backends') {
      self.postMessage({ id, result: listBackends(instance) });
      return;
    }
    // The JSON bytes are handed over, not copied; the page parses them and
    // puts the source lines back from the bytes it kept (attachSource).
    const json = analyzeDumpJson(instance, new Uint8Array(data.bytes), { ...data.options, withoutSource: true });
    self.postMessage({ id, json: json.buffer, coreMs: performance.now() - started, heapBytes: instance.HEAPU8.length },
      [json.buffer]);
  } catch (error) {
    // A trap (out of memory, a bug) leaves the module unusable: start anew next time.
    if (!error.kind) corePromise = null;
    self.postMessage({
      id,
      error: { kind: error.kind || 'internal', message: String(error.message || error), line: error.line || 0 },
    });
  }
};
