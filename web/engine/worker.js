// The page's worker: owns the WebAssembly core and answers requests, so a
// big dump never stalls the page. Bundled (tools/bundle.mjs) after the
// Emscripten glue, which defines createMemoryMapCore.
import { analyzeCaseJson, analyzeDumpJson, analyzeSideJson, casesInTree, chooseInFolder, compareSidesJson, dumpSvg, fitTile, listBackends } from './core.js';
import { readIntoHeap, readWhole } from './files.js';
import { isQuick } from './protocol.js';
import { warmUpDump } from './warm-up.js';

let corePromise = null;

/** The module's bytes: the bundle inlines them gzip-compressed, as base64. */
async function wasmBinary() {
  // A plain loop: Uint8Array.from with a function makes a string and a
  // call per byte, ten times slower.
  const text = atob(self.memoryMapWasmGzip);
  const packed = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) packed[i] = text.charCodeAt(i);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function core() {
  corePromise ??= wasmBinary().then((binary) => self.createMemoryMapCore({ wasmBinary: binary })).then((instance) => {
    self.postMessage({ ready: true }); // engine.js: a big file may now be read into its heap
    return instance;
  }, (error) => {
    corePromise = null; // a failed start is tried again on the next request
    throw error;
  });
  return corePromise;
}

/** While the page waits for a dump, the core reads one a few times, and
 * compares it with itself: V8 compiles WebAssembly with its baseline
 * compiler first and its optimizing one only for code that has run hot,
 * so the user's first dump meets optimized code. One run a task: a
 * request waits for one at most. The first runs are small (a dump dropped
 * as the page loads waits for one); the last ones larger, to make hot what
 * only big dumps run much: without them, a big dump had a core compiling
 * while it was read (Chromium's trace; docs/bench.md). */
function warmUp(times) {
  core().then((instance) => {
    if (!times || busy) {
      self.postMessage({ warm: true }); // engine.js: a second worker warm is kept for a comparison
      return;
    }
    if (times === touchHeapAt) {
      // The heap a dump of a few MB takes, grown and touched now, not
      // while the user waits (the core frees into it and takes from it);
      // after the first runs, not before them: a dump dropped as the page
      // loads would wait for it.
      const ptr = instance._malloc(WARM_HEAP_BYTES);
      if (ptr) {
        instance.HEAPU8.fill(0, ptr, ptr + WARM_HEAP_BYTES);
        instance._free(ptr);
      }
    }
    const dump = times > LARGE_RUNS ? (smallDump ??= warmUpDump(4, 6)) : (largeDump ??= warmUpDump(60, 4));
    const { side } = analyzeSideJson(instance, dump, { dumpName: 'warm-up.py', withoutSource: true, split: true, splitHeads: true });
    if (side) compareSidesJson(instance, lastSide ?? side, side); // small to large: tiles added
    lastSide = side;
    setTimeout(() => warmUp(times - 1), 0);
  }, () => {});
}

const WARM_UP_RUNS = 45;
const LARGE_RUNS = 20; // the last ones, on the larger dump (~470 KB)
const WARM_HEAP_BYTES = 24 << 20;
let smallDump = null;
let largeDump = null;
let lastSide = null;
let busy = false; // a request is under way: the warm-up stops
// The second worker (engine.js) reads one dump of each comparison: the
// module's code, compiled and optimized, comes from the first one's warm-up
// (V8 keeps one per module's bytes in the page).
const second = self.name === 'second';
const touchHeapAt = second ? 1 : WARM_UP_RUNS - 5;
warmUp(second ? 1 : WARM_UP_RUNS);

/** The core's progress through a request's dump (Module.onProgress,
 * called after each function read), as the share of its bytes read, told
 * to the page at most every PROGRESS_MS (a comparison's two workers each
 * tell theirs; engine.js adds them up). */
function progressReporter(id, bytes) {
  const all = bytes.length || 1; // a Uint8Array, or readIntoHeap's { heapPtr, length }
  let told = performance.now();
  return (done) => {
    const now = performance.now();
    const share = done / all;
    if (now - told < PROGRESS_MS && share < 1) return;
    told = now;
    self.postMessage({ id, progress: share * READ_SHARE });
  };
}

const PROGRESS_MS = 50;
// Reading the functions is most of the core's time; writing the model's
// JSON (and comparing) the rest, of which nothing is told.
const READ_SHARE = 0.85;

/** The requests answered by one call to the core (protocol.js), each
 * with what it answers and the buffers it hands over; a dump to read
 * (analyze, side) is answered by onmessage itself, below. */
const ANSWERS = {
  backends: (instance) => ({ answer: { result: listBackends(instance) } }),
  folders: (instance, data) => ({ answer: { result: data.folders.map((f) => chooseInFolder(instance, f.names, f)) } }),
  cases: (instance, data) => ({ answer: { result: casesInTree(instance, data.paths) } }),
  fit: (instance, data) => ({ answer: { result: fitTile(instance, new Uint8Array(data.bytes), data.options) } }),
  svg: (instance, data) => ({ answer: { result: dumpSvg(instance, new Uint8Array(data.bytes), data.options) } }),
  build: (instance, data, started) => ({ answer: { result: buildCases(instance, data), coreMs: performance.now() - started, heapBytes: instance.HEAPU8.length } }),
  // Two sides read by two workers (type 'side'), compared.
  diff: (instance, data) => {
    const json = compareSidesJson(instance, new Uint8Array(data.oldSide), new Uint8Array(data.newSide));
    return { answer: { json: json.buffer, heapBytes: instance.HEAPU8.length }, transfer: [json.buffer] };
  },
};

/** A build's cases, one by one, telling the share of them read. */
function buildCases(instance, data) {
  const results = [];
  let told = performance.now();
  for (const [i, one] of data.cases.entries()) {
    results.push(analyzeCaseJson(instance, new Uint8Array(one.bytes), { ...one.options, backend: data.options.backend }));
    if (performance.now() - told >= PROGRESS_MS) {
      told = performance.now();
      self.postMessage({ id: data.id, progress: (i + 1) / data.cases.length });
    }
  }
  return results;
}

self.onmessage = async ({ data }) => {
  const { id } = data;
  const received = performance.now();
  if (!isQuick(data.type)) busy = true;
  let instance = null;
  let read = null; // the bytes of the dump's File read here (or copied out of the heap): handed back with the answer
  let placed = null; // or read into the core's heap (readIntoHeap): freed after
  let readMs = 0; // the read alone, not the core's start it overlapped
  // A big dump's file goes straight into the core's heap, and the page
  // reads it for itself or gets it back after the model (engine.js
  // dumpMessage); any other is read whole,
  // while the core starts if it has not yet (a drop as the page loads).
  const readsIntoHeap = Boolean(data.file && data.intoHeap);
  const reading = data.file && !readsIntoHeap ? readWhole(data.file).then((bytes) => {
    readMs = performance.now() - received;
    return bytes;
  }) : null;
  reading?.catch(() => {}); // told below, or moot when the core failed
  const thisCore = core(); // a trap replaces it: see the finally below
  try {
    instance = await thisCore;
    const started = performance.now();
    const call = ANSWERS[data.type];
    if (call) {
      const { answer, transfer = [] } = call(instance, data, started);
      self.postMessage({ id, ...answer }, transfer);
      return;
    }
    if (readsIntoHeap) {
      placed = await readIntoHeap(instance, data.file);
      readMs = performance.now() - received;
    }
    const bytes = placed ?? new Uint8Array(data.bytes ?? (read = await reading));
    const analyzing = performance.now();
    instance.onProgress = progressReporter(id, bytes);
    // A big dump's first function, as soon as the core has it (the page
    // shows its card while the rest is read): its JSON copied out of the
    // heap, which the core still uses.
    if (data.preview) {
      instance.onPreview = (ptr, len) => {
        const part = instance.HEAPU8.slice(ptr, ptr + len);
        self.postMessage({ id, preview: part.buffer }, [part.buffer]);
      };
    }
    // The JSON bytes are handed over, not copied; the page parses a
    // function's part as its card needs it, and takes the source lines
    // from the dump's bytes (parseSplitModel, attachSource).
    const options = { ...data.options, withoutSource: true, split: true, splitHeads: data.type === 'side' };
    const { json, side } = data.type === 'side' ? analyzeSideJson(instance, bytes, options)
      : { json: analyzeDumpJson(instance, bytes, options), side: null };
    // A comparison's side: the page reads nothing itself (engine.js
    // dumpMessage), so its bytes are copied out of the heap for it, after
    // its model (the copy is then not on the way to the
    // first card, which shows no source); with a refusal (no split in its
    // JSON), at once: the message quotes the line refused.
    const handBack = Boolean(placed && data.handBack);
    const copyOut = () => instance.HEAPU8.slice(placed.heapPtr, placed.heapPtr + placed.length).buffer;
    const later = handBack && json.lastIndexOf(0) >= 0;
    if (handBack && !later) read = copyOut();
    const handed = [json.buffer, ...(side ? [side.buffer] : []), ...(read ? [read] : [])];
    self.postMessage({ id, json: json.buffer, side: side?.buffer, dump: read, bytesFollow: later, readMs,
      coreMs: performance.now() - analyzing, heapBytes: instance.HEAPU8.length, intoHeap: Boolean(placed), length: bytes.length }, handed);
    if (later) {
      // The model is answered: a failure now (out of memory for the copy)
      // is the page's to make up for (it reads the file), not a refusal.
      let copy = null;
      try {
        copy = copyOut();
      } catch {
        // handed back as null: engine.js reads the file
      }
      self.postMessage({ id, handedBack: copy }, copy ? [copy] : []);
    }
  } catch (error) {
    // A trap (out of memory, a bug) leaves the module unusable: start anew next time.
    if (!error.kind) corePromise = null;
    self.postMessage({
      id, dump: read,
      error: { kind: error.kind || 'internal', message: String(error.message || error), line: error.line || 0, column: error.column || 0 },
    }, read ? [read] : []);
  } finally {
    if (placed && corePromise === thisCore) instance._free(placed.heapPtr); // not in a module a trap left unusable
    if (instance) instance.onProgress = instance.onPreview = null;
  }
};
