// A dropped folder read as the command line reads one on disk: which of
// its folders are cases, each case's pass dumps and .pto files
// (mm_cases_json), and the dump chosen among them for a pass
// (mm_folder_json). The core decides all of it; this groups the dropped
// entries by its answers. Pure: entries are { path, file } with
// '/'-separated paths starting with the dropped folder's name.

const nameOf = (path) => path.slice(path.lastIndexOf('/') + 1);

/** The paths the core reads the folder from (casesOf's `found`). */
export const pathsOf = (entries) => entries.map((e) => e.path.split('/').filter(Boolean).join('/'));

/**
 * The dropped folder's cases as the core found them in `pathsOf(entries)`
 * (`found`, mm_cases_json's answer): { build, cases }, each case
 * { name, pool, pto } with the entries of its pass dumps (`pool`, what the
 * core chooses among) and its .pto files. A case's name is its folder
 * below the top (`nested/case`), or, the folder being one case, the
 * folder's own name.
 */
export function casesOf(entries, found) {
  return {
    build: found.build,
    cases: found.cases.map((c) => ({
      name: found.build ? c.dir.slice(c.dir.indexOf('/') + 1) : c.dir,
      pool: c.pool.map((i) => entries[i]),
      pto: c.pto.map((i) => entries[i]),
    })),
  };
}

/** The file names the core chooses among (mm_folder_json). */
export const poolNames = (kase) => kase.pool.map((e) => nameOf(e.path));

/**
 * A case resolved with `choice`, what the core said of its poolNames:
 * { dump, pass, pto, passes, planner, lifetimes, note } (the dump's entry
 * with its `name` and the pass it was written after; the passes present
 * in the order the compiler ran them; who placed the build, whether the
 * dump is drawn by lifetime, and what the core tells of the choice, or
 * null), or { passes, error } with the core's message.
 */
export function resolveCase(kase, choice) {
  const { passes } = choice;
  if (choice.dump === null) return { passes, error: choice.error };
  const chosen = kase.pool[choice.dump];
  return { dump: { ...chosen, name: nameOf(chosen.path) }, pass: choice.dump_pass, pto: kase.pto, passes,
    planner: choice.planner, lifetimes: choice.by_lifetime, note: choice.note ?? null };
}

/** Two dumps `a`, `b`, the older first: the one the core's `choice` of
 * their two names (mm_folder_json, names [a.name, b.name]) does not call
 * the latest (`last`: the higher pass number, 10 after 9); the order
 * given for one name twice or names of no pass. */
export function olderFirst(a, b, choice) {
  return a.name !== b.name && choice.last === 0 ? [b, a] : [a, b];
}
