// Getting dumps in: files and folders (chosen or dropped), a .pto, a pass
// of a folder and one to compare with, the examples, a dump by URL.
import { analyze, analyzeBuild, begin } from './analyze.js';
import { clear, el } from '../base/dom.js';
import { casesOf, olderFirst, pathsOf, poolNames, resolveCase } from '../model/folder.js';
import { buildHash, dumpSource } from '../model/link.js';
import { showMessage } from '../views/messages.js';
import { $, page } from '../base/page-state.js';
import { setAddress } from '../base/address.js';

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function ptoText(files) {
  const texts = await Promise.all([...files].sort(byName).map((f) => f.text()));
  return texts.length ? texts.join('\n') : null;
}

/** Two dumps, the older first, as the core orders their names. */
async function orderPair(a, b) {
  const [choice] = await page.engine.folders([{ names: [a.name, b.name], pass: '', folder: '' }]);
  return olderFirst(a, b, choice);
}

/** Files from the button or a drop: a dump, .pto files, or both. */
export async function openFiles(files, current = begin()) {
  const dumps = files.filter((f) => !f.name.endsWith('.pto'));
  const pto = files.filter((f) => f.name.endsWith('.pto'));
  const ptoNames = pto.map((f) => f.name).sort().join(', ');
  if (!dumps.length && pto.length && page.input) {
    // A .pto dropped after the dump: it only sets the backend (and says so
    // if the dump is refused again).
    const text = await ptoText(pto);
    if (!current()) return;
    page.input = { ...page.input, pto: text, ptoAfter: ptoNames };
    return analyze(current);
  }
  if (!dumps.length && pto.length) {
    page.pendingPto = { names: ptoNames, text: await ptoText(pto) };
    return showMessage('note', `${ptoNames} read`, 'It names the chip for the next dump you open: drop a pass dump (.py) or a build_output/<case>/ folder.');
  }
  if (!dumps.length) return showMessage('error', 'Nothing to show', 'Drop a pass dump (.py), a build_output/<case>/ folder, or a .pto with a dump.');
  if (dumps.length > 2) return showMessage('error', `${dumps.length} dumps at once`, 'Drop one dump to see it, or two to compare them (the lower pass number is the old one).');
  // The input is known at once (its bytes are read by the worker): a .pto
  // dropped while they are read applies to it.
  const inputs = dumps.map((file) => ({ name: file.name, file, bytes: null, pto: null }));
  const [older, newer] = inputs.length === 2 ? await orderPair(inputs[0], inputs[1]) : [null, inputs[0]];
  if (!current()) return;
  setLinkedDump(null);
  leaveBuild();
  page.input = newer;
  page.base = older;
  hideFolderPickers();
  const text = pto.length ? await ptoText(pto) : page.pendingPto?.text;
  page.pendingPto = null;
  if (text) for (const input of inputs) input.pto = text;
  return current() ? analyze(current) : undefined;
}

function hideFolderPickers() {
  $('pass-picker').hidden = true;
  $('compare-picker').hidden = true;
  page.folder = null;
}

/** No build shown any more: a dump or case folder of its own was opened. */
function leaveBuild() {
  page.build = null;
  page.openCase = null;
}

/** Each case `{ pool, pto, name, pass }` resolved for its pass as the
 * core chooses among its dumps (one request for them all: a build has
 * thousands). */
async function resolveCases(cases) {
  const choices = await page.engine.folders(cases.map((c) => ({ names: poolNames(c), pass: c.pass, folder: c.name })));
  return cases.map((c, i) => resolveCase(c, choices[i]));
}

/** A build_output/ folder of cases: each case resolved as a folder is
 * (its pass's dump, its .pto), then all read for the overview. */
async function openBuild(cases, folderName, current) {
  setLinkedDump(null);
  hideFolderPickers();
  page.input = null;
  page.base = null;
  page.openCase = null;
  const founds = await resolveCases(cases.map((c) => ({ ...c, pass: page.pass })));
  if (!current()) return;
  const resolved = await Promise.all(cases.map(async (c, i) => {
    const found = founds[i];
    if (found.error) return { name: c.name, kase: c, error: found.error, folder: `${folderName}/${c.name}` };
    const pto = found.pto.length ? await ptoText(found.pto.map((e) => e.file)) : null;
    return { name: c.name, kase: c, dump: found.dump, pto, planner: found.planner, lifetimes: found.lifetimes,
      path: found.dump.path };
  }));
  if (!current()) return;
  page.build = { name: folderName, cases: resolved, data: null, onOpen: openCase, onBack: () => analyzeBuild(begin()) };
  if (location.hash) setAddress(location.search, '');
  return analyzeBuild(current);
}

/** A case of the build shown: its folder opened as a case, the build kept
 * (the top bar's way back, and the browser's Back, return to it). */
export function openCase(name, fn, { push = true } = {}) {
  const found = page.build?.cases.find((c) => c.name === name);
  if (!found) return;
  if (push) setAddress(location.search, buildHash(name, fn), { push: true });
  page.openCase = name;
  const current = begin();
  openCaseFolder(found.kase, name, current, { inBuild: true }).catch(readFailed(name, current));
}

/** A dropped folder: a build (a folder of cases, as the core finds
 * them) opens on its overview, a case as openCaseFolder does. */
export async function openFolder(entries, folderName, current = begin()) {
  leaveBuild();
  const { build, cases } = casesOf(entries, await page.engine.cases(pathsOf(entries)));
  if (!current()) return;
  if (build) return openBuild(cases, folderName, current);
  return openCaseFolder(cases[0], folderName, current);
}

/** A case's folder `{ pool, pto }`: resolve like the CLI, offer the
 * passes it holds, and the passes to compare with (`page.comparePass`,
 * '' for none). */
async function openCaseFolder(kase, folderName, current, { inBuild = false } = {}) {
  setLinkedDump(null);
  // The pickers read this folder again, whatever it shows: a refusal too.
  page.folder = { kase, name: folderName, inBuild };
  const folder = { ...kase, name: folderName, pass: page.pass };
  const [resolved, other] = await resolveCases(page.comparePass ? [folder, { ...folder, pass: page.comparePass }] : [folder]);
  if (!current()) return;
  const picker = $('pass');
  clear(picker);
  // A ptoas build opens its last pass for AllocateMemoryAddr, which it never ran: the picker shows that one.
  const shown = resolved.pass ?? page.pass;
  picker.append(...resolved.passes.map((p) => el('option', { value: p, selected: p === shown }, p)));
  $('pass-picker').hidden = resolved.passes.length === 0;
  const others = resolved.passes.filter((p) => p !== page.pass);
  if (!others.includes(page.comparePass)) page.comparePass = '';
  const compare = $('compare-pass');
  clear(compare);
  compare.append(el('option', { value: '' }, '—'), ...others.map((p) => el('option', { value: p, selected: p === page.comparePass }, p)));
  $('compare-picker').hidden = resolved.error != null || others.length === 0;
  page.base = null;
  if (resolved.error) {
    page.input = null;
    return showMessage('error', `Cannot open ${folderName}`, resolved.error);
  }
  const pto = resolved.pto.length ? await ptoText(resolved.pto.map((e) => e.file)) : null;
  const input = { ...inputOf(resolved.dump, pto, resolved), folderName };
  page.input = input;
  if (page.comparePass) {
    if (other?.dump) {
      const [older, newer] = await orderPair(inputOf(other.dump, pto, other), input);
      page.base = older;
      page.input = { ...newer, folderName };
    }
  }
  return current() ? analyze(current) : undefined;
}

/** A folder's dump as the page reads it (page.input's shape); the core's
 * note on the choice, unless the dump is drawn by lifetime (its cards say
 * so). */
const inputOf = (dump, pto, { planner, lifetimes, note }) =>
  ({ name: dump.name, path: dump.path, file: dump.file, bytes: null, pto, planner, lifetimes, note: lifetimes ? null : note });

/** Compare…: two dumps, or one to compare with the dump shown (the lower
 * pass number is the old one). */
export async function compareFiles(files, current) {
  const dumps = files.filter((f) => !f.name.endsWith('.pto'));
  leaveBuild();
  const shown = page.input && !page.base ? { ...page.input, folderName: undefined } : null;
  if (dumps.length === 1 && shown) {
    const chosen = { name: dumps[0].name, file: dumps[0], bytes: null, pto: shown.pto };
    const pair = await orderPair(shown, chosen);
    if (!current()) return;
    [page.base, page.input] = pair;
    setLinkedDump(null);
    hideFolderPickers();
    return analyze(current);
  }
  if (dumps.length !== 2) {
    return showMessage('error', 'Compare two dumps', shown
      ? 'Choose one dump to compare with the one shown, or two dumps.'
      : 'Choose two dumps (.py) to compare, with their .pto files if you have them.');
  }
  return openFiles(files, current);
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

async function onDrop(event, current) {
  event.preventDefault();
  page.stats.received = performance.now();
  $('dropzone').hidden = true;
  const items = [...(event.dataTransfer.items || [])];
  const folder = items.map((i) => i.webkitGetAsEntry?.()).find((e) => e?.isDirectory);
  if (folder) {
    const entries = [];
    await readDirectory(folder, folder.name, entries);
    return current() ? openFolder(entries, folder.name, current) : undefined;
  }
  return openFiles([...event.dataTransfer.files], current);
}

export function listenForDrops() {
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
    const current = begin();
    onDrop(e, current).catch(readFailed('the dropped files', current));
  });
}

/** The folder shown (or refused) read again for the pickers' passes. */
function reopenFolder() {
  const { folder } = page;
  if (!folder) return;
  const current = begin();
  openCaseFolder(folder.kase, folder.name, current, { inBuild: folder.inBuild }).catch(readFailed(folder.name, current));
}

/** An action's failure to read its files, shown unless a later one took over. */
function readFailed(what, current) {
  return (error) => {
    if (current()) showMessage('error', `Cannot read ${what}`, error.message);
  };
}

/** The file and folder buttons, the pass pickers and the examples. */
export function listenToInputs() {
  $('file').addEventListener('change', (e) => {
    page.stats.received = performance.now();
    const current = begin();
    openFiles([...e.target.files], current).catch(readFailed('the chosen files', current));
    e.target.value = '';
  });
  $('folder').addEventListener('change', (e) => {
    page.stats.received = performance.now();
    const current = begin();
    const files = [...e.target.files];
    const entries = files.map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
    const name = entries[0]?.path.split('/')[0] || 'the folder';
    openFolder(entries, name, current).catch(readFailed(name, current));
    e.target.value = '';
  });
  $('pass').addEventListener('change', (e) => {
    page.pass = e.target.value;
    reopenFolder();
  });
  $('compare-pass').addEventListener('change', (e) => {
    page.comparePass = e.target.value;
    reopenFolder();
  });
  $('compare-file').addEventListener('change', (e) => {
    const current = begin();
    compareFiles([...e.target.files], current).catch(readFailed('the chosen files', current));
    e.target.value = '';
  });
  for (const button of document.querySelectorAll('[data-example]')) {
    button.addEventListener('click', () => openExample(button.dataset.example));
  }
  page.examples = document.querySelector('#message .examples');
}

async function openExample(id) {
  const data = JSON.parse($('examples').textContent)[id];
  if (data) await openExampleData(data);
}

/** Keeps `?dump=` (and `?pto=`, `?base=`) naming the dump shown (and the
 * one it is compared with) when it came from a URL, so the page's link
 * reopens it; any other source drops them. */
function setLinkedDump(data) {
  const params = new URLSearchParams();
  if (data?.url) params.set('dump', data.url);
  if (data?.url && data.ptoUrl) params.set('pto', data.ptoUrl);
  if (data?.url && data.base?.url) params.set('base', data.base.url);
  const search = params.toString() ? `?${params}` : '';
  if (search !== location.search) setAddress(search, location.hash);
}

/** The path of a dump's URL on the site, decoded (a comparison names a
 * side by it when both have one name); undefined for inline text. */
function urlPath(url) {
  try {
    return url ? decodeURIComponent(new URL(url, location.href).pathname) : undefined;
  } catch {
    return undefined;
  }
}

/** A dump by URL or inline text: { name, text | url, pto | ptoUrl, base },
 * `base` the dump to compare it with ({ name, url }), or none. */
async function openExampleData(data, { keepSearch = false } = {}) {
  const current = begin();
  if (!keepSearch) setLinkedDump(data);
  try {
    const fetchOk = async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
      return response;
    };
    // Bytes as published: the core, not the browser, judges the encoding.
    const bytes = data.text != null ? new TextEncoder().encode(data.text).buffer : await (await fetchOk(data.url)).arrayBuffer();
    const pto = data.pto ?? (data.ptoUrl ? await (await fetchOk(data.ptoUrl)).text() : null);
    const baseBytes = data.base ? await (await fetchOk(data.base.url)).arrayBuffer() : null;
    if (!current()) return;
    leaveBuild();
    page.input = { name: data.name, path: urlPath(data.url), bytes, pto };
    page.base = data.base ? { name: data.base.name, path: urlPath(data.base.url), bytes: baseBytes, pto } : null;
    hideFolderPickers();
    await analyze(current);
  } catch (error) {
    if (current()) showMessage('error', `Cannot open ${data.name}`, error.message);
  }
}

/** A hosted page's `?dump=<relative url>`: a dump published beside it. */
export async function openLinkedDump() {
  const source = dumpSource(location.search, location.href);
  if (!source) return false;
  if (source.error) {
    begin();
    showMessage('error', 'Cannot open the linked dump', source.error);
    return true;
  }
  await openExampleData({ name: source.name, url: source.url, ptoUrl: source.ptoUrl, base: source.base }, { keepSearch: true });
  return true;
}

/** Back and Forward in a build: the hash names the case shown, or none
 * for the overview. */
export function listenToHistory() {
  window.addEventListener('popstate', () => {
    if (!page.build?.data) return;
    const wanted = new URLSearchParams(location.hash.replace(/^#/, '')).get('case');
    if (wanted && wanted !== page.openCase) return openCase(wanted, null, { push: false });
    if (!wanted && page.openCase) {
      page.openCase = null;
      analyzeBuild(begin());
    }
  });
}
