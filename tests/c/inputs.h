/* inputs.h: what the C tests read and how they edit it: a whole file, and
 * the fixed-seed random numbers that choose edits (a failure replays). */
#ifndef MM_TEST_INPUTS_H
#define MM_TEST_INPUTS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's bytes (malloc'd, not NUL-terminated), or NULL. */
static inline char *read_whole(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *data = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long size = ftell(f);
    data = size > 0 ? malloc((size_t)size) : NULL;
    rewind(f);
    if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
      free(data);
      data = NULL;
    }
    *len = data ? (size_t)size : 0;
  }
  fclose(f);
  return data;
}

static inline uint64_t next_random(uint64_t *state) { /* xorshift64 */
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Inserts `text` at buf[at] (the buffer has room) or deletes up to
 * `count` bytes there; `*n` is the length before and after. */
static inline void insert_bytes(char *buf, size_t *n, size_t at, const char *text) {
  size_t k = strlen(text);
  memmove(buf + at + k, buf + at, *n - at);
  memcpy(buf + at, text, k);
  *n += k;
}
static inline void delete_bytes(char *buf, size_t *n, size_t at, size_t count) {
  if (count > *n - at) count = *n - at;
  memmove(buf + at, buf + at + count, *n - at - count);
  *n -= count;
}

#endif
