// The model's JSON as the page reads it: parsed once, or, in the page's
// split form, each function's head and body read when first asked for,
// its source lines taken from the dump's bytes (include/memory_map.h,
// MM_JSON_SPLIT_BODIES). No DOM.
import { DumpError, decoder } from './heap.js';

// Keeps a byte order mark: the core's `source` lines are the bytes as they are.
const sourceDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

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
