/* collect.h: turns the parser's events into a reading of each compute
 * function, handed to the model's stages (pipeline.c) as the function ends. */
#ifndef MM_COLLECT_H
#define MM_COLLECT_H

#include <stdbool.h>

#include "base/names.h"
#include "model/model.h"
#include "model/tiles.h"
#include "model/windows.h"
#include "syntax/lexer.h"
#include "syntax/parser.h"

/* A name read in the function being read (its bytes in the source). */
typedef struct mm_read {
  uint32_t start, len, line;
} mm_read;

/* An annotated binding of a name: a tile (`fields` and `op` set) or, when
 * `is_tile` is false, an annotation that binds no tile, which still
 * stretches a tile of that name bound before it (function_tiles.c). */
typedef struct mm_binding {
  const char *name; /* into the source */
  uint32_t name_len;
  uint32_t line, end_line, depth; /* depth: in Python's AST below the function */
  bool is_tile;
  mm_tile_fields fields;
  const char *op;
} mm_binding;

/* What the parser said of one compute function; valid during the
 * mm_function_done call only. */
typedef struct mm_function_reading {
  const char *src;
  size_t src_len;
  const mm_vec *line_starts; /* uint32_t: every line's start up to the function's end */
  const char *name;          /* into the source */
  size_t name_len;
  mm_str ftype;
  uint32_t first_line, last_line;
  const mm_binding *bindings; /* in source order */
  size_t binding_count;
  const mm_read *reads; /* every name read, in source order */
  size_t read_count;
  mm_window_reading *windows; /* its reserved windows' calls */
  const uint32_t *statements; /* the line each statement begins on, ascending */
  size_t statement_count;
  const mm_loop *loops; /* its `for` and `while` loops, in the order they end */
  size_t loop_count;
  const mm_skipped *skipped; /* tiles without an address, in source order */
  size_t skipped_count;
  const mm_vec *allocations; /* mm_allocation: its `alloc` lines */
  const mm_attr *attrs;      /* its attributes, a later key replacing an earlier one */
  size_t attr_count;
} mm_function_reading;

/* Receives each function's reading; false when out of memory. */
typedef bool (*mm_function_done)(void *context, const mm_function_reading *reading);

typedef struct mm_collector {
  mm_parse_events events; /* hand these to mm__parse */
  const char *src;
  size_t src_len;
  const mm_vec *line_starts; /* uint32_t, the lexer's: grows as it goes */
  mm_arena *arena;           /* the model's: strings and fields kept */
  mm_diag *diag;
  mm_function_done on_function;
  void *context;
  /* The dump is drawn by lifetime: offsets are relative to buffers not
   * placed yet (mm__tile_from_annotation). */
  bool relative_offsets;
  mm_vec *notes;            /* mm_note: the printer's defects read anyway (the model's) */
  size_t *note_count;       /* all of them */
  size_t compute_functions; /* AIC, AIV and InCore functions met, with a tile or not */
  /* the function being read */
  bool active;
  const char *name;
  size_t name_len;
  mm_str ftype;
  uint32_t first_line;
  mm_vec bindings;    /* mm_binding */
  mm_vec reads;       /* mm_read: resolved by the tiles stage, as a read may come first */
  mm_vec statements;  /* uint32_t: the line each statement begins on */
  mm_vec loops;       /* mm_loop */
  mm_vec skipped;     /* mm_skipped */
  mm_vec allocations; /* mm_allocation */
  mm_vec attrs;       /* mm_attr */
  mm_window_reading windows;
} mm_collector;

/* `on_function(context, reading)` is called as each compute function with
 * a tile (placed or skipped) ends; strings and fields go into `arena`. */
void mm__collector_init(mm_collector *collector, const char *src, size_t src_len,
                        const mm_lexer *lexer, mm_arena *arena, mm_diag *diag,
                        mm_function_done on_function, void *context);
/* Notes of the printer's defects go to `notes` (mm_note, at most
 * MM_MAX_NOTES kept) and are counted in `*count`. */
void mm__collector_notes(mm_collector *collector, mm_vec *notes, size_t *count);
void mm__collector_free(mm_collector *collector);

#endif
