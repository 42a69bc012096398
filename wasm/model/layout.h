/* layout.h: boxes from tiles (model.md, "Boxes", "Views and conflicts"):
 * the stage after allocations, and the space sums it leaves. */
#ifndef MM_LAYOUT_H
#define MM_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "model/model.h"

/* Whether `fn`'s tiles carry addresses (an mm_placement, model.md §13),
 * as mm__function_layout sets `unallocated`; `*ok` false when out of
 * memory. */
uint8_t mm__tiles_placement(const mm_function *fn, bool *ok);

/* Groups a function's tiles into boxes, finds views and conflicts, and
 * sums up each space. False when out of memory. */
bool mm__function_layout(mm_function *fn, const mm_backend *backend, mm_arena *arena);

/* The usage of `space` (the same pointer as the boxes') in `fn`, or
 * NULL. */
const mm_space_usage *mm__function_space(const mm_function *fn, const char *space);

#endif
