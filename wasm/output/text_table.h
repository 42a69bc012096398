/* text_table.h: plain-text tables for terminals and CI logs: columns
 * before `first_number` left-aligned, the rest right-aligned, two spaces
 * apart; cells cut at MM_CELL - 1 bytes. */
#ifndef MM_TEXT_TABLE_H
#define MM_TEXT_TABLE_H

#include "base/arena.h"
#include "output/figures.h" /* mm__usage_percent, for the tables' usage column */

enum { MM_MAX_COLUMNS = 13, MM_CELL = 96 };
typedef char mm_table_row[MM_MAX_COLUMNS][MM_CELL];
typedef struct mm_table {
  int columns, first_number;
  size_t width[MM_MAX_COLUMNS];
  mm_vec rows; /* mm_table_row; the first is the header */
} mm_table;

/* A table of `columns` with the header row `headers`. */
void mm__table_init(mm_table *t, int columns, int first_number, const char *const *headers);
/* A new row to fill (zeroed cells are empty); NULL when out of memory,
 * which mm__table_put then reports as a failed buffer. */
mm_table_row *mm__table_add(mm_table *t);
/* Writes the table, columns as wide as their widest cell, and frees it. */
void mm__table_put(mm_buf *out, mm_table *t);

#endif
