/* fuzz_model.c: libFuzzer harness for the core's one-call entry point.
 * Any input must give a model or an error: never a crash, a leak, a hang
 * or undefined behaviour (built with ASan and UBSan). */
#include <stddef.h>
#include <stdint.h>

#include "memory_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t len = 0;
  char *json = mm_analyze_json((const char *)data, size, "fuzz.py", NULL, NULL, 0, &len);
  mm_free(json);
  return 0;
}
