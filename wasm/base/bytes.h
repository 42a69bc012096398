/* bytes.h: finding line ends, counting indentation, comparing and
 * hashing names, eight bytes a step.
 * memchr and memcmp are vectorised in glibc but byte loops in the
 * WebAssembly libc, and the core runs them on every line and name. */
#ifndef MM_BYTES_H
#define MM_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether any byte of `w` is zero (the classic bit trick). */
static inline uint64_t mm__zero_byte_mask(uint64_t w) {
  return (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
}

static inline uint64_t mm__load8(const char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}
static inline uint32_t mm__load4(const char *p) {
  uint32_t w;
  memcpy(&w, p, 4);
  return w;
}
static inline uint16_t mm__load2(const char *p) {
  uint16_t w;
  memcpy(&w, p, 2);
  return w;
}

/* The index of the first byte `a` or `b` in s[from, len), or len. */
static inline size_t mm__find_either(const char *s, size_t from, size_t len, char a, char b) {
  const uint64_t ones = 0x0101010101010101ull;
  const uint64_t wa = ones * (unsigned char)a, wb = ones * (unsigned char)b;
  size_t i = from;
  for (; i + 8 <= len; i += 8) {
    uint64_t w = mm__load8(s + i);
    if (mm__zero_byte_mask(w ^ wa) | mm__zero_byte_mask(w ^ wb)) break;
  }
  while (i < len && s[i] != a && s[i] != b)
    i++;
  return i;
}

/* The index of the first '\n' or '\r' in s[from, len), or len. */
static inline size_t mm__find_line_end(const char *s, size_t from, size_t len) {
  return mm__find_either(s, from, len, '\n', '\r');
}

/* How many spaces from s[from] (before `len`): a line's indentation,
 * eight bytes a step (blocks in dumps are indented a dozen spaces and more). */
static inline size_t mm__count_spaces(const char *s, size_t from, size_t len) {
  size_t i = from;
  while (i + 8 <= len && mm__load8(s + i) == 0x2020202020202020ull)
    i += 8;
  while (i < len && s[i] == ' ')
    i++;
  return i - from;
}

/* Whether a[0, n) and b[0, n) hold the same bytes: memcmp is a byte loop
 * in the WebAssembly libc, and names are compared often (hash hits, the
 * fast path's fixed words). Words a step; the last word overlaps the one
 * before instead of a byte loop (a short n is two overlapping loads). */
static inline bool mm__bytes_equal(const char *a, const char *b, size_t n) {
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8)
      if (mm__load8(a + i) != mm__load8(b + i)) return false;
    return mm__load8(a + n - 8) == mm__load8(b + n - 8);
  }
  if (n >= 4) return mm__load4(a) == mm__load4(b) && mm__load4(a + n - 4) == mm__load4(b + n - 4);
  if (n >= 2) return mm__load2(a) == mm__load2(b) && mm__load2(a + n - 2) == mm__load2(b + n - 2);
  return n == 0 || a[0] == b[0];
}

/* A string slice: not NUL-terminated unless said so. */
typedef struct mm_str {
  const char *text;
  size_t len;
} mm_str;

/* Whether text[0, len) is `word`. Inlined with a literal `word`, its
 * length is known when compiled and no strlen runs. */
static inline bool mm__span_is(const char *text, size_t len, const char *word) {
  size_t n = strlen(word);
  return n == len && mm__bytes_equal(text, word, n);
}

/* A hash of key[0, len) for the core's tables (names, annotations read
 * before). Eight bytes a step (names in dumps run to dozens of bytes),
 * each step mixed by a multiply; the last word overlaps the one before,
 * and a name under eight bytes is read in two overlapping halves (or its
 * first, middle and last byte): no byte loop. The length is mixed in first. */
static inline uint64_t mm__hash_step(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 32);
}

static inline uint32_t mm__hash_bytes(const char *key, size_t len) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ len;
  if (len >= 8) {
    for (size_t i = 0; i + 8 < len; i += 8)
      h = mm__hash_step(h, mm__load8(key + i));
    h = mm__hash_step(h, mm__load8(key + len - 8));
  } else if (len >= 4) {
    h = mm__hash_step(h, mm__load4(key) | (uint64_t)mm__load4(key + len - 4) << 32);
  } else if (len > 0) {
    const unsigned char *u = (const unsigned char *)key;
    h = mm__hash_step(h, u[0] | (uint32_t)u[len / 2] << 8 | (uint32_t)u[len - 1] << 16);
  }
  h ^= h >> 29;
  h *= 0xC4CEB9FE1A85EC53ull;
  return (uint32_t)(h ^ (h >> 32));
}

#endif
