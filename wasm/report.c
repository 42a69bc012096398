/* report.c: the model as plain text for terminals and CI logs: the
 * anomalies (`--check`) and the per-space summary table (`--summary`). */
#include <stdio.h>
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

/* One line per conflicting pair (from its first box) and per box over
 * capacity; returns how many lines. */
static size_t check_function(mm_buf *out, const char *label, const mm_function *fn) {
  size_t found = 0;
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *box = &fn->boxes[i];
    for (uint32_t k = 0; k < box->partner_total && k < MM_BOX_PARTNERS; k++) {
      const mm_box *other = &fn->boxes[box->partners[k]];
      if (box->partners[k] < i) continue;
      uint32_t line = box->start > other->start ? box->start : other->start;
      put_location(out, label, line, "conflict", fn);
      mm_buf_puts(out, box->tile->space);
      mm_buf_puts(out, " ");
      put_box_label(out, box);
      mm_buf_puts(out, " shares bytes with ");
      put_box_label(out, other);
      mm_buf_puts(out, " while both are live\n");
      found++;
    }
    if (box->partner_total > MM_BOX_PARTNERS && box->partners[MM_BOX_PARTNERS - 1] > i) {
      char text[96];
      snprintf(text, sizeof text, "  (and %u more conflicts of '%s')\n",
               box->partner_total - MM_BOX_PARTNERS, box->tile->name);
      mm_buf_puts(out, text);
    }
    if (box->over_capacity) {
      const mm_space_usage *u = space_of(fn, box->tile->space);
      char text[64];
      put_location(out, label, box->start, "over capacity", fn);
      mm_buf_puts(out, box->tile->space);
      mm_buf_puts(out, " ");
      put_box_label(out, box);
      snprintf(text, sizeof text, " lies outside the capacity 0..%lld\n",
               (long long)(u ? u->limit : 0));
      mm_buf_puts(out, text);
      found++;
    }
  }
  return found;
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
  for (size_t i = 0; i < model->functions.len; i++)
    found += check_function(&out, label, mm_vec_at(&model->functions, i));
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
