// The pure halves of the insight features (web/model/insight.js, web/model/link.js):
// live tiles on a line, anomaly order, search, the profile steps in view and the
// deep-link format, on models made by the real core.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { anomalyList, cycle, liveAt, neighbourBox, searchModel, stepsBetween, stepValue, tileMatcher } from '../../web/model/insight.js';
import { dumpSource, embedOptions, formatLink, fullPageUrl, linkWanted, parseLink, writtenView } from '../../web/model/link.js';
import { bodyLine, dumpWith, model, tileType } from '../support/helpers.mjs';

const vec = (name, base, offset, size, value = 'pl.tile.load(x)') => `${name}: ${tileType('Vec', base, offset, size)} = ${value}`;

// a [0,256) lines 8-9, b [256,512) lines 9-13, c [512,1024) lines 10-13.
const gapDump = dumpWith([
  vec('a', 'm1', 0, 256),
  vec('b', 'm2', 256, 256, 'pl.tile.add(a, a)'),
  vec('c', 'm3', 512, 512),
  'g(b)',
  'return b, c',
]);

describe('live tiles on a line', () => {
  test('stepValue reads a step profile', () => {
    const steps = [[8, 256], [9, 512], [10, 768], [14, 0]];
    assert.deepEqual([7, 8, 9, 12, 13, 14, 99].map((l) => stepValue(steps, l)), [0, 256, 512, 768, 768, 0, 0]);
  });

  test('liveAt lists the tiles of each space largest first, with the core\'s live bytes', async () => {
    const m = await model(gapDump);
    const fn = m.functions[0];
    const at = liveAt(fn, bodyLine(2));
    assert.equal(at.length, 1);
    assert.equal(at[0].bytes, 768);
    assert.deepEqual(at[0].tiles.map((t) => t.box.name), ['c', 'b']);
    assert.deepEqual(liveAt(fn, bodyLine(0))[0].tiles.map((t) => t.box.name), ['a']);
    assert.deepEqual(liveAt(fn, 1), []);
  });

  test('stepsBetween picks the steps covering a range of lines', () => {
    const steps = [[8, 256], [9, 512], [10, 768], [14, 0]];
    assert.deepEqual(stepsBetween(steps, 1, 7), [0, 0]);
    assert.deepEqual(stepsBetween(steps, 9, 12), [1, 3]);
    assert.deepEqual(stepsBetween(steps, 12, 20), [2, 4]);
    assert.deepEqual(stepsBetween(steps, 30, 40), [3, 4]);
  });
});

describe('anomalies and search', () => {
  test('anomalies are --check\'s problems: each conflicting pair once, at the line both are live; in card order, then by line', async () => {
    const m = await model(dumpWith([
      vec('late', 'm1', 0, 512, 'f()'), // 8
      `over: ${tileType('Bias', 'm9', 0, 4096)} = f()`, // 9
      vec('clash', 'm2', 256, 512, 'f(late)'), // 10: with late from here
      vec('third', 'm3', 384, 64, 'f(clash, late)'), // 11: with late and clash
    ]));
    const boxes = m.functions[0].boxes;
    const list = anomalyList(m).map((a) => [a.start, boxes[a.index].name, a.partner === undefined ? null : boxes[a.partner].name, a.kinds[0]]);
    assert.equal(list.length, 4, 'one over capacity and three pairs, as --check counts');
    assert.deepEqual(list[0], [9, 'over', null, 'over capacity']);
    assert.deepEqual(list.slice(1).map((p) => `${p[0]}: ${[p[1], p[2]].sort().join('+')}`).sort(),
      ['10: clash+late', '11: clash+third', '11: late+third']);
  });

  test('reserved windows over capacity or sharing bytes are anomalies too, in line order; a tile on a window\'s bytes is the tile\'s', async () => {
    const m = await model(dumpWith([
      vec('t', 'm1', 0, 64), // 8: on ring's bytes
      "ring = pl.system.reserve_buffer(name='ring', size=1024, base=0)", // 9
      "big = pl.system.reserve_buffer(name='big', size=8192, base=184320)", // 10: past 184 KB
      "twin = pl.system.reserve_buffer(name='twin', size=64, base=512)", // 11: inside ring
    ]));
    const list = anomalyList(m);
    assert.deepEqual(list.map((a) => [a.index >= 0 ? m.functions[0].boxes[a.index].name : m.functions[0].reserved[a.window].name, a.kinds]),
      [['t', ['conflict']], ['big', ['over capacity']], ['twin', ['conflict']]]);
  });

  test('arrow keys between tiles: ↓↑ in time (same space first, nearest address), →← across addresses on the line, Home/End', async () => {
    const m = await model(dumpWith([
      vec('a', 'm1', 0, 256), // 8
      vec('b', 'm2', 256, 256, 'f(a)'), // 9
      `c: ${tileType('Mat', 'm3', 0, 64)} = f(b)`, // 10
      vec('d', 'm4', 1024, 64, 'f(c)'), // 11
      vec('e', 'm5', 0, 64, 'f(d)'), // 12
    ]));
    const fn = m.functions[0];
    const at = (name) => fn.boxes.findIndex((b) => b.name === name);
    const go = (name, key, hidden) => fn.boxes[neighbourBox(fn, at(name), key, hidden)]?.name ?? null;
    assert.deepEqual(['ArrowDown', 'ArrowUp'].map((k) => go('b', k)), ['d', 'a']);
    assert.equal(go('d', 'ArrowDown'), 'e', 'same space first');
    assert.equal(go('c', 'ArrowDown'), 'd', 'no later Mat tile: the next in time of any space');
    assert.equal(go('c', 'ArrowUp', new Set(['Vec'])), null, 'hidden spaces are skipped');
    assert.equal(go('c', 'ArrowLeft'), 'b', 'the lower address on line 10, across lanes');
    assert.equal(go('b', 'ArrowLeft'), 'a', 'on line 9');
    assert.equal(go('b', 'ArrowRight'), 'd', 'nothing higher on line 9: the next in the map');
    assert.deepEqual(['Home', 'End'].map((k) => go('c', k)), ['a', 'c']);
  });

  test('cycle wraps both ways and starts at either end', () => {
    assert.deepEqual([cycle(-1, 3, 1), cycle(-1, 3, -1), cycle(2, 3, 1), cycle(0, 3, -1), cycle(-1, 0, 1)], [0, 2, 0, 2, -1]);
  });

  test('a substring matches names and aliases case-insensitively; /regex/ is a regular expression', () => {
    const box = { name: 'acc__tile_1', aliases: ['Other_Name'] };
    assert.equal(tileMatcher('TILE_1').test(box), true);
    assert.equal(tileMatcher('other').test(box), true);
    assert.equal(tileMatcher('/^acc__tile_\\d$/').test(box), true);
    assert.equal(tileMatcher('/^tile/').test(box), false);
    assert.equal(tileMatcher('/other_name/i').test(box), true);
    assert.equal(tileMatcher('   '), null);
    assert.match(tileMatcher('/(/').error, /Invalid regular expression/);
  });

  test('searchModel finds every match across functions', async () => {
    const m = await model(gapDump);
    assert.deepEqual(searchModel(m, tileMatcher('/^[bc]$/')).map((h) => h.index).length, 2);
  });
});

describe('deep links', () => {
  test('a view round-trips through the hash, defaults left out', () => {
    const view = { fn: 'k proj', file: null, side: 'new', tile: 'a<b>', line: 42, zoom: 2.56, axis: 'used', hidden: ['Mat', 'Left'] };
    const hash = formatLink(view);
    assert.equal(hash, '#fn=k+proj&tile=a%3Cb%3E&line=42&zoom=2.56&axis=used&hide=Mat%2CLeft');
    assert.deepEqual(parseLink(hash), view);
    // A dump from disk: the link names it, for a fresh tab to ask for.
    const named = formatLink({ fn: 'f', file: '32_after_AllocateMemoryAddr.py', tile: 't' });
    assert.equal(named, '#fn=f&file=32_after_AllocateMemoryAddr.py&tile=t');
    assert.equal(parseLink(named).file, '32_after_AllocateMemoryAddr.py');
    assert.equal(linkWanted(parseLink(named)),
      'This link shows f\'s map in 32_after_AllocateMemoryAddr.py, tile t pinned. Open that dump here (drop it, or Open dump…) and the link\'s view is applied to it.');
    assert.match(linkWanted(parseLink('#fn=f&line=9')), /^This link shows f's map, line 9 marked\. Open the dump it was copied from here/);
    // A compare view's old map: side=old; the new one is the default.
    assert.equal(formatLink({ fn: 'f', side: 'old', tile: 't' }), '#fn=f&side=old&tile=t');
    assert.equal(parseLink('#fn=f&side=old').side, 'old');
    assert.equal(parseLink('#fn=f&side=sideways').side, 'new');
    assert.equal(formatLink({ fn: 'f', zoom: 1, axis: 'limit', hidden: [] }), '#fn=f');
    assert.equal(formatLink({}), '');
  });

  test('malformed parts are dropped, not trusted', () => {
    assert.deepEqual(parseLink('#fn=f&line=-3&zoom=abc&axis=sideways&hide='),
      { fn: 'f', file: null, side: 'new', tile: null, line: null, zoom: 1, axis: null, hidden: [] });
    // Zoom stays within the buttons' range (0.2x to 64x).
    assert.deepEqual([parseLink('#fn=f&zoom=1e9').zoom, parseLink('#fn=f&zoom=0.001').zoom, parseLink('#fn=f&zoom=-2').zoom], [64, 0.2, 1]);
    assert.equal(parseLink('#zoom=2'), null);
    assert.equal(parseLink(''), null);
  });

  test('?dump= must stay on the page\'s origin', () => {
    const page = 'https://docs.example/memory-map/index.html';
    assert.deepEqual(dumpSource('?dump=cases/32_after_AllocateMemoryAddr.py&pto=cases/a.pto', page), {
      url: 'https://docs.example/memory-map/cases/32_after_AllocateMemoryAddr.py',
      ptoUrl: 'https://docs.example/memory-map/cases/a.pto',
      name: '32_after_AllocateMemoryAddr.py',
      base: null,
    });
    assert.match(dumpSource('?dump=https://evil.example/x.py', page).error, /must point to this site/);
    assert.deepEqual(dumpSource('?dump=cases/41_after_X.py&base=cases/35_after_Y.py', page).base, {
      url: 'https://docs.example/memory-map/cases/35_after_Y.py', name: '35_after_Y.py',
    });
    assert.match(dumpSource('?dump=cases/41.py&base=https://evil.example/35.py', page).error, /\?base= must point to this site/);
    assert.match(dumpSource('?dump=cases/41.py&base=%E0%A4%A', page).error, /\?base= is not a valid percent-encoded path/);
    assert.match(dumpSource('?dump=//evil.example/x.py', page).error, /must point to this site/);
    assert.match(dumpSource('?dump=a.py&pto=https://evil.example/a.pto', page).error, /\?pto= must point/);
    assert.match(dumpSource('?dump=a.py', 'file:///home/u/memory-map.html').error, /serve the page/);
    assert.equal(dumpSource('?x=1', page), null);
    for (const bad of ['?dump=%E0%A4%A', '?dump=%E0%A4', '?dump=a%2.py', '?dump=a.py&pto=%FF.pto', '?dump=%25%zz'])
      assert.match(dumpSource(bad, page).error, /the link is malformed/, bad);
    assert.equal(dumpSource('?dump=caf%C3%A9%20x.py', page).name, 'café x.py');
  });

  test('?embed and ?theme=: one function\'s map for an iframe; its link to the full page drops embed', () => {
    assert.deepEqual(embedOptions('?embed&dump=a.py&theme=dark'), { embed: true, theme: 'dark' });
    assert.deepEqual(embedOptions('?dump=a.py&theme=light'), { embed: false, theme: 'light' });
    assert.deepEqual(embedOptions('?embed=1&theme=purple'), { embed: true, theme: null }); // an unknown theme: the system's
    assert.deepEqual(embedOptions(''), { embed: false, theme: null });
    const full = new URL(fullPageUrl('https://docs.example/mm/index.html?embed&dump=ex/a%20b.py&theme=dark#fn=k_proj&tile=t'));
    assert.equal(full.pathname, '/mm/index.html');
    assert.deepEqual([...full.searchParams], [['dump', 'ex/a b.py'], ['theme', 'dark']]);
    assert.equal(full.hash, '#fn=k_proj&tile=t');
  });

  test('a view written into a page for a frame reads as a URL\'s query and hash would', () => {
    assert.deepEqual(writtenView('?embed&theme=dark#fn=k_proj&tile=t'), { search: '?embed&theme=dark', hash: '#fn=k_proj&tile=t' });
    assert.deepEqual(writtenView(' #fn=k_proj\n'), { search: '', hash: '#fn=k_proj' });
    assert.deepEqual(writtenView('?embed'), { search: '?embed', hash: '' });
    assert.deepEqual(writtenView(''), { search: '', hash: '' });
    assert.deepEqual(writtenView(undefined), { search: '', hash: '' });
    assert.deepEqual(writtenView('embed'), { search: '', hash: '' }); // not a query: ignored
  });
});

