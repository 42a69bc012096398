/* json.h: the JSON writer's pieces that other writers reuse
 * (json_writer.c): strings escaped for JSON and HTML, integer fields, the
 * model, its header fields, an error's fields. */
#ifndef MM_JSON_H
#define MM_JSON_H

#include "base/arena.h"
#include "model/model.h"

/* `s` as a JSON string; <, >, &, U+2028 and U+2029 escaped too, so the
 * output may sit inside an HTML <script> element. */
void mm__json_string(mm_buf *out, const char *s);
/* The first `len` bytes of `s` so. */
void mm__json_string_n(mm_buf *out, const char *s, size_t len);

/* `key` (the text before the value, punctuation included: ",\"hwm\":")
 * and an integer; or null where it is not `known`. */
void mm__json_int(mm_buf *out, const char *key, int64_t value);
void mm__json_int_or_null(mm_buf *out, const char *key, bool known, int64_t value);

/* The model as a JSON object (no line end), with MM_JSON_* `flags`. */
void mm__json_model(mm_buf *out, const mm_model *model, unsigned flags);

/* About how many bytes mm__json_model writes. */
size_t mm__json_size_guess(const mm_model *model, unsigned flags);

/* A document's first member, `"generator":"memory-map X.Y.Z"` (no
 * comma): the model's, a comparison's and a build's JSON all open so. */
void mm__json_generator(mm_buf *out);

/* A model's `"dump":..,"pass_name":..,"backend":{..}` (no braces), from
 * the model or from a comparison's side of it. */
typedef struct mm_dump_fields {
  const char *dump, *pass_name, *backend_name, *backend_arch;
  bool detected;
} mm_dump_fields;
void mm__json_dump_fields(mm_buf *out, const mm_dump_fields *fields);
mm_dump_fields mm__model_dump_fields(const mm_model *model);

/* The error's `"error":..,"message":..[,"line":..][,"functions":[..]]`. */
void mm__json_error_fields(mm_buf *out, const mm_error *error);

#endif
