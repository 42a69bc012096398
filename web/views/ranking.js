// One dump's spaces, least headroom first: the core's `by_headroom` (the
// order a build's overview takes, docs/model.md §14) as a table above the
// cards, closed until asked for; a row opens its function on that space's
// peak. rankingRows is pure (tested in Node); rankingElement draws it.
import { el, identifier } from '../base/dom.js';
import { formatBytes, usage } from '../model/layout.js';

/** Rows drawn at first, then all: a dump of thousands of functions has
 * tens of thousands of spaces. */
export const RANKING_ROWS = 100;

/** The model's spaces in the core's order, each as the table shows it:
 * a function drawn by lifetime gives the least it needs (`least`). */
export function rankingRows(model) {
  return (model.by_headroom ?? []).flatMap(([f, name]) => {
    const fn = model.functions[f];
    const space = [...fn.spaces, ...(fn.reserved_only_spaces ?? [])].find((s) => s.space === name);
    if (!space) return [];
    const least = space.lower_bound != null;
    const mark = least ? space.lower_bound : space.hwm_with_reserved;
    const headroom = least ? space.headroom_above_lower_bound : space.headroom;
    return [{
      function: fn.name, ftype: fn.ftype, space: name, least, mark, limit: space.limit, percent: usage(space).percent,
      level: usage(space).level, headroom: headroom ?? null, peak: least ? space.lower_bound : space.peak_live,
      fragmentation: least ? null : space.fragmentation,
    }];
  });
}

const HEADS = [['function', false], ['type', false], ['space', false], ['high-water mark', true], ['capacity', true],
  ['usage', true], ['headroom', true], ['peak live', true], ['fragmentation', true]];

function rowNode(row, onOpen) {
  const least = row.least ? '≥ ' : '';
  const cells = [
    el('button', { class: 'link', title: `Open ${row.function} on its ${row.space} peak`, onclick: () => onOpen(row.function, row.space) }, identifier(row.function)),
    row.ftype, row.space, least + formatBytes(row.mark), row.headroom === null ? '–' : formatBytes(row.limit), least + row.percent,
    row.headroom === null ? '–' : `${row.least ? '≤ ' : ''}${formatBytes(row.headroom)}`, least + formatBytes(row.peak),
    row.fragmentation === null ? '–' : formatBytes(row.fragmentation),
  ];
  return el('tr', { class: row.level === 'alert' ? 'alert' : null, dataset: { function: row.function, space: row.space } },
    cells.map((cell, c) => el('td', { class: HEADS[c][1] ? 'num' : null }, cell)));
}

/**
 * The ranking of `model` as a closed <details> above the cards; its
 * table is made when first opened. `onOpen(function, space)` shows a
 * row's function on that space's peak. Null for a dump of one function.
 */
export function rankingElement(model, { onOpen }) {
  if (model.functions.length < 2 || !model.by_headroom?.length) return null;
  const count = model.by_headroom.length;
  const details = el('details', { class: 'ranking' },
    el('summary', {}, `Every space of the ${model.functions.length} functions, least headroom first (${count} rows)`));
  details.addEventListener('toggle', () => {
    if (!details.open || details.querySelector('table')) return;
    const rows = rankingRows(model);
    const body = el('tbody', {}, rows.slice(0, RANKING_ROWS).map((r) => rowNode(r, onOpen)));
    const all = rows.length > RANKING_ROWS ? el('button', { type: 'button', class: 'ranking-all',
      onclick: () => { body.replaceChildren(...rows.map((r) => rowNode(r, onOpen))); all.remove(); } }, `Show all ${rows.length} rows`) : null;
    details.append(el('div', { class: 'ranking-scroll' },
      el('table', { class: 'box-table ranking-table' }, el('thead', {}, el('tr', {}, HEADS.map(([name, num]) => el('th', { scope: 'col', class: num ? 'num' : null }, name)))), body)),
    all);
  });
  return details;
}
