/* search.h: lower bounds in sorted arrays. */
#ifndef MM_SEARCH_H
#define MM_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* How many of `sorted` (n values, ascending) are below `value`: the index
 * of the first at or above it. */
static inline size_t mm__lower_bound_i64(const int64_t *sorted, size_t n, int64_t value) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < value)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The same for uint32_t values. */
static inline size_t mm__lower_bound_u32(const uint32_t *sorted, size_t n, uint32_t value) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < value)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

#endif
