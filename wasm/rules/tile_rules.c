/* tile_rules.c: the words of a tile annotation (tile_rules.h). */
#include "rules/tile_rules.h"

#include "base/bytes.h"
#include "base/identifiers.h"

bool mm__is_dtype_name(const char *s, size_t len) {
  bool cased = false;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      if (c >= 'a' && c <= 'z') return false;
      if (c >= 'A' && c <= 'Z') cased = true;
      i++;
      continue;
    }
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    uint32_t cp = c & (0x3F >> (n - 1));
    for (size_t k = 1; k < n && i + k < len; k++)
      cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
    unsigned cls = mm__identifier_class(cp);
    if (cls & MM_IDENT_LOWER) return false;
    if (cls & MM_IDENT_UPPER) cased = true;
    i += n;
  }
  return cased;
}
