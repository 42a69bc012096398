/* report.c: the model as plain text for terminals and CI logs: the
 * anomalies in line order (`--check`) and the per-space summary table
 * (`--summary`). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

static void put_box_label(mm_buf *out, const mm_box *box) {
  char text[96];
  const mm_tile *t = box->tile;
  mm__buf_puts(out, "'");
  mm__buf_puts(out, t->name);
  mm__buf_puts(out, "' (");
  mm__buf_puts(out, t->base);
  snprintf(text, sizeof text, ", bytes %lld..%lld, lines %u-%u)", (long long)t->offset,
           (long long)(t->offset + t->size), box->start, box->end);
  mm__buf_puts(out, text);
}

static void put_location(mm_buf *out, const char *label, uint32_t line, const char *what,
                         const mm_function *fn) {
  char text[32];
  mm__buf_puts(out, label);
  snprintf(text, sizeof text, ":%u: ", line);
  mm__buf_puts(out, text);
  mm__buf_puts(out, what);
  mm__buf_puts(out, " in ");
  mm__buf_puts(out, fn->name);
  mm__buf_puts(out, ": ");
}

static const mm_space_usage *space_of(const mm_function *fn, const char *space) {
  for (size_t k = 0; k < fn->space_count; k++)
    if (strcmp(fn->spaces[k].space, space) == 0) return &fn->spaces[k];
  return NULL;
}

/* One line of the check: a conflicting pair, a box over capacity, a note
 * that a box has more conflicts than it keeps partners for, a box sharing
 * a reserved window's bytes, or a window over capacity. */
typedef enum entry_kind {
  ENTRY_MORE,
  ENTRY_OVER,
  ENTRY_PAIR,
  ENTRY_WINDOW,
  ENTRY_WINDOW_MORE,
  ENTRY_WINDOW_OVERLAP,
  ENTRY_WINDOW_OVER
} entry_kind;
typedef struct check_entry {
  uint32_t line;
  uint32_t box;   /* the box; NO_BOX for ENTRY_WINDOW_OVER */
  uint32_t other; /* the partner box, or the window for the window kinds */
  uint8_t kind;
} check_entry;
#define NO_BOX UINT32_MAX

/* In line order, then by box, kind and partner. */
static int compare_entries(const void *pa, const void *pb) {
  const check_entry *a = pa, *b = pb;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->box != b->box) return a->box < b->box ? -1 : 1;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  return a->other < b->other ? -1 : a->other > b->other;
}

#define MM_SORT_NAME sort_entries
#define MM_SORT_TYPE check_entry
#define MM_SORT_COMPARE compare_entries
#include "sort_impl.h"

/* Whether the pair (box, partners[k]) is written from `box`: from the
 * first box of the pair, or from this one when the first kept no room
 * for it. */
static bool written_here(const mm_function *fn, uint32_t i, uint32_t k) {
  const mm_box *box = &fn->boxes[i], *other = &fn->boxes[box->partners[k]];
  if (box->partners[k] > i) return true;
  for (uint32_t m = 0; m < other->partner_total && m < MM_BOX_PARTNERS; m++)
    if (other->partners[m] == i) return false;
  return true;
}

/* The function's entries, each pair once, in line order; returns how many,
 * or SIZE_MAX when out of memory. */
static size_t collect_entries(const mm_function *fn, check_entry *entries) {
  size_t n = 0;
  for (uint32_t i = 0; i < fn->box_count; i++) {
    const mm_box *box = &fn->boxes[i];
    for (uint32_t k = 0; k < box->partner_total && k < MM_BOX_PARTNERS; k++) {
      if (!written_here(fn, i, k)) continue;
      const mm_box *other = &fn->boxes[box->partners[k]];
      uint32_t line = box->start > other->start ? box->start : other->start;
      entries[n++] = (check_entry){line, i, box->partners[k], ENTRY_PAIR};
    }
    if (box->partner_total > MM_BOX_PARTNERS)
      entries[n++] = (check_entry){box->start, i, 0, ENTRY_MORE};
    if (box->over_capacity) entries[n++] = (check_entry){box->start, i, 0, ENTRY_OVER};
  }
  for (uint32_t w = 0; w < fn->window_count; w++) {
    const mm_window *window = &fn->windows[w];
    for (uint32_t k = 0; k < window->partner_count; k++) {
      uint32_t box = window->partners[k];
      entries[n++] = (check_entry){fn->boxes[box].start, box, w, ENTRY_WINDOW};
    }
    if (window->partner_total > window->partner_count)
      entries[n++] = (check_entry){window->line, NO_BOX, w, ENTRY_WINDOW_MORE};
    if (window->overlaps >= 0)
      entries[n++] = (check_entry){window->line, NO_BOX, w, ENTRY_WINDOW_OVERLAP};
    if (window->over_capacity)
      entries[n++] = (check_entry){window->line, NO_BOX, w, ENTRY_WINDOW_OVER};
  }
  return sort_entries(entries, n) ? n : SIZE_MAX;
}

static void put_window_label(mm_buf *out, const mm_window *w) {
  char text[96];
  mm__buf_puts(out, "reserved window '");
  mm__buf_puts(out, w->name);
  snprintf(text, sizeof text, "' (bytes %lld..%lld, line %u)", (long long)w->base,
           (long long)(w->base + w->size), w->line);
  mm__buf_puts(out, text);
}

/* What the space's reserved windows take of it, after a box over capacity:
 * their bytes, and the first few by name. */
static void put_reserved_share(mm_buf *out, const mm_function *fn, const mm_space_usage *u) {
  enum { NAMED = 3 };
  char text[96];
  if (!u || !u->reserved_bytes) return;
  snprintf(text, sizeof text,
           " (reserved windows take %lld B of it:", (long long)u->reserved_bytes);
  mm__buf_puts(out, text);
  size_t named = 0, more = 0;
  for (size_t i = 0; i < fn->window_count; i++) {
    if (!fn->windows[i].placed || fn->windows[i].space != u->space) continue;
    if (named++ >= NAMED) {
      more++;
      continue;
    }
    mm__buf_puts(out, " '");
    mm__buf_puts(out, fn->windows[i].name);
    mm__buf_puts(out, "'");
  }
  if (more) {
    snprintf(text, sizeof text, " and %zu more", more);
    mm__buf_puts(out, text);
  }
  mm__buf_puts(out, ")");
}

/* The lines of the check that are about windows alone: a note of more
 * tiles than listed, or two windows sharing bytes. */
static void put_window_entry(mm_buf *out, const char *label, const mm_function *fn,
                             const check_entry *e) {
  char text[128];
  const mm_window *w = &fn->windows[e->other];
  if (e->kind == ENTRY_WINDOW_MORE) {
    snprintf(text, sizeof text,
             "  (and %u more tiles share the bytes of reserved window '%.40s')\n",
             w->partner_total - w->partner_count, w->name);
    mm__buf_puts(out, text);
    return;
  }
  put_location(out, label, e->line, "conflict", fn);
  mm__buf_puts(out, w->space);
  mm__buf_puts(out, " ");
  put_window_label(out, w);
  mm__buf_puts(out, " shares bytes with ");
  put_window_label(out, &fn->windows[w->overlaps]);
  mm__buf_puts(out, "\n");
}

static void put_entry(mm_buf *out, const char *label, const mm_function *fn, const check_entry *e) {
  char text[96];
  if (e->kind == ENTRY_WINDOW_MORE || e->kind == ENTRY_WINDOW_OVERLAP) {
    put_window_entry(out, label, fn, e);
    return;
  }
  if (e->kind == ENTRY_WINDOW_OVER) {
    const mm_window *w = &fn->windows[e->other];
    put_location(out, label, e->line, "over capacity", fn);
    mm__buf_puts(out, w->space);
    mm__buf_puts(out, " ");
    put_window_label(out, w);
    const mm_space_usage *u = space_of(fn, w->space);
    snprintf(text, sizeof text, " lies outside the capacity 0..%lld\n",
             (long long)(u ? u->limit : 0));
    mm__buf_puts(out, text);
    return;
  }
  const mm_box *box = &fn->boxes[e->box];
  if (e->kind == ENTRY_MORE) {
    snprintf(text, sizeof text, "  (and %u more conflicts of '%.40s')\n",
             box->partner_total - MM_BOX_PARTNERS, box->tile->name);
    mm__buf_puts(out, text);
    return;
  }
  put_location(out, label, e->line, e->kind == ENTRY_OVER ? "over capacity" : "conflict", fn);
  mm__buf_puts(out, box->tile->space);
  mm__buf_puts(out, " ");
  put_box_label(out, box);
  if (e->kind == ENTRY_OVER) {
    const mm_space_usage *u = space_of(fn, box->tile->space);
    snprintf(text, sizeof text, " lies outside the capacity 0..%lld",
             (long long)(u ? u->limit : 0));
    mm__buf_puts(out, text);
    put_reserved_share(out, fn, u);
    mm__buf_puts(out, "\n");
  } else if (e->kind == ENTRY_WINDOW) {
    mm__buf_puts(out, " shares bytes with ");
    put_window_label(out, &fn->windows[e->other]);
    mm__buf_puts(out, ", reserved for the whole function\n");
  } else {
    mm__buf_puts(out, " shares bytes with ");
    put_box_label(out, &fn->boxes[e->other]);
    mm__buf_puts(out, " while both are live\n");
  }
}

/* The function's anomalies in line order; returns how many (notes aside),
 * or SIZE_MAX when out of memory. */
static size_t check_function(mm_buf *out, const char *label, const mm_function *fn) {
  /* Per box its partners, a note and over capacity; per window its
   * listed tiles, a note, an overlap and over capacity. */
  size_t per_box = MM_BOX_PARTNERS + 2, per_window = MM_BOX_PARTNERS + 3;
  if (fn->box_count > SIZE_MAX / 2 / per_box / sizeof(check_entry) ||
      fn->window_count > SIZE_MAX / 2 / per_window / sizeof(check_entry))
    return SIZE_MAX;
  size_t room = fn->box_count * per_box + fn->window_count * per_window + 1;
  check_entry *entries = mm__alloc(room * sizeof *entries);
  if (!entries) return SIZE_MAX;
  size_t n = collect_entries(fn, entries), found = 0;
  for (size_t i = 0; n != SIZE_MAX && i < n; i++) {
    put_entry(out, label, fn, &entries[i]);
    found += entries[i].kind != ENTRY_MORE && entries[i].kind != ENTRY_WINDOW_MORE;
  }
  mm__dealloc(entries);
  return n == SIZE_MAX ? SIZE_MAX : found;
}

char *mm_model_check_text(const mm_model *model, const char *label, size_t *out_len,
                          size_t *anomalies) {
  mm_buf out = {0};
  size_t found = 0;
  label = label ? label : model->dump;
  for (size_t i = 0; i < model->functions.len; i++) {
    size_t n = check_function(&out, label, mm__vec_at(&model->functions, i));
    if (n == SIZE_MAX) {
      mm__buf_free(&out);
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
  mm__buf_puts(&out, text);
  if (anomalies) *anomalies = found;
  return mm__buf_finish(&out, out_len);
}

/* ------------------------------------------------------------- summary */

/* A text table: columns before `first_number` left-aligned, the rest
 * right-aligned, two spaces apart. Cells are cut at 47 bytes. */
enum { MAX_COLUMNS = 10, CELL = 48 };
typedef char table_row[MAX_COLUMNS][CELL];
typedef struct table {
  int columns, first_number;
  size_t width[MAX_COLUMNS];
  mm_vec rows; /* table_row */
} table;

static table_row *table_add(table *t) {
  table_row *row = mm__vec_push(&t->rows);
  return row;
}

static void put_table_row(mm_buf *out, const table *t, char (*cells)[CELL]) {
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

/* Writes the table (the first row is the header) and frees it. */
static void table_put(mm_buf *out, table *t) {
  table_row *rows = t->rows.items;
  if (t->rows.failed) out->failed = true;
  for (size_t r = 0; r < t->rows.len; r++)
    for (int c = 0; c < t->columns; c++)
      if (strlen(rows[r][c]) > t->width[c]) t->width[c] = strlen(rows[r][c]);
  for (size_t r = 0; r < t->rows.len; r++)
    put_table_row(out, t, rows[r]);
  mm__vec_free(&t->rows);
}

static void table_init(table *t, int columns, int first_number, const char *const *headers) {
  memset(t, 0, sizeof *t);
  t->columns = columns;
  t->first_number = first_number;
  mm__vec_init(&t->rows, sizeof(table_row));
  table_row *head = table_add(t);
  for (int c = 0; head && c < columns; c++)
    snprintf((*head)[c], CELL, "%s", headers[c]);
}

static void space_row(table *t, const mm_function *fn, const mm_space_usage *u) {
  table_row *row = table_add(t);
  if (!row) return;
  char(*cells)[CELL] = *row;
  snprintf(cells[0], CELL, "%.47s", fn->name);
  snprintf(cells[1], CELL, "%.47s", u->space);
  snprintf(cells[2], CELL, "%lld", (long long)u->hwm_all);
  snprintf(cells[3], CELL, "%lld", (long long)u->limit);
  /* Rounded down, as the page does: 94.96 % is not yet 95.0 %. */
  double fraction = u->limit > 0 ? (double)u->hwm_all / (double)u->limit : 0;
  snprintf(cells[4], CELL, "%.1f%%", floor(fraction * 1000 + 1e-9) / 10);
  snprintf(cells[5], CELL, "%lld", (long long)u->reserved_bytes);
  if (u->has_capacity)
    snprintf(cells[6], CELL, "%lld", (long long)(u->limit - u->hwm_all));
  else
    snprintf(cells[6], CELL, "-");
  snprintf(cells[7], CELL, "%lld", (long long)u->peak_live);
  snprintf(cells[8], CELL, "%lld", (long long)u->fragmentation);
  snprintf(cells[9], CELL, "%u", u->peak_line);
}

static const char *const space_headers[] = {"function",      "space",    "hwm",      "capacity",
                                            "usage",         "reserved", "headroom", "peak live",
                                            "fragmentation", "peak line"};

static void put_spaces_table(mm_buf *out, const mm_model *model) {
  table t;
  table_init(&t, 10, 2, space_headers);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->space_count; k++)
      space_row(&t, fn, &fn->spaces[k]);
  }
  table_put(out, &t);
}

static void window_row(table *t, const mm_function *fn, const mm_window *w) {
  table_row *row = table_add(t);
  if (!row) return;
  char(*cells)[CELL] = *row;
  snprintf(cells[0], CELL, "%.47s", fn->name);
  snprintf(cells[1], CELL, "%.47s", w->space);
  snprintf(cells[2], CELL, "%.47s", w->name);
  if (w->placed)
    snprintf(cells[3], CELL, "%lld..%lld", (long long)w->base, (long long)(w->base + w->size));
  else
    snprintf(cells[3], CELL, "not placed");
  if (w->slot_size && w->slot_num)
    snprintf(cells[4], CELL, "%lld x %lld B", (long long)w->slot_num, (long long)w->slot_size);
  else if (w->slot_size)
    snprintf(cells[4], CELL, "slots of %lld B", (long long)w->slot_size);
  else
    snprintf(cells[4], CELL, "-");
  const mm_space_usage *u = space_of(fn, w->space);
  if (!w->grown_hwm)
    snprintf(cells[5], CELL, "-");
  else if (u && u->has_capacity)
    snprintf(cells[5], CELL, "hwm %lld of %lld: %s", (long long)w->grown_hwm, (long long)u->limit,
             w->grown_hwm <= u->limit ? "fits" : "does not fit");
  else
    snprintf(cells[5], CELL, "hwm %lld", (long long)w->grown_hwm);
}

static const char *const window_headers[] = {"function", "space", "reserved window",
                                             "bytes",    "ring",  "one more slot"};

/* The reserved windows, when there are any. */
static void put_windows_table(mm_buf *out, const mm_model *model) {
  size_t count = 0;
  for (size_t i = 0; i < model->functions.len; i++)
    count += ((const mm_function *)mm__vec_at(&model->functions, i))->window_count;
  if (!count) return;
  table t;
  table_init(&t, 6, 6, window_headers);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t k = 0; k < fn->window_count; k++)
      window_row(&t, fn, &fn->windows[k]);
  }
  mm__buf_puts(out, "\n");
  table_put(out, &t);
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

static void idle_row(table *t, const mm_function *fn, const mm_box *box) {
  table_row *row = table_add(t);
  if (!row) return;
  char(*cells)[CELL] = *row;
  snprintf(cells[0], CELL, "%.47s", fn->name);
  snprintf(cells[1], CELL, "%.47s", box->tile->name);
  snprintf(cells[2], CELL, "%.47s", box->tile->space);
  snprintf(cells[3], CELL, "%lld", (long long)box->tile->size);
  snprintf(cells[4], CELL, "%u-%u", box->start, box->end);
  snprintf(cells[5], CELL, "%u-%u", box->idle_from, box->idle_to);
  snprintf(cells[6], CELL, "%u", box->idle_to - box->idle_from + 1);
  snprintf(cells[7], CELL, "%lld", (long long)mm__idle_cost(box));
}

static const char *const idle_headers[] = {"function", "held while idle", "space",
                                           "bytes",    "live lines",      "idle span",
                                           "lines",    "bytes x lines"};

static void put_idle_table(mm_buf *out, const mm_model *model) {
  table t;
  table_init(&t, 8, 3, idle_headers);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    uint32_t top[IDLE_LISTED];
    size_t n = longest_idle(fn, top);
    for (size_t k = 0; k < n; k++)
      idle_row(&t, fn, &fn->boxes[top[k]]);
  }
  if (t.rows.len > 1) {
    mm__buf_puts(out, "\n");
    table_put(out, &t);
  } else {
    mm__vec_free(&t.rows);
  }
}

char *mm_model_summary_text(const mm_model *model, size_t *out_len) {
  mm_buf out = {0};
  put_spaces_table(&out, model);
  put_windows_table(&out, model);
  put_idle_table(&out, model);
  return mm__buf_finish(&out, out_len);
}
