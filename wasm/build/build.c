/* build.c: gathers the cases of a build: per case, function and space the
 * summary's numbers, and the check's lines (the model's anomalies and the
 * gate's thresholds), copied so that each model can go once added. */
#include "build/build.h"

#include <stdio.h>
#include <string.h>

#include "model/anomalies.h"
#include "model/backends.h"
#include "model/layout.h"
#include "model/liveness.h"
#include "model/model.h"
#include "output/check_text.h"
#include "output/figures.h"
#include "output/text_table.h"

#define NO_FUNCTION UINT32_MAX

mm_build *mm_build_new(const mm_limit *limits, size_t count) {
  mm_build *b = mm__alloc(sizeof *b);
  if (!b) return NULL;
  memset(b, 0, sizeof *b);
  mm__arena_init(&b->arena);
  mm__vec_init(&b->cases, sizeof(mm_build_case));
  mm__vec_init(&b->functions, sizeof(mm_build_function));
  mm__vec_init(&b->rows, sizeof(mm_build_row));
  mm__vec_init(&b->problems, sizeof(mm_build_problem));
  mm__vec_init(&b->rings, sizeof(mm_build_ring));
  b->limits = mm__arena_alloc(&b->arena, (count + 1) * sizeof *b->limits);
  for (size_t i = 0; b->limits && i < count; i++) {
    b->limits[i] = limits[i];
    const char *space = limits[i].space ? limits[i].space : "*";
    b->limits[i].space = mm__arena_strndup(&b->arena, space, strlen(space));
  }
  b->limit_count = count;
  if (b->arena.failed || !b->limits) {
    mm_build_free(b);
    return NULL;
  }
  return b;
}

void mm_build_free(mm_build *b) {
  if (!b) return;
  mm__vec_free(&b->cases);
  mm__vec_free(&b->functions);
  mm__vec_free(&b->rows);
  mm__vec_free(&b->problems);
  mm__vec_free(&b->rings);
  mm__arena_free(&b->arena);
  mm__dealloc(b);
}

size_t mm_build_failures(const mm_build *b) { return b->failures; }
size_t mm_build_errors(const mm_build *b) { return b->errors; }

static const char *copy(mm_build *b, const char *text) {
  return text ? mm__arena_strndup(&b->arena, text, strlen(text)) : NULL;
}

/* A check line, without its newline, into the build. */
static mm_build_problem *add_problem(mm_build *b, uint32_t case_index, uint32_t function,
                                     const char *kind, const char *space, uint32_t line,
                                     mm_buf *text) {
  if (text->len && text->data[text->len - 1] == '\n') text->len--;
  mm__buf_putc(text, 0);
  mm_build_problem *p = mm__vec_push(&b->problems);
  if (!p || text->failed) return NULL;
  *p = (mm_build_problem){case_index,          function, kind, copy(b, space), line,
                          copy(b, text->data), false};
  text->len = 0;
  return p->text ? p : NULL;
}

/* ------------------------------------------------------------ rows */

static mm_build_row *row_of(mm_build *b, size_t first_row, const char *space) {
  for (size_t i = first_row; i < b->rows.len; i++) {
    mm_build_row *row = mm__vec_at(&b->rows, i);
    if (strcmp(row->space, space) == 0) return row;
  }
  return NULL;
}

static void set_by(mm_build *b, mm_build_row *row, const mm_function *fn, const mm_space_usage *u) {
  if (u->hwm_window && u->hwm_window <= fn->window_count) {
    const mm_window *w = &fn->windows[u->hwm_window - 1];
    row->set_by = copy(b, w->name);
    row->set_by_line = w->line;
  } else if (u->hwm_box && u->hwm_box <= fn->box_count) {
    const mm_box *box = &fn->boxes[u->hwm_box - 1];
    row->set_by = copy(b, box->tile->name);
    row->set_by_line = box->start;
    row->set_by_end = box->end;
  }
}

static bool add_rows(mm_build *b, uint32_t case_index, uint32_t function, const mm_function *fn) {
  for (size_t k = 0; k < fn->space_count; k++) {
    const mm_space_usage *u = &fn->spaces[k];
    mm_build_row *row = mm__vec_push(&b->rows);
    if (!row) return false;
    *row = (mm_build_row){.case_index = case_index,
                          .function_index = function,
                          .space = copy(b, u->space),
                          .rank = mm__space_rank(u->space),
                          .hwm = u->hwm_all,
                          .limit = u->limit,
                          .reserved = u->reserved_bytes,
                          .peak_live = u->peak_live,
                          .fragmentation = u->fragmentation,
                          .has_capacity = u->has_capacity,
                          .peak_line = u->peak_line,
                          .tiles = u->tiles};
    if (fn->by_lifetime) {
      row->at_least = true;
      row->hwm = row->peak_live = u->lower_bound;
      row->peak_line = mm__lower_bound_line(fn, u);
      row->fragmentation = 0;
    } else {
      set_by(b, row, fn, u);
    }
  }
  return !b->arena.failed;
}

/* A row for a space that only an unplaced tile names: nothing placed. */
static mm_build_row *add_empty_row(mm_build *b, const mm_model *model, uint32_t case_index,
                                   uint32_t function, const char *space) {
  mm_build_row *row = mm__vec_push(&b->rows);
  if (!row) return NULL;
  uint64_t capacity = mm_backend_capacity(model->backend, space, strlen(space));
  *row = (mm_build_row){.case_index = case_index,
                        .function_index = function,
                        .space = copy(b, space),
                        .rank = mm__space_rank(space),
                        .limit = (int64_t)capacity,
                        .has_capacity = capacity > 0};
  return row->space ? row : NULL;
}

/* ------------------------------------------------------- anomalies */

/* The space an anomaly is in. */
static const char *anomaly_space(const mm_function *fn, const mm_anomaly *e) {
  switch (e->kind) {
  case MM_ANOMALY_UNPLACED: return fn->skipped[e->other].space;
  case MM_ANOMALY_WINDOW_OVERLAP:
  case MM_ANOMALY_WINDOW_OVER: return fn->windows[e->other].space;
  case MM_ANOMALY_NEEDS: return fn->spaces[e->other].space;
  default: return e->box != MM_NO_BOX ? fn->boxes[e->box].tile->space : NULL;
  }
}

static bool add_anomalies(mm_build *b, const mm_model *model, uint32_t case_index,
                          uint32_t function, const mm_function *fn, size_t first_row,
                          const char *label) {
  size_t n;
  mm_anomaly *entries = mm__function_anomalies(fn, &n);
  if (!entries) return false;
  mm_build_function *f = mm__vec_at(&b->functions, function);
  mm_buf text = {0};
  bool ok = true;
  for (size_t i = 0; ok && i < n; i++) {
    const mm_anomaly *e = &entries[i];
    const char *space = anomaly_space(fn, e);
    mm__anomaly_put(&text, label, fn, e);
    mm_build_problem *p =
        add_problem(b, case_index, function, mm__anomaly_kind_name(e->kind), space, e->line, &text);
    ok = p != NULL;
    if (!ok) break;
    p->note = mm__anomaly_is_note(e);
    if (p->note) continue;
    f->problems++;
    mm_build_row *row = space ? row_of(b, first_row, space) : NULL;
    if (space && !row) row = add_empty_row(b, model, case_index, function, space);
    if (!row) continue;
    if (e->kind == MM_ANOMALY_UNPLACED)
      row->unplaced++;
    else if (e->kind == MM_ANOMALY_OVER || e->kind == MM_ANOMALY_WINDOW_OVER ||
             e->kind == MM_ANOMALY_NEEDS)
      row->over_capacity++;
    else
      row->conflicts++;
  }
  mm__buf_free(&text);
  mm__dealloc(entries);
  return ok;
}

/* ------------------------------------------------------ thresholds */

/* The limit for `space`: the last naming it, else the last "*"; NULL. */
static const mm_limit *limit_for(const mm_build *b, const char *space) {
  const mm_limit *any = NULL;
  for (size_t i = b->limit_count; i-- > 0;) {
    if (strcmp(b->limits[i].space, space) == 0) return &b->limits[i];
    if (!any && strcmp(b->limits[i].space, "*") == 0) any = &b->limits[i];
  }
  return any;
}

static void put_set_by(mm_buf *out, const mm_build_row *row) {
  char text[64];
  if (!row->set_by) return;
  mm__buf_puts(out, row->set_by_end ? "; the mark is the end of '"
                                    : "; the mark is the end of reserved window '");
  mm__buf_puts(out, row->set_by);
  if (row->set_by_end)
    snprintf(text, sizeof text, "' (lines %u-%u)", row->set_by_line, row->set_by_end);
  else
    snprintf(text, sizeof text, "' (line %u)", row->set_by_line);
  mm__buf_puts(out, text);
}

/* The thresholds `row` breaks, as check lines. */
static bool check_row(mm_build *b, const mm_build_row *row, const char *label,
                      mm_build_function *f) {
  const mm_limit *limit = limit_for(b, row->space);
  if (!limit || !row->has_capacity) return true;
  char text[192];
  uint32_t line = row->set_by ? row->set_by_line : f->line;
  int64_t headroom = row->limit - row->hwm;
  mm_buf out = {0};
  bool ok = true;
  if (limit->min_headroom >= 0 && headroom < limit->min_headroom) {
    mm__check_location(&out, label, line, "headroom", f->name);
    if (headroom < 0)
      snprintf(text, sizeof text,
               "%s's high-water mark %lld is %lld B past its capacity %lld, "
               "not the %lld B free asked",
               row->space, (long long)row->hwm, (long long)-headroom, (long long)row->limit,
               (long long)limit->min_headroom);
    else
      snprintf(text, sizeof text,
               "%s keeps %lld B free above its high-water mark (%lld of %lld), "
               "less than the %lld B asked",
               row->space, (long long)headroom, (long long)row->hwm, (long long)row->limit,
               (long long)limit->min_headroom);
    mm__buf_puts(&out, text);
    put_set_by(&out, row);
    ok = add_problem(b, row->case_index, row->function_index, "headroom", row->space, line, &out);
    f->problems++;
  }
  if (ok && limit->max_usage >= 0 &&
      (double)row->hwm * 100.0 > limit->max_usage * (double)row->limit) {
    mm__check_location(&out, label, line, "usage", f->name);
    snprintf(text, sizeof text,
             "%s's high-water mark %lld is %.1f%% of %lld, more than the %g%% "
             "allowed",
             row->space, (long long)row->hwm, mm__usage_percent(row->hwm, row->limit),
             (long long)row->limit, limit->max_usage);
    mm__buf_puts(&out, text);
    put_set_by(&out, row);
    ok = add_problem(b, row->case_index, row->function_index, "usage", row->space, line, &out);
    f->problems++;
  }
  mm__buf_free(&out);
  return ok;
}

/* ----------------------------------------------------------- pipes */

/* The model's pipes, a row per ring with its pipe's answers. */
static bool add_rings(mm_build *b, uint32_t case_index, const mm_model *model) {
  for (size_t i = 0; i < model->pipe_count; i++) {
    const mm_pipe *p = &model->pipes[i];
    for (uint32_t k = 0; k < p->ring_count; k++) {
      mm_build_ring *row = mm__vec_push(&b->rings);
      if (!row) return false;
      mm_ring_facts f = mm__ring_facts(model, p, &p->rings[k]);
      f.first = copy(b, f.first);
      f.second = copy(b, f.second);
      f.name = copy(b, f.name);
      f.consumer = copy(b, f.consumer);
      f.space = copy(b, f.space);
      f.missing_peer = copy(b, f.missing_peer);
      *row = (mm_build_ring){case_index, f}; /* direction: static storage */
    }
  }
  return !b->arena.failed;
}

/* ----------------------------------------------------------- cases */

static bool add_function(mm_build *b, const mm_model *model, uint32_t case_index,
                         const mm_function *fn, const char *label) {
  mm_build_function *f = mm__vec_push(&b->functions);
  if (!f) return false;
  uint32_t index = (uint32_t)(b->functions.len - 1);
  *f = (mm_build_function){case_index, copy(b, fn->name),        copy(b, fn->ftype), fn->src_start,
                           0,          (uint32_t)b->problems.len};
  size_t first_row = b->rows.len;
  if (!add_rows(b, case_index, index, fn) ||
      !add_anomalies(b, model, case_index, index, fn, first_row, label))
    return false;
  for (size_t i = first_row; i < b->rows.len; i++) {
    if (!check_row(b, mm__vec_at(&b->rows, i), label, mm__vec_at(&b->functions, index)))
      return false;
  }
  return !b->arena.failed;
}

static mm_build_case *add_case(mm_build *b, const char *name, const char *dump) {
  mm_build_case *c = mm__vec_push(&b->cases);
  if (!c) return NULL;
  *c = (mm_build_case){
      .name = copy(b, name), .dump = copy(b, dump), .first_function = (uint32_t)b->functions.len};
  return b->arena.failed ? NULL : c;
}

bool mm_build_add_model(mm_build *b, const char *case_name, const char *dump,
                        const mm_model *model) {
  mm_build_case *c = add_case(b, case_name, dump);
  if (!c) return false;
  uint32_t case_index = (uint32_t)(b->cases.len - 1);
  c->backend = model->backend ? model->backend->name : NULL;
  c->backend_detected = model->detected;
  for (size_t i = 0; i < model->functions.len; i++)
    c->by_lifetime |= ((const mm_function *)mm__vec_at(&model->functions, i))->by_lifetime;
  for (size_t i = 0; i < model->functions.len; i++)
    if (!add_function(b, model, case_index, mm__vec_at(&model->functions, i), dump)) return false;
  if (!add_rings(b, case_index, model)) return false;
  c = mm__vec_at(&b->cases, case_index);
  c->function_count = (uint32_t)(b->functions.len - c->first_function);
  for (uint32_t i = 0; i < c->function_count; i++) {
    const mm_build_function *f = mm__vec_at(&b->functions, c->first_function + i);
    c->problems += f->problems;
  }
  b->failures += c->problems;
  return true;
}

bool mm_build_add_error(mm_build *b, const char *case_name, const char *dump,
                        const mm_error *error) {
  mm_build_case *c = add_case(b, case_name, dump);
  if (!c) return false;
  if (error && error->nothing_on_chip) {
    c->nothing_on_chip = copy(b, error->message ? error->message : "");
    return !b->arena.failed;
  }
  const char *message = error && error->message ? error->message : "out of memory";
  /* MM_OK: no model error, the dump could not be found or read. */
  c->error = !error                   ? "no_memory"
             : error->status == MM_OK ? "unreadable"
                                      : mm_status_name(error->status);
  c->error_message = copy(b, message);
  c->error_line = error ? error->line : 0;
  mm_buf text = {0};
  mm__buf_puts(&text, dump);
  if (c->error_line) {
    char at[16];
    snprintf(at, sizeof at, ":%u", c->error_line);
    mm__buf_puts(&text, at);
  }
  mm__buf_puts(&text, ": error: ");
  mm__buf_puts(&text, message);
  bool ok = add_problem(b, (uint32_t)(b->cases.len - 1), NO_FUNCTION, "error", NULL, c->error_line,
                        &text) != NULL;
  mm__buf_free(&text);
  b->errors++;
  return ok && !b->arena.failed;
}

/* ----------------------------------------------------------- order */

typedef struct row_ref {
  const mm_build_row *row;
  uint32_t index;
} row_ref;

static mm_headroom_key key_of(const mm_build_row *r) {
  return (mm_headroom_key){r->has_capacity,   r->limit - r->hwm, r->case_index,
                           r->function_index, (uint32_t)r->rank, r->space};
}

static int compare_rows(const row_ref *x, const row_ref *y) {
  mm_headroom_key a = key_of(x->row), b = key_of(y->row);
  int c = mm__headroom_compare(&a, &b);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

#define MM_SORT_NAME sort_rows
#define MM_SORT_TYPE row_ref
#define MM_SORT_COMPARE compare_rows
#include "base/sort_impl.h"

uint32_t *mm__build_order(const mm_build *b) {
  size_t n = b->rows.len;
  row_ref *refs = mm__alloc((n + 1) * sizeof *refs);
  uint32_t *order = mm__alloc((n + 1) * sizeof *order);
  bool ok = refs && order;
  for (size_t i = 0; ok && i < n; i++)
    refs[i] = (row_ref){mm__vec_at(&b->rows, i), (uint32_t)i};
  ok = ok && sort_rows(refs, n);
  for (size_t i = 0; ok && i < n; i++)
    order[i] = refs[i].index;
  mm__dealloc(refs);
  if (!ok) {
    mm__dealloc(order);
    return NULL;
  }
  return order;
}
