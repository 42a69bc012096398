/* lifetimes.h: a function of a dump without addresses (memory planned by
 * ptoas) laid out by size and lifetime instead (model.md, "Drawn by
 * lifetime"). */
#ifndef MM_LIFETIMES_H
#define MM_LIFETIMES_H

#include <stdbool.h>

#include "model/model.h"

/* When `fn`'s tiles carry no addresses (mm__tiles_placement), or
 * `always` (the build's folder says ptoas placed it), packs its
 * bases first-fit by their first line, each tile keeping its
 * offset within its base, above the function's rings (placed from 0 when
 * their base is not known); a pinned one of `allocations` (mm_allocation,
 * as read) is held for the whole function, all its bytes. Moves the
 * tiles' offsets and places those rings; otherwise clears
 * fn->by_lifetime and leaves it as it is. After mm__window_reading_finish, before
 * mm__function_allocations. False when out of memory. */
bool mm__function_pack_by_lifetime(mm_function *fn, const mm_vec *allocations, bool always);

#endif
