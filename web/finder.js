// Finding things across the cards: the anomalies (conflicts, tiles over
// capacity) with next/previous, and the tile search with its matches.
// Each jump opens the card, scrolls to the tile and pins it.
import { anomalyList, cycle, searchModel, tileMatcher } from './insight.js';

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
  }

  setModel(model, cards) {
    this.model = model;
    this.cards = cards;
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
    this.cards = cards;
    this.search(this.nodes.search.value);
  }

  clear() {
    this.model = null;
    this.cards = [];
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
      this.matches = matcher && this.model ? searchModel(this.model, matcher) : [];
      this.nodes.searchStatus.textContent = matcher ? `${this.matches.length} match${this.matches.length === 1 ? '' : 'es'}` : '';
    }
    this.cards.forEach((card, f) => {
      const mine = this.matches.filter((m) => m.fn === f);
      card.setMatches(mine.filter((m) => m.index >= 0).map((m) => m.index), mine.some((m) => m.index < 0));
    });
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
