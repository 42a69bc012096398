// Deep links: the view state kept in the URL hash, and the `?dump=` source
// of a hosted page. Pure functions (no DOM), testable in Node.

import { ZOOM_MAX, ZOOM_MIN } from './layout.js';

/**
 * The hash for a view: `#fn=<function>&file=<dump>&side=old&tile=<name>&line=<n>&zoom=<z>&axis=used&hide=Mat,Left`
 * (`file`: the dump's name, which a fresh tab asks for; `side`: which map
 * of a compare view). Keys with default values are left out; '' when
 * nothing is open.
 */
export function formatLink({ fn, file = null, side = null, tile, line, zoom = 1, axis = 'limit', defaultAxis = 'limit', hidden = [], inCase = null } = {}) {
  if (!fn) return inCase ? buildHash(inCase, null) : '';
  const params = new URLSearchParams(inCase ? { case: inCase, fn } : { fn });
  if (file) params.set('file', file);
  if (side === 'old') params.set('side', 'old');
  if (tile) params.set('tile', tile);
  if (line) params.set('line', String(line));
  if (zoom !== 1) params.set('zoom', String(Math.round(zoom * 1000) / 1000));
  if (axis !== defaultAxis) params.set('axis', axis); // the card's own default is left out
  if (hidden.length) params.set('hide', hidden.join(','));
  return `#${params.toString()}`;
}

/** A build's hash: the case shown (and its function), `#case=<name>&fn=<fn>`. */
export function buildHash(inCase, fn) {
  const params = new URLSearchParams({ case: inCase });
  if (fn) params.set('fn', fn);
  return `#${params.toString()}`;
}

/** The view a hash asks for; unknown or malformed parts are dropped. */
export function parseLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const fn = params.get('fn');
  if (!fn) return null;
  const view = { fn, file: params.get('file') || null, side: params.get('side') === 'old' ? 'old' : 'new', tile: params.get('tile') || null,
    line: null, zoom: 1, axis: null, hidden: [] };
  const line = Number(params.get('line'));
  if (Number.isInteger(line) && line > 0) view.line = line;
  const zoom = Number(params.get('zoom'));
  if (Number.isFinite(zoom) && zoom > 0) view.zoom = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));
  if (['used', 'limit'].includes(params.get('axis'))) view.axis = params.get('axis'); // else the card's default
  view.hidden = (params.get('hide') || '').split(',').filter(Boolean);
  return view;
}

/** What a link opened in a fresh tab, with no dump, asks for: the
 * function's map and what it pins, of the dump it names. */
export function linkWanted(view) {
  const pinned = view.tile ? `, tile ${view.tile} pinned` : view.line ? `, line ${view.line} marked` : '';
  const of = view.file ? ` in ${view.file}` : '';
  return `This link shows ${view.fn}'s map${of}${pinned}. Open ${view.file ? 'that dump' : 'the dump it was copied from'} here ` +
    '(drop it, or Open dump…) and the link\'s view is applied to it.';
}

/**
 * Where `?dump=<relative url>` points, resolved against the page: a URL on
 * the page's own origin, or { error } saying why not. null without `dump`.
 * `?base=` (a dump to compare it with) and `?pto=` are held to the same.
 */
export function dumpSource(search, pageUrl) {
  const params = new URLSearchParams(search);
  const dump = params.get('dump');
  if (!dump) return null;
  // Percent-escapes of bytes that are not UTF-8 decode to U+FFFD.
  if (dump.includes('\uFFFD') || params.get('pto')?.includes('\uFFFD')) {
    return { error: `the link is malformed: ?dump= (or ?pto=) is not a valid percent-encoded path (${search.slice(0, 200)})` };
  }
  const page = new URL(pageUrl);
  let url;
  try {
    url = new URL(dump, page);
  } catch {
    return { error: `?dump=${dump} is not a URL` };
  }
  if (page.protocol === 'file:') return { error: 'a page opened from a file cannot fetch ?dump= (browsers forbid it); serve the page, or drop the dump on it' };
  if (url.origin !== page.origin) return { error: `?dump= must point to this site (${page.origin}), not ${url.origin}` };
  const pto = params.get('pto');
  const ptoUrl = pto ? new URL(pto, page) : null;
  if (ptoUrl && ptoUrl.origin !== page.origin) return { error: `?pto= must point to this site (${page.origin}), not ${ptoUrl.origin}` };
  const name = fileName(url, 'dump');
  if (name === null) return { error: `the link is malformed: ?dump=${dump} is not a valid percent-encoded path` };
  const base = params.get('base');
  if (!base) return { url: url.href, ptoUrl: ptoUrl?.href ?? null, name, base: null };
  if (base.includes('\uFFFD')) return { error: `the link is malformed: ?base= is not a valid percent-encoded path (${search.slice(0, 200)})` };
  let baseUrl;
  try {
    baseUrl = new URL(base, page);
  } catch {
    return { error: `?base=${base} is not a URL` };
  }
  if (baseUrl.origin !== page.origin) return { error: `?base= must point to this site (${page.origin}), not ${baseUrl.origin}` };
  const baseName = fileName(baseUrl, 'base');
  if (baseName === null) return { error: `the link is malformed: ?base=${base} is not a valid percent-encoded path` };
  return { url: url.href, ptoUrl: ptoUrl?.href ?? null, name, base: { url: baseUrl.href, name: baseName } };
}

/** The file name a URL ends in, decoded; null when it cannot be. */
function fileName(url, fallback) {
  try {
    return decodeURIComponent(url.pathname.split('/').pop() || `${fallback}.py`);
  } catch {
    return null;
  }
}

/** `?embed` (one function's map alone, for an iframe in a docs page) and
 * `?theme=light|dark` (the embedding page's theme; else the system's). */
export function embedOptions(search) {
  const params = new URLSearchParams(search);
  const theme = params.get('theme');
  return { embed: params.has('embed'), theme: theme === 'light' || theme === 'dark' ? theme : null };
}

/** The view a page written for a frame carries in place of an address
 * (its memory-map-view element: `?embed&theme=dark#fn=k_proj`, as a URL's
 * query and hash would say it): { search, hash }, each '' when absent. */
export function writtenView(text) {
  const at = (text ?? '').trim();
  const hashAt = at.indexOf('#');
  const search = hashAt < 0 ? at : at.slice(0, hashAt);
  return { search: search.startsWith('?') ? search : '', hash: hashAt < 0 ? '' : at.slice(hashAt) };
}

/** The full page at the view an embedded one shows: its URL without
 * `embed`, the theme and the hash kept. */
export function fullPageUrl(href) {
  const url = new URL(href);
  url.searchParams.delete('embed');
  return url.href;
}
