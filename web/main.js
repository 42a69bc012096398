// The page: getting a dump in (drop, file button, folder, example), running
// the core in the worker, and showing the model or the refusal.
import { Card } from './card.js';
import { CompareView } from './compare.js';
import { attachSource } from './core.js';
import { clear, el } from './dom.js';
import { orderPair } from './diff.js';
import { createEngine } from './engine.js';
import { copyLink, exportMap } from './export.js';
import { Finder } from './finder.js';
import { resolveFolder } from './folder.js';
import { dumpSource, embedOptions, formatLink, fullPageUrl, parseLink } from './link.js';
import { showError, showMessage, showNotes } from './messages.js';
import { $, page, setTitle } from './page-state.js';
import { ShortcutsOverlay } from './shortcuts.js';
import { listenToTheme, setTheme } from './theme.js';
import { Tooltip } from './tooltip.js';

// ------------------------------------------------------------- showing

let measuredWidth = 0;
/** The inner width of a card's map, the same for every card: measured once
 * (a layout read) and again after the window is resized. */
function mapWidth() {
  measuredWidth ||= cardsWidth();
  return measuredWidth;
}

/** The cards' inner width from <main>'s, which shows before any card: read
 * at start (and after a resize) when the page is small, not after the
 * cards are added, when a read would lay out all of them at once. */
function cardsWidth() {
  const main = document.querySelector('main');
  const style = getComputedStyle(main);
  return main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
}

/** Measures the cards' width now, while the page is small (see cardsWidth). */
function measureWidth() {
  measuredWidth = cardsWidth();
}

function relayoutOnResize() {
  let timer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      measuredWidth = 0;
      for (const card of page.cards) if (card.state.open) card.layout();
    }, 100);
  });
}

/** The top bar's one line about the dump; its full text is the title
 * (the line ends in an ellipsis where the bar is narrow). */
function summary(model) {
  const tiles = model.functions.reduce((n, f) => n + f.boxes.length, 0);
  const { backend } = model;
  const fns = `${model.functions.length} compute function${model.functions.length === 1 ? '' : 's'}`;
  const parts = [model.dump, `pass ${model.pass_name}`, fns, `${tiles} tile${tiles === 1 ? '' : 's'}`,
    `${backend.name} (${backend.arch})${backend.detected ? '' : ' assumed: no -b and no ptoas/*.pto target arch'}`];
  $('summary').title = parts.join(' · ');
  return [
    el('span', { class: 'dump-name' }, model.dump),
    el('span', {}, ` · pass ${model.pass_name}`),
    el('span', {}, ` · ${fns}`),
    el('span', {}, ` · ${tiles} tile${tiles === 1 ? '' : 's'}`),
    el('span', { class: 'backend-info' }, ` · ${backend.name} (${backend.arch})`,
      backend.detected ? null : el('span', { class: 'assumed' }, ' assumed')),
  ];
}

/** The hash follows the card last opened, pinned, zoomed or filtered:
 * written once after the current task (opening every card, or a drag,
 * writes it once, not per step). */
function linkChanged(card, side = null) {
  page.current = card;
  page.currentSide = side;
  if (page.linkPending) return;
  page.linkPending = true;
  queueMicrotask(() => {
    page.linkPending = false;
    const hash = page.current ? formatLink({ ...page.current.viewState(), side: page.currentSide }) : '';
    if (hash !== location.hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    if (page.fullView) page.fullView.href = fullPageUrl(location.href);
  });
}

/**
 * Shows `model`: the first card is made, opened and painted before the
 * others are made (in a fresh tab most of the time to the first card went
 * to making 38 closed cards). With a deep link every card is made at once,
 * as it may name any. `current` says whether the action is still the
 * user's latest when the rest is made.
 */
function showModel(model, current = () => true) {
  page.tooltip.hide();
  page.finder.clear();
  page.compareView = null;
  document.body.classList.remove('comparing');
  const wanted = parseLink(location.hash); // read before the first card rewrites it
  // Embedded in a docs page: the linked function's map alone.
  const shownFns = page.embed ? [model.functions.find((fn) => fn.name === wanted?.fn) ?? model.functions[0]].filter(Boolean) : model.functions;
  // Each space's pills in a column of their own, the same on every card.
  const spaceRank = new Map();
  for (const fn of shownFns) for (const s of [...fn.spaces, ...(fn.reserved_only_spaces ?? [])]) spaceRank.set(s.space, s.rank);
  const columns = [...spaceRank.keys()].sort((a, b) => spaceRank.get(a) - spaceRank.get(b) || (a < b ? -1 : 1));
  const cards = $('cards');
  cards.style.setProperty('--pill-columns', String(columns.length));
  const makeCard = (fn) => new Card(fn, {
    // The core draws the image from the dump's bytes: not on a page the
    // command line wrote (its model only; `--svg FUNCTION` there).
    exportMap: page.input?.bytes ? (card, kind) => exportMap(model, card, kind) : null,
    sourceOnPin: !page.embed, // a frame is too narrow to give the map's room to the source
    spaceColumn: (space) => columns.indexOf(space) + 1,
    tooltip: page.tooltip,
    onPin: (card) => { page.lastPinned = card; },
    onChange: linkChanged,
    mapWidth,
    topbarHeight: () => page.topbarHeight,
  });
  const first = wanted ? shownFns.length : Math.min(1, shownFns.length);
  page.cards = shownFns.slice(0, first).map(makeCard);
  clear($('summary'));
  $('summary').append(...summary(model));
  $('message').hidden = true;
  showNotes(model);
  clear(cards);
  cards.dataset.complete = 'false';
  cards.append(...page.cards.map((c) => c.element));
  cards.hidden = false;
  $('legend').hidden = false;
  // Only the first card is opened: the others are built when opened.
  page.cards[0]?.setOpen(true);
  setTitle(model.dump);
  page.fullView = null;
  if (page.embed && page.cards[0]) {
    // The corner link: this view in the full page.
    page.fullView = el('a', {
      class: 'full-view', href: fullPageUrl(location.href), target: '_blank', rel: 'noopener',
      title: 'Open this view in the full page (a new tab)',
    }, 'Open the full map ↗');
    page.cards[0].element.querySelector('.card-head').append(page.fullView);
  }
  const finish = () => {
    page.finder.setModel(page.embed ? { ...model, functions: shownFns } : model, page.cards);
    $('search').disabled = false;
    $('copy-link').hidden = false;
    const target = wanted && page.cards.find((c) => c.fn.name === wanted.fn);
    if (target) target.applyView(wanted);
    cards.dataset.complete = 'true';
  };
  requestAnimationFrame(() => setTimeout(() => { page.stats.firstCardPainted = performance.now(); }));
  if (first === shownFns.length) return finish();
  requestAnimationFrame(() => setTimeout(() => {
    if (!current()) return;
    const rest = shownFns.slice(first).map(makeCard);
    page.cards.push(...rest);
    cards.append(...rest.map((c) => c.element));
    finish();
  }));
}

/** The compare view's one line in the top bar. */
function compareSummaryLine(data) {
  const { counts } = data.diff;
  const text = `${data.old.dump} → ${data.new.dump} · ${counts.functions.changed} of ${data.diff.functions.length} functions changed`;
  $('summary').title = text;
  return [el('span', { class: 'dump-name' }, `${data.old.dump} → ${data.new.dump}`),
    el('span', {}, ` · ${counts.functions.changed} of ${data.diff.functions.length} functions changed`)];
}

/** Shows two dumps compared: { old, new, diff } (source lines attached);
 * `onSwap` swaps them, where the page has both dumps to run again. */
function showCompare(data, onSwap = null) {
  page.tooltip.hide();
  page.finder.clear();
  const view = new CompareView(data, {
    tooltip: page.tooltip,
    onPin: (card) => { page.lastPinned = card; },
    onChange: (compareCard, side, card) => linkChanged(card, side),
    mapWidth,
    topbarHeight: () => page.topbarHeight,
    onSwap: page.base ? onSwap : null,
  });
  page.compareView = view;
  page.cards = [];
  clear($('summary'));
  $('summary').append(...compareSummaryLine(data));
  $('message').hidden = true;
  showNotes(null);
  const cards = $('cards');
  clear(cards);
  cards.append(view.element);
  cards.hidden = false;
  cards.dataset.complete = 'true';
  $('legend').hidden = false;
  document.body.classList.add('comparing');
  setTitle(`${data.old.dump} → ${data.new.dump}`);
  const n = view.stops.length;
  $('anomalies').hidden = false;
  $('anomalies').classList.toggle('none', n === 0);
  $('anomaly-count').textContent = n ? `${n} change${n === 1 ? '' : 's'}` : 'no changes';
  $('anomaly-count').title = 'Changed tiles, and conflicts or tiles over capacity that appeared or went. N / Shift+N: next / previous';
  const targets = view.searchTargets();
  page.finder.setSearch(targets.model, targets.cards);
  $('search').disabled = false;
  $('copy-link').hidden = false;
  const wanted = parseLink(location.hash);
  if (wanted) view.applyView(wanted);
}

/** The top bar's height as a CSS variable: what a jump keeps clear of
 * (cards' scroll margin, the map's height), whatever its wrapping. */
function trackTopbar() {
  const bar = $('topbar');
  const set = () => {
    page.topbarHeight = bar.offsetHeight;
    document.documentElement.style.setProperty('--topbar-height', `${page.topbarHeight}px`);
  };
  new ResizeObserver(set).observe(bar);
  set();
}

// ------------------------------------------------------------ analysing

/**
 * A new action of the user's (a drop, a file or folder opened, a pass, a
 * .pto, a backend, an example, a link): it supersedes every earlier one
 * still under way, whose result is then dropped when it arrives (and a
 * big dump's work in the worker is stopped). Returns the test each step
 * of the action makes after an await: is it still the latest?
 */
function begin() {
  const generation = ++page.generation;
  page.engine.supersede();
  return () => generation === page.generation;
}

/** The two dumps compared: both read, the core compares them in the worker. */
async function analyseCompare(current) {
  const { input, base } = page;
  showMessage('loading', `Comparing ${base.name} with ${input.name}…`);
  const backend = $('backend').value || null;
  const { stats } = page;
  stats.firstCardPainted = 0;
  try {
    base.bytes ??= await base.file.arrayBuffer();
    input.bytes ??= await input.file.arrayBuffer();
    if (!current()) return;
    stats.read = performance.now();
    const data = await page.engine.compare(base.bytes.slice(0), input.bytes.slice(0), {
      old: { dumpName: base.name, ptoText: base.pto }, new: { dumpName: input.name, ptoText: input.pto }, backend,
    });
    stats.modelled = performance.now();
    if (!current()) return;
    attachSource(data.old, base.bytes);
    attachSource(data.new, input.bytes);
    stats.attached = performance.now();
    Object.assign(stats, page.engine.stats);
    showCompare(data, swapCompared);
    stats.shown = performance.now();
    requestAnimationFrame(() => setTimeout(() => { stats.firstCardPainted = performance.now(); }));
  } catch (error) {
    if (current()) showError(`${base.name} → ${input.name}`, error, null);
  }
}

async function analyse(current = begin()) {
  const { input } = page;
  if (!input) return;
  if (page.base) return analyseCompare(current);
  showMessage('loading', `Reading ${input.name}…`);
  const backend = $('backend').value || null;
  page.stats.firstCardPainted = 0;
  const { stats } = page;
  try {
    input.bytes ??= await input.file.arrayBuffer();
    if (!current()) return;
    stats.read = performance.now();
    const parsed = await page.engine.analyze(input.bytes.slice(0), { dumpName: input.name, backend, ptoText: input.pto, lifetimes: Boolean(input.lifetimes) });
    stats.modelled = performance.now();
    const model = attachSource(parsed, input.bytes);
    if (!current()) return;
    stats.attached = performance.now();
    Object.assign(stats, page.engine.stats);
    showModel(model, current);
    stats.shown = performance.now();
  } catch (error) {
    if (current()) showError(input.name, error, input.bytes, drawLifetimes);
  }
}

/** The dump refused for holding no addresses, drawn by lifetime instead. */
function drawLifetimes() {
  page.input.lifetimes = true;
  analyse();
}

/** A comparison's ⇄: old and new change places and are compared again. */
function swapCompared() {
  if (!page.base) return;
  [page.base, page.input] = [page.input, page.base];
  analyse();
}

// ------------------------------------------------------------- input

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function ptoText(files) {
  const texts = await Promise.all([...files].sort(byName).map((f) => f.text()));
  return texts.length ? texts.join('\n') : null;
}

/** Files from the button or a drop: a dump, .pto files, or both. */
async function openFiles(files, current = begin()) {
  const dumps = files.filter((f) => !f.name.endsWith('.pto'));
  const pto = files.filter((f) => f.name.endsWith('.pto'));
  if (!dumps.length && pto.length && page.input) {
    // A .pto dropped after the dump: it only sets the backend.
    const text = await ptoText(pto);
    if (!current()) return;
    page.input = { ...page.input, pto: text };
    return analyse(current);
  }
  if (!dumps.length) return showMessage('error', 'Nothing to show', 'Drop a pass dump (.py), a build_output/<case>/ folder, or a .pto with a dump.');
  if (dumps.length > 2) return showMessage('error', `${dumps.length} dumps at once`, 'Drop one dump to see it, or two to compare them (the lower pass number is the old one).');
  // The input is known at once (its bytes are read by analyse): a .pto
  // dropped while they are read applies to it.
  const inputs = dumps.map((file) => ({ name: file.name, file, bytes: null, pto: null }));
  const [older, newer] = inputs.length === 2 ? orderPair(inputs[0], inputs[1]) : [null, inputs[0]];
  setLinkedDump(null);
  page.input = newer;
  page.base = older;
  hideFolderPickers();
  if (pto.length) {
    const text = await ptoText(pto);
    for (const input of inputs) input.pto = text;
  }
  return current() ? analyse(current) : undefined;
}

function hideFolderPickers() {
  $('pass-picker').hidden = true;
  $('compare-picker').hidden = true;
}

/** A folder: resolve like the CLI, offer the passes it holds, and the
 * passes to compare with (`page.comparePass`, '' for none). */
async function openFolder(entries, folderName, current = begin()) {
  setLinkedDump(null);
  const resolved = resolveFolder(entries, page.pass, folderName);
  const picker = $('pass');
  clear(picker);
  picker.append(...resolved.passes.map((p) => el('option', { value: p, selected: p === page.pass }, p)));
  $('pass-picker').hidden = resolved.passes.length === 0;
  const others = resolved.passes.filter((p) => p !== page.pass);
  if (!others.includes(page.comparePass)) page.comparePass = '';
  const compare = $('compare-pass');
  clear(compare);
  compare.append(el('option', { value: '' }, '—'), ...others.map((p) => el('option', { value: p, selected: p === page.comparePass }, p)));
  $('compare-picker').hidden = resolved.error != null || others.length === 0;
  page.base = null;
  if (resolved.error) {
    page.input = null;
    return showMessage('error', `Cannot open ${folderName}`, resolved.error);
  }
  const pto = resolved.pto.length ? await ptoText(resolved.pto.map((e) => e.file)) : null;
  const input = { name: resolved.dump.name, file: resolved.dump.file, bytes: null, pto, entries, folderName };
  page.input = input;
  if (page.comparePass) {
    const other = resolveFolder(entries, page.comparePass, folderName);
    if (other.dump) {
      const [older, newer] = orderPair({ name: other.dump.name, file: other.dump.file, bytes: null, pto }, input);
      page.base = older;
      page.input = { ...newer, entries, folderName };
    }
  }
  return current() ? analyse(current) : undefined;
}

/** Compare…: two dumps, or one to compare with the dump shown (the lower
 * pass number is the old one). */
async function compareFiles(files, current) {
  const dumps = files.filter((f) => !f.name.endsWith('.pto'));
  const shown = page.input && !page.base ? { ...page.input, entries: undefined, folderName: undefined } : null;
  if (dumps.length === 1 && shown) {
    const chosen = { name: dumps[0].name, file: dumps[0], bytes: null, pto: shown.pto };
    [page.base, page.input] = orderPair(shown, chosen);
    setLinkedDump(null);
    hideFolderPickers();
    return analyse(current);
  }
  if (dumps.length !== 2) {
    return showMessage('error', 'Compare two dumps', shown
      ? 'Choose one dump to compare with the one shown, or two dumps.'
      : 'Choose two dumps (.py) to compare, with their .pto files if you have them.');
  }
  return openFiles(files, current);
}

// ----------------------------------------------------------- dropping

async function readDirectory(entry, prefix, out) {
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    for (const child of batch) {
      const path = `${prefix}/${child.name}`;
      if (child.isDirectory) await readDirectory(child, path, out);
      else out.push({ path, file: await new Promise((resolve, reject) => child.file(resolve, reject)) });
    }
  }
}

async function onDrop(event, current) {
  event.preventDefault();
  page.stats.received = performance.now();
  $('dropzone').hidden = true;
  const items = [...(event.dataTransfer.items || [])];
  const folder = items.map((i) => i.webkitGetAsEntry?.()).find((e) => e?.isDirectory);
  if (folder) {
    const entries = [];
    await readDirectory(folder, folder.name, entries);
    return current() ? openFolder(entries, folder.name, current) : undefined;
  }
  return openFiles([...event.dataTransfer.files], current);
}

function listenForDrops() {
  let depth = 0;
  window.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth++;
    $('dropzone').hidden = false;
  });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) $('dropzone').hidden = true;
  });
  window.addEventListener('drop', (e) => {
    depth = 0;
    const current = begin();
    onDrop(e, current).catch(readFailed('the dropped files', current));
  });
}

/** An action's failure to read its files, shown unless a later one took over. */
function readFailed(what, current) {
  return (error) => {
    if (current()) showMessage('error', `Cannot read ${what}`, error.message);
  };
}

/** The file and folder buttons, the pass pickers and the examples. */
function listenToInputs() {
  $('file').addEventListener('change', (e) => {
    const current = begin();
    openFiles([...e.target.files], current).catch(readFailed('the chosen files', current));
    e.target.value = '';
  });
  $('folder').addEventListener('change', (e) => {
    const current = begin();
    const files = [...e.target.files];
    const entries = files.map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
    const name = entries[0]?.path.split('/')[0] || 'the folder';
    openFolder(entries, name, current).catch(readFailed(name, current));
    e.target.value = '';
  });
  $('pass').addEventListener('change', (e) => {
    page.pass = e.target.value;
    if (!page.input?.entries) return;
    const current = begin();
    openFolder(page.input.entries, page.input.folderName, current).catch(readFailed(page.input.folderName, current));
  });
  $('compare-pass').addEventListener('change', (e) => {
    page.comparePass = e.target.value;
    if (!page.input?.entries) return;
    const current = begin();
    openFolder(page.input.entries, page.input.folderName, current).catch(readFailed(page.input.folderName, current));
  });
  $('compare-file').addEventListener('change', (e) => {
    const current = begin();
    compareFiles([...e.target.files], current).catch(readFailed('the chosen files', current));
    e.target.value = '';
  });
  for (const button of document.querySelectorAll('[data-example]')) {
    button.addEventListener('click', () => openExample(button.dataset.example));
  }
}

async function openExample(id) {
  const data = JSON.parse($('examples').textContent)[id];
  if (data) await openExampleData(data);
}

/** Keeps `?dump=` (and `?pto=`, `?base=`) naming the dump shown (and the
 * one it is compared with) when it came from a URL, so the page's link
 * reopens it; any other source drops them. */
function setLinkedDump(data) {
  const params = new URLSearchParams();
  if (data?.url) params.set('dump', data.url);
  if (data?.url && data.ptoUrl) params.set('pto', data.ptoUrl);
  if (data?.url && data.base?.url) params.set('base', data.base.url);
  const search = params.toString() ? `?${params}` : '';
  if (search !== location.search) history.replaceState(null, '', `${location.pathname}${search}${location.hash}`);
}

/** A dump by URL or inline text: { name, text | url, pto | ptoUrl, base },
 * `base` the dump to compare it with ({ name, url }), or none. */
async function openExampleData(data, { keepSearch = false } = {}) {
  const current = begin();
  if (!keepSearch) setLinkedDump(data);
  try {
    const fetchOk = async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
      return response;
    };
    // Bytes as published: the core, not the browser, judges the encoding.
    const bytes = data.text != null ? new TextEncoder().encode(data.text).buffer : await (await fetchOk(data.url)).arrayBuffer();
    const pto = data.pto ?? (data.ptoUrl ? await (await fetchOk(data.ptoUrl)).text() : null);
    const baseBytes = data.base ? await (await fetchOk(data.base.url)).arrayBuffer() : null;
    if (!current()) return;
    page.input = { name: data.name, bytes, pto };
    page.base = data.base ? { name: data.base.name, bytes: baseBytes, pto } : null;
    hideFolderPickers();
    await analyse(current);
  } catch (error) {
    if (current()) showMessage('error', `Cannot open ${data.name}`, error.message);
  }
}

/** A hosted page's `?dump=<relative url>`: a dump published beside it. */
async function openLinkedDump() {
  const source = dumpSource(location.search, location.href);
  if (!source) return false;
  if (source.error) {
    begin();
    showMessage('error', 'Cannot open the linked dump', source.error);
    return true;
  }
  await openExampleData({ name: source.name, url: source.url, ptoUrl: source.ptoUrl, base: source.base }, { keepSearch: true });
  return true;
}

// ------------------------------------------------------------- keys

/** N / Shift+N: anomalies of one dump, or the changes of a comparison. */
function step(direction) {
  if (!page.compareView) return page.finder.stepAnomaly(direction);
  const label = page.compareView.stepChange(direction);
  if (label) $('anomaly-count').textContent = label;
}

/** The card keys act on: the one holding focus, else the last pinned. */
function activeCard() {
  const focused = page.cards.find((c) => c.element.contains(document.activeElement));
  if (focused) return focused;
  return page.lastPinned && page.cards.includes(page.lastPinned) ? page.lastPinned : null;
}

const typing = (target) => target.closest?.('input, select, textarea, [contenteditable]');

function onKey(e) {
  if (e.defaultPrevented) return; // a card's map took it (arrows, zoom)
  if (e.key === 'Escape') {
    if (page.shortcuts.open) return page.shortcuts.toggle(false);
    const menu = document.querySelector('.share-menu[open]');
    if (menu) {
      menu.open = false;
      return menu.querySelector('summary').focus();
    }
    if (e.target === $('search')) return e.target.blur();
    return activeCard()?.clearPins();
  }
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (page.shortcuts.open && e.key !== '?') return; // the list is on top: keys wait for it to close
  if (e.key === '?') {
    e.preventDefault();
    page.shortcuts.toggle();
  } else if (e.key === '/' && !$('search').disabled) {
    e.preventDefault();
    $('search').focus();
    $('search').select();
  } else if (e.key === 'n' || e.key === 'N') {
    e.preventDefault();
    step(e.shiftKey ? -1 : 1);
  } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    const card = activeCard();
    if (card?.state.line == null || e.target.closest?.('.splitter')) return;
    e.preventDefault();
    card.moveLine(e.key === 'ArrowUp' ? -1 : 1);
  }
}

/** The find field, and the buttons beside it: next / previous anomaly,
 * the shortcuts' list. */
function listenToFinder() {
  const search = $('search');
  let timer = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => page.finder.search(search.value), 80);
  });
  search.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    clearTimeout(timer);
    if (page.finder.query !== search.value) page.finder.search(search.value);
    page.finder.stepMatch(e.shiftKey ? -1 : 1);
  });
  $('anomaly-next').addEventListener('click', () => step(1));
  $('anomaly-prev').addEventListener('click', () => step(-1));
  $('shortcuts-button').addEventListener('click', () => page.shortcuts.toggle());
}

// ------------------------------------------------------------- start

function listenToControls() {
  listenToInputs();
  $('backend').addEventListener('change', () => analyse());
  listenToTheme();
  document.addEventListener('keydown', onKey);
  // An open Share menu closes on a click elsewhere (Esc: onKey).
  document.addEventListener('pointerdown', (e) => {
    for (const menu of document.querySelectorAll('.share-menu[open]')) if (!menu.contains(e.target)) menu.open = false;
  });
  listenToFinder();
  $('copy-link').addEventListener('click', copyLink);
}

async function fillBackends() {
  try {
    const backends = await page.engine.backends();
    $('backend').append(...backends.map((b) => el('option', { value: b.name, title: `${b.name}, target arch ${b.arch}` }, b.name)));
  } catch (error) {
    showMessage('error', 'The WebAssembly core did not start', error.message);
  }
}

function start() {
  const options = embedOptions(location.search);
  page.embed = options.embed;
  document.body.classList.toggle('embed', page.embed);
  if (options.theme) setTheme(options.theme);
  window.memoryMapStats = page.stats;
  trackTopbar();
  measureWidth();
  page.tooltip = new Tooltip();
  page.shortcuts = new ShortcutsOverlay();
  page.finder = new Finder({
    anomalies: $('anomalies'), anomalyCount: $('anomaly-count'), search: $('search'), searchStatus: $('search-status'),
  });
  page.engine = createEngine($('worker-source').textContent);
  listenForDrops();
  listenToControls();
  relayoutOnResize();
  const embedded = $('memory-map-data')?.textContent.trim();
  if (embedded) {
    // The CLI's page: the model (or two and their comparison) is in it;
    // the map shows at once.
    const data = JSON.parse(embedded);
    if (data.diff) showCompare(data);
    else showModel(data);
    $('backend').disabled = true;
    $('backend').title = 'This page was written by the CLI for one backend; run it with -b to change it';
  } else {
    openLinkedDump();
  }
  fillBackends();
}

start();
