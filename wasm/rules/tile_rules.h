/* tile_rules.h: the words a tile annotation is made of (model.md,
 * "Tiles"), stated once: the general reader (model/tiles.c, over the AST)
 * and the fast path (syntax/fast/, over the bytes) both ask these. Each
 * takes a name's text, the last part of a dotted name; inline, as the
 * fast path asks them of most names it reads. */
#ifndef MM_TILE_RULES_H
#define MM_TILE_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/bytes.h"

/* Integers beyond this cannot be held exactly by a JSON reader (2^53):
 * a MemRef's offset or size past it refuses the dump. */
#define MM_MAX_EXACT_INTEGER ((int64_t)1 << 53)

/* An op (a call's dotted name) is read to at most this many parts, the
 * rest elided. */
#define MM_MAX_OP_PARTS 64

/* `Tile` of `<...>.Tile[...]`: the annotation's type. */
static inline bool mm__is_tile_type(const char *text, size_t len) {
  return mm__span_is(text, len, "Tile");
}

/* `MemRef` of `<...>.MemRef(base, offset, size, ...)`. */
static inline bool mm__is_memref_call(const char *text, size_t len) {
  return mm__span_is(text, len, "MemRef");
}

/* `const` of `<...>.const(<integer>, ...)`: an integer as the printer
 * wraps a MemRef's offset. */
static inline bool mm__is_const_call(const char *text, size_t len) {
  return mm__span_is(text, len, "const");
}

/* `Mem` of `<...>.Mem.<Space>`: the part before a memory space. */
static inline bool mm__is_space_namespace(const char *text, size_t len) {
  return mm__span_is(text, len, "Mem");
}

/* `MemorySpace` of `<...>.MemorySpace.<Space>`, the printers' before
 * 2026 (first in the older MemRef form). */
static inline bool mm__is_legacy_space_namespace(const char *text, size_t len) {
  return mm__span_is(text, len, "MemorySpace");
}

/* `DDR`: off-chip, so the annotation is no tile of the map. */
static inline bool mm__is_off_chip_space(const char *text, size_t len) {
  return mm__span_is(text, len, "DDR");
}

/* A dtype: Python's str.isupper() of the name (valid UTF-8): no lower or
 * title case character, at least one upper case one (`FP32`, `ÉF16`). */
bool mm__is_dtype_name(const char *text, size_t len);

/* The namespace the printer writes before its calls (`pl.`), which an
 * op leaves out: the length of that prefix of text[0, len), or 0. */
static inline size_t mm__op_prefix_len(const char *text, size_t len) {
  return len > 3 && mm__bytes_equal(text, "pl.", 3) ? 3 : 0;
}

#endif
