// What the page's modules share: its state, its elements by id, its title.

export const $ = (id) => document.getElementById(id);

export const page = {
  engine: null,
  // The dump shown or being read: { name, path (in a folder or on the site,
  // when known), bytes: ArrayBuffer, or file: File with bytes null until
  // read, pto: string|null, folderName, planner and lifetimes
  // (who placed its build, as its folder says; drawn by lifetime) }; when comparing, `input`
  // is the new one and `base` the old (same shape), each with the `label`
  // the comparison names it by.
  input: null,
  base: null,
  dumpName: null, // the dump from disk whose cards show (links name it), or null
  // The case folder the pass pickers read again: { kase (folder.js
  // casesOf's: its dumps' pool and .pto files), name, inBuild },
  // kept when its dump is refused; null when no folder is open.
  folder: null,
  // A build_output/ folder of cases shown as an overview: { name, cases
  // (each { name, kase, dump, pto (its text), path } or { name, kase,
  // error }), data
  // (overview.js mergeCases, once read), onOpen(case, fn), onBack() };
  // and the case of it open (its name), or null.
  build: null,
  openCase: null,
  // A .pto opened with no dump: { names, text }, for the next dump opened.
  pendingPto: null,
  examples: null, // the welcome's example buttons, offered again under an error
  compareView: null, // the compare view shown, or null
  embed: false, // ?embed: one function's map alone, in a docs page's iframe
  fullView: null, // the embedded map's link to the full page
  generation: 0, // counts the user's actions: only the last one's result is shown
  topbarHeight: 56, // px, kept by trackTopbar
  pass: 'AllocateMemoryAddr',
  comparePass: '', // a folder's pass to compare with ('' for none)
  cards: [],
  lastPinned: null,
  current: null, // the card the URL hash describes
  currentSide: null, // and its side, in a compare view
  tooltip: null,
  finder: null,
  shortcuts: null,
  // Timings a benchmark can read (window.memoryMapStats), performance.now()
  // of each step: a file arrived, (a build's files) read, the model back
  // from the worker and its heads parsed, the cards made, the first card
  // painted (a big dump's: from its first function alone, shown when
  // `previewed`, before the whole model; display.js showPreview); the worker's last request: ms it took to read the file and
  // the core's own ms, its heap, whether it read the file into the heap
  // (engine.js dumpMessage); and the model's `lazy` counts (core.js
  // readLazily: the bodies parsed so far); when a card was rehearsed
  // (rehearsal.js), or 0.
  stats: { received: 0, read: 0, modelled: 0, shown: 0, firstCardPainted: 0, previewed: 0, readMs: 0, coreMs: 0, heapBytes: 0, intoHeap: false, bodies: null, rehearsed: 0 },
};

/** What the core is told of `input` (page.input's shape) as it reads it:
 * its name, the backend picked, its case's .pto, whether it is drawn by
 * lifetime and who placed its build (core.js analyzeDumpJson). */
export function readingOf(input) {
  return { dumpName: input.name, backend: $('backend').value || null, ptoText: input.pto,
    lifetimes: Boolean(input.lifetimes), planner: input.planner ?? 'unknown' };
}

/** The page's title: the dump shown, or none. */
export function setTitle(dump) {
  document.title = dump ? `${dump} — Memory Map` : 'Memory Map';
}
