// The `?` overlay: every keyboard shortcut of the page, in one place.
import { el } from '../base/dom.js';

export const SHORTCUTS = [
  ['?', 'show or hide this list'],
  ['/', 'find tiles by name, or /regex/ (Esc leaves the field)'],
  ['Enter / Shift+Enter', 'in the find field: next / previous match'],
  ['N / Shift+N', 'next / previous anomaly (conflict or tile over capacity)'],
  ['click a line number', 'pin that line: the tiles live there, bytes per space'],
  ['↑ / ↓', 'move the pinned line (on a tile: Shift+↑ / ↓)'],
  ['Tab to a map, then ← → ↑ ↓', 'move between tiles: ↑ ↓ in time, ← → across addresses; Home / End: first / last'],
  ['Enter on a tile', 'pin the tile (click works too)'],
  ['L on a tile', 'pin its first line'],
  ['+ / − / 0 on a tile (= and _ too)', 'zoom in / out / back to 1×'],
  ['← → on the space pills', 'move between them (one Tab stop per card; Home / End: first / last)'],
  ['Enter on a pill', 'open the space at its peak line, with what is live there'],
  ['Esc', 'clear the pinned tile and line; close this list'],
  ['Ctrl / Cmd + wheel', 'zoom the byte axis around the pointer'],
  ['← / → on the splitter', 'resize the IR source (Shift: faster; Home / End: narrowest / widest)'],
];

export class ShortcutsOverlay {
  constructor() {
    this.element = el('div', { class: 'shortcuts', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Keyboard shortcuts', hidden: true },
      el('div', { class: 'shortcuts-box' },
        el('h2', {}, 'Keyboard shortcuts'),
        el('dl', {}, SHORTCUTS.flatMap(([keys, what]) => [el('dt', {}, el('kbd', {}, keys)), el('dd', {}, what)])),
        el('p', { class: 'shortcuts-version' }, `memory-map ${document.getElementById('version')?.textContent ?? ''}`),
        el('button', { class: 'shortcuts-close', onclick: () => this.toggle(false) }, 'Close')));
    this.element.addEventListener('click', (e) => {
      if (e.target === this.element) this.toggle(false);
    });
    document.body.append(this.element);
  }

  get open() {
    return !this.element.hidden;
  }

  toggle(open = !this.open) {
    this.element.hidden = !open;
    if (open) this.element.querySelector('.shortcuts-close').focus();
  }
}
