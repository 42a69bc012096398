/* boundary.h: the one-call entry's test switch, kept out of the public
 * header (the page's tests call it through the WebAssembly module). */
#ifndef MM_BOUNDARY_H
#define MM_BOUNDARY_H

#include <stdbool.h>
#include <stddef.h>

#include "memory_map.h"

/* mm_analyze_json, with `fast_path` false reading every statement with
 * the general parser: the same model, for tests that hold the two to it. */
char *mm__analyze_json_with(const char *input, size_t len, const mm_options *options,
                            unsigned flags, bool fast_path, size_t *out_len);

#endif
