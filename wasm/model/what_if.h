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

/* The lowest MM_ALIGNMENT-aligned offset where `size` bytes of `space`
 * share no byte with a box live on any of lines first..last, nor with a
 * placed window; boxes of base `moving` (NULL: none) are left out, as the
 * tile being moved. Always found (above everything, at worst); -1 only
 * when out of memory. */
int64_t mm__lowest_fit(const mm_function *fn, const char *space, int64_t size, uint32_t first,
                       uint32_t last, const char *moving);

/* The high-water mark of `space` (windows included) without the boxes of
 * base `moving`. */
int64_t mm__mark_without(const mm_function *fn, const char *space, const char *moving);

/* Fills each space's what-if: its mark's tile (a box of a base not
 * pinned) moved, with its base's other boxes, to the lowest gap free over
 * their lifetimes; after mm__function_liveness. False when out of
 * memory. */
bool mm__function_what_if(mm_function *fn);

#endif
