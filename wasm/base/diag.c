/* diag.c: recording the first error, formatted, into a fixed buffer. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"

static void record(mm_diag *diag, mm_status status, uint32_t line, uint32_t at, const char *format,
                   va_list args) {
  diag->status = status;
  diag->line = line;
  diag->at = at;
  vsnprintf(diag->message, sizeof diag->message, format, args);
}

void mm__diag_set(mm_diag *diag, mm_status status, uint32_t line, const char *format, ...) {
  if (diag->status != MM_OK) return;
  va_list args;
  va_start(args, format);
  record(diag, status, line, 0, format, args);
  va_end(args);
}

void mm__diag_set_at(mm_diag *diag, mm_status status, uint32_t line, uint32_t offset,
                     const char *format, ...) {
  if (diag->status != MM_OK) return;
  va_list args;
  va_start(args, format);
  record(diag, status, line, offset < UINT32_MAX ? offset + 1 : 0, format, args);
  va_end(args);
}

const char *mm_status_name(mm_status status) {
  switch (status) {
  case MM_OK: return "ok";
  case MM_ERR_SYNTAX: return "syntax";
  case MM_ERR_ENCODING: return "encoding";
  case MM_ERR_NO_TILES: return "no_tiles";
  case MM_ERR_UNALLOCATED: return "unallocated";
  case MM_ERR_BACKEND: return "backend";
  case MM_ERR_LIMIT: return "limit";
  case MM_ERR_NO_MEMORY: return "no_memory";
  }
  return "unknown";
}

void mm_error_clear(mm_error *error) {
  if (!error) return;
  mm__dealloc(error->message);
  for (size_t i = 0; i < error->function_count; i++)
    mm__dealloc(error->functions[i]);
  mm__dealloc(error->functions);
  memset(error, 0, sizeof *error);
}
