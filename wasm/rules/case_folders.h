/* case_folders.h: which folders of a dropped or given tree are cases (a
 * build_output/<case>/), where each keeps its pass dumps and its .pto
 * files: the rule the command line applies to a listing
 * (mm_entry_makes_case) and the page to a dropped folder's paths. */
#ifndef MM_CASE_FOLDERS_H
#define MM_CASE_FOLDERS_H

#include <stdbool.h>
#include <stddef.h>

#include "memory_map.h"

/* One case of a tree of paths: its folder (the first `dir_len` bytes of
 * path `paths[dir_of]`), its pass dumps' pool and its ptoas/ *.pto files
 * (indices into the paths, in path order). */
typedef struct mm__case {
  size_t dir_of, dir_len;
  size_t *pool, pool_count;
  size_t *pto, pto_count;
} mm__case;

typedef struct mm__cases {
  bool build; /* the tree's top is a folder of cases, not one case */
  mm__case *cases;
  size_t count;
  size_t *storage; /* the pools' and pto lists' indices */
} mm__cases;

/* The cases of `paths` (`count` '/'-separated paths, each starting with
 * the tree's top folder): the folders at most MM_CASE_DEPTH below the
 * top that mm_entry_makes_case, the outermost where one holds another,
 * in byte order; when the top is itself a case or holds none, the top
 * alone. A case's pool is its passes_dump/ folder's files when it has
 * one, else its own files; its .pto files those of ptoas/ beside the
 * pool's folder. False when out of memory. */
bool mm__cases_find(const char *const *paths, size_t count, mm__cases *out);

void mm__cases_free(mm__cases *cases);

#endif
