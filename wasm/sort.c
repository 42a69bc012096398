/* sort.c: insertion sort for short runs, then bottom-up merges through one
 * buffer (sort.h). */
#include "sort.h"

#include <string.h>

#include "arena.h"

#define RUN 16        /* items sorted by insertion before merging */
#define SMALL_ITEM 64 /* bytes: larger items go through a heap buffer */

/* One item. The core's short items get a copy of a size known here: a
 * memcpy of a size known only at run time is a call (in WebAssembly too). */
static inline void move_item(char *to, const char *from, size_t size) {
  switch (size) {
  case 4: memcpy(to, from, 4); break;
  case 8: memcpy(to, from, 8); break;
  case 12: memcpy(to, from, 12); break;
  case 16: memcpy(to, from, 16); break;
  case 24: memcpy(to, from, 24); break;
  default: memcpy(to, from, size);
  }
}

static void insertion_sort(char *base, size_t count, size_t size,
                           int (*compare)(const void *, const void *), char *item) {
  for (size_t i = 1; i < count; i++) {
    char *p = base + i * size;
    if (compare(p - size, p) <= 0) continue;
    move_item(item, p, size);
    size_t j = i;
    do {
      move_item(base + j * size, base + (j - 1) * size, size);
      j--;
    } while (j > 0 && compare(base + (j - 1) * size, item) > 0);
    move_item(base + j * size, item, size);
  }
}

/* Merges the sorted halves [0, mid) and [mid, count) of `from` into `to`. */
static void merge(const char *from, char *to, size_t mid, size_t count, size_t size,
                  int (*compare)(const void *, const void *)) {
  size_t i = 0, j = mid, k = 0;
  while (i < mid && j < count) {
    /* Ties take the left item: stable. */
    if (compare(from + j * size, from + i * size) < 0)
      move_item(to + k++ * size, from + j++ * size, size);
    else
      move_item(to + k++ * size, from + i++ * size, size);
  }
  memcpy(to + k * size, from + i * size, (mid - i) * size);
  k += mid - i;
  memcpy(to + k * size, from + j * size, (count - j) * size);
}

bool mm_sort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *)) {
  if (count < 2 || size == 0) return true;
  char small[SMALL_ITEM];
  char *item = size <= SMALL_ITEM ? small : mm__alloc(size);
  if (!item) return false;
  char *items = base;
  for (size_t start = 0; start < count; start += RUN)
    insertion_sort(items + start * size, count - start < RUN ? count - start : RUN, size, compare,
                   item);
  bool ok = true;
  if (count > RUN) {
    char *buffer = mm__alloc(count * size);
    char *from = items, *to = buffer;
    ok = buffer != NULL;
    for (size_t width = RUN; ok && width < count; width *= 2) {
      for (size_t start = 0; start < count; start += 2 * width) {
        size_t n = count - start < 2 * width ? count - start : 2 * width;
        size_t mid = n < width ? n : width;
        merge(from + start * size, to + start * size, mid, n, size, compare);
      }
      char *t = from;
      from = to;
      to = t;
    }
    if (ok && from != items) memcpy(items, from, count * size);
    mm__dealloc(buffer);
  }
  if (item != small) mm__dealloc(item);
  return ok;
}
