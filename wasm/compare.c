/* compare.c: the one call that compares two dumps for the page: both
 * models and their comparison in one JSON document, or the refusal of
 * either side, saying which. */
#include <string.h>

#include "diff.h"
#include "json.h"

typedef struct side {
  const char *input, *name, *pto;
  size_t len, pto_len;
} side;

static mm_model *parse_side(const side *s, const char *backend, unsigned flags, mm_error *error) {
  mm_options options = {.dump_name = s->name,
                        .backend = backend,
                        .pto_text = s->pto,
                        .pto_len = s->pto_len,
                        .without_source = (flags & MM_JSON_WITHOUT_SOURCE) != 0,
                        .general_parser_only = (flags & MM_ANALYZE_GENERAL_PARSER) != 0,
                        .lifetimes_only = (flags & MM_ANALYZE_LIFETIMES) != 0};
  return mm_model_parse(s->input, s->len, &options, error);
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

char *mm_compare_json(const char *old_input, size_t old_len, const char *old_name,
                      const char *old_pto, size_t old_pto_len, const char *new_input,
                      size_t new_len, const char *new_name, const char *new_pto, size_t new_pto_len,
                      const char *backend, unsigned flags, size_t *out_len) {
  const side sides[2] = {{old_input, old_name, old_pto, old_len, old_pto_len},
                         {new_input, new_name, new_pto, new_len, new_pto_len}};
  mm_model *models[2] = {NULL, NULL};
  mm_error error;
  char *json = NULL;
  bool refused = false;
  for (int i = 0; i < 2 && !refused; i++) {
    models[i] = parse_side(&sides[i], backend, flags, &error);
    if (models[i]) continue;
    json = refusal(&error, i ? "new" : "old", out_len);
    mm_error_clear(&error);
    refused = true;
  }
  mm_diff *diff = refused ? NULL : mm_diff_new(models[0], models[1]);
  if (diff) {
    mm_buf out = {0};
    mm__buf_puts(&out, "{\"old\":");
    mm__json_model(&out, models[0], flags);
    mm__buf_puts(&out, ",\n\"new\":");
    mm__json_model(&out, models[1], flags);
    mm__buf_puts(&out, ",\n\"diff\":");
    mm__diff_json(&out, diff);
    mm__buf_puts(&out, "}\n");
    json = mm__buf_finish(&out, out_len);
  } else if (!refused) {
    error = (mm_error){.status = MM_ERR_NO_MEMORY, .message = "out of memory"};
    json = refusal(&error, "both", out_len);
  }
  mm_diff_free(diff);
  mm_model_free(models[0]);
  mm_model_free(models[1]);
  return json;
}
