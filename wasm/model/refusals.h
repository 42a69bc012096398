/* refusals.h: when a dump is refused rather than drawn (model.md,
 * "Refusals"), judged once every function went through the stages. */
#ifndef MM_REFUSALS_H
#define MM_REFUSALS_H

#include <stdbool.h>

#include "base/diag.h"
#include "model/model.h"

/* Where the dump's pass runs relative to AllocateMemoryAddr, by the pass
 * name after the dump name's last "_after_". */
typedef enum mm_pass_stage { MM_PASS_OTHER, MM_PASS_ALLOCATE, MM_PASS_AFTER } mm_pass_stage;
mm_pass_stage mm__pass_stage(const char *dump);

/* No function has a tile placed: `diag` says why, naming the first tile
 * whose MemRef gives no address when there is one. */
void mm__refuse_no_tiles(const mm_model *model, mm_diag *diag);

/* Whether `fn`'s tiles have no addresses yet, in a dump of `stage`: the
 * dump is then refused (mm__refuse_unallocated). */
bool mm__function_unallocated(const mm_function *fn, mm_pass_stage stage);

/* True, with `error` filled, when a function's tiles have no addresses
 * yet (an mm_placement the dump's pass does not explain). */
bool mm__refuse_unallocated(const mm_model *model, mm_error *error);

#endif
