// The WebAssembly heap a dump will need, grown and touched while its file
// is read. A page of memory costs most the first time it is written (the
// system maps it in then: ~2.4 ms a MB on the machine of docs/bench.md),
// and the core's heap is written for the first time as the dump is read:
// for a 10 MB dump ~40-80 ms of its ~120. Reading the file is partly
// waiting on the browser's side of it, so some of that time is spent
// then, a slice between the file's chunks (10 MB: the core 146 -> 95 ms;
// 50 MB: a wash, the read as much slower as the core faster).

/** The heap a dump of `size` bytes takes, at most (the core's model,
 * JSON and the dump's own copy; measured on dumps of 5-50 MB). */
export const heapFor = (size) => Math.min(Math.ceil(HEAP_PER_DUMP_BYTE * size) + HEAP_BASE_BYTES, HEAP_TOUCHED_AT_MOST);

const HEAP_PER_DUMP_BYTE = 3.5;
const HEAP_BASE_BYTES = 8 << 20;
// Past this the estimate would hold more memory than a dump may need.
const HEAP_TOUCHED_AT_MOST = 256 << 20;
// A smaller dump's heap is written by the warm-up (worker.js).
const DUMP_SIZE_AT_LEAST = 2 << 20;
// A slice between two of the file's chunks: ~2.5 ms here.
const TOUCH_SLICE = 1 << 20;

/** The next task: the file's chunks, queued meanwhile, go first (a
 * timeout would be held 4 ms after a few). */
const nextTask = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    resolve();
  };
  channel.port2.postMessage(null);
});

/**
 * Takes from `instance`'s heap what a dump of `size` bytes takes (growing
 * it) and writes it, a slice a task, until done or `reading()` says the
 * file is read (the rest is then left to the core); then frees it for the
 * core. All of it is written: which pages of it an earlier dump or the
 * warm-up wrote is not known, and writing those again is quick. Resolves
 * to the bytes written.
 */
export async function touchHeap(instance, size, reading) {
  if (size < DUMP_SIZE_AT_LEAST || !reading()) return 0;
  const bytes = heapFor(size);
  const ptr = instance._malloc(bytes);
  if (!ptr) return 0;
  let at = 0;
  try {
    while (at < bytes && reading()) {
      const end = Math.min(bytes, at + TOUCH_SLICE);
      instance.HEAPU8.fill(0, ptr + at, ptr + end);
      at = end;
      await nextTask();
    }
  } finally {
    instance._free(ptr);
  }
  return at;
}
