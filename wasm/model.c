/* model.c: the public entry points, and the model's pipeline: the bytes
 * checked as text, then parsed (the fast path or the general parser) with
 * the collector listening; each compute function, as it ends, goes through
 * the stages: tiles, windows read, (packing by lifetime,) allocations,
 * layout, windows placed, liveness, idle spans (analyse and
 * model_function below); then the refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocations.h"
#include "collect.h"
#include "function_tiles.h"
#include "lexer.h"
#include "lifetimes.h"
#include "model_internal.h"
#include "parser.h"
#include "text_check.h"

void mm_error_clear(mm_error *error) {
  if (!error) return;
  mm__dealloc(error->message);
  for (size_t i = 0; i < error->function_count; i++)
    mm__dealloc(error->functions[i]);
  mm__dealloc(error->functions);
  memset(error, 0, sizeof *error);
}

void mm_free(void *buffer) { mm__dealloc(buffer); }

static char *heap_copy(const char *text) {
  size_t n = strlen(text);
  char *copy = mm__alloc(n + 1);
  if (copy) memcpy(copy, text, n + 1);
  return copy;
}

static void fail(mm_error *error, const mm_diag *diag) {
  if (!error) return;
  mm_error_clear(error);
  error->status = diag->status;
  error->line = diag->line;
  error->message = heap_copy(diag->message);
}

/* ------------------------------------------------------------ backend */

/* The first `pto.target_arch = "<arch>"` (whitespace allowed around =). */
static const mm_backend *backend_from_pto(const char *text, size_t len) {
  static const char key[] = "pto.target_arch";
  const size_t key_len = sizeof key - 1;
  for (size_t i = 0; text && i + key_len <= len; i++) {
    if (memcmp(text + i, key, key_len) != 0) continue;
    size_t j = i + key_len;
    while (j < len && (text[j] == ' ' || text[j] == '\t'))
      j++;
    if (j >= len || text[j] != '=') continue;
    j++;
    while (j < len && (text[j] == ' ' || text[j] == '\t'))
      j++;
    if (j >= len || text[j] != '"') continue;
    size_t begin = ++j;
    while (j < len && text[j] != '"' && text[j] != '\n')
      j++;
    if (j >= len || text[j] != '"') continue;
    for (size_t b = 0; b < mm_backend_count(); b++) {
      const mm_backend *backend = mm_backend_at(b);
      if (strlen(backend->arch) == j - begin && memcmp(backend->arch, text + begin, j - begin) == 0)
        return backend;
    }
    return NULL; /* the first attribute decides, even for an unknown arch */
  }
  return NULL;
}

static bool choose_backend(mm_model *model, const mm_options *options, mm_diag *diag) {
  if (options && options->backend) {
    model->backend = mm_backend_find(options->backend);
    model->detected = true;
    if (!model->backend) {
      char known[256] = "";
      for (size_t i = 0; i < mm_backend_count(); i++) {
        if (i) strncat(known, ", ", sizeof known - strlen(known) - 1);
        strncat(known, mm_backend_at(i)->name, sizeof known - strlen(known) - 1);
      }
      mm__diag_set(diag, MM_ERR_BACKEND, 0, "unknown backend '%.100s'; known backends: %s",
                   options->backend, known);
      return false;
    }
    return true;
  }
  model->backend = options ? backend_from_pto(options->pto_text, options->pto_len) : NULL;
  model->detected = model->backend != NULL;
  if (!model->backend) model->backend = mm_backend_at(0);
  return true;
}

/* ---------------------------------------------------------- dump name */

static bool name_dump(mm_model *model, const mm_options *options) {
  const char *dump = options && options->dump_name ? options->dump_name : "dump.py";
  size_t len = strlen(dump);
  model->dump = mm__arena_strndup(&model->arena, dump, len);
  /* pass_name: without a leading "<digits>_after_" and the ".py" suffix */
  size_t begin = 0, digits = 0;
  while (digits < len && dump[digits] >= '0' && dump[digits] <= '9')
    digits++;
  if (digits && len - digits >= 7 && memcmp(dump + digits, "_after_", 7) == 0) begin = digits + 7;
  size_t end = len;
  if (end - begin >= 3 && memcmp(dump + end - 3, ".py", 3) == 0) end -= 3;
  model->pass_name = mm__arena_strndup(&model->arena, dump + begin, end - begin);
  return model->dump && model->pass_name;
}

/* ------------------------------------------------------------ refusals */

/* No function has a tile placed: none binds one, or every one's MemRef
 * gives no address (the first such tile is named). */
static void refuse_no_tiles(const mm_model *model, mm_diag *diag) {
  const mm_skipped *first = NULL;
  size_t skipped = 0;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (!first && fn->skipped_count) first = &fn->skipped[0];
    skipped += fn->skipped_count;
  }
  if (!first) {
    mm__diag_set(diag, MM_ERR_NO_TILES, 0,
                 "no compute function (AIC, AIV or InCore) binds a tile with a MemRef: use a "
                 "dump written at or after the AllocateMemoryAddr pass; earlier passes carry no "
                 "MemRef addresses");
    return;
  }
  mm__diag_set(diag, MM_ERR_NO_TILES, first->line,
               "no tile has an address: %zu tile%s of compute functions carr%s a MemRef without "
               "one (the first, '%.60s' on line %u: %.160s); use a dump written at or after the "
               "AllocateMemoryAddr pass",
               skipped, skipped == 1 ? "" : "s", skipped == 1 ? "ies" : "y", first->name,
               (unsigned)first->line, first->reason);
}

/* Where the dump's pass runs relative to AllocateMemoryAddr, by name
 * (hw-native-sys/pypto pass_manager.py): the passes that run after it in
 * every planner's pipeline. Under memory_planner=PTOAS, MemoryReuse and
 * AllocateMemoryAddr do not run, and these dumps are its last word. */
typedef enum pass_stage { PASS_OTHER, PASS_ALLOCATE, PASS_AFTER } pass_stage;

static pass_stage stage_of(const char *dump) {
  /* The pass after the last "_after_" (a corpus may prefix the case). */
  const char *pass = dump, *at;
  while ((at = strstr(pass, "_after_")) != NULL)
    pass = at + 7;
  size_t len = strcspn(pass, ".");
  static const char *const after[] = {"FoldNoOpReshape",
                                      "FuseCreateAssembleToSlice",
                                      "DeriveCallDirections",
                                      "AutoDeriveTaskDependencies",
                                      "ExpandManualPhaseFence",
                                      "SynthesizeAllReduceSignals",
                                      "MaterializeCommDomainScopes",
                                      "LowerHostTensorCollectives",
                                      "MaterializeDistTensorCtx",
                                      "Simplify",
                                      "MaterializeRuntimeScopes",
                                      "ClassifyIterArgCarry",
                                      "InsertCommFence",
                                      "MaterializeValidShapeSymbols"};
  if (pass == dump) return PASS_OTHER;
  if (len == 18 && memcmp(pass, "AllocateMemoryAddr", len) == 0) return PASS_ALLOCATE;
  for (size_t i = 0; i < sizeof after / sizeof *after; i++)
    if (strlen(after[i]) == len && memcmp(pass, after[i], len) == 0) return PASS_AFTER;
  return PASS_OTHER;
}

/* Whether `fn` is refused as not allocated: every tile at 0 with two
 * bases in a space, as upstream refuses; or, in a dump not written by
 * AllocateMemoryAddr itself (whose planners may share addresses by
 * design), two bases of a space both starting at 0. */
static bool refused_unallocated(const mm_function *fn, pass_stage stage) {
  return fn->unallocated == MM_UNPLACED_ALL_ZERO ||
         (fn->unallocated == MM_UNPLACED_BASES_AT_ZERO && stage != PASS_ALLOCATE);
}

static const char *unallocated_message(pass_stage stage) {
  switch (stage) {
  case PASS_AFTER:
    return ": this pass runs after AllocateMemoryAddr, so most likely the build planned "
           "memory with memory_planner=PTOAS, which skips MemoryReuse and AllocateMemoryAddr: "
           "ptoas assigns the addresses, and no dump holds them. --lifetimes draws each tile by "
           "size and lifetime, with the least any placement needs. (If a planner did put those "
           "bases at 0, open the dump AllocateMemoryAddr wrote: it is drawn as it is.)";
  case PASS_ALLOCATE:
    return ", although AllocateMemoryAddr wrote this dump: the upstream tool refuses it too.";
  default:
    return ", so the dump predates AllocateMemoryAddr. Use the dump written after "
           "AllocateMemoryAddr (or a later pass); a build with memory_planner=PTOAS has none "
           "(ptoas assigns the addresses): --lifetimes draws its tiles by size and lifetime.";
  }
}

static bool refuse_unallocated(const mm_model *model, mm_error *error) {
  pass_stage stage = stage_of(model->dump);
  size_t count = 0, all_zero = 0;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    count += refused_unallocated(fn, stage);
    all_zero += fn->unallocated == MM_UNPLACED_ALL_ZERO;
  }
  if (!count) return false;
  mm_buf names = {0};
  mm_error_clear(error);
  error->status = MM_ERR_UNALLOCATED;
  error->functions = mm__alloc(count * sizeof *error->functions);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (!refused_unallocated(fn, stage)) continue;
    if (names.len) mm__buf_puts(&names, ", ");
    mm__buf_puts(&names, fn->name);
    if (error->functions) error->functions[error->function_count++] = heap_copy(fn->name);
  }
  mm_buf msg = {0};
  mm__buf_puts(&msg, all_zero == count
                         ? "addresses are not assigned: every MemRef still sits at offset 0 in "
                         : "addresses are not assigned: the bases of a space all start at offset 0 "
                           "in ");
  mm__buf_puts(&msg, names.data ? names.data : "");
  mm__buf_puts(&msg, unallocated_message(stage));
  error->message = msg.failed ? NULL : msg.data;
  if (msg.failed) mm__buf_free(&msg);
  mm__buf_free(&names);
  return true;
}

/* --------------------------------------------------------------- pipeline */

typedef struct pipeline {
  mm_model *model;
  bool keep_source;    /* copy each function's lines for `source` */
  bool by_lifetime;    /* no addresses in the dump: pack the bases (lifetimes.c) */
  bool planner_placed; /* written by AllocateMemoryAddr or a later pass */
} pipeline;

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
  return fn && mm__function_tiles(reading, fn, arena) &&                    /* function_tiles.c */
         (!pipe->keep_source || mm__function_source(reading, fn, arena)) && /* function_tiles.c */
         mm__window_reading_finish(reading->windows, fn, arena) &&          /* windows.c */
         (!pipe->by_lifetime ||
          mm__function_pack_by_lifetime(fn, reading->allocations)) && /* lifetimes.c */
         mm__function_allocations(reading->allocations, fn, arena) && /* allocations.c */
         mm__function_layout(fn, model->backend, arena) &&            /* layout.c */
         mm__function_windows(fn, model->backend, arena) &&           /* windows.c */
         mm__function_liveness(fn, arena) &&                          /* liveness.c */
         mm__function_idle(fn, arena);                                /* uses.c */
}

/* The text check, then the parse, the general way or the fast path first
 * (fast/), the collector handing each function to model_function. */
static bool analyse(mm_model *model, const char *input, size_t len, const mm_options *options,
                    mm_diag *diag) {
  bool fast_path = !(options && options->general_parser_only);
  if (!mm__check_text(input, len, diag)) return false; /* text_check.c */
  mm_diag lex_diag = {0};
  mm_lexer lexer;
  mm__lexer_init(&lexer, input, 0, len, 1, false, true, &lex_diag);
  pipeline pipe = {model, !(options && options->without_source), model->by_lifetime,
                   stage_of(model->dump) != PASS_OTHER};
  mm_collector collector;
  size_t stopped_at = 0;
  mm__collector_init(&collector, input, len, &lexer, &model->arena, diag, model_function, &pipe);
  mm__collector_notes(&collector, &model->notes, &model->note_count);
  bool ok = mm__parse_with(input, &lexer, &collector.events, diag, &stopped_at, fast_path) &&
            !mm__diag_failed(diag);
  mm__collector_free(&collector);
  /* Like CPython, the tokenizer's error is reported when parsing got to it
   * (a grammar error met before it is the one to report), and always when
   * the tokenizer ran out of memory. */
  bool reached_end = lexer.count && stopped_at + 1 >= lexer.count;
  if (mm__diag_failed(&lex_diag) && (ok || reached_end || lex_diag.status != MM_ERR_SYNTAX)) {
    *diag = lex_diag;
    ok = false;
    if (mm__lex_error_is_parsers(diag)) mm__lex_rest_errors(input, len, diag->line, diag);
  }
  if (ok && lexer.unstable_name.status != MM_OK) {
    *diag = lexer.unstable_name;
    ok = false;
  }
  mm__lexer_free(&lexer);
  return ok;
}

mm_model *mm_model_parse(const char *input, size_t len, const mm_options *options,
                         mm_error *error) {
  mm_diag diag = {0};
  if (error) memset(error, 0, sizeof *error);
  mm_model *model = mm__alloc(sizeof *model);
  if (!model) {
    mm__diag_set(&diag, MM_ERR_NO_MEMORY, 0, "out of memory");
    fail(error, &diag);
    return NULL;
  }
  memset(model, 0, sizeof *model);
  mm__arena_init(&model->arena);
  mm__vec_init(&model->functions, sizeof(mm_function));
  mm__vec_init(&model->notes, sizeof(mm_note));
  model->by_lifetime = options && options->lifetimes_only;
  if (len > MM_MAX_INPUT_BYTES) {
    mm__diag_set(&diag, MM_ERR_LIMIT, 0,
                 "the dump is %zu bytes; the largest accepted is %zu bytes (256 MiB)", len,
                 MM_MAX_INPUT_BYTES);
  } else if (!input && len) {
    mm__diag_set(&diag, MM_ERR_LIMIT, 0, "no input");
  } else if (choose_backend(model, options, &diag) && name_dump(model, options)) {
    analyse(model, input ? input : "", len, options, &diag);
  } else if (!mm__diag_failed(&diag)) {
    mm__diag_set(&diag, MM_ERR_NO_MEMORY, 0, "out of memory");
  }
  if (!mm__diag_failed(&diag) && mm_model_box_count(model) == 0) refuse_no_tiles(model, &diag);
  if (mm__diag_failed(&diag)) {
    fail(error, &diag);
  } else if (model->by_lifetime || !refuse_unallocated(model, error)) {
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

char *mm_analyze_json(const char *input, size_t len, const char *dump_name, const char *backend,
                      const char *pto_text, size_t pto_len, unsigned flags, size_t *out_len) {
  mm_options options = {.dump_name = dump_name,
                        .backend = backend,
                        .pto_text = pto_text,
                        .pto_len = pto_len,
                        .without_source = (flags & MM_JSON_WITHOUT_SOURCE) != 0,
                        .general_parser_only = (flags & MM_ANALYZE_GENERAL_PARSER) != 0,
                        .lifetimes_only = (flags & MM_ANALYZE_LIFETIMES) != 0};
  mm_error error;
  mm_model *model = mm_model_parse(input, len, &options, &error);
  char *json =
      model ? mm_model_to_json_with(model, flags, out_len) : mm_error_to_json(&error, out_len);
  mm_model_free(model);
  mm_error_clear(&error);
  return json;
}
