// Reading the core's comparison of two dumps (docs/model.md §15) for the
// compare view: counterparts, what changed of each tile, the figures of the
// summary and the pills. Pure functions (no DOM), tested in Node.
import { byteRange, formatBytes } from './layout.js';

/** Counterparts and changes of one function's boxes, by box index on
 * each side: { toOld, toNew, oldChange, newChange } (Maps). */
export function boxIndex(fnDiff) {
  const toOld = new Map();
  const toNew = new Map();
  for (const [o, n] of fnDiff.pairs) {
    toOld.set(n, o);
    if (!toNew.has(o)) toNew.set(o, n);
  }
  const oldChange = new Map();
  const newChange = new Map();
  for (const t of fnDiff.tiles) {
    if (t.new_box !== null) newChange.set(t.new_box, t);
    if (t.old_box !== null && !oldChange.has(t.old_box)) oldChange.set(t.old_box, t);
  }
  return { toOld, toNew, oldChange, newChange };
}

/** The classes a changed box gets on `side` ('old' or 'new'). */
export function changeClasses(tile, side) {
  if (!tile) return [];
  const classes = tile.changes.map((c) => `diff-${c}`);
  if (side === 'old' && tile.new_box !== null && tile.changes.some((c) => c === 'moved' || c === 'resized')) classes.push('diff-was');
  return classes;
}

const placeText = (b) => `${b.space} ${b.base} ${byteRange(b.offset, b.size)}`;
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One note per change of a tile, for its tooltip. */
export function changeNotes(tile) {
  if (!tile) return [];
  const { old: was, new: now } = tile;
  const notes = [];
  for (const change of tile.changes) {
    if (change === 'added') notes.push('added: not in the old dump');
    else if (change === 'removed') notes.push('removed: not in the new dump');
    else if (change === 'moved') notes.push(`moved: ${placeText(was)} → ${placeText(now)}`);
    else if (change === 'resized') notes.push(`resized: ${formatBytes(was.size)} → ${formatBytes(now.size)} (${signedBytes(now.size - was.size)})`);
    else notes.push(`live ${change}: ${plural(was.statements, 'statement')} → ${plural(now.statements, 'statement')}`);
  }
  if (was && now && was.name !== now.name) notes.push(`was ${was.name} in the old dump`);
  return notes;
}

/** "+8 KB", "−512 B", "0 B". */
export function signedBytes(n) {
  if (n === 0) return '0 B';
  return `${n > 0 ? '+' : '−'}${formatBytes(Math.abs(n))}`;
}

/** A side's high-water mark of a space (reserved windows included); 0
 * where the space is absent. */
const hwmOf = (usage) => (usage ? usage.hwm_with_reserved : 0);

/** A space's high-water mark old → new: its texts and whether it grew. */
export function hwmChange(spaceDiff) {
  const before = hwmOf(spaceDiff.old);
  const after = hwmOf(spaceDiff.new);
  const change = after - before;
  const percent = before > 0 && change ? ` (${change > 0 ? '+' : '−'}${(Math.abs(change) / before * 100).toFixed(1)}%)` : '';
  return {
    before, after, change,
    level: change > 0 ? 'grew' : change < 0 ? 'shrank' : 'same',
    text: spaceDiff.old && spaceDiff.new ? `${formatBytes(before)} → ${formatBytes(after)}` : spaceDiff.old ? `${formatBytes(before)} → none` : `none → ${formatBytes(after)}`,
    changeText: change ? `${signedBytes(change)}${percent}` : 'same',
  };
}

/** A function's anomalies (conflicts, over capacity, tiles not placed)
 * that appeared in the new dump and that went from the old one. */
export function anomalyChange(fnDiff) {
  const appeared = fnDiff.anomalies.filter((a) => a.change === 'appeared').length;
  return { appeared, gone: fnDiff.anomalies.length - appeared };
}

/** The summary at the top: counts, and per space the largest change of
 * its high-water mark (by size; the first function when equal). */
export function compareSummary(diff) {
  const largest = new Map();
  for (const fn of diff.functions) {
    for (const s of fn.spaces) {
      const change = hwmOf(s.new) - hwmOf(s.old); // not hwmChange: its texts for thousands of spaces cost a frame's share
      const best = largest.get(s.space);
      if (change !== 0 && (!best || Math.abs(change) > Math.abs(best.change))) largest.set(s.space, { space: s.space, fn: fn.name, change });
    }
  }
  return { counts: diff.counts, regressions: diff.regressions, largest: [...largest.values()] };
}

/** What N steps through in the compare view: every changed tile and every
 * anomaly that appeared or went, in function order; each { fn (index in
 * diff.functions), side, box, label }. */
export function changeStops(diff) {
  const stops = [];
  diff.functions.forEach((fn, f) => {
    for (const t of fn.tiles) {
      const side = t.new_box !== null ? 'new' : 'old';
      stops.push({ fn: f, side, box: side === 'new' ? t.new_box : t.old_box, label: `${fn.name}: ${t.name} ${t.changes.join(', ')}` });
    }
    for (const a of fn.anomalies) {
      if (a.box === null) continue;
      const side = a.change === 'appeared' ? 'new' : 'old';
      stops.push({ fn: f, side, box: a.box, label: `${fn.name}: ${a.kind.replaceAll('_', ' ')} ${a.change}` });
    }
  });
  return stops;
}

/** The functions the filter shows: all, or those not unchanged. */
export const shownFunctions = (diff, filter) => diff.functions
  .map((fn, index) => ({ fn, index }))
  .filter(({ fn }) => filter === 'all' || fn.status !== 'unchanged');

/**
 * What the comparison calls its two sides, never the same: their names;
 * for one name, the shortest path suffix that differs (`v1/passes_dump/x.py`)
 * when both paths are known, else the name with what tells the files apart
 * (size in KB, then time modified), else `(old)` and `(new)`. Each side is
 * { name, path?, size?, modified? }; returns [old, new].
 */
export function sideLabels(old, neu) {
  if (old.name !== neu.name) return [old.name, neu.name];
  const parts = [old, neu].map((s) => (s.path ?? '').split('/').filter(Boolean));
  if (parts.every((p) => p.length)) {
    for (let k = 2; k <= Math.max(parts[0].length, parts[1].length); k++) {
      const [a, b] = parts.map((p) => p.slice(-k).join('/'));
      if (a !== b) return [a, b];
    }
  }
  const tellApart = [(s) => s.size != null && formatBytes(s.size), (s) => s.modified != null && new Date(s.modified).toLocaleString()];
  for (const detail of tellApart) {
    const [a, b] = [old, neu].map(detail);
    if (a && b && a !== b) return [`${old.name} (${a})`, `${neu.name} (${b})`];
  }
  return [`${old.name} (old)`, `${old.name} (new)`];
}
/** The spaces of a function's comparison where something changed: its
 * high-water mark, peak or capacity, or a tile on either side. */
export function changedSpaces(fnDiff) {
  const changed = new Set(fnDiff.spaces.filter((s) => s.changed).map((s) => s.space));
  for (const tile of fnDiff.tiles ?? []) for (const side of [tile.old, tile.new]) if (side) changed.add(side.space);
  return changed;
}
