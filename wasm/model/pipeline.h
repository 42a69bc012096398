/* pipeline.h: the model's pipeline with its one switch for tests. */
#ifndef MM_PIPELINE_H
#define MM_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "memory_map.h"

/* mm_model_new, with `fast_path` false reading every statement with the
 * general parser: the model is the same either way (tests hold them to
 * it), only the time differs. */
mm_model *mm__model_new_with(const char *input, size_t len, const mm_options *options,
                             mm_error *error, bool fast_path);

#endif
