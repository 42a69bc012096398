/* uses.c: the lines each tile is used on (every line of a statement
 * binding it, every line reading it), a box's as its run's tiles'
 * together, and the longest span it is held without a use. */
#include "model/uses.h"

#include <string.h>

static int compare_lines(const uint32_t *a, const uint32_t *b) { return *a < *b ? -1 : *a > *b; }

#define MM_SORT_NAME sort_lines
#define MM_SORT_TYPE uint32_t
#define MM_SORT_COMPARE compare_lines
#include "base/sort_impl.h"

/* Sorts lines[0, n) and drops repeats: the count left, SIZE_MAX when out
 * of memory. */
static size_t sort_distinct(uint32_t *lines, size_t n) {
  if (!sort_lines(lines, n)) return SIZE_MAX;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (!kept || lines[i] != lines[kept - 1]) lines[kept++] = lines[i];
  return kept;
}

bool mm__tile_uses(mm_tile *tiles, size_t tile_count, const mm_use *uses, size_t use_count,
                   mm_arena *arena) {
  /* Statements do not overlap, so the lines of all bindings and reads
   * are at most the input's lines plus its reads. */
  size_t *next = mm__alloc((tile_count + 1) * sizeof *next);
  if (!next) return false;
  memset(next, 0, (tile_count + 1) * sizeof *next);
  for (size_t i = 0; i < use_count; i++)
    next[uses[i].tile + 1] += (size_t)(uses[i].last - uses[i].first) + 1;
  for (size_t t = 0; t < tile_count; t++)
    next[t + 1] += next[t];
  size_t total = next[tile_count];
  uint32_t *lines = mm__arena_alloc(arena, (total ? total : 1) * sizeof *lines);
  bool ok = lines != NULL;
  for (size_t t = 0; ok && t < tile_count; t++) {
    tiles[t].uses = lines + next[t];
    tiles[t].use_count = 0;
  }
  for (size_t i = 0; ok && i < use_count; i++) {
    mm_tile *t = &tiles[uses[i].tile];
    uint32_t *slot = (uint32_t *)t->uses;
    for (uint32_t line = uses[i].first; line <= uses[i].last && line != 0; line++)
      slot[t->use_count++] = line;
  }
  for (size_t t = 0; ok && t < tile_count; t++) {
    size_t kept = sort_distinct((uint32_t *)tiles[t].uses, tiles[t].use_count);
    ok = kept != SIZE_MAX;
    tiles[t].use_count = (uint32_t)kept;
  }
  mm__dealloc(next);
  return ok;
}

/* ------------------------------------------------------------ boxes */

static const mm_tile *run_tile(const mm_box *box, uint32_t k) {
  return box->alias_count ? box->run[k] : box->tile;
}

/* The uses of all the run's tiles, sorted and distinct. */
static bool box_uses(mm_box *box, mm_arena *arena) {
  if (!box->alias_count) {
    box->uses = box->tile->uses;
    box->use_count = box->tile->use_count;
    return true;
  }
  size_t total = 0;
  for (uint32_t k = 0; k <= box->alias_count; k++)
    total += run_tile(box, k)->use_count;
  uint32_t *lines = mm__arena_alloc(arena, (total ? total : 1) * sizeof *lines);
  if (!lines) return false;
  size_t n = 0;
  for (uint32_t k = 0; k <= box->alias_count; k++) {
    const mm_tile *t = run_tile(box, k);
    memcpy(lines + n, t->uses, t->use_count * sizeof *lines);
    n += t->use_count;
  }
  size_t kept = sort_distinct(lines, n);
  box->uses = lines;
  box->use_count = (uint32_t)kept;
  return kept != SIZE_MAX;
}

/* The longest run of lines strictly between two uses (the first when
 * equal). */
static void find_idle(mm_box *box) {
  uint32_t longest = 0;
  box->idle_from = box->idle_to = 0;
  for (uint32_t i = 1; i < box->use_count; i++) {
    uint32_t gap = box->uses[i] - box->uses[i - 1] - 1;
    if (gap <= longest) continue;
    longest = gap;
    box->idle_from = box->uses[i - 1] + 1;
    box->idle_to = box->uses[i] - 1;
  }
}

bool mm__function_idle(mm_function *fn, mm_arena *arena) {
  for (size_t i = 0; i < fn->box_count; i++) {
    if (!box_uses(&fn->boxes[i], arena)) return false;
    find_idle(&fn->boxes[i]);
  }
  return true;
}

int64_t mm__idle_cost(const mm_box *box) {
  const int64_t most = (int64_t)1 << 53;
  int64_t size = box->tile->size, lines = box->idle_from ? box->idle_to - box->idle_from + 1 : 0;
  if (size <= 0 || lines <= 0) return 0;
  return size > most / lines ? most : size * lines;
}
