/* names.c: open addressing with linear probing, multiplicative hashes. */
#include "names.h"

#include <string.h>

#include "arena.h"
#include "bytes.h"

/* Eight bytes a step (names in dumps run to dozens of bytes), each step
 * mixed by a multiply; the last word overlaps the one before, and a name
 * under eight bytes is read in two overlapping halves (or its first,
 * middle and last byte): no byte loop. The length is mixed in first. */
static uint64_t hash_step(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 32);
}

static uint32_t hash_bytes(const char *key, size_t len) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ len;
  if (len >= 8) {
    for (size_t i = 0; i + 8 < len; i += 8)
      h = hash_step(h, mm_load8(key + i));
    h = hash_step(h, mm_load8(key + len - 8));
  } else if (len >= 4) {
    h = hash_step(h, mm_load4(key) | (uint64_t)mm_load4(key + len - 4) << 32);
  } else if (len > 0) {
    const unsigned char *u = (const unsigned char *)key;
    h = hash_step(h, u[0] | (uint32_t)u[len / 2] << 8 | (uint32_t)u[len - 1] << 16);
  }
  h ^= h >> 29;
  h *= 0xC4CEB9FE1A85EC53ull;
  return (uint32_t)(h ^ (h >> 32));
}

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
        (e->hash == hash && e->len == len && mm_bytes_equal(e->key, key, len)))
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

mm_name_entry *mm_names_upsert(mm_names *names, const char *key, size_t len, bool *added) {
  *added = false;
  if ((names->count + 1) * 4 > names->cap * 3 && !grow(names)) return NULL;
  uint32_t hash = hash_bytes(key, len);
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

const mm_name_entry *mm_names_find(const mm_names *names, const char *key, size_t len) {
  if (!names->cap) return NULL;
  const mm_name_entry *e =
      probe(names->slots, names->cap, names->stamp, key, len, hash_bytes(key, len));
  return is_empty(e, names->stamp) ? NULL : e;
}

void mm_names_clear(mm_names *names) {
  names->count = 0;
  if (++names->stamp == 0 && names->slots) /* after 2^32 clears: every slot empty again */
    memset(names->slots, 0, names->cap * sizeof *names->slots);
}

void mm_names_free(mm_names *names) {
  mm__dealloc(names->slots);
  memset(names, 0, sizeof *names);
}
