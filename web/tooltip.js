// The one tooltip of the page: a box's facts, as text, near the pointer.
import { clear, el } from './dom.js';
import { addressRange, formatBytes } from './layout.js';
import { windowFacts } from './reserved.js';

/** "lines 8, 10, 13–14, 17": a box's use lines, runs joined. */
export function usesText(box) {
  const uses = box.uses ?? [];
  const parts = [];
  for (let i = 0; i < uses.length;) {
    let j = i;
    while (j + 1 < uses.length && uses[j + 1] === uses[j] + 1) j++;
    parts.push(j > i ? `${uses[i]}–${uses[j]}` : String(uses[i]));
    i = j + 1;
  }
  const shown = parts.length > 12 ? [...parts.slice(0, 12), `… (${uses.length} lines)`] : parts;
  return uses.length ? `line${uses.length === 1 ? '' : 's'} ${shown.join(', ')}` : '–';
}

export function boxFacts(box, space) {
  const facts = [
    ['space', box.space],
    ['shape', `${box.shape.length ? `[${box.shape.join(', ')}]` : '–'} ${box.dtype || ''}`.trim()],
    ['op', box.op || '–'],
    ['base', box.base],
    ['size', `${formatBytes(box.size)} (${box.size} B)`],
    ['address', addressRange(box)],
    ['live', `lines ${box.start}–${box.end}`],
    ['used on', usesText(box)],
  ];
  if (box.idle) facts.push(['idle', `lines ${box.idle[0]}–${box.idle[1]} (${box.idle[1] - box.idle[0] + 1} held without a use)`]);
  if (box.aliases.length) facts.push(['aliases', box.aliases.join(', ')]);
  const notes = [];
  if (box.view) notes.push('view: a sub-range of a larger allocation on the same base');
  if (box.conflict) notes.push('conflict: another base shares these bytes while both are live');
  if (box.window_conflicts?.length) notes.push('conflict: a reserved window holds these bytes for the whole function');
  if (box.over_capacity) notes.push(`over capacity: outside the ${formatBytes(space.limit)} of ${box.space}`);
  return { facts, notes };
}

export class Tooltip {
  constructor() {
    this.element = el('div', { class: 'tooltip', role: 'tooltip', hidden: true });
    document.body.append(this.element);
  }

  show(box, space, x, y) {
    this.showFacts(`${box.name}${box.aliases.length ? ` +${box.aliases.length}` : ''}`, boxFacts(box, space), x, y);
  }

  showWindow(window, space, x, y) {
    this.showFacts(window.name, windowFacts(window, space), x, y);
  }

  showFacts(title, { facts, notes }, x, y) {
    clear(this.element);
    this.element.append(
      el('div', { class: 'tip-title' }, title),
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
