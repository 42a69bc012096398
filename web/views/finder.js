// Finding things across the cards: the anomalies (conflicts, tiles over
// capacity) with next/previous, and the tile search with its matches.
// Each jump opens the card, scrolls to the tile and pins it.
import { anomalyList, cycle, searchIndex, searchModel, tileMatcher } from '../model/insight.js';

export class Finder {
  /** `nodes`: { anomalies, anomalyCount, search, searchStatus } elements. */
  constructor(nodes) {
    this.nodes = nodes;
    this.cards = [];
    this.anomalies = [];
    this.anomalyAt = -1;
    this.matches = [];
    this.matchAt = -1;
    this.query = ''; // the text the matches are for
    this.index = null; // the model's search index, built at its first search
    this.marked = new Set(); // the cards showing matches
  }

  setModel(model, cards) {
    this.model = model;
    this.index = null;
    this.cards = cards;
    this.marked = new Set(); // new cards: none marked
    // The index is made while the page is idle, so a first search finds
    // it ready (at 50 MB, tens of ms); a search before that makes it.
    const made = () => { if (this.model === model) this.index ??= searchIndex(model); };
    if (window.requestIdleCallback) requestIdleCallback(made, { timeout: 2000 });
    else setTimeout(made, 200);
    this.anomalies = anomalyList(model);
    this.anomalyAt = -1;
    const n = this.anomalies.length;
    this.nodes.anomalies.hidden = false;
    this.nodes.anomalies.classList.toggle('none', n === 0);
    this.nodes.anomalies.classList.remove('quiet'); // one dump: every anomaly is one
    this.nodes.anomalyCount.textContent = n ? `${n} anomal${n === 1 ? 'y' : 'ies'}` : 'no anomalies';
    this.nodes.anomalyCount.title = n
      ? 'As --check counts them: conflicting pairs (two bases, or a tile and a reserved window, sharing bytes while live), tiles or windows over capacity, and tiles not placed (their MemRef gives no address). N / Shift+N: next / previous'
      : 'No conflicts and no tile over capacity';
    this.search(this.nodes.search.value);
  }

  /** The search alone (a comparison has its own N): `model` is
   * { functions: [{ name, src_start, boxes }] }, `cards` as setModel's. */
  setSearch(model, cards) {
    this.model = model;
    this.index = null;
    this.cards = cards;
    this.marked = new Set(cards.keys()); // a few cards, maybe marked before
    this.search(this.nodes.search.value);
  }

  clear() {
    this.model = null;
    this.index = null;
    this.cards = [];
    this.marked.clear();
    this.anomalies = [];
    this.matches = [];
    this.nodes.anomalies.hidden = true;
    this.nodes.searchStatus.textContent = '';
  }

  /** N / Shift+N: the next or previous anomaly. */
  stepAnomaly(direction) {
    this.anomalyAt = cycle(this.anomalyAt, this.anomalies.length, direction);
    if (this.anomalyAt < 0) return;
    const { fn, index, window, kinds, start } = this.anomalies[this.anomalyAt];
    if (index >= 0) this.cards[fn].reveal(index);
    else if (window !== undefined) this.cards[fn].revealWindow(window);
    else this.cards[fn].revealLine(start);
    this.nodes.anomalyCount.textContent = `${this.anomalyAt + 1} / ${this.anomalies.length}: ${kinds.join(', ')}`;
  }

  /** Marks the tiles matching `query` in every card. */
  search(query) {
    this.query = query;
    const input = this.nodes.search;
    const matcher = tileMatcher(query);
    this.matchAt = -1;
    if (matcher?.error) {
      input.setAttribute('aria-invalid', 'true');
      this.nodes.searchStatus.textContent = `bad expression: ${matcher.error}`;
      this.matches = [];
    } else {
      input.removeAttribute('aria-invalid');
      if (matcher && this.model) this.index ??= searchIndex(this.model);
      this.matches = matcher && this.model ? searchModel(this.model, matcher, this.index) : [];
      this.nodes.searchStatus.textContent = matcher ? `${this.matches.length} match${this.matches.length === 1 ? '' : 'es'}` : '';
    }
    this.markCards();
  }

  /** Each card's matches: only the cards that had some or have some are
   * told (a big dump has thousands of cards). */
  markCards() {
    const byCard = new Map();
    for (const m of this.matches) {
      if (!byCard.has(m.fn)) byCard.set(m.fn, { boxes: [], name: false });
      if (m.index >= 0) byCard.get(m.fn).boxes.push(m.index);
      else byCard.get(m.fn).name = true;
    }
    for (const f of new Set([...this.marked, ...byCard.keys()])) {
      const mine = byCard.get(f) ?? { boxes: [], name: false };
      this.cards[f]?.setMatches(mine.boxes, mine.name);
    }
    this.marked = new Set(byCard.keys());
  }

  /** Enter / Shift+Enter in the field: the next or previous match. */
  stepMatch(direction) {
    this.matchAt = cycle(this.matchAt, this.matches.length, direction);
    if (this.matchAt < 0) return;
    const { fn, index } = this.matches[this.matchAt];
    if (index < 0) this.cards[fn].revealCard();
    else this.cards[fn].reveal(index, { focus: false }); // Enter keeps cycling from the field
    this.nodes.searchStatus.textContent = `${this.matchAt + 1} / ${this.matches.length}`;
  }
}
