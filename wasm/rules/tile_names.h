/* tile_names.h: what of a tile's name the compiler numbers. Its passes
 * add counters that differ between two builds of one kernel (another
 * planner, another pass order): an inlining counter (`w_inline82__tile`),
 * an SSA version (`oi__ssa_v0`, `acc__iter_v1`, `t__row_major_tmp_v21`)
 * and an instance number at the end (`t__tile_1`, `..._Right_3`). */
#ifndef MM_TILE_NAMES_H
#define MM_TILE_NAMES_H

#include <stddef.h>

/* `name` without those counters into `out` (room for `len`, NUL-
 * terminated, cut to fit); the counters' letters stay, their digits go:
 * `w_chunk_inline82__tile_Right_1` gives `w_chunk_inline__tile_Right`. */
void mm__tile_name_stem(const char *name, char *out, size_t len);

#endif
