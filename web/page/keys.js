// The page's keyboard and find field: the shortcuts (?, /, N, arrows, Esc),
// the search as typed, next/previous anomaly or change.
import { $, page } from '../base/page-state.js';

/** N / Shift+N: anomalies of one dump, or the changes of a comparison. */
function step(direction) {
  if (!page.compareView) return page.finder.stepAnomaly(direction);
  const label = page.compareView.stepChange(direction);
  if (label) $('anomaly-count').textContent = label;
}

/** The card keys act on: the one holding focus, else the last pinned. */
function activeCard() {
  const focused = page.cards.find((c) => c.element.contains(document.activeElement));
  if (focused) return focused;
  return page.lastPinned && page.cards.includes(page.lastPinned) ? page.lastPinned : null;
}

const typing = (target) => target.closest?.('input, select, textarea, [contenteditable]');

export function onKey(e) {
  if (e.defaultPrevented) return; // a card's map took it (arrows, zoom)
  if (e.key === 'Escape') {
    if (page.shortcuts.open) return page.shortcuts.toggle(false);
    const menu = document.querySelector('.share-menu[open]');
    if (menu) {
      menu.open = false;
      return menu.querySelector('summary').focus();
    }
    if (e.target === $('search')) return e.target.blur();
    return activeCard()?.clearPins();
  }
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (page.shortcuts.open && e.key !== '?') return; // the list is on top: keys wait for it to close
  if (e.key === '?') {
    e.preventDefault();
    page.shortcuts.toggle();
  } else if (e.key === '/' && !$('search').disabled) {
    e.preventDefault();
    $('search').focus();
    $('search').select();
  } else if (e.key === 'n' || e.key === 'N') {
    e.preventDefault();
    step(e.shiftKey ? -1 : 1);
  } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    const card = activeCard();
    if (card?.state.line == null || e.target.closest?.('.splitter')) return;
    e.preventDefault();
    card.moveLine(e.key === 'ArrowUp' ? -1 : 1);
  }
}

/** The find field, and the buttons beside it: next / previous anomaly,
 * the shortcuts' list. */
export function listenToFinder() {
  const search = $('search');
  let timer = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => page.finder.search(search.value), 80);
  });
  search.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    clearTimeout(timer);
    if (page.finder.query !== search.value) page.finder.search(search.value);
    page.finder.stepMatch(e.shiftKey ? -1 : 1);
  });
  $('anomaly-next').addEventListener('click', () => step(1));
  $('anomaly-prev').addEventListener('click', () => step(-1));
  $('shortcuts-button').addEventListener('click', () => page.shortcuts.toggle());
}
