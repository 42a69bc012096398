/* fuzz_model.c: libFuzzer harness for the core's one-call entry point.
 * Any input must give a model or an error: never a crash, a leak, a hang
 * or undefined behaviour (built with ASan and UBSan), drawn by lifetime
 * too. And the fast path
 * (skim.h) must not change it: the same input read by the general parser
 * alone gives the same JSON, or the harness aborts. Comparing the two
 * models finds nothing changed, and comparing the first and second halves
 * of the input runs every writer of the comparison. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memory_map.h"
#include "model/pipeline.h"

/* The model of `data` read by the fast path or the general parser alone,
 * and its JSON (the model's, or the error's) in *json. */
static mm_model *model_of(const uint8_t *data, size_t size, bool general_only, char **json,
                          size_t *len) {
  mm_options options = {.dump_name = "fuzz.py"};
  mm_error error;
  mm_model *model = mm__model_new_with((const char *)data, size, &options, &error, !general_only);
  if (json) *json = model ? mm_model_to_json(model, len) : mm_error_to_json(&error, len);
  mm_error_clear(&error);
  return model;
}

/* Every writer of the comparison; aborts when `same` and it saw a change. */
static void compare(const mm_model *a, const mm_model *b, bool same) {
  mm_diff *diff = mm_diff_new(a, b);
  if (!diff) return;
  size_t len = 0, regressions = 0;
  char *json = mm_diff_to_json(diff, &len);
  char *report = mm_diff_report_text(diff, &len);
  char *check = mm_diff_check_text(diff, &len, &regressions);
  static const char nothing[] =
      ",\"added\":0,\"removed\":0},\"tiles\":{\"moved\":0,\"resized\":0,\"longer\":0,"
      "\"shorter\":0,\"added\":0,\"removed\":0,\"matched_by_kind\":0},\"anomalies\":{"
      "\"appeared\":0,\"gone\":0},"
      "\"hwm\":{\"grew\":0,\"shrank\":0}}";
  if (same && json &&
      (regressions || !strstr(json, "\"functions\":{\"changed\":0,") || !strstr(json, nothing)))
    abort();
  mm_free(json);
  mm_free(report);
  mm_free(check);
  mm_diff_free(diff);
}

/* Each function's SVG (a few), with options the input picks: always one
 * whole document. */
static void draw(const mm_model *model, const uint8_t *data, size_t size) {
  size_t count = mm_model_function_count(model);
  for (size_t i = 0; i < count && i < 4; i++) {
    uint8_t pick = size ? data[i % size] : 0;
    mm_svg_options options = {pick & 1 ? (uint32_t)pick : 0,
                              pick & 2 ? (uint32_t)pick * 3 : 0,
                              (pick & 4) != 0,
                              pick & 8 ? "Vec,Mat" : NULL,
                              pick & 16 ? 0.2 : 64,
                              pick & 32 ? 1 : 0,
                              (pick & 64) != 0,
                              (pick & 128) != 0};
    size_t len = 0;
    char *svg = mm_model_svg(model, i, &options, &len);
    if (svg &&
        (len < 12 || memcmp(svg, "<svg ", 5) != 0 || memcmp(svg + len - 7, "</svg>\n", 7) != 0))
      abort(); /* not one whole document */
    mm_free(svg);
  }
}

/* `fast` and `general`: the whole input's models (either may be NULL). */
static void fuzz_comparison(const uint8_t *data, size_t size, mm_model *fast, mm_model *general) {
  if (fast) draw(fast, data, size);
  if (fast && general) compare(fast, general, true);
  mm_model *head = model_of(data, size / 2, false, NULL, NULL);
  mm_model *tail = model_of(data + size / 2, size - size / 2, false, NULL, NULL);
  if (head && (tail || fast)) compare(head, tail ? tail : fast, false);
  mm_model_free(fast);
  mm_model_free(general);
  mm_model_free(head);
  mm_model_free(tail);
  char *both = mm_compare_json((const char *)data, size / 2, &(mm_options){.dump_name = "a.py"},
                               (const char *)data + size / 2, size - size / 2,
                               &(mm_options){.dump_name = "b.py"}, MM_JSON_WITHOUT_SOURCE, &size);
  mm_free(both);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t len = 0, general_len = 0;
  mm_options page = {.dump_name = "fuzz.py"};
  char *json = mm_analyze_json((const char *)data, size, &page, MM_JSON_WITHOUT_SOURCE,
                               &len); /* the page's call */
  mm_free(json);
  page.lifetimes_only = true; /* drawn by lifetime */
  json = mm_analyze_json((const char *)data, size, &page, MM_JSON_WITHOUT_SOURCE, &len);
  mm_free(json);
  page.planner = MM_PLANNER_PTOAS; /* a ptoas build's folder: every function packed */
  json = mm_analyze_json((const char *)data, size, &page, MM_JSON_WITHOUT_SOURCE, &len);
  mm_free(json);
  page.lifetimes_only = false;
  page.planner = MM_PLANNER_COMPILER; /* a build that ran AllocateMemoryAddr: placed */
  json = mm_analyze_json((const char *)data, size, &page, MM_JSON_WITHOUT_SOURCE, &len);
  mm_free(json);
  char *fast_json = NULL, *general_json = NULL;
  mm_model *fast = model_of(data, size, false, &fast_json, &len);
  mm_model *general = model_of(data, size, true, &general_json, &general_len);
  if (fast_json && general_json &&
      (len != general_len || memcmp(fast_json, general_json, len) != 0))
    abort(); /* the fast path changed the model */
  mm_free(fast_json);
  mm_free(general_json);
  fuzz_comparison(data, size, fast, general); /* frees both */
  return 0;
}
