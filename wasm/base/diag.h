/* diag.h: the first error met while reading a dump, with its line (and
 * where on it, when known). */
#ifndef MM_DIAG_H
#define MM_DIAG_H

#include <stdbool.h>
#include <stdint.h>

#include "memory_map.h"

typedef struct mm_diag {
  mm_status status; /* MM_OK until something fails */
  uint32_t line;
  uint32_t at; /* 1 + the byte offset it points at; 0 when not known */
  char message[512];
} mm_diag;

/* Records the error unless one is already recorded (the first one wins). */
void mm__diag_set(mm_diag *diag, mm_status status, uint32_t line, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* As mm__diag_set, pointing at byte `offset` of the input. */
void mm__diag_set_at(mm_diag *diag, mm_status status, uint32_t line, uint32_t offset,
                     const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static inline bool mm__diag_failed(const mm_diag *diag) { return diag->status != MM_OK; }

#endif
