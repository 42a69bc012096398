// The main thread's side of the worker: a promise per request. The worker
// is made from the source in the page (#worker-source) through a Blob URL,
// which works when the page is served and when it is opened from file://.
import { FILE_CHANGED, readWhole, unreadable } from './files.js';
import { parseModel, parseSplitModel } from './model-json.js';
import { isQuick } from './protocol.js';

/** A pending dump this big is stopped, not waited for, when a newer
 * request comes (a new worker costs the module's compile, tens of ms). */
const SUPERSEDE_BYTES = 2 * 1024 * 1024;

/** A dump's file this big is read by the worker straight into the core's
 * heap, and by the page for itself meanwhile (a comparison's worker hands
 * it back instead: dumpMessage), rather than read whole by
 * the worker, copied into the heap and handed back: no buffer of the
 * file's size is made in the worker (a page's first write to fresh memory
 * is slow: docs/bench.md, "Figures behind the code"). Up to the
 * core's largest input (MM_MAX_INPUT_BYTES, include/memory_map.h): a
 * bigger file is read whole and refused by the core, as before. */
const INTO_HEAP_BYTES = 2 * 1024 * 1024;
const INTO_HEAP_AT_MOST = 256 * 1024 * 1024;

/** A dump this big has its first function's card shown as soon as the
 * core has modelled it, while the core reads the rest (the page waits
 * for the whole model of a smaller one: ~0.3 s at 16 MB, and a card
 * shown twice costs more than it spares). */
const PREVIEW_BYTES = 16 * 1024 * 1024;

/** A WebAssembly heap grows to hold a big dump and never shrinks: a
 * worker whose heap passed this is stopped once idle, and the next
 * request starts a fresh one (its module compiled again, tens of ms), so
 * a 50 MB dump shown does not keep ~200 MB the page no longer needs. */
const RECYCLE_HEAP_BYTES = 96 * 1024 * 1024;

/** A refusal from the core, or a failure to run it, as the page shows it. */
export class EngineError extends Error {
  constructor({ kind, message, line, column, side, nothingOnChip }) {
    super(message);
    this.kind = kind;
    this.line = line || 0;
    this.column = column || 0;
    this.side = side || null; // comparing: the refused side, "old" or "new"
    this.nothingOnChip = Boolean(nothingOnChip); // no tile at all after memory was placed (core.js DumpError)
  }
}

/** The model from the worker's JSON bytes (read by the request's
 * `parse`, which also gets the whole message), or the core's refusal. */
async function settleModel(request, data) {
  try {
    request.resolve(await request.parse(new Uint8Array(data.json), data));
  } catch (error) {
    request.reject(new EngineError({ ...error, kind: error.kind || 'internal', message: error.message }));
  }
}

/** What a request carries of a dump (`{ file, bytes }`, as the page holds
 * one): { message, transfer, own }. A copy of its bytes when read, else
 * its File, which the worker reads: so a dropped dump goes to the worker
 * at once, not after the main thread has read it and copied it (time of
 * the main thread, a comparison's second worker waiting behind the
 * first's). A small file, or any while the worker's core has
 * not started (`intoHeap` false), the worker reads whole and hands back
 * with its answer (request() keeps the bytes as `dump.bytes`); a big one
 * it reads into the core's heap while the page reads it for itself:
 * `own`, the promise of those bytes. With `handBack` (a comparison's
 * side), the worker copies a big one out of its heap after the core and
 * hands that back, and the page reads nothing: with both cores on the two
 * sides, the page's own reads (of its thread, while the cores run)
 * slowed both. */
function dumpMessage(dump, intoHeap, handBack = false) {
  if (dump.bytes) {
    const bytes = dump.bytes.slice(0);
    return { message: { bytes }, transfer: [bytes], own: null };
  }
  const { size } = dump.file;
  if (!intoHeap || size < INTO_HEAP_BYTES || size > INTO_HEAP_AT_MOST) return { message: { file: dump.file }, transfer: [], own: null };
  if (handBack) return { message: { file: dump.file, intoHeap: true, handBack: true }, transfer: [], own: null };
  const own = readWhole(dump.file);
  own.catch(() => {}); // told when the model comes, or moot
  return { message: { file: dump.file, intoHeap: true }, transfer: [], own };
}

/** The page's own read of a file, which must be as many bytes as the
 * worker read (`length`): else the file changed in between. */
function asRead(bytes, length) {
  if (bytes.byteLength !== length) throw unreadable(FILE_CHANGED);
  return bytes;
}

/** `dump`'s bytes for the page: those the worker handed back, or those
 * the page read (`own`), which must be as many as the worker read (`data.length`). */
async function bytesOf(dump, own, data) {
  if (!dump.bytes && own) {
    const bytes = await own;
    dump.bytes = asRead(bytes, data.length);
  }
  // The source lines come from these: a model without them would show none.
  if (!dump.bytes) throw new Error('the worker handed back no bytes of the dump');
  return dump.bytes;
}

/** The model of the preview's JSON (one function, split form), its
 * source lines from the dump's bytes: the page's, or those of the file
 * up to that function's end (the page's own read of a big file may not
 * be done yet). */
async function previewModel(json, dump) {
  const [at, length] = parseModel(json.subarray(json.lastIndexOf(0) + 1)).functions[0].source_bytes;
  return parseSplitModel(json, dump.bytes ?? await dump.file.slice(0, at + length).arrayBuffer());
}

const dumpSize = (dump) => dump.bytes?.byteLength ?? dump.file?.size ?? 0;

/** Runs `task` once the page's thread is idle: after the card an answer
 * brought is painted and the cards after it are made (a worker started
 * sooner competes with that first layout for the machine's cores). */
export const whenIdle = (task) => (globalThis.requestIdleCallback ? requestIdleCallback(task, { timeout: 1000 }) : setTimeout(task));

/** The outcome of two requests that run at once, as one: both values, or
 * the old side's failure before the new side's (as one worker reading
 * them in turn would say it). */
async function both(requests) {
  const [a, b] = await Promise.allSettled(requests);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}

/** The page's workers: the first answers every request; a comparison
 * reads its new dump on the second, so the two dumps are read on two
 * cores, and the one done first compares what both read. The second is
 * started once the page is idle with nothing asked (its start, a core's
 * while, is then not on a comparison's way), and stopped if a dump comes
 * while it is still starting: a dump dropped as the page loads has both
 * cores, and the second starts again after it. */
const WORKERS = 2;
/** Cases a build sends a worker at a time. */
const BUILD_CHUNK_CASES = 64;

export function createEngine(source) {
  /** Each worker's slot: the Worker (null: not started), whether its
   * core has started (`ready`) and its warm-up is over (`warm`), and its
   * heap's size as last told. */
  const slots = Array.from({ length: WORKERS }, () => ({ worker: null, ready: false, warm: false, heap: 0 }));
  /** The last request's time reading its file and in the core, the size
   * of its heap, and whether the file was read into the heap
   * (dumpMessage) (for benchmarks and tests). */
  const stats = { readMs: 0, coreMs: 0, heapBytes: 0, intoHeap: false };
  let next = 1;
  const pending = new Map();
  // Requests answered whose dump's bytes the worker sends after (a
  // comparison's big side): id -> { slot, file, length, attach(bytes), missing(why) }.
  const following = new Map();

  const pendingOn = (slot) => [...pending.values()].filter((r) => r.slot === slot);

  // One URL for every worker started: making the Blob of the worker's
  // source and its URL is slow in a fresh tab (docs/bench.md).
  let url = null;

  function start(slot) {
    url ??= URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    // The second reads one dump of each comparison: its warm-up is one run (worker.js).
    const worker = new Worker(url, { name: slot ? 'second' : 'first' });
    slots[slot].warm = false;
    slots[slot].ready = false;
    worker.onmessage = ({ data }) => {
      if (data.ready) {
        if (slots[slot].worker === worker) slots[slot].ready = true;
        return;
      }
      if (data.warm) {
        if (slots[slot].worker === worker) slots[slot].warm = true; // not a stopped one's late word
        return;
      }
      if (data.handedBack !== undefined) { // a comparison's side's bytes, after its model
        const owed = following.get(data.id);
        following.delete(data.id);
        if (owed) (data.handedBack ? owed.attach(data.handedBack) : readForPage(owed));
        return answered(slot);
      }
      const request = pending.get(data.id);
      if (!request) return;
      if (data.progress !== undefined) return request.onProgress?.(data.progress);
      if (data.preview) return request.onPreview?.(new Uint8Array(data.preview));
      pending.delete(data.id);
      if (data.dump && request.dump && !request.dump.bytes) request.dump.bytes = data.dump;
      if (data.coreMs !== undefined) {
        Object.assign(stats, { readMs: data.readMs ?? 0, coreMs: data.coreMs, heapBytes: data.heapBytes, intoHeap: Boolean(data.intoHeap) });
      }
      if (data.error) request.reject(new EngineError(data.error));
      else if (data.json) settleModel(request, data);
      else request.resolve(data.result);
      // Once settled: a comparison's side asks for the diff then, which
      // keeps its worker (the heap it holds is freed after that).
      slots[slot].heap = data.heapBytes ?? slots[slot].heap;
      answered(slot);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      for (const request of pendingOn(slot)) {
        pending.delete(request.id);
        request.reject(new EngineError({ kind: 'internal', message: `the WebAssembly worker failed: ${event.message || 'unknown error'}` }));
      }
      stop(slot);
    };
    slots[slot].worker = worker;
  }

  /** The second worker, started while no worker has work. (The first is
   * started by a request: one stopped for its heap stays stopped until
   * the next, the memory given back.) */
  function startIdle() {
    if (!slots[1].worker && !pending.size) start(1);
  }

  /** A dump for the first worker alone: the second, if still starting, is
   * stopped (startIdle starts it again after the dump). */
  function spareCores() {
    if (slots[1].worker && !slots[1].warm && !pendingOn(1).length) stop(1);
  }

  /** After a worker's last word on a request: stopped if its heap has
   * grown past RECYCLE_HEAP_BYTES and it has nothing left to answer or
   * send; the second started when no worker has work. */
  function answered(slot) {
    const owes = [...following.values()].some((f) => f.slot === slot);
    if (slots[slot].heap > RECYCLE_HEAP_BYTES && !pendingOn(slot).length && !owes) stop(slot);
    if (!pending.size) whenIdle(startIdle);
  }

  /** The bytes a worker owed (`following`) and will not send, read by the
   * page from the file: as many as the worker read, or the source is
   * said to be missing (the file gone or changed since). */
  function readForPage(owed) {
    readWhole(owed.file).then((bytes) => owed.attach(asRead(bytes, owed.length))).catch((error) => owed.missing(error.message));
  }

  /** Stops a worker; the next request for it starts a fresh one. The
   * bytes it still owed the page, the page reads from the files itself. */
  function stop(slot) {
    for (const [id, owed] of following) {
      if (owed.slot !== slot) continue;
      following.delete(id);
      readForPage(owed);
    }
    slots[slot].heap = 0;
    slots[slot].worker?.terminate();
    slots[slot].worker = null;
    slots[slot].ready = false;
  }

  /** `dump`: the page's dump the message carries (dumpMessage), given
   * the bytes the worker read of it. */
  function request(message, transfer = [], parse = parseModel, onProgress = null, slot = 0, dump = null, onPreview = null) {
    if (!slots[slot].worker) start(slot);
    const id = next++;
    return new Promise((resolve, reject) => {
      const bytes = (message.bytes?.byteLength ?? message.file?.size ?? 0) + (message.cases ?? []).reduce((sum, c) => sum + c.bytes.byteLength, 0);
      pending.set(id, { id, slot, resolve, reject, type: message.type, bytes, parse, onProgress, onPreview, dump });
      slots[slot].worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** A newer request makes the pending ones moot: when one is a big dump
   * (a worker would be busy with it for a while), the workers are stopped
   * and they are rejected (kind 'superseded'); a small one just finishes. */
  function supersede() {
    const requests = [...pending.values()];
    if (!requests.some((r) => r.bytes >= SUPERSEDE_BYTES) || requests.some((r) => isQuick(r.type))) return;
    following.clear(); // their models are moot too
    for (let slot = 0; slot < WORKERS; slot++) stop(slot);
    pending.clear();
    for (const r of requests) r.reject(new EngineError({ kind: 'superseded', message: 'a newer request took over' }));
  }

  /** Both dumps read at once, one a worker, each with its side for the
   * comparison; then the worker that finished first compares the two
   * sides. */
  async function compare(oldDump, newDump, options, onProgress) {
    const dumps = [oldDump, newDump];
    const sizes = dumps.map(dumpSize);
    const shares = [0, 0];
    const total = sizes[0] + sizes[1] || 1;
    const told = (i) => onProgress && ((share) => {
      shares[i] = share;
      onProgress((shares[0] * sizes[0] + shares[1] * sizes[1]) / total);
    });
    // The comparison is asked for as the second side comes, before its
    // model is read, of the worker that finished first: the other is
    // still freeing what its dump took (a major GC).
    const sides = [null, null];
    let diff = null;
    let idle = null;
    const read = (i, side) => {
      const { message, transfer, own } = dumpMessage(dumps[i], slots[i].ready, true);
      return request({ type: 'side', ...message, options: { ...options[side], backend: options.backend } }, transfer,
        async (json, data) => {
          sides[i] = data.side ?? null;
          idle ??= i;
          if (sides[0] && sides[1]) {
            // The worker done first, unless stopped for its heap since: then this one.
            const slot = slots[idle].worker ? idle : i;
            diff = request({ type: 'diff', oldSide: sides[0], newSide: sides[1] }, sides, parseModel, null, slot);
          }
          if (data.bytesFollow) { // the worker sends them next: the model shows without them meanwhile
            const model = parseSplitModel(json, null);
            // Set before this message's handler returns (no await above):
            // the bytes' message, which comes after, finds it.
            following.set(data.id, {
              slot: i, file: dumps[i].file, length: data.length,
              attach: (bytes) => {
                dumps[i].bytes ??= bytes;
                model.attachDump(bytes);
              },
              missing: (why) => model.sourceMissing(why),
            });
            return model;
          }
          return parseSplitModel(json, await bytesOf(dumps[i], own, data));
        }, told(i), i, dumps[i]).catch((error) => {
        // Any refusal of a side names it: the core's, or one before the
        // model (a file that cannot be read, the worker failing).
        if (!error.side && error.kind !== 'superseded') error.side = side;
        throw error;
      });
    };
    const [old, young] = await both([read(0, 'old'), read(1, 'new')]);
    if (!diff) throw new EngineError({ kind: 'no_memory', message: 'out of memory in the WebAssembly heap' });
    return { old, new: young, diff: await diff };
  }

  return {
    stats,
    /** The model of `dump` ({ file, bytes }: the page's, whose `bytes`,
     *  when null, are set to those the worker read of `file`), read a
     *  function at a time as it is used (parseSplitModel in core.js):
     *  its source lines from `dump.bytes`. `onProgress(share)`: how much
     *  of the dump the core has read. `onPreview(model)`, for a dump of
     *  PREVIEW_BYTES or more: the model of its first function alone (no
     *  pipes), before the rest is read; not called when that function has
     *  no tile placed or tiles the dump is refused for (the whole model, or the
     *  refusal, comes as for any dump). */
    analyze: (dump, options, onProgress = null, onPreview = null) => {
      spareCores();
      const { message, transfer, own } = dumpMessage(dump, slots[0].ready);
      const preview = Boolean(onPreview) && dumpSize(dump) >= PREVIEW_BYTES;
      // A preview that fails to read is dropped: the whole model says why, if anything is wrong.
      const showPreview = preview ? (json) => previewModel(json, dump).then(onPreview, () => {}) : null;
      return request({ type: 'analyze', ...message, preview, options }, transfer, async (json, data) => parseSplitModel(json, await bytesOf(dump, own, data)),
        onProgress, 0, dump, showPreview);
    },
    /** Both models and their comparison: { old, new, diff }, each dump
     *  read as analyze reads one, but for a big one's bytes, which come
     *  after its model: its functions' `source` is null until
     *  `model.sourceReady` (core.js parseSplitModel); a refusal says its `side`. Options:
     *  { old: { dumpName, ptoText }, new: { ... }, backend };
     *  `onProgress(share)` as for analyze, over both dumps. */
    compare: (oldDump, newDump, options, onProgress = null) => compare(oldDump, newDump, options, onProgress),
    /** A build's cases read for its overview: `cases` [{ bytes (an
     *  ArrayBuffer, handed over, or a promise of one), options: {
     *  dumpName, ptoText, caseName, dumpPath } }]; resolves to each
     *  case's build JSON, in order. The cases go to both workers in
     *  chunks, each as soon as its bytes are read: reading thousands of
     *  files is the browser's slowest part, and the models are made
     *  meanwhile. `onProgress(share)`: the share of cases read. A chunk
     *  whose bytes come once `wanted()` is false (a newer action took
     *  over), or once a file could not be read, is not sent. */
    build: async (cases, options, onProgress = null, wanted = () => true) => {
      const chunks = [];
      for (let at = 0; at < cases.length; at += BUILD_CHUNK_CASES) chunks.push(cases.slice(at, at + BUILD_CHUNK_CASES));
      const shares = chunks.map(() => 0);
      const tell = (k, share) => {
        shares[k] = share * chunks[k].length;
        onProgress?.(shares.reduce((a, b) => a + b, 0) / cases.length);
      };
      let failed = false;
      const results = await Promise.all(chunks.map(async (chunk, k) => {
        const bytes = await Promise.all(chunk.map((c) => c.bytes)).catch((error) => {
          failed = true;
          throw error;
        });
        if (failed || !wanted()) throw new EngineError({ kind: 'superseded', message: 'a newer request took over' });
        const message = { type: 'build', cases: chunk.map((c, i) => ({ ...c, bytes: bytes[i] })), options };
        const result = await request(message, bytes, undefined, (share) => tell(k, share), k % WORKERS);
        tell(k, 1); // a quick chunk says nothing on its way
        return result;
      }));
      return results.flat();
    },
    /** Where a tile fits (options as fitTile's in core.js); the buffer
     *  goes to the worker. */
    fit: (bytes, options) => request({ type: 'fit', bytes, options }, [bytes]),
    /** One function's map as SVG text (options as dumpSvg's in core.js);
     *  the buffer goes to the worker. */
    svg: (bytes, options) => request({ type: 'svg', bytes, options }, [bytes]),
    backends: () => request({ type: 'backends' }),
    /** What each folder of pass dumps says (chooseInFolder in core.js):
     *  `folders` [{ names, pass, folder }]; resolves to their choices. */
    folders: (folders) => request({ type: 'folders', folders }),
    /** The cases of a dropped folder (casesInTree in core.js): `paths`
     *  its files' paths; resolves to mm_cases_json's answer. */
    cases: (paths) => request({ type: 'cases', paths }),
    supersede,
  };
}
