// What a card asks of the view it is drawn in: the interface, and the
// answers for a card alone (the compare view's CompareSide gives its own).
import { cardSpaces } from './insight.js';

/**
 * A card's side, the interface. A card calls exactly these:
 *   laneSpaces(fn)        the spaces drawn as lanes, in order
 *   extentItems(axis)     more { space, offset, size } whose bytes widen the
 *                         lanes (two maps compared share one byte scale)
 *   boxClasses(index)     more classes for the box of that index
 *   ghostOf(index)        where that box was before, { space, offset, size },
 *                         or null: drawn as a dashed outline
 *   onHighlight(card, box) a box (null: none) was highlighted
 *   onView(card, what)    the zoom, axis or hidden spaces changed ('zoom',
 *                         'axis', 'hidden'), whoever changed them
 *   onScroll(card)        the map scrolled
 * A card alone: its own spaces, nothing more, nothing to tell.
 */
export const LONE_SIDE = Object.freeze({
  laneSpaces: (fn) => cardSpaces(fn),
  extentItems: () => [],
  boxClasses: () => [],
  ghostOf: () => null,
  onHighlight() {},
  onView() {},
  onScroll() {},
});
