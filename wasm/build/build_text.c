/* build_text.c: a build as text for terminals and CI logs: the summary's
 * table, least headroom first, and the check's lines with their count. */
#include <stdio.h>

#include "build/build.h"
#include "output/text_table.h"

static const char *const headers[] = {
    "case",     "backend",  "function",  "space",         "hwm",       "capacity", "usage",
    "reserved", "headroom", "peak live", "fragmentation", "conflicts", "unplaced"};

static void put_row(mm_table *t, const mm_build *b, const mm_build_row *row) {
  mm_table_row *cells_row = mm__table_add(t);
  if (!cells_row) return;
  char(*cells)[MM_CELL] = *cells_row;
  const mm_build_case *c = mm__vec_at(&b->cases, row->case_index);
  const mm_build_function *f = mm__vec_at(&b->functions, row->function_index);
  snprintf(cells[0], MM_CELL, "%.47s", c->name);
  snprintf(cells[1], MM_CELL, "%s%s", c->backend ? c->backend : "-",
           c->backend_detected ? "" : " (assumed)");
  snprintf(cells[2], MM_CELL, "%.47s", f->name);
  snprintf(cells[3], MM_CELL, "%.47s", row->space);
  snprintf(cells[4], MM_CELL, "%s%lld", row->at_least ? ">=" : "", (long long)row->hwm);
  snprintf(cells[5], MM_CELL, "%lld", (long long)row->limit);
  mm__usage_cell(cells[6], MM_CELL, row->hwm, row->limit, row->has_capacity);
  snprintf(cells[7], MM_CELL, "%lld", (long long)row->reserved);
  if (row->has_capacity)
    snprintf(cells[8], MM_CELL, "%lld", (long long)(row->limit - row->hwm));
  else
    snprintf(cells[8], MM_CELL, "-");
  snprintf(cells[9], MM_CELL, "%lld", (long long)row->peak_live);
  if (row->at_least)
    snprintf(cells[10], MM_CELL, "-");
  else
    snprintf(cells[10], MM_CELL, "%lld", (long long)row->fragmentation);
  snprintf(cells[11], MM_CELL, "%u", row->conflicts + row->over_capacity);
  snprintf(cells[12], MM_CELL, "%u", row->unplaced);
}

static void put_ring(mm_table *t, const mm_build *b, const mm_build_ring *r) {
  mm_table_row *cells_row = mm__table_add(t);
  if (!cells_row) return;
  char(*cells)[MM_CELL] = *cells_row;
  const mm_build_case *c = mm__vec_at(&b->cases, r->case_index);
  snprintf(cells[0], MM_CELL, "%.47s", c->name);
  mm__ring_cells(cells + 1, &r->facts);
}

/* The cases' cross-core pipes, a row per ring, when there are any. */
static void put_rings(mm_buf *out, const mm_build *b) {
  if (!b->rings.len) return;
  const char *ring_headers[MM_RING_COLUMNS + 1] = {"case"};
  for (int i = 0; i < MM_RING_COLUMNS; i++)
    ring_headers[i + 1] = mm__ring_headers[i];
  mm_table t;
  mm__table_init(&t, MM_RING_COLUMNS + 1, MM_RING_COLUMNS + 1, ring_headers);
  for (size_t i = 0; i < b->rings.len; i++)
    put_ring(&t, b, mm__vec_at(&b->rings, i));
  mm__buf_puts(out, "\n");
  mm__table_put(out, &t);
}

char *mm_build_summary_text(const mm_build *b, size_t *out_len) {
  mm_buf out = {0};
  uint32_t *order = mm__build_order(b);
  if (!order) return NULL;
  mm_table t;
  mm__table_init(&t, 13, 4, headers);
  for (size_t i = 0; i < b->rows.len; i++)
    put_row(&t, b, mm__vec_at(&b->rows, order[i]));
  mm__dealloc(order);
  mm__table_put(&out, &t);
  for (size_t i = 0; i < b->cases.len; i++) {
    if (!((const mm_build_case *)mm__vec_at(&b->cases, i))->by_lifetime) continue;
    mm__buf_puts(&out, "\n>=N: placed by ptoas (memory_planner=PTOAS), whose addresses no dump "
                       "holds: the least any placement needs.\n");
    break;
  }
  put_rings(&out, b);
  char text[64];
  bool empty = false;
  for (size_t i = 0; i < b->cases.len; i++) {
    const mm_build_case *c = mm__vec_at(&b->cases, i);
    if (!c->nothing_on_chip) continue;
    if (!empty) mm__buf_puts(&out, "\nNothing on chip:\n");
    empty = true;
    mm__buf_puts(&out, c->name);
    mm__buf_puts(&out, "  ");
    mm__buf_puts(&out, c->dump);
    mm__buf_puts(&out, ": ");
    mm__buf_puts(&out, c->nothing_on_chip);
    mm__buf_puts(&out, "\n");
  }
  if (b->errors) mm__buf_puts(&out, "\nNot read:\n");
  for (size_t i = 0; i < b->cases.len; i++) {
    const mm_build_case *c = mm__vec_at(&b->cases, i);
    if (!c->error) continue;
    mm__buf_puts(&out, c->name);
    mm__buf_puts(&out, "  ");
    mm__buf_puts(&out, c->dump);
    if (c->error_line) {
      snprintf(text, sizeof text, ":%u", c->error_line);
      mm__buf_puts(&out, text);
    }
    mm__buf_puts(&out, ": ");
    mm__buf_puts(&out, c->error_message);
    mm__buf_puts(&out, "\n");
  }
  return mm__buf_finish(&out, out_len);
}

char *mm_build_check_text(const mm_build *b, size_t *out_len) {
  mm_buf out = {0};
  for (size_t i = 0; i < b->problems.len; i++) {
    const mm_build_problem *p = mm__vec_at(&b->problems, i);
    mm__buf_puts(&out, p->text);
    mm__buf_putc(&out, '\n');
  }
  size_t functions = b->functions.len, cases = b->cases.len;
  char text[256];
  if (b->failures)
    snprintf(text, sizeof text,
             "%zu problem%s: conflicts, tiles over capacity, unplaced tiles or "
             "thresholds broken (%zu function%s of %zu case%s checked)",
             b->failures, b->failures == 1 ? "" : "s", functions, functions == 1 ? "" : "s", cases,
             cases == 1 ? "" : "s");
  else
    snprintf(text, sizeof text,
             "no conflicts, no tile over capacity, no unplaced tile and no "
             "threshold broken in %zu function%s of %zu case%s",
             functions, functions == 1 ? "" : "s", cases, cases == 1 ? "" : "s");
  mm__buf_puts(&out, text);
  if (b->errors) {
    snprintf(text, sizeof text, "; %zu case%s not read", b->errors, b->errors == 1 ? "" : "s");
    mm__buf_puts(&out, text);
  }
  mm__buf_putc(&out, '\n');
  return mm__buf_finish(&out, out_len);
}
