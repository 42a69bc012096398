// Where things go on a card's map, in px, as pure functions with no DOM:
// the map's height, scroll targets, slivers, tick strips in view, ghosts.
import { HEADER_HEIGHT, MIN_BOX, ROW_HEIGHT, TICK_CHUNK, lanePercent } from './layout.js';

export const SPLITTER_WIDTH = 6; // px
/** px: a box drawn narrower than this is a sliver (see isSliver). */
export const SLIVER_PX = 6;
/** px: the least width a box can be hit on. */
export const HIT_PX = 8;
/** The map's height, at most: this share of the window (style.css)... */
export const MAP_SHARE = 0.78;
/** ...and the window less the top bar and this much for the card's header
 * and toolbar above the map (style.css). */
export const CARD_CHROME = 110;

/** The map's visible height without reading layout, as style.css caps it:
 * its rows and header, within MAP_SHARE of the window and the room below
 * the top bar and the card's header and toolbar. */
export function mapHeight(windowHeight, topbarHeight, bodyHeight) {
  const room = Math.min(windowHeight * MAP_SHARE, windowHeight - topbarHeight - CARD_CHROME);
  return Math.min(room, HEADER_HEIGHT + bodyHeight + 16);
}

/** A box drawn narrower than a label can show: found or pinned, it is
 * flagged with its name beside it, and is hit within HIT_PX (nearestBox). */
export function isSliver(box, lane) {
  return lane !== undefined && (Math.max(0, box.size) / lane.span) * lane.width < SLIVER_PX;
}

/** Which of the boxes drawn on one lane under a pointer `x` px into it
 * the pointer is on: `candidates` [{ index, left, width }] in px, each drawn
 * at least MIN_BOX wide and reached within HIT_PX of its centre if
 * narrower. The nearest by the gap to its drawn edges wins; among boxes
 * the pointer is inside, the narrowest (a view over its tile, a sliver
 * widened over its neighbour), then the one whose centre is nearest.
 * -1: none within reach. */
export function nearestBox(candidates, x) {
  let best = -1;
  let bestKey = null;
  for (const { index, left, width: drawn } of candidates) {
    const width = Math.max(MIN_BOX, drawn);
    const off = Math.abs(x - (left + width / 2));
    if (off > Math.max(width, HIT_PX) / 2) continue;
    const key = [Math.max(0, off - width / 2), width, off];
    if (!bestKey || (key[0] - bestKey[0] || key[1] - bestKey[1] || key[2] - bestKey[2]) < 0) [best, bestKey] = [index, key];
  }
  return best;
}

/** How many runs of `runs` ([[first, last], ...], sorted, apart) have
 * their `end` (0: first line, 1: last line) before `line`. */
export function runsBefore(runs, line, end) {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (runs[mid][end] < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The tick strips of a box with use runs `runs` to draw for lines
 * [first, last]: chunks `from`..`to` of TICK_CHUNK runs each (a box with
 * thousands of uses draws only the strips in view). */
export function tickChunksInView(runs, first, last) {
  const chunks = Math.ceil(runs.length / TICK_CHUNK);
  if (chunks <= 1) return { from: 0, to: chunks - 1 };
  return {
    from: Math.floor(runsBefore(runs, first, 1) / TICK_CHUNK),
    to: Math.floor((runsBefore(runs, last + 1, 0) - 1) / TICK_CHUNK),
  };
}

/** The map's scrollTop that shows dump `line` (the map's first line
 * `srcStart`): centred in the rows below the header, or with `nearest`
 * scrolled only as far as needed (unchanged when it shows already). */
export function scrollTopForLine(line, srcStart, { scrollTop, clientHeight }, mode = 'center') {
  const top = HEADER_HEIGHT + (line - srcStart) * ROW_HEIGHT;
  if (mode === 'nearest') {
    if (top < scrollTop + HEADER_HEIGHT) return top - HEADER_HEIGHT;
    if (top + ROW_HEIGHT > scrollTop + clientHeight) return top + ROW_HEIGHT - clientHeight;
    return scrollTop;
  }
  const visible = clientHeight - HEADER_HEIGHT;
  return Math.max(0, top - HEADER_HEIGHT - visible / 2 + ROW_HEIGHT / 2);
}

/** The map's scrollTop that puts dump `line` in the middle of the part of
 * the map the window shows: below the top bar (`topbarHeight`) and the
 * lane header, above the window's bottom. `rect`: the map's { top, bottom }
 * on the screen. */
export function scrollTopToShow(line, srcStart, rect, topbarHeight, windowHeight) {
  const shownTop = Math.max(rect.top, topbarHeight) + HEADER_HEIGHT;
  const shownBottom = Math.min(rect.bottom, windowHeight);
  const visible = Math.max(ROW_HEIGHT, shownBottom - shownTop);
  const rowTop = HEADER_HEIGHT + (line - srcStart) * ROW_HEIGHT;
  return Math.max(0, rowTop - (shownTop - rect.top) - visible / 2 + ROW_HEIGHT / 2);
}

/** The map's scrollLeft that shows a byte drawn at `x` px into the sheet,
 * `left` px of which the sticky left column covers: 40 px into the lanes
 * when it is out of sight, else unchanged. */
export function scrollLeftToShow(x, left, scrollLeft, clientWidth) {
  if (x < scrollLeft + left || x > scrollLeft + clientWidth - 40) return Math.max(0, x - left - 40);
  return scrollLeft;
}

/** Where a map shown in a few rows (an embed) opens: { top, left } of its
 * scroll, the first tile's rows a line down and its lane's left edge at
 * the lanes' left, so the tile and the lane's name both show; the first
 * tile that can show so when a zoomed-in lane holds the first ones too far
 * right (else that tile 40 px in). `lanes`: those drawn; `width`: px of
 * lanes in view. null when no tile is drawn. */
export function openingScroll(boxes, lanes, srcStart, width) {
  const drawn = boxes.flatMap((box) => {
    const lane = lanes.find((l) => l.space === box.space);
    return lane ? [{ box, lane, x: lane.left + (lanePercent(lane, box.offset) / 100) * lane.width }] : [];
  }).sort((a, b) => a.box.start - b.box.start || a.x - b.x);
  const fits = (d) => d.x - d.lane.left < width - 40;
  const first = drawn.find(fits) ?? drawn[0];
  if (!first) return null;
  return { top: Math.max(0, (first.box.start - srcStart - 1) * ROW_HEIGHT), left: fits(first) ? first.lane.left : first.x - 40 };
}

/** A moved or resized tile's ghost: its old bytes `place` ({ offset, size }
 * in `lane`) over the rows of `box` (now in `boxLane`), and the rule from
 * there to where it is: px in the lanes area. */
export function ghostGeometry(box, place, lane, boxLane, srcStart) {
  const at = (l, offset) => l.left + ((offset - l.lo) / l.span) * l.width;
  const from = at(lane, place.offset);
  const to = at(boxLane, box.offset);
  return {
    left: from, width: Math.max(MIN_BOX, at(lane, place.offset + place.size) - from),
    top: (box.start - srcStart) * ROW_HEIGHT, height: (box.end - box.start + 1) * ROW_HEIGHT,
    link: from === to ? null : { left: Math.min(from, to), width: Math.abs(to - from) },
  };
}
