// The table view of a card: every box with its facts.
import { el } from './dom.js';
import { addressRange, formatBytes } from './layout.js';

export function boxTable(fn) {
  const note = (b) => [b.view && 'view', b.conflict && 'conflict', b.over_capacity && 'over capacity',
    b.aliases.length && `+${b.aliases.length}: ${b.aliases.join(', ')}`].filter(Boolean).join('; ');
  const head = ['name', 'space', 'base', 'size', 'address', 'live lines', 'note'];
  return el('table', { class: 'box-table' },
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, fn.boxes.map((b) => el('tr', { class: b.conflict ? 'conflict' : null, dataset: { tile: b.name } },
      el('td', {}, b.name), el('td', {}, b.space), el('td', {}, b.base), el('td', { class: 'num' }, formatBytes(b.size)),
      el('td', { class: 'num' }, addressRange(b)), el('td', { class: 'num' }, `${b.start}–${b.end}`), el('td', {}, note(b))))));
}
