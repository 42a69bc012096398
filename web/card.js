// One collapsible card per compute function: header pills, toolbar, and the
// map (lanes of one shared byte scale, boxes, the left column, splitter).
// Only what is in view is drawn; zoom and the splitter touch a few widths.
import { LONE_SIDE } from './card-side.js';
import { clear, el } from './dom.js';
import {
  GUTTER_WIDTH, HEADER_HEIGHT, MIN_BOX, ROW_HEIGHT, SPLIT_MAX, SPLIT_MIN, anchorAfterZoom, baseFactor, boxGeometry, clampSplit, defaultSplit,
  TICK_CHUNK, byteRange, formatBytes, formatZoom, laneExtent, lanePercent, layoutLanes, linesInView, stepZoom, tickLayers, usage, useRuns, visibleLines, slotText,
} from './layout.js';
import {
  anomalyCounts, conflictPartners, idleHolds, inConflict, neighbourBox, placedWindows, spaceHwm,
} from './insight.js';
import {
  HIT_PX, SPLITTER_WIDTH, ghostGeometry, isSliver, mapHeight, scrollLeftToShow, scrollTopForLine, scrollTopToShow, tickChunksInView,
} from './map-geometry.js';
import { idlePanel, linePanel } from './panels.js';
import { windowBand } from './reserved.js';
import { ProfileLayer, peakMark } from './profile.js';
import { SourceColumn } from './source.js';
import { boxTable } from './table.js';

/** A space's pill: usage at a glance, as a figure and as the filled part
 * of the pill, in the space's colour (amber from 80 %, red from 95 %); the
 * tooltip adds the peak and the fragmentation; a click shows the peak
 * composition. `column` places it in its space's column of the page. */
function pill(space, column, onclick) {
  const { percent, level, fraction } = usage(space);
  const hwm = spaceHwm(space);
  const headroom = space.headroom ?? null;
  const title = [
    `${space.space}: high-water mark ${formatBytes(hwm)} (${hwm} B) of ${formatBytes(space.limit)} (${percent})`,
    space.reserved_bytes ? `reserved windows ${formatBytes(space.reserved_bytes)} (${space.reserved_bytes} B), counted in the high-water mark` : null,
    headroom === null ? null : `headroom ${formatBytes(headroom)} (${headroom} B): capacity minus high-water mark`,
    `peak live ${formatBytes(space.peak_live)} (${space.peak_live} B) on line ${space.peak_line}`,
    `fragmentation ${formatBytes(space.fragmentation)} (${space.fragmentation} B): high-water mark minus peak live`,
    `${space.tiles} tiles on ${space.bases} bases · click for the tiles live at the peak`,
  ].filter(Boolean).join('\n');
  const free = headroom === null ? null : headroom >= 0 ? ` · ${formatBytes(headroom)} free` : ` · ${formatBytes(-headroom)} over`;
  return el('button', {
    class: `pill ${level}`, dataset: { space: space.space }, title, onclick, tabindex: '-1',
    style: { gridColumn: String(column), '--used': `${Math.min(100, fraction * 100)}%` },
  },
  el('span', { class: 'pill-space' }, space.space), ` ${percent}`,
  el('span', { class: 'pill-bytes' }, ` · ${formatBytes(hwm)} / ${formatBytes(space.limit)}`),
  free ? el('span', { class: 'pill-headroom' }, free) : null);
}

/** The pills of a card: one Tab stop, ←/→ (Home/End) between them. */
function pillGroup(pills) {
  if (pills.length) pills[0].tabIndex = 0;
  const group = el('span', { class: 'pills', role: 'group', 'aria-label': 'Memory spaces' }, pills);
  group.addEventListener('keydown', (e) => {
    const at = pills.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: pills.length - 1 }[e.key];
    if (at < 0 || to === undefined || !pills[to]) return;
    e.preventDefault();
    pills[at].tabIndex = -1;
    pills[to].tabIndex = 0;
    pills[to].focus();
  });
  return group;
}

function anomalyChips(fn) {
  const { conflicts, over, unplaced } = anomalyCounts(fn);
  return [
    unplaced ? el('span', { class: 'anomaly unplaced', title: 'Tiles whose MemRef gives no address: not drawn, and left out of every figure of this card' },
      `${unplaced} not placed`) : null,
    conflicts ? el('span', { class: 'anomaly conflicts', title: 'Pairs sharing bytes while both are live: tiles on different bases, or a tile and a reserved window' },
      `${conflicts} conflict${conflicts === 1 ? '' : 's'}`) : null,
    over ? el('span', { class: 'anomaly over', title: 'Tiles outside their space: a negative offset, or an end past the capacity' },
      `${over} over capacity`) : null,
  ];
}

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
   *   sourceLabel        the IR source's accessible name (optional)
   * `side`: what the view around it adds (card-side.js); a card alone by
   * default.
   */
  constructor(fn, shared, side = LONE_SIDE) {
    this.fn = fn;
    this.shared = shared;
    this.side = side;
    this.spaceList = side.laneSpaces(fn);
    this.spaces = new Map(this.spaceList.map((s) => [s.space, s]));
    // What sets each lane's extent: the boxes and the windows placed.
    this.ownItems = [...fn.boxes, ...(fn.reserved ?? []).filter((w) => w.placed)
      .map((w) => ({ space: w.space, offset: w.base, size: w.size }))];
    this.state = {
      open: false, zoom: 1, axis: 'limit', hidden: new Set(), pinned: null, hovered: null, source: false, table: false, split: null,
      line: null, peakSpace: null, matches: new Set(), profile: true, idle: false, hoveredWindow: null, focused: -1, counterpart: null,
    };
    this.body = null;
    this.toggle = el('button', { class: 'card-toggle', 'aria-expanded': 'false', title: fn.name, onclick: () => this.setOpen(!this.state.open) },
      el('span', { class: 'caret', 'aria-hidden': 'true' }), el('span', { class: 'fn-name' }, fn.name),
      el('span', { class: 'ftype' }, fn.ftype));
    this.matchChip = el('span', { class: 'match-count', hidden: true });
    this.element = el('section', { class: 'card', dataset: { function: fn.name } },
      el('header', { class: 'card-head' }, this.toggle,
        pillGroup(this.spaceList.map((s) => pill(s, shared.spaceColumn(s.space), () => this.showPeak(s.space)))),
        el('span', { class: 'chips' }, anomalyChips(fn), this.matchChip)));
  }

  /** The items whose bytes set the lanes' extents (this card's, and what
   * the side adds so two maps share one scale). */
  get extentItems() {
    const more = this.side.extentItems(this.state.axis);
    return more.length ? [...this.ownItems, ...more] : this.ownItems;
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

  // ------------------------------------------------------------ building

  build() {
    const { fn } = this;
    this.source = new SourceColumn(fn, this.shared.sourceLabel);
    this.state.split = defaultSplit(fn.source, this.shared.mapWidth());
    this.zoomLevel = el('button', { class: 'zoom-level', title: 'Reset zoom to 1×', onclick: () => this.setZoom(1) }, '1×');
    this.axisButtons = ['limit', 'used'].map((axis) =>
      el('button', { class: 'axis', dataset: { axis }, 'aria-pressed': String(axis === 'limit'), onclick: () => this.setAxis(axis) }, axis));
    this.spaceToggles = this.spaceList.map((s) =>
      el('button', { class: 'space-toggle', dataset: { space: s.space }, 'aria-pressed': 'true', onclick: () => this.toggleSpace(s.space) }, s.space));
    this.sourceButton = el('button', { class: 'source-toggle', onclick: () => this.setSource(!this.state.source) }, 'Show IR source');
    this.tableButton = el('button', { class: 'table-toggle', 'aria-pressed': 'false', onclick: () => this.setTable(!this.state.table) }, 'Table');
    this.profileButton = el('button', {
      class: 'profile-toggle', 'aria-pressed': 'true', title: 'Live bytes per line, drawn from byte 0 in each lane',
      onclick: () => this.setProfile(!this.state.profile),
    }, 'Live profile');
    this.idleButton = el('button', {
      class: 'idle-toggle', 'aria-pressed': 'false', title: 'The tiles held longest without a use: their lifetime blocks reuse',
      onclick: () => this.setIdle(!this.state.idle),
    }, 'Held while idle');
    this.chipName = el('span', { class: 'chip-name' });
    this.chip = el('span', { class: 'chip', hidden: true }, 'pinned ', this.chipName, ' ',
      el('button', { class: 'chip-close', 'aria-label': 'Unpin', title: 'Unpin (Esc)', onclick: () => this.pin(null) }, '×'));
    this.chipConflicts = el('span', { class: 'chip-conflicts', hidden: true });
    this.shareStatus = el('span', { class: 'share-status', role: 'status' });
    this.shareMenu = this.shared.exportMap ? el('details', { class: 'share-menu' },
      el('summary', { title: 'An image of the map as shown: the lines in view, the spaces shown, the zoom' }, 'Share'),
      el('span', { class: 'share-items' },
        el('button', { class: 'copy-png', onclick: () => this.exportMap('png') }, 'Copy as PNG'),
        el('button', { class: 'save-svg', onclick: () => this.exportMap('svg') }, 'Save SVG'))) : null;
    const toolbar = el('div', { class: 'toolbar' },
      el('span', { class: 'group' },
        el('button', { class: 'zoom-out', 'aria-label': 'Zoom out', onclick: () => this.setZoom(stepZoom(this.state.zoom, -1)) }, '−'),
        this.zoomLevel,
        el('button', { class: 'zoom-in', 'aria-label': 'Zoom in', onclick: () => this.setZoom(stepZoom(this.state.zoom, 1)) }, '+')),
      el('span', { class: 'group' }, el('span', { class: 'label' }, 'x axis:'), this.axisButtons),
      el('span', { class: 'group' }, el('span', { class: 'label' }, 'show:'), this.spaceToggles),
      el('span', { class: 'group' }, this.sourceButton, this.tableButton, this.profileButton, this.idleButton),
      this.shareMenu ? el('span', { class: 'group' }, this.shareMenu, this.shareStatus) : null,
      this.chip, this.chipConflicts);
    this.laneHeads = el('div', { class: 'lane-heads' });
    this.lanesArea = el('div', {
      class: 'lanes', tabindex: '0', role: 'group',
      'aria-label': `Map of ${fn.name}: arrow keys move between tiles (↑↓ in time, ←→ across addresses), Enter pins, L pins the line, + and − zoom`,
    });
    this.band = el('div', { class: 'live-band', hidden: true });
    this.lineRule = el('div', { class: 'line-rule', hidden: true });
    this.panel = el('div', { class: 'panel-wrap', hidden: true });
    this.idleWrap = el('div', { class: 'idle-wrap', hidden: true });
    this.splitter = el('div', {
      class: 'splitter', role: 'separator', tabindex: '0', 'aria-orientation': 'vertical', 'aria-label': 'Resize the IR source',
      'aria-valuemin': String(SPLIT_MIN), 'aria-valuemax': String(SPLIT_MAX),
    });
    this.corner = el('div', { class: 'corner' }, 'line');
    // Two flex rows, so the sticky left column and header can travel the
    // whole sheet (a sticky grid item could not leave its own cell).
    this.splitterHead = el('div', { class: 'splitter-head' });
    this.headRow = el('div', { class: 'head-row' }, this.corner, this.splitterHead, this.laneHeads);
    this.bodyRow = el('div', { class: 'body-row' }, this.source.element, this.splitter, this.lanesArea);
    this.sheet = el('div', { class: 'sheet' }, this.headRow, this.bodyRow);
    this.viewport = el('div', { class: 'viewport' }, this.sheet);
    this.tableWrap = el('div', { class: 'table-wrap', hidden: true });
    this.body = el('div', { class: 'card-body' }, toolbar, this.lifetimeNotice(), this.unplacedNotice(), this.idleWrap, this.panel, this.viewport, this.tableWrap);
    this.element.append(this.body);
    this.fresh = true;
    this.listen();
  }

  /** A function whose dump holds no addresses (planned: false): what the
   * map shows instead, and the least any placement needs. */
  lifetimeNotice() {
    if (this.fn.planned !== false) return null;
    const spaces = [...this.fn.spaces, ...(this.fn.reserved_only_spaces ?? [])];
    return el('div', { class: 'lifetime-notice', role: 'note' },
      el('strong', {}, 'No addresses in this dump (ptoas assigns them): '),
      'each buffer is drawn packed by when it lives, its tiles at their offsets in it. The least any placement needs: ',
      spaces.map((s, i) => `${i ? '; ' : ''}${s.space} ${formatBytes(s.lower_bound)}${s.headroom_above_lower_bound == null ? '' : `, ${formatBytes(s.headroom_above_lower_bound)} free above it`}`).join(''),
      '.');
  }

  /** The tiles the core could not place, each with why and its line: the
   * map and every figure above leave them out. */
  unplacedNotice() {
    const skipped = this.fn.skipped ?? [];
    if (!skipped.length) return null;
    const n = skipped.length;
    return el('div', { class: 'unplaced-notice', role: 'note' },
      el('strong', {}, `${n} tile${n === 1 ? '' : 's'} not placed: not drawn, and not counted in the figures above`),
      el('ul', {}, skipped.map((tile) => el('li', {},
        el('button', { class: 'unplaced-line', title: 'Pin this line', onclick: () => this.revealLine(tile.line) }, `line ${tile.line}`),
        ' ', el('code', {}, tile.name), ` (${tile.space}): ${tile.reason}`))));
  }

  listen() {
    let frame = 0;
    this.viewport.addEventListener('scroll', () => {
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; this.draw(); });
      this.side.onScroll(this);
    }, { passive: true });
    this.viewport.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.lanesArea.addEventListener('pointerover', (e) => this.onHover(e));
    this.lanesArea.addEventListener('pointermove', (e) => {
      if (this.state.hovered || this.state.hoveredWindow) this.shared.tooltip.move(e.clientX, e.clientY);
    });
    this.lanesArea.addEventListener('pointerout', (e) => {
      const hit = '.box, .box-hit, .window-band';
      if (e.target.closest(hit) && !e.relatedTarget?.closest?.(hit)) this.onLeave();
    });
    this.lanesArea.addEventListener('click', (e) => {
      const box = this.boxOf(e.target);
      if (box) this.pin(this.state.pinned === box ? null : box);
    });
    this.lanesArea.addEventListener('keydown', (e) => this.onMapKey(e));
    this.lanesArea.addEventListener('focus', (e) => {
      // The map is one Tab stop: it hands the focus to its current tile
      // (not when the focus comes back from a tile, for Shift+Tab).
      if (e.target === this.lanesArea && !this.lanesArea.contains(e.relatedTarget)) this.focusBox(this.currentBox());
    });
    this.lanesArea.addEventListener('focusin', (e) => {
      const box = this.boxOf(e.target);
      if (box) this.showTooltip(box, e.target.getBoundingClientRect());
    });
    this.lanesArea.addEventListener('focusout', () => this.onLeave());
    this.listenSplitter();
    this.source.element.addEventListener('click', (e) => {
      const row = e.target.closest('.row');
      if (!row || !window.getSelection().isCollapsed) return; // selecting text is not a click on the line
      const line = Number(row.dataset.line);
      this.pinLine(this.state.line === line ? null : line);
    });
  }

  listenSplitter() {
    const s = this.splitter;
    s.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      s.setPointerCapture(e.pointerId);
      const startX = e.clientX, startWidth = this.state.split;
      let frame = 0, pending = startWidth;
      const move = (ev) => {
        pending = clampSplit(startWidth + ev.clientX - startX);
        if (!frame) frame = requestAnimationFrame(() => { frame = 0; this.setSplit(pending); });
      };
      const up = () => {
        s.removeEventListener('pointermove', move);
        s.removeEventListener('pointerup', up);
        s.removeEventListener('pointercancel', up);
        if (frame) cancelAnimationFrame(frame);
        this.setSplit(pending);
      };
      s.addEventListener('pointermove', move);
      s.addEventListener('pointerup', up);
      s.addEventListener('pointercancel', up);
    });
    s.addEventListener('dblclick', () => this.setSplit(defaultSplit(this.fn.source, this.shared.mapWidth())));
    s.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 80 : 16;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        this.setSplit(this.state.split + (e.key === 'ArrowRight' ? step : -step));
      } else if (e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        this.setSplit(e.key === 'Home' ? SPLIT_MIN : SPLIT_MAX);
      }
    });
  }

  // ------------------------------------------------------------- layout

  visibleSpaces() {
    return this.spaceList.filter((s) => !this.state.hidden.has(s.space));
  }

  /** The map's visible height without reading layout (see mapHeight). */
  viewportHeight() {
    return mapHeight(window.innerHeight, this.shared.topbarHeight(), this.bodyHeight);
  }

  /** Recomputes the factor and lanes; redraws the lanes and what is in view.
   * Reads no layout (opening many cards at once must not reflow per card):
   * the width is the page's, measured once. */
  layout() {
    const { state, fn } = this;
    const spaces = this.visibleSpaces();
    const available = this.shared.mapWidth() - GUTTER_WIDTH;
    const spans = spaces.map((s) => laneExtent(s, state.axis, this.extentItems)).map((e) => e.hi - e.lo);
    this.factor = baseFactor(spans, available) * state.zoom;
    this.lanes = layoutLanes(spaces, { axis: state.axis, factor: this.factor, boxes: this.extentItems });
    this.bodyHeight = (fn.src_end - fn.src_start + 1) * ROW_HEIGHT;
    this.drawLanes();
    this.applyColumns();
    this.draw(this.fresh ? { scrollTop: 0, height: this.viewportHeight() } : undefined);
    this.fresh = false;
  }

  leftWidth() {
    return this.state.source ? this.state.split : GUTTER_WIDTH;
  }

  /** The column widths: only these change when the splitter moves. */
  applyColumns() {
    const left = this.leftWidth();
    const splitter = this.state.source ? SPLITTER_WIDTH : 0;
    const lanes = Math.ceil(this.lanes.width);
    this.sheet.style.width = `${left + splitter + lanes}px`;
    for (const node of [this.corner, this.source.element]) node.style.width = `${left}px`;
    for (const node of [this.splitterHead, this.splitter]) {
      node.style.width = `${splitter}px`;
      node.style.left = `${left}px`;
    }
    for (const node of [this.laneHeads, this.lanesArea]) node.style.width = `${lanes}px`;
    this.headRow.style.height = `${HEADER_HEIGHT}px`;
    this.bodyRow.style.height = `${this.bodyHeight}px`;
    this.splitter.hidden = !this.state.source;
    this.splitter.setAttribute('aria-valuenow', String(this.state.split));
    this.source.setHeight(Math.min(this.bodyHeight, Math.max(0, this.viewportHeight() - HEADER_HEIGHT)));
  }

  drawLanes() {
    clear(this.laneHeads);
    clear(this.lanesArea);
    this.ghost = null;
    this.laneEls = new Map();
    this.rendered = new Map();
    this.hits = new Map(); // box index -> its hit area (slivers)
    this.tickState = new WeakMap();
    this.profiles = [];
    for (const lane of this.lanes.lanes) {
      const space = this.spaces.get(lane.space);
      const head = el('div', {
        class: 'lane-head', dataset: { space: lane.space },
        title: `${lane.space}: bytes ${byteRange(lane.lo, lane.span)}; high-water mark ${formatBytes(spaceHwm(space))}, capacity ${formatBytes(space.limit)}`,
      },
      el('span', { class: 'lane-name' }, lane.space),
      el('span', { class: 'lane-figures' }, `${formatBytes(lane.lo)} … ${formatBytes(lane.lo + lane.span)}`));
      const beyond = lane.lo < 0 || lane.lo + lane.span > space.limit;
      const laneEl = el('div', { class: 'lane', dataset: { space: lane.space } },
        el('div', { class: 'hwm-rule', title: `high-water mark ${formatBytes(spaceHwm(space))}`, style: { left: `${lanePercent(lane, spaceHwm(space))}%` } }),
        placedWindows(this.fn, lane.space).map(({ index, window }) => windowBand(window, index, lane)),
        // Past the capacity (or before 0): marked, so boxes there read as out of bounds.
        beyond ? el('div', { class: 'capacity-rule', title: `capacity ${formatBytes(space.limit)}`, style: { left: `${lanePercent(lane, space.limit)}%` } }) : null,
        beyond ? el('div', { class: 'out-of-bounds', style: { left: `${lanePercent(lane, space.limit)}%`, right: '0' } }) : null,
        lane.lo < 0 ? el('div', { class: 'out-of-bounds', style: { left: '0', width: `${lanePercent(lane, 0)}%` } }) : null);
      if (this.state.profile && space.live) {
        const layer = new ProfileLayer(space, lane, this.fn, ROW_HEIGHT);
        this.profiles.push(layer);
        laneEl.append(layer.element, peakMark(space, lane, this.fn, ROW_HEIGHT));
      }
      this.placeLane(head, laneEl, lane);
      this.laneHeads.append(head);
      this.lanesArea.append(laneEl);
      this.laneEls.set(lane.space, { head, lane: laneEl });
    }
    this.lanesArea.append(this.band, this.lineRule);
    this.updateBand();
    this.updateLineRule();
    this.drawGhost(this.state.pinned ?? this.state.hovered ?? this.state.counterpart);
  }

  placeLane(head, laneEl, lane) {
    for (const node of [head, laneEl]) {
      node.style.left = `${lane.left}px`;
      node.style.width = `${lane.width}px`;
    }
  }

  /** Draws the rows and boxes in view (called on scroll, at most once a frame).
   * `known` gives the scroll position and height when reading them would
   * force a layout (a card just built is at the top). */
  draw(known) {
    if (!this.lanes) return;
    const { fn, viewport } = this;
    const scrollTop = known ? known.scrollTop : viewport.scrollTop;
    const height = known ? known.height : viewport.clientHeight;
    const { first, last } = visibleLines(scrollTop, height, fn.src_start, fn.src_end);
    this.source.render(first, last, scrollTop);
    for (const layer of this.profiles) layer.render(first, last);
    const want = new Set();
    fn.boxes.forEach((b, i) => {
      if (!this.state.hidden.has(b.space) && b.end >= first && b.start <= last) want.add(i);
    });
    for (const [i, node] of this.rendered) {
      if (!want.has(i) && node !== document.activeElement) {
        node.remove();
        this.rendered.delete(i);
        this.setHitArea(i, false);
      }
    }
    for (const i of want) if (!this.rendered.has(i)) this.rendered.set(i, this.makeBox(i));
    for (const [i, node] of this.rendered) this.drawTicks(i, node, first, last);
  }

  makeBox(index) {
    const box = this.fn.boxes[index];
    const lane = this.lanes.lanes.find((l) => l.space === box.space);
    const g = boxGeometry(box, lane, this.fn.src_start);
    const classes = ['box'];
    if (box.view) classes.push('view');
    if (inConflict(box)) classes.push('conflict');
    if (box.over_capacity) classes.push('over');
    if (this.state.pinned === box) classes.push('pinned');
    if (this.atLine(box)) classes.push('at-line');
    if (this.state.matches.has(index)) classes.push('match');
    if (this.state.counterpart === box) classes.push('counterpart');
    classes.push(...this.side.boxClasses(index));
    const sliver = isSliver(box, lane);
    if (sliver) classes.push('sliver');
    if (box.slots?.runtime) classes.push('slotted');
    const tall = box.end - box.start >= 1;
    const node = el('div', {
      class: classes.join(' '), tabindex: '-1', role: 'button', dataset: { tile: box.name, index },
      'aria-label': `${box.name}${box.aliases.length ? ` +${box.aliases.length}` : ''} ${byteRange(box.offset, box.size)} · ${formatBytes(box.size)}, ${box.space}, lines ${box.start} to ${box.end}${box.slots ? `, ${slotText(box)}` : ''}`,
      style: {
        left: `${g.left}%`, width: `max(${MIN_BOX}px, ${g.width}%)`, top: `${g.top}px`, height: `${g.height}px`,
        ...(box.slots?.runtime ? { '--slots': String(box.slots.count) } : {}),
      },
    },
    // The name is cut with an ellipsis; the +N of merged aliases stays.
    el('span', { class: 'box-name' }, el('span', { class: 'box-label' }, box.name),
      box.slots?.index != null ? el('span', { class: 'box-slot' }, `[${box.slots.index}]`) : null,
      box.aliases.length ? el('span', { class: 'box-aliases' }, `+${box.aliases.length}`) : null),
    tall ? el('span', { class: 'box-size' }, `${byteRange(box.offset, box.size)} · ${formatBytes(box.size)}`) : null,
    // A sliver's name shown beside it when found or pinned: it cannot hold it.
    el('span', { class: 'sliver-flag', 'aria-hidden': 'true' }, box.name));
    this.laneEls.get(box.space).lane.append(node);
    this.setHitArea(index, sliver);
    return node;
  }

  /** The tick strips of box `index` (drawn as `node`) for lines [first,
   * last]: a tick on each line it is used, on its right edge. A box with
   * many runs of uses gets a strip per TICK_CHUNK runs, only where in view. */
  drawTicks(index, node, first, last) {
    let state = this.tickState.get(node);
    if (!state) this.tickState.set(node, state = { runs: useRuns(this.fn.boxes[index]), strips: new Map() });
    const { runs, strips } = state;
    const { from, to } = tickChunksInView(runs, first, last);
    for (const [c, strip] of strips) {
      if (c < from || c > to) {
        strip.remove();
        strips.delete(c);
      }
    }
    for (let c = from; c <= to; c++) if (!strips.has(c)) strips.set(c, this.tickStrip(index, node, runs.slice(c * TICK_CHUNK, (c + 1) * TICK_CHUNK)));
  }

  tickStrip(index, node, part) {
    const box = this.fn.boxes[index];
    const top = part[0][0];
    const bottom = part.at(-1)[1];
    const { image, position, size } = tickLayers(part, top);
    const strip = el('i', { class: 'use-ticks', 'aria-hidden': 'true', style: {
      top: `${(top - box.start) * ROW_HEIGHT}px`, height: `${(bottom - top + 1) * ROW_HEIGHT}px`,
      backgroundImage: image, backgroundPosition: position, backgroundSize: size,
    } });
    node.append(strip);
    return strip;
  }

  /** The tile the keyboard is on: the last one focused, or pinned, or the
   * first drawn. */
  currentBox() {
    if (this.state.focused >= 0 && this.state.focused < this.fn.boxes.length) return this.state.focused;
    if (this.state.pinned) return this.fn.boxes.indexOf(this.state.pinned);
    const drawn = [...(this.rendered?.keys() ?? [])];
    return drawn.length ? Math.min(...drawn) : 0;
  }

  /** Moves the keyboard to box `index`: scrolled into the map (drawn if it
   * was not) and focused. */
  focusBox(index) {
    const box = this.fn.boxes[index];
    if (!box) return;
    if (this.state.hidden.has(box.space)) this.toggleSpace(box.space);
    this.state.focused = index;
    this.scrollToLine(box.start, 'nearest');
    this.scrollToByte(box);
    this.rendered.get(index)?.focus({ preventScroll: true });
  }

  /** Keys on a focused tile: arrows move, Enter pins it, L pins its first
   * line, + / − / 0 zoom. */
  onMapKey(e) {
    const box = this.boxOf(e.target);
    if (!box || e.ctrlKey || e.metaKey || e.altKey) return;
    const index = Number(e.target.closest('.box').dataset.index);
    const key = e.key;
    let handled = true;
    if (key === 'Enter') this.pin(this.state.pinned === box ? null : box);
    else if (key === 'l' || key === 'L') this.pinLine(this.state.line === box.start ? null : box.start);
    else if (key === '+' || key === '=') this.setZoom(stepZoom(this.state.zoom, 1));
    else if (key === '-' || key === '_') this.setZoom(stepZoom(this.state.zoom, -1));
    else if (key === '0') this.setZoom(1);
    else if (['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key)) {
      const to = neighbourBox(this.fn, index, key, this.state.hidden);
      if (to >= 0) this.focusBox(to);
    } else handled = false;
    if (handled) e.preventDefault();
    if (handled && this.state.focused >= 0) this.rendered.get(this.state.focused)?.focus({ preventScroll: true });
  }

  boxOf(target) {
    const node = target.closest?.('.box, .box-hit');
    return node ? this.fn.boxes[Number(node.dataset.index)] : null;
  }

  /** A sliver's hit area: at least 8 px wide, centred on it, under every
   * drawn box (so it never takes a neighbour's clicks), in its lane. */
  setHitArea(index, wanted) {
    const hit = this.hits.get(index);
    if (!wanted || hit) {
      if (!wanted && hit) {
        hit.remove();
        this.hits.delete(index);
      }
      return;
    }
    const box = this.fn.boxes[index];
    const lane = this.lanes.lanes.find((l) => l.space === box.space);
    const g = boxGeometry(box, lane, this.fn.src_start);
    const node = el('div', {
      class: 'box-hit', dataset: { index }, 'aria-hidden': 'true',
      // Centred on the box as drawn (at least MIN_BOX px wide).
      style: { left: `calc(${g.left}% + max(${MIN_BOX}px, ${g.width}%) / 2 - ${HIT_PX / 2}px)`, width: `${HIT_PX}px`, top: `${g.top}px`, height: `${g.height}px` },
    });
    this.hits.set(index, node);
    this.laneEls.get(box.space).lane.append(node);
  }

  // --------------------------------------------------------- interaction

  showTooltip(box, rect) {
    this.shared.tooltip.show(box, this.spaces.get(box.space), rect.right, rect.top, this.fn);
  }

  onHover(e) {
    const band = e.target.closest?.('.window-band');
    if (band && !this.boxOf(e.target)) return this.onWindowHover(band, e);
    const box = this.boxOf(e.target);
    if (!box || box === this.state.hovered) return;
    this.state.hoveredWindow = null;
    this.state.hovered = box;
    this.shared.tooltip.show(box, this.spaces.get(box.space), e.clientX, e.clientY, this.fn);
    if (!this.state.pinned) this.highlight(box);
  }

  /** A reserved window's band: its tooltip; the highlight stays. */
  onWindowHover(band, e) {
    const window = this.fn.reserved[Number(band.dataset.window)];
    if (window === this.state.hoveredWindow) return;
    if (this.state.hovered) this.onLeave();
    this.state.hoveredWindow = window;
    this.shared.tooltip.showWindow(window, this.spaces.get(window.space), e.clientX, e.clientY);
  }

  onLeave() {
    this.state.hoveredWindow = null;
    this.state.hovered = null;
    this.shared.tooltip.hide();
    if (!this.state.pinned) this.highlight(null);
  }

  /** Marks the live lines of `box` in the left column and across the lanes. */
  highlight(box) {
    this.source.setLive(box ? [box.start, box.end] : null);
    this.updateBand(box);
    this.drawGhost(box);
    this.draw();
    this.side.onHighlight(this, box);
  }

  /** In a compare view: `box` is the counterpart of the tile highlighted
   * on the other side (null: none); marked, its lines too unless a tile
   * of this side is pinned. */
  markCounterpart(box) {
    this.state.counterpart = box;
    if (!this.rendered) return;
    for (const node of this.lanesArea.querySelectorAll('.box.counterpart')) node.classList.remove('counterpart');
    if (box) this.rendered.get(this.fn.boxes.indexOf(box))?.classList.add('counterpart');
    if (this.state.pinned) return;
    this.source.setLive(box ? [box.start, box.end] : null);
    this.updateBand(box);
    this.drawGhost(box);
  }

  /** Where a moved or resized tile was (compare view): a dashed outline
   * at its old bytes over its rows, and a rule from there to it. */
  drawGhost(box) {
    this.ghost?.remove();
    this.ghost = null;
    const place = box && this.side.ghostOf(this.fn.boxes.indexOf(box));
    const lane = place && this.lanes?.lanes.find((l) => l.space === place.space);
    const boxLane = box && this.lanes?.lanes.find((l) => l.space === box.space);
    if (!lane || !boxLane) return;
    const g = ghostGeometry(box, place, lane, boxLane, this.fn.src_start);
    this.ghost = el('div', { class: 'ghost-layer', 'aria-hidden': 'true' },
      el('div', { class: 'ghost', style: { left: `${g.left}px`, width: `${g.width}px`, top: `${g.top}px`, height: `${g.height}px` } }),
      g.link ? el('div', { class: 'ghost-link', style: { left: `${g.link.left}px`, width: `${g.link.width}px`, top: `${g.top + 5}px` } }) : null);
    this.lanesArea.append(this.ghost);
  }

  updateBand(box = this.state.pinned ?? this.state.hovered ?? this.state.counterpart) {
    if (!box) {
      this.band.hidden = true;
      return;
    }
    this.band.hidden = false;
    this.band.style.top = `${(box.start - this.fn.src_start) * ROW_HEIGHT}px`;
    this.band.style.height = `${(box.end - box.start + 1) * ROW_HEIGHT}px`;
  }

  /** Pins `box` (or unpins with null): halo, chip, live lines, marks in the IR source. */
  pin(box) {
    const previous = this.state.pinned;
    this.state.pinned = box;
    for (const node of this.lanesArea.querySelectorAll('.box.pinned')) node.classList.remove('pinned');
    if (box) {
      const index = this.fn.boxes.indexOf(box);
      this.rendered.get(index)?.classList.add('pinned');
      this.chipName.textContent = box.name;
      this.showConflictPartners(box);
      this.source.setMarks([box.name, ...box.aliases]);
      // Beside another map (a compare view) the source would take the room.
      if (!this.state.source && this.shared.sourceOnPin) this.setSource(true);
      this.shared.onPin(this);
    } else {
      this.source.setMarks([]);
    }
    this.chip.hidden = !box;
    if (!box) this.chipConflicts.hidden = true;
    this.highlight(box ?? this.state.hovered);
    this.changed();
    return previous;
  }

  /** Beside the chip: who the pinned box is in conflict with, each a
   * button to go there (boxes) or to its line (windows). */
  showConflictPartners(box) {
    const { boxes, windows, more } = conflictPartners(box);
    const go = (index) => el('button', {
      class: 'partner', title: 'Go to this tile',
      onclick: () => this.reveal(index),
    }, `${this.fn.boxes[index].name} ${byteRange(this.fn.boxes[index].offset, this.fn.boxes[index].size)}`);
    const goWindow = (w) => el('button', {
      class: 'partner', title: 'Go to this reserved window', onclick: () => this.revealWindow(w),
    }, `${this.fn.reserved[w].name} (reserved)`);
    this.chipConflicts.replaceChildren(
      el('span', { class: 'label' }, 'conflicts with'), ...boxes.map(go), ...windows.map(goWindow),
      ...(more > 0 ? [el('span', { class: 'muted' }, `and ${more} more`)] : []));
    this.chipConflicts.hidden = !boxes.length && !windows.length;
  }

  // ------------------------------------------------------ line inspector

  atLine(box) {
    const { line } = this.state;
    return line !== null && box.start <= line && line <= box.end;
  }

  /** Pins dump line `line` (null clears): the tiles live there are
   * highlighted and listed. `peakSpace` lists that space's peak first. */
  pinLine(line, peakSpace = null) {
    const { fn } = this;
    this.state.line = line === null ? null : Math.min(fn.src_end, Math.max(fn.src_start, line));
    this.state.peakSpace = this.state.line === null ? null : peakSpace;
    if (this.state.line !== null && !this.state.open) this.setOpen(true);
    this.source.setPinnedLine(this.state.line);
    this.updateLineRule();
    this.refreshBoxClasses();
    this.panel.replaceChildren();
    if (this.state.line !== null) {
      this.panel.append(linePanel(fn, this.state.line, this.state.peakSpace, {
        onTile: (index) => this.reveal(index),
        onClose: () => this.pinLine(null),
      }));
      this.shared.onPin(this);
    }
    this.panel.hidden = this.state.line === null;
    this.draw();
    this.changed();
  }

  /** Up/Down: the pinned line moves by `delta` and stays in view. */
  moveLine(delta) {
    if (this.state.line === null) return;
    this.pinLine(this.state.line + delta);
    this.scrollToLine(this.state.line, 'nearest');
  }

  /** A pill's click: the card opens on the space's peak line, in view. */
  showPeak(space) {
    const usage = this.spaces.get(space);
    this.pinLine(usage.peak_line, space);
    this.bringToLine(usage.peak_line);
  }

  updateLineRule() {
    const { line } = this.state;
    this.lineRule.hidden = line === null;
    if (line !== null) this.lineRule.style.top = `${(line - this.fn.src_start) * ROW_HEIGHT}px`;
  }

  /** Re-marks the boxes drawn after the pinned line or the matches change. */
  refreshBoxClasses() {
    if (!this.rendered) return;
    for (const [index, node] of this.rendered) {
      const box = this.fn.boxes[index];
      node.classList.toggle('at-line', this.atLine(box));
      node.classList.toggle('match', this.state.matches.has(index));
    }
  }

  /** What an exported image shows: the lines in view, the axis, the
   * spaces shown, the zoom, the lanes' width at zoom 1. */
  exportView() {
    const v = this.viewport;
    const { first, last } = linesInView(v.scrollTop, v.clientHeight, this.fn.src_start, this.fn.src_end);
    return {
      first, last, axis: this.state.axis, hidden: [...this.state.hidden], zoom: this.state.zoom,
      mapWidth: this.shared.mapWidth() - GUTTER_WIDTH,
    };
  }

  /** Share → Copy as PNG ('png') or Save SVG ('svg'); says how it went. */
  async exportMap(kind) {
    this.shareMenu.open = false;
    this.shareStatus.textContent = 'drawing…';
    let said;
    try {
      said = await this.shared.exportMap(this, kind);
    } catch (error) {
      said = `could not export: ${error.message}`;
    }
    this.shareStatus.textContent = said;
    clearTimeout(this.shareTimer);
    this.shareTimer = setTimeout(() => { if (this.shareStatus.textContent === said) this.shareStatus.textContent = ''; }, 6000);
  }

  /** Search results in this card: box indices to mark. */
  setMatches(indices, nameMatches = false) {
    this.element.classList.toggle('name-match', nameMatches);
    this.state.matches = new Set(indices);
    this.matchChip.hidden = !indices.length;
    this.matchChip.textContent = `${indices.length} match${indices.length === 1 ? '' : 'es'}`;
    this.refreshBoxClasses();
  }

  // ------------------------------------------------------------ scrolling

  /** Scrolls the map so `line` is in view: centred, or `nearest` (only if outside). */
  scrollToLine(line, mode = 'center') {
    const v = this.viewport;
    const to = scrollTopForLine(line, this.fn.src_start, v, mode);
    if (to !== v.scrollTop) v.scrollTop = to;
    this.draw();
  }

  /** Opens the card and brings its top just below the top bar. */
  revealCard() {
    if (!this.state.open) this.setOpen(true);
    this.element.scrollIntoView({ block: 'start' });
  }

  /** Brings `line` of the map into view with the card's header and
   * toolbar: the card's top goes just below the top bar (its scroll
   * margin), then the map scrolls the line to the middle of the part of it
   * the window shows, whatever the panels above take. */
  bringToLine(line) {
    this.element.scrollIntoView({ block: 'start' });
    const v = this.viewport;
    v.scrollTop = scrollTopToShow(line, this.fn.src_start, v.getBoundingClientRect(), this.shared.topbarHeight(), window.innerHeight);
    this.draw();
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
    this.scrollToByte(box);
    this.state.focused = index;
    if (focus) this.rendered.get(index)?.focus({ preventScroll: true });
  }

  /** Scrolls the map sideways, if need be, so `box`'s first byte shows
   * (the lines in view, drawn by scrollToLine, stay the same). */
  scrollToByte(box) {
    const lane = this.lanes.lanes.find((l) => l.space === box.space);
    if (!lane) return;
    const offset = this.leftWidth() + (this.state.source ? SPLITTER_WIDTH : 0);
    const x = offset + lane.left + (box.offset - lane.lo) * this.factor;
    const v = this.viewport;
    const to = scrollLeftToShow(x, offset, v.scrollLeft, v.clientWidth);
    if (to !== v.scrollLeft) v.scrollLeft = to;
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
    this.laneEls.get(window.space)?.lane.querySelector(`.window-band[data-window="${index}"]`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  // ----------------------------------------------------------- deep link

  /** What the URL keeps of this card. */
  viewState() {
    const { state } = this;
    return {
      fn: this.fn.name, tile: state.pinned?.name ?? null, line: state.line, zoom: state.zoom, axis: state.axis,
      hidden: [...state.hidden],
    };
  }

  /** Restores a view read from the URL (names that no longer exist are skipped). */
  applyView(view) {
    if (!this.state.open) this.setOpen(true);
    const known = view.hidden.filter((s) => this.spaces.has(s));
    for (const space of known) if (!this.state.hidden.has(space)) this.toggleSpace(space);
    if (view.axis !== this.state.axis) this.setAxis(view.axis);
    if (view.zoom !== this.state.zoom) this.setZoom(view.zoom);
    if (view.line !== null) this.pinLine(view.line);
    const index = view.tile ? this.fn.boxes.findIndex((b) => b.name === view.tile) : -1;
    if (index >= 0) this.reveal(index);
    else if (this.state.line !== null) this.bringToLine(this.state.line);
    else this.element.scrollIntoView({ block: 'start' });
  }

  /** Esc: the pinned tile and line go. */
  clearPins() {
    if (this.state.pinned) this.pin(null);
    if (this.state.line !== null) this.pinLine(null);
  }

  setProfile(shown) {
    this.state.profile = shown;
    this.profileButton.setAttribute('aria-pressed', String(shown));
    this.layout();
  }

  setZoom(zoom, anchorClientX = null) {
    const before = this.lanes;
    const pointer = anchorClientX ?? this.viewport.getBoundingClientRect().left + this.viewport.clientWidth / 2;
    const offset = this.leftWidth() + (this.state.source ? SPLITTER_WIDTH : 0);
    const x = pointer - this.viewport.getBoundingClientRect().left + this.viewport.scrollLeft - offset;
    const old = this.state.zoom;
    this.state.zoom = zoom;
    this.factor = (this.factor / old) * zoom;
    this.lanes = layoutLanes(this.visibleSpaces(), { axis: this.state.axis, factor: this.factor, boxes: this.extentItems });
    for (const lane of this.lanes.lanes) {
      const { head, lane: laneEl } = this.laneEls.get(lane.space);
      this.placeLane(head, laneEl, lane);
    }
    this.applyColumns();
    for (const [i, node] of this.rendered) {
      const box = this.fn.boxes[i];
      const sliver = isSliver(box, this.lanes.lanes.find((l) => l.space === box.space));
      node.classList.toggle('sliver', sliver);
      this.setHitArea(i, false);
      this.setHitArea(i, sliver);
    }
    this.drawGhost(this.state.pinned ?? this.state.hovered ?? this.state.counterpart);
    const moved = anchorAfterZoom(x, before, this.lanes);
    this.viewport.scrollLeft = Math.max(0, this.viewport.scrollLeft + moved - x);
    this.zoomLevel.textContent = formatZoom(zoom);
    this.changed();
    this.side.onView(this, 'zoom');
  }

  onWheel(e) {
    if (!(e.ctrlKey || e.metaKey) || !this.lanes) return;
    e.preventDefault();
    const zoom = stepZoom(this.state.zoom, e.deltaY < 0 ? 1 : -1);
    if (zoom !== this.state.zoom) this.setZoom(zoom, e.clientX);
  }

  setAxis(axis) {
    this.state.axis = axis;
    for (const b of this.axisButtons) b.setAttribute('aria-pressed', String(b.dataset.axis === axis));
    this.layout();
    this.changed();
    this.side.onView(this, 'axis');
  }

  toggleSpace(space) {
    const hidden = this.state.hidden;
    if (hidden.has(space)) hidden.delete(space);
    else if (this.visibleSpaces().length > 1) hidden.add(space);
    for (const t of this.spaceToggles) {
      const shown = !hidden.has(t.dataset.space);
      t.setAttribute('aria-pressed', String(shown));
      // The last visible space cannot be hidden.
      t.disabled = shown && this.visibleSpaces().length === 1;
    }
    this.layout();
    this.changed();
    this.side.onView(this, 'hidden');
  }

  setSource(open) {
    this.state.source = open;
    this.sourceButton.textContent = open ? 'Hide IR source' : 'Show IR source';
    this.sourceButton.setAttribute('aria-pressed', String(open));
    this.corner.textContent = open ? 'IR source' : 'line';
    this.source.setOpen(open);
    this.applyColumns();
    this.draw();
  }

  setSplit(width) {
    this.state.split = clampSplit(width);
    this.applyColumns();
    this.draw();
  }

  /** The "Held while idle" panel: the tiles held longest without a use. */
  setIdle(shown) {
    this.state.idle = shown;
    this.idleButton.setAttribute('aria-pressed', String(shown));
    this.idleWrap.replaceChildren();
    if (shown) {
      this.idleWrap.append(idlePanel(this.fn, idleHolds(this.fn), {
        onTile: (index) => this.reveal(index),
        onClose: () => this.setIdle(false),
      }));
    }
    this.idleWrap.hidden = !shown;
  }

  setTable(shown) {
    this.state.table = shown;
    this.tableButton.setAttribute('aria-pressed', String(shown));
    if (shown && !this.tableWrap.firstChild) this.tableWrap.append(boxTable(this.fn));
    this.tableWrap.hidden = !shown;
    this.viewport.hidden = shown;
  }
}
