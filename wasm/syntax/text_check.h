/* text_check.h: the input checked as text before it is read (text_check.c). */
#ifndef MM_TEXT_CHECK_H
#define MM_TEXT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

/* Validates UTF-8 and rejects NUL bytes, UTF-16 and known binary formats;
 * fills `diag` with the fault and its line. False on a fault. */
bool mm__check_text(const char *input, size_t len, mm_diag *diag);

#endif
