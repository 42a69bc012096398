/* what_if.c: the lowest gap a tile fits in, over its lifetime, and the
 * high-water mark if the tile that sets it moved there. */
#include "model/what_if.h"

#include <string.h>

#include "memory_map.h"

static int64_t aligned(int64_t offset) {
  return (offset + MM_ALIGNMENT - 1) / MM_ALIGNMENT * MM_ALIGNMENT;
}

static bool in_space(const mm_tile *t, const char *space, const char *moving) {
  return t->size > 0 && strcmp(t->space, space) == 0 && !(moving && strcmp(t->base, moving) == 0);
}

/* Whether [offset, offset + size) shares a byte with what holds `space`
 * on first..last. */
static bool taken(const mm_function *fn, const char *space, int64_t offset, int64_t size,
                  uint32_t first, uint32_t last, const char *moving) {
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *b = &fn->boxes[i];
    const mm_tile *t = b->tile;
    if (!in_space(t, space, moving) || b->start > last || b->end < first) continue;
    if (t->offset < offset + size && offset < t->offset + t->size) return true;
  }
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (!w->placed || strcmp(w->space, space) != 0) continue;
    if (moving && w->owner && strcmp(w->owner, moving) == 0) continue;
    if (w->base < offset + size && offset < w->base + w->size) return true;
  }
  return false;
}

int64_t mm__lowest_fit(const mm_function *fn, const char *space, int64_t size, uint32_t first,
                       uint32_t last, const char *moving) {
  /* The lowest gap starts at 0 or at the aligned end of something. */
  int64_t best = -1;
  if (!taken(fn, space, 0, size, first, last, moving)) return 0;
  for (size_t i = 0; i < fn->box_count + fn->window_count; i++) {
    int64_t end;
    if (i < fn->box_count) {
      const mm_box *b = &fn->boxes[i];
      if (!in_space(b->tile, space, moving) || b->start > last || b->end < first) continue;
      end = b->tile->offset + b->tile->size;
    } else {
      const mm_window *w = &fn->windows[i - fn->box_count];
      if (!w->placed || strcmp(w->space, space) != 0) continue;
      end = w->base + w->size;
    }
    int64_t at = aligned(end);
    if ((best < 0 || at < best) && !taken(fn, space, at, size, first, last, moving)) best = at;
  }
  return best < 0 ? 0 : best;
}

int64_t mm__mark_without(const mm_function *fn, const char *space, const char *moving) {
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
static void what_if(const mm_function *fn, mm_space_usage *u) {
  if (u->hwm_window || !u->hwm_box || u->hwm_box > fn->box_count) return;
  const mm_tile *mark = fn->boxes[u->hwm_box - 1].tile;
  if (pinned(fn, mark->base) || mark->size <= 0) return;
  int64_t low = INT64_MAX, high = 0;
  uint32_t first = UINT32_MAX, last = 0, moved = 0;
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *b = &fn->boxes[i];
    if (b->tile->size <= 0 || strcmp(b->tile->space, u->space) != 0 ||
        strcmp(b->tile->base, mark->base) != 0)
      continue;
    if (b->tile->offset < low) low = b->tile->offset;
    if (b->tile->offset + b->tile->size > high) high = b->tile->offset + b->tile->size;
    if (b->start < first) first = b->start;
    if (b->end > last) last = b->end;
    moved++;
  }
  int64_t size = high - low;
  int64_t to = mm__lowest_fit(fn, u->space, size, first, last, mark->base);
  int64_t rest = mm__mark_without(fn, u->space, mark->base);
  u->what_if_box = u->hwm_box;
  u->what_if_moved = moved;
  u->what_if_offset = to;
  u->what_if_hwm = to + size > rest ? to + size : rest;
}

bool mm__function_what_if(mm_function *fn) {
  if (fn->by_lifetime) return true; /* no addresses: nothing to move */
  for (size_t k = 0; k < fn->space_count; k++)
    what_if(fn, &fn->spaces[k]);
  return true;
}

bool mm_model_fit(const mm_model *model, size_t function, const char *space, int64_t bytes,
                  uint32_t first, uint32_t last, mm_fit *out) {
  if (!model || function >= model->functions.len || !space || bytes <= 0 || first > last ||
      bytes > ((int64_t)1 << 53))
    return false;
  const mm_function *fn = mm__vec_at(&model->functions, function);
  int64_t offset = mm__lowest_fit(fn, space, bytes, first, last, NULL);
  int64_t mark = mm__mark_without(fn, space, NULL);
  uint64_t capacity = mm_backend_capacity(model->backend, space, strlen(space));
  *out = (mm_fit){.offset = offset,
                  .hwm = offset + bytes > mark ? offset + bytes : mark,
                  .limit = (int64_t)capacity,
                  .has_capacity = capacity > 0};
  out->fits = !out->has_capacity || out->hwm <= out->limit;
  return true;
}
