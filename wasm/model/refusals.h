/* refusals.h: when a dump is refused rather than drawn (model.md,
 * "Refusals"), judged once every function went through the stages. */
#ifndef MM_REFUSALS_H
#define MM_REFUSALS_H

#include <stdbool.h>

#include "base/diag.h"
#include "model/model.h"
#include "rules/dump_names.h"

/* No function has a tile placed: `diag` says why, naming the first tile
 * whose MemRef gives no address when there is one. True when that means
 * the program keeps nothing on chip: no tile at all in a dump written at
 * or after AllocateMemoryAddr (or of a build its folder names). */
bool mm__refuse_no_tiles(const mm_model *model, mm_diag *diag);

/* Whether `fn`'s tiles have no addresses yet, in a dump of `stage` of a
 * build `planner` placed: the dump is then refused
 * (mm__refuse_unallocated). Its layout must be done. */
bool mm__function_unallocated(const mm_function *fn, mm_pass_stage stage, mm_planner planner);

/* True, with `error` filled, when a function's tiles have no addresses
 * yet (an mm_placement the dump's pass does not explain). */
bool mm__refuse_unallocated(const mm_model *model, mm_planner planner, mm_error *error);

#endif
