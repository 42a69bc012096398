/* figures.c: a space's usage as shown (figures.h). */
#include "output/figures.h"

#include <stdio.h>
#include <string.h>

int64_t mm__usage_permille(int64_t hwm, int64_t limit) {
  if (limit <= 0) return 0;
  if (hwm <= 0) return 0;
  /* Rounded half up; no libm (the native CLI's other link has none). */
  int64_t tenths = (int64_t)((double)hwm * 1000.0 / (double)limit + 0.5);
  if (hwm < limit && tenths >= 1000) return 999; /* not full: never "100.0%" */
  if (hwm > limit && tenths <= 1000) return 1001;
  if (tenths <= 0) return 1; /* not empty: never "0.0%" */
  return tenths;
}

double mm__usage_percent(int64_t hwm, int64_t limit) {
  return (double)mm__usage_permille(hwm, limit) / 10.0;
}

int mm__headroom_compare(const mm_headroom_key *a, const mm_headroom_key *b) {
  if (a->has_capacity != b->has_capacity) return a->has_capacity ? -1 : 1;
  if (a->has_capacity && a->headroom != b->headroom) return a->headroom < b->headroom ? -1 : 1;
  if (a->group != b->group) return a->group < b->group ? -1 : 1;
  if (a->function != b->function) return a->function < b->function ? -1 : 1;
  if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
  return strcmp(a->space, b->space);
}

void mm__usage_cell(char *buf, size_t len, int64_t hwm, int64_t limit, bool has_capacity) {
  if (has_capacity)
    snprintf(buf, len, "%.1f%%", mm__usage_percent(hwm, limit));
  else
    snprintf(buf, len, "-");
}
