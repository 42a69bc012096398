/* anomalies.c: the anomalies of a function (conflicts, tiles and windows
 * over capacity, windows sharing bytes, tiles not placed), each pair once,
 * in line order. */
#include "model/anomalies.h"

#include <stdint.h>

#include "base/arena.h"
#include "model/liveness.h"

/* In line order, then by box, kind and partner. */
static int compare_entries(const void *pa, const void *pb) {
  const mm_anomaly *a = pa, *b = pb;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->box != b->box) return a->box < b->box ? -1 : 1;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  return a->other < b->other ? -1 : a->other > b->other;
}

#define MM_SORT_NAME sort_entries
#define MM_SORT_TYPE mm_anomaly
#define MM_SORT_COMPARE compare_entries
#include "base/sort_impl.h"

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
static size_t collect_entries(const mm_function *fn, mm_anomaly *entries) {
  size_t n = 0;
  for (uint32_t i = 0; i < fn->box_count; i++) {
    const mm_box *box = &fn->boxes[i];
    for (uint32_t k = 0; k < box->partner_total && k < MM_BOX_PARTNERS; k++) {
      if (!written_here(fn, i, k)) continue;
      const mm_box *other = &fn->boxes[box->partners[k]];
      uint32_t line = box->start > other->start ? box->start : other->start;
      entries[n++] = (mm_anomaly){line, i, box->partners[k], MM_ANOMALY_PAIR};
    }
    if (box->partner_total > MM_BOX_PARTNERS)
      entries[n++] = (mm_anomaly){box->start, i, 0, MM_ANOMALY_MORE};
    if (box->over_capacity && !fn->by_lifetime)
      entries[n++] = (mm_anomaly){box->start, i, 0, MM_ANOMALY_OVER};
  }
  for (uint32_t w = 0; w < fn->window_count; w++) {
    const mm_window *window = &fn->windows[w];
    for (uint32_t k = 0; k < window->partner_count; k++) {
      uint32_t box = window->partners[k];
      entries[n++] = (mm_anomaly){fn->boxes[box].start, box, w, MM_ANOMALY_WINDOW};
    }
    if (window->partner_total > window->partner_count)
      entries[n++] = (mm_anomaly){window->line, MM_NO_BOX, w, MM_ANOMALY_WINDOW_MORE};
    if (window->overlaps >= 0)
      entries[n++] = (mm_anomaly){window->line, MM_NO_BOX, w, MM_ANOMALY_WINDOW_OVERLAP};
    if (window->over_capacity && !fn->by_lifetime)
      entries[n++] = (mm_anomaly){window->line, MM_NO_BOX, w, MM_ANOMALY_WINDOW_OVER};
  }
  for (uint32_t k = 0; fn->by_lifetime && k < fn->space_count; k++) {
    const mm_space_usage *u = &fn->spaces[k];
    if (u->has_capacity && u->lower_bound > u->limit)
      entries[n++] = (mm_anomaly){mm__lower_bound_line(fn, u), MM_NO_BOX, k, MM_ANOMALY_NEEDS};
  }
  for (uint32_t s = 0; s < fn->skipped_count; s++)
    entries[n++] = (mm_anomaly){fn->skipped[s].line, MM_NO_BOX, s, MM_ANOMALY_UNPLACED};
  return sort_entries(entries, n) ? n : SIZE_MAX;
}

mm_anomaly *mm__function_anomalies(const mm_function *fn, size_t *count) {
  /* Per box its partners, a note and over capacity; per window its
   * listed tiles, a note, an overlap and over capacity. */
  size_t per_box = MM_BOX_PARTNERS + 2, per_window = MM_BOX_PARTNERS + 3;
  *count = 0;
  if (fn->box_count > SIZE_MAX / 2 / per_box / sizeof(mm_anomaly) ||
      fn->window_count > SIZE_MAX / 2 / per_window / sizeof(mm_anomaly))
    return NULL;
  if (fn->skipped_count > SIZE_MAX / 4 / sizeof(mm_anomaly) ||
      fn->space_count > SIZE_MAX / 4 / sizeof(mm_anomaly))
    return NULL;
  size_t room = fn->box_count * per_box + fn->window_count * per_window + fn->skipped_count +
                fn->space_count + 1;
  mm_anomaly *entries = mm__alloc(room * sizeof *entries);
  size_t n = entries ? collect_entries(fn, entries) : SIZE_MAX;
  if (n == SIZE_MAX) {
    mm__dealloc(entries);
    return NULL;
  }
  *count = n;
  return entries;
}

bool mm__anomaly_is_note(const mm_anomaly *a) {
  return a->kind == MM_ANOMALY_MORE || a->kind == MM_ANOMALY_WINDOW_MORE;
}

const char *mm__anomaly_kind_name(uint8_t kind) {
  switch (kind) {
  case MM_ANOMALY_OVER: return "over_capacity";
  case MM_ANOMALY_PAIR: return "conflict";
  case MM_ANOMALY_WINDOW: return "window_conflict";
  case MM_ANOMALY_WINDOW_OVERLAP: return "window_overlap";
  case MM_ANOMALY_UNPLACED: return "unplaced_tile";
  case MM_ANOMALY_WINDOW_OVER: return "window_over_capacity";
  case MM_ANOMALY_NEEDS: return "needs_more";
  default: return "more";
  }
}
