/* report.c: the model as plain text for terminals and CI logs: the
 * anomalies in line order (`--check`) and the per-space summary table
 * (`--summary`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

static void put_box_label(mm_buf *out, const mm_box *box) {
  char text[96];
  const mm_tile *t = box->tile;
  mm_buf_puts(out, "'");
  mm_buf_puts(out, t->name);
  mm_buf_puts(out, "' (");
  mm_buf_puts(out, t->base);
  snprintf(text, sizeof text, ", bytes %lld..%lld, lines %u-%u)", (long long)t->offset,
           (long long)(t->offset + t->size), box->start, box->end);
  mm_buf_puts(out, text);
}

static void put_location(mm_buf *out, const char *label, uint32_t line, const char *what,
                         const mm_function *fn) {
  char text[32];
  mm_buf_puts(out, label);
  snprintf(text, sizeof text, ":%u: ", line);
  mm_buf_puts(out, text);
  mm_buf_puts(out, what);
  mm_buf_puts(out, " in ");
  mm_buf_puts(out, fn->name);
  mm_buf_puts(out, ": ");
}

static const mm_space_usage *space_of(const mm_function *fn, const char *space) {
  for (size_t k = 0; k < fn->space_count; k++)
    if (strcmp(fn->spaces[k].space, space) == 0) return &fn->spaces[k];
  return NULL;
}

/* One line of the check: a conflicting pair, a box over capacity, or a
 * note that a box has more conflicts than it keeps partners for. */
enum { ENTRY_OVER = -1, ENTRY_MORE = -2 };
typedef struct check_entry {
  uint32_t line, box;
  int32_t partner; /* a box index, or ENTRY_OVER / ENTRY_MORE */
} check_entry;

static int compare_entries(const void *pa, const void *pb) {
  const check_entry *a = pa, *b = pb;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->box != b->box) return a->box < b->box ? -1 : 1;
  return a->partner < b->partner ? -1 : a->partner > b->partner;
}

#define MM_SORT_NAME sort_entries
#define MM_SORT_TYPE check_entry
#define MM_SORT_COMPARE compare_entries
#include "sort_impl.h"

/* The function's entries, each pair once, in line order; returns how many,
 * or SIZE_MAX when out of memory. */
static size_t collect_entries(const mm_function *fn, check_entry *entries) {
  size_t n = 0;
  for (uint32_t i = 0; i < fn->box_count; i++) {
    const mm_box *box = &fn->boxes[i];
    for (uint32_t k = 0; k < box->partner_total && k < MM_BOX_PARTNERS; k++) {
      const mm_box *other = &fn->boxes[box->partners[k]];
      /* From the first box of the pair, or from this one when the first
       * kept no room for it. */
      const mm_box *first = box->partners[k] < i ? other : box;
      bool listed_there = false;
      for (uint32_t m = 0; first != box && m < first->partner_total && m < MM_BOX_PARTNERS; m++)
        listed_there |= first->partners[m] == i;
      if (first != box && listed_there) continue;
      uint32_t line = box->start > other->start ? box->start : other->start;
      entries[n++] = (check_entry){line, i, (int32_t)box->partners[k]};
    }
    if (box->partner_total > MM_BOX_PARTNERS)
      entries[n++] = (check_entry){box->start, i, ENTRY_MORE};
    if (box->over_capacity) entries[n++] = (check_entry){box->start, i, ENTRY_OVER};
  }
  return sort_entries(entries, n) ? n : SIZE_MAX;
}

static void put_entry(mm_buf *out, const char *label, const mm_function *fn, const check_entry *e) {
  const mm_box *box = &fn->boxes[e->box];
  char text[96];
  if (e->partner == ENTRY_MORE) {
    snprintf(text, sizeof text, "  (and %u more conflicts of '%.40s')\n",
             box->partner_total - MM_BOX_PARTNERS, box->tile->name);
    mm_buf_puts(out, text);
    return;
  }
  put_location(out, label, e->line, e->partner == ENTRY_OVER ? "over capacity" : "conflict", fn);
  mm_buf_puts(out, box->tile->space);
  mm_buf_puts(out, " ");
  put_box_label(out, box);
  if (e->partner == ENTRY_OVER) {
    const mm_space_usage *u = space_of(fn, box->tile->space);
    snprintf(text, sizeof text, " lies outside the capacity 0..%lld\n",
             (long long)(u ? u->limit : 0));
    mm_buf_puts(out, text);
  } else {
    mm_buf_puts(out, " shares bytes with ");
    put_box_label(out, &fn->boxes[e->partner]);
    mm_buf_puts(out, " while both are live\n");
  }
}

/* The function's anomalies in line order; returns how many (notes aside),
 * or SIZE_MAX when out of memory. */
static size_t check_function(mm_buf *out, const char *label, const mm_function *fn) {
  check_entry *entries = mm__alloc((fn->box_count * (MM_BOX_PARTNERS + 2) + 1) * sizeof *entries);
  if (!entries) return SIZE_MAX;
  size_t n = collect_entries(fn, entries), found = 0;
  for (size_t i = 0; n != SIZE_MAX && i < n; i++) {
    put_entry(out, label, fn, &entries[i]);
    found += entries[i].partner != ENTRY_MORE;
  }
  mm__dealloc(entries);
  return n == SIZE_MAX ? SIZE_MAX : found;
}

static char *finish(mm_buf *out, size_t *out_len) {
  if (out->failed) {
    mm_buf_free(out);
    return NULL;
  }
  if (out_len) *out_len = out->len;
  return out->data;
}

char *mm_model_check_text(const mm_model *model, const char *label, size_t *out_len,
                          size_t *anomalies) {
  mm_buf out = {0};
  size_t found = 0;
  label = label ? label : model->dump;
  for (size_t i = 0; i < model->functions.len; i++) {
    size_t n = check_function(&out, label, mm_vec_at(&model->functions, i));
    if (n == SIZE_MAX) {
      mm_buf_free(&out);
      return NULL;
    }
    found += n;
  }
  char text[128];
  if (found)
    snprintf(text, sizeof text, "%zu problem%s: conflicts or tiles over capacity\n", found,
             found == 1 ? "" : "s");
  else
    snprintf(text, sizeof text, "no conflicts and no tile over capacity in %zu function%s\n",
             model->functions.len, model->functions.len == 1 ? "" : "s");
  mm_buf_puts(&out, text);
  if (anomalies) *anomalies = found;
  return finish(&out, out_len);
}

/* ------------------------------------------------------------- summary */

enum { SUMMARY_COLUMNS = 8 };
static const char *const summary_headers[SUMMARY_COLUMNS] = {
    "function", "space", "hwm", "capacity", "usage", "peak live", "fragmentation", "peak line"};

static void summary_cells(const mm_function *fn, const mm_space_usage *u,
                          char cells[SUMMARY_COLUMNS][48]) {
  snprintf(cells[0], 48, "%.47s", fn->name);
  snprintf(cells[1], 48, "%.47s", u->space);
  snprintf(cells[2], 48, "%lld", (long long)u->hwm);
  snprintf(cells[3], 48, "%lld", (long long)u->limit);
  snprintf(cells[4], 48, "%.1f%%", u->limit > 0 ? 100.0 * (double)u->hwm / (double)u->limit : 0);
  snprintf(cells[5], 48, "%lld", (long long)u->peak_live);
  snprintf(cells[6], 48, "%lld", (long long)u->fragmentation);
  snprintf(cells[7], 48, "%u", u->peak_line);
}

/* Text columns left-aligned, numbers right-aligned, two spaces apart. */
static void put_row(mm_buf *out, const char *const *cells, const size_t *width) {
  for (int c = 0; c < SUMMARY_COLUMNS; c++) {
    size_t len = strlen(cells[c]), pad = width[c] > len ? width[c] - len : 0;
    if (c >= 2)
      for (size_t k = 0; k < pad; k++)
        mm_buf_putc(out, ' ');
    mm_buf_puts(out, cells[c]);
    if (c < 2 && c + 1 < SUMMARY_COLUMNS)
      for (size_t k = 0; k < pad; k++)
        mm_buf_putc(out, ' ');
    mm_buf_puts(out, c + 1 < SUMMARY_COLUMNS ? "  " : "\n");
  }
}

static void for_each_space_row(const mm_model *model, mm_buf *out, size_t *width) {
  char cells[SUMMARY_COLUMNS][48];
  const char *row[SUMMARY_COLUMNS];
  for (int c = 0; c < SUMMARY_COLUMNS; c++)
    row[c] = cells[c];
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm_vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->space_count; k++) {
      summary_cells(fn, &fn->spaces[k], cells);
      for (int c = 0; c < SUMMARY_COLUMNS; c++)
        if (strlen(cells[c]) > width[c]) width[c] = strlen(cells[c]);
      if (out) put_row(out, row, width);
    }
  }
}

char *mm_model_summary_text(const mm_model *model, size_t *out_len) {
  size_t width[SUMMARY_COLUMNS];
  for (int c = 0; c < SUMMARY_COLUMNS; c++)
    width[c] = strlen(summary_headers[c]);
  for_each_space_row(model, NULL, width); /* first pass: column widths */
  mm_buf out = {0};
  put_row(&out, summary_headers, width);
  for_each_space_row(model, &out, width);
  return finish(&out, out_len);
}
