// The one tooltip of the page: a box's facts, as text, near the pointer.
import { clear, el } from './dom.js';
import { addressRange, formatBytes } from './layout.js';

export function boxFacts(box, space) {
  const facts = [
    ['space', box.space],
    ['shape', `${box.shape.length ? `[${box.shape.join(', ')}]` : '–'} ${box.dtype || ''}`.trim()],
    ['op', box.op || '–'],
    ['base', box.base],
    ['size', `${formatBytes(box.size)} (${box.size} B)`],
    ['address', addressRange(box)],
    ['live', `lines ${box.start}–${box.end}`],
  ];
  if (box.aliases.length) facts.push(['aliases', box.aliases.join(', ')]);
  const notes = [];
  if (box.view) notes.push('view: a sub-range of a larger allocation on the same base');
  if (box.conflict) notes.push('conflict: another base shares these bytes while both are live');
  if (box.over_capacity) notes.push(`over capacity: outside the ${formatBytes(space.limit)} of ${box.space}`);
  return { facts, notes };
}

export class Tooltip {
  constructor() {
    this.element = el('div', { class: 'tooltip', role: 'tooltip', hidden: true });
    document.body.append(this.element);
  }

  show(box, space, x, y) {
    const { facts, notes } = boxFacts(box, space);
    clear(this.element);
    this.element.append(
      el('div', { class: 'tip-title' }, box.name, box.aliases.length ? ` +${box.aliases.length}` : ''),
      el('dl', {}, facts.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])),
      ...notes.map((n) => el('p', { class: 'tip-note' }, n)),
    );
    this.element.hidden = false;
    this.move(x, y);
  }

  move(x, y) {
    const { offsetWidth: w, offsetHeight: h } = this.element;
    const left = Math.min(x + 14, window.innerWidth - w - 8);
    const top = y + 16 + h > window.innerHeight ? y - h - 10 : y + 16;
    this.element.style.left = `${Math.max(4, left)}px`;
    this.element.style.top = `${Math.max(4, top)}px`;
  }

  hide() {
    this.element.hidden = true;
  }
}
