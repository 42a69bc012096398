// Layout maths of the map (docs/page.md), as small pure functions
// with no DOM: the byte scale, lanes, zoom, splitter, rows, labels.

export const ROW_HEIGHT = 18; // px per dump line
export const HEADER_HEIGHT = 40; // px of the lane header row
export const MIN_LANE = 72; // px: the narrowest lane at zoom 1
export const MIN_BOX = 2; // px: no box draws narrower
export const ZOOM_STEP = 1.6;
export const ZOOM_MIN = 0.2;
export const ZOOM_MAX = 64;
export const SPLIT_MIN = 140;
export const SPLIT_MAX = 2400;
export const GUTTER_WIDTH = 56; // px: line numbers when the IR source is closed
export const CHAR_WIDTH = 7.2; // px of one character of the monospace source font
// Usage in tenths of a percent, as the core shows it (usage_permille,
// wasm/output/figures.h): a pill turns red from "95.0%", amber from "80.0%".
export const USAGE_ALERT = 950;
export const USAGE_WARN = 800;
/** Below this usage a space's tiles crowd into a corner of a lane drawn
 * to the capacity: the lane offers the 'used' axis. */
export const USAGE_SPARSE = 250;

/**
 * The bytes a lane covers: 0 → the capacity (`limit`) or the high-water mark
 * (`used`), widened to hold boxes outside it (over capacity, negative
 * offsets), which are drawn where they are.
 */
export function laneExtent(space, axis, boxes = []) {
  let lo = 0;
  let hi = Math.max(1, axis === 'used' ? (space.hwm_with_reserved ?? space.hwm) : space.limit);
  for (const b of boxes) {
    if (b.space !== space.space) continue;
    lo = Math.min(lo, b.offset);
    hi = Math.max(hi, b.offset + Math.max(0, b.size));
  }
  return { lo, hi };
}

/**
 * The shared px-per-byte factor at zoom 1: fill `available` px with the
 * lanes, then grow uniformly until the narrowest lane is MIN_LANE px.
 */
export function baseFactor(spans, available) {
  if (!spans.length) return 1;
  const total = spans.reduce((a, b) => a + b, 0);
  const fit = Math.max(available, 1) / total;
  const narrowest = Math.min(...spans);
  return narrowest * fit < MIN_LANE ? MIN_LANE / narrowest : fit;
}

/** A box this wide (px) holds a short name ("t__tile_1"): narrower, its
 * label is cut to a few letters. */
export const READABLE_BOX = 64;

/**
 * The x axis a card opens with: `used` when it shows more of the boxes
 * readable (at least READABLE_BOX px wide, and within the `available` px
 * the map has before it scrolls) than `limit` does, else `limit`. A space
 * used at a few percent draws most tiles as slivers against its capacity;
 * a busy one beside a sparse one would widen many times over on `used`.
 */
export function defaultAxis(spaces, boxes, available) {
  const readable = (axis) => {
    const spans = spaces.map((s) => laneExtent(s, axis, boxes)).map((e) => e.hi - e.lo);
    const { lanes } = layoutLanes(spaces, { axis, factor: baseFactor(spans, available), boxes });
    const lane = new Map(lanes.map((l) => [l.space, l]));
    return boxes.filter((b) => {
      const l = lane.get(b.space);
      if (!l || b.size <= 0) return false;
      const width = (b.size / l.span) * l.width;
      return width >= READABLE_BOX && l.left + ((b.offset - l.lo) / l.span) * l.width + READABLE_BOX <= available;
    }).length;
  };
  return readable('used') > readable('limit') ? 'used' : 'limit';
}

/** Lanes left to right: { space, lo, span, left, width } (bytes and px) for one factor. */
export function layoutLanes(spaces, { axis = 'limit', factor, hidden = new Set(), boxes = [] }) {
  let left = 0;
  const lanes = [];
  for (const space of spaces) {
    if (hidden.has(space.space)) continue;
    const { lo, hi } = laneExtent(space, axis, boxes);
    const span = hi - lo;
    const width = span * factor;
    lanes.push({ space: space.space, lo, span, left, width, hwm: space.hwm, limit: space.limit });
    left += width;
  }
  return { lanes, width: left };
}

/** Where byte `offset` sits in a lane, in % of its width. */
export const lanePercent = (lane, offset) => ((offset - lane.lo) / lane.span) * 100;

/** The next zoom level: `direction` +1 zooms in, -1 out; clamped. */
export function stepZoom(zoom, direction) {
  const next = direction > 0 ? zoom * ZOOM_STEP : zoom / ZOOM_STEP;
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, next));
}

/** "1×", "1.6×", "0.39×": the zoom button's text. */
export function formatZoom(zoom) {
  const rounded = zoom >= 10 ? Math.round(zoom) : Math.round(zoom * 100) / 100;
  return `${rounded}×`;
}

/**
 * Where to scroll after a zoom so the byte under the pointer stays put.
 * `x` is the pointer's offset into the lanes area (px, including scroll),
 * `before`/`after` the lane layouts at the old and new factor.
 * Returns the new x of that byte in the lanes area.
 */
export function anchorAfterZoom(x, before, after) {
  const lane = before.lanes.find((l) => x >= l.left && x < l.left + l.width) ??
    (x < 0 ? before.lanes[0] : before.lanes[before.lanes.length - 1]);
  if (!lane) return x;
  const byte = lane.lo + ((x - lane.left) / lane.width) * lane.span;
  const moved = after.lanes.find((l) => l.space === lane.space);
  return moved.left + ((byte - moved.lo) / moved.span) * moved.width;
}

/** A splitter width kept within SPLIT_MIN..SPLIT_MAX. */
export function clampSplit(width) {
  return Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, Math.round(width)));
}

/** The length of the longest of `lines` (none: 0). */
export const longestLine = (lines) => lines.reduce((m, l) => Math.max(m, l.length), 0);

/** The default source pane width: the longest line, within bounds, and
 * at most 45 % of the card's `width` so the map keeps most of it. */
export function defaultSplit(lines, width = Infinity, charWidth = CHAR_WIDTH) {
  const longest = longestLine(lines);
  return clampSplit(Math.min(longest * charWidth + GUTTER_WIDTH + 16, 720, width * 0.45));
}

/**
 * The dump lines a map's viewport shows (for an exported image): rows
 * partly under the sticky lane header or past the bottom edge count when
 * any of them shows.
 */
export function linesInView(scrollTop, clientHeight, srcStart, srcEnd) {
  const first = srcStart + Math.floor(Math.max(0, scrollTop) / ROW_HEIGHT);
  const last = srcStart + Math.ceil((scrollTop + clientHeight - HEADER_HEIGHT) / ROW_HEIGHT) - 1;
  return { first: Math.min(first, srcEnd), last: Math.max(Math.min(last, srcEnd), Math.min(first, srcEnd)) };
}

/**
 * The lines an exported image shows: those in view (`inView`, as
 * linesInView gives them), widened to every line its notes name (they
 * name every space, svg_notes.c): each space's peak line, and the lines
 * of the tile (or the line of the window) whose end is its mark.
 */
export function exportLines(inView, fn) {
  let { first, last } = inView;
  const name = (line) => {
    if (!(line >= fn.src_start && line <= fn.src_end)) return;
    first = Math.min(first, line);
    last = Math.max(last, line);
  };
  for (const space of fn.spaces) {
    if (space.peak_live > 0) name(space.peak_line);
    const by = space.hwm_set_by;
    if (by?.box != null && fn.boxes?.[by.box]) [fn.boxes[by.box].start, fn.boxes[by.box].end].forEach(name);
    if (by?.reserved != null && fn.reserved?.[by.reserved]) name(fn.reserved[by.reserved].line);
  }
  return { first, last };
}

/** A box's place in its lane: left and width as % of the lane, top and height in px. */
export function boxGeometry(box, lane, srcStart) {
  return {
    left: lanePercent(lane, box.offset),
    width: (Math.max(0, box.size) / lane.span) * 100,
    top: (box.start - srcStart) * ROW_HEIGHT,
    height: (box.end - box.start + 1) * ROW_HEIGHT,
  };
}

/** Lines [first, last] (1-based dump lines) visible in a viewport, with overscan rows. */
export function visibleLines(scrollTop, viewportHeight, srcStart, srcEnd, overscan = 20) {
  const firstRow = Math.floor(Math.max(0, scrollTop - HEADER_HEIGHT) / ROW_HEIGHT) - overscan;
  const lastRow = Math.ceil((scrollTop + viewportHeight) / ROW_HEIGHT) + overscan;
  return {
    first: Math.max(srcStart, srcStart + firstRow),
    last: Math.min(srcEnd, srcStart + lastRow),
  };
}

/** 1536 → "1.5 KB"; sizes in KiB/MiB as the compiler's reports use. */
export function formatBytes(bytes) {
  const sign = bytes < 0 ? '-' : '';
  let n = Math.abs(bytes);
  for (const unit of ['B', 'KB', 'MB', 'GB']) {
    if (n < 1024 || unit === 'GB') {
      const text = unit === 'B' || Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1).replace(/\.?0+$/, '');
      return `${sign}${text} ${unit}`;
    }
    n /= 1024;
  }
  return `${bytes} B`;
}

/** A pill's figures, from the core's usage_permille (the high-water mark,
 * reserved windows counted, in tenths of a percent of the capacity; null
 * without one): the figure shown ('–' without a capacity), the fill as a
 * fraction, the level ('alert' from 95.0 %, 'warn' from 80.0 %: the
 * colour agrees with the figure) and `sparse` below USAGE_SPARSE. */
export function usage(space) {
  const permille = space.usage_permille ?? null;
  if (permille === null) return { fraction: 0, percent: '–', level: 'ok', alert: false, sparse: false };
  const level = permille >= USAGE_ALERT ? 'alert' : permille >= USAGE_WARN ? 'warn' : 'ok';
  return { fraction: permille / 1000, percent: `${(permille / 10).toFixed(1)}%`, level, alert: level === 'alert', sparse: permille > 0 && permille < USAGE_SPARSE };
}

/** "[4096, 135168)": bytes as the map counts them, start included, end not. */
export const byteRange = (start, size) => `[${start}, ${start + size})`;

/** Where a box sits, as text: its bytes, or in a function drawn by
 * lifetime (`packed`) the place the map's packing gave it. */
export const placeText = (box, packed) => (packed ? `packed at ${byteRange(box.offset, box.size)}` : byteRange(box.offset, box.size));

/**
 * A source line shown in `room` characters when the pinned tile's first
 * mention (`length` characters at `at`) ends past them: its head (the
 * indent and the name it binds, up to the colon; the indent alone if that
 * is still too long) kept, then " … ", then the text from the word the
 * mention is in, so the use reads in the column. Else the line.
 */
export function elideToMention(text, at, room, length = 0) {
  if (at < 0 || at + length <= room) return text;
  const indent = text.length - text.trimStart().length;
  const colon = text.indexOf(':', indent);
  const named = Math.min(colon > indent ? colon + 1 : indent + 24, indent + 40);
  // From the word the mention is in (the call it is an argument of), if
  // near; or that call without its module (`pl.tile.`).
  const space = text.lastIndexOf(' ', at - 1);
  const word = space >= 0 && at - space <= 32 ? space + 1 : Math.max(0, at - 12);
  const dot = text.lastIndexOf('.', at - 1);
  const call = dot >= word ? dot + 1 : word;
  const tries = [[named, word], [named, call], [indent, call]];
  for (const [head, start] of tries) {
    const from = Math.max(head, start);
    const elided = from <= head + 3 ? text : `${text.slice(0, head)} … ${text.slice(from)}`;
    if (elided.length - text.length + at + length <= room || head === indent) return elided;
  }
  return text;
}

/**
 * Where `names` occur as whole identifiers in `text`: sorted, non-overlapping
 * [start, end) ranges (for marking the pinned tile in the IR source).
 */
export function mentionRanges(text, names) {
  const ranges = [];
  const isIdent = (c) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  for (const name of names) {
    if (!name) continue;
    let from = 0;
    for (;;) {
      const at = text.indexOf(name, from);
      if (at < 0) break;
      if (!isIdent(text[at - 1]) && !isIdent(text[at + name.length])) ranges.push([at, at + name.length]);
      from = at + name.length;
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return ranges.filter((r, i) => i === 0 || r[0] >= ranges[i - 1][1]);
}

/** A box's use lines inside its lifetime as runs of consecutive lines:
 * [[first, last], ...] (a tile read on every line is one run). */
export function useRuns(box) {
  const runs = [];
  for (const line of box.uses ?? []) {
    if (line < box.start || line > box.end) continue;
    const last = runs.at(-1);
    if (last && line === last[1] + 1) last[1] = line;
    else runs.push([line, line]);
  }
  return runs;
}

/** Runs drawn by one tick strip: a box with more gets one strip per
 * chunk, drawn only when in view (a background layer per run). */
export const TICK_CHUNK = 128;

/**
 * A tick strip for `runs`, as CSS background layers: one bar per run,
 * `height` px thick on a single line, centred on its rows, measured from
 * line `top`. Returns { image, position, size }.
 */
export function tickLayers(runs, top, rowHeight = ROW_HEIGHT, height = 2) {
  const bar = 'linear-gradient(currentColor, currentColor)';
  return {
    image: runs.map(() => bar).join(', '),
    position: runs.map(([first]) => `0 ${(first - top) * rowHeight + (rowHeight - height) / 2}px`).join(', '),
    size: runs.map(([first, last]) => `100% ${(last - first) * rowHeight + height}px`).join(', '),
  };
}

/** "cross-core ring, 4 × 8 KB": what a reserved window holds, from its slots. */
export function windowKind(window) {
  if (window.kind === 'pinned') {
    return window.slot_size && window.slot_num ? `pinned allocation, ${window.slot_num} × ${formatBytes(window.slot_size)}` : 'pinned allocation';
  }
  if (window.slot_size && window.slot_num) return `cross-core ring, ${window.slot_num} × ${formatBytes(window.slot_size)}`;
  if (window.slot_size) return `cross-core ring, slots of ${formatBytes(window.slot_size)}`;
  return 'reserved window';
}

/** Which slot of its allocation a box holds, as text: `slot 1 of 2`, or
 * for a runtime index `any of 2 slots (i % 2)`; null for a box without. */
export function slotText(box) {
  const slots = box.slots;
  if (!slots) return null;
  if (slots.runtime) return `any of ${slots.count} slots of ${formatBytes(slots.size)} (index ${slots.index})`;
  return slots.index === null ? `${slots.count} slots of ${formatBytes(slots.size)}` : `slot ${slots.index} of ${slots.count}, ${formatBytes(slots.size)} each`;
}
