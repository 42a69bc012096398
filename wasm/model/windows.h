/* windows.h: reserved windows (model.md, "Reserved windows"): read from
 * a function's calls, then placed in their spaces (a stage after layout). */
#ifndef MM_WINDOWS_H
#define MM_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "model/model.h"
#include "syntax/ast.h"

#include "rules/window_calls.h"

/* The calls of the function being read. */
typedef struct mm_window_reading {
  const char *space; /* the consuming core's: Mat in AIC functions, else Vec */
  mm_vec windows;    /* mm_window */
  mm_vec imports;    /* mm_import */
  mm_vec pipes;      /* pipe records (windows.c) */
} mm_window_reading;

void mm__window_reading_init(mm_window_reading *reading);
/* Forgets the calls read; `ftype` gives the new function's space. */
void mm__window_reading_start(mm_window_reading *reading, const char *ftype, size_t ftype_len);
void mm__window_reading_free(mm_window_reading *reading);

/* Reads the statement `call` (bound to `target`, or NULL) when it is one
 * of the calls above; strings and names are copied into `arena`. False
 * with `diag` set on an error (out of memory, an integer beyond 2^53). */
bool mm__window_read(mm_window_reading *reading, const char *src, const mm_node *target,
                     const mm_node *call, uint32_t line, mm_arena *arena, mm_diag *diag);

/* Hands the function's windows and imports to `fn` (in `arena`), each
 * window with the slot size and count of the pipe naming it. */
bool mm__window_reading_finish(mm_window_reading *reading, mm_function *fn, mm_arena *arena);

/* Places the reserved windows in their spaces (a space of windows only
 * is added), sums their bytes, flags the boxes sharing their bytes and
 * finds the high-water mark with one more ring slot; after
 * mm__function_layout. False when out of memory. */
bool mm__function_windows(mm_function *fn, const mm_backend *backend, mm_arena *arena);

#endif
