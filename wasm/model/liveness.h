/* liveness.h: live bytes per line (model.md, "Liveness"), the stage after
 * the windows are placed. */
#ifndef MM_LIVENESS_H
#define MM_LIVENESS_H

#include <stdbool.h>

#include "base/arena.h"
#include "model/model.h"

/* Fills each space's live profile, peak and peak composition, windows
 * included; after mm__function_windows. False when out of memory
 *. */
bool mm__function_liveness(mm_function *fn, mm_arena *arena);

#endif
