// Reading the model: what is live on a line, the anomalies in order, tile
// search and the live-profile steps in view. Pure functions over the model's
// JSON (the figures themselves come from the core), testable in Node.

/** How many steps of a profile ([[line, bytes], ...]) start on or before `line`. */
function stepsUpTo(steps, line) {
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid][0] <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The live bytes of a step profile on `line`. */
export function stepValue(steps, line) {
  const n = stepsUpTo(steps, line);
  return n ? steps[n - 1][1] : 0;
}

/** The steps of a profile that cover some of lines [first, last], as an
 * index range [from, to). */
export function stepsBetween(steps, first, last) {
  return [Math.max(0, stepsUpTo(steps, first) - 1), stepsUpTo(steps, last)];
}

const bySizeThenIndex = (a, b) => b.box.size - a.box.size || a.index - b.index;

/**
 * A card's lanes: model.md's spaces and the spaces holding reserved
 * windows only, in the core's space order (its `rank`).
 */
export function cardSpaces(fn) {
  return [...fn.spaces, ...(fn.reserved_only_spaces ?? [])].sort((a, b) => a.rank - b.rank);
}

/** The reserved windows drawn in `space` (placed ones): [{ index, window }]. */
export function placedWindows(fn, space) {
  return (fn.reserved ?? []).map((window, index) => ({ index, window }))
    .filter(({ window }) => window.placed && window.space === space);
}

/** The high-water mark a space's figures use: with its reserved windows. */
export const spaceHwm = (space) => space.hwm_with_reserved ?? space.hwm;

/**
 * The largest run of bytes in [0, limit) that no [lo, hi) of `taken`
 * covers: { offset, size }, or null when none is free. The first when
 * equal.
 */
export function largestGap(taken, limit) {
  const sorted = taken.filter(([lo, hi]) => hi > lo).sort((a, b) => a[0] - b[0]);
  let best = null;
  let reach = 0;
  const consider = (offset, end) => {
    if (end > offset && (!best || end - offset > best.size)) best = { offset, size: end - offset };
  };
  for (const [lo, hi] of sorted) {
    consider(reach, Math.min(lo, limit));
    reach = Math.max(reach, hi);
  }
  consider(reach, limit);
  return best;
}

/**
 * Every box live on `line`, grouped by space in the card's space order:
 * [{ space, bytes, tiles: [{ index, box }], windows: [{ index, window }],
 * gap }] with tiles largest first, `bytes` the space's live bytes there
 * (views counted once, windows included) and `gap` the largest free run
 * of bytes below the capacity on that line (where a new tile could go).
 */
export function liveAt(fn, line) {
  const groups = new Map(cardSpaces(fn).map((s) => [s.space, {
    space: s.space, bytes: stepValue(s.live ?? [], line), tiles: [], windows: placedWindows(fn, s.space), limit: s.limit,
  }]));
  fn.boxes.forEach((box, index) => {
    if (box.start <= line && line <= box.end) groups.get(box.space)?.tiles.push({ index, box });
  });
  const spaces = [...groups.values()].filter((g) => g.tiles.length || g.windows.length);
  for (const g of spaces) {
    g.tiles.sort(bySizeThenIndex);
    const taken = [...g.tiles.map(({ box }) => [box.offset, box.offset + box.size]),
      ...g.windows.map(({ window }) => [window.base, window.base + window.size])];
    g.gap = largestGap(taken, g.limit);
  }
  return spaces;
}

/** The boxes of a space's peak composition, as { index, box }, largest first. */
export function peakTiles(fn, space) {
  return (space.peak_boxes ?? []).map((index) => ({ index, box: fn.boxes[index] }));
}

/** The reserved windows live at a space's peak, as { index, window }. */
export function peakWindows(fn, space) {
  return (space.peak_reserved ?? []).map((index) => ({ index, window: fn.reserved[index] }));
}

/** The boxes held longest without a use, by bytes × idle lines, most
 * first: [{ index, box }], at most `count`. */
export function idleHolds(fn, count = 8) {
  return fn.boxes.map((box, index) => ({ index, box }))
    .filter(({ box }) => box.idle_bytes_lines > 0)
    .sort((a, b) => b.box.idle_bytes_lines - a.box.idle_bytes_lines || a.index - b.index)
    .slice(0, count);
}

/** A box sharing bytes with another base or a reserved window while live. */
export const inConflict = (box) => box.conflict || (box.window_conflicts?.length ?? 0) > 0;

/** Conflicts and tiles over capacity across the model, in reading order:
 * function, then line, then position. [{ fn, index, kinds: [...] }], or
 * { fn, window, kinds } for a reserved window over capacity or sharing
 * another window's bytes (a window sharing a tile's is the tile's). */
export function anomalyList(model) {
  const list = [];
  model.functions.forEach((fn, f) => {
    const found = [];
    fn.boxes.forEach((box, index) => {
      const kinds = [inConflict(box) && 'conflict', box.over_capacity && 'over capacity'].filter(Boolean);
      if (kinds.length) found.push({ fn: f, index, kinds, start: box.start });
    });
    (fn.reserved ?? []).forEach((window, w) => {
      const kinds = [window.overlaps_reserved !== undefined && 'conflict', window.over_capacity && 'over capacity'].filter(Boolean);
      if (kinds.length) found.push({ fn: f, window: w, index: -1, kinds, start: window.line });
    });
    found.sort((a, b) => a.start - b.start || a.index - b.index);
    list.push(...found);
  });
  return list;
}

/** Counts for a card header: { conflicts, over }. */
export function anomalyCounts(fn) {
  let conflicts = 0;
  let over = 0;
  for (const box of fn.boxes) {
    if (inConflict(box)) conflicts++;
    if (box.over_capacity) over++;
  }
  for (const window of fn.reserved ?? []) {
    if (window.overlaps_reserved !== undefined) conflicts++;
    if (window.over_capacity) over++;
  }
  return { conflicts, over };
}

/** The next position in a cycle of `count` items from `current` (-1 for
 * none yet), going `direction` (+1 or -1), wrapping around. */
export function cycle(current, count, direction) {
  if (!count) return -1;
  if (current < 0) return direction > 0 ? 0 : count - 1;
  return (current + direction + count) % count;
}

/**
 * A tile-name test from the search field: `/re/flags` is a regular
 * expression, anything else a case-insensitive substring. Returns
 * { test(box) } (a box matches by its name or any alias), { error } for a
 * bad expression, or null for an empty query.
 */
export function tileMatcher(query) {
  const text = query.trim();
  if (!text) return null;
  const regex = /^\/(.+)\/([a-z]*)$/.exec(text);
  let matches;
  if (regex) {
    let re;
    try {
      re = new RegExp(regex[1], regex[2].replace(/[gy]/g, ''));
    } catch (error) {
      return { error: error.message };
    }
    matches = (name) => re.test(name);
  } else {
    const needle = text.toLowerCase();
    matches = (name) => name.toLowerCase().includes(needle);
  }
  return { test: (box) => matches(box.name) || box.aliases.some(matches) };
}

/** Every box matching `matcher` across the model, in card order then line. */
export function searchModel(model, matcher) {
  const hits = [];
  model.functions.forEach((fn, f) => {
    const found = [];
    fn.boxes.forEach((box, index) => {
      if (matcher.test(box)) found.push({ fn: f, index, start: box.start });
    });
    found.sort((a, b) => a.start - b.start || a.index - b.index);
    hits.push(...found);
  });
  return hits;
}
