/* arena.h: bump allocation for parse-lifetime data, and growable buffers.
 * Every allocation of the core goes through mm__alloc/mm__realloc/mm__dealloc
 * (one place to count or fail allocations in tests). */
#ifndef MM_ARENA_H
#define MM_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *mm__alloc(size_t size);
void *mm__realloc(void *ptr, size_t size);
void mm__dealloc(void *ptr);
/* A heap copy of `text` (NUL-terminated), or NULL when out of memory. */
char *mm__strdup(const char *text);

/* A chain of blocks; everything allocated from it is freed together. */
typedef struct mm_arena_block mm_arena_block;
typedef struct mm_arena {
  mm_arena_block *head;
  char *data;      /* head's first byte; NULL before the first block and after a failure */
  size_t used;     /* bytes used in head */
  size_t capacity; /* bytes available in head */
  bool failed;     /* an allocation failed; results are NULL from then on */
} mm_arena;

void mm__arena_init(mm_arena *arena);
/* An allocation's size in the arena: a multiple of 16, at least 16. The
 * caller keeps `size` far below SIZE_MAX. */
static inline size_t mm__arena_rounded(size_t size) {
  return size < 16 ? 16 : (size + 15) & ~(size_t)15;
}
/* Allocation that needs a new block (or fails): mm__arena_alloc's slow path. */
void *mm__arena_alloc_slow(mm_arena *arena, size_t size);
/* `size` bytes aligned to 16; NULL when out of memory. The common case is
 * inline: the parser allocates a node per expression. */
static inline void *mm__arena_alloc(mm_arena *arena, size_t size) {
  if (arena->data && size <= 4096) {
    size_t rounded = mm__arena_rounded(size);
    if (arena->capacity - arena->used >= rounded) {
      void *item = arena->data + arena->used;
      arena->used += rounded;
      return item;
    }
  }
  return mm__arena_alloc_slow(arena, size);
}
/* Copies `len` bytes and appends a NUL. */
char *mm__arena_strndup(mm_arena *arena, const char *text, size_t len);
/* Copies `count` items of `size` bytes, with room for one more (so that
 * none is still an allocation); NULL when out of memory. */
void *mm__arena_copy(mm_arena *arena, const void *items, size_t count, size_t size);
/* Frees all blocks but the first, and rewinds: cheap reuse per statement. */
void mm__arena_reset(mm_arena *arena);
void mm__arena_free(mm_arena *arena);

/* A growable byte buffer (JSON output, scratch strings). With `flush`
 * set it streams instead: when the next bytes do not fit, the ones held
 * go to `flush` and the buffer starts over, so it stays the size it was
 * given (a writer's output need not all be in memory at once). */
typedef struct mm_buf {
  char *data;
  size_t len, cap;
  bool failed;
  bool (*flush)(void *context, const char *data, size_t len); /* false: stop, failed */
  void *flush_context;
  size_t flushed; /* bytes handed to `flush` so far */
} mm_buf;

/* Room for `extra` more bytes and a NUL; false (and failed) when out of
 * memory or when `flush` refused the bytes held. */
bool mm__buf_reserve(mm_buf *buf, size_t extra);
/* Where the next byte goes in the whole output, bytes flushed included. */
static inline size_t mm__buf_position(const mm_buf *buf) { return buf->flushed + buf->len; }
/* Hands what is held to `flush` (when set): true when nothing is left. */
bool mm__buf_flush(mm_buf *buf);
void mm__buf_append_slow(mm_buf *buf, const char *text, size_t len);
void mm__buf_put_int(mm_buf *buf, int64_t value);
/* Inline: the JSON writer makes a call per field. The buffer always ends
 * in a NUL past `len` once it holds anything. */
static inline void mm__buf_append(mm_buf *buf, const char *text, size_t len) {
  if (buf->len + len < buf->cap && !buf->failed) {
    memcpy(buf->data + buf->len, text, len);
    buf->len += len;
    buf->data[buf->len] = 0;
  } else {
    mm__buf_append_slow(buf, text, len);
  }
}
/* strlen of a literal is folded here. */
static inline void mm__buf_puts(mm_buf *buf, const char *text) {
  mm__buf_append(buf, text, strlen(text));
}
static inline void mm__buf_putc(mm_buf *buf, char c) { mm__buf_append(buf, &c, 1); }
void mm__buf_free(mm_buf *buf);
/* The end of a writer: the buffer's bytes for the caller (`*out_len`
 * gets their length when non-NULL), or NULL, the buffer freed, when an
 * append failed. */
char *mm__buf_finish(mm_buf *buf, size_t *out_len);

/* A growable array of fixed-size items. */
typedef struct mm_vec {
  void *items;
  size_t len, cap, item_size;
  bool failed;
} mm_vec;

void mm__vec_init(mm_vec *vec, size_t item_size);
/* Appends one zeroed item and returns it, NULL when out of memory. */
void *mm__vec_push(mm_vec *vec);
void *mm__vec_at(const mm_vec *vec, size_t index);
/* Appends to a vector of pointers; false when out of memory. Inline: the
 * parser's kid lists and walks push a pointer per node. */
bool mm__vec_push_ptr_slow(mm_vec *vec, const void *ptr);
static inline bool mm__vec_push_ptr(mm_vec *vec, const void *ptr) {
  if (vec->len < vec->cap) {
    ((const void **)vec->items)[vec->len++] = ptr;
    return true;
  }
  return mm__vec_push_ptr_slow(vec, ptr);
}
/* Appends to a vector of uint32_t; false when out of memory. */
static inline bool mm__vec_push_u32(mm_vec *vec, uint32_t value) {
  uint32_t *slot =
      vec->len < vec->cap ? (uint32_t *)vec->items + vec->len++ : (uint32_t *)mm__vec_push(vec);
  if (slot) *slot = value;
  return slot != NULL;
}
void mm__vec_free(mm_vec *vec);

#endif
