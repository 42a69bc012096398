/* backends.h: the SoC table's internal side: the known spaces in rank
 * order, and which backend a dump is drawn against. */
#ifndef MM_BACKENDS_H
#define MM_BACKENDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "model/model.h"

/* Rank of a space in the fixed order Vec, Mat, Left, LeftScale, Right,
 * RightScale, Acc, Bias; 8 for any other. */
uint32_t mm__space_rank(const char *space);

/* The known space of `rank`, NULL past the last. */
const char *mm__space_at(size_t rank);

/* The rank of the known space spelt text[0, len), 8 (past the last) for
 * any other. */
size_t mm__space_find(const char *text, size_t len);

/* Sets the model's backend: the one `options` names (MM_ERR_BACKEND in
 * `diag` when unknown), else the one the .pto text's first
 * `pto.target_arch` gives (`detected`), else the first, assumed. */
bool mm__choose_backend(mm_model *model, const mm_options *options, mm_diag *diag);

#endif
