/* sort.h: qsort's interface, as a merge sort of the core's own. The libc
 * sorts cost per call (glibc allocates; the WebAssembly libc's smoothsort
 * was a twentieth of the page's core time), and the core sorts many short
 * lists: a slot's tiles, a space's boxes. Stable. */
#ifndef MM_SORT_H
#define MM_SORT_H

#include <stdbool.h>
#include <stddef.h>

/* Sorts `count` items of `size` bytes at `base` by `compare` (as qsort's).
 * False when out of memory (a list over 32 items needs a buffer of its
 * size); their order is then unspecified. */
bool mm_sort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *));

#endif
