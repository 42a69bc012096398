// The core's calls (include/memory_map.h's boundary): bytes of a dump in,
// the model or a refusal out, in one call to mm_analyze_json (for a
// comparison, each dump with its side, then the two sides compared);
// what a folder holds; a tile's fit; a function's SVG. `core` is an
// instantiated Emscripten module (build/wasm/memory_map_core.js); no DOM,
// so Node tests and the page's worker share it.

import { DumpError, address, copyIn, copyString, decoder, encoder, jsonFlags, optionsIn, svgOptionsIn, takeJson, takeJsonBytes } from './heap.js';
import { attachSource, parseModel, parseSplitModel } from './model-json.js';

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
