// The one tooltip of the page: a box's facts, as text, near the pointer.
import { clear, el } from '../base/dom.js';
import { byteRange, formatBytes, placeText, slotText } from '../model/layout.js';
import { conflictPartners, inConflict } from '../model/insight.js';
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

/** "a (bytes [0, 512), lines 8–9)": a partner of a conflict, for text. */
const partnerText = (b) => `${b.name} (bytes ${byteRange(b.offset, b.size)}, lines ${b.start}–${b.end})`;

/** Who a conflicting box shares bytes with, one note each. */
function conflictNotes(box, fn) {
  const { boxes, windows, more } = conflictPartners(box);
  const notes = boxes.map((i) => `conflict: shares bytes with ${partnerText(fn.boxes[i])} while both are live`);
  for (const w of windows) {
    const window = fn.reserved[w];
    notes.push(`conflict: shares bytes with reserved window ${window.name} (bytes ${byteRange(window.base, window.size)}, all lines)`);
  }
  if (more > 0) notes.push(`and ${more} more conflicts`);
  return notes;
}

export function boxFacts(box, space, fn = null) {
  const facts = [
    ['space', box.space],
    ['shape', `${box.shape.length ? `[${box.shape.join(', ')}]` : '–'} ${box.dtype || ''}`.trim()],
    ['op', box.op || '–'],
    ['base', box.base],
    ['bytes', `${placeText(box, fn?.planned === false)}, ${formatBytes(box.size)}${fn?.planned === false ? ' (no dump holds its address: ptoas assigns it)' : ''}`],
    ['live', `lines ${box.start}–${box.end}`],
    ['used on', usesText(box)],
  ];
  if (box.idle) facts.push(['idle', `lines ${box.idle[0]}–${box.idle[1]} (${box.idle[1] - box.idle[0] + 1} held without a use)`]);
  if (box.aliases.length) facts.push(['aliases', box.aliases.join(', ')]);
  const slots = slotText(box);
  if (slots) facts.push(['slots', slots]);
  const notes = [];
  if (box.view) notes.push('view: a sub-range of a larger allocation on the same base');
  if (fn && box.in_place_from !== undefined) {
    notes.push(`in place: takes over the bytes of ${fn.boxes[box.in_place_from].name} in the statement that binds it (line ${box.start}), as the planner reads before it writes`);
  }
  if (fn && box.in_place_to !== undefined) {
    const to = fn.boxes[box.in_place_to];
    notes.push(`in place: ${to.name} takes over these bytes in the statement that binds it (line ${to.start})`);
  }
  if (fn) notes.push(...conflictNotes(box, fn));
  else if (inConflict(box)) notes.push('conflict: another base or a reserved window shares these bytes while both are live');
  if (box.over_capacity) notes.push(`over capacity: outside the ${formatBytes(space.limit)} of ${box.space}`);
  return { facts, notes };
}

export class Tooltip {
  constructor() {
    this.element = el('div', { class: 'tooltip', role: 'tooltip', hidden: true });
    (document.querySelector('main') ?? document.body).append(this.element); // inside a landmark
  }

  show(box, space, x, y, fn = null) {
    this.showFacts(`${box.name}${box.aliases.length ? ` +${box.aliases.length}` : ''}`, boxFacts(box, space, fn), x, y);
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
