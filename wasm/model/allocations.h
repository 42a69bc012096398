/* allocations.h: a function's allocations (model.md, "Allocations"): the
 * `NAME: pl.Ptr = pl.tile.alloc(SPACE, SIZE[, pinned=True])` lines, each
 * base's space and size; a pinned one is held for the whole function. */
#ifndef MM_ALLOCATIONS_H
#define MM_ALLOCATIONS_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"
#include "model/model.h"
#include "syntax/ast.h"

/* Reads the statement `call` (bound to `target`, or NULL) into
 * `allocations` (mm_allocation) when it calls `<...>.alloc` with a memory
 * space; strings are copied into `arena`. False with `diag` set on an
 * error (out of memory, a size beyond 2^53). */
bool mm__allocation_read(mm_vec *allocations, const char *src, const mm_node *target,
                         const mm_node *call, uint32_t line, mm_arena *arena, mm_diag *diag);

/* Hands the allocations read to `fn`, each placed where its tiles sit, and
 * adds every placed pinned allocation to `fn`'s windows (kind
 * MM_WINDOW_PINNED): after mm__function_tiles and
 * mm__window_reading_finish, before mm__function_layout. False when out of
 * memory. */
bool mm__function_allocations(const mm_vec *allocations, mm_function *fn, mm_arena *arena);

#endif
