// A card's toolbar (DOM): zoom, x axis, spaces shown, the panel toggles,
// Share, and the pinned tile's chip with what it conflicts with. Its
// buttons call the card's actions; it shows the card's state, holds none.
import { el } from '../base/dom.js';
import { conflictPartners } from '../model/insight.js';
import { byteRange, formatZoom, stepZoom } from '../model/layout.js';

export class Toolbar {
  /** `card`: the Card it acts on; `exportMap(kind)`: draws the map as
   * shown ('png' or 'svg') and says how it went, or null: no Share menu
   * (a page the command line wrote has no dump bytes to draw from). */
  constructor(card, exportMap) {
    this.card = card;
    this.exportMapTo = exportMap;
    this.zoomLevel = el('button', { class: 'zoom-level', title: 'Reset zoom to 1×', onclick: () => card.setZoom(1) }, '1×');
    this.axisButtons = [['limit', 'capacity'], ['used', 'used']].map(([axis, word]) =>
      el('button', { class: 'axis', dataset: { axis }, 'aria-pressed': String(axis === card.state.axis), onclick: () => card.setAxis(axis) }, word));
    this.spaceToggles = card.spaceList.map((s) =>
      el('button', { class: 'space-toggle', dataset: { space: s.space }, 'aria-pressed': 'true', onclick: () => card.toggleSpace(s.space) }, s.space));
    this.sourceButton = el('button', { class: 'source-toggle', 'aria-pressed': 'false', title: 'Show the IR source beside the map',
      onclick: () => card.setSource(!card.state.source) }, 'IR source');
    this.tableButton = el('button', { class: 'table-toggle', 'aria-pressed': 'false', onclick: () => card.setTable(!card.state.table) }, 'Table');
    this.profileButton = el('button', {
      class: 'profile-toggle', 'aria-pressed': 'true', title: 'Live bytes per line, drawn from byte 0 in each lane',
      onclick: () => card.setProfile(!card.state.profile),
    }, 'Live profile');
    this.idleButton = el('button', {
      class: 'idle-toggle', 'aria-pressed': 'false', title: 'The tiles held longest without a use: their lifetime blocks reuse',
      onclick: () => card.setIdle(!card.state.idle),
    }, 'Held while idle');
    this.chipName = el('span', { class: 'chip-name' });
    this.chip = el('span', { class: 'chip', hidden: true }, 'pinned ', this.chipName, ' ',
      el('button', { class: 'chip-close', 'aria-label': 'Unpin', title: 'Unpin (Esc)', onclick: () => card.pin(null) }, '×'));
    this.chipConflicts = el('span', { class: 'chip-conflicts', hidden: true });
    this.shareStatus = el('span', { class: 'share-status', role: 'status' });
    this.shareMenu = exportMap ? el('details', { class: 'share-menu' },
      el('summary', { title: 'An image of the map as shown: the lines in view, the spaces shown, the zoom' }, 'Share'),
      el('span', { class: 'share-items' },
        el('button', { class: 'copy-png', onclick: () => this.exportMap('png') }, 'Copy as PNG'),
        el('button', { class: 'save-svg', onclick: () => this.exportMap('svg') }, 'Save SVG'))) : null;
    this.element = el('div', { class: 'toolbar' },
      el('span', { class: 'group' },
        el('button', { class: 'zoom-out', 'aria-label': 'Zoom out', onclick: () => card.setZoom(stepZoom(card.state.zoom, -1)) }, '−'),
        this.zoomLevel,
        el('button', { class: 'zoom-in', 'aria-label': 'Zoom in', onclick: () => card.setZoom(stepZoom(card.state.zoom, 1)) }, '+')),
      el('span', { class: 'group', title: 'What a lane spans: 0 to the capacity, or 0 to the bytes used (the high-water mark)' },
        el('span', { class: 'label' }, 'lanes span:'), this.axisButtons),
      el('span', { class: 'group' }, el('span', { class: 'label' }, 'show:'), this.spaceToggles),
      el('span', { class: 'group' }, this.sourceButton, this.tableButton, this.profileButton, this.idleButton),
      this.shareMenu ? el('span', { class: 'group' }, this.shareMenu, this.shareStatus) : null,
      // Always there, pinned or not, and one line high: where the toolbar
      // has no room for it, it has a row of its own from the start, so a
      // pin does not push the map down under the pointer.
      this.pinSlot = el('span', { class: 'pin-slot', onscroll: () => this.fadeMore() }, this.chip, this.chipConflicts));
  }

  /** What does not fit the pin's slot fades out at its edge while there is
   * more to scroll to. */
  fadeMore() {
    const slot = this.pinSlot;
    slot.classList.toggle('overflowing', slot.scrollLeft + slot.clientWidth < slot.scrollWidth - 1);
  }

  showZoom(zoom) {
    this.zoomLevel.textContent = formatZoom(zoom);
  }

  focusAxis(axis) {
    this.axisButtons.find((b) => b.dataset.axis === axis)?.focus();
  }

  showAxis(axis) {
    for (const b of this.axisButtons) b.setAttribute('aria-pressed', String(b.dataset.axis === axis));
  }

  /** The space toggles: pressed while shown; the last one shown cannot be
   * hidden, so its toggle is disabled. */
  showHidden(hidden) {
    const shownCount = this.spaceToggles.filter((t) => !hidden.has(t.dataset.space)).length;
    for (const t of this.spaceToggles) {
      const shown = !hidden.has(t.dataset.space);
      t.setAttribute('aria-pressed', String(shown));
      t.disabled = shown && shownCount === 1;
    }
  }

  showSource(open) {
    this.sourceButton.setAttribute('aria-pressed', String(open));
    this.sourceButton.title = open ? 'Hide the IR source' : 'Show the IR source beside the map';
  }

  /** The IR source cannot be shown: its bytes never came (the file gone
   * or changed since it was chosen); the toggle says why. */
  sourceMissing(why) {
    this.sourceButton.disabled = true;
    this.sourceButton.title = `The IR source is not available: ${why}`;
  }

  showTable(shown) {
    this.tableButton.setAttribute('aria-pressed', String(shown));
  }

  showProfile(shown) {
    this.profileButton.setAttribute('aria-pressed', String(shown));
  }

  showIdle(shown) {
    this.idleButton.setAttribute('aria-pressed', String(shown));
  }

  /** The chip of the pinned `box` (null: none), and beside it what the box
   * is in conflict with, each a button to go there (tiles) or to its line
   * (reserved windows). */
  showPinned(box) {
    this.chip.hidden = !box;
    if (!box) {
      this.chipConflicts.hidden = true;
      this.pinSlot.classList.remove('overflowing');
      return;
    }
    const { fn } = this.card;
    this.chipName.textContent = box.name;
    const { boxes, windows, more } = conflictPartners(box);
    const go = (index) => el('button', {
      class: 'partner', title: 'Go to this tile',
      onclick: () => this.card.reveal(index),
    }, `${fn.boxes[index].name} ${byteRange(fn.boxes[index].offset, fn.boxes[index].size)}`);
    const goWindow = (w) => el('button', {
      class: 'partner', title: 'Go to this reserved window', onclick: () => this.card.revealWindow(w),
    }, `${fn.reserved[w].name} (reserved)`);
    this.chipConflicts.replaceChildren(
      el('span', { class: 'label' }, 'conflicts with'), ...boxes.map(go), ...windows.map(goWindow),
      ...(more > 0 ? [el('span', { class: 'muted' }, `and ${more} more`)] : []));
    this.chipConflicts.hidden = !boxes.length && !windows.length;
    this.pinSlot.scrollLeft = 0;
    requestAnimationFrame(() => this.fadeMore());
  }

  /** Share → Copy as PNG ('png') or Save SVG ('svg'); says how it went
   * for a few seconds. */
  async exportMap(kind) {
    this.shareMenu.open = false;
    this.shareStatus.textContent = 'drawing…';
    let said;
    try {
      said = await this.exportMapTo(kind);
    } catch (error) {
      said = `could not export: ${error.message}`;
    }
    this.shareStatus.textContent = said;
    clearTimeout(this.shareTimer);
    this.shareTimer = setTimeout(() => { if (this.shareStatus.textContent === said) this.shareStatus.textContent = ''; }, 6000);
  }
}
