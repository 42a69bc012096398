/* liveness.c: what is live where, per space: the bytes covered by the
 * boxes live on each line (a union, so a view inside its parent counts
 * once; a reserved window on every line), the peak of that profile and
 * the boxes live at the peak.
 * A sweep over lines with a segment tree over the byte boundaries keeps
 * it O(n log n) in the boxes of a space. */
#include "model/liveness.h"

#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "model/function_tiles.h"

/* A box's lifetime as two events: its bytes join at `start` and leave
 * after `end` (lines, or the planners' time points). */
typedef struct live_event {
  uint64_t at;
  int32_t delta;   /* +1 or -1 */
  uint32_t lo, hi; /* elementary segments [lo, hi) */
} live_event;

/* Covered length over elementary segments; `count` says how many intervals
 * cover a node whole (they are never pushed down: the classic union-length
 * tree). */
typedef struct cover_tree {
  const int64_t *bounds; /* segment i is [bounds[i], bounds[i+1]) */
  uint32_t *count;
  int64_t *covered;
} cover_tree;

static void cover_update(cover_tree *t, size_t node, uint32_t l, uint32_t r, uint32_t lo,
                         uint32_t hi, int32_t delta) {
  if (hi <= l || r <= lo) return;
  if (lo <= l && r <= hi) {
    t->count[node] += (uint32_t)delta;
  } else {
    uint32_t mid = l + (r - l) / 2;
    cover_update(t, 2 * node, l, mid, lo, hi, delta);
    cover_update(t, 2 * node + 1, mid, r, lo, hi, delta);
  }
  if (t->count[node])
    t->covered[node] = t->bounds[r] - t->bounds[l];
  else if (r - l == 1)
    t->covered[node] = 0;
  else
    t->covered[node] = t->covered[2 * node] + t->covered[2 * node + 1];
}

static int compare_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

#define MM_SORT_NAME sort_i64
#define MM_SORT_TYPE int64_t
#define MM_SORT_COMPARE compare_i64
#include "base/sort_impl.h"

static int compare_events(const void *pa, const void *pb) {
  const live_event *a = pa, *b = pb;
  return a->at < b->at ? -1 : a->at > b->at;
}

#define MM_SORT_NAME sort_events
#define MM_SORT_TYPE live_event
#define MM_SORT_COMPARE compare_events
#include "base/sort_impl.h"

/* What is live in a space: a box, or a reserved window (live on every
 * line of the function). Bytes before 0 are clipped (those boxes are
 * flagged over capacity). */
typedef struct live_span {
  int64_t lo, hi;
  uint64_t start, end;
  bool held;    /* a window, live throughout */
  bool slotted; /* a slot of a multi-buffered allocation: hands nothing over */
} live_span;

static bool span_of_box(const mm_box *box, live_span *out) {
  *out = (live_span){box->tile->offset < 0 ? 0 : box->tile->offset,
                     box->tile->offset + box->tile->size,
                     box->start,
                     box->end,
                     false,
                     box->tile->slot_count > 1};
  return box->tile->size > 0 && out->hi > out->lo;
}

typedef struct space_scratch {
  uint32_t *members; /* box indices in this space */
  size_t member_count;
  live_span *spans; /* its boxes' and windows' */
  size_t span_count;
  int64_t *bounds;
  live_event *events;
  uint32_t *count;
  int64_t *covered;
} space_scratch;

/* Called once per distinct event key, with the bytes covered from it on. */
typedef bool (*sweep_step)(void *context, uint64_t at, int64_t live);

/* Sweeps the spans by key, calling `step` with the union of the bytes live
 * after each key's events. */
static bool sweep(space_scratch *s, sweep_step step, void *context) {
  size_t nb = 0, ne = 0;
  for (size_t i = 0; i < s->span_count; i++) {
    s->bounds[nb++] = s->spans[i].lo;
    s->bounds[nb++] = s->spans[i].hi;
  }
  if (!sort_i64(s->bounds, nb)) return false;
  size_t unique = 0;
  for (size_t i = 0; i < nb; i++)
    if (!unique || s->bounds[i] != s->bounds[unique - 1]) s->bounds[unique++] = s->bounds[i];
  for (size_t i = 0; i < s->span_count; i++) {
    const live_span *span = &s->spans[i];
    uint32_t a = (uint32_t)mm__lower_bound_i64(s->bounds, unique, span->lo);
    uint32_t b = (uint32_t)mm__lower_bound_i64(s->bounds, unique, span->hi);
    s->events[ne++] = (live_event){span->start, 1, a, b};
    s->events[ne++] = (live_event){span->end + 1, -1, a, b};
  }
  if (!sort_events(s->events, ne)) return false;
  uint32_t segments = unique > 1 ? (uint32_t)(unique - 1) : 1;
  memset(s->count, 0, 4 * segments * sizeof *s->count);
  memset(s->covered, 0, 4 * segments * sizeof *s->covered);
  cover_tree tree = {s->bounds, s->count, s->covered};
  for (size_t i = 0; i < ne;) {
    uint64_t at = s->events[i].at;
    for (; i < ne && s->events[i].at == at; i++)
      cover_update(&tree, 1, 0, segments, s->events[i].lo, s->events[i].hi, s->events[i].delta);
    if (!step(context, at, tree.covered[1])) return false;
  }
  return true;
}

typedef struct profile_builder {
  mm_space_usage *u;
  int64_t last;
} profile_builder;

static bool add_step(void *context, uint64_t at, int64_t live) {
  profile_builder *b = context;
  mm_space_usage *u = b->u;
  uint32_t line = (uint32_t)at;
  if (live != b->last) u->profile[u->profile_len++] = (mm_live_step){line, live};
  b->last = live;
  if (live > u->peak_live) {
    u->peak_live = live;
    u->peak_line = line;
  }
  return true;
}

/* Builds the step profile of one space and finds its peak. */
static bool sweep_space(mm_function *fn, mm_space_usage *u, space_scratch *s, mm_arena *arena) {
  u->profile = mm__arena_alloc(arena, (2 * s->span_count + 1) * sizeof *u->profile);
  if (!u->profile) return false;
  u->profile_len = 0;
  u->peak_live = 0;
  u->peak_line = fn->src_start;
  uint64_t first = UINT64_MAX;
  for (size_t i = 0; i < s->span_count; i++)
    if (s->spans[i].start < first) first = s->spans[i].start;
  if (s->span_count) u->peak_line = (uint32_t)first;
  profile_builder builder = {u, -1};
  if (!sweep(s, add_step, &builder)) return false;
  u->fragmentation = u->hwm_all > u->peak_live ? u->hwm_all - u->peak_live : 0;
  return true;
}

typedef struct bound_finder {
  int64_t most;
  uint64_t at;
} bound_finder;

static bool note_most(void *context, uint64_t at, int64_t live) {
  bound_finder *f = context;
  if (live > f->most) {
    f->most = live;
    f->at = at;
  }
  return true;
}

/* A function drawn by lifetime: the most bytes live at once in the
 * planners' time (mm__lifetime_points), where an input read last by a
 * statement is gone before its output is written, whatever the packing.
 * No placement needs less (model.md, "Drawn by lifetime"). The spans are
 * the ones the profile swept, in lines. */
static bool find_lower_bound(const mm_function *fn, mm_space_usage *u, space_scratch *s) {
  for (size_t i = 0; i < s->span_count; i++) {
    live_span *span = &s->spans[i];
    if (span->held) {
      span->start = 0;
      span->end = UINT64_MAX - 1;
      continue;
    }
    uint64_t end = span->end;
    mm__lifetime_points(fn, (uint32_t)span->start, (uint32_t)span->end, &span->start, &span->end);
    if (span->slotted) span->end = 2 * end + 1;
  }
  bound_finder finder = {0, 2 * (uint64_t)u->peak_line};
  if (!sweep(s, note_most, &finder)) return false;
  u->lower_bound = finder.most;
  u->lower_bound_at = finder.at;
  return true;
}

typedef struct peak_entry {
  int64_t size;
  uint32_t box;
} peak_entry;

static int compare_peak(const void *pa, const void *pb) {
  const peak_entry *a = pa, *b = pb;
  if (a->size != b->size) return a->size > b->size ? -1 : 1;
  return a->box < b->box ? -1 : a->box > b->box;
}

#define MM_SORT_NAME sort_peak
#define MM_SORT_TYPE peak_entry
#define MM_SORT_COMPARE compare_peak
#include "base/sort_impl.h"

/* The boxes live on the peak line, largest first. Of the boxes ending at
 * the high-water mark, the first live there is the one to name, when
 * there is one: the mark is then no higher than the peak needs. */
static bool peak_composition(mm_function *fn, mm_space_usage *u, space_scratch *s,
                             mm_arena *arena) {
  peak_entry *entries = (peak_entry *)s->events; /* big enough: 2 events a box */
  size_t n = 0;
  uint32_t mark_at_peak = 0;
  for (size_t i = 0; i < s->member_count; i++) { /* members in box order */
    const mm_box *box = &fn->boxes[s->members[i]];
    if (!(u->peak_live > 0 && box->tile->size > 0 && box->start <= u->peak_line &&
          u->peak_line <= box->end))
      continue;
    entries[n++] = (peak_entry){box->tile->size, s->members[i]};
    if (!mark_at_peak && box->tile->offset + box->tile->size == u->hwm)
      mark_at_peak = s->members[i] + 1;
  }
  if (mark_at_peak) u->hwm_box = mark_at_peak;
  if (!sort_peak(entries, n)) return false;
  u->peak_boxes = mm__arena_alloc(arena, (n ? n : 1) * sizeof *u->peak_boxes);
  if (!u->peak_boxes) return false;
  for (size_t i = 0; i < n; i++)
    u->peak_boxes[i] = entries[i].box;
  u->peak_box_count = (uint32_t)n;
  return true;
}

static bool space_liveness(mm_function *fn, mm_space_usage *u, space_scratch *s, mm_arena *arena) {
  s->member_count = s->span_count = 0;
  for (size_t i = 0; i < fn->box_count; i++) {
    if (fn->boxes[i].tile->space != u->space) continue; /* shared within a function (collect.c) */
    s->members[s->member_count++] = (uint32_t)i;
    s->span_count += span_of_box(&fn->boxes[i], &s->spans[s->span_count]);
  }
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (w->placed && w->space == u->space)
      s->spans[s->span_count++] =
          (live_span){w->base, w->base + w->size, fn->src_start, fn->src_end, true, false};
  }
  return sweep_space(fn, u, s, arena) && peak_composition(fn, u, s, arena) &&
         (!fn->by_lifetime || find_lower_bound(fn, u, s));
}

bool mm__function_liveness(mm_function *fn, mm_arena *arena) {
  size_t n = fn->box_count + fn->window_count ? fn->box_count + fn->window_count : 1;
  space_scratch s = {0};
  s.members = mm__alloc(n * sizeof *s.members);
  s.spans = mm__alloc(n * sizeof *s.spans);
  s.bounds = mm__alloc(2 * n * sizeof *s.bounds);
  s.events = mm__alloc(2 * n * sizeof *s.events);
  s.count = mm__alloc(8 * n * sizeof *s.count);
  s.covered = mm__alloc(8 * n * sizeof *s.covered);
  bool ok = s.members && s.spans && s.bounds && s.events && s.count && s.covered;
  for (size_t k = 0; k < fn->space_count && ok; k++)
    ok = space_liveness(fn, &fn->spaces[k], &s, arena);
  mm__dealloc(s.members);
  mm__dealloc(s.spans);
  mm__dealloc(s.bounds);
  mm__dealloc(s.events);
  mm__dealloc(s.count);
  mm__dealloc(s.covered);
  return ok;
}

uint32_t mm__lower_bound_line(const mm_function *fn, const mm_space_usage *u) {
  uint64_t line = u->lower_bound_at / 2;
  return line < fn->src_start ? fn->src_start : (uint32_t)line;
}

bool mm__box_live_at(const mm_function *fn, const mm_box *box, uint64_t at) {
  uint64_t first, last;
  mm__lifetime_points(fn, box->start, box->end, &first, &last);
  return first <= at && at <= last;
}
