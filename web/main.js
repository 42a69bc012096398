// The page: getting a dump in (drop, file button, folder, example), running
// the core in the worker, and showing the model or the refusal.
import { Card } from './card.js';
import { clear, el } from './dom.js';
import { createEngine } from './engine.js';
import { resolveFolder } from './folder.js';
import { Tooltip } from './tooltip.js';

const $ = (id) => document.getElementById(id);

const page = {
  engine: null,
  input: null, // { name, bytes: ArrayBuffer, pto: string|null, entries, folderName }
  pass: 'AllocateMemoryAddr',
  cards: [],
  lastPinned: null,
  tooltip: null,
  // Timings a benchmark can read (window.memoryMapStats): when a file
  // arrived, when the first card was painted, the core's own time.
  stats: { received: 0, firstCardPainted: 0, coreMs: 0, heapBytes: 0 },
};

// ------------------------------------------------------------- showing

let measuredWidth = 0;
/** The inner width of a card's map, the same for every card: measured once
 * (a layout read) and again after the window is resized. */
function mapWidth() {
  measuredWidth ||= $('cards').clientWidth - 2;
  return measuredWidth;
}

function relayoutOnResize() {
  let timer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      measuredWidth = 0;
      for (const card of page.cards) if (card.state.open) card.layout();
    }, 100);
  });
}

function summary(model) {
  const tiles = model.functions.reduce((n, f) => n + f.boxes.length, 0);
  const { backend } = model;
  return [
    el('span', { class: 'dump-name' }, model.dump),
    el('span', {}, `pass ${model.pass_name}`),
    el('span', {}, `${model.functions.length} compute function${model.functions.length === 1 ? '' : 's'}`),
    el('span', {}, `${tiles} tile${tiles === 1 ? '' : 's'}`),
    el('span', { class: 'backend-info' }, `${backend.name} (${backend.arch})`,
      backend.detected ? null : el('span', { class: 'assumed', title: 'No -b and no ptoas/*.pto target arch: capacities are assumed' }, ' assumed')),
  ];
}

function showModel(model) {
  page.tooltip.hide();
  page.cards = model.functions.map((fn) => new Card(fn, {
    tooltip: page.tooltip,
    onPin: (card) => { page.lastPinned = card; },
    mapWidth,
  }));
  clear($('summary'));
  $('summary').append(...summary(model));
  $('message').hidden = true;
  const cards = $('cards');
  clear(cards);
  cards.append(...page.cards.map((c) => c.element));
  cards.hidden = false;
  // Only the first card is opened: the others are built when opened.
  page.cards[0]?.setOpen(true);
  document.title = `${model.dump} · memory-map`;
  requestAnimationFrame(() => setTimeout(() => { page.stats.firstCardPainted = performance.now(); }));
}

function showMessage(kind, title, detail) {
  page.tooltip.hide();
  const box = $('message');
  clear(box);
  box.className = `message ${kind}`;
  box.append(el('h2', {}, title), detail ? el('p', { class: 'detail' }, detail) : null);
  box.hidden = false;
  $('cards').hidden = true;
  if (kind === 'error') {
    clear($('summary'));
    page.cards = [];
  }
}

/** Line `number` (1-based) of the dump, for showing where an error is. */
function lineOf(bytes, number) {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const line = text.split(/\r\n|\r|\n/)[number - 1];
  return line === undefined ? null : line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function showError(name, error, bytes) {
  const where = error.line ? `${name}, line ${error.line}` : name;
  showMessage('error', `Cannot show ${where}`, error.message);
  const context = bytes && error.line ? lineOf(bytes, error.line) : null;
  if (context !== null) $('message').append(el('pre', { class: 'context' }, el('span', { class: 'ln' }, String(error.line)), context));
  $('message').dataset.kind = error.kind || 'internal';
}

// ------------------------------------------------------------ analysing

async function analyse() {
  const { input } = page;
  if (!input) return;
  showMessage('loading', `Reading ${input.name}…`);
  const backend = $('backend').value || null;
  page.stats.firstCardPainted = 0;
  try {
    const model = await page.engine.analyze(input.bytes.slice(0), { dumpName: input.name, backend, ptoText: input.pto });
    Object.assign(page.stats, page.engine.stats);
    if (page.input === input) showModel(model);
  } catch (error) {
    if (page.input === input) showError(input.name, error, input.bytes);
  }
}

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function ptoText(files) {
  const texts = await Promise.all([...files].sort(byName).map((f) => f.text()));
  return texts.length ? texts.join('\n') : null;
}

/** Files from the button or a drop: a dump, .pto files, or both. */
async function openFiles(files) {
  const dumps = files.filter((f) => !f.name.endsWith('.pto'));
  const pto = files.filter((f) => f.name.endsWith('.pto'));
  if (!dumps.length && pto.length && page.input) {
    // A .pto dropped after the dump: it only sets the backend.
    page.input = { ...page.input, pto: await ptoText(pto) };
    return analyse();
  }
  if (!dumps.length) return showMessage('error', 'Nothing to show', 'Drop a pass dump (.py), a build_output/<case>/ folder, or a .pto with a dump.');
  const dump = dumps[0];
  page.input = { name: dump.name, bytes: await dump.arrayBuffer(), pto: pto.length ? await ptoText(pto) : null };
  $('pass-picker').hidden = true;
  return analyse();
}

/** A folder: resolve like the CLI, offer the passes it holds. */
async function openFolder(entries, folderName) {
  const resolved = resolveFolder(entries, page.pass, folderName);
  const picker = $('pass');
  clear(picker);
  picker.append(...resolved.passes.map((p) => el('option', { value: p, selected: p === page.pass }, p)));
  $('pass-picker').hidden = resolved.passes.length === 0;
  if (resolved.error) {
    page.input = null;
    return showMessage('error', `Cannot open ${folderName}`, resolved.error);
  }
  page.input = {
    name: resolved.dump.name,
    bytes: await resolved.dump.file.arrayBuffer(),
    pto: resolved.pto.length ? await ptoText(resolved.pto.map((e) => e.file)) : null,
    entries,
    folderName,
  };
  return analyse();
}

// ----------------------------------------------------------- dropping

async function readDirectory(entry, prefix, out) {
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    for (const child of batch) {
      const path = `${prefix}/${child.name}`;
      if (child.isDirectory) await readDirectory(child, path, out);
      else out.push({ path, file: await new Promise((resolve, reject) => child.file(resolve, reject)) });
    }
  }
}

async function onDrop(event) {
  event.preventDefault();
  page.stats.received = performance.now();
  $('dropzone').hidden = true;
  const items = [...(event.dataTransfer.items || [])];
  const folder = items.map((i) => i.webkitGetAsEntry?.()).find((e) => e?.isDirectory);
  if (folder) {
    const entries = [];
    await readDirectory(folder, folder.name, entries);
    return openFolder(entries, folder.name);
  }
  return openFiles([...event.dataTransfer.files]);
}

function listenForDrops() {
  let depth = 0;
  window.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth++;
    $('dropzone').hidden = false;
  });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) $('dropzone').hidden = true;
  });
  window.addEventListener('drop', (e) => {
    depth = 0;
    onDrop(e).catch((error) => showMessage('error', 'Cannot read the dropped files', error.message));
  });
}

// ------------------------------------------------------------- controls

function listenToControls() {
  $('file').addEventListener('change', (e) => {
    openFiles([...e.target.files]);
    e.target.value = '';
  });
  $('folder').addEventListener('change', (e) => {
    const files = [...e.target.files];
    const entries = files.map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
    const name = entries[0]?.path.split('/')[0] || 'the folder';
    openFolder(entries, name);
    e.target.value = '';
  });
  $('pass').addEventListener('change', (e) => {
    page.pass = e.target.value;
    if (page.input?.entries) openFolder(page.input.entries, page.input.folderName);
  });
  $('backend').addEventListener('change', () => analyse());
  $('theme').addEventListener('click', () => {
    const order = ['auto', 'light', 'dark'];
    const current = document.documentElement.dataset.theme || 'auto';
    const next = order[(order.indexOf(current) + 1) % order.length];
    document.documentElement.dataset.theme = next;
    $('theme').textContent = `theme: ${next}`;
  });
  for (const button of document.querySelectorAll('[data-example]')) {
    button.addEventListener('click', () => openExample(button.dataset.example));
  }
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const focused = page.cards.find((c) => c.element.contains(document.activeElement) && c.state.pinned);
    const card = focused ?? (page.lastPinned?.state.pinned ? page.lastPinned : null);
    if (card) card.pin(null);
  });
}

async function openExample(id) {
  const data = JSON.parse($('examples').textContent)[id];
  if (!data) return;
  try {
    const fetchText = async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
      return response.text();
    };
    const text = data.text ?? await fetchText(data.url);
    const pto = data.pto ?? (data.ptoUrl ? await fetchText(data.ptoUrl) : null);
    page.input = { name: data.name, bytes: new TextEncoder().encode(text).buffer, pto };
    $('pass-picker').hidden = true;
    await analyse();
  } catch (error) {
    showMessage('error', `Cannot open the example ${data.name}`, error.message);
  }
}

async function fillBackends() {
  try {
    const backends = await page.engine.backends();
    $('backend').append(...backends.map((b) => el('option', { value: b.name }, `${b.name} (${b.arch})`)));
  } catch (error) {
    showMessage('error', 'The WebAssembly core did not start', error.message);
  }
}

function start() {
  window.memoryMapStats = page.stats;
  page.tooltip = new Tooltip();
  page.engine = createEngine($('worker-source').textContent);
  listenForDrops();
  listenToControls();
  relayoutOnResize();
  const embedded = $('memory-map-data')?.textContent.trim();
  if (embedded) {
    // The CLI's page: the model is in it; the map shows at once.
    showModel(JSON.parse(embedded));
    $('backend').disabled = true;
    $('backend').title = 'This page was written by the CLI for one backend; run it with -b to change it';
  }
  fillBackends();
}

start();
