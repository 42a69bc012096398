/* uses.h: the lines each tile is used on, from its bindings and reads. */
#ifndef MM_USES_H
#define MM_USES_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "model/model.h"

/* Lines [first, last] use tile `tile`: a binding statement's lines, or a
 * read's one line. */
typedef struct mm_use {
  uint32_t tile, first, last;
} mm_use;

/* Fills every tile's `uses` (sorted, distinct, in `arena`) from `uses`,
 * which index `tiles`. False when out of memory. */
bool mm__tile_uses(mm_tile *tiles, size_t tile_count, const mm_use *uses, size_t use_count,
                   mm_arena *arena);

/* Each box's uses (its run's tiles' together) and longest idle span;
 * after mm__function_layout. False when out of memory. */
bool mm__function_idle(mm_function *fn, mm_arena *arena);

/* A box's bytes x idle lines (0 without an idle span or bytes), at most
 * 2^53 so a JSON reader holds it exactly. */
int64_t mm__idle_cost(const mm_box *box);

#endif
