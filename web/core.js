// The C/JS boundary (include/memory_map.h): bytes of a dump in, the model
// or a refusal out, in one call to mm_analyze_json (for a comparison, each
// dump with its side, then the two sides compared). `core` is an
// instantiated Emscripten module (build/wasm/memory_map_core.js); this file
// has no DOM code, so Node tests and the page's worker share it.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A refused or unreadable dump: `kind` is the core's status name
 * ("syntax", "no_tiles", ...), `line` the input line or 0, `column` the
 * character it points at on that line (1-based) or 0. */
export class DumpError extends Error {
  constructor(report) {
    super(report.message);
    this.name = 'DumpError';
    this.kind = report.error;
    this.line = report.line || 0;
    this.column = report.column || 0;
    this.functions = report.functions || [];
    this.side = report.side || null; // comparing: "old" or "new"
    this.nothingOnChip = Boolean(report.nothing_on_chip); // no tile at all after memory was placed
  }
}

// include/memory_map.h: the JSON flag, and where mm_options and
// mm_svg_options keep each field on wasm32 (the header's boundary section;
// boundary.c asserts the same offsets at build time).
const MM_JSON_WITHOUT_SOURCE = 1;
const MM_JSON_SPLIT_BODIES = 2;
const MM_JSON_SPLIT_HEADS = 4;
const OPTIONS = { bytes: 36, dumpName: 0, backend: 4, ptoText: 8, ptoLen: 12, withoutSource: 16, lifetimes: 17, planner: 18 };
// mm_planner: who placed a build's memory, as its folder says (mm_folder_choose).
export const PLANNERS = { unknown: 0, compiler: 1, ptoas: 2 };
const SVG_OPTIONS = { bytes: 32, firstLine: 0, lastLine: 4, axisUsed: 8, hidden: 12, zoom: 16, mapWidth: 24, dark: 28, hideProfile: 29 };
// Keeps a byte order mark: the core's `source` lines are the bytes as they are.
const sourceDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

const outOfMemory = () => new DumpError({ error: 'no_memory', message: 'out of memory in the WebAssembly heap' });

// Pointers into the heap, which may grow to 4 GiB, come back from the
// module as signed 32-bit numbers: `>>> 0` reads them unsigned.
const address = (ptr) => ptr >>> 0;

function copyIn(core, bytes, owned) {
  if (bytes.heapPtr !== undefined) return bytes.heapPtr; // readIntoHeap's: the caller's to free
  const ptr = address(core._malloc(bytes.length + 1));
  if (!ptr) throw outOfMemory();
  owned.push(ptr);
  // Read HEAPU8 after malloc: growing memory replaces the view.
  core.HEAPU8.set(bytes, ptr);
  core.HEAPU8[ptr + bytes.length] = 0;
  return ptr;
}

/** Copies a string into the heap (NUL-terminated); 0 for none (null). */
const copyString = (core, text, owned) => (text == null ? 0 : copyIn(core, encoder.encode(text), owned));

/** An mm_options in the heap for one dump (its pointer added to `owned`):
 * its name, an explicit backend, the case's .pto text, the flags, and who
 * placed its build (a PLANNERS name). */
function optionsIn(core, { dumpName = 'dump.py', backend = null, ptoText = null, withoutSource = false, lifetimes = false, planner = 'unknown' }, owned) {
  const pto = ptoText ? encoder.encode(ptoText) : null;
  const fields = [copyString(core, dumpName, owned), copyString(core, backend || null, owned),
    pto ? copyIn(core, pto, owned) : 0, pto ? pto.length : 0];
  const ptr = copyIn(core, new Uint8Array(OPTIONS.bytes), owned);
  const view = new DataView(core.HEAPU8.buffer); // after every malloc: growing replaces the buffer
  view.setUint32(ptr + OPTIONS.dumpName, fields[0], true);
  view.setUint32(ptr + OPTIONS.backend, fields[1], true);
  view.setUint32(ptr + OPTIONS.ptoText, fields[2], true);
  view.setUint32(ptr + OPTIONS.ptoLen, fields[3], true);
  view.setUint8(ptr + OPTIONS.withoutSource, withoutSource ? 1 : 0);
  view.setUint8(ptr + OPTIONS.lifetimes, lifetimes ? 1 : 0);
  view.setUint8(ptr + OPTIONS.planner, PLANNERS[planner] ?? 0);
  return ptr;
}

/** An mm_svg_options in the heap (its pointer added to `owned`). */
function svgOptionsIn(core, { first, last, axis, hidden, zoom, mapWidth, dark, profile }, owned) {
  const hiddenPtr = copyString(core, hidden.length ? hidden.join(',') : null, owned);
  const ptr = copyIn(core, new Uint8Array(SVG_OPTIONS.bytes), owned);
  const view = new DataView(core.HEAPU8.buffer);
  view.setUint32(ptr + SVG_OPTIONS.firstLine, first, true);
  view.setUint32(ptr + SVG_OPTIONS.lastLine, last, true);
  view.setUint8(ptr + SVG_OPTIONS.axisUsed, axis === 'used' ? 1 : 0);
  view.setUint32(ptr + SVG_OPTIONS.hidden, hiddenPtr, true);
  view.setFloat64(ptr + SVG_OPTIONS.zoom, zoom, true);
  view.setUint32(ptr + SVG_OPTIONS.mapWidth, Math.round(mapWidth), true);
  view.setUint8(ptr + SVG_OPTIONS.dark, dark ? 1 : 0);
  view.setUint8(ptr + SVG_OPTIONS.hideProfile, profile ? 0 : 1);
  return ptr;
}

/** The MM_JSON_* flags of a call's options. */
const jsonFlags = ({ withoutSource = false, split = false, splitHeads = false }) =>
  (withoutSource ? MM_JSON_WITHOUT_SOURCE : 0) | (split ? MM_JSON_SPLIT_BODIES : 0) | (split && splitHeads ? MM_JSON_SPLIT_HEADS : 0);

/** Copies out and frees a JSON buffer the core returned, its length at lenPtr. */
function takeJsonBytes(core, result, lenPtr) {
  const out = address(result);
  if (!out) throw outOfMemory();
  const len = core.HEAPU32[lenPtr >>> 2]; // lenPtr is 4-aligned: malloc's
  const json = core.HEAPU8.slice(out, out + len);
  core._mm_free(out);
  return json;
}

const takeJson = (core, out, lenPtr) => JSON.parse(decoder.decode(takeJsonBytes(core, out, lenPtr)));

/**
 * The model (or the refusal) from the core's JSON bytes.
 * @throws DumpError when the JSON is a refusal
 */
export function parseModel(jsonBytes) {
  const result = JSON.parse(decoder.decode(jsonBytes));
  if (result.error) throw new DumpError(result);
  return result;
}

/**
 * The model from the core's split JSON (MM_JSON_SPLIT_BODIES) and the
 * dump's bytes: the heads are parsed now; each function's `boxes`,
 * `allocations` and spaces' `live` when first read (its body's JSON), its
 * `source` when first read (decoded from `dumpBytes`). A page showing one
 * card of thousands parses one body. With MM_JSON_SPLIT_HEADS, each
 * function's head too is parsed when `model.functions[i]` is first read.
 * `model.lazy` counts the bodies (`parsed`) and heads (`heads`) parsed so
 * far of `total`.
 * `dumpBytes` null (split form only): the bytes come later, given to
 * `model.attachDump(bytes)`; until then each function's `source` is null,
 * and its `sourceReady` (every function's, and the model's) settles then;
 * `model.sourceMissing(why)` settles it with `why` and no source instead.
 * Refusals and whole models (no NUL) are read as parseModel reads them.
 * @throws DumpError when the JSON is a refusal
 */
export function parseSplitModel(jsonBytes, dumpBytes) {
  // The one NUL (JSON text escapes its own), found from the end: the
  // model after it is far shorter than the bodies before it.
  const split = jsonBytes.lastIndexOf(0);
  if (split < 0) return attachSource(parseModel(jsonBytes), dumpBytes);
  return readLazily(parseModel(jsonBytes.subarray(split + 1)), jsonBytes, dumpBytes);
}

/** Gives each function of `model` (the split form's) its body's keys and
 * its source lines as lazy fields, and its head when the form lists where
 * the heads are: `parts` holds the bodies and heads, `dumpBytes` the dump. */
function readLazily(model, parts, dumpBytes) {
  const dump = { bytes: dumpBytes ? new Uint8Array(dumpBytes) : null };
  let attached = null;
  const sourceReady = dump.bytes ? Promise.resolve(null) : new Promise((resolve) => { attached = resolve; });
  Object.defineProperties(model, {
    attachDump: { value: (bytes) => { dump.bytes = new Uint8Array(bytes); attached?.(null); } },
    sourceMissing: { value: (why) => attached?.(why) },
    sourceReady: { value: sourceReady },
  });
  const lazy = { parsed: 0, heads: 0, total: model.functions.length };
  Object.defineProperty(model, 'lazy', { value: lazy });
  const partAt = ([at, length]) => JSON.parse(decoder.decode(parts.subarray(at, at + length)));
  const withBody = (fn) => {
    let body = null;
    const read = () => {
      if (!body) {
        body = partAt(fn.body);
        lazy.parsed++;
      }
      return body;
    };
    lazyField(fn, 'boxes', () => read().boxes);
    lazyField(fn, 'allocations', () => read().allocations);
    [...fn.spaces, ...fn.reserved_only_spaces].forEach((space, i) => lazyField(space, 'live', () => read().live[i]));
    if (!fn.source) sourceField(fn, dump, sourceReady);
    return fn;
  };
  if (!Array.isArray(model.functions[0])) {
    lazy.heads = lazy.total;
    model.functions.forEach(withBody);
    return model;
  }
  // A head is parsed as its index is first read. (A getter per index made
  // the array a dictionary, slow before any was read.)
  const spans = model.functions;
  // No holes: map, forEach and Object.keys see every index, read through get.
  model.functions = new Proxy(new Array(spans.length).fill(undefined), {
    get(heads, key, receiver) {
      if (typeof key === 'string' && heads[key] === undefined && spans[key]) {
        lazy.heads++;
        heads[key] = withBody(partAt(spans[key]));
      }
      return Reflect.get(heads, key, receiver);
    },
  });
  return model;
}

/** What a lazy field's `make` returns when it cannot make the value yet. */
const NOT_YET = Symbol('not yet');

/** `object[key]` computed by `make` when first read, then a plain value
 * (one a caller may also set). `make` returning NOT_YET: read as null,
 * and asked again next time. */
function lazyField(object, key, make) {
  const settle = (value) => Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(object, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = make();
      if (value === NOT_YET) return null;
      settle(value);
      return value;
    },
    set: settle,
  });
}

/** `fn.source`: its lines from `dump.bytes` when first read once they
 * are there (null before); `fn.sourceReady`, when (null then, or why they
 * never will be). */
function sourceField(fn, dump, ready) {
  Object.defineProperty(fn, 'sourceReady', { value: ready });
  lazyField(fn, 'source', () => (dump.bytes ? functionLines(dump.bytes, fn) : NOT_YET));
}

/** A function's lines (src_start..src_end) from its bytes in the dump. */
function functionLines(dump, fn) {
  const [at, length] = fn.source_bytes;
  return dumpLines(dump.subarray(at, at + length)).slice(0, fn.src_end - fn.src_start + 1);
}

/** A reader of `file`'s bytes into buffers of ours, or null where its
 * stream is not a byte stream. */
function byteReader(file) {
  try {
    return file.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}

/** The chunks of `file`, in order: read into one scratch buffer of
 * READ_SCRATCH bytes, reused (each chunk's view is valid until the next
 * is asked for), where the browser's stream of a file allows it; else
 * each a buffer of its own: faster than a fresh buffer a chunk, or the
 * file read whole (docs/bench.md, "Figures behind the code"). The
 * stream is cancelled when the reading stops early. */
async function* fileChunks(file) {
  const bytes = byteReader(file);
  const reader = bytes ?? file.stream().getReader();
  let scratch = bytes ? new ArrayBuffer(READ_SCRATCH) : null;
  try {
    for (;;) {
      const { done, value } = await (bytes ? reader.read(new Uint8Array(scratch)) : reader.read());
      if (done) return;
      yield value;
      if (bytes) scratch = value.buffer; // handed back by the read, to be read into again
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

const READ_SCRATCH = 1 << 20;

/** A dump's file that cannot be read (gone, or changed since it was
 * chosen), as the page refuses it: kind 'unreadable', and why. */
export const unreadable = (why) => Object.assign(new Error(`cannot read the file: ${why}`), { kind: 'unreadable' });

/** What `unreadable` says of a file whose bytes are not its size. */
export const FILE_CHANGED = 'the file changed as it was read';

/** The bytes of a dump's File, read whole (by the worker, or by the page
 * beside the worker's read into the heap); a File that cannot be read
 * (gone, changed) is refused as `unreadable`. */
export async function readWhole(file) {
  try {
    return await file.arrayBuffer();
  } catch (error) {
    throw unreadable(error.message);
  }
}

/**
 * Reads `file` straight into the core's heap, NUL-terminated: { heapPtr,
 * length }, which analyzeDumpJson takes as bytes; the caller frees
 * heapPtr (core._free). No buffer of the file's size is made on the way.
 * @throws Error (kind 'unreadable') when the file cannot be read or changed size
 */
export async function readIntoHeap(core, file) {
  // Past 4 GiB the size would wrap in the heap's 32-bit sizes.
  if (file.size >= 2 ** 32 - 1) throw outOfMemory();
  const ptr = address(core._malloc(file.size + 1));
  if (!ptr) throw outOfMemory();
  let at = 0;
  try {
    for await (const chunk of fileChunks(file)) {
      if (at + chunk.length > file.size) throw new Error(FILE_CHANGED);
      core.HEAPU8.set(chunk, ptr + at); // HEAPU8 read now: the heap may have grown meanwhile
      at += chunk.length;
    }
    if (at !== file.size) throw new Error(FILE_CHANGED);
  } catch (error) {
    core._free(ptr);
    throw unreadable(error.message);
  }
  core.HEAPU8[ptr + at] = 0;
  return { heapPtr: ptr, length: at };
}

/**
 * Computes the model of a dump, as the core's JSON bytes (the model or a
 * refusal): the worker hands these to the page, which parses them once,
 * instead of cloning a parsed model between threads.
 * @param core       instantiated Emscripten module
 * @param bytes      Uint8Array: the dump's bytes as read, or readIntoHeap's
 *                   { heapPtr, length } (left for the caller to free)
 * @param reading    { dumpName, backend, ptoText, withoutSource, lifetimes, planner, generalParser }:
 *                   the file's base name, an explicit backend name, the
 *                   case's .pto texts; withoutSource leaves each function's
 *                   `source` out (attachSource puts it back from the bytes);
 *                   lifetimes draws a dump without addresses by size and
 *                   lifetime and planner says who placed its build, as its
 *                   folder does (mm_options, readFolder); generalParser, for tests, reads
 *                   no statement through the fast path (the same model);
 *                   split writes the page's form (parseSplitModel)
 * @returns Uint8Array of UTF-8 JSON, owned by the caller
 */
export function analyzeDumpJson(core, bytes, reading = {}) {
  const { withoutSource = false, generalParser = false, split = false } = reading;
  const owned = [];
  try {
    const input = copyIn(core, bytes, owned);
    const options = optionsIn(core, reading, owned);
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    const flags = jsonFlags({ withoutSource, split });
    const out = generalParser ? core._mm__analyze_json_with(input, bytes.length, options, flags, 0, lenPtr)
      : core._mm_analyze_json(input, bytes.length, options, flags, lenPtr);
    return takeJsonBytes(core, out, lenPtr);
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * Compares two dumps in one call, as the core's JSON bytes: {"old":
 * model, "new": model, "diff": comparison} (docs/model.md §15), or a
 * refusal naming its `side`: what the page's two workers (analyzeSideJson,
 * compareSidesJson) are held to.
 * @param oldSide, newSide  { bytes: Uint8Array, dumpName, ptoText }
 * @param options           { backend, withoutSource } as for analyzeDumpJson
 * @returns Uint8Array of UTF-8 JSON, owned by the caller
 */
export function compareDumpsJson(core, oldSide, newSide, { backend = null, withoutSource = false } = {}) {
  const owned = [];
  try {
    const side = ({ bytes, ...reading }) => [copyIn(core, bytes, owned), bytes.length,
      optionsIn(core, { ...reading, backend, withoutSource }, owned)];
    const args = [...side(oldSide), ...side(newSide)];
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    return takeJsonBytes(core, core._mm_compare_json(...args, jsonFlags({ withoutSource }), lenPtr), lenPtr);
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * One dump of a comparison read on a core of its own (the page's second
 * worker reads the other): what analyzeDumpJson returns, as `json`, and
 * `side`, the bytes compareSidesJson reads of its model (null when the
 * dump is refused). `bytes` and options as analyzeDumpJson's, and `splitHeads` (with
 * `split`): the heads too read a function at a time (MM_JSON_SPLIT_HEADS),
 * as a comparison uses few of them.
 * @returns { json: Uint8Array, side: Uint8Array | null }, owned by the caller
 */
export function analyzeSideJson(core, bytes, reading = {}) {
  const { withoutSource = false, split = false, splitHeads = false } = reading;
  const owned = [];
  try {
    const input = copyIn(core, bytes, owned);
    const options = optionsIn(core, reading, owned);
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    const sidePtr = copyIn(core, new Uint8Array(8), owned); // char *side, then size_t side_len
    const out = core._mm_analyze_json_side(input, bytes.length, options, jsonFlags({ withoutSource, split, splitHeads }), lenPtr,
      sidePtr, sidePtr + 4);
    const at = address(core.HEAPU32[sidePtr >>> 2]);
    let side = null;
    if (at) {
      side = core.HEAPU8.slice(at, at + core.HEAPU32[(sidePtr + 4) >>> 2]);
      core._mm_free(at);
    }
    return { json: takeJsonBytes(core, out, lenPtr), side };
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * The comparison of two sides from analyzeSideJson, as the core's JSON
 * bytes: the "diff" compareDumpsJson writes for the same dumps, or an
 * error's JSON.
 * @returns Uint8Array of UTF-8 JSON, owned by the caller
 */
export function compareSidesJson(core, oldSide, newSide) {
  const owned = [];
  try {
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    const out = core._mm_compare_sides_json(copyIn(core, oldSide, owned), oldSide.length,
      copyIn(core, newSide, owned), newSide.length, lenPtr);
    return takeJsonBytes(core, out, lenPtr);
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * One case of a build, for the page's overview: the core's build JSON of
 * that one case (docs/model.md §16): its row per function and space, or
 * its refusal as the case's error.
 * @param options  { dumpName, backend, ptoText } as for analyzeDumpJson;
 *                 caseName, and dumpPath (the dump's path in the folder)
 * @returns the parsed JSON
 */
export function analyzeCaseJson(core, bytes, reading = {}) {
  const { dumpName = 'dump.py', caseName, dumpPath } = reading;
  const owned = [];
  try {
    const input = copyIn(core, bytes, owned);
    const options = optionsIn(core, { ...reading, withoutSource: true }, owned);
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    const out = core._mm_analyze_build_json(input, bytes.length, options, copyString(core, caseName, owned),
      copyString(core, dumpPath ?? dumpName, owned), lenPtr);
    return takeJson(core, out, lenPtr);
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * Where a tile of `size` bytes live on lines first..last fits in `space` of
 * function `fn` (the core's mm_analyze_fit_json: the dump read again):
 * { offset, hwm_with_reserved, limit, fits }.
 * @throws DumpError when the core refuses the dump or the question
 */
export function fitTile(core, bytes, reading = {}) {
  const { fn = 0, space, size, first, last } = reading;
  const owned = [];
  try {
    const input = copyIn(core, bytes, owned);
    const options = optionsIn(core, { ...reading, withoutSource: true }, owned);
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    const out = core._mm_analyze_fit_json(input, bytes.length, options, fn, copyString(core, space, owned), size, first, last, lenPtr);
    const result = takeJson(core, out, lenPtr);
    if (result.error) throw new DumpError(result);
    return result;
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * One function's map as an SVG document (the core's mm_analyze_svg): the
 * dump parsed again, then drawn as the page shows it.
 * @param options  { dumpName, backend, ptoText, lifetimes } as for analyzeDumpJson, and
 *                 the view: { fn (index), first, last (lines; 0: all),
 *                 axis ('limit' | 'used'), hidden (space names), zoom,
 *                 mapWidth (px of lanes at zoom 1), dark (the dark theme's
 *                 colours), profile (the live profiles and peak ticks) }
 * @returns the SVG text
 * @throws DumpError when the core refuses the dump
 */
export function dumpSvg(core, bytes, reading = {}) {
  const { fn = 0, first = 0, last = 0, axis = 'limit', hidden = [], zoom = 1, mapWidth = 0, dark = false, profile = true } = reading;
  const owned = [];
  try {
    const input = copyIn(core, bytes, owned);
    const options = optionsIn(core, { ...reading, withoutSource: false }, owned);
    const view = svgOptionsIn(core, { first, last, axis, hidden, zoom, mapWidth, dark, profile }, owned);
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    const out = core._mm_analyze_svg(input, bytes.length, options, fn, view, lenPtr);
    const text = decoder.decode(takeJsonBytes(core, out, lenPtr));
    if (text.startsWith('{')) throw new DumpError(JSON.parse(text));
    return text;
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * Computes the model of a dump (arguments as analyzeDumpJson).
 * @returns the model (model.md's JSON as an object)
 * @throws DumpError when the core refuses the dump
 */
export const analyzeDump = (core, bytes, options) => parseModel(analyzeDumpJson(core, bytes, options));

/**
 * What a case's folder of pass dumps says (the core's mm_folder_json): of
 * `names` (its file names), the index of the dump to read for `pass`, who
 * placed the build's memory (a PLANNERS name), whether that dump is drawn
 * by lifetime (a ptoas build), and, without a dump, why (naming `folder`).
 * @returns { dump, last, planner, by_lifetime, error }
 */
export function chooseInFolder(core, names, { pass = 'AllocateMemoryAddr', folder = 'the folder' } = {}) {
  const owned = [];
  try {
    const list = encoder.encode(names.join('\n'));
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    const out = core._mm_folder_json(copyIn(core, list, owned), list.length, copyString(core, pass, owned),
      copyString(core, folder, owned), lenPtr);
    return takeJson(core, out, lenPtr);
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/** The cases of a dropped folder as the core finds them (mm_cases_json):
 * `paths` its files' '/'-separated paths from the folder's name;
 * { build, cases: [{ dir, pool, pto }] } with indices into `paths`. */
export function casesInTree(core, paths) {
  const owned = [];
  try {
    const list = encoder.encode(paths.join('\n'));
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    return takeJson(core, core._mm_cases_json(copyIn(core, list, owned), list.length, lenPtr), lenPtr);
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/** The backends the core knows: [{ name, arch, capacities: { Vec: n, ... } }]. */
export function listBackends(core) {
  const owned = [];
  try {
    const lenPtr = copyIn(core, new Uint8Array(4), owned);
    return takeJson(core, core._mm_backends_json(lenPtr), lenPtr);
  } finally {
    for (const ptr of owned) core._free(ptr);
  }
}

/**
 * Puts back each function's `source` (its lines src_start..src_end) into a
 * model written without them, from the dump's bytes the caller kept: the
 * lines are most of the JSON, and the page has the bytes anyway. Lines end
 * at \n, \r\n or a lone \r, as in the core.
 * @returns the model
 */
export function attachSource(model, bytes) {
  if (model.functions.every((fn) => fn.source)) return model;
  const lines = dumpLines(bytes);
  for (const fn of model.functions) fn.source ??= lines.slice(fn.src_start - 1, fn.src_end);
  return model;
}

/**
 * The dump's lines as the core counts them: each ends at \n, \r\n or a
 * lone \r; the bytes as they are (a byte order mark stays on line 1).
 */
export function dumpLines(bytes) {
  const text = sourceDecoder.decode(bytes);
  // Most dumps have no \r: a plain split is several times faster than the regex.
  return text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
}
