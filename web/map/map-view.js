// A card's map (DOM): the sheet of lanes on one byte scale with the left
// column (line numbers or IR source) and the splitter, and in it the boxes
// and tick strips in view, the live band, the pinned line and a ghost.
// Only what is in view is drawn; zoom and the splitter touch a few widths.
import { clear, el } from '../base/dom.js';
import { inConflict, placedWindows, spaceHwm } from '../model/insight.js';
import {
  CHAR_WIDTH, GUTTER_WIDTH, HEADER_HEIGHT, MIN_BOX, ROW_HEIGHT, SPLIT_MAX, SPLIT_MIN, TICK_CHUNK,
  anchorAfterZoom, baseFactor, boxGeometry, byteRange, formatBytes, laneExtent, lanePercent, layoutLanes, placeText, slotText, tickLayers, usage, useRuns, visibleLines,
} from '../model/layout.js';
import {
  SPLITTER_WIDTH, ghostGeometry, isSliver, mapHeight, nearestBox, openingScroll, scrollLeftToShow, scrollTopForLine, scrollTopToShow, tickChunksInView,
} from '../model/map-geometry.js';
import { ProfileLayer, peakMark } from './profile.js';
import { labelPlaces, windowBand } from './reserved.js';
import { SourceColumn } from './source.js';

/** px: a lane head narrower than this has no room for the fit offer. */
const FIT_OFFER_PX = 240;

/** The bands of a lane's windows, their labels placed apart. */
const windowBands = (items, lane, space) => {
  const places = labelPlaces(items, lane);
  return items.map(({ index, window }) => windowBand(window, index, lane, space, places.get(index)));
};

/** Whether `box` is live on dump line `line` (null: no line). */
const liveOn = (box, line) => line !== null && box.start <= line && line <= box.end;

export class MapView {
  /** `card`: the Card whose state (zoom, axis, hidden spaces, pins) it draws. */
  constructor(card) {
    const { fn } = card;
    this.card = card;
    this.source = new SourceColumn(fn, card.shared.sourceLabel);
    this.source.columnChars = () => Math.floor((this.state.split - GUTTER_WIDTH - 16) / CHAR_WIDTH);
    this.source.onDrift((dy) => { this.viewport.scrollTop += dy; });
    this.laneHeads = el('div', { class: 'lane-heads' });
    this.lanesArea = el('div', {
      class: 'lanes', tabindex: '0', role: 'group',
      'aria-label': `Map of ${fn.name}: arrow keys move between tiles (↑↓ in time, ←→ across addresses), Enter pins, L pins the line, + and − zoom`,
    });
    this.band = el('div', { class: 'live-band', hidden: true });
    this.lineRule = el('div', { class: 'line-rule', hidden: true });
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
    this.fresh = true; // laid out once yet: its scroll position is known to be 0
    this.lanes = null;
  }

  get state() {
    return this.card.state;
  }

  visibleSpaces() {
    return this.card.visibleSpaces();
  }

  /** The map's visible height without reading layout (see mapHeight). */
  viewportHeight() {
    return mapHeight(window.innerHeight, this.card.shared.topbarHeight(), this.bodyHeight);
  }

  /** Recomputes the factor and lanes; redraws the lanes and what is in view.
   * Reads no layout (opening many cards at once must not reflow per card):
   * the width is the page's, measured once. */
  layout() {
    const { state } = this;
    const { fn } = this.card;
    const extent = this.card.extentItems;
    const spaces = this.visibleSpaces();
    const available = this.card.shared.mapWidth() - GUTTER_WIDTH;
    const spans = spaces.map((s) => laneExtent(s, state.axis, extent)).map((e) => e.hi - e.lo);
    this.factor = baseFactor(spans, available) * state.zoom;
    this.lanes = layoutLanes(spaces, { axis: state.axis, factor: this.factor, boxes: extent });
    this.bodyHeight = (fn.src_end - fn.src_start + 1) * ROW_HEIGHT;
    this.drawLanes();
    this.applyColumns();
    this.draw(this.fresh ? { scrollTop: 0, height: this.viewportHeight() } : undefined);
    this.fresh = false;
  }

  /** The zoom went from `old` to the state's: the lanes widen or narrow
   * around the byte at `anchorClientX` (a pointer; null: the middle). */
  zoom(old, anchorClientX) {
    const { state } = this;
    const before = this.lanes;
    const pointer = anchorClientX ?? this.viewport.getBoundingClientRect().left + this.viewport.clientWidth / 2;
    const x = pointer - this.viewport.getBoundingClientRect().left + this.viewport.scrollLeft - this.lanesLeft();
    this.factor = (this.factor / old) * state.zoom;
    this.lanes = layoutLanes(this.visibleSpaces(), { axis: state.axis, factor: this.factor, boxes: this.card.extentItems });
    for (const lane of this.lanes.lanes) {
      const { head, lane: laneEl } = this.laneEls.get(lane.space);
      this.placeLane(head, laneEl, lane);
    }
    this.applyColumns();
    for (const [i, node] of this.rendered) {
      const box = this.card.fn.boxes[i];
      node.classList.toggle('sliver', isSliver(box, this.laneOf(box.space)));
    }
    this.drawGhost(state.pinned ?? state.hovered ?? state.counterpart);
    const moved = anchorAfterZoom(x, before, this.lanes);
    this.viewport.scrollLeft = Math.max(0, this.viewport.scrollLeft + moved - x);
  }

  laneOf(space) {
    return this.lanes.lanes.find((l) => l.space === space);
  }

  leftWidth() {
    return this.state.source ? this.state.split : GUTTER_WIDTH;
  }

  /** px from the sheet's left edge to the lanes: the left column and the splitter. */
  lanesLeft() {
    return this.leftWidth() + (this.state.source ? SPLITTER_WIDTH : 0);
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

  /** The left column shows the IR source (or only line numbers). */
  setSource(open) {
    this.corner.textContent = open ? 'IR source' : 'line';
    this.source.setOpen(open);
    this.applyColumns();
    this.draw();
  }

  drawLanes() {
    const { fn, spaces } = this.card;
    clear(this.laneHeads);
    clear(this.lanesArea);
    this.ghost = null;
    this.laneEls = new Map();
    this.rendered = new Map(); // box index -> its node, for the boxes drawn
    this.tickState = new WeakMap();
    this.profiles = [];
    for (const lane of this.lanes.lanes) {
      const space = spaces.get(lane.space);
      const head = el('div', {
        class: 'lane-head', dataset: { space: lane.space },
        title: `${lane.space}: bytes ${byteRange(lane.lo, lane.span)}; high-water mark ${formatBytes(spaceHwm(space))}, capacity ${formatBytes(space.limit)}`,
      },
      el('span', { class: 'lane-name' }, lane.space),
      el('span', { class: 'lane-figures' }, `${formatBytes(lane.lo)} … ${formatBytes(lane.lo + lane.span)}`),
      fn.planned === false ? el('span', { class: 'lane-packed', title: 'No dump holds these addresses (ptoas assigns them): the buffers are packed by when they live' }, 'packed by lifetime') : null,
      this.fitOffer(space, lane));
      const beyond = lane.lo < 0 || lane.lo + lane.span > space.limit;
      const laneEl = el('div', { class: 'lane', dataset: { space: lane.space } },
        el('div', { class: 'hwm-rule', title: `high-water mark ${formatBytes(spaceHwm(space))}`, style: { left: `${lanePercent(lane, spaceHwm(space))}%` } }),
        windowBands(placedWindows(fn, lane.space), lane, space),
        // Past the capacity (or before 0): marked, so boxes there read as out of bounds.
        beyond ? el('div', { class: 'capacity-rule', title: `capacity ${formatBytes(space.limit)}`, style: { left: `${lanePercent(lane, space.limit)}%` } }) : null,
        beyond ? el('div', { class: 'out-of-bounds', style: { left: `${lanePercent(lane, space.limit)}%`, right: '0' } }) : null,
        lane.lo < 0 ? el('div', { class: 'out-of-bounds', style: { left: '0', width: `${lanePercent(lane, 0)}%` } }) : null);
      if (this.state.profile && space.live) {
        const layer = new ProfileLayer(space, lane, fn, ROW_HEIGHT);
        this.profiles.push(layer);
        laneEl.append(layer.element, peakMark(space, lane, fn, ROW_HEIGHT));
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

  /** A lane drawn to a capacity its space barely uses: the offer of the
   * 'used' axis, which spreads the tiles over the lane (null: none). Only
   * when every space shown is as sparse (the axis is the card's: a busy
   * space beside would grow many times over) and the head has room. */
  fitOffer(space, lane) {
    const { percent, sparse } = usage(space);
    if (this.state.axis !== 'limit' || !sparse || lane.width < FIT_OFFER_PX) return null;
    if (!this.visibleSpaces().every((s) => usage(s).sparse)) return null;
    return el('button', {
      class: 'link fit-used',
      onclick: () => {
        this.card.setAxis('used');
        this.card.toolbar.focusAxis('used'); // this button is gone
      },
      title: `${space.space} uses ${percent} of its capacity: span the lanes to the bytes used, which widens its tiles`,
    }, `${percent} used: widen`);
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
    const { viewport } = this;
    const { fn } = this.card;
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
      }
    }
    for (const i of want) if (!this.rendered.has(i)) this.rendered.set(i, this.makeBox(i));
    for (const [i, node] of this.rendered) this.drawTicks(i, node, first, last);
  }

  makeBox(index) {
    const { state } = this;
    const { fn } = this.card;
    const box = fn.boxes[index];
    const lane = this.laneOf(box.space);
    const g = boxGeometry(box, lane, fn.src_start);
    const classes = ['box'];
    if (box.view) classes.push('view');
    if (inConflict(box)) classes.push('conflict');
    if (box.over_capacity) classes.push('over');
    if (state.pinned === box) classes.push('pinned');
    if (state.hovered === box) classes.push('hot');
    if (liveOn(box, state.line)) classes.push('at-line');
    if (state.matches.has(index)) classes.push('match');
    if (state.counterpart === box) classes.push('counterpart');
    classes.push(...this.card.side.boxClasses(index));
    if (isSliver(box, lane)) classes.push('sliver');
    if (box.slots?.runtime) classes.push('slotted');
    const tall = box.end - box.start >= 1;
    const packed = this.card.fn.planned === false; // its offsets are the map's packing
    const node = el('div', {
      class: classes.join(' '), tabindex: '-1', role: 'button', dataset: { tile: box.name, index },
      // The label starts with the text the box shows (its name, then its bytes).
      'aria-label': `${box.name}${box.aliases.length ? ` +${box.aliases.length}` : ''} ${packed ? `${formatBytes(box.size)} · ${placeText(box, packed)}` : `${byteRange(box.offset, box.size)} · ${formatBytes(box.size)}`}, ${box.space}, lines ${box.start} to ${box.end}${box.slots ? `, ${slotText(box)}` : ''}`,
      style: {
        left: `${g.left}%`, width: `max(${MIN_BOX}px, ${g.width}%)`, top: `${g.top}px`, height: `${g.height}px`,
        ...(box.slots?.runtime ? { '--slots': String(box.slots.count) } : {}),
      },
    },
    // The name is cut with an ellipsis; the +N of merged aliases stays.
    el('span', { class: 'box-name' }, el('span', { class: 'box-label' }, box.name),
      box.slots?.index != null ? el('span', { class: 'box-slot' }, `[${box.slots.index}]`) : null,
      box.aliases.length ? el('span', { class: 'box-aliases' }, `+${box.aliases.length}`) : null),
    ' ', // read as two words, as drawn on two lines
    tall ? el('span', { class: 'box-size' }, packed ? `${formatBytes(box.size)} · packed` : `${byteRange(box.offset, box.size)} · ${formatBytes(box.size)}`) : null,
    // A sliver's name shown beside it when found or pinned: it cannot hold it.
    el('span', { class: 'sliver-flag', 'aria-hidden': 'true' }, box.name));
    this.laneEls.get(box.space).lane.append(node);
    return node;
  }

  /** The tick strips of box `index` (drawn as `node`) for lines [first,
   * last]: a tick on each line it is used, on its right edge. A box with
   * many runs of uses gets a strip per TICK_CHUNK runs, only where in view. */
  drawTicks(index, node, first, last) {
    let ticks = this.tickState.get(node);
    if (!ticks) this.tickState.set(node, ticks = { runs: useRuns(this.card.fn.boxes[index]), strips: new Map() });
    const { runs, strips } = ticks;
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
    const box = this.card.fn.boxes[index];
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

  /** The index of the box a pointer at (`clientX`, `clientY`) is on, by
   * nearestBox among the boxes drawn (those in view) in the lane under it
   * live on its line; -1: none. Slivers are hit by what is near, not by
   * their 2 px. */
  boxAt(clientX, clientY) {
    const { fn } = this.card;
    for (const lane of this.lanes?.lanes ?? []) {
      const r = this.laneEls.get(lane.space).lane.getBoundingClientRect();
      if (clientX < r.left || clientX >= r.right || r.width <= 0) continue;
      const line = fn.src_start + Math.floor((clientY - r.top) / ROW_HEIGHT);
      const candidates = [];
      for (const index of this.rendered.keys()) {
        const box = fn.boxes[index];
        if (box.space !== lane.space || box.start > line || box.end < line) continue;
        const g = boxGeometry(box, lane, fn.src_start);
        candidates.push({ index, left: (g.left / 100) * r.width, width: (g.width / 100) * r.width });
      }
      return nearestBox(candidates, clientX - r.left);
    }
    return -1;
  }

  /** The box of a node of the map, or null. */
  boxOf(target) {
    const node = target.closest?.('.box');
    return node ? this.card.fn.boxes[Number(node.dataset.index)] : null;
  }

  /** The node of box `index`, when drawn. */
  boxNode(index) {
    return this.rendered?.get(index);
  }

  /** The live lines of `box` (null: none) across the lanes and the left
   * column, and its ghost. */
  showLive(box) {
    this.source.setLive(box ? [box.start, box.end] : null, box?.uses ?? []);
    this.updateBand(box);
    this.drawGhost(box);
  }

  updateBand(box = this.state.pinned ?? this.state.hovered ?? this.state.counterpart) {
    if (!box) {
      this.band.hidden = true;
      return;
    }
    this.band.hidden = false;
    this.band.style.top = `${(box.start - this.card.fn.src_start) * ROW_HEIGHT}px`;
    this.band.style.height = `${(box.end - box.start + 1) * ROW_HEIGHT}px`;
  }

  updateLineRule() {
    const { line } = this.state;
    this.lineRule.hidden = line === null;
    if (line !== null) this.lineRule.style.top = `${(line - this.card.fn.src_start) * ROW_HEIGHT}px`;
  }

  /** Marks the drawn box of `box` (null: none) with `mark` ('pinned',
   * 'counterpart'), and no other. */
  markBox(mark, box) {
    for (const node of this.lanesArea.querySelectorAll(`.box.${mark}`)) node.classList.remove(mark);
    if (box) this.rendered.get(this.card.fn.boxes.indexOf(box))?.classList.add(mark);
  }

  /** Re-marks the boxes drawn after the pinned line or the matches change. */
  refreshBoxClasses() {
    if (!this.rendered) return;
    for (const [index, node] of this.rendered) {
      const box = this.card.fn.boxes[index];
      node.classList.toggle('at-line', liveOn(box, this.state.line));
      node.classList.toggle('match', this.state.matches.has(index));
    }
  }

  /** Where a moved or resized tile was (compare view): a dashed outline
   * at its old bytes over its rows, and a rule from there to it. */
  drawGhost(box) {
    this.ghost?.remove();
    this.ghost = null;
    const { fn } = this.card;
    const place = box && this.card.side.ghostOf(fn.boxes.indexOf(box));
    const lane = place && this.lanes?.lanes.find((l) => l.space === place.space);
    const boxLane = box && this.lanes?.lanes.find((l) => l.space === box.space);
    if (!lane || !boxLane) return;
    const g = ghostGeometry(box, place, lane, boxLane, fn.src_start);
    this.ghost = el('div', { class: 'ghost-layer', 'aria-hidden': 'true' },
      el('div', { class: 'ghost', style: { left: `${g.left}px`, width: `${g.width}px`, top: `${g.top}px`, height: `${g.height}px` } }),
      g.link ? el('div', { class: 'ghost-link', style: { left: `${g.link.left}px`, width: `${g.link.width}px`, top: `${g.top + 5}px` } }) : null);
    this.lanesArea.append(this.ghost);
  }

  // ------------------------------------------------------------ scrolling

  /** Scrolls the map so `line` is in view: centred, or `nearest` (only if outside). */
  scrollToLine(line, mode = 'center') {
    const v = this.viewport;
    const to = scrollTopForLine(line, this.card.fn.src_start, v, mode);
    if (to !== v.scrollTop) v.scrollTop = to;
    this.draw();
  }

  /** Brings `line` into the middle of the part of the map the window
   * shows, whatever the panels above take (the card is brought just below
   * the top bar first: its scroll margin). */
  bringToLine(line) {
    const v = this.viewport;
    const rect = v.getBoundingClientRect();
    v.scrollTop = scrollTopToShow(line, this.card.fn.src_start, rect, this.card.shared.topbarHeight(), window.innerHeight);
    this.draw();
  }

  /** Scrolls the map sideways, if need be, so `box`'s first byte shows
   * (the lines in view stay the same). */
  scrollToByte(box) {
    const lane = this.lanes.lanes.find((l) => l.space === box.space);
    if (!lane) return;
    const left = this.lanesLeft();
    const x = left + lane.left + (box.offset - lane.lo) * this.factor;
    const v = this.viewport;
    const to = scrollLeftToShow(x, left, v.scrollLeft, v.clientWidth);
    if (to !== v.scrollLeft) v.scrollLeft = to;
  }

  /** Scrolls to the first tiles, their lane's name in view (openingScroll). */
  scrollToFirstTiles() {
    const v = this.viewport;
    const to = openingScroll(this.card.fn.boxes, this.lanes.lanes, this.card.fn.src_start, v.clientWidth - this.lanesLeft());
    if (!to) return;
    v.scrollTop = to.top;
    v.scrollLeft = to.left;
    this.draw();
  }

  /** Brings reserved window `index`'s band into view. */
  scrollToWindow(window, index) {
    this.laneEls.get(window.space)?.lane.querySelector(`.window-band[data-window="${index}"]`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}
