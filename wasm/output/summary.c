/* summary.c: the model as `--summary` tables for terminals and CI logs:
 * per function and space the high-water mark, capacity, headroom, peak
 * and fragmentation; the reserved windows; the tiles held longest idle. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/layout.h"
#include "model/liveness.h"
#include "model/model.h"
#include "model/uses.h"
#include "output/pipe_rows.h"
#include "output/text_table.h"

/* A space's row; drawn by lifetime, its mark is the least any placement
 * needs (`>=N`, on the line it is first needed), and no fragmentation is
 * known. */
static void space_row(mm_table *t, const mm_function *fn, const mm_space_usage *u) {
  mm_table_row *row = mm__table_add(t);
  if (!row) return;
  char(*cells)[MM_CELL] = *row;
  bool least = fn->by_lifetime;
  int64_t mark = least ? u->lower_bound : u->hwm_all;
  snprintf(cells[0], MM_CELL, "%.47s", fn->name);
  snprintf(cells[1], MM_CELL, "%.47s", u->space);
  snprintf(cells[2], MM_CELL, "%s%lld%s", least ? ">=" : "", (long long)mark,
           u->reserved_only ? "*" : "");
  snprintf(cells[3], MM_CELL, "%lld", (long long)u->limit);
  mm__usage_cell(cells[4], MM_CELL, mark, u->limit, u->has_capacity);
  snprintf(cells[5], MM_CELL, "%lld", (long long)u->reserved_bytes);
  if (u->has_capacity)
    snprintf(cells[6], MM_CELL, "%lld", (long long)(u->limit - mark));
  else
    snprintf(cells[6], MM_CELL, "-");
  snprintf(cells[7], MM_CELL, "%lld", (long long)(least ? u->lower_bound : u->peak_live));
  if (least)
    snprintf(cells[8], MM_CELL, "-");
  else
    snprintf(cells[8], MM_CELL, "%lld", (long long)u->fragmentation);
  snprintf(cells[9], MM_CELL, "%u", least ? mm__lower_bound_line(fn, u) : u->peak_line);
}

static const char *const space_headers[] = {"function",      "space",    "hwm",      "capacity",
                                            "usage",         "reserved", "headroom", "peak live",
                                            "fragmentation", "peak line"};

static void put_spaces_table(mm_buf *out, const mm_model *model) {
  mm_table t;
  mm__table_init(&t, 10, 2, space_headers);
  bool windows_only = false;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->space_count; k++) {
      space_row(&t, fn, &fn->spaces[k]);
      windows_only |= fn->spaces[k].reserved_only;
    }
  }
  mm__table_put(out, &t);
  if (windows_only)
    mm__buf_puts(out,
                 "* reserved windows only: the compiler's capacity check sees no figure for the "
                 "space (AllocateMemoryAddr checks a space's footprint only where a tile has a "
                 "MemRef); the map counts its windows.\n");
}

static void window_row(mm_table *t, const mm_function *fn, const mm_window *w) {
  mm_table_row *row = mm__table_add(t);
  if (!row) return;
  char(*cells)[MM_CELL] = *row;
  snprintf(cells[0], MM_CELL, "%.47s", fn->name);
  snprintf(cells[1], MM_CELL, "%.47s", w->space);
  snprintf(cells[2], MM_CELL, "%.40s%s", w->name, w->kind == MM_WINDOW_PINNED ? " (pinned)" : "");
  if (w->placed)
    snprintf(cells[3], MM_CELL, "%lld..%lld", (long long)w->base, (long long)(w->base + w->size));
  else
    snprintf(cells[3], MM_CELL, "not placed");
  if (w->slot_size && w->slot_num)
    snprintf(cells[4], MM_CELL, "%lld x %lld B", (long long)w->slot_num, (long long)w->slot_size);
  else if (w->slot_size)
    snprintf(cells[4], MM_CELL, "slots of %lld B", (long long)w->slot_size);
  else
    snprintf(cells[4], MM_CELL, "-");
  const mm_space_usage *u = mm__function_space(fn, w->space);
  if (!w->grown_hwm)
    snprintf(cells[5], MM_CELL, "-");
  else if (u && w->one_more_fits >= 0)
    snprintf(cells[5], MM_CELL, "hwm %lld of %lld: %s", (long long)w->grown_hwm,
             (long long)u->limit, w->one_more_fits ? "fits" : "does not fit");
  else
    snprintf(cells[5], MM_CELL, "hwm %lld", (long long)w->grown_hwm);
}

static const char *const window_headers[] = {"function", "space", "held for the function",
                                             "bytes",    "slots", "one more slot"};

/* The reserved windows, when there are any. */
static void put_windows_table(mm_buf *out, const mm_model *model) {
  size_t count = 0;
  for (size_t i = 0; i < model->functions.len; i++)
    count += ((const mm_function *)mm__vec_at(&model->functions, i))->window_count;
  if (!count) return;
  mm_table t;
  mm__table_init(&t, 6, 6, window_headers);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->window_count; k++)
      window_row(&t, fn, &fn->windows[k]);
  }
  mm__buf_puts(out, "\n");
  mm__table_put(out, &t);
}

enum { IDLE_LISTED = 3 };

/* The function's boxes with the most bytes x lines held while idle, most
 * first (the earlier box when equal); how many, at most IDLE_LISTED. */
static size_t longest_idle(const mm_function *fn, uint32_t *top) {
  size_t n = 0;
  for (uint32_t i = 0; i < fn->box_count; i++) {
    int64_t cost = mm__idle_cost(&fn->boxes[i]);
    if (!cost) continue;
    size_t at = n < IDLE_LISTED ? n++ : IDLE_LISTED;
    while (at > 0 && mm__idle_cost(&fn->boxes[top[at - 1]]) < cost) {
      if (at < IDLE_LISTED) top[at] = top[at - 1];
      at--;
    }
    if (at < IDLE_LISTED) top[at] = i;
  }
  return n;
}

static void idle_row(mm_table *t, const mm_function *fn, const mm_box *box) {
  mm_table_row *row = mm__table_add(t);
  if (!row) return;
  char(*cells)[MM_CELL] = *row;
  snprintf(cells[0], MM_CELL, "%.47s", fn->name);
  snprintf(cells[1], MM_CELL, "%.47s", box->tile->name);
  snprintf(cells[2], MM_CELL, "%.47s", box->tile->space);
  snprintf(cells[3], MM_CELL, "%lld", (long long)box->tile->size);
  snprintf(cells[4], MM_CELL, "%u-%u", box->start, box->end);
  snprintf(cells[5], MM_CELL, "%u-%u", box->idle_from, box->idle_to);
  snprintf(cells[6], MM_CELL, "%u", box->idle_to - box->idle_from + 1);
  snprintf(cells[7], MM_CELL, "%lld", (long long)mm__idle_cost(box));
}

static const char *const idle_headers[] = {"function", "held while idle", "space",
                                           "bytes",    "live lines",      "idle span",
                                           "lines",    "bytes x lines"};

static void put_idle_table(mm_buf *out, const mm_model *model) {
  mm_table t;
  mm__table_init(&t, 8, 3, idle_headers);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    uint32_t top[IDLE_LISTED];
    size_t n = longest_idle(fn, top);
    for (size_t k = 0; k < n; k++)
      idle_row(&t, fn, &fn->boxes[top[k]]);
  }
  if (t.rows.len > 1) {
    mm__buf_puts(out, "\n");
    mm__table_put(out, &t);
  } else {
    mm__vec_free(&t.rows);
  }
}

static void skipped_row(mm_table *t, const mm_function *fn, const mm_skipped *s) {
  mm_table_row *row = mm__table_add(t);
  if (!row) return;
  char(*cells)[MM_CELL] = *row;
  snprintf(cells[0], MM_CELL, "%.47s", fn->name);
  snprintf(cells[1], MM_CELL, "%.47s", s->name);
  snprintf(cells[2], MM_CELL, "%.47s", s->space);
  snprintf(cells[3], MM_CELL, "%u", s->line);
  snprintf(cells[4], MM_CELL, "%.*s", MM_CELL - 1, s->reason);
}

static const char *const skipped_headers[] = {"function", "not placed", "space", "line", "why"};

/* The tiles the model could not place: every figure above leaves them out. */
static void put_skipped_table(mm_buf *out, const mm_model *model) {
  mm_table t;
  mm__table_init(&t, 5, 5, skipped_headers);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->skipped_count; k++)
      skipped_row(&t, fn, &fn->skipped[k]);
  }
  if (t.rows.len > 1) {
    mm__buf_puts(out, "\nNot drawn and not counted above:\n");
    mm__table_put(out, &t);
  } else {
    mm__vec_free(&t.rows);
  }
}

static void what_if_row(mm_table *t, const mm_function *fn, const mm_space_usage *u) {
  mm_table_row *row = mm__table_add(t);
  if (!row) return;
  char(*cells)[MM_CELL] = *row;
  const mm_box *box = &fn->boxes[u->what_if_box - 1];
  snprintf(cells[0], MM_CELL, "%.47s", fn->name);
  snprintf(cells[1], MM_CELL, "%.47s", u->space);
  snprintf(cells[2], MM_CELL, "%.47s", box->tile->name);
  snprintf(cells[3], MM_CELL, "%u-%u", box->start, box->end);
  snprintf(cells[4], MM_CELL, "%lld", (long long)u->hwm_all);
  snprintf(cells[5], MM_CELL, "%lld", (long long)u->what_if_offset);
  snprintf(cells[6], MM_CELL, "%lld", (long long)u->what_if_hwm);
  snprintf(cells[7], MM_CELL, "%lld", (long long)(u->hwm_all - u->what_if_hwm));
}

static const char *const what_if_headers[] = {"function", "space",      "mark set by", "lines",
                                              "hwm",      "lowest gap", "hwm then",    "saved"};

/* Per space, the mark's tile moved (with its base's other boxes) to the
 * lowest gap free over its lifetime: where, and the mark then. */
static void put_what_if_table(mm_buf *out, const mm_model *model) {
  size_t rows = 0;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->space_count; k++)
      rows += fn->spaces[k].what_if_box != 0;
  }
  if (!rows) return;
  mm_table t;
  mm__table_init(&t, 8, 3, what_if_headers);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->space_count; k++)
      if (fn->spaces[k].what_if_box) what_if_row(&t, fn, &fn->spaces[k]);
  }
  mm__buf_puts(out, "\n");
  mm__table_put(out, &t);
}

static void ring_row(mm_table *t, const mm_model *model, const mm_pipe *p, const mm_ring *r) {
  mm_table_row *row = mm__table_add(t);
  if (!row) return;
  mm_ring_facts facts = mm__ring_facts(model, p, r);
  mm__ring_cells(*row, &facts);
}

/* The cross-core pipes, a row per ring, with the pipe's own answers. */
static void put_pipes_table(mm_buf *out, const mm_model *model) {
  if (!model->pipe_count) return;
  mm_table t;
  mm__table_init(&t, MM_RING_COLUMNS, MM_RING_COLUMNS, mm__ring_headers);
  for (size_t i = 0; i < model->pipe_count; i++)
    for (uint32_t k = 0; k < model->pipes[i].ring_count; k++)
      ring_row(&t, model, &model->pipes[i], &model->pipes[i].rings[k]);
  mm__buf_puts(out, "\n");
  mm__table_put(out, &t);
}

char *mm_model_summary_text(const mm_model *model, size_t *out_len) {
  mm_buf out = {0};
  bool packed = false;
  for (size_t i = 0; i < model->functions.len; i++)
    packed |= ((const mm_function *)mm__vec_at(&model->functions, i))->by_lifetime;
  if (packed)
    mm__buf_puts(&out, "Placed by ptoas: no dump holds its addresses. `>=N` is the least any "
                       "placement needs (the bytes live at once, an input read last by a statement "
                       "gone before its output is written); the map packs the buffers first-fit "
                       "by lifetime.\n");
  put_spaces_table(&out, model);
  put_skipped_table(&out, model);
  put_windows_table(&out, model);
  put_pipes_table(&out, model);
  put_idle_table(&out, model);
  put_what_if_table(&out, model);
  return mm__buf_finish(&out, out_len);
}
