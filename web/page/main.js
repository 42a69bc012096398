// The page's entry: makes its parts (tooltip, find, shortcuts, the core in
// a worker), wires the controls, and shows the page's own dump or a linked one.
import { analyze } from './analyze.js';
import { measureWidth, relayoutOnResize, showCompare, showModel, trackTopbar } from '../views/display.js';
import { el } from '../base/dom.js';
import { createEngine } from '../engine/engine.js';
import { copyLink } from '../card/export.js';
import { Finder } from '../views/finder.js';
import { listenForDrops, listenToHistory, listenToInputs, openLinkedDump } from './input.js';
import { listenToFinder, onKey } from './keys.js';
import { embedOptions, linkWanted, parseLink, writtenView } from '../model/link.js';
import { showLinkWanted, showMessage } from '../views/messages.js';
import { $, page } from '../base/page-state.js';
import { setAddress } from '../base/address.js';
import { rehearseWhenIdle } from './rehearsal.js';
import { ShortcutsOverlay } from './shortcuts.js';
import { listenToTheme, setTheme } from '../base/theme.js';
import { Tooltip } from '../map/tooltip.js';

function listenToControls() {
  listenToInputs();
  $('backend').addEventListener('change', () => analyze());
  listenToTheme();
  document.addEventListener('keydown', onKey);
  // An open Share menu closes on a click elsewhere (Esc: onKey).
  document.addEventListener('pointerdown', (e) => {
    for (const menu of document.querySelectorAll('.share-menu[open]')) if (!menu.contains(e.target)) menu.open = false;
  });
  listenToFinder();
  $('copy-link').addEventListener('click', copyLink);
}

async function fillBackends() {
  try {
    const backends = await page.engine.backends();
    $('backend').append(...backends.map((b) => el('option', { value: b.name, title: `${b.name}, target arch ${b.arch}` }, b.name)));
  } catch (error) {
    showMessage('error', 'The WebAssembly core did not start', error.message);
  }
}

function start() {
  // A page written into a frame (a notebook's output) says its view in an
  // element; an address of its own, where it has one, wins.
  const written = writtenView($('memory-map-view')?.textContent);
  if (written.hash && !location.hash) setAddress(location.search, written.hash);
  const options = embedOptions(location.search || written.search);
  page.embed = options.embed;
  document.body.classList.toggle('embed', page.embed);
  if (options.theme) setTheme(options.theme);
  window.memoryMapStats = page.stats;
  trackTopbar();
  measureWidth();
  page.tooltip = new Tooltip();
  page.shortcuts = new ShortcutsOverlay();
  page.finder = new Finder({
    anomalies: $('anomalies'), anomalyCount: $('anomaly-count'), search: $('search'), searchStatus: $('search-status'),
  });
  page.engine = createEngine($('worker-source').textContent);
  listenForDrops();
  listenToHistory();
  listenToControls();
  relayoutOnResize();
  const embedded = $('memory-map-data')?.textContent.trim();
  if (embedded) {
    // The CLI's page: the model (or two and their comparison) is in it;
    // the map shows at once.
    const data = JSON.parse(embedded);
    if (data.diff) showCompare(data);
    else showModel(data);
    $('backend').disabled = true;
    $('backend').title = 'This page was written by the CLI for one backend; run it with -b to change it';
  } else {
    openLinkedDump().then((opened) => {
      // A link copied from a dropped dump: no dump comes with it.
      const wanted = !opened && parseLink(location.hash);
      if (wanted && !page.embed) showLinkWanted(linkWanted(wanted));
    });
  }
  fillBackends();
  if (!embedded) rehearseWhenIdle();
}

start();
