// The panel under a card's toolbar: the line inspector (every tile live on
// the pinned line, bytes per space) and, from a pill, a space's peak
// composition. DOM only; the figures come from insight.js and the core.
import { el } from './dom.js';
import { formatBytes } from './layout.js';
import { liveAt, peakTiles } from './insight.js';

const share = (part, whole) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '');

/** One row per tile: its name (a button that pins it), size, place, lines. */
function tileRows(tiles, whole, onTile) {
  return el('ol', { class: 'panel-tiles' }, tiles.map(({ index, box }) =>
    el('li', { dataset: { index } },
      el('button', { class: 'tile-link', title: 'Pin this tile', onclick: () => onTile(index) }, box.name),
      el('span', { class: 'num' }, formatBytes(box.size)),
      el('span', { class: 'muted' }, `${share(box.size, whole)} @${box.offset}`),
      el('span', { class: 'muted' }, `lines ${box.start}–${box.end}`),
      el('span', { class: 'tags' },
        box.view ? el('span', { class: 'tag' }, 'view') : null,
        box.conflict ? el('span', { class: 'tag alert' }, 'conflict') : null,
        box.over_capacity ? el('span', { class: 'tag alert' }, 'over capacity') : null))));
}

function spaceSection(space, group, onTile) {
  const heading = `${space.space}: ${formatBytes(group.bytes)} live in ${group.tiles.length} tile${group.tiles.length === 1 ? '' : 's'}`;
  return el('section', { class: 'panel-space', dataset: { space: space.space } },
    el('h4', {}, heading, el('span', { class: 'muted' }, ` of ${formatBytes(space.limit)}`)),
    tileRows(group.tiles, group.bytes, onTile));
}

/** The peak of one space: its figures, then the tiles live there. */
function peakSection(fn, space, onTile) {
  const tiles = peakTiles(fn, space);
  return el('section', { class: 'panel-space panel-peak', dataset: { space: space.space } },
    el('h4', {}, `Peak of ${space.space}: ${formatBytes(space.peak_live)} live on line ${space.peak_line}`),
    el('p', { class: 'muted' },
      `High-water mark ${formatBytes(space.hwm)} of ${formatBytes(space.limit)}; `,
      `${formatBytes(space.fragmentation)} of the address space below it is unused at the peak (fragmentation).`),
    tileRows(tiles, space.peak_live, onTile));
}

/**
 * The panel for pinned line `line` of `fn`. `peakSpace` (a space name)
 * puts that space's peak composition first. `handlers`: { onTile(index),
 * onClose() }.
 */
export function linePanel(fn, line, peakSpace, handlers) {
  const groups = liveAt(fn, line);
  const spaces = new Map(fn.spaces.map((s) => [s.space, s]));
  const total = groups.reduce((n, g) => n + g.tiles.length, 0);
  const peak = peakSpace ? spaces.get(peakSpace) : null;
  return el('div', { class: 'panel', role: 'region', 'aria-label': `Tiles live on line ${line}` },
    el('div', { class: 'panel-head' },
      el('strong', {}, `Line ${line}`),
      el('span', { class: 'muted' }, total ? ` · ${total} tile${total === 1 ? '' : 's'} live · ↑/↓ move, Esc clears` : ' · no tile live here'),
      el('button', { class: 'panel-close', 'aria-label': 'Clear the pinned line', title: 'Clear (Esc)', onclick: handlers.onClose }, '×')),
    peak ? peakSection(fn, peak, handlers.onTile) : null,
    groups.filter((g) => g.space !== peakSpace).map((g) => spaceSection(spaces.get(g.space), g, handlers.onTile)));
}
