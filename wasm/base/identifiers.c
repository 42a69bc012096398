/* identifiers.c: the class of a non-ASCII character in a name, looked up
 * in ranges of Unicode's XID_Start, XID_Continue, NFKC-stable and
 * printable code points (what CPython's tokenizer and parser use). */
#include "base/identifiers.h"

#include <stddef.h>

#include "base/identifier_table.h"

unsigned mm__identifier_class(uint32_t cp) {
  /* The last entry starting at or before cp. */
  size_t lo = 0, hi = sizeof identifier_table / sizeof identifier_table[0];
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (identifier_table[mid] >> 6 <= cp)
      lo = mid;
    else
      hi = mid;
  }
  return identifier_table[lo] >> 6 <= cp ? identifier_table[lo] & 63 : 0;
}
