/* what_if.h: where a tile would fit in a function's space (model.md,
 * "What if"), the stage after the live profile: the tile that sets each
 * space's high-water mark moved to the lowest gap free over its lifetime,
 * and any size and lifetime asked by a caller. */
#ifndef MM_WHAT_IF_H
#define MM_WHAT_IF_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/* The planners' alignment of a buffer's start (PyPTO's default allocator
 * policy: 32 bytes in every on-chip space). */
#define MM_ALIGNMENT 32

/* Fills each space's what-if: its mark's tile (a box of a base not
 * pinned) moved, with its base's other boxes, to the lowest gap free over
 * their lifetimes (in the planners' time where a planner placed the dump:
 * an input handed over in place holds nothing); none when that would
 * raise the mark of a tile not in conflict. After mm__function_liveness.
 * False when out of memory. */
bool mm__function_what_if(mm_function *fn);

#endif
