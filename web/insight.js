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
 * Every box live on `line`, grouped by space in the card's space order:
 * [{ space, bytes, tiles: [{ index, box }] }] with tiles largest first and
 * `bytes` the space's live bytes there (views counted once).
 */
export function liveAt(fn, line) {
  const groups = new Map(fn.spaces.map((s) => [s.space, { space: s.space, bytes: stepValue(s.live ?? [], line), tiles: [] }]));
  fn.boxes.forEach((box, index) => {
    if (box.start <= line && line <= box.end) groups.get(box.space)?.tiles.push({ index, box });
  });
  const spaces = [...groups.values()].filter((g) => g.tiles.length);
  for (const g of spaces) g.tiles.sort(bySizeThenIndex);
  return spaces;
}

/** The boxes of a space's peak composition, as { index, box }, largest first. */
export function peakTiles(fn, space) {
  return (space.peak_boxes ?? []).map((index) => ({ index, box: fn.boxes[index] }));
}

/** Conflicts and tiles over capacity across the model, in reading order:
 * function, then line, then position. [{ fn, index, kinds: [...] }] */
export function anomalyList(model) {
  const list = [];
  model.functions.forEach((fn, f) => {
    const found = [];
    fn.boxes.forEach((box, index) => {
      const kinds = [box.conflict && 'conflict', box.over_capacity && 'over capacity'].filter(Boolean);
      if (kinds.length) found.push({ fn: f, index, kinds, start: box.start });
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
    if (box.conflict) conflicts++;
    if (box.over_capacity) over++;
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
