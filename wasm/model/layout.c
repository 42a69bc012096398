/* layout.c: model.md's "Boxes", "Overlaps" and "Spaces": tiles grouped by
 * slot, merged into runs where lifetimes touch, sorted, checked pairwise
 * for views and conflicts, and summed up per space. */
#include "model/layout.h"

#include <stdlib.h>
#include <string.h>

#include "model/backends.h"
#include "model/function_tiles.h"

/* Every comparison ends on an index: the order is total, whatever the sort. */
typedef struct slot_key {
  const mm_tile *tile;
  uint32_t index;
} slot_key;

/* Spaces and bases are shared within a function (collect.c): the same
 * text is the same pointer, so only their order takes a strcmp. */
static int compare_text(const char *a, const char *b) { return a == b ? 0 : strcmp(a, b); }
static bool same_text(const char *a, const char *b) { return a == b; }

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }
static int cmp_u32(uint32_t a, uint32_t b) { return a < b ? -1 : a > b; }

static int compare_slot(const void *pa, const void *pb) {
  const slot_key *a = pa, *b = pb;
  int r = compare_text(a->tile->space, b->tile->space);
  if (!r) r = compare_text(a->tile->base, b->tile->base);
  if (!r) r = cmp_i64(a->tile->offset, b->tile->offset);
  if (!r) r = cmp_i64(a->tile->size, b->tile->size);
  if (!r) r = strcmp(a->tile->slot_index, b->tile->slot_index);
  return r ? r : cmp_u32(a->index, b->index);
}

#define MM_SORT_NAME sort_slot_keys
#define MM_SORT_TYPE slot_key
#define MM_SORT_COMPARE compare_slot
#include "base/sort_impl.h"

/* Upstream's slot (space, base, offset, size); tiles of a slotted
 * allocation also by their index, so ping and pong stay two boxes. */
static bool same_slot(const mm_tile *a, const mm_tile *b) {
  return a->offset == b->offset && a->size == b->size && same_text(a->space, b->space) &&
         same_text(a->base, b->base) && strcmp(a->slot_index, b->slot_index) == 0;
}

typedef struct slot_range {
  size_t begin, end; /* in the sorted keys */
  uint32_t first;    /* first appearance */
} slot_range;

static int compare_slot_range(const void *pa, const void *pb) {
  return cmp_u32(((const slot_range *)pa)->first, ((const slot_range *)pb)->first);
}

#define MM_SORT_NAME sort_slot_ranges
#define MM_SORT_TYPE slot_range
#define MM_SORT_COMPARE compare_slot_range
#include "base/sort_impl.h"

static int compare_by_start(const void *pa, const void *pb) {
  const slot_key *a = pa, *b = pb;
  int r = cmp_u32(a->tile->start, b->tile->start);
  return r ? r : cmp_u32(a->index, b->index);
}

#define MM_SORT_NAME sort_by_start
#define MM_SORT_TYPE slot_key
#define MM_SORT_COMPARE compare_by_start
#include "base/sort_impl.h"

static int compare_boxes(const void *pa, const void *pb) {
  const mm_box *a = pa, *b = pb;
  int r = cmp_u32(a->rank, b->rank);
  if (!r) r = cmp_i64(a->tile->offset, b->tile->offset);
  if (!r) r = cmp_u32(a->start, b->start);
  return r ? r : cmp_u32(a->order, b->order);
}

#define MM_SORT_NAME sort_boxes
#define MM_SORT_TYPE mm_box
#define MM_SORT_COMPARE compare_boxes
#include "base/sort_impl.h"

/* Whether the tiles look as they do before any address is assigned
 * (model.md, "Refusals"), when some space holds two or more bases:
 * MM_UNPLACED_ALL_ZERO when every tile sits at 0 (upstream's test);
 * MM_UNPLACED_BASES_AT_ZERO when, short of that, every base of the
 * function starts at 0 (views inside them may sit elsewhere). A base of
 * zero-size tiles shares nothing and is not counted. `keys` are sorted by
 * space, base, offset, so a base's first key is its lowest. */
static uint8_t detect_unallocated(const slot_key *keys, size_t n) {
  bool all_zero = true, shared = false, bases_at_zero = true;
  for (size_t k = 0; k < n; k++)
    all_zero &= keys[k].tile->offset == 0;
  size_t i = 0;
  while (i < n) {
    const char *space = keys[i].tile->space;
    size_t bases = 0;
    while (i < n && same_text(keys[i].tile->space, space)) {
      const char *base = keys[i].tile->base;
      bool holds_bytes = false;
      bool starts_at_zero = keys[i].tile->offset == 0;
      while (i < n && same_text(keys[i].tile->space, space) && same_text(keys[i].tile->base, base))
        holds_bytes |= keys[i++].tile->size > 0;
      bases += holds_bytes;
      if (holds_bytes) bases_at_zero &= starts_at_zero;
    }
    shared |= bases >= 2;
  }
  if (!shared) return MM_PLACED;
  if (all_zero) return MM_UNPLACED_ALL_ZERO;
  return bases_at_zero ? MM_UNPLACED_BASES_AT_ZERO : MM_PLACED;
}

uint8_t mm__tiles_placement(const mm_function *fn, bool *ok) {
  size_t n = fn->tile_count;
  slot_key *keys = mm__alloc((n ? n : 1) * sizeof *keys);
  for (size_t i = 0; keys && i < n; i++)
    keys[i] = (slot_key){&fn->tiles[i], (uint32_t)i};
  *ok = keys && sort_slot_keys(keys, n);
  uint8_t placement = *ok ? detect_unallocated(keys, n) : MM_PLACED;
  mm__dealloc(keys);
  return placement;
}

/* Walks one slot's tiles by start, emitting a box per run. */
static bool emit_runs(mm_function *fn, slot_key *members, size_t n, mm_arena *arena) {
  if (!sort_by_start(members, n)) return false;
  size_t i = 0;
  while (i < n) {
    size_t j = i + 1;
    uint32_t end = members[i].tile->end;
    while (j < n && members[j].tile->start <= end) {
      if (members[j].tile->end > end) end = members[j].tile->end;
      j++;
    }
    mm_box *box = &fn->boxes[fn->box_count];
    memset(box, 0, sizeof *box);
    box->tile = members[i].tile;
    box->start = members[i].tile->start;
    box->end = end;
    box->rank = mm__space_rank(box->tile->space);
    box->order = (uint32_t)fn->box_count++;
    box->alias_count = (uint32_t)(j - i - 1);
    if (box->alias_count) {
      box->aliases = mm__arena_alloc(arena, box->alias_count * sizeof *box->aliases);
      const mm_tile **run = mm__arena_alloc(arena, (j - i) * sizeof *run);
      if (!box->aliases || !run) return false;
      for (size_t k = i; k < j; k++) {
        run[k - i] = members[k].tile;
        if (k > i) box->aliases[k - i - 1] = members[k].tile->name;
      }
      box->run = run;
    }
    i = j;
  }
  return true;
}

static bool make_boxes(mm_function *fn, slot_key *keys, mm_arena *arena) {
  size_t n = fn->tile_count, slot_count = 0;
  slot_range *slots = mm__alloc(n * sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && same_slot(keys[i].tile, keys[j].tile))
      j++;
    slots[slot_count++] = (slot_range){i, j, keys[i].index};
    i = j;
  }
  bool ok = sort_slot_ranges(slots, slot_count);
  for (size_t s = 0; s < slot_count && ok; s++)
    ok = emit_runs(fn, keys + slots[s].begin, slots[s].end - slots[s].begin, arena);
  mm__dealloc(slots);
  return ok;
}

/* ------------------------------------------------------------ overlaps */

typedef struct span_key {
  const mm_box *box;
  uint32_t position; /* in the sorted boxes */
} span_key;

static int compare_span(const void *pa, const void *pb) {
  const span_key *a = pa, *b = pb;
  int r = compare_text(a->box->tile->space, b->box->tile->space);
  if (!r) r = cmp_i64(a->box->tile->offset, b->box->tile->offset);
  return r ? r : cmp_u32(a->position, b->position);
}

#define MM_SORT_NAME sort_spans
#define MM_SORT_TYPE span_key
#define MM_SORT_COMPARE compare_span
#include "base/sort_impl.h"

static void add_partner(mm_box *box, uint32_t other) {
  if (box->partner_total < MM_BOX_PARTNERS) box->partners[box->partner_total] = other;
  box->partner_total++;
}

/* Whether `from`'s lifetime ends where `to`'s begins, in the planners'
 * time (mm__lifetime_points): `from`'s last read is in the statement
 * that binds `to`, and no loop around it leaves `from` outside. An
 * output may then take over the bytes of an input it reads last, across
 * a branch or out of a loop, never into a loop's next turn. */
static bool hands_over(const mm_function *fn, const mm_box *from, const mm_box *to) {
  /* A slot of a multi-buffered allocation never hands its bytes over: its
   * other slots are in flight across the loop's turns. */
  if (!fn->planner_placed || from->start >= to->start || from->tile->slot_count > 1 ||
      to->tile->slot_count > 1)
    return false;
  uint64_t from_first, from_last, to_first, to_last;
  mm__lifetime_points(fn, from->start, from->end, &from_first, &from_last);
  mm__lifetime_points(fn, to->start, to->end, &to_first, &to_last);
  return from_last < to_first;
}

/* `a` holds bytes and `b` starts inside them (sweep order); a `b` of no
 * bytes (size 0 or less) can be a view, as upstream marks it, but never
 * in conflict: it shares no byte (model.md, departures). */
static void classify_pair(mm_function *fn, const span_key *a, const span_key *b) {
  mm_box *boxes = fn->boxes;
  mm_box *x = &boxes[a->position], *y = &boxes[b->position];
  if (!(x->start <= y->end && y->start <= x->end)) return; /* lifetimes apart */
  if (same_text(x->tile->base, y->tile->base)) {
    /* Slots of one allocation are neither views nor conflicts. */
    if (x->tile->slot_count || y->tile->slot_count) return;
    /* A view into one allocation: the narrower box, the later when equal. */
    mm_box *later = a->position > b->position ? x : y;
    mm_box *narrower = x->tile->size < y->tile->size   ? x
                       : y->tile->size < x->tile->size ? y
                                                       : later;
    narrower->view = true;
  } else if (y->tile->size <= 0) {
    return;
  } else if (hands_over(fn, x, y) || hands_over(fn, y, x)) {
    mm_box *from = hands_over(fn, x, y) ? x : y, *to = from == x ? y : x;
    from->in_place_to = (uint32_t)(to - boxes) + 1;
    to->in_place_from = (uint32_t)(from - boxes) + 1;
  } else {
    x->conflict = y->conflict = true;
    add_partner(x, b->position);
    add_partner(y, a->position);
  }
}

/* Sweep per space by offset, in box order at one offset, as upstream's
 * `_classify_overlaps` visits pairs: only boxes starting inside another's
 * bytes can overlap it. */
static bool find_overlaps(mm_function *fn) {
  size_t n = fn->box_count;
  span_key *keys = mm__alloc((n ? n : 1) * sizeof *keys);
  if (!keys) return false;
  for (size_t i = 0; i < n; i++)
    keys[i] = (span_key){&fn->boxes[i], (uint32_t)i};
  if (!sort_spans(keys, n)) {
    mm__dealloc(keys);
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    const mm_tile *a = keys[i].box->tile;
    if (a->size <= 0) continue;
    int64_t end = a->offset + a->size;
    for (size_t j = i + 1; j < n; j++) {
      const mm_tile *b = keys[j].box->tile;
      if (!same_text(a->space, b->space) || b->offset >= end) break;
      classify_pair(fn, &keys[i], &keys[j]);
    }
  }
  mm__dealloc(keys);
  return true;
}

/* -------------------------------------------------------------- spaces */

typedef const char *text_ref; /* a typedef, so that the sort's `const` applies to it */
static int compare_strings(const void *a, const void *b) {
  return compare_text(*(const char *const *)a, *(const char *const *)b);
}

#define MM_SORT_NAME sort_strings
#define MM_SORT_TYPE text_ref
#define MM_SORT_COMPARE compare_strings
#include "base/sort_impl.h"

/* UINT32_MAX when out of memory. */
static uint32_t count_bases(const mm_function *fn, const char *space, const char **scratch) {
  size_t n = 0;
  for (size_t i = 0; i < fn->box_count; i++)
    if (same_text(fn->boxes[i].tile->space, space)) scratch[n++] = fn->boxes[i].tile->base;
  if (!sort_strings(scratch, n)) return UINT32_MAX;
  uint32_t distinct = 0;
  for (size_t i = 0; i < n; i++)
    if (i == 0 || !same_text(scratch[i], scratch[i - 1])) distinct++;
  return distinct;
}

/* A box outside [0, limit) of its space: a negative offset or size, or an
 * end past the capacity. */
static void flag_over_capacity(mm_function *fn) {
  for (size_t i = 0; i < fn->box_count; i++) {
    mm_box *box = &fn->boxes[i];
    const mm_tile *t = box->tile;
    for (size_t k = 0; k < fn->space_count; k++) {
      mm_space_usage *u = &fn->spaces[k];
      if (!same_text(u->space, t->space)) continue;
      box->over_capacity = t->offset < 0 || t->size < 0 || t->offset + t->size > u->limit;
      u->over_capacity += box->over_capacity;
    }
  }
}

/* Gives `fn` the `count` spaces summed in `summed`, copied into the
 * model's arena with room for a space of reserved windows only, one per
 * window (windows.c): a function has a handful of spaces and may have
 * thousands of boxes, so they are summed in a scratch array of one per box. */
static bool keep_spaces(mm_function *fn, const mm_space_usage *summed, size_t count,
                        mm_arena *arena) {
  size_t room = count + fn->window_count;
  fn->spaces = mm__arena_alloc(arena, (room ? room : 1) * sizeof *fn->spaces);
  fn->space_count = fn->spaces ? count : 0;
  if (fn->spaces && count) memcpy(fn->spaces, summed, count * sizeof *summed);
  return fn->spaces != NULL;
}

/* One usage per space the boxes lie in, in `summed` (room for one per
 * box): its high-water mark and the box that sets it, its bases, tiles
 * and limit. The number of spaces, or SIZE_MAX when out of memory. */
static size_t sum_usages(const mm_function *fn, const mm_backend *backend, mm_space_usage *summed,
                         const char **scratch) {
  size_t count = 0;
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_tile *t = fn->boxes[i].tile;
    mm_space_usage *u = NULL;
    for (size_t k = 0; k < count && !u; k++)
      if (same_text(summed[k].space, t->space)) u = &summed[k];
    if (!u) {
      u = &summed[count++];
      memset(u, 0, sizeof *u);
      u->space = t->space;
      u->hwm = t->offset + t->size;
      u->hwm_box = (uint32_t)i + 1;
      u->bases = count_bases(fn, t->space, scratch);
      if (u->bases == UINT32_MAX) return SIZE_MAX;
    }
    if (t->offset + t->size > u->hwm) {
      u->hwm = t->offset + t->size;
      u->hwm_box = (uint32_t)i + 1;
    }
    u->tiles++;
  }
  for (size_t k = 0; k < count; k++) {
    mm_space_usage *u = &summed[k];
    uint64_t capacity = mm_backend_capacity(backend, u->space, strlen(u->space));
    u->limit = capacity ? (int64_t)capacity : u->hwm;
    u->has_capacity = capacity != 0;
    u->hwm_all = u->hwm;
  }
  return count;
}

static bool sum_spaces(mm_function *fn, const mm_backend *backend, mm_arena *arena) {
  size_t room = fn->box_count ? fn->box_count : 1;
  mm_space_usage *summed = mm__alloc(room * sizeof *summed);
  const char **scratch = mm__alloc(room * sizeof *scratch);
  size_t count = summed && scratch ? sum_usages(fn, backend, summed, scratch) : SIZE_MAX;
  bool kept = count != SIZE_MAX && keep_spaces(fn, summed, count, arena);
  mm__dealloc(summed);
  mm__dealloc(scratch);
  if (kept) flag_over_capacity(fn);
  return kept;
}

bool mm__function_layout(mm_function *fn, const mm_backend *backend, mm_arena *arena) {
  size_t n = fn->tile_count;
  slot_key *keys = mm__alloc((n ? n : 1) * sizeof *keys);
  fn->boxes = mm__arena_alloc(arena, (n ? n : 1) * sizeof *fn->boxes);
  fn->box_count = 0;
  if (!keys || !fn->boxes) {
    mm__dealloc(keys);
    return false;
  }
  for (size_t i = 0; i < n; i++)
    keys[i] = (slot_key){&fn->tiles[i], (uint32_t)i};
  bool ok = sort_slot_keys(keys, n);
  fn->unallocated = ok ? detect_unallocated(keys, n) : MM_PLACED;
  ok = ok && make_boxes(fn, keys, arena);
  mm__dealloc(keys);
  if (!ok || !sort_boxes(fn->boxes, fn->box_count)) return false;
  return find_overlaps(fn) && sum_spaces(fn, backend, arena);
}

const mm_space_usage *mm__function_space(const mm_function *fn, const char *space) {
  for (size_t k = 0; k < fn->space_count; k++)
    if (strcmp(fn->spaces[k].space, space) == 0) return &fn->spaces[k];
  return NULL;
}
