// Reserved windows on the map: a hatched band over a lane's whole height
// for each window the core placed (a cross-core ring the compiler keeps
// for the whole function), labelled with its name and what it holds; and
// the facts its tooltip shows. DOM and text only; the figures are the core's.
import { el } from '../base/dom.js';
import { byteRange, formatBytes, lanePercent, windowKind } from '../model/layout.js';

const span = (window) => byteRange(window.base, window.size);

/** What one more ring slot would do to the space (the core's what-if). */
export function oneMoreSlot(window, space) {
  if (!window.one_more_slot_hwm) return null;
  const fits = window.one_more_slot_fits;
  const verdict = fits === undefined ? '' : fits ? ': fits' : ': does not fit';
  return `high-water mark ${formatBytes(window.one_more_slot_hwm)} (${window.one_more_slot_hwm} B) of ${formatBytes(space.limit)}${verdict}`;
}

/** The tooltip's facts and notes for a window. */
export function windowFacts(window, space) {
  const facts = [
    ['space', window.space],
    ['bytes', `${span(window)}, ${formatBytes(window.size)}`],
    ['holds', windowKind(window)],
    [window.kind === 'pinned' ? 'allocated' : 'reserved', `line ${window.line}${window.bound ? ` as ${window.bound}` : ''}, for the whole function`],
  ];
  const more = oneMoreSlot(window, space);
  if (more) facts.push(['one more slot', more]);
  const notes = [];
  const n = window.conflict_count ?? window.conflicts_with.length;
  if (n) notes.push(`conflict: ${n} tile${n === 1 ? '' : 's'} share${n === 1 ? 's' : ''} these bytes`);
  if (window.overlaps_reserved !== undefined) notes.push('conflict: another reserved window shares these bytes');
  if (window.over_capacity) notes.push(`over capacity: past the ${formatBytes(space.limit)} of ${window.space}`);
  return { facts, notes };
}

/** Whether a window shares bytes with a tile or another window, or lies
 * past the capacity. */
export const windowInConflict = (window) =>
  Boolean(window.conflicts_with.length || window.over_capacity || window.overlaps_reserved !== undefined);

/** About how wide a window's label is, in px (its 11 px font, ~6.5 px a
 * character, a chip's padding; it wraps past 40 characters). */
const labelWidth = (window) => Math.min(window.name.length + 3 + windowKind(window).length, 40) * 6.5 + 10;

/**
 * Where each window's label goes in `lane`: `end` when it would run past
 * the lane's end (it reaches left instead), and a `row` so that no two
 * labels cover each other (a later one that would meet an earlier one's
 * goes a row down). `items`: placedWindows' { index, window } in order.
 * Pure: a Map from index to { end, row }.
 */
export function labelPlaces(items, lane) {
  const taken = []; // per row, the [from, to] px spans used
  const places = new Map();
  for (const { index, window } of items) {
    const at = (lanePercent(lane, window.base) / 100) * lane.width;
    const width = labelWidth(window);
    const end = at + width > lane.width;
    const span = end ? [(lanePercent(lane, window.base + window.size) / 100) * lane.width - width, (lanePercent(lane, window.base + window.size) / 100) * lane.width] : [at, at + width];
    let row = 0;
    while ((taken[row] ?? []).some(([a, b]) => a < span[1] && span[0] < b)) row++;
    (taken[row] ??= []).push(span);
    places.set(index, { end, row });
  }
  return places;
}

/** The band of window `index` in `lane` (of `space`): a Tab stop whose
 * focus shows its tooltip, Enter its line. `place`: its label's
 * (labelPlaces). */
export function windowBand(window, index, lane, space, place = { end: false, row: 0 }) {
  const left = lanePercent(lane, window.base);
  const more = oneMoreSlot(window, space);
  return el('div', {
    class: ['window-band', windowInConflict(window) && 'conflict', place.end && 'label-end'].filter(Boolean).join(' '),
    dataset: { window: index }, tabindex: '0', role: 'button',
    'aria-label': `${window.kind === 'pinned' ? 'pinned allocation' : 'reserved window'} ${window.name}, ${windowKind(window)}, bytes ${span(window)}${more ? `; one more slot: ${more}` : ''}`,
    style: { left: `${left}%`, width: `${lanePercent(lane, window.base + window.size) - left}%`, '--label-row': String(place.row) },
  }, el('span', { class: 'window-label' }, window.name, el('span', { class: 'window-kind' }, ` · ${windowKind(window)}`)));
}
