/* case_folders.c: what makes a folder a case, and a tree of paths read
 * for its cases, their pass dumps and their .pto files. */
#include "rules/case_folders.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

bool mm_entry_makes_case(const char *name, bool is_dir) {
  if (is_dir) return strcmp(name, "passes_dump") == 0 || strcmp(name, "ptoas") == 0;
  size_t n = strlen(name);
  return n > 3 && strcmp(name + n - 3, ".py") == 0 && mm_dump_pass(name, NULL) != NULL;
}

/* A path and where it was given. */
typedef struct entry {
  const char *path;
  size_t index;
} entry;

/* A folder of the tree: the first `len` bytes of path `index`. */
typedef struct folder {
  const char *path;
  size_t len, index;
} folder;

static int compare_entries(const void *a, const void *b) {
  return strcmp(((const entry *)a)->path, ((const entry *)b)->path);
}

static int compare_folders(const void *a, const void *b) {
  const folder *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int order = memcmp(x->path, y->path, n);
  return order ? order : (x->len > y->len) - (x->len < y->len);
}

/* Whether the folder ending at `path[len]` makes a case by the entry
 * that follows it in the path (a folder when a '/' follows that). */
static bool makes_case_at(const char *path, size_t len) {
  const char *name = path + len + 1;
  const char *slash = strchr(name, '/');
  if (!slash) return mm_entry_makes_case(name, false);
  char folder_name[sizeof "passes_dump"];
  size_t n = (size_t)(slash - name);
  if (n >= sizeof folder_name) return false;
  memcpy(folder_name, name, n);
  folder_name[n] = 0;
  return mm_entry_makes_case(folder_name, true);
}

/* The folders 1 to MM_CASE_DEPTH below the top that make a case, sorted,
 * each once (hidden folders are not searched); `*top_is_case` when the
 * top makes one. NULL when out of memory. */
static folder *case_folders(const char *const *paths, size_t count, size_t *found_count,
                            bool *top_is_case) {
  folder *found = mm__alloc((count * MM_CASE_DEPTH + 1) * sizeof *found);
  if (!found) return NULL;
  size_t n = 0;
  for (size_t i = 0; i < count; i++) {
    const char *path = paths[i];
    const char *slash = strchr(path, '/');
    for (int depth = 0; slash && depth <= MM_CASE_DEPTH; depth++) {
      size_t len = (size_t)(slash - path);
      if (makes_case_at(path, len)) {
        if (depth == 0)
          *top_is_case = true;
        else
          found[n++] = (folder){path, len, i};
      }
      if (slash[1] == '.') break;
      slash = strchr(slash + 1, '/');
    }
  }
  qsort(found, n, sizeof *found, compare_folders);
  size_t unique = 0;
  for (size_t i = 0; i < n; i++)
    if (!unique || compare_folders(&found[unique - 1], &found[i]) != 0) found[unique++] = found[i];
  *found_count = unique;
  return found;
}

/* Whether folder `f` lies inside another of the sorted `cases`. */
static bool inside_another(const folder *cases, size_t count, const folder *f) {
  for (size_t len = f->len; len > 0; len--) {
    if (f->path[len - 1] != '/') continue;
    folder up = {f->path, len - 1, 0};
    if (bsearch(&up, cases, count, sizeof *cases, compare_folders)) return true;
  }
  return false;
}

/* The paths in byte order, and room for a prefix of any of them. */
typedef struct tree {
  const entry *sorted;
  size_t count;
  char *scratch; /* the longest path's length + sizeof "/passes_dump/" */
} tree;

/* The first of the sorted entries whose path is at or after `prefix`'s
 * first `len` bytes. */
static size_t first_at(const entry *sorted, size_t count, const char *prefix, size_t len) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strncmp(sorted[mid].path, prefix, len) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The files right inside `dir` (its first `len` bytes) then `sub` ("" or
 * "name/"), ending in `suffix`: their indices into `out`, in path order;
 * how many. */
static size_t files_in(const tree *t, const char *dir, size_t len, const char *sub,
                       const char *suffix, size_t *out) {
  size_t sub_len = strlen(sub), suffix_len = strlen(suffix), n = 0;
  const entry *sorted = t->sorted;
  size_t count = t->count;
  char *prefix = t->scratch;
  memcpy(prefix, dir, len);
  prefix[len] = '/';
  memcpy(prefix + len + 1, sub, sub_len + 1);
  size_t prefix_len = len + 1 + sub_len;
  for (size_t k = first_at(sorted, count, prefix, prefix_len); k < count; k++) {
    const char *path = sorted[k].path;
    if (strncmp(path, prefix, prefix_len) != 0) break;
    const char *name = path + prefix_len;
    size_t name_len = strlen(name);
    if (!name_len || strchr(name, '/') || name_len < suffix_len ||
        strcmp(name + name_len - suffix_len, suffix) != 0)
      continue;
    out[n++] = sorted[k].index;
  }
  return n;
}

/* The case at folder `f`: its pool (passes_dump/'s files, else its own)
 * and the .pto files of ptoas/ beside the pool's folder, their indices
 * taken from `*next` on. */
static mm__case case_at(const tree *t, const folder *f, size_t **next) {
  mm__case c = {f->index, f->len, *next, 0, NULL, 0};
  c.pool_count = files_in(t, f->path, f->len, "passes_dump/", "", c.pool);
  bool in_passes_dump = c.pool_count > 0;
  if (!in_passes_dump) c.pool_count = files_in(t, f->path, f->len, "", "", c.pool);
  c.pto = c.pool + c.pool_count;
  if (in_passes_dump) {
    c.pto_count = files_in(t, f->path, f->len, "ptoas/", ".pto", c.pto);
  } else {
    size_t parent = f->len;
    while (parent > 0 && f->path[parent - 1] != '/')
      parent--;
    if (parent > 1) c.pto_count = files_in(t, f->path, parent - 1, "ptoas/", ".pto", c.pto);
  }
  *next = c.pto + c.pto_count;
  return c;
}

/* The cases `found` leaves once those inside another are dropped, or the
 * top alone: each filled in from the sorted entries. */
static bool fill_cases(const tree *t, const folder *found, size_t found_count, const folder *top,
                       mm__cases *out) {
  /* A path is in at most one case's pool and one's .pto files. */
  out->storage = mm__alloc(2 * t->count * sizeof *out->storage);
  out->cases = mm__alloc((found_count + 1) * sizeof *out->cases);
  if (!out->storage || !out->cases) return false;
  size_t *next = out->storage;
  for (size_t i = 0; i < found_count; i++)
    if (!inside_another(found, found_count, &found[i]))
      out->cases[out->count++] = case_at(t, &found[i], &next);
  out->build = out->count > 0;
  if (!out->build) out->cases[out->count++] = case_at(t, top, &next);
  return true;
}

bool mm__cases_find(const char *const *paths, size_t count, mm__cases *out) {
  *out = (mm__cases){0};
  if (!count) return true;
  bool top_is_case = false, ok = false;
  size_t found_count = 0;
  size_t longest = 0;
  for (size_t i = 0; i < count; i++)
    if (strlen(paths[i]) > longest) longest = strlen(paths[i]);
  entry *sorted = mm__alloc(count * sizeof *sorted);
  char *scratch = mm__alloc(longest + sizeof "/passes_dump/");
  folder *found = case_folders(paths, count, &found_count, &top_is_case);
  if (sorted && scratch && found) {
    for (size_t i = 0; i < count; i++)
      sorted[i] = (entry){paths[i], i};
    qsort(sorted, count, sizeof *sorted, compare_entries);
    tree t = {sorted, count, scratch};
    const char *slash = strchr(paths[0], '/');
    folder top = {paths[0], slash ? (size_t)(slash - paths[0]) : strlen(paths[0]), 0};
    ok = fill_cases(&t, found, top_is_case ? 0 : found_count, &top, out);
  }
  mm__dealloc(sorted);
  mm__dealloc(scratch);
  mm__dealloc(found);
  if (!ok) mm__cases_free(out);
  return ok;
}

void mm__cases_free(mm__cases *cases) {
  mm__dealloc(cases->cases);
  mm__dealloc(cases->storage);
  *cases = (mm__cases){0};
}
