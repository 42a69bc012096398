/* check_text.h: an anomaly as a line of `--check` (the comparison's
 * report writes them too). */
#ifndef MM_CHECK_TEXT_H
#define MM_CHECK_TEXT_H

#include "base/arena.h"
#include "model/anomalies.h"

/* Writes a check line's start: `<label>:<line>: <what> in <function>: `. */
void mm__check_location(mm_buf *out, const char *label, uint32_t line, const char *what,
                        const char *function);

/* Writes `a` as a line of the check: `<label>:<line>: conflict in <fn>:
 * ...` (a note is indented, without a location). */
void mm__anomaly_put(mm_buf *out, const char *label, const mm_function *fn, const mm_anomaly *a);

#endif
