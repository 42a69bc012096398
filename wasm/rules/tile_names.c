/* tile_names.c: a tile's name without the compiler's counters. */
#include "rules/tile_names.h"

#include <stdbool.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The digits from `at` on, as many as there are. */
static size_t digits_at(const char *at) {
  size_t n = 0;
  while (is_digit(at[n]))
    n++;
  return n;
}

void mm__tile_name_stem(const char *name, char *out, size_t len) {
  if (!len) return;
  size_t n = 0, i = 0, total = strlen(name);
  /* The trailing instance numbers: `_1`, `_1_2`. */
  size_t end = total;
  for (;;) {
    size_t d = 0;
    while (d < end && is_digit(name[end - 1 - d]))
      d++;
    if (!d || d >= end || name[end - 1 - d] != '_' || end - 1 - d == 0) break;
    end -= d + 1;
  }
  while (i < end && n + 1 < len) {
    /* `inline<digits>`, `_v<digits>` before `_` or the end: counters. */
    size_t skip = 0;
    if (i >= 6 && memcmp(name + i - 6, "inline", 6) == 0) skip = digits_at(name + i);
    if (i >= 2 && name[i - 2] == '_' && name[i - 1] == 'v') {
      size_t d = digits_at(name + i);
      if (d && (i + d == end || name[i + d] == '_')) skip = d;
    }
    if (skip && i + skip <= end) {
      i += skip;
      continue;
    }
    out[n++] = name[i++];
  }
  out[n] = 0;
}
