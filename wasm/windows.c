/* windows.c: reserved windows: read from a function's reserve_buffer,
 * import_peer_buffer and *_initialize_pipe calls, then placed in their
 * space: their bytes, the boxes sharing them, the ring's next slot. */
#include "windows.h"

#include <string.h>

#include "tiles.h"

typedef struct pipe_record {
  const char **names; /* the names it is given: the windows it sets up */
  uint32_t name_count;
  int64_t slot_size, slot_num; /* 0: not given */
} pipe_record;

static bool span_is(const char *text, size_t len, const char *word) {
  return strlen(word) == len && memcmp(text, word, len) == 0;
}

mm_window_call mm__window_call_kind(const char *text, size_t len) {
  if (span_is(text, len, "reserve_buffer")) return MM_WINDOW_CALL_RESERVE;
  if (span_is(text, len, "import_peer_buffer")) return MM_WINDOW_CALL_IMPORT;
  if (span_is(text, len, "aic_initialize_pipe") || span_is(text, len, "aiv_initialize_pipe"))
    return MM_WINDOW_CALL_PIPE;
  return MM_WINDOW_CALL_NONE;
}

void mm__window_reading_init(mm_window_reading *r) {
  memset(r, 0, sizeof *r);
  mm_vec_init(&r->windows, sizeof(mm_window));
  mm_vec_init(&r->imports, sizeof(mm_import));
  mm_vec_init(&r->pipes, sizeof(pipe_record));
}

void mm__window_reading_start(mm_window_reading *r, const char *ftype, size_t ftype_len) {
  const char *space = span_is(ftype, ftype_len, "AIC") ? "Mat" : "Vec";
  r->space = mm__space_at(mm__space_find(space, 3));
  r->windows.len = r->imports.len = r->pipes.len = 0;
}

void mm__window_reading_free(mm_window_reading *r) {
  mm_vec_free(&r->windows);
  mm_vec_free(&r->imports);
  mm_vec_free(&r->pipes);
}

/* ------------------------------------------------------------ reading */

/* The value of keyword argument `name`, or NULL (the last one given wins,
 * as in a Python call's **kwargs). */
static const mm_node *keyword(const char *src, const mm_node *call, const char *name) {
  const mm_node *found = NULL;
  for (uint32_t k = call->positional; k < call->count; k++) {
    const mm_node *kw = call->kids[k];
    if (kw->kind == N_KEYWORD && span_is(src + kw->start, kw->len, name)) found = kw->kids[0];
  }
  return found;
}

/* An integer keyword: true with `*known` set when it reads as a MemRef's
 * size would (model.md); false with `diag` set beyond 2^53. */
static bool integer_keyword(const char *src, const mm_node *call, const char *name, int64_t *value,
                            bool *known, mm_diag *diag) {
  const mm_node *node = keyword(src, call, name);
  mm_int_result r = node ? mm__usable_integer(src, node, value) : MM_INT_NONE;
  *known = r == MM_INT_OK;
  if (r != MM_INT_RANGE) return true;
  mm_diag_set(diag, MM_ERR_LIMIT, node->line, "the %s on line %u is beyond 2^53 bytes", name,
              (unsigned)node->line);
  return false;
}

/* A keyword's text: a string's value, or a dotted name as written;
 * `fallback` otherwise. NULL when out of memory. */
static const char *text_keyword(const char *src, const mm_node *call, const char *name,
                                const char *fallback, mm_arena *arena) {
  const mm_node *node = keyword(src, call, name);
  if (node && node->kind == N_STR) return mm__string_value(src, node, arena);
  mm_str dotted = node ? mm_dotted_last(src, node) : (mm_str){NULL, 0};
  if (dotted.text) return mm_arena_strndup(arena, dotted.text, dotted.len);
  return fallback ? mm_arena_strndup(arena, fallback, strlen(fallback)) : NULL;
}

static bool read_reserve(mm_window_reading *r, const char *src, const mm_node *target,
                         const mm_node *call, uint32_t line, mm_arena *arena, mm_diag *diag) {
  mm_window *w = mm_vec_push(&r->windows);
  if (!w) return false;
  if (!integer_keyword(src, call, "base", &w->base, &w->base_known, diag) ||
      !integer_keyword(src, call, "size", &w->size, &w->size_known, diag))
    return false;
  w->placed = w->base_known && w->size_known && w->base >= 0 && w->size > 0;
  w->line = line;
  w->space = r->space;
  w->bound = target ? mm_arena_strndup(arena, src + target->start, target->len) : NULL;
  w->name = text_keyword(src, call, "name", w->bound ? w->bound : "reserve_buffer", arena);
  return w->name && (!target || w->bound);
}

static bool read_import(mm_window_reading *r, const char *src, const mm_node *call, uint32_t line,
                        mm_arena *arena) {
  mm_import *imp = mm_vec_push(&r->imports);
  if (!imp) return false;
  imp->line = line;
  imp->name = text_keyword(src, call, "name", "", arena);
  imp->peer = text_keyword(src, call, "peer_func", "", arena);
  return imp->name && imp->peer;
}

/* Names among the call's arguments, positional or keyword, copied. */
static bool read_pipe(mm_window_reading *r, const char *src, const mm_node *call, mm_arena *arena,
                      mm_diag *diag) {
  pipe_record *pipe = mm_vec_push(&r->pipes);
  if (!pipe) return false;
  bool known;
  if (!integer_keyword(src, call, "slot_size", &pipe->slot_size, &known, diag)) return false;
  if (!known || pipe->slot_size < 0) pipe->slot_size = 0;
  if (!integer_keyword(src, call, "slot_num", &pipe->slot_num, &known, diag)) return false;
  if (!known || pipe->slot_num < 0) pipe->slot_num = 0;
  pipe->names = mm_arena_alloc(arena, (call->count ? call->count : 1) * sizeof *pipe->names);
  if (!pipe->names) return false;
  for (uint32_t k = 1; k < call->count; k++) {
    const mm_node *arg = call->kids[k]->kind == N_KEYWORD ? call->kids[k]->kids[0] : call->kids[k];
    if (arg->kind != N_NAME) continue;
    const char *name = mm_arena_strndup(arena, src + arg->start, arg->len);
    if (!name) return false;
    pipe->names[pipe->name_count++] = name;
  }
  return true;
}

bool mm__window_read(mm_window_reading *r, const char *src, const mm_node *target,
                     const mm_node *call, uint32_t line, mm_arena *arena, mm_diag *diag) {
  const mm_node *callee = call->kids[0];
  if (callee->kind != N_ATTRIBUTE || !mm_dotted_last(src, callee).text) return true;
  bool ok = true;
  switch (mm__window_call_kind(src + callee->start, callee->len)) {
  case MM_WINDOW_CALL_NONE: return true;
  case MM_WINDOW_CALL_RESERVE: ok = read_reserve(r, src, target, call, line, arena, diag); break;
  case MM_WINDOW_CALL_IMPORT: ok = read_import(r, src, call, line, arena); break;
  case MM_WINDOW_CALL_PIPE: ok = read_pipe(r, src, call, arena, diag); break;
  }
  if (!ok && !mm_diag_failed(diag)) mm_diag_set(diag, MM_ERR_NO_MEMORY, line, "out of memory");
  return ok;
}

/* The first pipe naming the window's bound name gives its slots; the
 * count, when not given, is how many slots fill the window. */
static void attach_slots(mm_window *w, const pipe_record *pipes, size_t pipe_count) {
  for (size_t p = 0; w->bound && p < pipe_count; p++) {
    for (uint32_t n = 0; n < pipes[p].name_count; n++) {
      if (strcmp(pipes[p].names[n], w->bound) != 0 || !pipes[p].slot_size) continue;
      w->slot_size = pipes[p].slot_size;
      w->slot_num = pipes[p].slot_num;
      if (!w->slot_num && w->size > 0 && w->size % w->slot_size == 0)
        w->slot_num = w->size / w->slot_size;
      return;
    }
  }
}

bool mm__window_reading_finish(mm_window_reading *r, mm_function *fn, mm_arena *arena) {
  fn->window_count = r->windows.len;
  fn->import_count = r->imports.len;
  fn->windows = mm_arena_alloc(arena, (r->windows.len ? r->windows.len : 1) * sizeof *fn->windows);
  fn->imports = mm_arena_alloc(arena, (r->imports.len ? r->imports.len : 1) * sizeof *fn->imports);
  if (!fn->windows || !fn->imports) return false;
  if (r->windows.len) memcpy(fn->windows, r->windows.items, r->windows.len * sizeof *fn->windows);
  if (r->imports.len) memcpy(fn->imports, r->imports.items, r->imports.len * sizeof *fn->imports);
  for (size_t i = 0; i < fn->window_count; i++)
    attach_slots(&fn->windows[i], r->pipes.items, r->pipes.len);
  return true;
}

/* ------------------------------------------------------------ placing */

static int64_t add_saturated(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

/* The space's usage, added (windows only) when the function has none. */
static mm_space_usage *usage_of(mm_function *fn, const char *space, const mm_backend *backend) {
  for (size_t k = 0; k < fn->space_count; k++)
    if (fn->spaces[k].space == space) return &fn->spaces[k]; /* shared (collect.c) */
  mm_space_usage *u = &fn->spaces[fn->space_count++]; /* room for one per window (layout.c) */
  memset(u, 0, sizeof *u);
  u->space = space;
  u->reserved_only = true;
  uint64_t capacity = mm_backend_capacity(backend, space, strlen(space));
  u->has_capacity = capacity != 0;
  u->limit = (int64_t)capacity;
  return u;
}

static bool shares_bytes(const mm_window *w, const mm_box *box) {
  const mm_tile *t = box->tile;
  return t->space == w->space && t->size > 0 && t->offset < w->base + w->size &&
         w->base < t->offset + t->size;
}

static bool find_conflicts(mm_function *fn, mm_window *w, mm_arena *arena) {
  uint32_t n = 0;
  for (size_t i = 0; i < fn->box_count; i++)
    n += shares_bytes(w, &fn->boxes[i]);
  w->conflicts = n ? mm_arena_alloc(arena, n * sizeof *w->conflicts) : NULL;
  if (n && !w->conflicts) return false;
  for (size_t i = 0; i < fn->box_count; i++) {
    if (!shares_bytes(w, &fn->boxes[i])) continue;
    w->conflicts[w->conflict_count++] = (uint32_t)i;
    fn->boxes[i].window_conflict = true;
  }
  return true;
}

/* One more slot makes the ring `slot_size` longer: what sits above it
 * moves up by as much. */
static int64_t grown_hwm(const mm_function *fn, const mm_window *w) {
  int64_t above = w->base + w->size, hwm = add_saturated(above, w->slot_size);
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_tile *t = fn->boxes[i].tile;
    if (t->space != w->space || t->size <= 0) continue;
    int64_t end = add_saturated(t->offset + t->size, t->offset >= above ? w->slot_size : 0);
    if (end > hwm) hwm = end;
  }
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *v = &fn->windows[i];
    if (v == w || !v->placed || v->space != w->space) continue;
    int64_t end = add_saturated(v->base + v->size, v->base >= above ? w->slot_size : 0);
    if (end > hwm) hwm = end;
  }
  return hwm;
}

bool mm_function_windows(mm_function *fn, const mm_backend *backend, mm_arena *arena) {
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (!w->placed) continue;
    mm_space_usage *u = usage_of(fn, w->space, backend);
    u->reserved_bytes = add_saturated(u->reserved_bytes, w->size);
    if (w->base + w->size > u->hwm_all) u->hwm_all = w->base + w->size;
  }
  for (size_t k = 0; k < fn->space_count; k++) {
    mm_space_usage *u = &fn->spaces[k];
    if (u->reserved_only && !u->has_capacity) u->limit = u->hwm_all;
  }
  for (size_t i = 0; i < fn->window_count; i++) {
    mm_window *w = &fn->windows[i];
    if (!w->placed) continue;
    mm_space_usage *u = usage_of(fn, w->space, backend);
    w->over_capacity = w->base + w->size > u->limit;
    u->over_capacity += w->over_capacity;
    if (!find_conflicts(fn, w, arena)) return false;
    w->grown_hwm = w->slot_size ? grown_hwm(fn, w) : 0;
  }
  return true;
}
