/* anomalies.h: a function's anomalies, as `--check` writes them
 * (output/check_text.c) and the comparison of two dumps matches them
 * (compare/diff.c). */
#ifndef MM_ANOMALIES_H
#define MM_ANOMALIES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/* One line of the check: a conflicting pair of boxes, a box over
 * capacity, a box sharing a reserved window's bytes, two windows sharing
 * bytes, a window over capacity, a tile the model could not place, a
 * space drawn by lifetime that no placement fits (its boxes and windows
 * are then not flagged one by one: the packing's addresses are not the
 * planner's); or a note that a box or window has more partners than are
 * listed. */
typedef enum mm_anomaly_kind {
  MM_ANOMALY_MORE,
  MM_ANOMALY_OVER,
  MM_ANOMALY_PAIR,
  MM_ANOMALY_WINDOW,
  MM_ANOMALY_WINDOW_MORE,
  MM_ANOMALY_WINDOW_OVERLAP,
  MM_ANOMALY_WINDOW_OVER,
  MM_ANOMALY_UNPLACED, /* a tile whose MemRef gives no address: `other` is its fn->skipped index */
  /* Drawn by lifetime: a space's lower bound past its capacity, no
   * placement fits (`other` is its fn->spaces index) */
  MM_ANOMALY_NEEDS
} mm_anomaly_kind;

#define MM_NO_BOX UINT32_MAX

typedef struct mm_anomaly {
  uint32_t line;
  uint32_t box;   /* the box; MM_NO_BOX for the window kinds but MM_ANOMALY_WINDOW */
  uint32_t other; /* the partner box, or the window for the window kinds */
  uint8_t kind;   /* mm_anomaly_kind */
} mm_anomaly;

/* `fn`'s anomalies, each pair once, in line order (then by box, kind and
 * partner): an array the caller frees with mm__dealloc, its length in
 * `*count`; NULL when out of memory. */
mm_anomaly *mm__function_anomalies(const mm_function *fn, size_t *count);

/* The kind as JSON and the build's reports name it: "over_capacity",
 * "conflict", "window_conflict", "window_overlap", "unplaced_tile",
 * "window_over_capacity", "needs_more" or "more" for a note. Static
 * storage. */
const char *mm__anomaly_kind_name(uint8_t kind);

/* Whether `a` is a note (more partners than listed), not an anomaly. */
bool mm__anomaly_is_note(const mm_anomaly *a);

#endif
