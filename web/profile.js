// A lane's live profile: on each line, the bytes live in the space drawn
// from byte 0 in the lane's own scale, so its right edge against the
// high-water mark rule shows what fragmentation costs. One SVG per lane in
// (byte, row) units, stretched to the lane: zoom changes no path.
import { profilePath } from './insight.js';
import { formatBytes } from './layout.js';

const SVG = 'http://www.w3.org/2000/svg';

function svgNode(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

/** The profile of `space` for `lane` in a card of function `fn`. */
export function profileGraphic(space, lane, fn) {
  const rows = fn.src_end - fn.src_start + 1;
  const svg = svgNode('svg', {
    class: 'profile', viewBox: `${lane.lo} 0 ${lane.span} ${rows}`, preserveAspectRatio: 'none', 'aria-hidden': 'true',
  });
  svg.append(svgNode('path', { class: 'profile-area', d: profilePath(space.live ?? [], fn.src_start, fn.src_end) }));
  return svg;
}

/** The mark at a space's peak line, across the lane up to the peak bytes. */
export function peakMark(space, lane, fn, rowHeight) {
  const node = document.createElement('div');
  node.className = 'peak-mark';
  node.title = `peak: ${formatBytes(space.peak_live)} live on line ${space.peak_line}`;
  node.style.top = `${(space.peak_line - fn.src_start) * rowHeight}px`;
  node.style.left = `${((0 - lane.lo) / lane.span) * 100}%`;
  node.style.width = `${(space.peak_live / lane.span) * 100}%`;
  return node;
}
