/* function_tiles.h: a compute function's tiles from its reading (the
 * model's first stage after parsing), and its source lines. */
#ifndef MM_FUNCTION_TILES_H
#define MM_FUNCTION_TILES_H

#include <stdbool.h>

#include "model/collect.h"
#include "model/model.h"

/* Fills `fn`'s name, type, lines and tiles (one per name, lifetimes and
 * uses) from reading `r`, in `arena`. False when out of memory. */
bool mm__function_tiles(const mm_function_reading *r, mm_function *fn, mm_arena *arena);

/* What `source` holds: nothing, a copy of the lines in the model's arena
 * (the model keeps no reference to the caller's input), or the input's
 * own bytes (mm_model_new_borrowing: the caller keeps them). */
typedef enum mm_source_keep { MM_SOURCE_NONE, MM_SOURCE_COPY, MM_SOURCE_BORROW } mm_source_keep;

/* Records where `fn`'s lines (src_start..src_end) are in the input and
 * keeps them for `source` as `keep` says. False when out of memory. */
bool mm__function_source(const mm_function_reading *r, mm_function *fn, mm_source_keep keep,
                         mm_arena *arena);

/* How many of `fn`'s statements begin on lines [first, last]. */
uint32_t mm__statements_in(const mm_function *fn, uint32_t first, uint32_t last);

/* A lifetime of lines [start, end] in the planners' time: each statement
 * at line p reads its inputs at 2p and writes its outputs at 2p + 1
 * (memref_dsa_adapter.cpp; MemoryReuse: last use <= definition). What is
 * bound on `start` is written at 2 * start + 1; its last read is at 2s,
 * s the line of the statement holding `end`, or at 2s + 1 when a loop
 * holds that statement but not `start` (the next turn reads it again);
 * never before it is written. Two lifetimes whose time points do not
 * meet may share bytes: an in-place handoff (model.md §7). */
void mm__lifetime_points(const mm_function *fn, uint32_t start, uint32_t end, uint64_t *first,
                         uint64_t *last);

#endif
