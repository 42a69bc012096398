/* boundary.c: the one-call functions the page calls (include/memory_map.h,
 * "One-call boundary"): a dump's bytes and options in, one JSON or SVG
 * buffer out, the refusal's JSON in place of the answer. */
#include "boundary.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "compare/diff.h"
#include "model/model.h"
#include "model/pipeline.h"
#include "output/json.h"
#include "rules/case_folders.h"
#include "rules/dump_names.h"

/* The page writes these structs into the heap by offset (web/core.js). */
#if defined(__wasm32__)
_Static_assert(sizeof(mm_options) == 36 && offsetof(mm_options, backend) == 4 &&
                   offsetof(mm_options, pto_text) == 8 && offsetof(mm_options, pto_len) == 12 &&
                   offsetof(mm_options, without_source) == 16 &&
                   offsetof(mm_options, lifetimes_only) == 17 &&
                   offsetof(mm_options, planner) == 18 && offsetof(mm_options, progress) == 20 &&
                   offsetof(mm_options, progress_context) == 24 &&
                   offsetof(mm_options, first_function) == 28 &&
                   offsetof(mm_options, first_function_context) == 32,
               "mm_options' layout is the page's: change web/core.js and the header with it");
_Static_assert(sizeof(mm_svg_options) == 32 && offsetof(mm_svg_options, last_line) == 4 &&
                   offsetof(mm_svg_options, axis_used) == 8 &&
                   offsetof(mm_svg_options, hidden) == 12 && offsetof(mm_svg_options, zoom) == 16 &&
                   offsetof(mm_svg_options, map_width) == 24 &&
                   offsetof(mm_svg_options, dark) == 28 &&
                   offsetof(mm_svg_options, hide_profile) == 29,
               "mm_svg_options' layout is the page's: change web/core.js and the header with it");
#endif

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
/* The page's worker sets Module.onProgress for a request (web/worker.js). */
EM_JS(void, mm__js_progress, (double done, double total), {
  if (Module.onProgress) Module.onProgress(done, total);
});
static void progress_to_js(void *context, size_t done, size_t total) {
  (void)context;
  mm__js_progress((double)done, (double)total);
}

/* And Module.onPreview, to be handed the first function's JSON as soon as
 * it is modelled (mm_options.first_function): the page shows a big dump's
 * first card while the core reads the rest. */
EM_JS(int, mm__js_wants_preview, (void), { return Module.onPreview ? 1 : 0; });
EM_JS(void, mm__js_preview, (const char *json, double len), { Module.onPreview(json >>> 0, len); });
static void preview_to_js(void *context, const mm_model *model) {
  size_t len = 0;
  char *json = mm_model_to_json_with(model, (unsigned)(uintptr_t)context, &len);
  if (json)
    mm__js_preview(json, (double)len); /* out of memory: no preview, the model still comes */
  mm_free(json);
}
#endif

/* `options` with the source lines not copied when the JSON leaves them
 * out anyway, and, in the page's module, progress and the first function
 * reported to it, in the JSON's form (`flags`) but for its heads. */
static mm_options with_flags(const mm_options *options, unsigned flags) {
  mm_options read = options ? *options : (mm_options){0};
  if (flags & MM_JSON_WITHOUT_SOURCE) read.without_source = true;
#if defined(__EMSCRIPTEN__)
  if (!read.progress) read.progress = progress_to_js;
  if (!read.first_function && mm__js_wants_preview()) {
    read.first_function = preview_to_js;
    read.first_function_context = (void *)(uintptr_t)(flags & ~(unsigned)MM_JSON_SPLIT_HEADS);
  }
#endif
  return read;
}

char *mm_analyze_json(const char *input, size_t len, const mm_options *options, unsigned flags,
                      size_t *out_len) {
  return mm__analyze_json_with(input, len, options, flags, true, out_len);
}

/* The model's JSON or the refusal's; with `side` non-NULL, the model's
 * side as bytes there too (NULL when refused or out of memory). */
static char *analyze(const char *input, size_t len, const mm_options *options, unsigned flags,
                     bool fast_path, size_t *out_len, char **side, size_t *side_len) {
  mm_options read = with_flags(options, flags);
  mm_error error;
  mm_model *model = mm__model_new_with(input, len, &read, &error, fast_path);
  char *json =
      model ? mm_model_to_json_with(model, flags, out_len) : mm_error_to_json(&error, out_len);
  if (side) {
    mm_side *of_model = json && model ? mm__side_of(model) : NULL;
    *side = of_model ? mm__side_write(of_model, side_len) : NULL;
    if (!*side) *side_len = 0;
    mm__side_free(of_model);
  }
  mm_model_free(model);
  mm_error_clear(&error);
  return json;
}

char *mm__analyze_json_with(const char *input, size_t len, const mm_options *options,
                            unsigned flags, bool fast_path, size_t *out_len) {
  return analyze(input, len, options, flags, fast_path, out_len, NULL, NULL);
}

char *mm_analyze_json_side(const char *input, size_t len, const mm_options *options, unsigned flags,
                           size_t *out_len, char **side, size_t *side_len) {
  return analyze(input, len, options, flags, true, out_len, side, side_len);
}

char *mm_compare_sides_json(const char *old_side, size_t old_len, const char *new_side,
                            size_t new_len, size_t *out_len) {
  bool old_malformed = false, new_malformed = false;
  mm_side *old_read = mm__side_read(old_side, old_len, &old_malformed);
  mm_side *new_read = old_read ? mm__side_read(new_side, new_len, &new_malformed) : NULL;
  if (!new_read) mm__side_free(old_read);
  mm_diff *diff = new_read ? mm__diff_of_sides(old_read, new_read) : NULL; /* owns both */
  if (!diff) {
    bool malformed = old_malformed || new_malformed;
    mm_error error = {.status = malformed ? MM_ERR_ENCODING : MM_ERR_NO_MEMORY,
                      .message = malformed ? "not a side of a comparison this version wrote"
                                           : "out of memory"};
    return mm_error_to_json(&error, out_len);
  }
  char *json = mm_diff_to_json(diff, out_len);
  mm_diff_free(diff);
  return json;
}

static char *refusal(const mm_error *error, const char *which, size_t *out_len) {
  mm_buf out = {0};
  mm__buf_putc(&out, '{');
  mm__json_error_fields(&out, error);
  mm__buf_puts(&out, ",\"side\":\"");
  mm__buf_puts(&out, which);
  mm__buf_puts(&out, "\"}\n");
  return mm__buf_finish(&out, out_len);
}

/* {"old": model, "new": model, "diff": ...}, the models whole (the split
 * form is one model's: the page reads a comparison's two on two workers). */
static char *comparison_json(const mm_model *old_model, const mm_model *new_model,
                             const mm_diff *diff, unsigned flags, size_t *out_len) {
  flags &= ~(unsigned)(MM_JSON_SPLIT_BODIES | MM_JSON_SPLIT_HEADS);
  mm_buf out = {0};
  mm__buf_reserve(&out,
                  mm__json_size_guess(old_model, flags) + mm__json_size_guess(new_model, flags));
  mm__buf_puts(&out, "{\"old\":");
  mm__json_model(&out, old_model, flags);
  mm__buf_puts(&out, ",\n\"new\":");
  mm__json_model(&out, new_model, flags);
  mm__buf_puts(&out, ",\n\"diff\":");
  mm__diff_json(&out, diff);
  mm__buf_puts(&out, "}\n");
  return mm__buf_finish(&out, out_len);
}

char *mm_compare_json(const char *old_input, size_t old_len, const mm_options *old_options,
                      const char *new_input, size_t new_len, const mm_options *new_options,
                      unsigned flags, size_t *out_len) {
  mm_options old_read = with_flags(old_options, flags), new_read = with_flags(new_options, flags);
  mm_error error;
  mm_model *old_model = mm_model_new(old_input, old_len, &old_read, &error);
  if (!old_model) {
    char *json = refusal(&error, "old", out_len);
    mm_error_clear(&error);
    return json;
  }
  mm_model *new_model = mm_model_new(new_input, new_len, &new_read, &error);
  if (!new_model) {
    char *json = refusal(&error, "new", out_len);
    mm_error_clear(&error);
    mm_model_free(old_model);
    return json;
  }
  mm_diff *diff = mm_diff_new(old_model, new_model);
  char *json = NULL;
  if (diff) {
    json = comparison_json(old_model, new_model, diff, flags, out_len);
  } else {
    error = (mm_error){.status = MM_ERR_NO_MEMORY, .message = "out of memory"};
    json = refusal(&error, "both", out_len);
  }
  mm_diff_free(diff);
  mm_model_free(old_model);
  mm_model_free(new_model);
  return json;
}

char *mm_analyze_svg(const char *input, size_t len, const mm_options *options, uint32_t function,
                     const mm_svg_options *svg, size_t *out_len) {
  /* The SVG draws no source line: the copy is never needed. */
  mm_options lean = with_flags(options, MM_JSON_WITHOUT_SOURCE);
  mm_error error = {0};
  mm_model *model = mm_model_new(input, len, &lean, &error);
  char *result = NULL;
  if (model && function < model->functions.len) {
    result = mm_model_svg(model, function, svg, out_len);
  } else if (model) {
    error.status = MM_ERR_LIMIT;
    error.message = mm__alloc(64);
    if (error.message)
      snprintf(error.message, 64, "no function %u: the dump has %zu", (unsigned)function,
               model->functions.len);
  }
  if (!result && error.status != MM_OK && (error.status != MM_ERR_LIMIT || error.message))
    result = mm_error_to_json(&error, out_len);
  mm_model_free(model);
  mm_error_clear(&error);
  return result;
}

char *mm_analyze_build_json(const char *input, size_t len, const mm_options *options,
                            const char *case_name, const char *dump, size_t *out_len) {
  mm_options read = with_flags(options, MM_JSON_WITHOUT_SOURCE);
  read.progress = NULL; /* a case of many: the page counts cases instead */
  mm_build *build = mm_build_new(NULL, 0);
  if (!build) return NULL;
  mm_error error;
  mm_model *model = mm_model_new(input, len, &read, &error);
  bool ok = model ? mm_build_add_model(build, case_name, dump, model)
                  : mm_build_add_error(build, case_name, dump, &error);
  mm_model_free(model);
  mm_error_clear(&error);
  char *json = ok ? mm_build_to_json(build, out_len) : NULL;
  mm_build_free(build);
  return json;
}

char *mm_analyze_fit_json(const char *input, size_t len, const mm_options *options,
                          uint32_t function, const char *space, double bytes, uint32_t first,
                          uint32_t last, size_t *out_len) {
  mm_options read = with_flags(options, MM_JSON_WITHOUT_SOURCE);
  read.progress = NULL;
  mm_error error;
  mm_model *model = mm_model_new(input, len, &read, &error);
  if (!model) {
    char *json = mm_error_to_json(&error, out_len);
    mm_error_clear(&error);
    return json;
  }
  mm_fit fit;
  mm_buf out = {0};
  if (!(bytes >= 1 && bytes <= 9007199254740992.0) ||
      !mm_model_fit(model, function, space, (int64_t)bytes, first, last, &fit)) {
    mm__buf_puts(&out, "{\"error\":\"limit\",\"message\":\"ask for a positive size, lines in order "
                       "and a function of the dump\"}");
  } else {
    mm__buf_puts(&out, "{\"offset\":");
    mm__buf_put_int(&out, fit.offset);
    mm__buf_puts(&out, ",\"hwm_with_reserved\":");
    mm__buf_put_int(&out, fit.hwm);
    mm__buf_puts(&out, ",\"limit\":");
    if (fit.has_capacity)
      mm__buf_put_int(&out, fit.limit);
    else
      mm__buf_puts(&out, "null");
    mm__buf_puts(&out, fit.fits ? ",\"fits\":true}" : ",\"fits\":false}");
  }
  mm_model_free(model);
  return mm__buf_finish(&out, out_len);
}

/* `text`'s lines (`len` bytes, '\n' between them), NUL-terminated in
 * place into `lines` (room for one more than its '\n's); how many. */
static size_t split_lines(char *text, size_t len, const char **lines) {
  size_t n = 0, start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i < len && text[i] != '\n') continue;
    text[i] = 0;
    lines[n++] = text + start;
    start = i + 1;
  }
  return n;
}

static void put_folder_choice(mm_buf *out, const mm_folder_choice *choice, const char **names,
                              size_t count, const char *pass, const char *folder) {
  static const char *const planners[] = {"unknown", "compiler", "ptoas"};
  mm__json_int_or_null(out, "{\"dump\":", choice->dump != SIZE_MAX, (int64_t)choice->dump);
  mm__json_int_or_null(out, ",\"last\":", choice->last != SIZE_MAX, (int64_t)choice->last);
  mm__buf_puts(out, ",\"planner\":\"");
  mm__buf_puts(out, planners[choice->planner]);
  mm__buf_puts(out, choice->by_lifetime ? "\",\"by_lifetime\":true" : "\",\"by_lifetime\":false");
  mm__buf_puts(out, choice->instead ? ",\"instead\":true" : ",\"instead\":false");
  char why[1024];
  mm_folder_why(choice, names, count, pass, folder ? folder : "the folder", why, sizeof why);
  bool none = choice->dump == SIZE_MAX;
  mm__buf_puts(out, ",\"error\":");
  if (none)
    mm__json_string(out, why);
  else
    mm__buf_puts(out, "null");
  mm__buf_puts(out, ",\"note\":");
  if (!none && *why)
    mm__json_string(out, why);
  else
    mm__buf_puts(out, "null");
  size_t pass_len = 0;
  const char *chosen = none ? NULL : mm_dump_pass(names[choice->dump], &pass_len);
  mm__buf_puts(out, ",\"dump_pass\":");
  if (chosen)
    mm__json_string_n(out, chosen, pass_len);
  else
    mm__buf_puts(out, "null");
  mm__buf_puts(out, ",\"passes\":[");
  size_t *passes = mm__alloc((count ? count : 1) * sizeof *passes);
  size_t pass_count = passes ? mm__folder_passes(names, count, passes) : 0;
  out->failed |= !passes;
  for (size_t i = 0; i < pass_count; i++) {
    size_t len = 0;
    const char *name = mm_dump_pass(names[passes[i]], &len);
    if (i) mm__buf_putc(out, ',');
    mm__json_string_n(out, name, len);
  }
  mm__dealloc(passes);
  mm__buf_puts(out, "]}");
}

/* A buffer's lines ('\n' between them), copied and NUL-terminated. */
typedef struct lines {
  char *copy;
  const char **list;
  size_t count;
} lines;

static bool lines_read(const char *text, size_t len, lines *out) {
  size_t count = 1;
  for (size_t i = 0; i < len; i++)
    count += text[i] == '\n';
  out->copy = mm__alloc(len + 1);
  out->list = mm__alloc(count * sizeof *out->list);
  if (!out->copy || !out->list) return false;
  if (len) memcpy(out->copy, text, len);
  out->count = split_lines(out->copy, len, out->list);
  return true;
}

static void lines_free(lines *l) {
  mm__dealloc(l->copy);
  mm__dealloc(l->list);
}

char *mm_folder_json(const char *names, size_t len, const char *pass, const char *folder,
                     size_t *out_len) {
  lines l = {0};
  mm_buf out = {0};
  if (lines_read(names, len, &l)) {
    mm_folder_choice choice = mm_folder_choose(l.list, l.count, pass);
    put_folder_choice(&out, &choice, l.list, l.count, pass, folder);
  } else {
    out.failed = true;
  }
  lines_free(&l);
  return mm__buf_finish(&out, out_len);
}

static void put_indices(mm_buf *out, const char *key, const size_t *indices, size_t count) {
  mm__buf_puts(out, key);
  for (size_t i = 0; i < count; i++) {
    if (i) mm__buf_putc(out, ',');
    mm__json_int_or_null(out, "", true, (int64_t)indices[i]);
  }
  mm__buf_putc(out, ']');
}

char *mm_cases_json(const char *paths, size_t len, size_t *out_len) {
  lines l = {0};
  mm_buf out = {0};
  mm__cases cases = {0};
  /* No paths at all: no case (split_lines would give one empty line). */
  if (!lines_read(paths, len, &l) || !mm__cases_find(l.list, len ? l.count : 0, &cases)) {
    out.failed = true;
  } else {
    mm__buf_puts(&out,
                 cases.build ? "{\"build\":true,\"cases\":[" : "{\"build\":false,\"cases\":[");
    for (size_t i = 0; i < cases.count; i++) {
      const mm__case *c = &cases.cases[i];
      mm__buf_puts(&out, i ? ",{\"dir\":" : "{\"dir\":");
      mm__json_string_n(&out, l.list[c->dir_of], c->dir_len);
      put_indices(&out, ",\"pool\":[", c->pool, c->pool_count);
      put_indices(&out, ",\"pto\":[", c->pto, c->pto_count);
      mm__buf_putc(&out, '}');
    }
    mm__buf_puts(&out, "]}");
  }
  mm__cases_free(&cases);
  lines_free(&l);
  return mm__buf_finish(&out, out_len);
}
