/* text_table.c: plain-text tables for the reports (summary.c, diff_report.c,
 * build_text.c), and usage as they print it. */
#include "output/text_table.h"

#include <stdio.h>
#include <string.h>

mm_table_row *mm__table_add(mm_table *t) { return mm__vec_push(&t->rows); }

static void put_row(mm_buf *out, const mm_table *t, char (*cells)[MM_CELL]) {
  for (int c = 0; c < t->columns; c++) {
    size_t len = strlen(cells[c]), pad = t->width[c] > len ? t->width[c] - len : 0;
    bool right = c >= t->first_number, last = c + 1 == t->columns;
    for (size_t k = 0; right && k < pad; k++)
      mm__buf_putc(out, ' ');
    mm__buf_puts(out, cells[c]);
    for (size_t k = 0; !right && !last && k < pad; k++)
      mm__buf_putc(out, ' ');
    mm__buf_puts(out, last ? "\n" : "  ");
  }
}

void mm__table_put(mm_buf *out, mm_table *t) {
  mm_table_row *rows = t->rows.items;
  if (t->rows.failed) out->failed = true;
  for (size_t r = 0; r < t->rows.len; r++)
    for (int c = 0; c < t->columns; c++)
      if (strlen(rows[r][c]) > t->width[c]) t->width[c] = strlen(rows[r][c]);
  for (size_t r = 0; r < t->rows.len; r++)
    put_row(out, t, rows[r]);
  mm__vec_free(&t->rows);
}

void mm__table_init(mm_table *t, int columns, int first_number, const char *const *headers) {
  memset(t, 0, sizeof *t);
  t->columns = columns;
  t->first_number = first_number;
  mm__vec_init(&t->rows, sizeof(mm_table_row));
  mm_table_row *head = mm__table_add(t);
  for (int c = 0; head && c < columns; c++)
    snprintf((*head)[c], MM_CELL, "%s", headers[c]);
}
