/* figures.h: how a space's usage is shown, stated once for every output
 * (the JSON the page draws from, --summary, the build's tables, the SVG's
 * pills): tenths of a percent, and the level its colour says. */
#ifndef MM_FIGURES_H
#define MM_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A pill turns amber from this usage and red from this one (tenths of a
 * percent, as shown: "95.0%" is red). The page reads the levels from the
 * same figure (web/layout.js). */
#define MM_USAGE_WARN_PERMILLE 800
#define MM_USAGE_ALERT_PERMILLE 950

/* `hwm` of `limit` in tenths of a percent, rounded to the nearest, except
 * that 1000 (100.0 %) means exactly full and 0 exactly empty: 99.96 % of
 * a space is 999, one byte of it 1, a byte over 1001. 0 without a limit. */
int64_t mm__usage_permille(int64_t hwm, int64_t limit);

/* The same as a percentage (one decimal), for text. */
double mm__usage_percent(int64_t hwm, int64_t limit);

/* A space's place in a table least headroom first (a build's rows, a
 * dump's ranking): spaces with a capacity first, by headroom (capacity
 * minus the mark: the least needed, for a function drawn by lifetime);
 * then by case, function and space rank and name. */
typedef struct mm_headroom_key {
  bool has_capacity;
  int64_t headroom;
  uint32_t group, function, rank; /* group: the case of a build */
  const char *space;
} mm_headroom_key;

/* <0, 0 or >0 as `a` comes before, with or after `b` in that order. */
int mm__headroom_compare(const mm_headroom_key *a, const mm_headroom_key *b);

/* The usage as a table cell: "26.1%", or "-" for a space without a
 * capacity (the JSON's null), into `buf` of `len` bytes. */
void mm__usage_cell(char *buf, size_t len, int64_t hwm, int64_t limit, bool has_capacity);

#endif
