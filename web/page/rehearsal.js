// A first card made, laid out unseen and thrown away while the page waits
// for a dump (or for the core to read one): otherwise a fresh tab's first
// card pays, as the user waits, for looking its fonts up and shaping text
// in them for the first time (Chromium's trace: most of its first
// layout was FontCache::GetFontPlatformData), and for its code's
// first run. The card is the model of warm-up.js's rehearsalDump, which
// tools/bundle.mjs writes into the page (#rehearsal).
import { cardMaker, pillColumns } from '../views/display.js';
import { el } from '../base/dom.js';
import { whenIdle } from '../engine/engine.js';
import { $, page } from '../base/page-state.js';

/** Rehearses once the page's thread is idle, if no card is shown by then
 * (a dump being read is no reason to wait: the rehearsal runs while the
 * core reads it). */
export function rehearseWhenIdle() {
  whenIdle(() => {
    const text = $('rehearsal')?.textContent.trim();
    if (!text || !$('cards').hidden) return;
    try {
      if (layOutUnseen(JSON.parse(text))) page.stats.rehearsed = performance.now();
    } catch {
      // A rehearsal that fails costs the user nothing but the time it saves.
    }
  });
}

/** `model`'s first card, opened and laid out out of sight, then removed:
 * in one task, so nothing (a user, a test's locator) ever meets it.
 * Whether there was a card to lay out. */
function layOutUnseen(model) {
  const fn = model.functions[0];
  if (!fn) return false;
  const columns = pillColumns([fn]);
  const card = cardMaker(model, columns, true)(fn);
  card.element.classList.add('shown-first');
  const stage = el('div', { class: 'cards rehearsal', 'aria-hidden': 'true', inert: true }, card.element);
  stage.style.setProperty('--pill-columns', String(columns.length));
  $('cards').after(stage);
  try {
    card.setOpen(true);
    void stage.offsetHeight; // the layout the rehearsal is for
  } finally {
    stage.remove();
  }
  return true;
}
