/* windows.c: reserved windows: read from a function's reserve_buffer,
 * import_peer_buffer and *_initialize_pipe calls, then placed in their
 * space: their bytes, the boxes sharing them, the ring's next slot. */
#include "model/windows.h"

#include <string.h>

#include "base/names.h"
#include "base/search.h"
#include "model/backends.h"
#include "model/tiles.h"

typedef struct pipe_record {
  const char **names; /* the names it is given: the windows it sets up */
  uint32_t name_count;
  int64_t slot_size, slot_num; /* 0: not given */
} pipe_record;

void mm__window_reading_init(mm_window_reading *r) {
  memset(r, 0, sizeof *r);
  mm__vec_init(&r->windows, sizeof(mm_window));
  mm__vec_init(&r->imports, sizeof(mm_import));
  mm__vec_init(&r->pipes, sizeof(pipe_record));
}

void mm__window_reading_start(mm_window_reading *r, const char *ftype, size_t ftype_len) {
  const char *space = mm__span_is(ftype, ftype_len, "AIC") ? "Mat" : "Vec";
  r->space = mm__space_at(mm__space_find(space, 3));
  r->windows.len = r->imports.len = r->pipes.len = 0;
}

void mm__window_reading_free(mm_window_reading *r) {
  mm__vec_free(&r->windows);
  mm__vec_free(&r->imports);
  mm__vec_free(&r->pipes);
}

/* ------------------------------------------------------------ reading */

/* An integer keyword: true with `*known` set when it reads as a MemRef's
 * size would (model.md); false with `diag` set beyond 2^53. */
static bool integer_keyword(const char *src, const mm_node *call, const char *name, int64_t *value,
                            bool *known, mm_diag *diag) {
  const mm_node *node = mm__keyword_value(src, call, name);
  mm_int_result r = node ? mm__usable_integer(src, node, value) : MM_INT_NONE;
  *known = r == MM_INT_OK;
  if (r != MM_INT_RANGE) return true;
  mm__diag_set(diag, MM_ERR_LIMIT, node->line, "the %s on line %u is beyond 2^53 bytes", name,
               (unsigned)node->line);
  return false;
}

/* A keyword's text: a string's value, or a dotted name as written;
 * `fallback` otherwise. NULL when out of memory. */
static const char *text_keyword(const char *src, const mm_node *call, const char *name,
                                const char *fallback, mm_arena *arena) {
  const mm_node *node = mm__keyword_value(src, call, name);
  if (node && node->kind == N_STR) return mm__string_value(src, node, arena);
  mm_str dotted = node ? mm__dotted_last(src, node) : (mm_str){NULL, 0};
  if (dotted.text) return mm__arena_strndup(arena, dotted.text, dotted.len);
  return fallback ? mm__arena_strndup(arena, fallback, strlen(fallback)) : NULL;
}

static bool read_reserve(mm_window_reading *r, const char *src, const mm_node *target,
                         const mm_node *call, uint32_t line, mm_arena *arena, mm_diag *diag) {
  mm_window *w = mm__vec_push(&r->windows);
  if (!w) return false;
  if (!integer_keyword(src, call, "base", &w->base, &w->base_known, diag) ||
      !integer_keyword(src, call, "size", &w->size, &w->size_known, diag))
    return false;
  w->placed = w->base_known && w->size_known && w->base >= 0 && w->size > 0;
  w->line = line;
  w->space = r->space;
  w->bound = target ? mm__arena_strndup(arena, src + target->start, target->len) : NULL;
  w->name = text_keyword(src, call, "name", w->bound ? w->bound : "reserve_buffer", arena);
  return w->name && (!target || w->bound);
}

static bool read_import(mm_window_reading *r, const char *src, const mm_node *target,
                        const mm_node *call, uint32_t line, mm_arena *arena) {
  mm_import *imp = mm__vec_push(&r->imports);
  if (!imp) return false;
  imp->line = line;
  imp->bound = target ? mm__arena_strndup(arena, src + target->start, target->len) : NULL;
  if (target && !imp->bound) return false;
  imp->name = text_keyword(src, call, "name", "", arena);
  imp->peer = text_keyword(src, call, "peer_func", "", arena);
  return imp->name && imp->peer;
}

/* Names among the call's arguments, positional or keyword, copied. */
static bool read_pipe(mm_window_reading *r, const char *src, const mm_node *call, mm_arena *arena,
                      mm_diag *diag) {
  pipe_record *pipe = mm__vec_push(&r->pipes);
  if (!pipe) return false;
  bool known;
  if (!integer_keyword(src, call, "slot_size", &pipe->slot_size, &known, diag)) return false;
  if (!known || pipe->slot_size < 0) pipe->slot_size = 0;
  if (!integer_keyword(src, call, "slot_num", &pipe->slot_num, &known, diag)) return false;
  if (!known || pipe->slot_num < 0) pipe->slot_num = 0;
  pipe->names = mm__arena_alloc(arena, (call->count ? call->count : 1) * sizeof *pipe->names);
  if (!pipe->names) return false;
  for (uint32_t k = 1; k < call->count; k++) {
    const mm_node *arg = call->kids[k]->kind == N_KEYWORD ? call->kids[k]->kids[0] : call->kids[k];
    if (arg->kind != N_NAME) continue;
    const char *name = mm__arena_strndup(arena, src + arg->start, arg->len);
    if (!name) return false;
    pipe->names[pipe->name_count++] = name;
  }
  return true;
}

bool mm__window_read(mm_window_reading *r, const char *src, const mm_node *target,
                     const mm_node *call, uint32_t line, mm_arena *arena, mm_diag *diag) {
  const mm_node *callee = call->kids[0];
  if (callee->kind != N_ATTRIBUTE || !mm__dotted_last(src, callee).text) return true;
  bool ok = true;
  switch (mm__window_call_kind(src + callee->start, callee->len)) {
  case MM_WINDOW_CALL_NONE:
  case MM_WINDOW_CALL_ALLOC:
  case MM_WINDOW_CALL_ATTRS: return true;
  case MM_WINDOW_CALL_RESERVE: ok = read_reserve(r, src, target, call, line, arena, diag); break;
  case MM_WINDOW_CALL_IMPORT: ok = read_import(r, src, target, call, line, arena); break;
  case MM_WINDOW_CALL_PIPE: ok = read_pipe(r, src, call, arena, diag); break;
  }
  if (!ok && !mm__diag_failed(diag)) mm__diag_set(diag, MM_ERR_NO_MEMORY, line, "out of memory");
  return ok;
}

/* The first pipe naming each window's bound name gives its slots; the
 * count, when not given, is how many slots fill the window. */
static bool attach_slots(mm_function *fn, const pipe_record *pipes, size_t pipe_count) {
  mm_names first = {0}; /* name -> the first pipe naming it */
  bool ok = true;
  for (size_t p = 0; p < pipe_count && ok; p++) {
    for (uint32_t n = 0; n < pipes[p].name_count && ok; n++) {
      bool added;
      mm_name_entry *e =
          mm__names_upsert(&first, pipes[p].names[n], strlen(pipes[p].names[n]), &added);
      ok = e != NULL;
      if (ok && added) e->value[0] = (uint32_t)p;
    }
  }
  for (size_t i = 0; i < fn->window_count && ok; i++) {
    mm_window *w = &fn->windows[i];
    const mm_name_entry *e = w->bound ? mm__names_find(&first, w->bound, strlen(w->bound)) : NULL;
    if (!e || !pipes[e->value[0]].slot_size) continue;
    w->slot_size = pipes[e->value[0]].slot_size;
    w->slot_num = pipes[e->value[0]].slot_num;
    if (!w->slot_num && w->size > 0 && w->size % w->slot_size == 0)
      w->slot_num = w->size / w->slot_size;
  }
  for (size_t i = 0; i < fn->import_count && ok; i++) {
    mm_import *imp = &fn->imports[i];
    const mm_name_entry *e =
        imp->bound ? mm__names_find(&first, imp->bound, strlen(imp->bound)) : NULL;
    if (!e) continue;
    imp->slot_size = pipes[e->value[0]].slot_size;
    imp->slot_num = pipes[e->value[0]].slot_num;
  }
  mm__names_free(&first);
  return ok;
}

bool mm__window_reading_finish(mm_window_reading *r, mm_function *fn, mm_arena *arena) {
  fn->window_count = r->windows.len;
  fn->import_count = r->imports.len;
  fn->windows = mm__arena_alloc(arena, (r->windows.len ? r->windows.len : 1) * sizeof *fn->windows);
  fn->imports = mm__arena_alloc(arena, (r->imports.len ? r->imports.len : 1) * sizeof *fn->imports);
  if (!fn->windows || !fn->imports) return false;
  if (r->windows.len) memcpy(fn->windows, r->windows.items, r->windows.len * sizeof *fn->windows);
  if (r->imports.len) memcpy(fn->imports, r->imports.items, r->imports.len * sizeof *fn->imports);
  for (size_t i = 0; i < fn->window_count; i++) {
    fn->windows[i].overlaps = -1;
    fn->windows[i].one_more_fits = -1;
  }
  return attach_slots(fn, r->pipes.items, r->pipes.len);
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

/* Byte intervals [lo, hi) of one space, sorted by `lo`, with the index of
 * what each is (a box or a window) and sorted copies of both ends for
 * counting: how many start before x, how many end at or before x. */
typedef struct interval {
  int64_t lo, hi;
  uint32_t index;
} interval;

static int compare_intervals(const interval *a, const interval *b) {
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}
static int compare_ends(const int64_t *a, const int64_t *b) { return *a < *b ? -1 : *a > *b; }

#define MM_SORT_NAME sort_intervals
#define MM_SORT_TYPE interval
#define MM_SORT_COMPARE compare_intervals
#include "base/sort_impl.h"
#define MM_SORT_NAME sort_ends
#define MM_SORT_TYPE int64_t
#define MM_SORT_COMPARE compare_ends
#include "base/sort_impl.h"

typedef struct interval_set {
  interval *items;
  int64_t *ends; /* every hi, sorted */
  size_t count;
} interval_set;

/* How many items start before x: their los are sorted. */
static size_t starting_before(const interval_set *set, int64_t x) {
  size_t lo = 0, hi = set->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (set->items[mid].lo < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* How many of the set share bytes with [lo, hi): those starting before hi
 * less those ending at or before lo (which all start before hi). Lists up
 * to `room` of them in `out` (looking at most a few dozen: the count stays
 * exact on any input, the list may then be short). */
static uint32_t sharing(const interval_set *set, int64_t lo, int64_t hi, uint32_t *out,
                        uint32_t room, uint32_t *listed) {
  size_t before = starting_before(set, hi);
  size_t total = before - mm__lower_bound_i64(set->ends, set->count, lo + 1);
  *listed = 0;
  for (size_t k = before, looked = 0; k-- > 0 && *listed < room && *listed < total && looked < 64;
       looked++)
    if (set->items[k].hi > lo) out[(*listed)++] = set->items[k].index;
  for (uint32_t i = 1; i < *listed; i++) /* in index order */
    for (uint32_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
      uint32_t swap = out[j];
      out[j] = out[j - 1];
      out[j - 1] = swap;
    }
  return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

static bool interval_set_make(interval_set *set, size_t capacity) {
  set->count = 0;
  set->items = mm__alloc((capacity ? capacity : 1) * sizeof *set->items);
  set->ends = mm__alloc((capacity ? capacity : 1) * sizeof *set->ends);
  return set->items && set->ends;
}

static bool interval_set_sort(interval_set *set) {
  for (size_t i = 0; i < set->count; i++)
    set->ends[i] = set->items[i].hi;
  return sort_intervals(set->items, set->count) && sort_ends(set->ends, set->count);
}

static void interval_set_free(interval_set *set) {
  mm__dealloc(set->items);
  mm__dealloc(set->ends);
}

/* The boxes and the placed windows of `space`. */
static bool collect_space(const mm_function *fn, const char *space, interval_set *boxes,
                          interval_set *windows) {
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_tile *t = fn->boxes[i].tile;
    if (t->space == space && t->size > 0)
      boxes->items[boxes->count++] = (interval){t->offset, t->offset + t->size, (uint32_t)i};
  }
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (w->placed && w->space == space)
      windows->items[windows->count++] = (interval){w->base, w->base + w->size, (uint32_t)i};
  }
  return interval_set_sort(boxes) && interval_set_sort(windows);
}

/* Takes `index` out of a list of `*listed`, in place. */
static void unlist(uint32_t *list, uint32_t *listed, uint32_t index) {
  for (uint32_t i = 0; i < *listed; i++)
    if (list[i] == index) {
      memmove(list + i, list + i + 1, (*listed - i - 1) * sizeof *list);
      (*listed)--;
      return;
    }
}

/* A pinned window whose listed partners were its own tiles lists the
 * others again, in box order: --check and the page read the list. A few
 * pinned allocations a function: one pass over the boxes each. */
static void relist_partners(const mm_function *fn, mm_window *w) {
  if (w->kind != MM_WINDOW_PINNED || w->partner_count >= w->partner_total ||
      w->partner_count >= MM_BOX_PARTNERS)
    return;
  w->partner_count = 0;
  for (size_t b = 0; b < fn->box_count && w->partner_count < MM_BOX_PARTNERS; b++) {
    const mm_tile *t = fn->boxes[b].tile;
    if (t->space == w->space && t->base != w->owner && t->size > 0 &&
        t->offset < w->base + w->size && w->base < t->offset + t->size)
      w->partners[w->partner_count++] = (uint32_t)b;
  }
}

/* A pinned allocation holds its own tiles: a box inside the allocation
 * it belongs to shares no bytes with it in the sense of a conflict. Takes
 * such pairs out of both sides' counts and lists. */
static bool excuse_own_tiles(mm_function *fn, const interval_set *windows) {
  mm_names owners = {0}; /* a pinned window's base -> its index */
  bool ok = true, any = false;
  for (size_t i = 0; i < windows->count && ok; i++) {
    const mm_window *w = &fn->windows[windows->items[i].index];
    if (w->kind != MM_WINDOW_PINNED || !w->owner) continue;
    bool added;
    mm_name_entry *e = mm__names_upsert(&owners, w->owner, strlen(w->owner), &added);
    ok = e != NULL;
    if (ok) e->value[0] = windows->items[i].index;
    any = true;
  }
  for (size_t b = 0; b < fn->box_count && ok && any; b++) {
    mm_box *box = &fn->boxes[b];
    const mm_tile *t = box->tile;
    const mm_name_entry *e = mm__names_find(&owners, t->base, strlen(t->base));
    if (!e || t->size <= 0) continue;
    mm_window *w = &fn->windows[e->value[0]];
    if (w->space != t->space || t->offset >= w->base + w->size || t->offset + t->size <= w->base)
      continue;
    w->partner_total--;
    unlist(w->partners, &w->partner_count, (uint32_t)b);
    box->window_partner_total--;
    unlist(box->window_partners, &box->window_partner_count, e->value[0]);
  }
  mm__names_free(&owners);
  for (size_t i = 0; i < windows->count && ok && any; i++)
    relist_partners(fn, &fn->windows[windows->items[i].index]);
  return ok;
}

/* Boxes and windows sharing bytes, each side listing the other. */
static bool find_conflicts(mm_function *fn, const interval_set *boxes, const interval_set *windows,
                           mm_arena *arena) {
  for (size_t i = 0; i < windows->count; i++) {
    mm_window *w = &fn->windows[windows->items[i].index];
    w->partner_total =
        sharing(boxes, w->base, w->base + w->size, w->partners, MM_BOX_PARTNERS, &w->partner_count);
  }
  for (size_t i = 0; i < boxes->count; i++) {
    mm_box *box = &fn->boxes[boxes->items[i].index];
    uint32_t found[MM_BOX_PARTNERS], listed;
    uint32_t total =
        sharing(windows, boxes->items[i].lo, boxes->items[i].hi, found, MM_BOX_PARTNERS, &listed);
    if (!total) continue;
    box->window_partners = mm__arena_alloc(arena, (listed ? listed : 1) * sizeof *found);
    if (!box->window_partners) return false;
    memcpy(box->window_partners, found, listed * sizeof *found);
    box->window_partner_count = listed;
    box->window_partner_total = total;
  }
  return excuse_own_tiles(fn, windows);
}

/* Windows sharing bytes with one before them (by base): each notes one;
 * the space's reserved bytes are their union. */
static int64_t overlaps_and_union(mm_function *fn, const interval_set *windows) {
  int64_t reach = INT64_MIN, total = 0;
  int32_t holder = -1;
  for (size_t i = 0; i < windows->count; i++) {
    const interval *v = &windows->items[i];
    if (v->lo < reach) fn->windows[v->index].overlaps = holder;
    total = add_saturated(total, v->hi > reach ? v->hi - (v->lo > reach ? v->lo : reach) : 0);
    if (v->hi > reach) {
      reach = v->hi;
      holder = (int32_t)v->index;
    }
  }
  return total;
}

/* One more slot makes the ring `slot_size` longer: what starts above it
 * moves up by as much. `suffix[k]`: the highest end among items k.. of
 * the space's boxes and windows sorted by start; `prefix[k]`: among ..k-1. */
static int64_t grown_hwm(mm_window *w, const interval_set *all, const int64_t *prefix,
                         const int64_t *suffix) {
  int64_t above = w->base + w->size;
  size_t k = starting_before(all, above);
  w->grow_moved = k < all->count && suffix[k] > above ? suffix[k] : above;
  w->grow_fixed = prefix[k] > 0 ? prefix[k] : 0;
  int64_t hwm = add_saturated(w->grow_moved, w->slot_size);
  return w->grow_fixed > hwm ? w->grow_fixed : hwm;
}

static bool ring_growth(mm_function *fn, const interval_set *boxes, const interval_set *windows) {
  interval_set all = {0};
  size_t n = boxes->count + windows->count;
  int64_t *prefix = mm__alloc((n + 1) * sizeof *prefix),
          *suffix = mm__alloc((n + 1) * sizeof *suffix);
  bool ok = prefix && suffix && interval_set_make(&all, n);
  if (ok) {
    memcpy(all.items, boxes->items, boxes->count * sizeof *all.items);
    memcpy(all.items + boxes->count, windows->items, windows->count * sizeof *all.items);
    all.count = n;
    ok = sort_intervals(all.items, n);
  }
  if (ok) {
    prefix[0] = INT64_MIN;
    for (size_t k = 0; k < n; k++)
      prefix[k + 1] = all.items[k].hi > prefix[k] ? all.items[k].hi : prefix[k];
    suffix[n] = INT64_MIN;
    for (size_t k = n; k-- > 0;)
      suffix[k] = all.items[k].hi > suffix[k + 1] ? all.items[k].hi : suffix[k + 1];
    for (size_t i = 0; i < windows->count; i++) {
      mm_window *w = &fn->windows[windows->items[i].index];
      w->grown_hwm = w->slot_size ? grown_hwm(w, &all, prefix, suffix) : 0;
    }
  }
  mm__dealloc(prefix);
  mm__dealloc(suffix);
  interval_set_free(&all);
  return ok;
}

/* One space's windows: usage, conflicts, overlaps, the ring's next slot. */
static bool place_space(mm_function *fn, mm_space_usage *u, mm_arena *arena) {
  interval_set boxes = {0}, windows = {0};
  bool ok = interval_set_make(&boxes, fn->box_count) &&
            interval_set_make(&windows, fn->window_count) &&
            collect_space(fn, u->space, &boxes, &windows);
  if (ok) {
    u->reserved_bytes = overlaps_and_union(fn, &windows);
    for (size_t i = 0; i < windows.count; i++) {
      if (windows.items[i].hi <= u->hwm_all) continue;
      u->hwm_all = windows.items[i].hi;
      u->hwm_window = (uint32_t)windows.items[i].index + 1;
    }
    if (u->reserved_only && !u->has_capacity) u->limit = u->hwm_all;
    for (size_t i = 0; i < windows.count; i++) {
      mm_window *w = &fn->windows[windows.items[i].index];
      w->over_capacity = w->base + w->size > u->limit;
      u->over_capacity += w->over_capacity;
    }
    ok = find_conflicts(fn, &boxes, &windows, arena) && ring_growth(fn, &boxes, &windows);
    for (size_t i = 0; ok && i < windows.count; i++) {
      mm_window *w = &fn->windows[windows.items[i].index];
      w->one_more_fits = !w->grown_hwm || !u->has_capacity ? -1 : w->grown_hwm <= u->limit;
    }
  }
  interval_set_free(&boxes);
  interval_set_free(&windows);
  return ok;
}

bool mm__function_windows(mm_function *fn, const mm_backend *backend, mm_arena *arena) {
  for (size_t i = 0; i < fn->window_count; i++)
    if (fn->windows[i].placed) usage_of(fn, fn->windows[i].space, backend);
  for (size_t k = 0; k < fn->space_count; k++) {
    mm_space_usage *u = &fn->spaces[k];
    bool has_windows = false;
    for (size_t i = 0; i < fn->window_count && !has_windows; i++)
      has_windows = fn->windows[i].placed && fn->windows[i].space == u->space;
    if (has_windows && !place_space(fn, u, arena)) return false;
  }
  return true;
}
