// How a list of many cards goes into the page: a few hundred a task, in
// groups the browser can skip as one box (the dump's cards, display.js; a
// comparison's, compare.js).
import { el } from '../base/dom.js';

/** Cards past this many (more than a page shows) are laid out in groups:
 * the browser skips a group out of view as one box (content-visibility),
 * where thousands of closed cards, each skipped on its own, cost a big
 * dump much of every frame (docs/bench.md, "Figures behind the code"). */
export const MANY_CARDS = 200;
const GROUP_SIZE = 50;
const CLOSED_CARD_PX = 56; // a closed card's height and margin (style.css)

/** Cards made in one task; a multiple of GROUP_SIZE. */
const CARDS_PER_TASK = 250;

/** `elements` in groups of GROUP_SIZE, as they go in a list of cards. */
function grouped(elements) {
  const groups = [];
  for (let i = 0; i < elements.length; i += GROUP_SIZE) {
    const members = elements.slice(i, i + GROUP_SIZE);
    groups.push(el('div', { class: 'card-group', style: { containIntrinsicSize: `auto ${members.length * CLOSED_CARD_PX}px` } }, members));
  }
  return groups;
}

/**
 * The cards of `items` appended to `list` once the frame that shows the
 * first card is painted (and what waited for it has run), CARDS_PER_TASK a
 * task, in groups when there are MANY_CARDS or more: thousands of cards
 * made in one task held the page, scrolling and drops waiting.
 * `cardsOf(batch)` makes a batch's elements; the tasks stop once `live()`
 * is false; `done()` after the last batch. Returns a function that
 * appends what is left at once.
 */
export function appendInTasks(list, items, cardsOf, { live = () => true, done = () => {} } = {}) {
  const grouping = items.length >= MANY_CARDS;
  let from = 0;
  const append = (count) => {
    const to = Math.min(from + count, items.length);
    const elements = cardsOf(items.slice(from, to));
    from = to;
    list.append(...(grouping ? grouped(elements) : elements));
    if (from === items.length) done();
  };
  const next = () => {
    if (!live() || from === items.length) return;
    append(CARDS_PER_TASK);
    if (from < items.length) setTimeout(next);
  };
  if (!items.length) done();
  else requestAnimationFrame(() => setTimeout(() => setTimeout(next)));
  return () => { if (from < items.length) append(items.length - from); };
}
