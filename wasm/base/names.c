/* names.c: open addressing with linear probing, multiplicative hashes. */
#include "base/names.h"

#include <string.h>

#include "base/arena.h"
#include "base/bytes.h"

static bool is_empty(const mm_name_entry *e, uint32_t stamp) {
  return !e->key || e->stamp != stamp;
}

/* The entry of `key`, or the empty slot where it would go. */
static mm_name_entry *probe(mm_name_entry *slots, size_t cap, uint32_t stamp, const char *key,
                            size_t len, uint32_t hash) {
  size_t i = hash & (cap - 1);
  for (;;) {
    mm_name_entry *e = &slots[i];
    if (is_empty(e, stamp) ||
        (e->hash == hash && e->len == len && mm__bytes_equal(e->key, key, len)))
      return e;
    i = (i + 1) & (cap - 1);
  }
}

static bool grow(mm_names *names) {
  size_t cap = names->cap ? names->cap * 2 : 64;
  mm_name_entry *slots = mm__alloc(cap * sizeof *slots);
  if (!slots) return false;
  memset(slots, 0, cap * sizeof *slots);
  for (size_t i = 0; i < names->cap; i++) {
    const mm_name_entry *old = &names->slots[i];
    if (!is_empty(old, names->stamp))
      *probe(slots, cap, names->stamp, old->key, old->len, old->hash) = *old;
  }
  mm__dealloc(names->slots);
  names->slots = slots;
  names->cap = cap;
  return true;
}

mm_name_entry *mm__names_upsert(mm_names *names, const char *key, size_t len, bool *added) {
  *added = false;
  if ((names->count + 1) * 4 > names->cap * 3 && !grow(names)) return NULL;
  uint32_t hash = mm__hash_bytes(key, len);
  mm_name_entry *e = probe(names->slots, names->cap, names->stamp, key, len, hash);
  if (is_empty(e, names->stamp)) {
    e->key = key;
    e->stamp = names->stamp;
    e->len = (uint32_t)len;
    e->hash = hash;
    e->value[0] = e->value[1] = 0;
    names->count++;
    *added = true;
  }
  return e;
}

const mm_name_entry *mm__names_find(const mm_names *names, const char *key, size_t len) {
  if (!names->cap) return NULL;
  const mm_name_entry *e =
      probe(names->slots, names->cap, names->stamp, key, len, mm__hash_bytes(key, len));
  return is_empty(e, names->stamp) ? NULL : e;
}

void mm__names_clear(mm_names *names) {
  names->count = 0;
  if (++names->stamp == 0 && names->slots) /* after 2^32 clears: every slot empty again */
    memset(names->slots, 0, names->cap * sizeof *names->slots);
}

void mm__names_free(mm_names *names) {
  mm__dealloc(names->slots);
  memset(names, 0, sizeof *names);
}
