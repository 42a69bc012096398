/* names.h: a hash table from names (slices of the source) to two numbers;
 * the model keeps the first and last line each name is read on. */
#ifndef MM_NAMES_H
#define MM_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mm_name_entry {
  const char *key; /* NULL, or a stamp other than the table's: the slot is empty; not owned */
  uint32_t len, hash;
  uint32_t value[2];
  uint32_t stamp;
} mm_name_entry;

typedef struct mm_names {
  mm_name_entry *slots;
  size_t cap, count;
  /* Entries of other stamps are empty: clearing the table is a new stamp,
   * not a pass over every slot (a model clears its table of reads per
   * function, and it grows to the largest function's). */
  uint32_t stamp;
} mm_names;

/* The entry for `key`, added with zero values when missing (`*added` set);
 * NULL when out of memory. `key` must outlive the table. */
mm_name_entry *mm__names_upsert(mm_names *names, const char *key, size_t len, bool *added);
/* The entry for `key`, or NULL. */
const mm_name_entry *mm__names_find(const mm_names *names, const char *key, size_t len);
/* Empties the table, keeping its memory (in constant time). */
void mm__names_clear(mm_names *names);
void mm__names_free(mm_names *names);

#endif
