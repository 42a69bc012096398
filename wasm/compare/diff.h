/* diff.h: what changed between two models of one kernel (diff.c), as the
 * writers of the comparison read it (diff_json.c, diff_report.c). */
#ifndef MM_DIFF_H
#define MM_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "compare/side.h"
#include "model/anomalies.h"
#include "model/model.h"

typedef enum mm_function_status {
  MM_FUNCTION_UNCHANGED,
  MM_FUNCTION_CHANGED,
  MM_FUNCTION_ADDED,
  MM_FUNCTION_REMOVED
} mm_function_status;

/* What changed of a tile found on both sides (bits), or that it is on
 * one side only. */
enum {
  MM_TILE_MOVED = 1,   /* another space, base or offset */
  MM_TILE_RESIZED = 2, /* another size */
  MM_TILE_LONGER = 4,  /* live over more statements */
  MM_TILE_SHORTER = 8,
  MM_TILE_ADDED = 16,
  MM_TILE_REMOVED = 32
};

/* A space of a function on either side (NULL where absent). */
typedef struct mm_space_diff {
  const char *space;
  const mm_space_usage *old_usage, *new_usage;
  bool changed; /* present on one side only, or another hwm, peak, limit or reserve */
} mm_space_diff;

/* A box of the old side matched to one of the new (by a name they share,
 * else by what it is: mm_side_box.kind, in order), or a box of one side
 * only. */
typedef struct mm_tile_diff {
  uint32_t old_box, new_box; /* MM_NO_BOX on the side it is not on */
  uint32_t changes;          /* MM_TILE_* bits; 0: the same */
  uint32_t old_statements, new_statements;
  bool by_kind; /* matched by kind: their names differ in the compiler's counters */
} mm_tile_diff;

/* An anomaly (model/anomalies.h) on one side that the other has not. */
typedef struct mm_anomaly_diff {
  const mm_side_anomaly *entry; /* on the new side when it appeared, else the old */
  bool appeared;
} mm_anomaly_diff;

typedef struct mm_function_diff {
  const char *name, *ftype;
  const mm_side_function *old_fn, *new_fn; /* NULL on the side it is not on */
  uint32_t old_index, new_index;           /* in each model; UINT32_MAX: absent */
  mm_function_status status;
  mm_space_diff *spaces; /* in space order */
  uint32_t space_count;
  /* Matched pairs and added boxes in the new side's box order, then the
   * removed ones in the old side's. */
  mm_tile_diff *tiles;
  uint32_t tile_count;
  mm_anomaly_diff *anomalies; /* appeared (in line order), then gone */
  uint32_t anomaly_count;
  uint32_t hwm_grew; /* spaces whose high-water mark grew (both sides present) */
} mm_function_diff;

/* Totals over all functions. */
typedef struct mm_diff_counts {
  uint32_t functions[4]; /* by mm_function_status */
  uint32_t moved, resized, longer, shorter, added, removed;
  uint32_t by_kind; /* pairs matched by kind, not by a name */
  uint32_t appeared, gone;
  uint32_t hwm_grew, hwm_shrank;
} mm_diff_counts;

struct mm_diff {
  mm_arena arena;
  mm_side *old_side, *new_side; /* owned */
  mm_function_diff
      *functions; /* the new side's order, each removed one after its old predecessor */
  size_t function_count;
  mm_diff_counts counts;
};

/* Compares two sides, taking them over (freed with the diff, or here
 * when out of memory: NULL). */
mm_diff *mm__diff_of_sides(mm_side *old_side, mm_side *new_side);

/* The comparison as a JSON object (diff_json.c). */
void mm__diff_json(mm_buf *out, const mm_diff *diff);

/* What `--diff --check` fails on: anomalies that appeared, and spaces
 * whose high-water mark grew (diff_report.c). */
size_t mm__diff_regressions(const mm_diff *diff);

/* The high-water mark that is compared: the one the compiler checks,
 * reserved windows included; 0 for an absent space. */
int64_t mm__diff_hwm(const mm_space_usage *usage);

#endif
