// The table view of a card: every box with its facts.
import { el } from './dom.js';
import { inConflict } from './insight.js';
import { byteRange, formatBytes } from './layout.js';

export function boxTable(fn) {
  const note = (b) => [b.view && 'view', inConflict(b) && 'conflict', b.over_capacity && 'over capacity',
    b.aliases.length && `+${b.aliases.length}: ${b.aliases.join(', ')}`].filter(Boolean).join('; ');
  const idle = (b) => (b.idle ? `${b.idle[0]}–${b.idle[1]} (${b.idle[1] - b.idle[0] + 1})` : '–');
  const head = ['name', 'space', 'base', 'size', 'bytes', 'live lines', 'uses', 'longest idle', 'note'];
  return el('table', { class: 'box-table' },
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, fn.boxes.map((b) => el('tr', { class: inConflict(b) ? 'conflict' : null, dataset: { tile: b.name } },
      el('td', {}, b.name), el('td', {}, b.space), el('td', {}, b.base), el('td', { class: 'num' }, formatBytes(b.size)),
      el('td', { class: 'num' }, byteRange(b.offset, b.size)), el('td', { class: 'num' }, `${b.start}–${b.end}`),
      el('td', { class: 'num' }, String(b.uses?.length ?? '')), el('td', { class: 'num' }, idle(b)), el('td', {}, note(b))))));
}
