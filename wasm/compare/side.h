/* side.h: what a comparison reads of one model (side.c): taken from a
 * model in this process, or read back from the bytes another process (the
 * page's second worker) wrote of its model, so that two dumps can be read
 * on two cores and compared in one. */
#ifndef MM_SIDE_H
#define MM_SIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/anomalies.h"
#include "model/model.h"
#include "output/json.h"

typedef struct mm_side_box {
  const char *name, *space, *base;
  /* What the tile is, to match it in another build whose compiler
   * counters differ: its name's stem (rules/tile_names.h), space, shape,
   * dtype and op, '|' between them. */
  const char *kind;
  const char *const *aliases;
  uint32_t alias_count;
  int64_t offset, size;
  uint32_t start, end;
  uint32_t statements; /* from start to end (mm__statements_in) */
} mm_side_box;

/* An anomaly, with what its side names it by and says of it. */
typedef struct mm_side_anomaly {
  mm_anomaly anomaly;
  /* Names both sides can match it by: its window (and the window it
   * overlaps), or the tile the model could not place; NULL: none. */
  const char *key_a, *key_b;
  const char *text; /* the check's line for it, newline included */
} mm_side_anomaly;

typedef struct mm_side_function {
  const char *name, *ftype;
  /* The spaces' figures a comparison shows (space, hwm, hwm_all, limit,
   * peak_live, reserved_bytes, tiles); the rest are zero when read back. */
  const mm_space_usage *spaces;
  uint32_t space_count;
  const mm_side_box *boxes; /* the model's box order */
  uint32_t box_count;
  const mm_side_anomaly *anomalies; /* in line order; notes left out */
  uint32_t anomaly_count;
} mm_side_function;

typedef struct mm_side {
  mm_arena arena;
  mm_dump_fields fields; /* the dump's name, its pass, the backend */
  const mm_side_function *functions;
  size_t function_count;
} mm_side;

/* `model`'s side; it points into the model, which must outlive it. NULL
 * when out of memory. */
mm_side *mm__side_of(const mm_model *model);

/* The side as bytes for mm__side_read (owned by the caller, mm__dealloc);
 * NULL when out of memory. */
char *mm__side_write(const mm_side *side, size_t *out_len);

/* The side from mm__side_write's bytes (copied: `bytes` may go). NULL when
 * they are not a side's (`*malformed` set) or out of memory. */
mm_side *mm__side_read(const char *bytes, size_t len, bool *malformed);

void mm__side_free(mm_side *side);

#endif
