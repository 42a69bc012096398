/* window_calls.c: which calls windows and allocations are read from
 * (window_calls.h). */
#include "rules/window_calls.h"

#include "base/bytes.h"

mm_window_call mm__window_call_kind(const char *text, size_t len) {
  if (mm__span_is(text, len, "reserve_buffer")) return MM_WINDOW_CALL_RESERVE;
  if (mm__span_is(text, len, "import_peer_buffer")) return MM_WINDOW_CALL_IMPORT;
  if (mm__span_is(text, len, "aic_initialize_pipe") ||
      mm__span_is(text, len, "aiv_initialize_pipe"))
    return MM_WINDOW_CALL_PIPE;
  if (mm__span_is(text, len, "alloc")) return MM_WINDOW_CALL_ALLOC;
  if (mm__span_is(text, len, "func_attr")) return MM_WINDOW_CALL_ATTRS;
  return MM_WINDOW_CALL_NONE;
}
