/* skim_memo.c: annotations read before. A dump repeats its annotations
 * (`pl.Scalar[pl.INDEX]`, the same tile type statement after statement:
 * 380 distinct among the real dump's 2,519), so a statement whose
 * annotation is byte for byte one the fast path accepted before, followed
 * like it by `=` (no `==`), takes that result (its reads, its tile)
 * without reading it again: reading an annotation at a statement's top
 * level looks at its bytes and at the two after it, nothing else. Only
 * one-line annotations are kept; positions are relative to their start. */
#include <string.h>

#include "base/bytes.h"
#include "syntax/fast/skim.h"
#include "syntax/fast/skim_memo.h"

enum {
  MEMO_BUCKETS = 128, /* by a hash of the annotation's first bytes */
  MEMO_WAYS = 4,      /* annotations kept per bucket, the oldest replaced */
  MEMO_KEY = 32,      /* bytes hashed at most: up to the first `=` or line end */
  MEMO_LOADS = 12,    /* more reads than this: not kept */
  MEMO_DIMS = 8,      /* a longer shape: not kept */
  MEMO_LONGEST = 4096 /* bytes; positions fit in 16 bits */
};

typedef struct memo_entry {
  uint32_t text, len; /* the annotation's bytes in the source; len 0: empty */
  bool is_tile;
  uint8_t load_count, shape_len;
  uint16_t load_at[MEMO_LOADS], load_len[MEMO_LOADS];
  uint16_t space_at, space_len, base_at, base_len, dtype_at, dtype_len;
  int64_t offset, size;
  int64_t shape[MEMO_DIMS];
} memo_entry;

typedef struct memo_bucket {
  memo_entry ways[MEMO_WAYS];
  unsigned next; /* the way to replace */
} memo_bucket;

struct mm_skim_memo {
  memo_bucket buckets[MEMO_BUCKETS];
};

mm_skim_memo *mm__skim_memo_new(void) {
  mm_skim_memo *memo = mm__alloc(sizeof *memo);
  if (memo) memset(memo, 0, sizeof *memo);
  return memo;
}

void mm__skim_memo_free(mm_skim_memo *memo) { mm__dealloc(memo); }

/* The bucket of the annotation at `start`: a hash of its bytes up to the
 * first `=` or line end, MEMO_KEY at most. The same annotation followed by
 * `=` always has the same bytes there. */
static memo_bucket *bucket_of(mm_skim_memo *memo, const skim *k, size_t start) {
  const char *s = (const char *)k->s;
  size_t limit = k->end - start > MEMO_KEY ? start + MEMO_KEY : k->end;
  size_t n = mm__find_either(s, start, limit, '=', '\n') - start;
  return &memo->buckets[mm__hash_bytes(s + start, n) % MEMO_BUCKETS];
}

static void take_result(const memo_entry *e, size_t start, mm_skim_statement *out) {
  out->is_tile = e->is_tile;
  if (!e->is_tile) return;
  out->space_start = (uint32_t)start + e->space_at;
  out->space_len = e->space_len;
  out->base_start = (uint32_t)start + e->base_at;
  out->base_len = e->base_len;
  out->offset = e->offset;
  out->size = e->size;
  out->shape_len = e->shape_len;
  memset(out->shape, 0, sizeof out->shape);
  memcpy(out->shape, e->shape, e->shape_len * sizeof *e->shape);
  out->dtype_start = e->dtype_len ? (uint32_t)start + e->dtype_at : 0;
  out->dtype_len = e->dtype_len;
}

bool mm__skim_memo_take(mm_skim_memo *memo, skim *k, mm_skim_statement *out) {
  if (!memo) return false;
  size_t start = k->pos, first_load = k->loads->len;
  const char *text = (const char *)k->s + start;
  const memo_bucket *b = bucket_of(memo, k, start);
  for (unsigned w = 0; w < MEMO_WAYS; w++) {
    const memo_entry *e = &b->ways[w];
    size_t end = start + e->len;
    if (!e->len || end + 1 >= k->end || k->s[end] != '=' || k->s[end + 1] == '=' ||
        !mm__bytes_equal((const char *)k->s + e->text, text, e->len))
      continue;
    for (unsigned i = 0; i < e->load_count; i++) {
      size_t at = start + e->load_at[i];
      if (!push_load(k, at, at + e->load_len[i])) {
        k->loads->len = first_load;
        return false;
      }
    }
    take_result(e, start, out);
    k->pos = end; /* at the `=`, as after reading the annotation */
    return true;
  }
  return false;
}

void mm__skim_memo_keep(mm_skim_memo *memo, const skim *k, size_t start, uint32_t line,
                        size_t first_load, const mm_skim_statement *out) {
  size_t len = k->pos - start, load_count = k->loads->len - first_load;
  /* The reading ended at a `=` (pos is there), on the line it began. */
  if (!memo || !len || len > MEMO_LONGEST || k->line != line || load_count > MEMO_LOADS ||
      (out->is_tile && out->shape_len > MEMO_DIMS))
    return;
  memo_bucket *b = bucket_of(memo, k, start);
  memo_entry *e = &b->ways[b->next];
  b->next = (b->next + 1) % MEMO_WAYS;
  const mm_skim_load *loads = (const mm_skim_load *)k->loads->items + first_load;
  e->text = (uint32_t)start;
  e->len = (uint32_t)len;
  e->load_count = (uint8_t)load_count;
  for (size_t i = 0; i < load_count; i++) {
    e->load_at[i] = (uint16_t)(loads[i].start - start);
    e->load_len[i] = (uint16_t)loads[i].len;
  }
  e->is_tile = out->is_tile;
  if (!out->is_tile) return;
  e->space_at = (uint16_t)(out->space_start - start);
  e->space_len = (uint16_t)out->space_len;
  e->base_at = (uint16_t)(out->base_start - start);
  e->base_len = (uint16_t)out->base_len;
  e->offset = out->offset;
  e->size = out->size;
  e->shape_len = (uint8_t)out->shape_len;
  memcpy(e->shape, out->shape, out->shape_len * sizeof *out->shape);
  e->dtype_at = out->dtype_len ? (uint16_t)(out->dtype_start - start) : 0;
  e->dtype_len = (uint16_t)out->dtype_len;
}
