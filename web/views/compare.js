// The compare view (DOM): a summary of what changed between two dumps, a
// filter, and per function a card with the old and the new map side by
// side on one byte scale, pills old → new, changed tiles marked, each
// tile's counterpart lit on the other side. The comparison is the core's
// (docs/model.md §15); diff.js reads it.
import { Card } from '../card/card.js';
import { appendInTasks } from '../card/card-groups.js';
import { clear, el, identifier } from '../base/dom.js';
import { anomalyChange, boxIndex, changeClasses, changeNotes, changeStops, changedSpaces, compareSummary, hwmChange, shownFunctions, signedBytes } from '../model/diff.js';
import { cycle } from '../model/insight.js';
import { ROW_HEIGHT, formatBytes } from '../model/layout.js';
import { boxFacts } from '../map/tooltip.js';

const SIDES = ['old', 'new'];
const GAP = 12; // px between the two maps

/** A space this side lacks, drawn as an empty lane so both sides' lanes
 * line up: the other side's capacity, no bytes. */
function emptySpace(other) {
  return {
    space: other.space, rank: other.rank, hwm: 0, hwm_with_reserved: 0, limit: other.limit, tiles: 0, bases: 0,
    reserved_bytes: 0, peak_live: 0, peak_line: null, peak_boxes: [], peak_reserved: [], fragmentation: 0,
    headroom: other.headroom, over_capacity: 0, live: undefined, placeholder: true,
  };
}

const spacesOf = (fn) => (fn ? [...fn.spaces, ...(fn.reserved_only_spaces ?? [])] : []);


/** The items of `fn` that set lane extents, and (axis limit) its capacities. */
function extentItems(fn, axis) {
  if (!fn) return [];
  const items = [...fn.boxes, ...(fn.reserved ?? []).filter((w) => w.placed).map((w) => ({ space: w.space, offset: w.base, size: w.size }))];
  if (axis === 'limit') for (const s of spacesOf(fn)) items.push({ space: s.space, offset: 0, size: s.limit });
  return items;
}

/** One map of a compare card, as its Card sees it (the interface is in
 * card-side.js): every space either side has, on one byte scale with the
 * other side; changed tiles marked, a moved tile's old place outlined; the
 * highlighted tile's counterpart lit, and zoom, axis, hidden spaces and
 * sideways scroll followed, on the other side. */
class CompareSide {
  /** `pair`: the CompareCard; `side`: 'old' or 'new'. */
  constructor(pair, side) {
    this.pair = pair;
    this.side = side;
    this.other = pair.other(side);
  }

  laneSpaces() {
    return this.pair.laneSpaces(this.side);
  }

  extentItems(axis) {
    return extentItems(this.pair.fns[this.other], axis);
  }

  boxClasses(index) {
    return changeClasses(this.pair.change(this.side, index), this.side);
  }

  /** A new tile moved or resized: where it was in the old dump. */
  ghostOf(index) {
    const tile = this.side === 'new' ? this.pair.change(this.side, index) : null;
    return tile?.old && tile.changes.some((c) => c === 'moved' || c === 'resized') ? tile.old : null;
  }

  onHighlight(card, box) {
    this.pair.sides[this.other]?.markCounterpart(box ? this.pair.counterpart(this.side, card.fn.boxes.indexOf(box)) : null);
  }

  onView(card, what) {
    this.pair.mirror(this.side, what);
  }

  onScroll(card) {
    const theirs = this.pair.sides[this.other];
    if (theirs && theirs.viewport.scrollLeft !== card.viewport.scrollLeft) theirs.viewport.scrollLeft = card.viewport.scrollLeft;
  }
}

const statusText = { changed: 'changed', unchanged: 'unchanged', added: 'added', removed: 'removed' };

export class CompareCard {
  /** `data`: { old, new, diff }; `f`: the function's index in diff.functions. */
  constructor(data, f, shared) {
    this.data = data;
    this.f = f;
    this.shared = shared;
    this.fnDiff = data.diff.functions[f];
    this.fns = {
      old: this.fnDiff.old !== null ? data.old.functions[this.fnDiff.old] : null,
      new: this.fnDiff.new !== null ? data.new.functions[this.fnDiff.new] : null,
    };
    this.index = boxIndex(this.fnDiff);
    this.sides = { old: null, new: null }; // their Cards, once opened
    this.found = null; // searchBoxes(), once searched
    this.matches = null; // the last search's marks, for sides made later
    this.open = false;
    this.body = null;
    const { name, ftype, status } = this.fnDiff;
    this.toggle = el('button', { class: 'card-toggle', 'aria-expanded': 'false', title: name, onclick: () => this.setOpen(!this.open) },
      el('span', { class: 'caret', 'aria-hidden': 'true' }), el('span', { class: 'fn-name' }, identifier(name)),
      el('span', { class: 'ftype' }, ftype), el('span', { class: `status status-${status}` }, statusText[status]));
    this.element = el('section', { class: 'card compare-card', dataset: { function: name, status } },
      el('header', { class: 'card-head' }, this.toggle, el('span', { class: 'compare-pills' }, this.anomalyChips(),
        this.fnDiff.spaces.map((s) => this.pill(s)))));
  }

  /** What appeared and went beside the pills: a smaller high-water mark
   * does not read as all good when conflicts appeared with it. */
  anomalyChips() {
    const { appeared, gone } = anomalyChange(this.fnDiff);
    const plural = (n) => `${n} ${n === 1 ? 'anomaly' : 'anomalies'}`;
    const title = 'conflicts, tiles or windows over capacity, tiles not placed (as --diff --check counts them)';
    return [
      appeared ? el('span', { class: 'compare-anomalies grew', title: `${plural(appeared)} appeared: ${title}` }, `${plural(appeared)} appeared`) : null,
      gone ? el('span', { class: 'compare-anomalies shrank', title: `${plural(gone)} gone: ${title}` }, `${plural(gone)} gone`) : null,
    ];
  }

  pill(spaceDiff) {
    const h = hwmChange(spaceDiff);
    const limit = (spaceDiff.new ?? spaceDiff.old).limit;
    return el('span', {
      class: `compare-pill ${h.level}`, dataset: { space: spaceDiff.space },
      title: `${spaceDiff.space} high-water mark (reserved windows included): ${h.text}, ${h.changeText}; capacity ${formatBytes(limit)}`,
    }, el('span', { class: 'pill-space' }, spaceDiff.space), ` ${h.text} `, el('span', { class: 'delta' }, h.changeText));
  }

  setOpen(open) {
    this.open = open;
    this.element.classList.toggle('open', open);
    this.toggle.setAttribute('aria-expanded', String(open));
    const reopened = open && this.body;
    if (open && !this.body) this.build(); // its maps are laid out as they are made
    if (this.body) this.body.hidden = !open;
    if (reopened) for (const card of Object.values(this.sides)) card?.layout();
  }

  build() {
    const columns = SIDES.map((side) => {
      const fn = this.fns[side];
      const model = this.data[side];
      const label = el('div', { class: 'side-label' }, el('span', { class: `side-name ${side}` }, side), ` ${model.dump}`);
      if (!fn) return el('div', { class: `compare-side ${side}` }, label, el('p', { class: 'side-absent' }, `not in the ${side} dump`));
      const card = new Card(fn, this.sideShared(side), new CompareSide(this, side));
      this.sides[side] = card;
      card.setOpen(true);
      return el('div', { class: `compare-side ${side}` }, label, card.element);
    });
    this.body = el('div', { class: 'compare-body', style: { '--compare-gap': `${GAP}px` } }, columns);
    this.element.append(this.body);
    this.showChangedSpaces();
    if (this.matches) this.setMatches(this.matches.indices, this.matches.nameMatches);
    this.alignMaps();
  }

  /** Each map opens on the spaces that changed (a high-water mark, a
   * tile moved, resized, added or removed, longer or shorter), when some
   * did not: on one byte scale a 512 KB Mat left the changes in Left,
   * Right and Acc off-screen on both sides. The others are a click away
   * (show:), on both sides at once. */
  showChangedSpaces() {
    const card = this.sides.old ?? this.sides.new;
    if (!card) return;
    const changed = changedSpaces(this.fnDiff);
    const quiet = card.spaceList.map((s) => s.space).filter((s) => !changed.has(s));
    if (!changed.size || !quiet.length) return;
    for (const space of quiet) card.toggleSpace(space); // mirrored to the other side
  }

  /** Keeps line N of both maps at one height: what sits above a map (a
   * pinned tile's chip and conflicts, the line inspector, the idle list)
   * may be taller on one side, so the other map moves down to match. */
  alignMaps() {
    const cards = SIDES.map((side) => this.sides[side]).filter(Boolean);
    if (cards.length < 2) return;
    // Read as laid out (the observer runs after layout), written only when
    // it changes: a write makes the browser lay the page out again, which
    // the first frame of a comparison paid for to change nothing.
    const align = () => {
      const natural = cards.map((card) => card.viewport.getBoundingClientRect().top - (parseFloat(card.viewport.style.marginTop) || 0));
      const lowest = Math.max(...natural);
      cards.forEach((card, i) => {
        const margin = lowest - natural[i] >= 1 ? `${lowest - natural[i]}px` : '';
        if (card.viewport.style.marginTop !== margin) card.viewport.style.marginTop = margin;
      });
    };
    const above = cards.flatMap((card) => [...card.body.children].filter((child) => child !== card.viewport && child !== card.tableWrap));
    const observer = new ResizeObserver(() => { if (!this.body.hidden) align(); });
    for (const node of above) observer.observe(node);
  }

  other(side) {
    return side === 'old' ? 'new' : 'old';
  }

  /** The lanes of a side: every space either side has, in space order. */
  laneSpaces(side) {
    const mine = new Map(spacesOf(this.fns[side]).map((s) => [s.space, s]));
    const theirs = new Map(spacesOf(this.fns[this.other(side)]).map((s) => [s.space, s]));
    return this.fnDiff.spaces.map(({ space }) => mine.get(space) ?? emptySpace(theirs.get(space)));
  }

  /** The box on the other side that `index` on `side` matched, or null. */
  counterpart(side, index) {
    const map = side === 'old' ? this.index.toNew : this.index.toOld;
    const other = map.get(index);
    return other === undefined ? null : this.fns[this.other(side)].boxes[other];
  }

  change(side, index) {
    return (side === 'old' ? this.index.oldChange : this.index.newChange).get(index) ?? null;
  }

  /** What the page gives a side's Card: the page's, with the tooltip
   * adding what changed, and half the width. */
  sideShared(side) {
    const { shared } = this;
    const tooltip = {
      show: (box, space, x, y, fn) => {
        const facts = boxFacts(box, space, fn);
        facts.notes.unshift(...changeNotes(this.change(side, fn.boxes.indexOf(box))));
        shared.tooltip.showFacts(`${box.name}${box.aliases.length ? ` +${box.aliases.length}` : ''}`, facts, x, y);
      },
      showWindow: (...args) => shared.tooltip.showWindow(...args),
      move: (x, y) => shared.tooltip.move(x, y),
      hide: () => shared.tooltip.hide(),
    };
    return {
      tooltip,
      onPin: (card) => shared.onPin(card),
      onChange: (card) => shared.onChange(this, side, card),
      mapWidth: () => Math.max(200, (shared.mapWidth() - GAP) / 2),
      topbarHeight: shared.topbarHeight,
      spaceColumn: () => 'auto',
      exportMap: null,
      sourceOnPin: false,
      sourceLabel: `IR source of ${this.fnDiff.name} in the ${side} dump`,
    };
  }

  /** Zoom, axis and hidden spaces follow from one side to the other. */
  mirror(side, what) {
    const from = this.sides[side];
    const to = this.sides[this.other(side)];
    if (!from || !to) return;
    if (what === 'zoom' && to.state.zoom !== from.state.zoom) to.setZoom(from.state.zoom);
    if (what === 'axis' && to.state.axis !== from.state.axis) to.setAxis(from.state.axis);
    if (what === 'hidden') {
      for (const s of to.spaceList) if (from.state.hidden.has(s.space) !== to.state.hidden.has(s.space)) to.toggleSpace(s.space);
    }
  }

  /** What search looks through: every box of the new side, then the old
   * boxes no new box matched (removed tiles), each { side, index, box }. */
  searchBoxes() {
    if (!this.found) {
      const mine = (side) => (this.fns[side]?.boxes ?? []).map((box, index) => ({ side, index, box }));
      this.found = [...mine('new'), ...mine('old').filter(({ index }) => !this.index.toNew.has(index))];
    }
    return this.found;
  }

  /** Marks search matches (indices into searchBoxes()) on both sides: a
   * new box's counterpart on the old side too. */
  setMatches(indices, nameMatches) {
    this.matches = { indices, nameMatches };
    this.element.classList.toggle('name-match', nameMatches);
    const marked = { old: [], new: [] };
    for (const i of indices) {
      const { side, index } = this.searchBoxes()[i];
      marked[side].push(index);
      const other = side === 'new' ? this.index.toOld.get(index) : undefined;
      if (other !== undefined) marked.old.push(other);
    }
    for (const side of SIDES) this.sides[side]?.setMatches([...new Set(marked[side])]);
  }

  /** Opens the card and goes to box `index` on `side`, pinned. */
  reveal(side, index, options) {
    if (!this.open) this.setOpen(true);
    const other = this.sides[this.other(side)];
    other?.pin(null); // its marks follow this side's tile now
    this.sides[side]?.reveal(index, options);
    const counterpart = this.counterpart(side, index);
    const mine = this.sides[side];
    if (!other || !counterpart || !mine) return;
    // The counterpart at the height of the tile revealed: lines shift
    // between dumps, so the two maps scroll apart by that much.
    const rowTop = (card, line) => (line - card.fn.src_start) * ROW_HEIGHT;
    const at = rowTop(mine, this.fns[side].boxes[index].start) - mine.viewport.scrollTop;
    other.viewport.scrollTop = Math.max(0, rowTop(other, counterpart.start) - at);
    other.draw();
  }
}

/** The whole view: the summary, the filter, the cards. */
export class CompareView {
  /** `shared`: as a Card's, from the page. */
  constructor(data, shared) {
    this.data = data;
    this.shared = shared;
    this.filter = 'changed';
    this.made = []; // CompareCards by function index, made when first shown
    this.shownFirst = null; // the card the filter shows first: laid out at once (style.css)
    this.appendRest = null; // appends the cards the first one's paint waits for, at once
    this.stops = changeStops(data.diff);
    this.stopAt = -1;
    this.list = el('div', { class: 'compare-cards' });
    this.filterButtons = ['changed', 'all'].map((filter) => el('button', {
      class: 'filter', dataset: { filter }, 'aria-pressed': String(filter === this.filter),
      onclick: () => this.setFilter(filter),
    }, filter === 'changed' ? 'changed functions' : 'all functions'));
    this.element = el('div', { class: 'compare-view' }, this.summary(), this.list);
    this.render();
  }

  summary() {
    const { diff } = this.data;
    const s = compareSummary(diff);
    const c = s.counts;
    const counts = `${c.functions.changed} changed, ${c.functions.unchanged} unchanged, ${c.functions.added} added, ${c.functions.removed} removed`;
    const tiles = `tiles: ${c.tiles.moved} moved, ${c.tiles.resized} resized, ${c.tiles.longer} live longer, ${c.tiles.shorter} shorter, ${c.tiles.added} added, ${c.tiles.removed} removed`;
    const anomalies = `conflicts and over capacity: ${c.anomalies.appeared} appeared, ${c.anomalies.gone} gone`;
    return el('section', { class: 'compare-summary', 'aria-label': 'What changed' },
      el('p', { class: 'compare-sides' },
        el('span', { class: 'side-name old' }, 'old'), ` ${diff.old.dump} (${diff.old.backend.name}) `,
        el('span', { class: 'arrow', 'aria-hidden': 'true' }, '→'),
        ' ', el('span', { class: 'side-name new' }, 'new'), ` ${diff.new.dump} (${diff.new.backend.name})`,
        this.shared.onSwap ? el('button', { class: 'swap', title: 'Swap old and new', onclick: () => this.shared.onSwap() }, '⇄ swap') : null),
      el('p', { class: 'compare-counts' }, el('strong', {}, `${diff.functions.length} functions: `), counts, ' · ', tiles, ' · ', anomalies),
      el('p', { class: `compare-verdict ${s.regressions ? 'regressed' : 'clean'}` },
        s.regressions ? `${s.regressions} regression${s.regressions === 1 ? '' : 's'} (as --diff --check counts them)` : 'no memory regression',
        ...s.largest.map((l) => el('span', { class: `largest ${l.change > 0 ? 'grew' : 'shrank'}` },
          ` · ${l.space} ${signedBytes(l.change)} in `, el('button', { class: 'link', onclick: () => this.openFunction(l.fn) }, l.fn)))),
      el('p', { class: 'compare-filter' }, el('span', { class: 'label' }, 'show:'), this.filterButtons));
  }

  setFilter(filter) {
    this.filter = filter;
    for (const b of this.filterButtons) b.setAttribute('aria-pressed', String(b.dataset.filter === filter));
    this.render();
  }

  card(f) {
    this.made[f] ??= new CompareCard(this.data, f, this.shared);
    return this.made[f];
  }

  /** The cards the filter shows: the first made, opened and painted
   * before the others are made (a dump of hundreds of functions). */
  render() {
    clear(this.list);
    this.appendRest = null;
    const shown = shownFunctions(this.data.diff, this.filter);
    this.list.dataset.complete = 'false';
    if (!shown.length) {
      this.list.append(el('p', { class: 'compare-empty' }, 'No function changed: the same tiles, bytes and lifetimes (in statements). Show all functions to see them.'));
      this.list.dataset.complete = 'true';
      return;
    }
    const first = this.card(shown[0].index);
    this.shownFirst?.element.classList.remove('shown-first');
    this.shownFirst = first;
    first.element.classList.add('shown-first');
    this.list.append(first.element);
    if (!this.made.some((c) => c?.open)) first.setOpen(true);
    const appendRest = appendInTasks(this.list, shown.slice(1), (fns) => fns.map(({ index }) => this.card(index).element), {
      live: () => this.appendRest === appendRest, // a later render() took over
      done: () => { this.list.dataset.complete = 'true'; },
    });
    this.appendRest = appendRest;
  }

  /** Lays the open cards' maps out again: the page's width changed. */
  layoutOpen() {
    for (const card of this.made) if (card?.open && card.body) for (const side of Object.values(card.sides)) side?.layout();
  }

  /** Appends the cards render() left for later, now. */
  complete() {
    this.appendRest?.();
  }

  /** The card of `name`, listed (the filter widened when it hides it). */
  listed(f) {
    this.complete();
    const card = this.card(f);
    if (!card.element.isConnected) {
      this.setFilter('all');
      this.complete();
    }
    return card;
  }

  openFunction(name) {
    const f = this.data.diff.functions.findIndex((x) => x.name === name);
    if (f < 0) return;
    const card = this.listed(f);
    card.setOpen(true);
    card.element.scrollIntoView({ block: 'start' });
  }

  /** N / Shift+N: the next or previous change. Returns its label. */
  stepChange(direction) {
    this.stopAt = cycle(this.stopAt, this.stops.length, direction);
    if (this.stopAt < 0) return null;
    const stop = this.stops[this.stopAt];
    this.listed(stop.fn).reveal(stop.side, stop.box);
    return `${this.stopAt + 1} / ${this.stops.length}: ${stop.label}`;
  }

  /** What the page's search looks through: a model of the functions
   * (their boxes listed when first searched) and a card per function. */
  searchTargets() {
    // Read when searched: a side's function heads are parsed when first read (core.js).
    const functions = this.data.diff.functions.map((fnDiff, f) => Object.defineProperties({ name: fnDiff.name }, {
      src_start: { get: () => (this.data.new.functions[fnDiff.new] ?? this.data.old.functions[fnDiff.old]).src_start },
      boxes: { get: () => this.card(f).searchBoxes().map((b) => b.box) },
    }));
    const cards = functions.map((_, f) => ({
      setMatches: (indices, nameMatches) => {
        if (indices.length || nameMatches || this.made[f]?.matches) this.card(f).setMatches(indices, nameMatches);
      },
      reveal: (index, options) => {
        const { side, index: box } = this.card(f).searchBoxes()[index];
        this.listed(f).reveal(side, box, options);
      },
      revealCard: () => this.openFunction(this.data.diff.functions[f].name),
    }));
    return { model: { functions }, cards };
  }

  /** Restores a view from the URL: { fn, side, tile, ... }. */
  applyView(view) {
    const f = this.data.diff.functions.findIndex((x) => x.name === view.fn);
    if (f < 0) return;
    const card = this.listed(f);
    card.setOpen(true);
    const side = card.sides[view.side] ?? card.sides.new ?? card.sides.old;
    side?.applyView(view);
  }
}
