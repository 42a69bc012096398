// How a list of many cards goes into the page: a few hundred a task, in
// groups the browser can skip as one box (the dump's cards, display.js; a
// comparison's, compare.js).
import { el } from './dom.js';

/** Cards past this many (more than a page shows) are laid out in groups:
 * the browser skips a group out of view as one box (content-visibility),
 * where thousands of closed cards, each skipped on its own, cost a big
 * dump ~100 ms a frame. */
export const MANY_CARDS = 200;
const GROUP_SIZE = 50;
const CLOSED_CARD_PX = 56; // a closed card's height and margin (style.css)

/** Cards made in one task; a multiple of GROUP_SIZE. */
export const CARDS_PER_TASK = 250;

/** `elements` in groups of GROUP_SIZE, as they go in a list of cards. */
export function grouped(elements) {
  const groups = [];
  for (let i = 0; i < elements.length; i += GROUP_SIZE) {
    const members = elements.slice(i, i + GROUP_SIZE);
    groups.push(el('div', { class: 'card-group', style: { containIntrinsicSize: `auto ${members.length * CLOSED_CARD_PX}px` } }, members));
  }
  return groups;
}
