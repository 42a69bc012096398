/* sort_impl.h: a stable merge sort for one item type, with its comparison
 * inlined (a qsort-style callback is an indirect call per comparison, and
 * each item moved by a size known only at run time: in WebAssembly both
 * cost more than the comparison itself; the core sorts many short lists).
 * Runs of MM_SORT_RUN items are sorted by insertion, then merged
 * bottom-up through one buffer.
 *
 * Define, then include (once per type, in a .c file):
 *   MM_SORT_NAME     the function: static bool NAME(TYPE *items, size_t count)
 *   MM_SORT_TYPE     the item type
 *   MM_SORT_COMPARE  int compare(const TYPE *a, const TYPE *b), as qsort's
 * The function returns false when out of memory (more than MM_SORT_RUN
 * items need a buffer of their size); the order is then unspecified. */
#if !defined(MM_SORT_NAME) || !defined(MM_SORT_TYPE) || !defined(MM_SORT_COMPARE)
#error "define MM_SORT_NAME, MM_SORT_TYPE and MM_SORT_COMPARE before including sort_impl.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "base/arena.h"

#ifndef MM_SORT_RUN
#define MM_SORT_RUN 16
#endif
#define MM_SORT_JOIN_(a, b) a##b
#define MM_SORT_JOIN(a, b) MM_SORT_JOIN_(a, b)
#define MM_SORT_LESS(a, b) (MM_SORT_COMPARE((a), (b)) < 0)

static void MM_SORT_JOIN(MM_SORT_NAME, _insertion)(MM_SORT_TYPE *items, size_t count) {
  for (size_t i = 1; i < count; i++) {
    if (!MM_SORT_LESS(&items[i], &items[i - 1])) continue;
    MM_SORT_TYPE item = items[i];
    size_t j = i;
    do {
      items[j] = items[j - 1];
      j--;
    } while (j > 0 && MM_SORT_LESS(&item, &items[j - 1]));
    items[j] = item;
  }
}

/* Merges the sorted halves [0, mid) and [mid, count) of `from` into `to`;
 * ties take the left item (stable). */
static void MM_SORT_JOIN(MM_SORT_NAME, _merge)(const MM_SORT_TYPE *from, MM_SORT_TYPE *to,
                                               size_t mid, size_t count) {
  size_t i = 0, j = mid, k = 0;
  while (i < mid && j < count)
    to[k++] = MM_SORT_LESS(&from[j], &from[i]) ? from[j++] : from[i++];
  while (i < mid)
    to[k++] = from[i++];
  while (j < count)
    to[k++] = from[j++];
}

static bool MM_SORT_NAME(MM_SORT_TYPE *items, size_t count) {
  for (size_t start = 0; start < count; start += MM_SORT_RUN)
    MM_SORT_JOIN(MM_SORT_NAME, _insertion)
  (items + start, count - start < MM_SORT_RUN ? count - start : MM_SORT_RUN);
  if (count <= MM_SORT_RUN) return true;
  MM_SORT_TYPE *buffer = mm__alloc(count * sizeof *buffer);
  if (!buffer) return false;
  MM_SORT_TYPE *from = items;
  MM_SORT_TYPE *to = buffer;
  for (size_t width = MM_SORT_RUN; width < count; width *= 2) {
    for (size_t start = 0; start < count; start += 2 * width) {
      size_t n = count - start < 2 * width ? count - start : 2 * width;
      MM_SORT_JOIN(MM_SORT_NAME, _merge)(from + start, to + start, n < width ? n : width, n);
    }
    MM_SORT_TYPE *swap = from;
    from = to;
    to = swap;
  }
  if (from != items) memcpy(items, from, count * sizeof *items);
  mm__dealloc(buffer);
  return true;
}

#undef MM_SORT_LESS
#undef MM_SORT_JOIN
#undef MM_SORT_JOIN_
#undef MM_SORT_NAME
#undef MM_SORT_TYPE
#undef MM_SORT_COMPARE
