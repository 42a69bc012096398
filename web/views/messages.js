// What the page says instead of, or above, the map (DOM): a message
// (welcome, loading, error with the dump's line) and the printer's notes.
import { dumpLines } from '../engine/model-json.js';
import { clear, el } from '../base/dom.js';
import { $, page, setTitle } from '../base/page-state.js';

/** What only PyPTO's printer writes and the core read anyway: one line
 * per kind, at its first line, above the cards (text only). */
export function showNotes(model) {
  const box = $('notes');
  clear(box);
  const kinds = new Map();
  for (const note of model?.notes ?? []) {
    const kind = kinds.get(note.text) ?? { first: note.line, times: 0 };
    kind.times++;
    kinds.set(note.text, kind);
  }
  // What the core told of the folder's choice (another pass opened).
  const told = model ? page.input?.note : null;
  if (told) box.append(el('p', { class: 'folder-note' }, told));
  box.hidden = kinds.size === 0 && !told;
  if (!kinds.size) return;
  const more = (model.note_count ?? 0) - model.notes.length;
  box.append(el('strong', {}, 'Not Python, read anyway: this dump holds what only the compiler\'s printer writes'),
    el('ul', {}, [...kinds].map(([text, { first, times }]) =>
      el('li', {}, `line ${first}${times > 1 ? ` (and ${times - 1} more)` : ''}: ${text}`))));
  if (more > 0) box.append(el('p', {}, `and ${more} more notes`));
}

/** The welcome, on a fresh tab whose link names a view: what it asks
 * for, above the welcome's own words. */
export function showLinkWanted(text) {
  const box = $('message');
  box.querySelector('.link-wanted')?.remove();
  box.prepend(el('p', { class: 'link-wanted', role: 'status' }, text));
}

/** Shows a message of `kind` ('loading', 'note', 'error', or 'empty': a
 * dump with nothing on chip, told as a note) instead of the map; an error
 * or an empty dump takes the dump shown away with it. */
export function showMessage(kind, title, detail) {
  page.tooltip.hide();
  const replaces = kind === 'error' || kind === 'empty';
  if (replaces || kind === 'loading') showNotes(null);
  const box = $('message');
  clear(box);
  box.className = `message ${kind === 'empty' ? 'note' : kind}`;
  box.setAttribute('role', kind === 'error' ? 'alert' : 'status'); // read out as it changes
  box.append(el('h2', {}, title));
  if (detail) box.append(el('p', { class: 'detail' }, detail));
  box.hidden = false;
  $('cards').hidden = true;
  $('legend').hidden = true;
  $('summary').querySelector('.progress')?.remove(); // a big dump's, read no more
  if (replaces) {
    if (page.examples?.childElementCount && !page.embed) box.append(page.examples); // a way back to work without a file
    clear($('summary'));
    $('summary').title = '';
    clear($('cards')); // the refused dump's cards go, not only out of sight
    setTitle(null);
    page.cards = [];
    page.compareView = null;
    document.body.classList.remove('comparing');
    page.finder.clear();
    $('search').disabled = true;
    $('copy-link').hidden = true;
  }
}

/** A loading message's bar shows once the work has taken this long: a
 * quick drop flashes nothing. */
const PROGRESS_AFTER_MS = 200;

/** A progress bar and the words beside it, hidden: showProgress fills it. */
export const progressBar = () => el('div', { class: 'progress', hidden: true },
  el('progress', { max: '1', 'aria-label': 'Progress' }), el('span', { class: 'progress-stage' }));

/**
 * The loading message's progress: `stage` ('Loading the file',
 * 'Analyzing') and the share of it done (0..1; null: not known). The bar
 * is made with the message and shown after PROGRESS_AFTER_MS; a later
 * message replaces it. While a big dump's first card shows (display.js
 * showPreview), the top bar's bar is the one moved.
 */
export function showProgress(stage, share = null) {
  const box = $('message');
  const bar = box.hidden ? $('summary').querySelector('.progress') : loadingBar(box);
  if (!bar) return;
  const meter = bar.querySelector('progress');
  if (share === null) meter.removeAttribute('value'); // indeterminate
  else meter.value = share;
  const label = bar.dataset.stage ?? stage; // the top bar's says what it is of
  bar.querySelector('.progress-stage').textContent = share === null ? `${label}…` : `${label}… ${Math.round(share * 100)}%`;
}

/** The loading message's bar, made (and shown after PROGRESS_AFTER_MS)
 * when it has none; null when the message is not a loading one. */
function loadingBar(box) {
  if (!box.classList.contains('loading')) return null;
  let bar = box.querySelector('.progress');
  if (!bar) {
    bar = progressBar();
    box.append(bar);
    setTimeout(() => { bar.hidden = false; }, PROGRESS_AFTER_MS);
  }
  return bar;
}

/** Line `number` (1-based) of the dump, for showing where an error is. */
function lineOf(bytes, number) {
  let line = dumpLines(bytes)[number - 1];
  if (line === undefined) return null;
  if (number === 1) line = line.replace(/^\uFEFF/, ''); // a byte order mark is not shown
  // Whole up to 1000 characters (a printed tile annotation is a few
  // hundred); past that, a hostile line would fill the page.
  return line.length > 1000 ? `${line.slice(0, 1000)}…` : line;
}

/** `line`'s text with the word (or character) at `column` (1-based, in
 * characters; 0: none) in a <mark>. */
export function markColumn(line, column) {
  const chars = Array.from(line);
  if (!column || column > chars.length) return [line];
  const rest = chars.slice(column - 1).join('');
  const word = rest.match(/^[\p{L}\p{N}_]+/u)?.[0] ?? Array.from(rest)[0];
  return [chars.slice(0, column - 1).join(''), el('mark', {}, word), rest.slice(word.length)];
}

/** Shows why the core refused the dump (`name`, its `bytes` for the line
 * quoted); `drawLifetimes` draws it by lifetime instead, offered when the
 * dump holds no addresses. */
export function showError(name, error, bytes, drawLifetimes) {
  if (error.side && page.base) {
    const input = error.side === 'old' ? page.base : page.input;
    name = `${input.label} (the ${error.side} side)`;
    bytes = input.bytes;
  }
  const where = error.line ? `${name}, line ${error.line}${error.column ? `, column ${error.column}` : ''}` : name;
  // A program that keeps only tensors in DDR is no broken dump: there is nothing on chip to draw.
  if (error.nothingOnChip) showMessage('empty', `Nothing on chip in ${name}`, error.message.replace(/^nothing on chip to map: /, ''));
  else showMessage('error', `Cannot show ${where}`, error.message);
  const context = bytes && error.line ? lineOf(bytes, error.line) : null;
  if (context !== null) {
    $('message').append(el('pre', { class: 'context' }, el('span', { class: 'ln' }, String(error.line)), ...markColumn(context, error.column)));
  }
  $('message').dataset.kind = error.kind || 'internal';
  if (page.input?.ptoAfter && !page.base) $('message').append(el('p', { class: 'pto-note' }, `${page.input.ptoAfter} was applied for the chip: the dump is still refused.`));
  // No addresses (a build planned by ptoas, or a dump before allocation):
  // what is live when, and how much it takes, can still be shown.
  if (error.kind === 'unallocated' && !error.side && page.input && !page.base) {
    $('message').append(el('p', {}, el('button', { class: 'draw-lifetimes', onclick: drawLifetimes }, 'Draw by size and lifetime'),
      ' — buffers packed by when they live; the least any placement needs.'));
  }
  if (page.examples?.parentNode === $('message')) $('message').append(page.examples); // last
}
