/* build.h: a build of many cases as the reports read it (build.c keeps
 * it; build_text.c, build_json.c and build_junit.c write it). */
#ifndef MM_BUILD_H
#define MM_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "memory_map.h"
#include "output/pipe_rows.h"

/* A case: a dump read (function_count functions from first_function on)
 * or not read (`error` set: the status's name, its message and line). */
typedef struct mm_build_case {
  const char *name, *dump;
  const char *backend; /* NULL when not read */
  bool backend_detected;
  bool by_lifetime; /* read as placed by ptoas: drawn by lifetime */
  uint32_t first_function, function_count;
  uint32_t problems;
  const char *error, *error_message;
  uint32_t error_line;
  /* Read, and keeping nothing on chip (mm_error.nothing_on_chip): why;
   * NULL otherwise. Not an error: nothing to check, nothing to fail. */
  const char *nothing_on_chip;
} mm_build_case;

typedef struct mm_build_function {
  uint32_t case_index;
  const char *name, *ftype;
  uint32_t line;     /* where its source begins */
  uint32_t problems; /* its check lines, notes aside */
  uint32_t first_problem;
} mm_build_function;

/* One space of one function of one case: the --summary row. */
typedef struct mm_build_row {
  uint32_t case_index, function_index; /* into cases, functions */
  const char *space;
  uint32_t rank; /* the space's place in the lane order */
  int64_t hwm, limit, reserved, peak_live, fragmentation;
  bool has_capacity;
  /* Drawn by lifetime (placed by ptoas): `hwm` and `peak_live` are the
   * least any placement needs, `peak_line` where it is first needed; no
   * fragmentation is known. */
  bool at_least;
  uint32_t peak_line, tiles, conflicts, over_capacity, unplaced;
  /* What ends at the mark: a box's name and lines, or a window's name and
   * line (set_by_end 0); NULL: nothing (an empty space). */
  const char *set_by;
  uint32_t set_by_line, set_by_end;
} mm_build_row;

/* A ring of a case's cross-core pipe with its pipe's answers (strings
 * copied): a row of the summary's pipes table. */
typedef struct mm_build_ring {
  uint32_t case_index;
  mm_ring_facts facts;
} mm_build_ring;

/* A line of the check: an anomaly of the model, a broken threshold, or a
 * case not read (function UINT32_MAX). */
typedef struct mm_build_problem {
  uint32_t case_index, function_index;
  const char *kind;  /* "conflict", "over_capacity", ..., "headroom", "usage", "error" */
  const char *space; /* NULL: none */
  uint32_t line;
  const char *text; /* as --check prints it, without the newline */
  bool note;        /* "(and N more ...)": printed, not counted */
} mm_build_problem;

struct mm_build {
  mm_arena arena; /* every string and the limits */
  mm_limit *limits;
  size_t limit_count;
  mm_vec cases, functions, rows, problems, rings;
  size_t failures, errors;
};

/* The rows in the summary's order: least headroom first, rows without a
 * capacity last, else by case, function and space. An array of indices
 * the caller frees with mm__dealloc; NULL when out of memory. */
uint32_t *mm__build_order(const mm_build *build);

#endif
