/* collect.h: turns parser events into the model's functions and tiles. */
#ifndef MM_COLLECT_H
#define MM_COLLECT_H

#include <stdbool.h>

#include "lexer.h"
#include "model_internal.h"
#include "names.h"
#include "parser.h"
#include "tiles.h"
#include "windows.h"

/* A name read in the function being read (its bytes in the source). */
typedef struct mm_read {
  uint32_t start, len, line;
} mm_read;

typedef struct mm_collector {
  mm_parse_events events; /* hand these to mm_parse */
  const char *src;
  size_t src_len;
  const mm_vec *line_starts; /* uint32_t, the lexer's: grows as it goes */
  mm_model *model;
  const mm_backend *backend;
  mm_diag *diag;
  bool keep_source; /* copy each function's lines for `source` (set after init) */
  /* the function being read */
  bool active;
  const char *name;
  size_t name_len;
  mm_str ftype;
  uint32_t first_line;
  mm_vec bindings;
  mm_vec reads; /* mm_read: every name read, resolved at the function's end */
  mm_vec uses;  /* mm_use: the lines each tile is used on (uses.h) */
  mm_window_reading windows;
} mm_collector;

void mm_collector_init(mm_collector *collector, const char *src, size_t src_len,
                       const mm_lexer *lexer, mm_model *model, const mm_backend *backend,
                       mm_diag *diag);
void mm_collector_free(mm_collector *collector);

#endif
