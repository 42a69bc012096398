// Where things go on a card's map (web/model/map-geometry.js), in Node: the
// map's height, where a jump scrolls to, slivers, tick strips, ghosts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { HEADER_HEIGHT, MIN_BOX, ROW_HEIGHT, TICK_CHUNK } from '../../web/model/layout.js';
import {
  HIT_PX, MAP_SHARE, ghostGeometry, isSliver, mapHeight, nearestBox, openingScroll, scrollLeftToShow, scrollTopForLine, scrollTopToShow,
  tickChunksInView,
} from '../../web/model/map-geometry.js';

describe('the map\'s height', () => {
  test('a short function\'s map is as tall as its rows, its header and a margin', () => {
    assert.equal(mapHeight(1000, 56, 10 * ROW_HEIGHT), HEADER_HEIGHT + 10 * ROW_HEIGHT + 16);
  });

  test('a long one takes at most 78 % of the window...', () => {
    assert.equal(mapHeight(1000, 56, 5000 * ROW_HEIGHT), 1000 * MAP_SHARE);
  });

  test('...and leaves room for the top bar and the card\'s header and toolbar', () => {
    // A top bar wrapped onto three rows in a short window.
    assert.equal(mapHeight(600, 200, 5000 * ROW_HEIGHT), 600 - 200 - 110);
  });
});

describe('slivers', () => {
  const lane = { span: 65536, width: 700 };
  test('a tile drawn under 6 px wide is a sliver; one wide enough for its name is not', () => {
    assert.equal(isSliver({ size: 64 }, lane), true); // 0.7 px
    assert.equal(isSliver({ size: 300 }, lane), true); // 3.2 px
    assert.equal(isSliver({ size: 4096 }, lane), false); // 44 px
    assert.equal(isSliver({ size: -8 }, lane), true, 'a negative size draws as nothing');
  });

  test('a tile in no lane drawn (its space hidden) is not a sliver', () => {
    assert.equal(isSliver({ size: 64 }, undefined), false);
  });
});

describe('the box a pointer is on', () => {
  // px on one lane: a wide tile, a view over it, two slivers 1.75 px apart.
  const wide = { index: 0, left: 100, width: 40 };
  const view = { index: 1, left: 110, width: 10 };
  const a = { index: 2, left: 10, width: 1.75 };
  const b = { index: 3, left: 11.75, width: 1.75 };
  test('inside a tile and a view over it: the view; beside the view: the tile', () => {
    assert.equal(nearestBox([wide, view], 115), 1);
    assert.equal(nearestBox([wide, view], 102), 0);
  });
  test('two slivers drawn 2 px wide over each other: the one whose centre is nearer', () => {
    assert.equal(nearestBox([a, b], 11), 2);
    assert.equal(nearestBox([a, b], 12.9), 3);
    assert.equal(nearestBox([b, a], 11), 2, 'not by drawing order');
  });
  test('a sliver is reached within half of HIT_PX of its centre; a wide tile only on itself', () => {
    const solo = { index: 4, left: 50, width: 1 };
    assert.equal(nearestBox([solo], 51 + HIT_PX / 2 - 0.1), 4);
    assert.equal(nearestBox([solo], 51 + HIT_PX / 2 + 0.1), -1);
    assert.equal(nearestBox([wide], 99), -1);
  });
  test('the tile the pointer is on beats a sliver reaching over it', () => {
    assert.equal(nearestBox([{ index: 5, left: 20, width: 30 }, { index: 6, left: 16, width: 1 }], 20.5), 5);
  });
});

describe('tick strips in view', () => {
  // A tile used on every other line 0..598: 300 runs, three strips of 128.
  const runs = Array.from({ length: 300 }, (_, i) => [2 * i, 2 * i]);

  test('a tile with thousands of uses draws only the strips of the lines in view', () => {
    assert.deepEqual(tickChunksInView(runs, 300, 320), { from: 1, to: 1 });
    assert.deepEqual(tickChunksInView(runs, 0, 40), { from: 0, to: 0 });
    assert.deepEqual(tickChunksInView(runs, 560, 700), { from: 2, to: 2 });
  });

  test('a view across a strip\'s edge draws both strips', () => {
    const edge = 2 * TICK_CHUNK; // the line of the second strip's first run
    assert.deepEqual(tickChunksInView(runs, edge - 10, edge + 10), { from: 0, to: 1 });
    assert.deepEqual(tickChunksInView(runs, edge - 56, edge - 1), { from: 0, to: 0 }, 'up to the line before the edge: one strip');
  });

  test('a run of uses begun above the view still has its strip drawn', () => {
    // Runs of 10 lines every 20: run 127, the first strip's last, is 2540–2549.
    const long = Array.from({ length: 200 }, (_, i) => [20 * i, 20 * i + 9]);
    assert.deepEqual(tickChunksInView(long, 2545, 2600), { from: 0, to: 1 });
  });

  test('a tile with few uses draws its one strip wherever the view is; one never used draws none', () => {
    assert.deepEqual(tickChunksInView([[5, 9], [20, 20]], 500, 600), { from: 0, to: 0 });
    const none = tickChunksInView([], 0, 100);
    assert.ok(none.from > none.to);
  });
});

describe('where a jump scrolls the map', () => {
  const viewport = { scrollTop: 0, clientHeight: 400 };
  const rowsShown = viewport.clientHeight - HEADER_HEIGHT;

  test('a line brought to the map is centred in the rows below the lane header', () => {
    const scrollTop = scrollTopForLine(101, 1, viewport);
    const rowCentre = HEADER_HEIGHT + 100 * ROW_HEIGHT + ROW_HEIGHT / 2;
    assert.equal(rowCentre - (scrollTop + HEADER_HEIGHT), rowsShown / 2);
    assert.equal(scrollTopForLine(2, 1, viewport), 0, 'near the top it stays at the top');
  });

  test('with `nearest`, a line in view does not move the map; one outside comes just into view', () => {
    const at = { scrollTop: 900, clientHeight: 400 };
    const lineAt = (y) => 1 + (y - HEADER_HEIGHT) / ROW_HEIGHT; // the line whose row starts at sheet y
    assert.equal(scrollTopForLine(lineAt(900 + 180), 1, at, 'nearest'), 900);
    // Above: its row right under the sticky header.
    const above = lineAt(900 - 90);
    assert.equal(scrollTopForLine(above, 1, at, 'nearest'), 900 - 90 - HEADER_HEIGHT);
    // Below: its row's bottom on the map's bottom edge.
    const below = lineAt(900 + 450);
    assert.equal(scrollTopForLine(below, 1, at, 'nearest'), 900 + 450 + ROW_HEIGHT - 400);
  });

  test('a line revealed sits in the middle of the part of the map the window shows', () => {
    // The map's top is under a 56 px top bar; its bottom past the window's.
    const rect = { top: 20, bottom: 1200 };
    const scrollTop = scrollTopToShow(301, 1, rect, 56, 800);
    const rowCentreOnScreen = rect.top + HEADER_HEIGHT + 300 * ROW_HEIGHT + ROW_HEIGHT / 2 - scrollTop;
    const shownTop = 56 + HEADER_HEIGHT;
    assert.equal(rowCentreOnScreen, (shownTop + 800) / 2);
    assert.equal(scrollTopToShow(1, 1, rect, 56, 800), 0, 'the first line needs no scroll');
  });

  test('sideways: a tile\'s first byte out of sight comes 40 px into the lanes; one in sight does not move them', () => {
    const left = 56; // the line numbers' column, sticky over the lanes
    assert.equal(scrollLeftToShow(300, left, 0, 800), 0);
    assert.equal(scrollLeftToShow(2000, left, 0, 800), 2000 - left - 40);
    assert.equal(scrollLeftToShow(400, left, 1000, 800), 400 - left - 40, 'hidden under the left column');
    assert.equal(scrollLeftToShow(60, left, 100, 800), 0, 'never before the sheet\'s start');
  });

  test('an embed opens on the first tile\'s rows, a line above, with its lane\'s left edge (its name) at the lanes\' left', () => {
    const lanes = [{ space: 'Mat', lo: 0, span: 524288, left: 0, width: 1600 }, { space: 'Left', lo: 0, span: 65536, left: 1600, width: 200 }];
    const box = (space, offset, start) => ({ space, offset, size: 1024, start });
    // The first tile in Left: its lane's edge; a tile on the same line further left wins.
    assert.deepEqual(openingScroll([box('Mat', 0, 60), box('Left', 0, 40)], lanes, 10, 600), { top: 29 * ROW_HEIGHT, left: 1600 });
    assert.deepEqual(openingScroll([box('Left', 4096, 40), box('Mat', 1024, 40)], lanes, 10, 600), { top: 29 * ROW_HEIGHT, left: 0 });
    // Zoomed in: Mat's first tile too far right to show with Mat's name; the next one that can is shown.
    assert.deepEqual(openingScroll([box('Mat', 400000, 40), box('Mat', 8192, 45)], lanes, 10, 600), { top: 34 * ROW_HEIGHT, left: 0 });
    // None can: the first tile, 40 px into the lanes.
    const far = 400000 / 524288 * 1600;
    assert.deepEqual(openingScroll([box('Mat', 400000, 40)], lanes, 10, 600), { top: 29 * ROW_HEIGHT, left: far - 40 });
    // A tile on the function's first line: the top; a hidden space's tiles (no lane) do not count; none: null.
    assert.deepEqual(openingScroll([box('Mat', 0, 10)], lanes, 10, 600), { top: 0, left: 0 });
    assert.deepEqual(openingScroll([box('Vec', 0, 20), box('Mat', 0, 50)], lanes, 10, 600), { top: 39 * ROW_HEIGHT, left: 0 });
    assert.equal(openingScroll([box('Vec', 0, 20)], lanes, 10, 600), null);
  });
});

describe('a moved tile\'s ghost', () => {
  const lane = { space: 'Vec', lo: 0, span: 65536, left: 100, width: 700 };
  const box = { space: 'Vec', offset: 32768, size: 8192, start: 11, end: 14 };

  test('a dashed outline at its old bytes over its rows, and a rule to where it is now', () => {
    const g = ghostGeometry(box, { offset: 0, size: 8192 }, lane, lane, 1);
    assert.deepEqual(g, {
      left: 100, width: 87.5, top: 10 * ROW_HEIGHT, height: 4 * ROW_HEIGHT,
      link: { left: 100, width: 350 },
    });
  });

  test('resized in place: no rule; a tiny old size still shows', () => {
    const g = ghostGeometry(box, { offset: 32768, size: 1 }, lane, lane, 1);
    assert.equal(g.link, null);
    assert.equal(g.width, MIN_BOX);
  });

  test('moved from another space: the rule runs across the lanes', () => {
    const other = { space: 'Mat', lo: 0, span: 65536, left: 900, width: 700 };
    const g = ghostGeometry(box, { offset: 0, size: 8192 }, other, lane, 1);
    assert.deepEqual(g.link, { left: 450, width: 450 });
  });
});
