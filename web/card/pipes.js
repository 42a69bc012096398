// Cross-core pipes as a card says them (model.pipes, docs/model.md "Pipes"):
// the peer a function's pipes reach, and what one more slot and the most
// slots mean for both sides. pipesOf and pipeText are pure (tested in
// Node); pipeNotice draws them above a card's map.
import { el } from '../base/dom.js';
import { formatBytes } from '../model/layout.js';

/** The pipes `name` is a side of, each as { peer, pipe }. */
export function pipesOf(model, name) {
  return (model.pipes ?? []).filter((p) => p.functions.includes(name))
    .map((pipe) => ({ peer: pipe.functions.find((f) => f !== name) ?? null, pipe }));
}

const slots = (r) => (r.slot_size && r.slot_num ? `${r.slot_num} × ${formatBytes(r.slot_size)}` : 'slots unknown');

/** Where a ring lives and how it is sliced, from `name`'s side. */
function ringText(ring, name) {
  const where = ring.consumer === name ? `this function's ${ring.space}` : ring.consumer ? `${ring.consumer}'s ${ring.space}` : 'no reserve_buffer of its peer';
  const from = ring.producer ? '' : ' (no import_peer_buffer of it)';
  return `${ring.direction ?? 'ring'} ${ring.name} in ${where}${ring.consumer ? ` (${slots(ring)})` : ''}${from}`;
}

/** The pipe's sentence for `name`'s card: its peer, its rings, one more slot, the most slots. */
export function pipeText(p, name) {
  return `Cross-core pipe with ${p.peer ?? 'no peer found'}: ${pipeDetails(p, name)}`;
}

/** pipeText after the peer: the rings, one more slot, the most slots. */
function pipeDetails({ pipe }, name) {
  const fits = pipe.one_more_slot_fits;
  const more = fits === null ? 'One more slot: unknown (a slot size or a capacity is not known).'
    : `One more slot: ${fits ? 'fits on both sides' : 'does not fit'}.`;
  const each = pipe.rings.filter((r) => r.max_slots !== null).map((r) => `${r.max_slots} in ${r.consumer === name ? 'this function' : r.consumer}`);
  const most = pipe.max_slots === null ? '' : ` At most ${pipe.max_slots} slots${each.length > 1 ? ` (the fewer of ${each.join(' and ')})` : ''}.`;
  return `${pipe.rings.map((r) => ringText(r, name)).join('; ')}. ${more}${most}`;
}

/** Above a card's map: each pipe it is a side of, its peer a button that
 * opens the peer's card (`onPeer(name)`). Null when it has none. */
export function pipeNotice(fn, pipes, onPeer) {
  if (!pipes.length) return null;
  return el('div', { class: 'pipe-notice', role: 'note' }, pipes.map((p) => el('p', {},
    '⇄ Cross-core pipe with ', p.peer && onPeer
      ? el('button', { type: 'button', class: 'link', title: `Open ${p.peer}'s card`, onclick: () => onPeer(p.peer) }, p.peer)
      : p.peer ?? 'no peer found',
    `: ${pipeDetails(p, fn.name)}`)));
}
