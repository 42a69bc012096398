// Showing a model or a comparison (DOM): the top bar's summary, the cards
// (the first painted before the rest are made), the deep link they keep,
// and the widths and heights the cards' maps are laid out by.
import { Card } from '../card/card.js';
import { appendInTasks } from '../card/card-groups.js';
import { CompareView } from './compare.js';
import { sideLabels } from '../model/diff.js';
import { clear, el } from '../base/dom.js';
import { exportMap, fitTile } from '../card/export.js';
import { formatLink, fullPageUrl, parseLink } from '../model/link.js';
import { rankingElement } from './ranking.js';
import { progressBar, showNotes } from './messages.js';
import { overviewElement } from './overview.js';
import { pipesOf } from '../card/pipes.js';
import { $, page, setTitle } from '../base/page-state.js';
import { hasOwnAddress, setAddress } from '../base/address.js';

let measuredWidth = 0;
/** The inner width of a card's map, the same for every card: measured once
 * (a layout read) and again after the window is resized. */
export function mapWidth() {
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
export function measureWidth() {
  measuredWidth = cardsWidth();
}

/** Lays the open cards out again after the window is resized, or the
 * cards' width changes without a resize: a frame laid out after the page
 * started (a notebook's srcdoc frame can start 0 px wide, and gets its
 * width with no resize event). */
export function relayoutOnResize() {
  let timer = 0;
  const relayout = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      measuredWidth = 0;
      for (const card of page.cards) if (card.state.open) card.layout();
      page.compareView?.layoutOpen();
    }, 100);
  };
  window.addEventListener('resize', relayout);
  new ResizeObserver(() => {
    if (measuredWidth && cardsWidth() !== measuredWidth) relayout();
  }).observe(document.querySelector('main'));
}


/** The top bar's one line about the dump; its full text is the title.
 * Where the bar is narrow only the dump's name is cut (an ellipsis): the
 * pass, the counts and the backend every capacity rests on stay whole. */
function summary(model) {
  const tiles = model.functions.reduce((n, f) => n + (f.box_count ?? f.boxes.length), 0);
  const { backend } = model;
  const fns = `${model.functions.length} compute function${model.functions.length === 1 ? '' : 's'}`;
  // The core reads a pass from an `NN_after_<Pass>.py` name; any other
  // name is its own pass_name, which says nothing the name does not.
  const pass = model.pass_name !== model.dump.replace(/\.py$/, '') ? `pass ${model.pass_name}` : '';
  const parts = [model.dump + (pass ? ` · ${pass}` : ''), fns, `${tiles} tile${tiles === 1 ? '' : 's'}`,
    `${backend.name} (${backend.arch})${backend.detected ? '' : ' assumed: no -b and no ptoas/*.pto target arch'}`];
  $('summary').title = parts.join(' · ');
  // Each part after the name opens with its separator, its first space a
  // no-break one: a flex item's leading space would collapse ("tiles·").
  const part = (text, cls = null) => el('span', { class: cls ? `summary-part ${cls}` : 'summary-part' }, `\u00a0· ${text}`);
  return [
    el('span', { class: 'summary-text dump-summary' },
      el('span', { class: 'dump-name' }, model.dump),
      pass ? part(pass, 'summary-pass') : null,
      part(fns),
      part(`${tiles} tile${tiles === 1 ? '' : 's'}`)),
    el('span', { class: 'backend-info' }, `\u00a0· ${backend.name} (${backend.arch})`,
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
    const hash = page.current ? formatLink({ ...page.current.viewState(), file: page.dumpName, side: page.currentSide, inCase: page.openCase }) : '';
    if (hash !== location.hash) setAddress(location.search, hash);
    if (page.fullView) page.fullView.href = fullPageUrl(location.href);
  });
}

/** The top bar's summary and the cards area given to one view (a model's
 * cards, a comparison, a build's overview): `notesOf` the model whose
 * printer notes show, `complete` whether every card is there yet. */
function replaceView(summaryParts, notesOf, elements, complete) {
  clear($('summary'));
  $('summary').append(...summaryParts);
  $('message').hidden = true;
  showNotes(notesOf);
  const cards = $('cards');
  clear(cards);
  cards.dataset.complete = String(complete);
  cards.append(...elements);
  cards.hidden = false;
}

/** The spaces of `fns` in the order of their pills' columns: each
 * space's pills in a column of their own, the same on every card. */
export function pillColumns(fns) {
  const spaceRank = new Map();
  for (const fn of fns) for (const s of [...fn.spaces, ...(fn.reserved_only_spaces ?? [])]) spaceRank.set(s.space, s.rank);
  return [...spaceRank.keys()].sort((a, b) => spaceRank.get(a) - spaceRank.get(b) || (a < b ? -1 : 1));
}

/** Makes a card of `model`'s as the page shows it, its pills in
 * `columns`. `unseen`: a card never shown (rehearsal.js), which tells
 * the page nothing (no deep link, no pin) but is otherwise the same,
 * Share menu and all. */
export function cardMaker(model, columns, unseen = false) {
  const withBytes = unseen || Boolean(page.input?.bytes);
  return (fn) => new Card(fn, {
    // The core draws the image from the dump's bytes: not on a page the
    // command line wrote (its model only; `--svg FUNCTION` there).
    exportMap: withBytes ? (card, kind) => exportMap(model, card, kind) : null,
    sourceOnPin: !page.embed, // a frame is too narrow to give the map's room to the source
    spaceColumn: (space) => columns.indexOf(space) + 1,
    tooltip: page.tooltip,
    onPin: unseen ? () => {} : (card) => { page.lastPinned = card; },
    onChange: unseen ? () => {} : linkChanged,
    mapWidth,
    topbarHeight: () => page.topbarHeight,
    pipesOf: (name) => pipesOf(model, name),
    fitTile: withBytes ? (card, question) => fitTile(model, card, question) : null,
    onPeer: (name) => page.cards.find((c) => c.fn.name === name)?.revealCard(),
  });
}

/**
 * Shows `model`: the first card is made, opened and painted before the
 * others are made (in a fresh tab most of the time to the first card went
 * to making 38 closed cards). With a deep link (`hash`: the page's, or
 * the one a big dump was opened with), the cards up to the one it names
 * are made at once and its view set. `current` says whether the action is
 * still the user's latest when the rest is made.
 */
export function showModel(model, current = () => true, hash = location.hash) {
  leaveView();
  // A dump from the user's disk: its links name it, for a fresh tab to ask
  // for (a site's ?dump= or the CLI's page brings its dump along).
  page.dumpName = page.input?.file ? model.dump : null;
  const wanted = parseLink(hash); // read before the first card rewrites it
  // Embedded in a docs page: the linked function's map alone.
  const shownFns = page.embed ? [model.functions.find((fn) => fn.name === wanted?.fn) ?? model.functions[0]].filter(Boolean) : model.functions;
  const columns = pillColumns(shownFns);
  const cards = $('cards');
  cards.style.setProperty('--pill-columns', String(columns.length));
  const makeCard = cardMaker(model, columns);
  // The cards up to the linked one are made at once (all, when it names
  // none of them), so its view is set before the rest are made.
  const linked = wanted ? shownFns.findIndex((fn) => fn.name === wanted.fn) : -1;
  const first = !wanted ? Math.min(1, shownFns.length) : linked >= 0 ? linked + 1 : shownFns.length;
  page.cards = shownFns.slice(0, first).map(makeCard);
  // Which space of which function is fullest: the core's ranking, closed until asked for.
  const ranking = page.embed ? null : rankingElement(model, {
    onOpen: (name, space) => page.cards.find((c) => c.fn.name === name)?.showPeak(space),
  });
  replaceView([...backToBuild(), ...summary(model)], model, [ranking, ...page.cards.map((c) => c.element)].filter(Boolean), false);
  $('legend').hidden = false;
  // Only the first card is opened: the others are built when opened.
  page.cards[0]?.element.classList.add('shown-first');
  page.cards[0]?.setOpen(true);
  setTitle(model.dump);
  page.fullView = null;
  if (page.embed && page.cards[0] && hasOwnAddress()) {
    // The corner link: this view in the full page (a page written into a
    // frame has none to open).
    page.fullView = el('a', {
      class: 'full-view', href: fullPageUrl(location.href), target: '_blank', rel: 'noopener',
      title: 'Open this view in the full page (a new tab)',
    }, 'Open the full map ↗');
    page.cards[0].element.querySelector('.card-head').append(page.fullView);
  }
  const finish = () => {
    page.finder.setModel(page.embed ? { ...model, functions: shownFns } : model, page.cards);
    $('search').disabled = false;
    $('copy-link').hidden = !hasOwnAddress(); // a page written into a frame has no link to copy
    // A frame shows a few rows: it opens on the first tiles, unless the link names a tile or line.
    if (page.embed && !wanted?.tile && !wanted?.line) page.cards[0]?.map.scrollToFirstTiles();
    cards.dataset.complete = 'true';
  };
  page.cards[linked]?.applyView(wanted); // before the rest are made
  markFirstCard();
  if (first === shownFns.length) return finish();
  appendInTasks(cards, shownFns.slice(first), (fns) => {
    const batch = fns.map(makeCard);
    page.cards.push(...batch);
    return batch.map((c) => c.element);
  }, { live: current, done: finish });
}

/** What the view shown before leaves behind: its tooltip, its search
 * matches, a comparison's state. */
function leaveView() {
  page.tooltip.hide();
  page.finder.clear();
  page.compareView = null;
  document.body.classList.remove('comparing');
}

/** Marks when the action's first card was painted (once: a big dump's
 * first card painted before its whole model keeps its mark; not for an
 * action a newer one took over). */
function markFirstCard() {
  const { generation } = page;
  requestAnimationFrame(() => setTimeout(() => {
    if (generation === page.generation) page.stats.firstCardPainted ||= performance.now();
  }));
}

/** The top bar while a big dump's first card shows: the dump's name, and
 * the bar of the rest being read (messages.js showProgress moves it). */
function previewSummary(preview) {
  $('summary').title = `${preview.dump} · its first function, shown while the rest is analyzed`;
  const bar = progressBar();
  bar.hidden = false;
  bar.dataset.stage = 'Analyzing the rest'; // its words and share: analyze.js, at once
  return [el('span', { class: 'summary-text' }, el('span', { class: 'dump-name' }, preview.dump),
    el('span', {}, ' · first function')), bar];
}

/**
 * Shows a big dump's first function (`preview`: its model alone, engine.js
 * analyze) while the core reads the rest: its card, opened as showModel
 * opens it (with the view `hash` links to, when it names this function),
 * and a line saying the others are to come. Nothing that needs every
 * function shows yet (the counts, search, the other cards, pipes):
 * showModel replaces it all (analyze.js passes it the link, or the view
 * the user gave this card).
 */
export function showPreview(preview, hash) {
  const wanted = parseLink(hash);
  const fn = preview.functions[0];
  leaveView();
  const columns = pillColumns([fn]);
  $('cards').style.setProperty('--pill-columns', String(columns.length));
  const card = cardMaker(preview, columns)(fn);
  page.cards = [card];
  const rest = el('p', { class: 'preview-rest', role: 'status' }, 'The other functions, the dump\'s counts and search come once the whole dump is read.');
  replaceView(previewSummary(preview), preview, [card.element, rest], false);
  $('legend').hidden = false;
  $('search').disabled = true;
  $('copy-link').hidden = true;
  card.element.classList.add('shown-first');
  card.setOpen(true);
  if (wanted?.fn === fn.name) card.applyView(wanted); // a link to another is followed by showModel
  setTitle(preview.dump);
  markFirstCard();
}

/** The compare view's one line in the top bar. */
function compareSummaryLine(data) {
  const { counts } = data.diff;
  const text = `${data.old.dump} → ${data.new.dump} · ${counts.functions.changed} of ${data.diff.functions.length} functions changed`;
  $('summary').title = text;
  return [el('span', { class: 'summary-text' }, el('span', { class: 'dump-name' }, `${data.old.dump} → ${data.new.dump}`),
    el('span', {}, ` · ${counts.functions.changed} of ${data.diff.functions.length} functions changed`))];
}

/** Shows two dumps compared: { old, new, diff } (a big side's source
 * lines may come after: core.js parseSplitModel);
 * `onSwap` swaps them, where the page has both dumps to run again;
 * `labels` name the sides wherever the view names them (diff.js sideLabels). */
export function showCompare(data, onSwap = null, labels = sideLabels({ name: data.old.dump }, { name: data.new.dump })) {
  [data.old.dump, data.new.dump] = labels;
  [data.diff.old.dump, data.diff.new.dump] = labels;
  page.dumpName = null; // two dumps: a link names neither
  // Read before the first card rewrites it. A comparison opens on its
  // summary however it was asked for: the hash a single dump's card wrote
  // (no side) names a view of that dump, not of this.
  const wanted = page.current && !page.currentSide ? null : parseLink(location.hash);
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
  replaceView(compareSummaryLine(data), null, [view.element], true);
  $('legend').hidden = false;
  document.body.classList.add('comparing');
  setTitle(`${data.old.dump} → ${data.new.dump}`);
  const n = view.stops.length;
  $('anomalies').hidden = false;
  $('anomalies').classList.toggle('none', n === 0);
  $('anomalies').classList.toggle('quiet', n > 0 && !data.diff.regressions);
  $('anomaly-count').textContent = n ? `${n} change${n === 1 ? '' : 's'}` : 'no changes';
  $('anomaly-count').title = 'Changed tiles, and conflicts or tiles over capacity that appeared or went. N / Shift+N: next / previous';
  $('copy-link').hidden = !hasOwnAddress();
  if (wanted) view.applyView(wanted);
  // What search looks through, made once the first card is painted (not
  // on its way); the search box is enabled then.
  requestAnimationFrame(() => setTimeout(() => {
    if (page.compareView !== view) return;
    const targets = view.searchTargets();
    page.finder.setSearch(targets.model, targets.cards);
    $('search').disabled = false;
  }));
}

/** The top bar's height as a CSS variable: what a jump keeps clear of
 * (cards' scroll margin, the map's height), whatever its wrapping. */
export function trackTopbar() {
  const bar = $('topbar');
  const set = () => {
    page.topbarHeight = bar.offsetHeight;
    document.documentElement.style.setProperty('--topbar-height', `${page.topbarHeight}px`);
  };
  new ResizeObserver(set).observe(bar);
  set();
}

/** The top bar of a build's overview: its name, cases, functions, and
 * the least headroom. */
function buildSummaryLine(build) {
  const { cases, rows } = build.data;
  const functions = cases.reduce((n, c) => n + c.functions, 0);
  const least = rows.find((r) => r.headroom !== null);
  const text = `${build.name} · ${cases.length} cases · ${functions} functions`;
  $('summary').title = text;
  return [el('span', { class: 'summary-text' }, el('span', { class: 'dump-name' }, build.name),
    el('span', {}, ` · ${cases.length} case${cases.length === 1 ? '' : 's'} · ${functions} functions`),
    least ? el('span', {}, ` · least headroom: ${least.case} ${least.function} ${least.space}`) : null)];
}

/** A build's overview (overview.js) in place of the cards. */
export function showBuild(build) {
  leaveView();
  page.cards = [];
  replaceView(buildSummaryLine(build), null, [overviewElement(build.data, { onOpen: build.onOpen })], true);
  $('legend').hidden = true;
  $('search').disabled = true;
  $('copy-link').hidden = true;
  $('anomalies').hidden = true;
  setTitle(build.name);
}

/** In a case opened from a build: the top bar's way back to its overview,
 * and the case's name. */
function backToBuild() {
  if (!page.build?.data || !page.openCase) return [];
  return [el('button', { type: 'button', class: 'back-to-build', title: `Back to the overview of ${page.build.name}`,
    onclick: () => {
      setAddress(location.search, '', { push: true });
      page.openCase = null;
      page.build.onBack?.();
    } }, `← ${page.build.name}`), el('span', { class: 'case-name' }, `${page.openCase} ·\u00a0`)];
}
