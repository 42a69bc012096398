// The panels under a card's toolbar: the line inspector (every tile and
// reserved window live on the pinned line, bytes and the largest free gap
// per space), from a pill a space's peak composition, and the tiles held
// longest while idle. DOM only; the figures come from insight.js and the core.
import { el, identifier } from '../base/dom.js';
import { byteRange, formatBytes, windowKind } from '../model/layout.js';
import { cardSpaces, inConflict, liveAt, parseSize, peakTiles, peakWindows, whatIf } from '../model/insight.js';
import { oneMoreSlot } from '../map/reserved.js';

const share = (part, whole) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '');

/** One row per tile: its name (a button that pins it), size, place, lines. */
function tileRows(tiles, whole, onTile) {
  return el('ol', { class: 'panel-tiles' }, tiles.map(({ index, box }) =>
    el('li', { dataset: { index } },
      el('button', { class: 'tile-link', title: 'Pin this tile', onclick: () => onTile(index) }, identifier(box.name)),
      el('span', { class: 'num' }, formatBytes(box.size)),
      el('span', { class: 'muted' }, `${share(box.size, whole)} ${byteRange(box.offset, box.size)}`),
      el('span', { class: 'muted' }, `lines ${box.start}–${box.end}`),
      el('span', { class: 'tags' },
        box.view ? el('span', { class: 'tag' }, 'view') : null,
        inConflict(box) ? el('span', { class: 'tag alert' }, 'conflict') : null,
        box.over_capacity ? el('span', { class: 'tag alert' }, 'over capacity') : null))));
}

/** One row per reserved window: live on every line, so in every list;
 * a ring says what one more slot would make of the space's mark. */
function windowRows(windows, whole, space) {
  return el('ol', { class: 'panel-tiles panel-windows' }, windows.map(({ index, window }) => {
    const more = oneMoreSlot(window, space);
    return el('li', { dataset: { window: index } },
      el('span', { class: 'window-name' }, window.name),
      el('span', { class: 'num' }, formatBytes(window.size)),
      el('span', { class: 'muted' }, `${share(window.size, whole)} ${byteRange(window.base, window.size)}`),
      el('span', { class: 'muted' }, 'all lines'),
      el('span', { class: 'tags' }, el('span', { class: 'tag reserved' }, windowKind(window)),
        window.conflicts_with.length ? el('span', { class: 'tag alert' }, 'conflict') : null),
      more ? el('span', { class: 'muted window-more' }, `one more slot: ${more}`) : null);
  }));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function spaceSection(space, group, onTile) {
  const parts = [group.tiles.length ? plural(group.tiles.length, 'tile') : null,
    group.windows.length ? plural(group.windows.length, 'reserved window') : null].filter(Boolean);
  const heading = `${space.space}: ${formatBytes(group.bytes)} live in ${parts.join(' and ')}`;
  const gap = group.gap
    ? `largest free gap ${formatBytes(group.gap.size)} at ${byteRange(group.gap.offset, group.gap.size)}: where a new tile live here fits`
    : 'no free byte below the capacity here';
  return el('section', { class: 'panel-space', dataset: { space: space.space } },
    el('h2', {}, heading, el('span', { class: 'muted' }, ` of ${formatBytes(space.limit)}`)),
    el('p', { class: 'muted panel-gap' }, gap),
    group.windows.length ? windowRows(group.windows, group.bytes, space) : null,
    tileRows(group.tiles, group.bytes, onTile));
}

/** What ends at the space's high-water mark (the core's hwm_set_by): a
 * tile (a button that pins it) or a reserved window; whether that tile is
 * live on the peak line (if not, and there is fragmentation, it is what
 * holds the mark above the peak). */
function markSetter(fn, space, onTile) {
  const by = space.hwm_set_by;
  if (!by) return null;
  if (by.reserved != null) {
    const w = fn.reserved[by.reserved];
    return el('p', { class: 'panel-mark' }, 'The mark is the end of reserved window ',
      el('span', { class: 'window-name' }, w.name), ` at ${byteRange(w.base, w.size)}.`);
  }
  const box = fn.boxes[by.box];
  const atPeak = (space.peak_boxes ?? []).includes(by.box);
  const link = (i) => el('button', { class: 'tile-link', title: 'Pin this tile', onclick: () => onTile(i) }, identifier(fn.boxes[i].name));
  // An in-place handoff (model.md §7) is named as one: no conflict, nothing to move.
  const handoff = box.in_place_to !== undefined ? [' It hands its bytes over in place to ', link(box.in_place_to),
    `, bound on line ${fn.boxes[box.in_place_to].start}, which reads it last.`]
    : box.in_place_from !== undefined ? [' It took over the bytes of ', link(box.in_place_from), ' in place: its statement reads that tile last.']
      : [];
  return el('p', { class: 'panel-mark' }, 'The mark is the end of ', link(by.box),
    ` at ${byteRange(box.offset, box.size)}, lines ${box.start}–${box.end}`,
    atPeak ? '.' : ', not live on the peak line.', ...handoff);
}

/** The core's what-if: the mark's tile (with its base's other tiles)
 * moved to the lowest gap free over its lifetime, and the mark then. */
function whatIfLine(fn, space) {
  const w = whatIf(fn, space);
  if (!w) return null;
  const what = w.tiles > 1 ? `${w.box.name} and the ${w.tiles - 1} other tile${w.tiles === 2 ? '' : 's'} of ${w.box.base}` : w.box.name;
  const where = byteRange(w.to, w.size);
  let text;
  if (w.to === w.from) text = `${what} already ${w.tiles > 1 ? 'sit' : 'sits'} in the lowest gap free over ${w.tiles > 1 ? 'their lifetimes' : 'its lifetime'}: no move lowers the mark.`;
  else if (w.change < 0) text = `What if ${what} moved to the lowest gap free over its lifetime, ${where}? The mark would be ${formatBytes(w.then)}, ${formatBytes(-w.change)} lower.`;
  else if (w.change === 0) text = `${what} could move down to ${where}, but the mark stays ${formatBytes(w.hwm)}: something else ends there too.`;
  else text = `${what} shares bytes while live: the lowest gap free over its lifetime is ${where}, where the mark would be ${formatBytes(w.then)}, ${formatBytes(w.change)} higher${w.fits ? '' : ', past the capacity'}.`;
  return el('p', { class: 'panel-what-if' }, text);
}

/** The peak of one space: its figures, then the windows and tiles live there. */
function peakSection(fn, space, onTile) {
  const tiles = peakTiles(fn, space);
  const windows = peakWindows(fn, space);
  const hwm = space.hwm_with_reserved ?? space.hwm;
  return el('section', { class: 'panel-space panel-peak', dataset: { space: space.space } },
    el('h2', {}, `Peak of ${space.space}: ${formatBytes(space.peak_live)} live on line ${space.peak_line}`),
    el('p', { class: 'muted' },
      `High-water mark ${formatBytes(hwm)} of ${formatBytes(space.limit)}`,
      space.reserved_bytes ? `, ${formatBytes(space.reserved_bytes)} of it reserved windows` : '',
      space.headroom == null ? '; ' : `, ${formatBytes(space.headroom)} headroom; `,
      `${formatBytes(space.fragmentation)} of the address space below it is unused at the peak (fragmentation).`),
    markSetter(fn, space, onTile),
    whatIfLine(fn, space),
    windows.length ? windowRows(windows, space.peak_live, space) : null,
    tileRows(tiles, space.peak_live, onTile));
}

/**
 * The tiles held longest without a use (`holds` from insight.idleHolds):
 * each with its idle lines and bytes × lines; a click pins it.
 * `handlers`: { onTile(index), onClose() }.
 */
export function idlePanel(fn, holds, handlers) {
  return el('div', { class: 'panel idle-panel', role: 'region', 'aria-label': 'Held while idle' },
    el('div', { class: 'panel-head' },
      el('strong', {}, 'Held while idle'),
      el('span', { class: 'muted' }, holds.length
        ? ' · the tiles that hold the most bytes for the most lines between two uses: that span blocks reuse'
        : ' · every tile is used on each line of its lifetime or next to it'),
      el('button', { class: 'panel-close', 'aria-label': 'Close the idle list', title: 'Close', onclick: handlers.onClose }, '×')),
    el('ol', { class: 'panel-tiles' }, holds.map(({ index, box }) => {
      const lines = box.idle[1] - box.idle[0] + 1;
      // "128 KB idle for 10 lines" reads as what it is; the product orders the list.
      return el('li', { dataset: { index } },
        el('button', { class: 'tile-link', title: 'Pin this tile', onclick: () => handlers.onTile(index) }, identifier(box.name)),
        el('span', { class: 'idle-space' }, box.space),
        el('span', { class: 'num', title: `${formatBytes(box.idle_bytes_lines)} × lines held idle` },
          `${formatBytes(box.size)} idle for ${plural(lines, 'line')}`),
        el('span', { class: 'muted' }, `lines ${box.idle[0]}–${box.idle[1]}`),
        el('span', { class: 'muted' }, `live ${box.start}–${box.end}, ${plural(box.uses.length, 'use')}`));
    })));
}

/** What the fit question starts from: in `space` (a pill's: its peak
 * shown), the size and lifetime of the tile whose end is its mark, the
 * one a user would move; else 8 KB on the pinned line. */
export function fitPreset(fn, line, space) {
  const box = space?.hwm_set_by?.box != null ? fn.boxes[space.hwm_set_by.box] : null;
  if (!box) return { space: space?.space ?? null, size: '8K', first: line, last: line };
  // As a user types a size (parseSize reads it back): 128K, not 131072.
  const size = box.size % 1048576 === 0 ? `${box.size / 1048576}M` : box.size % 1024 === 0 ? `${box.size / 1024}K` : String(box.size);
  return { space: space.space, size, first: box.start, last: box.end };
}

/** "A tile of B bytes live from line L1 to L2: where does it fit?",
 * answered by the core (`onFit({ space, size, first, last })` resolves
 * to { offset, hwm_with_reserved, limit, fits }); `preset` (fitPreset)
 * fills it in. */
function fitForm(fn, preset, onFit) {
  if (!onFit) return null;
  const spaces = cardSpaces(fn);
  const space = el('select', { 'aria-label': 'Space' }, spaces.map((s) => el('option', { value: s.space, selected: s.space === preset.space }, s.space)));
  const size = el('input', { type: 'text', value: preset.size, size: '7', 'aria-label': 'Size (8192, 8K)' });
  const first = el('input', { type: 'number', class: 'fit-first', value: String(preset.first), min: String(fn.src_start), max: String(fn.src_end), 'aria-label': 'Live from line' });
  const last = el('input', { type: 'number', class: 'fit-last', value: String(preset.last), min: String(fn.src_start), max: String(fn.src_end), 'aria-label': 'Live to line' });
  const answer = el('span', { class: 'fit-answer', role: 'status' });
  const ask = async (event) => {
    event.preventDefault();
    const bytes = parseSize(size.value);
    const from = Number(first.value);
    const to = Number(last.value);
    if (!bytes) return void (answer.textContent = 'a size: 8192, 8K or 1M');
    const inFn = (n) => Number.isInteger(n) && n >= fn.src_start && n <= fn.src_end;
    if (!inFn(from) || !inFn(to) || to < from) return void (answer.textContent = `lines from ${fn.src_start} to ${fn.src_end}, the earlier first`);
    answer.textContent = '…';
    try {
      const fit = await onFit({ space: space.value, size: bytes, first: from, last: to });
      const mark = `the high-water mark would be ${formatBytes(fit.hwm_with_reserved)}${fit.limit === null ? '' : ` of ${formatBytes(fit.limit)}`}`;
      answer.textContent = `lowest gap free then: ${byteRange(fit.offset, bytes)}; ${mark}: ${fit.fits ? 'fits' : 'does not fit'}`;
      answer.classList.toggle('alert', !fit.fits);
    } catch (error) {
      answer.textContent = error.message;
    }
  };
  return el('form', { class: 'panel-fit', onsubmit: ask },
    'A tile of ', size, ' in ', space, ' live from line ', first, ' to ', last, ' ', el('button', { type: 'submit' }, 'Where does it fit?'), ' ', answer);
}

/**
 * The panel for pinned line `line` of `fn`. `peakSpace` (a space name)
 * puts that space's peak composition first. `handlers`: { onTile(index),
 * onClose(), onFit (fitForm's; none: no form) }.
 */
export function linePanel(fn, line, peakSpace, handlers) {
  const groups = liveAt(fn, line);
  const spaces = new Map(cardSpaces(fn).map((s) => [s.space, s]));
  const total = groups.reduce((n, g) => n + g.tiles.length, 0);
  const peak = peakSpace ? spaces.get(peakSpace) : null;
  return el('div', { class: 'panel', role: 'region', 'aria-label': `Tiles live on line ${line}` },
    // The question of where a tile fits shares the head's row where it has room (the map keeps its height).
    el('div', { class: 'panel-head' },
      el('strong', {}, `Line ${line}`),
      el('span', { class: 'muted' }, total ? ` · ${total} tile${total === 1 ? '' : 's'} live · ↑/↓ (Shift on a tile) move, Esc clears` : ' · no tile live here'),
      fitForm(fn, fitPreset(fn, line, peak), handlers.onFit),
      el('button', { class: 'panel-close', 'aria-label': 'Clear the pinned line', title: 'Clear (Esc)', onclick: handlers.onClose }, '×')),
    peak ? peakSection(fn, peak, handlers.onTile) : null,
    groups.filter((g) => g.space !== peakSpace).map((g) => spaceSection(spaces.get(g.space), g, handlers.onTile)));
}
