/* diff_report.c: the comparison of two dumps as text for terminals and CI
 * logs: the report (`--diff`) and its regressions (`--diff --check`). */
#include <stdio.h>
#include <string.h>

#include "compare/diff.h"
#include "output/check_text.h"
#include "output/text_table.h"

static const char *const status_names[] = {"unchanged", "changed", "added", "removed"};

size_t mm__diff_regressions(const mm_diff *diff) {
  return (size_t)diff->counts.appeared + diff->counts.hwm_grew;
}

static void put_side(mm_buf *out, const char *what, const mm_side *side) {
  char text[160];
  mm__buf_puts(out, what);
  mm__buf_puts(out, side->fields.dump);
  snprintf(text, sizeof text, " (%.100s%s)\n", side->fields.backend_name,
           side->fields.detected ? "" : ", assumed");
  mm__buf_puts(out, text);
}

/* "a" when equal, else "a -> b"; "-" for an absent side. */
static void cell_pair(char *cell, int64_t a, bool has_a, int64_t b, bool has_b) {
  char left[32] = "-", right[32] = "-";
  if (has_a) snprintf(left, sizeof left, "%lld", (long long)a);
  if (has_b) snprintf(right, sizeof right, "%lld", (long long)b);
  if (has_a && has_b && a == b)
    snprintf(cell, MM_CELL, "%s", left);
  else
    snprintf(cell, MM_CELL, "%s -> %s", left, right);
}

/* Usage as the page and --summary show it ("-" where the side has no
 * such space). */
static void usage_text(char *text, size_t size, const mm_space_usage *u) {
  if (!u)
    snprintf(text, size, "-");
  else
    mm__usage_cell(text, size, u->hwm_all, u->limit, u->limit > 0); /* a side keeps no more */
}

static void change_text(char *cell, int64_t before, int64_t after) {
  int64_t change = after - before;
  if (!change)
    snprintf(cell, MM_CELL, "0");
  else if (before > 0)
    snprintf(cell, MM_CELL, "%+lld (%+.1f%%)", (long long)change,
             100.0 * (double)change / (double)before);
  else
    snprintf(cell, MM_CELL, "%+lld", (long long)change);
}

static const char *const space_headers[] = {"  space",   "hwm",   "change",
                                            "peak live", "usage", "reserved"};

static void space_row(mm_table *t, const mm_space_diff *s) {
  mm_table_row *row = mm__table_add(t);
  if (!row) return;
  char(*cells)[MM_CELL] = *row;
  const mm_space_usage *a = s->old_usage, *b = s->new_usage;
  snprintf(cells[0], MM_CELL, "  %.40s", s->space);
  cell_pair(cells[1], mm__diff_hwm(a), a, mm__diff_hwm(b), b);
  change_text(cells[2], mm__diff_hwm(a), mm__diff_hwm(b));
  cell_pair(cells[3], a ? a->peak_live : 0, a, b ? b->peak_live : 0, b);
  char ua[16], ub[16];
  usage_text(ua, sizeof ua, a);
  usage_text(ub, sizeof ub, b);
  if (strcmp(ua, ub) == 0)
    snprintf(cells[4], MM_CELL, "%s", ua);
  else
    snprintf(cells[4], MM_CELL, "%s -> %s", ua, ub);
  cell_pair(cells[5], a ? a->reserved_bytes : 0, a, b ? b->reserved_bytes : 0, b);
}

static void put_spaces(mm_buf *out, const mm_function_diff *d) {
  mm_table t;
  mm__table_init(&t, 6, 1, space_headers);
  for (uint32_t i = 0; i < d->space_count; i++)
    space_row(&t, &d->spaces[i]);
  mm__table_put(out, &t);
}

static void changes_text(char *cell, uint32_t changes) {
  static const char *const names[] = {"moved", "resized", "longer", "shorter", "added", "removed"};
  size_t n = 0;
  cell[0] = 0;
  for (int bit = 0; bit < 6; bit++)
    if (changes & (1u << bit))
      n += (size_t)snprintf(cell + n, MM_CELL - n, "%s%s", n ? ", " : "", names[bit]);
}

/* "mem_vec_1 [0, 512), 7 statements" */
static void place_text(char *cell, const mm_side_function *fn, uint32_t index,
                       uint32_t statements) {
  if (index == MM_NO_BOX) {
    snprintf(cell, MM_CELL, "-");
    return;
  }
  const mm_side_box *t = &fn->boxes[index];
  snprintf(cell, MM_CELL, "%.40s %.16s [%lld, %lld), %u statement%s", t->space, t->base,
           (long long)t->offset, (long long)(t->offset + t->size), statements,
           statements == 1 ? "" : "s");
}

static const char *const tile_headers[] = {"  tile", "change", "old", "new"};

static void put_tiles(mm_buf *out, const mm_function_diff *d) {
  mm_table t;
  mm__table_init(&t, 4, 4, tile_headers);
  for (uint32_t i = 0; i < d->tile_count; i++) {
    const mm_tile_diff *td = &d->tiles[i];
    if (!td->changes) continue;
    mm_table_row *row = mm__table_add(&t);
    if (!row) break;
    char(*cells)[MM_CELL] = *row;
    const mm_side_function *fn = td->new_box != MM_NO_BOX ? d->new_fn : d->old_fn;
    const mm_side_box *box = &fn->boxes[td->new_box != MM_NO_BOX ? td->new_box : td->old_box];
    snprintf(cells[0], MM_CELL, "  %.70s", box->name);
    changes_text(cells[1], td->changes);
    place_text(cells[2], d->old_fn, td->old_box, td->old_statements);
    place_text(cells[3], d->new_fn, td->new_box, td->new_statements);
  }
  if (t.rows.len > 1)
    mm__table_put(out, &t);
  else
    mm__vec_free(&t.rows);
}

static void put_anomalies(mm_buf *out, const mm_function_diff *d) {
  for (uint32_t i = 0; i < d->anomaly_count; i++) {
    const mm_anomaly_diff *a = &d->anomalies[i];
    mm__buf_puts(out, a->appeared ? "  appeared: " : "  gone: ");
    mm__buf_puts(out, a->entry->text);
  }
}

static void put_function(mm_buf *out, const mm_function_diff *d) {
  char text[64];
  snprintf(text, sizeof text, " (%.20s): %s\n", d->ftype, status_names[d->status]);
  mm__buf_puts(out, d->name);
  mm__buf_puts(out, text);
  if (d->status == MM_FUNCTION_UNCHANGED) return;
  put_spaces(out, d);
  put_tiles(out, d);
  put_anomalies(out, d);
}

static void put_counts(mm_buf *out, const mm_diff *diff) {
  const mm_diff_counts *c = &diff->counts;
  char text[512];
  snprintf(text, sizeof text,
           "%zu function%s: %u changed, %u unchanged, %u added, %u removed; tiles: %u moved, "
           "%u resized, %u longer, %u shorter, %u added, %u removed; conflicts and over "
           "capacity: %u appeared, %u gone; high-water marks: %u grew, %u shrank\n",
           diff->function_count, diff->function_count == 1 ? "" : "s",
           c->functions[MM_FUNCTION_CHANGED], c->functions[MM_FUNCTION_UNCHANGED],
           c->functions[MM_FUNCTION_ADDED], c->functions[MM_FUNCTION_REMOVED], c->moved, c->resized,
           c->longer, c->shorter, c->added, c->removed, c->appeared, c->gone, c->hwm_grew,
           c->hwm_shrank);
  mm__buf_puts(out, text);
  if (c->by_kind) {
    snprintf(text, sizeof text,
             "%u tile%s matched by what %s (name less the compiler's counters, space, shape, "
             "dtype, op, in order): %s names differ only in inlining or SSA numbers\n",
             c->by_kind, c->by_kind == 1 ? "" : "s", c->by_kind == 1 ? "it is" : "they are",
             c->by_kind == 1 ? "its" : "their");
    mm__buf_puts(out, text);
  }
}

char *mm_diff_report_text(const mm_diff *diff, size_t *out_len) {
  mm_buf out = {0};
  put_side(&out, "old: ", diff->old_side);
  put_side(&out, "new: ", diff->new_side);
  mm__buf_putc(&out, '\n');
  for (size_t f = 0; f < diff->function_count; f++)
    put_function(&out, &diff->functions[f]);
  mm__buf_putc(&out, '\n');
  put_counts(&out, diff);
  return mm__buf_finish(&out, out_len);
}

/* ------------------------------------------------------------- check */

static void put_growth(mm_buf *out, const mm_diff *diff, const mm_function_diff *d) {
  char text[256];
  for (uint32_t i = 0; i < d->space_count; i++) {
    const mm_space_diff *s = &d->spaces[i];
    int64_t before = mm__diff_hwm(s->old_usage), after = mm__diff_hwm(s->new_usage);
    if (after <= before) continue;
    mm__buf_puts(out, diff->new_side->fields.dump);
    mm__buf_puts(out, ": high-water mark grew in ");
    mm__buf_puts(out, d->name);
    if (before > 0)
      snprintf(text, sizeof text, ": %.40s %lld -> %lld (+%lld B, %+.1f%%)\n", s->space,
               (long long)before, (long long)after, (long long)(after - before),
               100.0 * (double)(after - before) / (double)before);
    else
      snprintf(text, sizeof text, ": %.40s %lld -> %lld (+%lld B)\n", s->space, (long long)before,
               (long long)after, (long long)(after - before));
    mm__buf_puts(out, text);
  }
}

char *mm_diff_check_text(const mm_diff *diff, size_t *out_len, size_t *regressions) {
  mm_buf out = {0};
  for (size_t f = 0; f < diff->function_count; f++) {
    const mm_function_diff *d = &diff->functions[f];
    for (uint32_t i = 0; i < d->anomaly_count; i++) {
      if (!d->anomalies[i].appeared) continue;
      mm__buf_puts(&out, "new: ");
      mm__buf_puts(&out, d->anomalies[i].entry->text);
    }
    if (d->old_fn && d->new_fn) put_growth(&out, diff, d);
  }
  size_t found = mm__diff_regressions(diff);
  char text[256];
  if (found)
    snprintf(text, sizeof text,
             "%zu regression%s: %u new conflict%s or tile%s over capacity, %u high-water "
             "mark%s grew\n",
             found, found == 1 ? "" : "s", diff->counts.appeared,
             diff->counts.appeared == 1 ? "" : "s", diff->counts.appeared == 1 ? "" : "s",
             diff->counts.hwm_grew, diff->counts.hwm_grew == 1 ? "" : "s");
  else
    snprintf(text, sizeof text,
             "no memory regression in %zu function%s: no new conflict or tile over capacity, "
             "no high-water mark grew\n",
             diff->function_count, diff->function_count == 1 ? "" : "s");
  mm__buf_puts(&out, text);
  if (regressions) *regressions = found;
  return mm__buf_finish(&out, out_len);
}
