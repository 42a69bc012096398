// A lane's live profile: on each line, the bytes live in the space drawn
// from byte 0 in the lane's own scale, so its right edge against the
// high-water mark rule shows what fragmentation costs. Drawn like the
// boxes: only the steps in view, as blocks sized in % of the lane, so a
// zoom moves nothing here.
import { el } from '../base/dom.js';
import { stepsBetween } from '../model/insight.js';
import { formatBytes, lanePercent } from '../model/layout.js';

export class ProfileLayer {
  /** `space` (its `live` steps) drawn in `lane` of function `fn`. */
  constructor(space, lane, fn, rowHeight) {
    this.steps = space.live ?? [];
    this.lane = lane;
    this.fn = fn;
    this.rowHeight = rowHeight;
    this.rendered = new Map(); // step index -> element
    this.element = el('div', { class: 'profile', 'aria-hidden': 'true' });
  }

  /** Draws the steps live on lines [first, last]; keeps those still in view. */
  render(first, last) {
    const [from, to] = stepsBetween(this.steps, first, last);
    for (const [i, node] of this.rendered) {
      if (i < from || i >= to) {
        node.remove();
        this.rendered.delete(i);
      }
    }
    for (let i = from; i < to; i++) {
      if (this.rendered.has(i) || this.steps[i][1] <= 0) continue;
      const node = this.makeStep(i);
      this.rendered.set(i, node);
      this.element.append(node);
    }
  }

  /** Step `i` as an outline, one element (a card draws hundreds): its
   * top border the riser from the step before, its right or left border
   * the edge over its lines, where it rose or fell to (an outline, so it
   * is not read as a tile). */
  makeStep(i) {
    const { fn, lane, steps, rowHeight } = this;
    const top = Math.max(steps[i][0], fn.src_start);
    const bottom = Math.min(i + 1 < steps.length ? steps[i + 1][0] - 1 : fn.src_end, fn.src_end);
    const x = lanePercent(lane, steps[i][1]);
    const before = lanePercent(lane, i > 0 ? steps[i - 1][1] : 0);
    return el('div', {
      class: `profile-step ${x >= before ? 'rose' : 'fell'}`,
      style: {
        top: `${(top - fn.src_start) * rowHeight}px`, height: `${(bottom - top + 1) * rowHeight}px`,
        left: `calc(${Math.min(x, before)}% - 1px)`, width: `${Math.abs(x - before)}%`,
      },
    });
  }
}

/**
 * The mark of a space's peak: a tick at the profile's edge on the peak
 * line and a "peak" label beside it, both inside the lane (the label on
 * the side with room) and under the boxes, so no tile looks cut by it.
 */
export function peakMark(space, lane, fn, rowHeight) {
  const x = lanePercent(lane, space.peak_live);
  const onLeft = x > 55;
  return el('div', {
    class: 'peak-mark',
    title: `peak: ${formatBytes(space.peak_live)} live on line ${space.peak_line}`,
    style: { top: `${(space.peak_line - fn.src_start) * rowHeight}px` },
  },
  el('span', { class: 'peak-tick', style: { left: `${x}%` } }),
  el('span', { class: onLeft ? 'peak-label left' : 'peak-label', style: onLeft ? { right: `${100 - x}%` } : { left: `${x}%` } }, 'peak'));
}
