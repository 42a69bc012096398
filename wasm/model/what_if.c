/* what_if.c: the lowest gap a tile fits in, over its lifetime, and the
 * high-water mark if the tile that sets it moved there. */
#include "model/what_if.h"

#include <string.h>

#include "memory_map.h"
#include "model/function_tiles.h"

static int64_t aligned(int64_t offset) {
  return (offset + MM_ALIGNMENT - 1) / MM_ALIGNMENT * MM_ALIGNMENT;
}

/* Names compared as text; most are one interned pointer. */
static bool same(const char *a, const char *b) { return a == b || strcmp(a, b) == 0; }

static bool in_space(const mm_tile *t, const char *space, const char *moving) {
  return t->size > 0 && same(t->space, space) && !(moving && same(t->base, moving));
}

/* A byte range that holds the space over the lines asked about. */
typedef struct span {
  int64_t lo, hi;
} span;

static int compare_spans(const span *a, const span *b) { return (a->lo > b->lo) - (a->lo < b->lo); }

#define MM_SORT_NAME sort_spans
#define MM_SORT_TYPE span
#define MM_SORT_COMPARE compare_spans
#include "base/sort_impl.h"

/* The lifetime a place is sought for: lines first..last, and, where a
 * planner placed the dump, the same in the planners' time (from..to,
 * mm__lifetime_points), where an input the binding statement reads last
 * hands its bytes over (model.md §7) and so holds nothing. */
typedef struct lifetime {
  uint32_t first, last;
  bool by_time;
  uint64_t from, to;
} lifetime;

static lifetime lifetime_of(const mm_function *fn, uint32_t first, uint32_t last, bool by_time) {
  lifetime when = {first, last, by_time, 0, 0};
  if (by_time) mm__lifetime_points(fn, first, last, &when.from, &when.to);
  return when;
}

/* Whether box `b` holds its bytes during `when`. A slot of a
 * multi-buffered allocation hands nothing over: its lines count. */
static bool holds_during(const mm_function *fn, const mm_box *b, const lifetime *when) {
  if (!(b->start <= when->last && b->end >= when->first)) return false;
  if (!when->by_time || b->tile->slot_count > 1) return true;
  uint64_t from, to;
  mm__lifetime_points(fn, b->start, b->end, &from, &to);
  return from <= when->to && when->from <= to;
}

/* What holds `space` during `when`: the boxes of other bases, and every
 * placed window. */
static span *holders(const mm_function *fn, const char *space, const lifetime *when,
                     const char *moving, size_t *count) {
  span *spans = mm__alloc((fn->box_count + fn->window_count + 1) * sizeof *spans);
  size_t n = 0;
  for (size_t i = 0; spans && i < fn->box_count; i++) {
    const mm_box *b = &fn->boxes[i];
    if (in_space(b->tile, space, moving) && holds_during(fn, b, when))
      spans[n++] = (span){b->tile->offset, b->tile->offset + b->tile->size};
  }
  for (size_t i = 0; spans && i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (w->placed && strcmp(w->space, space) == 0 &&
        !(moving && w->owner && strcmp(w->owner, moving) == 0))
      spans[n++] = (span){w->base, w->base + w->size};
  }
  *count = n;
  return spans;
}

/* The lowest MM_ALIGNMENT-aligned offset where `size` bytes of `space`
 * share no byte with what holds it during `when`; boxes of base `moving`
 * (NULL: none) are left out, as the tile being moved. Always found (above
 * everything, at worst); -1 only when out of memory. */
static int64_t lowest_fit(const mm_function *fn, const char *space, int64_t size,
                          const lifetime *when, const char *moving) {
  size_t n;
  span *spans = holders(fn, space, when, moving, &n);
  if (!spans || !sort_spans(spans, n)) {
    mm__dealloc(spans);
    return -1;
  }
  /* First fit, lowest first: the gap starts at 0 or at the aligned end of
   * what holds the bytes below it, and ends where the next holder starts. */
  int64_t at = 0;
  for (size_t i = 0; i < n && spans[i].lo < at + size; i++)
    if (spans[i].hi > at) at = aligned(spans[i].hi);
  mm__dealloc(spans);
  return at;
}

/* The high-water mark of `space` (windows included) without the boxes of
 * base `moving`. */
static int64_t mark_without(const mm_function *fn, const char *space, const char *moving) {
  int64_t mark = 0;
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_tile *t = fn->boxes[i].tile;
    if (in_space(t, space, moving) && t->offset + t->size > mark) mark = t->offset + t->size;
  }
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (w->placed && strcmp(w->space, space) == 0 && w->base + w->size > mark)
      mark = w->base + w->size;
  }
  return mark;
}

static bool pinned(const mm_function *fn, const char *base) {
  for (size_t i = 0; i < fn->window_count; i++)
    if (fn->windows[i].kind == MM_WINDOW_PINNED && fn->windows[i].owner &&
        strcmp(fn->windows[i].owner, base) == 0)
      return true;
  return false;
}

/* The mark's tile and its base's other boxes, moved as one block. */
static bool what_if(const mm_function *fn, mm_space_usage *u) {
  if (u->hwm_window || !u->hwm_box || u->hwm_box > fn->box_count) return true;
  const mm_tile *mark = fn->boxes[u->hwm_box - 1].tile;
  if (pinned(fn, mark->base) || mark->size <= 0) return true;
  int64_t low = INT64_MAX, high = 0;
  uint32_t first = UINT32_MAX, last = 0, moved = 0;
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *b = &fn->boxes[i];
    if (b->tile->size <= 0 || !same(b->tile->space, u->space) || !same(b->tile->base, mark->base))
      continue;
    if (b->tile->offset < low) low = b->tile->offset;
    if (b->tile->offset + b->tile->size > high) high = b->tile->offset + b->tile->size;
    if (b->start < first) first = b->start;
    if (b->end > last) last = b->end;
    moved++;
  }
  int64_t size = high - low;
  lifetime when = lifetime_of(fn, first, last, fn->planner_placed && mark->slot_count <= 1);
  int64_t to = lowest_fit(fn, u->space, size, &when, mark->base);
  if (to < 0) return false;
  int64_t rest = mark_without(fn, u->space, mark->base);
  int64_t then = to + size > rest ? to + size : rest;
  /* A move that raises the mark is offered only to a tile that must
   * move: one sharing bytes while live. */
  const mm_box *box = &fn->boxes[u->hwm_box - 1];
  if (then > u->hwm_all && !box->conflict && !box->window_partner_total) return true;
  u->what_if_box = u->hwm_box;
  u->what_if_moved = moved;
  u->what_if_offset = to;
  u->what_if_hwm = then;
  return true;
}

bool mm__function_what_if(mm_function *fn) {
  if (fn->by_lifetime) return true; /* no addresses: nothing to move */
  for (size_t k = 0; k < fn->space_count; k++)
    if (!what_if(fn, &fn->spaces[k])) return false;
  return true;
}

bool mm_model_fit(const mm_model *model, size_t function, const char *space, int64_t bytes,
                  uint32_t first, uint32_t last, mm_fit *out) {
  if (!model || function >= model->functions.len || !space || bytes <= 0 || first > last ||
      bytes > ((int64_t)1 << 53))
    return false;
  const mm_function *fn = mm__vec_at(&model->functions, function);
  /* A tile asked about has no statement: its lines count whole. */
  lifetime when = lifetime_of(fn, first, last, false);
  int64_t offset = lowest_fit(fn, space, bytes, &when, NULL);
  if (offset < 0) return false;
  int64_t mark = mark_without(fn, space, NULL);
  uint64_t capacity = mm_backend_capacity(model->backend, space, strlen(space));
  *out = (mm_fit){.offset = offset,
                  .hwm = offset + bytes > mark ? offset + bytes : mark,
                  .limit = (int64_t)capacity,
                  .has_capacity = capacity > 0};
  out->fits = !out->has_capacity || out->hwm <= out->limit;
  return true;
}
