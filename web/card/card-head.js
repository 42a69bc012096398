// What a card says of its function around the map (DOM): the header's
// space pills and anomaly chips, and the notices above the map.
import { el } from '../base/dom.js';
import { formatBytes, usage } from '../model/layout.js';
import { anomalyCounts, spaceHwm } from '../model/insight.js';

/** A space's pill: usage at a glance, as a figure and as a bar under it,
 * in the space's colour (amber from 80 %, red from 95 %); the
 * tooltip adds the peak and the fragmentation; a click shows the peak
 * composition. `column` places it in its space's column of the page. */
function pill(space, column, onclick) {
  const { percent, level, fraction } = usage(space);
  // Drawn by lifetime (a ptoas build): no dump holds the addresses, so the
  // pill gives the least any placement needs, and the most it leaves free.
  const packed = space.lower_bound != null;
  const hwm = packed ? space.lower_bound : spaceHwm(space);
  const headroom = packed ? space.headroom_above_lower_bound ?? null : space.headroom ?? null;
  const least = packed ? '≥ ' : '';
  const title = [
    packed ? `${space.space}: needs at least ${formatBytes(hwm)} (${hwm} B) of ${formatBytes(space.limit)} (${percent}): placed by ptoas, whose addresses no dump holds; the map packs the buffers by when they live`
      : `${space.space}: high-water mark ${formatBytes(hwm)} (${hwm} B) of ${formatBytes(space.limit)} (${percent})`,
    space.reserved_bytes ? `reserved windows ${formatBytes(space.reserved_bytes)} (${space.reserved_bytes} B), counted in the high-water mark` : null,
    headroom === null ? null : packed ? `at most ${formatBytes(headroom)} (${headroom} B) free: capacity minus the least needed`
      : `headroom ${formatBytes(headroom)} (${headroom} B): capacity minus high-water mark`,
    `peak live ${formatBytes(space.peak_live)} (${space.peak_live} B) on line ${space.peak_line}`,
    `fragmentation ${formatBytes(space.fragmentation)} (${space.fragmentation} B): high-water mark minus peak live`,
    `${space.tiles} tiles on ${space.bases} bases · click for the tiles live at the peak`,
    // AllocateMemoryAddr checks a space's footprint only where a tile has a MemRef (docs/model.md §9).
    space.tiles === 0 && space.reserved_bytes ? 'reserved windows only: the compiler\'s capacity check sees no figure for this space; the map counts its windows' : null,
  ].filter(Boolean).join('\n');
  const free = headroom === null ? null : headroom >= 0 ? `${packed ? '≤ ' : ''}${formatBytes(headroom)} free` : `${least}${formatBytes(-headroom)} over`;
  return el('button', {
    class: `pill ${level}${packed ? ' packed' : ''}`, dataset: { space: space.space }, title, onclick, tabindex: '-1',
    style: { gridColumn: String(column), '--used': `${Math.min(100, fraction * 100)}%` },
  },
  // Every part at every width: short of room they wrap, each whole (style.css).
  // A line may break after a part's "·" (kept with the part before it).
  el('span', { class: 'pill-space' }, space.space), ' ', el('span', { class: 'pill-percent' }, `${least}${percent}`), '\u00a0· ',
  el('span', { class: 'pill-bytes' }, `${least}${formatBytes(hwm)} / ${formatBytes(space.limit)}`),
  free ? '\u00a0· ' : null, free ? el('span', { class: 'pill-headroom' }, free) : null);
}

/** The pills of a card, one per space of `spaces`: one Tab stop, ←/→
 * (Home/End) between them. `columnOf(space)` places each in its space's
 * column of the page; `onPick(space)` is a pill's click. */
export function spacePills(spaces, columnOf, onPick) {
  const pills = spaces.map((s) => pill(s, columnOf(s.space), () => onPick(s.space)));
  if (pills.length) pills[0].tabIndex = 0;
  const group = el('span', { class: 'pills', role: 'group', 'aria-label': 'Memory spaces' }, pills);
  group.addEventListener('keydown', (e) => {
    const at = pills.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: pills.length - 1 }[e.key];
    if (at < 0 || to === undefined || !pills[to]) return;
    e.preventDefault();
    pills[at].tabIndex = -1;
    pills[to].tabIndex = 0;
    pills[to].focus();
  });
  return group;
}

/** What is wrong in `fn`, counted: tiles not placed, conflicts, tiles over capacity. */
export function anomalyChips(fn) {
  const { conflicts, over, unplaced } = anomalyCounts(fn);
  return [
    unplaced ? el('span', { class: 'anomaly unplaced', title: 'Tiles whose MemRef gives no address: not drawn, and left out of every figure of this card' },
      `${unplaced} not placed`) : null,
    conflicts ? el('span', { class: 'anomaly conflicts', title: 'Pairs sharing bytes while both are live: tiles on different bases, or a tile and a reserved window' },
      `${conflicts} conflict${conflicts === 1 ? '' : 's'}`) : null,
    over ? el('span', { class: 'anomaly over', title: 'Tiles outside their space: a negative offset, or an end past the capacity' },
      `${over} over capacity`) : null,
  ];
}

/** A function whose dump holds no addresses (planned: false): what the
 * map shows instead, and the least any placement needs; else null. */
export function lifetimeNotice(fn) {
  if (fn.planned !== false) return null;
  const spaces = [...fn.spaces, ...(fn.reserved_only_spaces ?? [])];
  return el('div', { class: 'lifetime-notice', role: 'note' },
    el('strong', {}, 'No addresses in this dump (ptoas assigns them): '),
    'each buffer is drawn packed by when it lives, its tiles at their offsets in it. The least any placement needs: ',
    spaces.map((s, i) => `${i ? '; ' : ''}${s.space} ${formatBytes(s.lower_bound)}${s.headroom_above_lower_bound == null ? '' : `, ${formatBytes(s.headroom_above_lower_bound)} free above it`}`).join(''),
    '.');
}

/** The tiles the core could not place, each with why and its line (a
 * button: `onLine(line)`); the map and every figure above leave them out.
 * Null when there are none. */
export function unplacedNotice(fn, onLine) {
  const skipped = fn.skipped ?? [];
  if (!skipped.length) return null;
  const n = skipped.length;
  return el('div', { class: 'unplaced-notice', role: 'note' },
    el('strong', {}, `${n} tile${n === 1 ? '' : 's'} not placed: not drawn, and not counted in the figures above`),
    el('ul', {}, skipped.map((tile) => el('li', {},
      el('button', { class: 'unplaced-line', title: 'Pin this line', onclick: () => onLine(tile.line) }, `line ${tile.line}`),
      ' ', el('code', {}, tile.name), ` (${tile.space}): ${tile.reason}`))));
}
