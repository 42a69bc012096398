/* diag.c: recording the first error, formatted, into a fixed buffer. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

void mm_diag_set(mm_diag *diag, mm_status status, uint32_t line, const char *format, ...) {
  if (diag->status != MM_OK) return;
  diag->status = status;
  diag->line = line;
  va_list args;
  va_start(args, format);
  vsnprintf(diag->message, sizeof diag->message, format, args);
  va_end(args);
}
