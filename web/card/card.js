// One collapsible card per compute function: it holds the card's view state
// (open, zoom, axis, spaces shown, pinned tile and line, panels) and the
// actions that change it, and joins the header, toolbar, map and panels.
import { el, identifier } from '../base/dom.js';
import { LONE_SIDE } from '../model/card-side.js';
import { anomalyChips, lifetimeNotice, spacePills, unplacedNotice } from './card-head.js';
import { idleHolds } from '../model/insight.js';
import { GUTTER_WIDTH, clampSplit, defaultAxis, defaultSplit, exportLines, linesInView } from '../model/layout.js';
import { MapInput } from '../map/map-input.js';
import { MapView } from '../map/map-view.js';
import { idlePanel, linePanel } from './panels.js';
import { pipeNotice, pipeText } from './pipes.js';
import { boxTable } from './table.js';
import { Toolbar } from './toolbar.js';

export class Card {
  /**
   * `shared`, from the page (every field given):
   *   tooltip            the page's Tooltip
   *   onPin(card)        a tile or line was pinned here
   *   onChange(card)     the view changed (for the deep link)
   *   mapWidth()         px of a map's inner width, measured by the page
   *   topbarHeight()     px the top bar covers
   *   spaceColumn(space) the page's column for that space's pill, or 'auto'
   *   exportMap(card, kind)  draws the map as shown, or null: no Share menu
   *   sourceOnPin        whether a pin opens the IR source (not where the
   *                      map has no room to give it)
   *   sourceLabel        the IR source's accessible name, or undefined
   * `side`: what the view around it adds (card-side.js); a card alone by
   * default.
   */
  constructor(fn, shared, side = LONE_SIDE) {
    this.fn = fn;
    this.shared = shared;
    this.side = side;
    this.spaceList = side.laneSpaces(fn);
    this.spaces = new Map(this.spaceList.map((s) => [s.space, s]));
    this.ownItemsMade = null; // ownItems, once read
    this.state = {
      open: false, zoom: 1, axis: 'limit', hidden: new Set(), pinned: null, hovered: null, source: false, table: false, split: null,
      line: null, peakSpace: null, matches: new Set(), profile: true, idle: false, hoveredWindow: null, focused: -1, counterpart: null,
    };
    this.body = null;
    this.axisChosen = false; // by the user or a link: no default applies
    this.defaultAxis = 'limit'; // the axis the card opened with (layout.js defaultAxis)
    this.map = null; // the MapView, once built
    // A side of a cross-core pipe: marked by the name (its body says the rest).
    this.pipes = shared.pipesOf?.(fn.name) ?? [];
    const pipeMark = this.pipes.length
      ? el('span', { class: 'pipe-mark', title: this.pipes.map((p) => pipeText(p, fn.name)).join('\n') }, '⇄') : null;
    this.toggle = el('button', { class: 'card-toggle', 'aria-expanded': 'false', title: fn.name, onclick: () => this.setOpen(!this.state.open) },
      el('span', { class: 'caret', 'aria-hidden': 'true' }), el('span', { class: 'fn-name' }, identifier(fn.name)),
      el('span', { class: 'ftype' }, fn.ftype), pipeMark);
    this.matchChip = el('span', { class: 'match-count', hidden: true });
    // Drawn by lifetime: its offsets are the map's packing, styled apart.
    this.element = el('section', { class: fn.planned === false ? 'card packed' : 'card', dataset: { function: fn.name } },
      el('header', { class: 'card-head' }, this.toggle,
        spacePills(this.spaceList, shared.spaceColumn, (space) => this.showPeak(space)),
        el('span', { class: 'chips' }, anomalyChips(fn), this.matchChip)));
  }

  /** What sets each lane's extent: the boxes and the windows placed (read
   * when first drawn: a closed card leaves its function's boxes unread). */
  get ownItems() {
    const { fn } = this;
    this.ownItemsMade ??= [...fn.boxes, ...(fn.reserved ?? []).filter((w) => w.placed)
      .map((w) => ({ space: w.space, offset: w.base, size: w.size }))];
    return this.ownItemsMade;
  }

  /** The items whose bytes set the lanes' extents (this card's, and what
   * the side adds so two maps share one scale). */
  get extentItems() {
    const more = this.side.extentItems(this.state.axis);
    return more.length ? [...this.ownItems, ...more] : this.ownItems;
  }

  visibleSpaces() {
    return this.spaceList.filter((s) => !this.state.hidden.has(s.space));
  }

  /** Tells the page the view changed (for the deep link). */
  changed() {
    this.shared.onChange(this);
  }

  setOpen(open) {
    this.state.open = open;
    this.element.classList.toggle('open', open);
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open && !this.body) this.build();
    if (this.body) this.body.hidden = !open;
    if (open) this.layout();
    if (open) this.changed();
  }

  /** The body, made when the card is first opened. */
  build() {
    const { fn, shared } = this;
    this.state.split = this.fittedSplit();
    // The axis it opens with (a comparison's two maps keep `limit`, as one).
    if (this.side === LONE_SIDE && !this.axisChosen) {
      this.state.axis = defaultAxis(this.visibleSpaces(), this.ownItems, shared.mapWidth() - GUTTER_WIDTH);
    }
    this.defaultAxis = this.state.axis;
    // A comparison's side may show before its dump's bytes come (engine.js):
    // the lines are shown, the code when they come.
    if (!fn.source) fn.sourceReady?.then((missing) => this.sourceArrived(missing));
    this.toolbar = new Toolbar(this, shared.exportMap ? (kind) => shared.exportMap(this, kind) : null);
    this.map = new MapView(this);
    this.viewport = this.map.viewport; // the compare view lines two maps up by it
    this.panel = el('div', { class: 'panel-wrap', hidden: true });
    this.idleWrap = el('div', { class: 'idle-wrap', hidden: true });
    this.tableWrap = el('div', { class: 'table-wrap', hidden: true });
    this.body = el('div', { class: 'card-body' }, this.toolbar.element, lifetimeNotice(fn), unplacedNotice(fn, (line) => this.revealLine(line)),
      pipeNotice(fn, this.pipes, shared.onPeer),
      this.idleWrap, this.panel, this.viewport, this.tableWrap);
    this.element.append(this.body);
    this.input = new MapInput(this, this.map);
  }

  layout() {
    this.map.layout();
  }

  draw() {
    this.map.draw();
  }

  // ------------------------------------------------------------- pinning

  /** Pins `box` (or unpins with null): halo, chip, live lines, marks in the IR source. */
  pin(box) {
    const previous = this.state.pinned;
    this.state.pinned = box;
    this.map.markBox('pinned', box);
    this.toolbar.showPinned(box);
    if (box) {
      this.map.source.setMarks([box.name, ...box.aliases]);
      // Beside another map (a compare view) the source would take the room.
      if (!this.state.source && this.shared.sourceOnPin) this.setSource(true);
      this.shared.onPin(this);
    } else {
      this.map.source.setMarks([]);
    }
    this.highlight(box ?? this.state.hovered);
    this.changed();
    return previous;
  }

  /** Marks the live lines of `box` in the left column and across the lanes. */
  highlight(box) {
    this.map.showLive(box);
    this.map.draw();
    this.side.onHighlight(this, box);
  }

  /** In a compare view: `box` is the counterpart of the tile highlighted
   * on the other side (null: none); marked, its lines too unless a tile
   * of this side is pinned. */
  markCounterpart(box) {
    this.state.counterpart = box;
    if (!this.map?.rendered) return;
    this.map.markBox('counterpart', box);
    if (this.state.pinned) return;
    this.map.showLive(box);
  }

  /** Pins dump line `line` (null clears): the tiles live there are
   * highlighted and listed. `peakSpace` lists that space's peak first. */
  pinLine(line, peakSpace = null) {
    const { fn, state } = this;
    state.line = line === null ? null : Math.min(fn.src_end, Math.max(fn.src_start, line));
    state.peakSpace = state.line === null ? null : peakSpace;
    if (state.line !== null && !state.open) this.setOpen(true);
    this.map.source.setPinnedLine(state.line);
    this.map.updateLineRule();
    this.map.refreshBoxClasses();
    this.panel.replaceChildren();
    if (state.line !== null) {
      this.panel.append(linePanel(fn, state.line, state.peakSpace, {
        onTile: (index) => this.reveal(index),
        onClose: () => this.pinLine(null),
        onFit: this.shared.fitTile ? (question) => this.shared.fitTile(this, question) : null,
      }));
      this.shared.onPin(this);
    }
    this.panel.hidden = state.line === null;
    this.map.draw();
    this.changed();
  }

  /** Up/Down: the pinned line moves by `delta` and stays in view. */
  moveLine(delta) {
    if (this.state.line === null) return;
    this.pinLine(this.state.line + delta);
    this.map.scrollToLine(this.state.line, 'nearest');
  }

  /** A pill's click: the card opens on the space's peak line, in view. */
  showPeak(space) {
    const usage = this.spaces.get(space);
    this.pinLine(usage.peak_line, space);
    this.bringToLine(usage.peak_line);
  }

  /** Esc: the pinned tile and line go. */
  clearPins() {
    if (this.state.pinned) this.pin(null);
    if (this.state.line !== null) this.pinLine(null);
  }

  /** Search results in this card: box indices to mark. */
  setMatches(indices, nameMatches = false) {
    this.element.classList.toggle('name-match', nameMatches);
    this.state.matches = new Set(indices);
    this.matchChip.hidden = !indices.length;
    this.matchChip.textContent = `${indices.length} match${indices.length === 1 ? '' : 'es'}`;
    this.map?.refreshBoxClasses();
  }

  // ------------------------------------------------------------ revealing

  /** Opens the card and brings its top just below the top bar. */
  revealCard() {
    if (!this.state.open) this.setOpen(true);
    this.element.scrollIntoView({ block: 'start' });
  }

  /** Brings `line` of the map into view with the card's header and
   * toolbar: the card's top goes just below the top bar (its scroll
   * margin), then the map scrolls the line to the middle of what shows. */
  bringToLine(line) {
    this.element.scrollIntoView({ block: 'start' });
    this.map.bringToLine(line);
  }

  /** Opens the card, brings box `index` into view and pins it; `focus`
   * moves the keyboard focus to it (not when the find field keeps it). */
  reveal(index, { focus = true } = {}) {
    const box = this.fn.boxes[index];
    if (!this.state.open) this.setOpen(true);
    if (this.state.table) this.setTable(false);
    if (this.state.hidden.has(box.space)) this.toggleSpace(box.space);
    this.pin(box); // first: pinning opens the IR source, which moves the lanes
    this.bringToLine(box.start);
    this.map.scrollToByte(box);
    this.state.focused = index;
    if (focus) this.map.boxNode(index)?.focus({ preventScroll: true });
  }

  /** Opens the card with `line` pinned and in view. */
  revealLine(line) {
    if (!this.state.open) this.setOpen(true);
    if (this.state.table) this.setTable(false);
    this.pinLine(line);
    this.bringToLine(line);
  }

  /** Opens the card on reserved window `index`: its band in view and its
   * line pinned (a window is live on every line). */
  revealWindow(index) {
    const window = this.fn.reserved[index];
    if (!this.state.open) this.setOpen(true);
    if (this.state.table) this.setTable(false);
    if (this.state.hidden.has(window.space)) this.toggleSpace(window.space);
    this.pinLine(window.line);
    this.bringToLine(window.line);
    this.map.scrollToWindow(window, index);
  }

  // ----------------------------------------------------------- deep link

  /** What the URL keeps of this card. */
  viewState() {
    const { state } = this;
    return {
      fn: this.fn.name, tile: state.pinned?.name ?? null, line: state.line, zoom: state.zoom, axis: state.axis,
      defaultAxis: this.defaultAxis, hidden: [...state.hidden],
    };
  }

  /** Restores a view read from the URL (names that no longer exist are skipped). */
  applyView(view) {
    if (!this.state.open) this.setOpen(true);
    const known = view.hidden.filter((s) => this.spaces.has(s));
    for (const space of known) if (!this.state.hidden.has(space)) this.toggleSpace(space);
    if (view.axis && view.axis !== this.state.axis) this.setAxis(view.axis);
    if (view.zoom !== this.state.zoom) this.setZoom(view.zoom);
    if (view.line !== null) this.pinLine(view.line);
    const index = view.tile ? this.fn.boxes.findIndex((b) => b.name === view.tile) : -1;
    if (index >= 0) this.reveal(index);
    else if (this.state.line !== null) this.bringToLine(this.state.line);
    else this.element.scrollIntoView({ block: 'start' });
  }

  /** What an exported image shows: the lines in view and every line its
   * notes name, the axis, the spaces shown, the zoom, the lanes' width at
   * zoom 1. */
  exportView() {
    const v = this.viewport;
    const inView = linesInView(v.scrollTop, v.clientHeight, this.fn.src_start, this.fn.src_end);
    const { first, last } = exportLines(inView, this.fn);
    return {
      first, last, axis: this.state.axis, hidden: [...this.state.hidden], zoom: this.state.zoom,
      mapWidth: this.shared.mapWidth() - GUTTER_WIDTH, profile: this.state.profile,
    };
  }

  // ---------------------------------------------------- the view's settings

  /** Zooms the byte axis, around the byte at `anchorClientX` (a pointer;
   * null: the middle of the map). */
  setZoom(zoom, anchorClientX = null) {
    const old = this.state.zoom;
    this.state.zoom = zoom;
    this.map.zoom(old, anchorClientX);
    this.toolbar.showZoom(zoom);
    this.changed();
    this.side.onView(this, 'zoom');
  }

  setAxis(axis) {
    this.axisChosen = true;
    this.state.axis = axis;
    this.toolbar.showAxis(axis);
    this.layout();
    this.changed();
    this.side.onView(this, 'axis');
  }

  /** Shows or hides a space's lane; the last one shown stays. */
  toggleSpace(space) {
    const hidden = this.state.hidden;
    if (hidden.has(space)) hidden.delete(space);
    else if (this.visibleSpaces().length > 1) hidden.add(space);
    this.toolbar.showHidden(hidden);
    this.layout();
    this.changed();
    this.side.onView(this, 'hidden');
  }

  setSource(open) {
    this.state.source = open;
    this.toolbar.showSource(open);
    this.map.setSource(open);
  }

  /** The IR source's bytes came after the body was made: its code drawn,
   * and the split made for it unless moved since; or `missing` says why
   * they will not come, on the source toggle. */
  sourceArrived(missing) {
    if (missing) return this.toolbar.sourceMissing(missing);
    if (!this.splitMoved) this.state.split = this.fittedSplit();
    this.map.setSource(this.state.source);
  }

  /** The split that fits the IR source's lines (none yet: the narrowest). */
  fittedSplit() {
    return defaultSplit(this.fn.source ?? [], this.shared.mapWidth());
  }

  setSplit(width) {
    this.splitMoved = true;
    this.state.split = clampSplit(width);
    this.map.source.refresh();
    this.map.applyColumns();
    this.map.draw();
  }

  setProfile(shown) {
    this.state.profile = shown;
    this.toolbar.showProfile(shown);
    this.layout();
  }

  /** The "Held while idle" panel: the tiles held longest without a use. */
  setIdle(shown) {
    this.state.idle = shown;
    this.toolbar.showIdle(shown);
    this.idleWrap.replaceChildren();
    if (shown) {
      this.idleWrap.append(idlePanel(this.fn, idleHolds(this.fn), {
        onTile: (index) => this.reveal(index),
        onClose: () => {
          this.setIdle(false);
          this.toolbar.idleButton.focus(); // not lost to the page with the panel
        },
      }));
    }
    this.idleWrap.hidden = !shown;
  }

  setTable(shown) {
    this.state.table = shown;
    this.toolbar.showTable(shown);
    if (shown && !this.tableWrap.firstChild) this.tableWrap.append(boxTable(this.fn, this.spaces, { onTile: (index) => this.reveal(index), onWindow: (index) => this.revealWindow(index) }));
    this.tableWrap.hidden = !shown;
    this.viewport.hidden = shown;
  }
}
