/* allocations.c: the `alloc` lines of a compute function (model.md,
 * "Allocations"), placed where their tiles sit. A pinned allocation (an
 * author's `pl.MemRef(slots=N)`, a pipeline's slots) keeps all its bytes
 * for the whole function, bound slots or not, as AllocateMemoryAddr's
 * footprint counts it: it becomes a window of kind MM_WINDOW_PINNED. */
#include "model/allocations.h"

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "model/tiles.h"

bool mm__allocation_read(mm_vec *allocations, const char *src, const mm_node *target,
                         const mm_node *call, uint32_t line, mm_arena *arena, mm_diag *diag) {
  /* kids: the callee, the space, then the size (the printer's form since
   * InitMemRef stopped writing an address), or an address, the size and
   * an id (the older form). */
  if (!target || call->positional < 3 ||
      !mm__is_dotted_call_of(src, call->kids[0], MM_WINDOW_CALL_ALLOC) ||
      !mm__is_memory_space(src, call->kids[1]))
    return true;
  const mm_node *size = call->kids[call->positional >= 5 ? 3 : 2];
  mm_allocation *a = mm__vec_push(allocations);
  if (!a) {
    mm__diag_set(diag, MM_ERR_NO_MEMORY, line, "out of memory");
    return false;
  }
  mm_int_result r = mm__usable_integer(src, size, &a->size);
  if (r == MM_INT_RANGE) {
    mm__diag_set(diag, MM_ERR_LIMIT, size->line, "the allocation size on line %u is beyond 2^53",
                 (unsigned)size->line);
    return false;
  }
  a->size_known = r == MM_INT_OK;
  const mm_node *pinned = mm__keyword_value(src, call, "pinned");
  a->pinned = pinned && pinned->kind == N_CONST && mm__node_text_is(src, pinned, "True");
  a->line = line;
  mm_str space = mm__dotted_last(src, call->kids[1]);
  a->name = mm__arena_strndup(arena, src + target->start, target->len);
  a->space = mm__arena_strndup(arena, space.text, space.len);
  if (a->name && a->space) return true;
  mm__diag_set(diag, MM_ERR_NO_MEMORY, line, "out of memory");
  return false;
}

/* Where the allocation starts, by one of its tiles: a runtime slot's tile
 * covers every slot from there; slot k of a constant index sits k slots
 * in. */
static int64_t allocation_start(const mm_tile *t) {
  if (t->slot_runtime || t->slot_count < 2) return t->offset;
  char *end;
  long long k = strtoll(t->slot_index, &end, 10);
  bool plain = *t->slot_index >= '0' && *t->slot_index <= '9' && *end == '\0';
  if (!plain || k < 0 || k >= t->slot_count || t->slot_size <= 0 ||
      k > ((int64_t)1 << 53) / t->slot_size) /* past 2^53 bytes: no place to take */
    return t->offset;
  return t->offset - (int64_t)k * t->slot_size;
}

/* Each allocation's tiles: how many, their slots, the lowest start. */
static bool place_by_tiles(mm_function *fn, const char **owners) {
  mm_names by_name = {0};
  bool ok = true;
  for (size_t i = 0; i < fn->allocation_count && ok; i++) {
    bool added;
    const mm_allocation *a = &fn->allocations[i];
    mm_name_entry *e = mm__names_upsert(&by_name, a->name, strlen(a->name), &added);
    ok = e != NULL;
    if (ok && added) e->value[0] = (uint32_t)i; /* the first line of a name counts */
  }
  for (size_t i = 0; i < fn->tile_count && ok; i++) {
    const mm_tile *t = &fn->tiles[i];
    const mm_name_entry *e = mm__names_find(&by_name, t->base, strlen(t->base));
    if (!e) continue;
    mm_allocation *a = &fn->allocations[e->value[0]];
    if (strcmp(a->space, t->space) != 0) continue;
    int64_t start = allocation_start(t);
    if (!a->offset_known || start < a->offset) a->offset = start;
    a->offset_known = true;
    a->space = t->space; /* the function's shared copy */
    owners[e->value[0]] = t->base;
    a->tiles++;
    if (t->slot_count > a->slot_count) {
      a->slot_count = t->slot_count;
      a->slot_size = t->slot_size;
    }
  }
  mm__names_free(&by_name);
  return ok;
}

/* A pinned allocation AllocateMemoryAddr placed is held for the whole
 * function. One ptoas places (a function drawn by lifetime) becomes a
 * multi-buffer region of the code that uses it: its tiles' lifetimes. */
static bool held(const mm_function *fn, const mm_allocation *a) {
  return !fn->by_lifetime && a->pinned && a->offset_known && a->size_known && a->offset >= 0 &&
         a->size > 0;
}

bool mm__function_allocations(const mm_vec *allocations, mm_function *fn, mm_arena *arena) {
  size_t n = allocations->len;
  fn->allocation_count = n;
  fn->allocations = mm__arena_alloc(arena, (n ? n : 1) * sizeof *fn->allocations);
  const char **owners = mm__alloc((n ? n : 1) * sizeof *owners);
  bool ok = fn->allocations && owners;
  if (ok && n) memcpy(fn->allocations, allocations->items, n * sizeof *fn->allocations);
  ok = ok && place_by_tiles(fn, owners);
  size_t pinned = 0;
  for (size_t i = 0; ok && i < n; i++)
    pinned += held(fn, &fn->allocations[i]);
  mm_window *windows =
      ok && pinned ? mm__arena_alloc(arena, (fn->window_count + pinned) * sizeof *windows) : NULL;
  if (windows) {
    memcpy(windows, fn->windows, fn->window_count * sizeof *windows);
    for (size_t i = 0; i < n; i++) {
      const mm_allocation *a = &fn->allocations[i];
      if (!held(fn, a)) continue;
      windows[fn->window_count++] = (mm_window){.kind = MM_WINDOW_PINNED,
                                                .owner = owners[i],
                                                .name = a->name,
                                                .bound = a->name,
                                                .space = a->space,
                                                .base = a->offset,
                                                .size = a->size,
                                                .base_known = true,
                                                .size_known = true,
                                                .placed = true,
                                                .line = a->line,
                                                .slot_size = a->slot_size,
                                                .slot_num = a->slot_count,
                                                .overlaps = -1,
                                                .one_more_fits = -1};
    }
    fn->windows = windows;
  }
  mm__dealloc(owners);
  return ok && (!pinned || windows);
}
