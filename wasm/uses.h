/* uses.h: the lines each tile is used on, from its bindings and reads. */
#ifndef MM_USES_H
#define MM_USES_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "model_internal.h"

/* Lines [first, last] use tile `tile`: a binding statement's lines, or a
 * read's one line. */
typedef struct mm_use {
  uint32_t tile, first, last;
} mm_use;

/* Fills every tile's `uses` (sorted, distinct, in `arena`) from `uses`,
 * which index `tiles`. False when out of memory. */
bool mm__tile_uses(mm_tile *tiles, size_t tile_count, const mm_use *uses, size_t use_count,
                   mm_arena *arena);

#endif
