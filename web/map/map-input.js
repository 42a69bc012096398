// A card's map input (DOM events): hover and focus show a tile's tooltip,
// a click or Enter pins, the arrow keys walk the tiles, Ctrl+wheel zooms,
// the splitter drags, a click on a line of the left column pins the line.
import { neighbourBox } from '../model/insight.js';
import { SPLIT_MAX, SPLIT_MIN, clampSplit, stepZoom } from '../model/layout.js';

export class MapInput {
  /** Listens on the map of `card` (a MapView, `map`). */
  constructor(card, map) {
    this.card = card;
    this.map = map;
    this.listen();
  }

  get state() {
    return this.card.state;
  }

  listen() {
    const { card, map } = this;
    const { lanesArea } = map;
    let frame = 0;
    map.viewport.addEventListener('scroll', () => {
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; map.draw(); });
      card.side.onScroll(card);
    }, { passive: true });
    map.viewport.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    // The pointer is on the box nearest to it (MapView.boxAt), not on the
    // node under it: a 2 px tile beside a wider one is still reachable.
    lanesArea.addEventListener('pointermove', (e) => this.onPointer(e));
    lanesArea.addEventListener('pointerleave', () => this.onLeave());
    lanesArea.addEventListener('click', (e) => {
      const index = map.boxAt(e.clientX, e.clientY);
      const box = index >= 0 ? card.fn.boxes[index] : null;
      if (box) card.pin(this.state.pinned === box ? null : box);
    });
    lanesArea.addEventListener('keydown', (e) => this.onMapKey(e));
    lanesArea.addEventListener('focus', (e) => {
      // The map is one Tab stop: it hands the focus to its current tile
      // (not when the focus comes back from a tile, for Shift+Tab).
      if (e.target === lanesArea && !lanesArea.contains(e.relatedTarget)) this.focusBox(this.currentBox());
    });
    lanesArea.addEventListener('focusin', (e) => {
      const box = map.boxOf(e.target);
      if (box) this.showTooltip(box, e.target.getBoundingClientRect());
      const band = !box && e.target.closest('.window-band');
      // Its tooltip beside the part of the band in view.
      if (band) this.onWindowHover(band, { clientX: band.getBoundingClientRect().right, clientY: map.viewport.getBoundingClientRect().top + 60 });
    });
    lanesArea.addEventListener('focusout', () => this.onLeave());
    this.listenSplitter();
    map.source.element.addEventListener('click', (e) => {
      const row = e.target.closest('.row');
      if (!row || !window.getSelection().isCollapsed) return; // selecting text is not a click on the line
      const line = Number(row.dataset.line);
      // The line panel opens above the map: the page scrolls by what it
      // moved the clicked line, which stays under the pointer.
      const before = row.getBoundingClientRect().top;
      card.pinLine(this.state.line === line ? null : line);
      const after = map.source.element.querySelector(`.row[data-line="${line}"]`)?.getBoundingClientRect().top;
      if (after !== undefined && Math.abs(after - before) >= 1) window.scrollBy(0, after - before);
    });
  }

  /** The splitter: dragged (one resize a frame), double-clicked (back to
   * the default width), or moved by the arrow keys, Home and End. */
  listenSplitter() {
    const { card } = this;
    const s = this.map.splitter;
    s.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      s.setPointerCapture(e.pointerId);
      const startX = e.clientX, startWidth = this.state.split;
      let frame = 0, pending = startWidth;
      const move = (ev) => {
        pending = clampSplit(startWidth + ev.clientX - startX);
        if (!frame) frame = requestAnimationFrame(() => { frame = 0; card.setSplit(pending); });
      };
      const up = () => {
        s.removeEventListener('pointermove', move);
        s.removeEventListener('pointerup', up);
        s.removeEventListener('pointercancel', up);
        if (frame) cancelAnimationFrame(frame);
        card.setSplit(pending);
      };
      s.addEventListener('pointermove', move);
      s.addEventListener('pointerup', up);
      s.addEventListener('pointercancel', up);
    });
    s.addEventListener('dblclick', () => card.setSplit(card.fittedSplit()));
    s.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 80 : 16;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        card.setSplit(this.state.split + (e.key === 'ArrowRight' ? step : -step));
      } else if (e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        card.setSplit(e.key === 'Home' ? SPLIT_MIN : SPLIT_MAX);
      }
    });
  }

  /** Ctrl / Cmd + wheel: zoom around the byte under the pointer. */
  onWheel(e) {
    if (!(e.ctrlKey || e.metaKey) || !this.map.lanes) return;
    e.preventDefault();
    const zoom = stepZoom(this.state.zoom, e.deltaY < 0 ? 1 : -1);
    if (zoom !== this.state.zoom) this.card.setZoom(zoom, e.clientX);
  }

  /** The tile the keyboard is on: the last one focused, or pinned, or the
   * first drawn. */
  currentBox() {
    const { state } = this;
    const { fn } = this.card;
    if (state.focused >= 0 && state.focused < fn.boxes.length) return state.focused;
    if (state.pinned) return fn.boxes.indexOf(state.pinned);
    const drawn = [...(this.map.rendered?.keys() ?? [])];
    return drawn.length ? Math.min(...drawn) : 0;
  }

  /** Moves the keyboard to box `index`: scrolled into the map (drawn if it
   * was not) and focused. */
  focusBox(index) {
    const { card, map } = this;
    const box = card.fn.boxes[index];
    if (!box) return;
    if (this.state.hidden.has(box.space)) card.toggleSpace(box.space);
    this.state.focused = index;
    map.scrollToLine(box.start, 'nearest');
    map.scrollToByte(box);
    map.boxNode(index)?.focus({ preventScroll: true });
  }

  /** Keys on a focused tile: arrows move, Enter pins it, L pins its first
   * line, + / − / 0 zoom. */
  onMapKey(e) {
    const { card, state } = this;
    const band = e.target.closest('.window-band');
    if (band && e.key === 'Enter') {
      card.shared.tooltip.hide(); // the panel opening above moves the band away
      return card.revealWindow(Number(band.dataset.window));
    }
    const box = this.map.boxOf(e.target);
    if (!box || e.ctrlKey || e.metaKey || e.altKey) return;
    const index = Number(e.target.closest('.box').dataset.index);
    const key = e.key;
    let handled = true;
    if (key === 'Enter') card.pin(state.pinned === box ? null : box);
    // On a tile the arrows walk the tiles: Shift moves the pinned line.
    else if (e.shiftKey && (key === 'ArrowUp' || key === 'ArrowDown') && state.line !== null) card.moveLine(key === 'ArrowUp' ? -1 : 1);
    else if (key === 'l' || key === 'L') card.pinLine(state.line === box.start ? null : box.start);
    else if (key === '+' || key === '=') card.setZoom(stepZoom(state.zoom, 1));
    else if (key === '-' || key === '_') card.setZoom(stepZoom(state.zoom, -1));
    else if (key === '0') card.setZoom(1);
    else if (['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key)) {
      const to = neighbourBox(card.fn, index, key, state.hidden);
      if (to >= 0) this.focusBox(to);
    } else handled = false;
    if (handled) e.preventDefault();
    if (handled && state.focused >= 0) this.map.boxNode(state.focused)?.focus({ preventScroll: true });
  }

  showTooltip(box, rect) {
    const { card } = this;
    card.shared.tooltip.show(box, card.spaces.get(box.space), rect.right, rect.top, card.fn);
  }

  /** The pointer moved over the lanes: the box it is on (or else the
   * reserved window) gets the tooltip and, with nothing pinned, the
   * highlight. */
  onPointer(e) {
    const { card, map, state } = this;
    const index = map.boxAt(e.clientX, e.clientY);
    map.lanesArea.classList.toggle('on-box', index >= 0);
    const band = index < 0 && e.target.closest?.('.window-band');
    if (band) {
      this.onWindowHover(band, e);
      return card.shared.tooltip.move(e.clientX, e.clientY);
    }
    const box = index >= 0 ? card.fn.boxes[index] : null;
    if (!box) return state.hovered || state.hoveredWindow ? this.onLeave() : undefined;
    if (box !== state.hovered) {
      state.hoveredWindow = null;
      state.hovered = box;
      map.markBox('hot', box);
      card.shared.tooltip.show(box, card.spaces.get(box.space), e.clientX, e.clientY, card.fn);
      if (!state.pinned) card.highlight(box);
    }
    card.shared.tooltip.move(e.clientX, e.clientY);
  }

  /** A reserved window's band: its tooltip; the highlight stays. */
  onWindowHover(band, e) {
    const { card, state } = this;
    const window = card.fn.reserved[Number(band.dataset.window)];
    if (window === state.hoveredWindow) return;
    if (state.hovered) this.onLeave();
    state.hoveredWindow = window;
    card.shared.tooltip.showWindow(window, card.spaces.get(window.space), e.clientX, e.clientY);
  }

  onLeave() {
    const { card, state } = this;
    state.hoveredWindow = null;
    state.hovered = null;
    this.map.markBox('hot', null);
    card.shared.tooltip.hide();
    if (!state.pinned) card.highlight(null);
  }
}
