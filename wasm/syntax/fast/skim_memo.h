/* skim_memo.h: annotations read before (skim_memo.c), internal to the fast
 * path: taken and kept by the statements of skim_statements.c. */
#ifndef MM_SKIM_MEMO_H
#define MM_SKIM_MEMO_H

#include "syntax/fast/skim_scan.h"

/* At an annotation's first byte: when the same annotation was kept before,
 * its reads are appended, `out`'s tile filled and pos set at the `=` after
 * it, as reading it would; false otherwise (nothing changed). */
bool mm__skim_memo_take(mm_skim_memo *memo, skim *k, mm_skim_statement *out);
/* After reading the annotation from `start` on `line` (its reads from
 * `first_load` on) with the result `out`, pos at the `=` after it: kept
 * when its form allows. */
void mm__skim_memo_keep(mm_skim_memo *memo, const skim *k, size_t start, uint32_t line,
                        size_t first_load, const mm_skim_statement *out);

#endif
