// The main thread's side of the worker: a promise per request. The worker
// is made from the source in the page (#worker-source) through a Blob URL,
// which works when the page is served and when it is opened from file://.
import { parseModel, parseSplitComparison, parseSplitModel } from './core.js';

/** A pending dump this big is stopped, not waited for, when a newer
 * request comes (a new worker costs the module's compile, tens of ms). */
const SUPERSEDE_BYTES = 2 * 1024 * 1024;

/** A WebAssembly heap grows to hold a big dump and never shrinks: a
 * worker whose heap passed this is stopped once idle, and the next
 * request starts a fresh one (its module compiled again, tens of ms), so
 * a 50 MB dump shown does not keep ~200 MB the page no longer needs. */
const RECYCLE_HEAP_BYTES = 96 * 1024 * 1024;

/** A refusal from the core, or a failure to run it, as the page shows it. */
export class EngineError extends Error {
  constructor({ kind, message, line, column, side }) {
    super(message);
    this.kind = kind;
    this.line = line || 0;
    this.column = column || 0;
    this.side = side || null; // comparing: the refused side, "old" or "new"
  }
}

/** The model from the worker's JSON bytes (read by the request's
 * `parse`), or the core's refusal. */
function settleModel(request, json) {
  try {
    request.resolve(request.parse(new Uint8Array(json)));
  } catch (error) {
    request.reject(new EngineError({ kind: error.kind || 'internal', message: error.message, line: error.line, column: error.column, side: error.side }));
  }
}

export function createEngine(source) {
  let worker = null;
  /** The last request's time in the core and the size of its heap (for benchmarks). */
  const stats = { coreMs: 0, heapBytes: 0 };
  let next = 1;
  const pending = new Map();

  function start() {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    worker = new Worker(url);
    URL.revokeObjectURL(url);
    worker.onmessage = ({ data }) => {
      const request = pending.get(data.id);
      if (!request) return;
      if (data.progress !== undefined) return request.onProgress?.(data.progress);
      pending.delete(data.id);
      if (data.coreMs !== undefined) Object.assign(stats, { coreMs: data.coreMs, heapBytes: data.heapBytes });
      if (data.heapBytes > RECYCLE_HEAP_BYTES && !pending.size) recycle();
      if (data.error) request.reject(new EngineError(data.error));
      else if (data.json) settleModel(request, data.json);
      else request.resolve(data.result);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      for (const request of pending.values())
        request.reject(new EngineError({ kind: 'internal', message: `the WebAssembly worker failed: ${event.message || 'unknown error'}` }));
      pending.clear();
      worker.terminate();
      worker = null;
    };
  }

  /** Stops the worker; the next request starts a fresh one. */
  function recycle() {
    worker.terminate();
    worker = null;
  }

  function request(message, transfer = [], parse = parseModel, onProgress = null) {
    if (!worker) start();
    const id = next++;
    return new Promise((resolve, reject) => {
      const bytes = (message.bytes?.byteLength ?? 0) + (message.oldBytes?.byteLength ?? 0) + (message.newBytes?.byteLength ?? 0) +
        (message.cases ?? []).reduce((sum, c) => sum + c.bytes.byteLength, 0);
      pending.set(id, { resolve, reject, type: message.type, bytes, parse, onProgress });
      worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** A newer request makes the pending ones moot: when one is a big dump
   * (the worker would be busy with it for a while), the worker is stopped
   * and they are rejected (kind 'superseded'); a small one just finishes. */
  function supersede() {
    const requests = [...pending.values()];
    if (!requests.some((r) => r.bytes >= SUPERSEDE_BYTES) || requests.some((r) => r.type === 'backends')) return;
    worker.terminate();
    worker = null;
    pending.clear();
    for (const r of requests) r.reject(new EngineError({ kind: 'superseded', message: 'a newer request took over' }));
  }

  return {
    stats,
    /** The model of `dump` (an ArrayBuffer the caller keeps; a copy goes
     *  to the worker), read a function at a time as it is used
     *  (parseSplitModel in core.js): its source lines from `dump`.
     *  `onProgress(share)`: how much of the dump the core has read. */
    analyze: (dump, options, onProgress = null) => {
      const bytes = dump.slice(0);
      return request({ type: 'analyze', bytes, options }, [bytes], (json) => parseSplitModel(json, dump), onProgress);
    },
    /** Both models and their comparison: { old, new, diff }, read as
     *  analyze reads one (their source lines from `oldDump` and `newDump`,
     *  ArrayBuffers the caller keeps); a refusal says its `side`. Options:
     *  { old: { dumpName, ptoText }, new: { ... }, backend };
     *  `onProgress(share)` as for analyze, over both dumps. */
    compare: (oldDump, newDump, options, onProgress = null) => {
      const [oldBytes, newBytes] = [oldDump.slice(0), newDump.slice(0)];
      return request({ type: 'compare', oldBytes, newBytes, options }, [oldBytes, newBytes],
        (json) => parseSplitComparison(json, oldDump, newDump), onProgress);
    },
    /** A build's cases read for its overview: `cases` [{ bytes (an
     *  ArrayBuffer, handed over), options: { dumpName, ptoText, caseName,
     *  dumpPath } }]; resolves to each case's build JSON, in order.
     *  `onProgress(share)`: the share of cases read. */
    build: (cases, options, onProgress = null) => request({ type: 'build', cases, options }, cases.map((c) => c.bytes),
      undefined, onProgress),
    /** Where a tile fits (options as fitTile's in core.js); the buffer
     *  goes to the worker. */
    fit: (bytes, options) => request({ type: 'fit', bytes, options }, [bytes]),
    /** One function's map as SVG text (options as dumpSvg's in core.js);
     *  the buffer goes to the worker. */
    svg: (bytes, options) => request({ type: 'svg', bytes, options }, [bytes]),
    backends: () => request({ type: 'backends' }),
    supersede,
  };
}
