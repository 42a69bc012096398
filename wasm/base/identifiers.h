/* identifiers.h: which non-ASCII characters Python accepts in names. */
#ifndef MM_IDENTIFIERS_H
#define MM_IDENTIFIERS_H

#include <stdint.h>

enum {
  MM_IDENT_START = 1,       /* XID_Start: may begin a name */
  MM_IDENT_CONTINUE = 2,    /* XID_Continue: may follow in a name */
  MM_IDENT_UNSTABLE = 4,    /* NFKC gives another name: Python reads it normalised */
  MM_IDENT_UNPRINTABLE = 8, /* not printable: CPython's message says so */
  MM_IDENT_UPPER = 16,      /* in a name: upper case (str.isupper()) */
  MM_IDENT_LOWER = 32       /* in a name: lower or title case */
};

/* The MM_IDENT_* bits of code point `cp` (>= 0x80), from Python's own
 * Unicode database (identifier_table.h, by tools/identifier-table.py). */
unsigned mm__identifier_class(uint32_t cp);

#endif
