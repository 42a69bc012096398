// A dropped dump's bytes: read whole, or straight into the core's heap a
// chunk at a time, and refused as unreadable when the file is gone or
// changes while it is read. No DOM: the page's worker reads with it.
import { address, outOfMemory } from './heap.js';

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
