// The left column of a card: line numbers (the gutter) or the IR source,
// drawn as a window that follows the map's vertical scroll and renders only
// the rows in view. Long lines scroll sideways inside it; the numbers stay.
import { clear, el } from '../base/dom.js';
import { CHAR_WIDTH, ROW_HEIGHT, elideToMention, longestLine, mentionRanges } from '../model/layout.js';

export class SourceColumn {
  /** `label`: its name for assistive technology (a compare view's maps differ). */
  constructor(fn, label = `IR source of ${fn.name}`) {
    this.fn = fn;
    this.rows = el('div', { class: 'source-rows' });
    // A Tab stop of its own: its long lines scroll sideways by keyboard too.
    this.window = el('div', { class: 'source-window', tabindex: '0', role: 'region', 'aria-label': label }, this.rows);
    this.element = el('div', { class: 'left-column' }, this.window);
    this.range = null;
    this.rowsByLine = new Map(); // line -> row element, for the lines drawn
    this.live = null; // [start, end] highlighted
    this.uses = new Set(); // the lines of those that use the tile, marked apart
    this.marks = []; // names to mark
    this.pinnedLine = null;
    this.columnChars = () => Infinity; // characters the open column shows (the card's split)
  }

  /** The column's width changed: its rows are made again (a line that
   * uses the pinned tile is shortened to its mention to fit). */
  refresh() {
    this.range = null;
  }

  /** The browser may scroll the window itself to show a row (find in
   * page, a screen reader, scrollIntoView): that scroll is handed to the
   * map (`scrollBy(dy)`) and the window goes back to 0, where the rows'
   * transform puts the map's lines. */
  onDrift(scrollBy) {
    this.window.addEventListener('scroll', () => {
      const dy = this.window.scrollTop;
      if (!dy) return;
      this.window.scrollTop = 0;
      scrollBy(dy);
    }, { passive: true });
  }

  /** Resizes the window to the visible height. */
  setHeight(height) {
    this.window.style.height = `${height}px`;
  }

  setOpen(open) {
    this.element.classList.toggle('open', open);
    // The source may come after the column is made (a comparison's side): measured when shown.
    this.rows.style.width = open ? `${longestLine(this.fn.source ?? []) * CHAR_WIDTH + 80}px` : '';
    this.range = null;
  }

  /** The live lines and the pinned line change the classes of the rows
   * drawn, not the rows: a hover then costs a restyle, not rows made and
   * laid out again for every tile the pointer crosses. */
  setLive(range, uses = []) {
    this.live = range;
    this.uses = new Set(uses);
    for (const [line, row] of this.rowsByLine) {
      row.classList.toggle('live', this.isLive(line));
      row.classList.toggle('use', this.uses.has(line));
    }
  }

  setPinnedLine(line) {
    this.pinnedLine = line;
    for (const [at, row] of this.rowsByLine) row.classList.toggle('pinned-line', at === line);
  }

  /** Names marked in the code: the rows are made again when they change
   * and the code shows. */
  setMarks(names) {
    const same = names.length === this.marks.length && names.every((n, i) => n === this.marks[i]);
    this.marks = names;
    if (!same && this.element.classList.contains('open')) this.range = null;
  }

  isLive(line) {
    return Boolean(this.live) && line >= this.live[0] && line <= this.live[1];
  }

  /** Draws lines [first, last] for the map's scrollTop. Rows still in view
   * stay; only those scrolled in are made (new marks, or the code shown
   * or hidden, redraw all: `range` is null then). */
  render(first, last, scrollTop) {
    this.rows.style.transform = `translateY(${-scrollTop}px)`;
    const key = `${first}:${last}`;
    if (this.range === key) return;
    if (this.range === null) {
      clear(this.rows);
      this.rowsByLine.clear();
    }
    this.range = key;
    for (const [line, row] of this.rowsByLine) {
      if (line < first || line > last) {
        row.remove();
        this.rowsByLine.delete(line);
      }
    }
    // Rows stay in line order: new ones go above or below those kept.
    const kept = this.rowsByLine.size ? Math.min(...this.rowsByLine.keys()) : Infinity;
    const above = document.createDocumentFragment();
    const below = document.createDocumentFragment();
    for (let line = first; line <= last; line++) {
      if (this.rowsByLine.has(line)) continue;
      const row = this.makeRow(line);
      this.rowsByLine.set(line, row);
      (line < kept ? above : below).append(row);
    }
    this.rows.prepend(above);
    this.rows.append(below);
  }

  makeRow(line) {
    const { src_start: start, source } = this.fn;
    const text = source?.[line - start] ?? '';
    const classes = ['row', this.isLive(line) && 'live', this.uses.has(line) && 'use', line === this.pinnedLine && 'pinned-line']
      .filter(Boolean).join(' ');
    // The code is made when the column is open (setOpen redraws the rows);
    // a line cut by the column's width shows whole on hover.
    return el('div', { class: classes, dataset: { line }, style: { top: `${(line - start) * ROW_HEIGHT}px` } },
      el('span', { class: 'ln' }, String(line)),
      this.element.classList.contains('open') ? el('span', { class: 'code', title: text.trim() }, ...this.codeParts(text)) : null);
  }

  /** The text of a line, with the pinned tile's mentions in <mark>; a
   * line whose first mention lies past the column is shortened to it. */
  codeParts(full) {
    if (!this.marks.length || !this.element.classList.contains('open')) return [full];
    const [first] = mentionRanges(full, this.marks);
    const text = first ? elideToMention(full, first[0], this.columnChars(), first[1] - first[0]) : full;
    const parts = [];
    let at = 0;
    for (const [from, to] of mentionRanges(text, this.marks)) {
      parts.push(text.slice(at, from), el('mark', {}, text.slice(from, to)));
      at = to;
    }
    parts.push(text.slice(at));
    return parts;
  }
}
