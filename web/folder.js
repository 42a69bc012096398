// Resolving a dropped folder like the CLI does (docs/cli.md):
// build_output/<case>/ or its passes_dump/, the dump the core chooses of
// its files (mm_folder_json: the highest-numbered `*_after_<PASS>.py`,
// who placed the build, a ptoas build's last dump), and ptoas/*.pto beside
// passes_dump/ for the backend. Pure: entries are { path, file } with
// '/'-separated relative paths; the core's choice is handed in.

const DUMP = /^(\d*)_after_(.+)\.py$/;

const segments = (path) => path.split('/').filter(Boolean);

/** Compares two digit strings as numbers of any length ('' is lowest). */
export function compareNumbers(a, b) {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (!a || !b) return (a ? 1 : 0) - (b ? 1 : 0);
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The files of a folder that may be its pass dumps: those in a
 * passes_dump/ folder if there is one, else those at its top. */
export function dumpPool(entries) {
  const inPassesDump = entries.filter((e) => {
    const parts = segments(e.path);
    return parts.length >= 2 && parts[parts.length - 2] === 'passes_dump';
  });
  return inPassesDump.length ? inPassesDump : entries.filter((e) => segments(e.path).length <= 2);
}

/** The file names the core chooses among (chooseInFolder). */
export const poolNames = (entries) => dumpPool(entries).map((e) => segments(e.path).pop());

/** The dumps of a folder, by the picker's reading of a name. */
export function dumpsIn(entries) {
  return dumpPool(entries).flatMap((e) => {
    const name = segments(e.path).pop();
    const match = DUMP.exec(name);
    return match ? [{ ...e, name, number: match[1], pass: match[2] }] : [];
  });
}

/** The pass a dump's name says it was written after, or null. */
export const passOf = (name) => DUMP.exec(name)?.[2] ?? null;

/** The passes present, in the order the compiler ran them (by number). */
export function passesIn(entries) {
  const byPass = new Map();
  for (const d of dumpsIn(entries)) {
    const seen = byPass.get(d.pass);
    if (!seen || compareNumbers(d.number, seen) > 0) byPass.set(d.pass, d.number);
  }
  return [...byPass].sort((a, b) => compareNumbers(a[1], b[1])).map(([pass]) => pass);
}

/**
 * A folder resolved with `choice`, what the core said of its poolNames
 * (chooseInFolder): { dump, pto, passes, planner, lifetimes, note } (the
 * dump's entry with its `name`; the case's .pto files in name order; who
 * placed the build, whether the dump is drawn by lifetime, and what the
 * core tells of the choice, or null), or { passes, error } with the
 * core's message.
 */
export function resolveFolder(entries, choice) {
  const passes = passesIn(entries);
  if (choice.dump === null) return { passes, error: choice.error };
  const chosen = dumpPool(entries)[choice.dump];
  const dump = { ...chosen, name: segments(chosen.path).pop() };
  const dumpParts = segments(dump.path);
  const caseDir = dumpParts.slice(0, -2).join('/');
  const pto = entries
    .filter((e) => {
      const parts = segments(e.path);
      return parts.length >= 2 && parts[parts.length - 2] === 'ptoas' && parts.slice(0, -2).join('/') === caseDir &&
        e.path.endsWith('.pto');
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { dump, pto, passes, planner: choice.planner, lifetimes: choice.by_lifetime, note: choice.note ?? null };
}

/** Whether `rest`, a path below a folder, makes that folder a case: a
 * passes_dump/ or ptoas/ folder in it, or a pass dump of its own (as the
 * CLI tells a case, docs/cli.md "A whole build"). */
const makesCase = (rest) =>
  rest.startsWith('passes_dump/') || rest.startsWith('ptoas/') || (!rest.includes('/') && DUMP.test(rest));

/** Folders deeper than this under a build are not searched for cases. */
const MAX_DEPTH = 3;

/**
 * A dropped build_output/ folder's cases, in name order: each `{ name }`
 * (its path below the build, `nested/case`) and its `entries`, re-rooted
 * at the case's own folder so that resolveFolder reads each as a case.
 * [] when the folder is itself a case, or holds none.
 */
export function casesIn(entries) {
  const paths = entries.map((e) => segments(e.path).join('/'));
  const root = paths[0]?.split('/')[0];
  if (!root) return [];
  // Each folder down to the depth searched: the entries below it, and
  // whether one makes it a case. One pass over the paths: a build has
  // thousands of cases, each would otherwise scan every path.
  const folders = new Map();
  paths.forEach((p, i) => {
    const parts = p.split('/');
    let dir = parts[0];
    for (let depth = 1; depth < parts.length && depth <= MAX_DEPTH + 1; dir += `/${parts[depth++]}`) {
      let folder = folders.get(dir);
      if (!folder) folders.set(dir, (folder = { below: [], isCase: false }));
      folder.below.push(i);
      folder.isCase ||= makesCase(parts.slice(depth).join('/'));
    }
  });
  if (folders.get(root)?.isCase) return [];
  const cases = [...folders].filter(([dir, f]) => dir !== root && dir.startsWith(`${root}/`) && f.isCase)
    .map(([dir]) => dir).sort();
  // A case inside a case is part of it: the outer one is kept.
  const isCase = new Set(cases);
  const outer = cases.filter((dir) => !ancestors(dir).some((up) => up !== root && isCase.has(up)));
  return outer.map((dir) => {
    const parent = dir.slice(0, dir.lastIndexOf('/') + 1);
    return {
      name: dir.slice(root.length + 1),
      entries: folders.get(dir).below.map((i) => {
        const e = entries[i];
        return { ...e, path: e.path.slice(e.path.indexOf(`${dir}/`) + parent.length) };
      }),
    };
  });
}

/** The folders above `dir`, a '/'-joined path, outermost first. */
const ancestors = (dir) => dir.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'));
