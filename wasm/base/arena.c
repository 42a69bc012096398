/* arena.c: the core's only allocation functions, a bump arena, buffers. */
#include "base/arena.h"

#include <stdlib.h>
#include <string.h>

#ifdef MM_FAULT_INJECTION
/* Test builds only (tests/c/test_oom.c): allocation number `mm__fault_at`
 * and every later one fail, as when a WebAssembly heap is exhausted. */
long mm__fault_at = -1;
long mm__alloc_count = 0;
static int fault_now(void) {
  long n = mm__alloc_count++;
  return mm__fault_at >= 0 && n >= mm__fault_at;
}
#else
static int fault_now(void) { return 0; }
#endif

void *mm__alloc(size_t size) { return fault_now() ? NULL : malloc(size ? size : 1); }
void *mm__realloc(void *ptr, size_t size) {
  return fault_now() ? NULL : realloc(ptr, size ? size : 1);
}
void mm__dealloc(void *ptr) { free(ptr); }

struct mm_arena_block {
  mm_arena_block *next;
  size_t capacity;
  /* data follows, aligned to max_align_t */
};

#define MM_ARENA_HEADER (((sizeof(mm_arena_block) + 15) / 16) * 16)
#define MM_ARENA_MIN_BLOCK ((size_t)64 * 1024)

void mm__arena_init(mm_arena *arena) { memset(arena, 0, sizeof *arena); }

static bool arena_grow(mm_arena *arena, size_t size) {
  size_t capacity = size > MM_ARENA_MIN_BLOCK ? size : MM_ARENA_MIN_BLOCK;
  if (capacity > SIZE_MAX - MM_ARENA_HEADER) return false;
  mm_arena_block *block = mm__alloc(MM_ARENA_HEADER + capacity);
  if (!block) return false;
  block->next = arena->head;
  block->capacity = capacity;
  arena->head = block;
  arena->data = (char *)block + MM_ARENA_HEADER;
  arena->used = 0;
  arena->capacity = capacity;
  return true;
}

void *mm__arena_alloc_slow(mm_arena *arena, size_t size) {
  if (arena->failed) return NULL;
  if (size > SIZE_MAX - 15) {
    arena->failed = true;
    arena->data = NULL;
    return NULL;
  }
  size = mm__arena_rounded(size);
  if (!arena->head || arena->capacity - arena->used < size) {
    if (!arena_grow(arena, size)) {
      arena->failed = true;
      arena->data = NULL; /* every later allocation takes the slow path and fails */
      return NULL;
    }
  }
  char *data = arena->data + arena->used;
  arena->used += size;
  return data;
}

char *mm__arena_strndup(mm_arena *arena, const char *text, size_t len) {
  char *copy = mm__arena_alloc(arena, len + 1);
  if (!copy) return NULL;
  if (len) memcpy(copy, text, len);
  copy[len] = 0;
  return copy;
}

void *mm__arena_copy(mm_arena *arena, const void *items, size_t count, size_t size) {
  if (count >= SIZE_MAX / size - 1) return NULL;
  void *copy = mm__arena_alloc(arena, (count + 1) * size);
  if (copy && count) memcpy(copy, items, count * size);
  return copy;
}

void mm__arena_reset(mm_arena *arena) {
  if (!arena->head) return;
  /* Keep the oldest block (the tail of the chain): typical statements fit. */
  mm_arena_block *block = arena->head;
  while (block->next) {
    mm_arena_block *next = block->next;
    mm__dealloc(block);
    block = next;
  }
  arena->head = block;
  if (!arena->failed) arena->data = (char *)block + MM_ARENA_HEADER;
  arena->used = 0;
  arena->capacity = block->capacity;
}

void mm__arena_free(mm_arena *arena) {
  mm_arena_block *block = arena->head;
  while (block) {
    mm_arena_block *next = block->next;
    mm__dealloc(block);
    block = next;
  }
  memset(arena, 0, sizeof *arena);
}

bool mm__buf_flush(mm_buf *buf) {
  if (buf->failed) return false;
  if (!buf->flush || !buf->len) return true;
  if (!buf->flush(buf->flush_context, buf->data, buf->len)) {
    buf->failed = true;
    return false;
  }
  buf->flushed += buf->len;
  buf->len = 0;
  return true;
}

bool mm__buf_reserve(mm_buf *buf, size_t extra) {
  if (buf->failed) return false;
  if (extra > SIZE_MAX / 2 - buf->len) {
    buf->failed = true;
    return false;
  }
  if (buf->len + extra + 1 <= buf->cap) return true;
  if (buf->flush && buf->len && (!mm__buf_flush(buf) || extra + 1 <= buf->cap)) return !buf->failed;
  size_t cap = buf->cap ? buf->cap : 256;
  while (cap < buf->len + extra + 1)
    cap *= 2;
  char *data = mm__realloc(buf->data, cap);
  if (!data) {
    buf->failed = true;
    return false;
  }
  buf->data = data;
  buf->cap = cap;
  return true;
}

void mm__buf_append_slow(mm_buf *buf, const char *text, size_t len) {
  if (!mm__buf_reserve(buf, len)) return;
  if (len) memcpy(buf->data + buf->len, text, len);
  buf->len += len;
  buf->data[buf->len] = 0;
}

void mm__buf_put_int(mm_buf *buf, int64_t value) {
  char digits[24];
  size_t n = sizeof digits;
  uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  while (magnitude > UINT32_MAX) {
    digits[--n] = (char)('0' + magnitude % 10);
    magnitude /= 10;
  }
  /* Most numbers: 32-bit division is cheaper, and two digits a step
   * halve the divisions (offsets and sizes have five or six digits). */
  static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                              "25262728293031323334353637383940414243444546474849"
                              "50515253545556575859606162636465666768697071727374"
                              "75767778798081828384858687888990919293949596979899";
  uint32_t small = (uint32_t)magnitude;
  while (small >= 100) {
    n -= 2;
    memcpy(digits + n, pairs + 2 * (small % 100), 2);
    small /= 100;
  }
  if (small >= 10) {
    n -= 2;
    memcpy(digits + n, pairs + 2 * small, 2);
  } else {
    digits[--n] = (char)('0' + small);
  }
  if (value < 0) digits[--n] = '-';
  mm__buf_append(buf, digits + n, sizeof digits - n);
}

void mm__buf_free(mm_buf *buf) {
  mm__dealloc(buf->data);
  memset(buf, 0, sizeof *buf);
}

void mm__vec_init(mm_vec *vec, size_t item_size) {
  memset(vec, 0, sizeof *vec);
  vec->item_size = item_size;
}

void *mm__vec_push(mm_vec *vec) {
  if (vec->failed) return NULL;
  if (vec->len == vec->cap) {
    size_t cap = vec->cap ? vec->cap * 2 : 16;
    if (cap > SIZE_MAX / vec->item_size) {
      vec->failed = true;
      return NULL;
    }
    void *items = mm__realloc(vec->items, cap * vec->item_size);
    if (!items) {
      vec->failed = true;
      return NULL;
    }
    vec->items = items;
    vec->cap = cap;
  }
  void *item = (char *)vec->items + vec->len * vec->item_size;
  memset(item, 0, vec->item_size);
  vec->len++;
  return item;
}

bool mm__vec_push_ptr_slow(mm_vec *vec, const void *ptr) {
  const void **slot = mm__vec_push(vec);
  if (slot) *slot = ptr;
  return slot != NULL;
}

void *mm__vec_at(const mm_vec *vec, size_t index) {
  return index < vec->len ? (char *)vec->items + index * vec->item_size : NULL;
}

void mm__vec_free(mm_vec *vec) {
  mm__dealloc(vec->items);
  size_t item_size = vec->item_size;
  memset(vec, 0, sizeof *vec);
  vec->item_size = item_size;
}

char *mm__buf_finish(mm_buf *buf, size_t *out_len) {
  if (buf->failed) {
    mm__buf_free(buf);
    return NULL;
  }
  if (out_len) *out_len = buf->len;
  return buf->data;
}

char *mm__strdup(const char *text) {
  size_t n = strlen(text);
  char *copy = mm__alloc(n + 1);
  if (copy) memcpy(copy, text, n + 1);
  return copy;
}

void mm_free(void *buffer) { mm__dealloc(buffer); }
