// The heap bridge to the core (include/memory_map.h's boundary): what a
// call puts into the WebAssembly heap (bytes, strings, mm_options,
// mm_svg_options at the offsets boundary.c asserts) and the JSON it takes
// back out, with the refusal it may be. No DOM: Node tests and the
// page's worker share it.

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

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

export const outOfMemory = () => new DumpError({ error: 'no_memory', message: 'out of memory in the WebAssembly heap' });

// Pointers into the heap, which may grow to 4 GiB, come back from the
// module as signed 32-bit numbers: `>>> 0` reads them unsigned.
export const address = (ptr) => ptr >>> 0;

export function copyIn(core, bytes, owned) {
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
export const copyString = (core, text, owned) => (text == null ? 0 : copyIn(core, encoder.encode(text), owned));

/** An mm_options in the heap for one dump (its pointer added to `owned`):
 * its name, an explicit backend, the case's .pto text, the flags, and who
 * placed its build (a PLANNERS name). */
export function optionsIn(core, { dumpName = 'dump.py', backend = null, ptoText = null, withoutSource = false, lifetimes = false, planner = 'unknown' }, owned) {
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
export function svgOptionsIn(core, { first, last, axis, hidden, zoom, mapWidth, dark, profile }, owned) {
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
export const jsonFlags = ({ withoutSource = false, split = false, splitHeads = false }) =>
  (withoutSource ? MM_JSON_WITHOUT_SOURCE : 0) | (split ? MM_JSON_SPLIT_BODIES : 0) | (split && splitHeads ? MM_JSON_SPLIT_HEADS : 0);

/** Copies out and frees a JSON buffer the core returned, its length at lenPtr. */
export function takeJsonBytes(core, result, lenPtr) {
  const out = address(result);
  if (!out) throw outOfMemory();
  const len = core.HEAPU32[lenPtr >>> 2]; // lenPtr is 4-aligned: malloc's
  const json = core.HEAPU8.slice(out, out + len);
  core._mm_free(out);
  return json;
}

export const takeJson = (core, out, lenPtr) => JSON.parse(decoder.decode(takeJsonBytes(core, out, lenPtr)));
