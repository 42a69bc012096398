// What the page asks its workers and what they answer (engine.js asks,
// worker.js answers), stated once. A request is { id, type, ...fields };
// every answer names its request's `id`.
//
// Answers: { result } for a request of names or numbers; { json (an
// ArrayBuffer of the core's JSON), side?, dump?, bytesFollow?, readMs,
// coreMs, heapBytes, intoHeap, length } for a dump read; { error: { kind,
// message, line, column }, dump? } for a refusal or a failure. On the
// way: { progress } (0..1), { preview } (a big dump's first function's
// JSON), and, after a comparison's side, { handedBack } (its dump's bytes,
// or null). Unasked: { ready } once a worker's core has started and
// { warm } once its warm-up is over.

/** Each request's fields, and whether it is `quick`: names or paths
 * alone, answered between dumps without stopping a warm-up or being
 * superseded by a big dump. */
export const REQUESTS = {
  backends: { quick: true, fields: [] },
  folders: { quick: true, fields: ['folders'] }, // [{ names, pass, folder }]
  cases: { quick: true, fields: ['paths'] },
  fit: { quick: false, fields: ['bytes', 'options'] }, // options as fitTile's (core.js)
  svg: { quick: false, fields: ['bytes', 'options'] }, // options as dumpSvg's
  build: { quick: false, fields: ['cases', 'options'] }, // cases: [{ bytes, options }]
  // A dump (its File, or its bytes) read, modelled and its JSON handed over.
  analyze: { quick: false, fields: ['file', 'bytes', 'intoHeap', 'preview', 'options'] },
  // One side of a comparison: analyze's, with its side for the diff.
  side: { quick: false, fields: ['file', 'bytes', 'intoHeap', 'handBack', 'options'] },
  diff: { quick: false, fields: ['oldSide', 'newSide'] }, // two sides' ArrayBuffers
};

/** Whether a request of `type` is quick (REQUESTS). */
export const isQuick = (type) => REQUESTS[type]?.quick === true;
