// A build's overview: every case × function × space of a dropped
// build_output/ folder in one table, least headroom first (the core's
// rows, docs/model.md §16), sortable by any column and filtered by case,
// function type and space; a row opens its case's map. mergeCases,
// sortOverview and filterOverview are pure (tested in Node);
// overviewElement draws them.
import { el, identifier } from '../base/dom.js';
import { formatBytes, usage } from '../model/layout.js';

/** Rows drawn at first, and added by each "Show more": a build of
 * thousands of rows took a second to lay out whole, and a sort or filter
 * as long again; its filters and sorting find any row. */
export const OVERVIEW_PAGE_ROWS = 300;

/** The columns: the row's key, its heading, whether it sorts as a number. */
export const OVERVIEW_COLUMNS = [
  ['case', 'case', false], ['backend', 'backend', false], ['function', 'function', false], ['ftype', 'type', false],
  ['space', 'space', false], ['hwm_with_reserved', 'high-water mark', true], ['limit', 'capacity', true], ['usage', 'usage', true],
  ['headroom', 'headroom', true], ['peak_live', 'peak live', true], ['fragmentation', 'frag\u00admentation', true],
  ['problems', 'conflicts', true], ['unplaced', 'unplaced', true],
];

/**
 * The build from each case's build JSON (analyzeCaseJson), in case order:
 * { cases, rows, problems }; each row gains `caseIndex`, `backend`,
 * `usage` (a fraction; null without a capacity) and `problems`
 * (conflicts and tiles over capacity). Rows are in the core's order: least
 * headroom first, rows without a capacity last, then case, function and
 * space (each case's rows come from the core in that order).
 */
export function mergeCases(results) {
  const cases = results.flatMap((r) => r.cases);
  const rows = results.flatMap((r, caseIndex) => r.rows.map((row) => ({
    ...row,
    caseIndex,
    backend: r.cases[0].backend,
    usage: row.headroom === null ? null : row.limit > 0 ? row.hwm_with_reserved / row.limit : 0,
    problems: row.conflicts + row.over_capacity,
  })));
  return { cases, rows: sortOverview(rows, 'headroom', false), problems: results.flatMap((r) => r.problems) };
}

const compareText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** `rows` ordered by `key`, ascending unless `descending`; rows without a
 * figure (headroom, usage without a capacity) last either way; equal
 * keys keep their order. */
export function sortOverview(rows, key, descending) {
  const numeric = OVERVIEW_COLUMNS.find(([k]) => k === key)?.[2] ?? false;
  const sign = descending ? -1 : 1;
  const order = (a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === null || y === null) return (x === null) - (y === null);
    return sign * (numeric ? x - y : compareText(String(x), String(y)));
  };
  return rows.map((row, i) => ({ row, i })).sort((a, b) => order(a.row, b.row) || a.i - b.i).map(({ row }) => row);
}

/** The rows a filter keeps: `text` in the case's or the function's name
 * (any case), `ftype` and `space` exactly ('' keeps all). */
export function filterOverview(rows, { text = '', ftype = '', space = '' } = {}) {
  const needle = text.trim().toLowerCase();
  return rows.filter((r) => (!needle || r.case.toLowerCase().includes(needle) || r.function.toLowerCase().includes(needle)) &&
    (!ftype || r.ftype === ftype) && (!space || r.space === space));
}

/** A row's cells as the table shows them: a case placed by ptoas (no
 * dump holds its addresses) shows the least any placement needs, `≥ N`,
 * and no fragmentation. */
export function overviewCells(row) {
  const pct = row.usage === null ? '–' : usage(row).percent;
  const least = row.at_least ? '≥ ' : '';
  return [row.case, row.backend ?? '–', row.function, row.ftype, row.space, least + formatBytes(row.hwm_with_reserved),
    row.headroom === null ? '–' : formatBytes(row.limit), pct, row.headroom === null ? '–' : formatBytes(row.headroom),
    least + formatBytes(row.peak_live), row.at_least ? '–' : formatBytes(row.fragmentation), String(row.problems), String(row.unplaced)];
}

/** What a row's title says of it: placed by ptoas, the least it needs. */
export const rowTitle = (row) => (row.at_least
  ? `placed by ptoas: needs at least ${formatBytes(row.hwm_with_reserved)}${row.headroom === null ? '' : ` of ${formatBytes(row.limit)}`} (no dump holds its addresses)`
  : null);

const distinct = (rows, key) => [...new Set(rows.map((r) => r[key]))].sort(compareText);

const select = (label, values, onchange) => el('select', { 'aria-label': label, onchange },
  el('option', { value: '' }, `every ${label}`), values.map((v) => el('option', { value: v }, v)));

/**
 * The overview of `build` (mergeCases): filters, a count, the table (a
 * heading sorts by its column, again the other way), and the cases not
 * read. `onOpen(caseName, functionName)` opens a row's case.
 */
export function overviewElement(build, { onOpen }) {
  const state = { key: 'headroom', descending: false, filter: { text: '', ftype: '', space: '' }, limit: OVERVIEW_PAGE_ROWS };
  const body = el('tbody');
  const count = el('span', { class: 'overview-count', role: 'status' });
  const more = el('button', { type: 'button', class: 'overview-more', onclick: () => showMore(OVERVIEW_PAGE_ROWS) });
  const all = el('button', { type: 'button', class: 'overview-more', onclick: () => showMore(Infinity) });
  const moreBar = el('div', { class: 'overview-more-bar' }, more, all);
  const heads = OVERVIEW_COLUMNS.map(([key, name, numeric]) => el('th', { scope: 'col', class: numeric ? 'num' : null,
    'aria-sort': key === state.key ? 'ascending' : 'none' }, el('button', { class: 'sort', onclick: () => sortBy(key) }, name)));
  // Red as its pill would be: a problem in it, or usage from 95.0 %.
  const rowClass = (row) => [row.problems + row.unplaced > 0 ? 'conflict' : '', usage(row).alert ? 'alert' : '', row.at_least ? 'least' : '']
    .filter(Boolean).join(' ') || null;
  const rowNode = (row) => el('tr', { class: rowClass(row), title: rowTitle(row), dataset: { case: row.case } },
    overviewCells(row).map((text, c) => el('td', { class: OVERVIEW_COLUMNS[c][2] ? 'num' : null },
      c === 2 ? el('button', { class: 'link', title: `Open ${row.case}'s map at ${row.function}`, onclick: () => onOpen(row.case, row.function) }, identifier(text))
        : c === 0 ? el('button', { class: 'link', title: `Open ${row.case}'s map`, onclick: () => onOpen(row.case, null) }, identifier(text))
          : text)));
  const draw = () => {
    const shown = sortOverview(filterOverview(build.rows, state.filter), state.key, state.descending);
    const drawn = shown.slice(0, state.limit);
    body.replaceChildren(...drawn.map(rowNode));
    const rest = shown.length - drawn.length;
    count.textContent = `${shown.length} of ${build.rows.length} rows${rest ? `, the first ${drawn.length} shown` : ''}`;
    moreBar.hidden = rest === 0;
    more.textContent = `Show ${Math.min(rest, OVERVIEW_PAGE_ROWS)} more`;
    more.hidden = rest <= OVERVIEW_PAGE_ROWS;
    all.textContent = `Show all ${shown.length} rows`;
  };
  const showMore = (rows) => {
    state.limit += rows;
    draw();
  };
  const sortBy = (key) => {
    state.descending = state.key === key && !state.descending;
    state.key = key;
    heads.forEach((h, c) => h.setAttribute('aria-sort', OVERVIEW_COLUMNS[c][0] !== key ? 'none' : state.descending ? 'descending' : 'ascending'));
    draw();
  };
  const filter = (name) => (event) => {
    state.filter[name] = event.target.value;
    draw();
  };
  const unread = build.cases.filter((c) => c.error);
  const empty = build.cases.filter((c) => c.nothing_on_chip);
  const read = build.cases.length - unread.length;
  const element = el('section', { class: 'overview', 'aria-label': 'Build overview' },
    el('div', { class: 'overview-filters' },
      el('input', { type: 'search', placeholder: 'case or function', 'aria-label': 'Filter by case or function name', oninput: filter('text') }),
      select('type', distinct(build.rows, 'ftype'), filter('ftype')),
      select('space', distinct(build.rows, 'space'), filter('space')),
      count),
    el('div', { class: 'overview-scroll' },
      el('table', { class: 'box-table overview-table' }, el('thead', {}, el('tr', {}, heads)), body), moreBar),
    unread.length ? el('div', { class: 'overview-unread', role: 'note' },
      el('strong', {}, `Not read: ${unread.length} of ${build.cases.length} cases`),
      el('ul', {}, unread.map((c) => el('li', {}, `${c.name}: ${c.dump}${c.error.line ? `:${c.error.line}` : ''}: ${c.error.message}`)))) : null,
    empty.length ? el('div', { class: 'overview-empty', role: 'note' },
      el('strong', {}, `Nothing on chip: ${empty.length} of ${build.cases.length} cases`),
      el('ul', {}, empty.map((c) => el('li', {}, `${c.name}: ${c.nothing_on_chip}`)))) : null);
  element.dataset.cases = String(read);
  draw();
  return element;
}
