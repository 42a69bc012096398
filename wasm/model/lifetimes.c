/* lifetimes.c: a dump whose addresses no pass wrote (a build planned by
 * ptoas, memory_planner=PTOAS), drawn by size and lifetime (model.md,
 * "Drawn by lifetime"): each base's tiles keep their offsets within it,
 * and the bases are packed first-fit in order of their first line, so the
 * map shows what is live when and how much it takes; the rings the
 * compiler reserves go first, from 0. The live profile's peak is then the
 * least any placement needs. */
#include "model/lifetimes.h"

#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "model/function_tiles.h"
#include "model/layout.h"

/* Past this many bases in one space, each goes above the last: first-fit
 * looks at every placed base again each time it moves (cubic at worst),
 * and a hostile dump could have millions; real functions have tens. */
#define MAX_PACKED 512

typedef struct base_span {
  const char *base, *space;
  uint32_t start, end;  /* lines */
  uint64_t first, last; /* the same in the planners' time (mm__lifetime_points) */
  int64_t bytes, address;
} base_span;

static int compare_spans(const void *pa, const void *pb) {
  const base_span *a = pa, *b = pb;
  int r = strcmp(a->space, b->space);
  if (r) return r;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
  return strcmp(a->base, b->base);
}

#define MM_SORT_NAME sort_spans
#define MM_SORT_TYPE base_span
#define MM_SORT_COMPARE compare_spans
#include "base/sort_impl.h"

/* The span of `t`'s base in `spans` (found through `by_base`, the base's
 * text to its first span: a base in two spaces is two spans), or NULL. */
static base_span *span_of(const mm_names *by_base, base_span *spans, size_t n, const mm_tile *t) {
  const mm_name_entry *e = mm__names_find(by_base, t->base, strlen(t->base));
  if (!e) return NULL;
  for (size_t k = e->value[0]; k < n; k++)
    if (spans[k].base == t->base && spans[k].space == t->space) return &spans[k];
  return NULL;
}

/* One span per base: the lines its tiles live, the bytes they reach.
 * SIZE_MAX when out of memory. */
static size_t collect_bases(const mm_function *fn, base_span *spans, mm_names *by_base) {
  size_t n = 0;
  for (size_t i = 0; i < fn->tile_count; i++) {
    const mm_tile *t = &fn->tiles[i];
    base_span *s = span_of(by_base, spans, n, t);
    if (!s) {
      bool added;
      mm_name_entry *e = mm__names_upsert(by_base, t->base, strlen(t->base), &added);
      if (!e) return SIZE_MAX;
      if (added) e->value[0] = (uint32_t)n;
      s = &spans[n++];
      *s = (base_span){t->base, t->space, t->start, t->end, 0, 0, 0, 0};
    }
    if (t->start < s->start) s->start = t->start;
    if (t->end > s->end) s->end = t->end;
    int64_t reach = t->offset + t->size;
    if (reach > s->bytes) s->bytes = reach;
  }
  return n;
}

/* The rings of `space` whose base ptoas assigns: stacked from 0, as
 * AllocateMemoryAddr puts them below every tile; the floor above them. */
static int64_t place_rings(mm_function *fn, const char *space) {
  int64_t floor = 0;
  for (size_t i = 0; i < fn->window_count; i++) {
    mm_window *w = &fn->windows[i];
    if (w->kind != MM_WINDOW_RESERVE || w->space != space || w->placed) continue;
    if (!w->size_known || w->size <= 0) continue;
    w->base = floor;
    w->base_known = w->placed = true;
    floor += w->size;
  }
  for (size_t i = 0; i < fn->window_count; i++) /* and above any ring placed already */
    if (fn->windows[i].placed && fn->windows[i].space == space &&
        fn->windows[i].base + fn->windows[i].size > floor)
      floor = fn->windows[i].base + fn->windows[i].size;
  return floor;
}

/* a + b, held at 2^62 (hostile sizes near 2^53 cannot overflow it). */
static int64_t add_capped(int64_t a, int64_t b) {
  const int64_t cap = (int64_t)1 << 62;
  return a > cap - b ? cap : a + b;
}

/* The lowest address from `floor` where `s` shares no byte with a base
 * placed before it whose lifetime meets its own in the planners' time: a
 * base read last by the statement that binds `s` may hand its bytes over
 * (model.md §7), as every planner allows. */
static int64_t first_fit(const base_span *placed, size_t count, const base_span *s, int64_t floor) {
  int64_t at = floor;
  for (bool moved = true; moved;) {
    moved = false;
    for (size_t k = 0; k < count; k++) {
      const base_span *p = &placed[k];
      bool times_meet = p->first <= s->last && s->first <= p->last;
      if (times_meet && p->address < add_capped(at, s->bytes) &&
          at < add_capped(p->address, p->bytes)) {
        at = add_capped(p->address, p->bytes);
        moved = true;
      }
    }
  }
  return at;
}

/* A pinned allocation takes every slot of it, bound or not: its base
 * spans its alloc line's bytes over its tiles' lines, handing none over
 * in place (ptoas makes it a multi-buffer region of the code that uses
 * it; it is AllocateMemoryAddr that holds one for the whole function).
 * After the spans' time points. */
static void hold_pinned(const mm_vec *allocations, const mm_names *by_base, base_span *spans,
                        size_t n) {
  for (size_t i = 0; i < allocations->len; i++) {
    const mm_allocation *a = (const mm_allocation *)allocations->items + i;
    const mm_name_entry *e = a->pinned ? mm__names_find(by_base, a->name, strlen(a->name)) : NULL;
    for (size_t k = e ? e->value[0] : n; k < n; k++) {
      if (strcmp(spans[k].base, a->name) != 0 || strcmp(spans[k].space, a->space) != 0) continue;
      if (a->size_known && a->size > spans[k].bytes) spans[k].bytes = a->size;
      spans[k].last = 2 * (uint64_t)spans[k].end + 1; /* its slots hand nothing over */
    }
  }
}

bool mm__function_pack_by_lifetime(mm_function *fn, const mm_vec *allocations, bool always) {
  bool ok = true;
  if (!always && mm__tiles_placement(fn, &ok) == MM_PLACED) { /* its own addresses stand */
    fn->by_lifetime = false;
    return ok;
  }
  base_span *spans = mm__alloc((fn->tile_count ? fn->tile_count : 1) * sizeof *spans);
  mm_names by_base = {0};
  size_t n = spans ? collect_bases(fn, spans, &by_base) : SIZE_MAX;
  for (size_t k = 0; n != SIZE_MAX && k < n; k++)
    mm__lifetime_points(fn, spans[k].start, spans[k].end, &spans[k].first, &spans[k].last);
  if (n != SIZE_MAX) hold_pinned(allocations, &by_base, spans, n);
  ok = n != SIZE_MAX && sort_spans(spans, n);
  for (size_t i = 0; ok && i < n;) {
    size_t j = i;
    while (j < n && spans[j].space == spans[i].space)
      j++;
    int64_t floor = place_rings(fn, spans[i].space), top = floor;
    for (size_t k = i; k < j; k++) {
      base_span *s = &spans[k];
      s->address = j - i > MAX_PACKED ? top : first_fit(spans + i, k - i, s, floor);
      if (add_capped(s->address, s->bytes) > top) top = add_capped(s->address, s->bytes);
    }
    i = j;
  }
  /* The sort moved the spans: index them again, then move each tile. */
  mm__names_clear(&by_base);
  for (size_t k = 0; ok && k < n; k++) {
    bool added;
    mm_name_entry *e = mm__names_upsert(&by_base, spans[k].base, strlen(spans[k].base), &added);
    ok = e != NULL;
    if (ok && (added || k < e->value[0])) e->value[0] = (uint32_t)k;
  }
  for (size_t t = 0; ok && t < fn->tile_count; t++) {
    const base_span *s = span_of(&by_base, spans, n, &fn->tiles[t]);
    if (s) fn->tiles[t].offset += s->address;
  }
  mm__names_free(&by_base);
  mm__dealloc(spans);
  fn->planner_placed = true; /* this packing hands bytes over in place, as the planners do */
  return ok;
}
