/* liveness.h: live bytes per line (model.md, "Liveness"), the stage after
 * the windows are placed. */
#ifndef MM_LIVENESS_H
#define MM_LIVENESS_H

#include <stdbool.h>

#include "base/arena.h"
#include "model/model.h"

/* Fills each space's live profile, peak and peak composition, windows
 * included, and for a function drawn by lifetime its lower bound; after
 * mm__function_windows. False when out of memory. */
bool mm__function_liveness(mm_function *fn, mm_arena *arena);

/* The line where a function drawn by lifetime first needs its space's
 * lower bound (a window alone: the function's first line). */
uint32_t mm__lower_bound_line(const mm_function *fn, const mm_space_usage *u);

/* Whether box `box` is live at time point `at` (mm__lifetime_points). */
bool mm__box_live_at(const mm_function *fn, const mm_box *box, uint64_t at);

#endif
