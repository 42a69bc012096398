// Running the core on the dumps chosen: each user action supersedes the
// ones still under way, and only its result (the map, or why not) shows.
import { sideLabels } from '../model/diff.js';
import { MANY_CARDS } from '../card/card-groups.js';
import { showBuild, showCompare, showModel, showPreview } from '../views/display.js';
import { showError, showMessage, showProgress } from '../views/messages.js';
import { mergeCases } from '../views/overview.js';
import { $, page, readingOf } from '../base/page-state.js';

/**
 * A new action of the user's (a drop, a file or folder opened, a pass, a
 * .pto, a backend, an example, a link): it supersedes every earlier one
 * still under way, whose result is then dropped when it arrives (and a
 * big dump's work in the worker is stopped). Returns the test each step
 * of the action makes after an await: is it still the latest?
 */
export function begin() {
  const generation = ++page.generation;
  page.engine.supersede();
  return () => generation === page.generation;
}

/** The two dumps compared: each read by a worker of its own, then compared (engine.js). */
async function analyzeCompare(current) {
  const { input, base } = page;
  const facts = (side) => ({
    name: side.name, path: side.path, size: side.file?.size ?? side.bytes?.byteLength, modified: side.file?.lastModified,
  });
  [base.label, input.label] = sideLabels(facts(base), facts(input));
  showMessage('loading', `Comparing ${base.label} with ${input.label}…`);
  const backend = $('backend').value || null;
  const { stats } = page;
  stats.firstCardPainted = 0;
  try {
    showProgress('Analyzing', 0);
    const data = await page.engine.compare(base, input, { old: readingOf(base), new: readingOf(input), backend },
      (share) => current() && showProgress('Analyzing', share));
    stats.modelled = performance.now();
    if (!current()) return;
    stats.bodies = data.new.lazy;
    Object.assign(stats, page.engine.stats);
    showCompare(data, swapCompared, [base.label, input.label]);
    stats.shown = performance.now();
    requestAnimationFrame(() => setTimeout(() => { stats.firstCardPainted = performance.now(); }));
  } catch (error) {
    if (current()) showError(`${base.label} → ${input.label}`, error, null);
  }
}

export async function analyze(current = begin()) {
  const { input } = page;
  if (page.build && !page.openCase) { // the overview: every case read again (another backend)
    page.build.data = null;
    return analyzeBuild(current);
  }
  if (!input) return;
  if (page.base) return analyzeCompare(current);
  showMessage('loading', `Reading ${input.name}…`);
  page.stats.firstCardPainted = 0;
  const { stats } = page;
  stats.previewed = 0;
  // The link the dump was opened with: the hash the preview's card writes
  // as it opens is not the user's, and is replaced by it; one written as
  // the user changed that card is kept for the whole model.
  const link = location.hash;
  let previewHash = null;
  let settled = false; // a preview later than the model or its refusal is dropped
  let read = 0; // the share of the dump read so far: the top bar's bar goes on from it
  try {
    showProgress('Analyzing', 0);
    const model = await page.engine.analyze(input, readingOf(input),
      (share) => {
        read = share;
        if (current()) showProgress('Analyzing', share);
      },
      page.embed ? null : (preview) => {
        if (settled || !current()) return;
        showPreview(preview, link);
        showProgress('Analyzing', read);
        stats.previewed = performance.now();
        queueMicrotask(() => { previewHash = location.hash; }); // after the card's own (display.js linkChanged)
      });
    settled = true;
    stats.modelled = performance.now();
    // A big model's heads took a long task to parse: the cards wait for the
    // next, so a scroll or a second drop is not held for both.
    if (model.functions.length > MANY_CARDS) await new Promise((resolve) => setTimeout(resolve));
    if (!current()) return;
    stats.bodies = model.lazy;
    Object.assign(stats, page.engine.stats);
    showModel(model, current, previewHash !== null && location.hash === previewHash ? link : location.hash);
    stats.shown = performance.now();
  } catch (error) {
    settled = true;
    if (current()) showError(input.name, error, input.bytes, drawLifetimes);
  }
}

/** The dump refused for holding no addresses, drawn by lifetime instead. */
function drawLifetimes() {
  page.input.lifetimes = true;
  analyze();
}

/** A comparison's ⇄: old and new change places and are compared again. */
function swapCompared() {
  if (!page.base) return;
  [page.base, page.input] = [page.input, page.base];
  analyze();
}

/** A case the page could not resolve (no dump for the pass): its entry in
 * the build, as the core writes a case it could not read. */
const unreadCase = (c) => ({
  cases: [{ name: c.name, dump: c.folder, backend: null, backend_detected: false, functions: 0, problems: 0,
    error: { status: 'unreadable', message: c.error, line: 0 } }],
  rows: [], problems: [],
});

/** A build's overview: every case's dump read by the core, in chunks on
 * both workers (read once; Back to it shows it again). */
export async function analyzeBuild(current = begin()) {
  const { build } = page;
  if (!build) return;
  if (build.data) return showBuild(build);
  showMessage('loading', `Reading ${build.cases.length} cases of ${build.name}…`);
  const { stats } = page;
  stats.firstCardPainted = 0;
  try {
    const readable = build.cases.filter((c) => c.dump);
    // Every file asked for at once; each chunk of cases is modelled as
    // its files come.
    const bytes = readable.map((c) => c.dump.file.arrayBuffer());
    Promise.all(bytes).then(() => { stats.read = performance.now(); }, () => {});
    showProgress('Reading and analyzing', 0);
    const results = await page.engine.build(readable.map((c, i) => ({
      bytes: bytes[i], options: { dumpName: c.dump.name, ptoText: c.pto, caseName: c.name, dumpPath: c.path, planner: c.planner, lifetimes: c.lifetimes },
    })), { backend: $('backend').value || null }, (share) => current() && showProgress('Reading and analyzing', share), current);
    if (!current()) return;
    stats.modelled = performance.now();
    let next = 0;
    build.data = mergeCases(build.cases.map((c) => (c.dump ? results[next++] : unreadCase(c))));
    showBuild(build);
    stats.shown = performance.now();
    requestAnimationFrame(() => setTimeout(() => { stats.firstCardPainted = performance.now(); }));
  } catch (error) {
    if (current()) showError(build.name, error, null);
  }
}
