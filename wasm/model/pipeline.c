/* pipeline.c: the model's pipeline (mm_model_new, and pipeline.h's
 * switch): the bytes checked as text, then parsed (the fast path or the
 * general parser) with the collector listening; each compute function,
 * as it ends, goes through the stages: tiles, windows read, (packing by
 * lifetime,) allocations, layout, windows placed, liveness, idle spans
 * (analyze and model_function below); then the refusals. It includes
 * every stage and no stage includes it. */
#include <string.h>

#include "model/allocations.h"
#include "model/backends.h"
#include "model/collect.h"
#include "model/function_tiles.h"
#include "model/layout.h"
#include "model/lifetimes.h"
#include "model/liveness.h"
#include "model/pipeline.h"
#include "model/pipes.h"
#include "model/refusals.h"
#include "model/uses.h"
#include "model/what_if.h"
#include "model/windows.h"
#include "syntax/lexer.h"
#include "syntax/parser.h"
#include "syntax/syntax_errors.h"
#include "syntax/text_check.h"

/* The 1-based column, in code points, of byte `at - 1` of `input` (0: not known). */
static uint32_t column_of(const char *input, size_t len, uint32_t at) {
  if (!at || !input || at > len) return 0;
  size_t offset = at - 1, start = offset;
  while (start > 0 && input[start - 1] != '\n' && input[start - 1] != '\r')
    start--;
  if (start == 0 && len >= 3 && memcmp(input, "\xEF\xBB\xBF", 3) == 0)
    start = 3; /* a BOM is not shown */
  uint32_t column = 1;
  for (size_t i = start; i < offset; i++)
    column += ((unsigned char)input[i] & 0xC0) != 0x80; /* not a continuation byte */
  return column;
}

static void fail(mm_error *error, const mm_diag *diag, const char *input, size_t len) {
  if (!error) return;
  mm_error_clear(error);
  error->status = diag->status;
  error->line = diag->line;
  error->column = column_of(input, len, diag->at);
  error->message = mm__strdup(diag->message);
}

/* ---------------------------------------------------------- dump name */

static bool name_dump(mm_model *model, const mm_options *options) {
  const char *dump = options && options->dump_name ? options->dump_name : "dump.py";
  size_t len = strlen(dump);
  model->dump = mm__arena_strndup(&model->arena, dump, len);
  size_t begin = 0, end = len;
  mm__upstream_pass_name(dump, &begin, &end);
  model->pass_name = mm__arena_strndup(&model->arena, dump + begin, end - begin);
  return model->dump && model->pass_name;
}

/* --------------------------------------------------------------- pipeline */

typedef struct pipeline {
  mm_model *model;
  mm_source_keep keep_source; /* each function's lines for `source` */
  bool by_lifetime;           /* no addresses in the dump: pack the bases (lifetimes.c) */
  bool planner_placed;        /* written by AllocateMemoryAddr or a later pass */
  const mm_options *options;  /* for its progress callback */
  size_t input_len;
} pipeline;

/* Tells the caller how far the reading is: to the end of `fn`'s lines. */
static void report_progress(const pipeline *pipe, const mm_function *fn) {
  const mm_options *options = pipe->options;
  if (options && options->progress)
    options->progress(options->progress_context, fn->source_offset + fn->source_bytes,
                      pipe->input_len);
}

/* Hands the model so far to the caller's first_function (memory_map.h)
 * once the first compute function is through: unless it has no tile, or
 * tiles the dump would be refused for (refusals.c). */
static void show_first_function(const pipeline *pipe, const mm_function *fn) {
  const mm_options *options = pipe->options;
  const mm_model *model = pipe->model;
  if (!options || !options->first_function || model->functions.len != 1 || !fn->box_count) return;
  if (!pipe->by_lifetime &&
      mm__function_unallocated(fn, mm__pass_stage(model->dump), model->planner))
    return;
  options->first_function(options->first_function_context, model);
}

/* The stages of one compute function, in order, once the parser has read
 * it: its tiles (one per name, lifetimes, uses) and source lines; its
 * reserved windows' calls read; its allocations placed (a pinned one held
 * as a window); boxes, views, conflicts and space sums;
 * the windows placed; liveness; idle spans. Each stage takes what the ones
 * before made of `fn`. False when out of memory. */
static bool model_function(void *context, const mm_function_reading *reading) {
  pipeline *pipe = context;
  mm_model *model = pipe->model;
  mm_arena *arena = &model->arena;
  mm_function *fn = mm__vec_push(&model->functions);
  if (fn) {
    fn->by_lifetime = pipe->by_lifetime;
    fn->planner_placed = pipe->planner_placed;
  }
  return fn && mm__function_tiles(reading, fn, arena) &&               /* function_tiles.c */
         mm__function_source(reading, fn, pipe->keep_source, arena) && /* function_tiles.c */
         mm__window_reading_finish(reading->windows, fn, arena) &&     /* windows.c */
         (!pipe->by_lifetime ||
          mm__function_pack_by_lifetime(fn, reading->allocations,
                                        model->planner == MM_PLANNER_PTOAS)) && /* lifetimes.c */
         mm__function_allocations(reading->allocations, fn, arena) &&           /* allocations.c */
         mm__function_layout(fn, model->backend, arena) &&                      /* layout.c */
         mm__function_windows(fn, model->backend, arena) &&                     /* windows.c */
         mm__function_liveness(fn, arena) &&                                    /* liveness.c */
         mm__function_what_if(fn) &&                                            /* what_if.c */
         mm__function_idle(fn, arena) &&                                        /* uses.c */
         (show_first_function(pipe, fn), report_progress(pipe, fn), true);
}

/* The text check, then the parse, the general way or the fast path first
 * (syntax/fast/), the collector handing each function to model_function. */
static bool analyze(mm_model *model, const char *input, size_t len, const mm_options *options,
                    bool fast_path, bool borrow_source, mm_diag *diag) {
  if (!mm__check_text(input, len, diag)) return false; /* text_check.c */
  mm_diag lex_diag = {0};
  mm_lexer lexer;
  mm__lexer_init(&lexer, input, 0, len, 1, false, true, &lex_diag);
  mm_source_keep keep = options && options->without_source ? MM_SOURCE_NONE
                        : borrow_source                    ? MM_SOURCE_BORROW
                                                           : MM_SOURCE_COPY;
  pipeline pipe = {model,   keep, model->by_lifetime, mm__pass_stage(model->dump) != MM_PASS_OTHER,
                   options, len};
  mm_collector collector;
  size_t stopped_at = 0;
  mm__collector_init(&collector, input, len, &lexer, &model->arena, diag, model_function, &pipe);
  mm__collector_notes(&collector, &model->notes, &model->note_count);
  collector.relative_offsets = model->by_lifetime;
  bool ok = mm__parse_with(input, &lexer, &collector.events, diag, &stopped_at, fast_path) &&
            !mm__diag_failed(diag);
  model->compute_functions = collector.compute_functions;
  mm__collector_free(&collector);
  ok = mm__syntax_settle(input, len, &lexer, &lex_diag, stopped_at, ok, diag);
  mm__lexer_free(&lexer);
  return ok;
}

static mm_model *model_new(const char *input, size_t len, const mm_options *options,
                           mm_error *error, bool fast_path, bool borrow_source);

mm_model *mm_model_new(const char *input, size_t len, const mm_options *options, mm_error *error) {
  return model_new(input, len, options, error, true, false);
}

mm_model *mm_model_new_borrowing(const char *input, size_t len, const mm_options *options,
                                 mm_error *error) {
  return model_new(input, len, options, error, true, true);
}

mm_model *mm__model_new_with(const char *input, size_t len, const mm_options *options,
                             mm_error *error, bool fast_path) {
  return model_new(input, len, options, error, fast_path, false);
}

static mm_model *model_new(const char *input, size_t len, const mm_options *options,
                           mm_error *error, bool fast_path, bool borrow_source) {
  mm_diag diag = {0};
  if (error) memset(error, 0, sizeof *error);
  mm_model *model = mm__alloc(sizeof *model);
  if (!model) {
    mm__diag_set(&diag, MM_ERR_NO_MEMORY, 0, "out of memory");
    fail(error, &diag, NULL, 0);
    return NULL;
  }
  memset(model, 0, sizeof *model);
  mm__arena_init(&model->arena);
  mm__vec_init(&model->functions, sizeof(mm_function));
  mm__vec_init(&model->notes, sizeof(mm_note));
  model->by_lifetime = options && options->lifetimes_only;
  model->planner = options && options->planner <= MM_PLANNER_PTOAS ? (mm_planner)options->planner
                                                                   : MM_PLANNER_UNKNOWN;
  if (len > MM_MAX_INPUT_BYTES) {
    mm__diag_set(&diag, MM_ERR_LIMIT, 0,
                 "the dump is %zu bytes; the largest accepted is %zu bytes (256 MiB)", len,
                 MM_MAX_INPUT_BYTES);
  } else if (!input && len) {
    mm__diag_set(&diag, MM_ERR_LIMIT, 0, "no input");
  } else if (mm__choose_backend(model, options, &diag) && name_dump(model, options)) {
    analyze(model, input ? input : "", len, options, fast_path, borrow_source, &diag);
  } else if (!mm__diag_failed(&diag)) {
    mm__diag_set(&diag, MM_ERR_NO_MEMORY, 0, "out of memory");
  }
  bool nothing_on_chip = false;
  if (!mm__diag_failed(&diag) && mm_model_box_count(model) == 0)
    nothing_on_chip = mm__refuse_no_tiles(model, &diag);
  if (!mm__diag_failed(&diag) && !mm__model_pipes(model)) /* pipes.c */
    mm__diag_set(&diag, MM_ERR_NO_MEMORY, 0, "out of memory");
  if (mm__diag_failed(&diag)) {
    fail(error, &diag, input, len);
    if (error) error->nothing_on_chip = nothing_on_chip;
  } else if (model->by_lifetime || !mm__refuse_unallocated(model, model->planner, error)) {
    return model;
  }
  mm_model_free(model);
  return NULL;
}

void mm_model_free(mm_model *model) {
  if (!model) return;
  mm__vec_free(&model->functions);
  mm__vec_free(&model->notes);
  mm__arena_free(&model->arena);
  mm__dealloc(model);
}

size_t mm_model_function_count(const mm_model *model) { return model->functions.len; }

const char *mm_model_function_name(const mm_model *model, size_t index) {
  if (index >= model->functions.len) return NULL;
  return ((const mm_function *)mm__vec_at(&model->functions, index))->name;
}

size_t mm_model_box_count(const mm_model *model) {
  size_t n = 0;
  for (size_t i = 0; i < model->functions.len; i++)
    n += ((const mm_function *)mm__vec_at(&model->functions, i))->box_count;
  return n;
}
