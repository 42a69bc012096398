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

/* How many of `fn`'s statements begin on lines [first, last]
 *. */
uint32_t mm__statements_in(const mm_function *fn, uint32_t first, uint32_t last);

#endif
