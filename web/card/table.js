// The table view of a card: every box and reserved window with its facts,
// sortable by any column. tableRows and sortRows are pure (tested in
// Node); boxTable draws them.
import { el } from '../base/dom.js';
import { inConflict } from '../model/insight.js';
import { byteRange, formatBytes, windowKind } from '../model/layout.js';
import { oneMoreSlot, windowFacts, windowInConflict } from '../map/reserved.js';

/** The columns: heading, and whether it sorts as a number. */
export const COLUMNS = [
  ['name', false], ['space', false], ['base', false], ['size', true], ['bytes', true],
  ['live lines', true], ['uses', true], ['longest idle', true], ['note', false],
];

const boxNote = (b) => [b.view && 'view', inConflict(b) && 'conflict', b.over_capacity && 'over capacity',
  b.aliases.length && `+${b.aliases.length}: ${b.aliases.join(', ')}`].filter(Boolean).join('; ');

function boxRow(b, index) {
  const idle = b.idle ? b.idle[1] - b.idle[0] + 1 : -1;
  const note = boxNote(b);
  return {
    box: index, conflict: inConflict(b),
    cells: [b.name, b.space, b.base, formatBytes(b.size), byteRange(b.offset, b.size), `${b.start}–${b.end}`,
      String(b.uses?.length ?? ''), b.idle ? `${b.idle[0]}–${b.idle[1]} (${idle})` : '–', note],
    keys: [b.name, b.space, b.base, b.size, b.offset, b.start, b.uses?.length ?? 0, idle, note],
  };
}

/** A window's row: its note is the kind, then what one more slot would do
 * and the tooltip's notes (conflicts, over capacity), in their words. */
function windowRow(w, index, space, fn) {
  const more = space && oneMoreSlot(w, space);
  const note = [windowKind(w), more && `one more slot: ${more}`, ...(space ? windowFacts(w, space).notes : [])].filter(Boolean).join('; ');
  return {
    box: -1, window: index, conflict: windowInConflict(w),
    cells: [w.name, w.space, w.kind === 'pinned' ? '(pinned)' : '(reserved)', formatBytes(w.size), byteRange(w.base, w.size),
      'all lines', '–', '–', note],
    keys: [w.name, w.space, '', w.size, w.base, fn.src_start, -1, -1, note],
  };
}

/** The table's rows for `fn` (its boxes, then its placed reserved windows;
 * `spaces`: name → space, for a ring's one-more-slot figure). */
export function tableRows(fn, spaces) {
  const windows = (fn.reserved ?? []).map((w, index) => ({ w, index })).filter(({ w }) => w.placed);
  return [...fn.boxes.map(boxRow), ...windows.map(({ w, index }) => windowRow(w, index, spaces.get(w.space), fn))];
}

/** `rows` ordered by column `column`, ascending unless `descending`;
 * equal keys keep their order. */
export function sortRows(rows, column, descending) {
  const numeric = COLUMNS[column][1];
  const order = (a, b) => (numeric ? a.keys[column] - b.keys[column] : String(a.keys[column]).localeCompare(String(b.keys[column]), 'en', { numeric: true }));
  return rows.map((row, i) => ({ row, i }))
    .sort((a, b) => (descending ? -1 : 1) * order(a.row, b.row) || a.i - b.i)
    .map(({ row }) => row);
}

/** A row's name: a button to it on the map. */
function nameCell(row, text, { onTile, onWindow }) {
  if (row.box >= 0) return el('button', { class: 'link', title: 'Show this tile on the map', onclick: () => onTile(row.box) }, text);
  return el('button', { class: 'link', title: 'Show this window on the map, its line pinned', onclick: () => onWindow(row.window) }, text);
}

/** The table of `fn`'s boxes and windows; a column's heading sorts by it
 * (again: the other way); a name goes to its tile or window on the map
 * (`go`: { onTile(index), onWindow(index) }). */
export function boxTable(fn, spaces, go) {
  const rows = tableRows(fn, spaces).map((row) => ({
    ...row,
    node: el('tr', { class: row.conflict ? 'conflict' : null, dataset: { tile: row.cells[0] } }, row.cells.map((text, c) => el('td', { class: COLUMNS[c][1] ? 'num' : null },
      c === 0 ? nameCell(row, text, go) : text))),
  }));
  const body = el('tbody', {}, rows.map((r) => r.node));
  let sorted = { column: -1, descending: false };
  const heads = COLUMNS.map(([name], column) => el('th', { scope: 'col', 'aria-sort': 'none' },
    el('button', { class: 'sort', onclick: () => sortBy(column) }, name)));
  const sortBy = (column) => {
    sorted = { column, descending: sorted.column === column && !sorted.descending };
    heads.forEach((h, c) => h.setAttribute('aria-sort', c !== column ? 'none' : sorted.descending ? 'descending' : 'ascending'));
    body.append(...sortRows(rows, column, sorted.descending).map((r) => r.node));
  };
  return el('table', { class: 'box-table' }, el('thead', {}, el('tr', {}, heads)), body);
}
