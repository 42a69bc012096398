/* fuzz_model.c: libFuzzer harness for the core's one-call entry point.
 * Any input must give a model or an error: never a crash, a leak, a hang
 * or undefined behaviour (built with ASan and UBSan). And the fast path
 * (skim.h) must not change it: the same input read by the general parser
 * alone gives the same JSON, or the harness aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memory_map.h"

static char *model_json(const uint8_t *data, size_t size, bool general_only, size_t *len) {
  mm_options options = {"fuzz.py", NULL, NULL, 0, general_only, false};
  mm_error error;
  mm_model *model = mm_model_parse((const char *)data, size, &options, &error);
  char *json = model ? mm_model_to_json(model, len) : mm_error_to_json(&error, len);
  mm_model_free(model);
  mm_error_clear(&error);
  return json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t len = 0, general_len = 0;
  char *json = mm_analyze_json((const char *)data, size, "fuzz.py", NULL, NULL, 0,
                               MM_JSON_WITHOUT_SOURCE, &len); /* the page's call */
  mm_free(json);
  char *fast = model_json(data, size, false, &len);
  char *general = model_json(data, size, true, &general_len);
  if (fast && general && (len != general_len || memcmp(fast, general, len) != 0))
    abort(); /* the fast path changed the model */
  mm_free(fast);
  mm_free(general);
  return 0;
}
