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

/** How the page names each of the core's anomaly kinds, and which of its
 * fields names the partner; notes ("more") and a space drawn by lifetime
 * that no placement fits ("needs_more", which its pill says) are not
 * listed one by one. */
const PROBLEM_OF = {
  conflict: (a) => ({ index: a.box, partner: a.other, kinds: ['conflict'] }),
  over_capacity: (a) => ({ index: a.box, kinds: ['over capacity'] }),
  window_conflict: (a) => ({ index: a.box, window: a.other, kinds: ['conflict'] }),
  window_overlap: (a) => ({ index: -1, window: a.other, kinds: ['conflict'] }),
  window_over_capacity: (a) => ({ index: -1, window: a.other, kinds: ['over capacity'] }),
  unplaced_tile: (a) => ({ index: -1, skipped: a.other, kinds: ['not placed'] }),
};

/**
 * The problems of one function, as the core lists them for `--check`
 * (its `anomalies`): each conflicting pair once, a tile sharing a
 * reserved window's bytes, a window sharing another's, a tile or window
 * over capacity, a tile not placed. In line order:
 * [{ index (a box, -1 for a window or tile alone), partner?, window?,
 * skipped?, kinds, start }].
 */
export function functionProblems(fn) {
  return (fn.anomalies ?? []).filter((a) => PROBLEM_OF[a.kind])
    .map((a) => ({ ...PROBLEM_OF[a.kind](a), start: a.line }))
    .sort((a, b) => a.start - b.start || a.index - b.index);
}

/** Every function's problems (functionProblems), in card order: the count
 * `--check` gives, each with its function `fn`. */
export function anomalyList(model) {
  return model.functions.flatMap((fn, f) => functionProblems(fn).map((p) => ({ fn: f, ...p })));
}

/** Counts for a card header: { conflicts (pairs), over, unplaced }. */
export function anomalyCounts(fn) {
  let conflicts = 0;
  let over = 0;
  for (const p of functionProblems(fn)) {
    if (p.kinds[0] === 'conflict') conflicts++;
    else if (p.kinds[0] === 'over capacity') over++;
  }
  return { conflicts, over, unplaced: fn.skipped?.length ?? 0 };
}

/** The boxes and windows `box` shares bytes with while both are live, as
 * the core listed them: { boxes: [index], windows: [index], more } (more:
 * how many it did not list). */
export function conflictPartners(box) {
  const boxes = box.conflicts_with ?? [];
  const windows = box.window_conflicts ?? [];
  const more = (box.conflict_count ?? boxes.length) - boxes.length + (box.window_conflict_count ?? windows.length) - windows.length;
  return { boxes, windows, more };
}

/**
 * The box the arrow `key` moves to from box `from` of `fn` (the map as
 * one Tab stop), skipping spaces in `hidden`; -1 when there is none.
 * ↓/↑: the next/previous tile in time, in the same space when there is
 * one (the nearest address first); →/←: the next/previous by address
 * among the tiles live on `from`'s first line, across lanes, else in the
 * map's order; Home/End: the first/last tile.
 */
export function neighbourBox(fn, from, key, hidden = new Set()) {
  const shown = [];
  fn.boxes.forEach((box, index) => { if (!hidden.has(box.space)) shown.push(index); });
  if (!shown.length) return -1;
  if (key === 'Home') return shown[0];
  if (key === 'End') return shown[shown.length - 1];
  const cur = fn.boxes[from];
  if (key === 'ArrowDown' || key === 'ArrowUp') {
    const down = key === 'ArrowDown';
    const later = (i) => {
      const b = fn.boxes[i];
      return down ? b.start > cur.start || (b.start === cur.start && i > from) : b.start < cur.start || (b.start === cur.start && i < from);
    };
    const better = (i, j) => {
      const a = fn.boxes[i];
      const b = fn.boxes[j];
      if (a.start !== b.start) return down ? a.start < b.start : a.start > b.start;
      const da = Math.abs(a.offset - cur.offset);
      const db = Math.abs(b.offset - cur.offset);
      return da !== db ? da < db : down ? i < j : i > j;
    };
    const pick = (list) => list.reduce((best, i) => (best < 0 || better(i, best) ? i : best), -1);
    const candidates = shown.filter(later);
    const same = pick(candidates.filter((i) => fn.boxes[i].space === cur.space));
    return same >= 0 ? same : pick(candidates);
  }
  if (key === 'ArrowRight' || key === 'ArrowLeft') {
    const step = key === 'ArrowRight' ? 1 : -1;
    const slice = shown.filter((i) => fn.boxes[i].start <= cur.start && cur.start <= fn.boxes[i].end);
    const at = slice.indexOf(from); // boxes are in lane order, then by address
    if (at >= 0 && slice[at + step] !== undefined) return slice[at + step];
    const next = shown[shown.indexOf(from) + step];
    return next === undefined ? -1 : next;
  }
  return -1;
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
 * { test(box), testName(name), testEntry(entry of searchIndex) } (a box
 * matches by its name or any alias), { error } for a bad expression, or
 * null for an empty query.
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
    return { test: (box) => matches(box.name) || box.aliases.some(matches), testName: matches, testEntry: ({ names }) => names.some(matches) };
  }
  const needle = text.toLowerCase();
  matches = (name) => name.toLowerCase().includes(needle);
  return {
    test: (box) => matches(box.name) || box.aliases.some(matches),
    testName: matches,
    // A search index's entry keeps its names in lower case: one query over
    // tens of thousands of boxes lowers none.
    testEntry: ({ lower }) => lower.some((name) => name.includes(needle)),
  };
}

/** Every function and box matching `matcher` across the model, in card
 * order, a function before its boxes (index -1), boxes by line. Reads
 * `index` (searchIndex) when given: no function's boxes are read. */
export function searchModel(model, matcher, index = searchIndex(model)) {
  const hits = [];
  model.functions.forEach((fn, f) => {
    const found = [];
    // The function itself first: a jump opens its card.
    if (matcher.testName?.(fn.name)) hits.push({ fn: f, index: -1, start: fn.src_start });
    index[f].forEach((entry, box) => {
      if (matcher.testEntry(entry)) found.push({ fn: f, index: box, start: entry.start });
    });
    found.sort((a, b) => a.start - b.start || a.index - b.index);
    hits.push(...found);
  });
  return hits;
}

/** What a search reads of each box, per function: [[{ names (its name,
 * then its aliases), lower (the same in lower case), start }]], from the
 * heads' `names` where the core wrote them (core.js parseSplitModel), else
 * from the boxes. Built once per model: a query is then one pass over it. */
export function searchIndex(model) {
  const entry = (names, start) => ({ names, lower: names.map((n) => n.toLowerCase()), start });
  return model.functions.map((fn) => (typeof fn.names === 'string'
    ? (fn.names ? fn.names.split('\n') : []).map((line) => {
      const [start, ...names] = line.split(' ');
      return entry(names, Number(start));
    })
    : fn.boxes.map((box) => entry([box.name, ...box.aliases], box.start))));
}

/**
 * The core's what-if for `space` of `fn` (space.what_if), as facts: the
 * block moved (the mark's tile and its base's other tiles in the space),
 * from where to where, the mark then and the change. Null without one.
 */
export function whatIf(fn, space) {
  const w = space.what_if;
  if (!w) return null;
  const box = fn.boxes[w.box];
  const block = fn.boxes.filter((b) => b.space === space.space && b.base === box.base && b.size > 0);
  const from = Math.min(...block.map((b) => b.offset));
  const size = Math.max(...block.map((b) => b.offset + b.size)) - from;
  const hwm = space.hwm_with_reserved ?? space.hwm;
  return { box, tiles: block.length, from, to: w.offset, size, hwm, then: w.hwm_with_reserved, change: w.hwm_with_reserved - hwm, fits: w.fits };
}

/** A size as typed: digits, then K, M or G (×1024…; a B or iB after it
 * allowed), or bytes; null when it is not one. */
export function parseSize(text) {
  const m = /^\s*(\d+)\s*(?:([kKmMgG])(?:i?[bB])?|[bB])?\s*$/.exec(text);
  if (!m) return null;
  const size = Number(m[1]) * 1024 ** ({ k: 1, m: 2, g: 3 }[m[2]?.toLowerCase()] ?? 0);
  return Number.isSafeInteger(size) && size > 0 ? size : null;
}
